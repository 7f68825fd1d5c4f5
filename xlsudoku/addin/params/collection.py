"""The Collection tools' cells: the ids Delete ids, Restore ids and Play from name."""

from __future__ import annotations

from xlsudoku.addin import layout
from xlsudoku.addin.params.cells import (
    ParamError,
    Raw,
    as_text,
    is_blank,
    shown,
    unusable,
    where_of,
)


def _ascii_digits(text: str) -> bool:
    """Return True when *text* (spaces around ignored) is made of the digits 0-9 only.

    >>> _ascii_digits(" 12 "), _ascii_digits("①"), _ascii_digits("²")
    (True, False, False)
    """
    text = text.strip()
    return text.isascii() and text.isdigit()


# Ids have at most this many digits: Excel keeps every digit of a whole number this long.
MAX_ID_DIGITS = 15
# Delete ids names at most this many ids (ranges counted whole).
MAX_DELETE_IDS = 100_000


def collection_id(text: str, where: str) -> int | None:
    """Return the Collection id *text* spells in the digits 0-9, or None when it is no number.

    Raises:
        ParamError: naming *where*, when the number is longer than any id.

    >>> collection_id(" 12 ", "Play from (C3)"), collection_id("\u00b2", "Play from (C3)")
    (12, None)
    >>> collection_id("9" * 5001, "Play from (C3)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: Play from (C3): '99999...' is not an id: an id has ...
    """
    text = text.strip()
    if not _ascii_digits(text):
        return None
    if len(text.lstrip("0")) > MAX_ID_DIGITS:
        short = text if len(text) <= 8 else text[:5] + "..."
        raise ParamError(
            [f"{where}: {short!r} is not an id: an id has at most {MAX_ID_DIGITS} digits"]
        )
    return int(text)


def read_ids(value: Raw, name: str = layout.DELETE_IDS) -> list[int]:
    """Return the Collection ids typed in Delete ids (or *name*): numbers and ranges, ``3, 5-7``.

    Raises:
        ParamError: naming the cell and the part that is not an id.

    >>> read_ids("3, 5-7; 9"), read_ids(4.0)
    ([3, 5, 6, 7, 9], [4])
    >>> read_ids("3, x")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: Delete ids (C33) must list ids such as 3, 5-7; 'x' is not one
    """  # noqa: E501
    param = layout.TOOLS_BY_NAME[name]
    where = where_of(param)
    if is_blank(value):
        verb = param.label.split()[0].lower()  # delete, restore
        raise ParamError([f"{where} is empty: type the ids of the rows to {verb}"])
    reason = unusable(value)
    if reason is not None:
        raise ParamError([f"{where} {reason}; type ids such as 3, 5-7"])
    ids: list[int] = []
    for part in as_text(value).replace(";", ",").split(","):
        text = part.strip()
        if not text:
            continue
        low, _, high = text.partition("-")
        first, last = collection_id(low, where), collection_id(high or low, where)
        if first is None or last is None:
            raise ParamError([f"{where} must list ids such as 3, 5-7; {shown(text)} is not one"])
        if last < first or last - first >= MAX_DELETE_IDS:
            raise ParamError([f"{where}: the range {shown(text)} runs backwards or is huge"])
        ids.extend(range(first, last + 1))
        if len(ids) > MAX_DELETE_IDS:
            raise ParamError([f"{where} names more than {MAX_DELETE_IDS} ids: take them in parts"])
    return list(dict.fromkeys(ids))
