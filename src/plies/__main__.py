"""Run the command line with ``python -m plies``."""

from plies.cli import main

raise SystemExit(main())
