"""Run the ``xlsudoku`` command line: ``python -m xlsudoku``."""

import sys

from xlsudoku.addin.main import main

sys.exit(main())
