"""Run the ``xlsudoku`` command line: ``python -m xlsudoku``."""

import sys

from xlsudoku.cli import main

sys.exit(main())
