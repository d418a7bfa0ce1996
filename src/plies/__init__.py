"""plies: adversarial game-tree search (minimax, alpha-beta and their family).

The package is layered: :mod:`plies.errors` holds the error types every part raises,
:mod:`plies.trees` searches explicit game trees (the classroom side) and the command
line in :mod:`plies.cli` sits on top. Nothing in the core imports the CLI.
"""

from plies.errors import ParseError, PliesError

__version__ = "0.1.0"

__all__ = ["ParseError", "PliesError", "__version__"]
