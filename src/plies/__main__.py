"""Run the command line with ``python -m plies``."""

from plies.cli import main

if __name__ == "__main__":  # not when multiprocessing's workers import it
    raise SystemExit(main())
