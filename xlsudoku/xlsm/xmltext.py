"""Text put into XML and taken out of it: the three characters markup reserves.

:mod:`xml.sax.saxutils` does the same, but importing it loads :mod:`urllib.request` (and with
it HTTP, e-mail and SSL modules), which every workbook command would pay for at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping


def escape(text: str, entities: Mapping[str, str] | None = None) -> str:
    """Return *text* with ``&``, ``<`` and ``>`` escaped, then each key of *entities* replaced.

    >>> escape('a < b & "c"', {'"': "&quot;"})
    'a &lt; b &amp; &quot;c&quot;'
    """
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    for key, value in (entities or {}).items():
        text = text.replace(key, value)
    return text


def unescape(text: str) -> str:
    """Return *text* with ``&lt;``, ``&gt;`` and ``&amp;`` read back (``&amp;`` last).

    >>> unescape("a &lt; b &amp;amp; c")
    'a < b &amp; c'
    """
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
