"""Run the engine command line: ``python -m engine``."""

import sys

from xlsudoku.engine.cli import main

sys.exit(main())
