"""Run the engine command line: ``python -m engine``."""

import sys

from engine.cli import main

sys.exit(main())
