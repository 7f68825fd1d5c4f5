"""Console script ``xlsudoku``: the engine commands plus the workbook commands."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from engine import cli


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xlsudoku``; return the exit status."""
    return cli.main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
