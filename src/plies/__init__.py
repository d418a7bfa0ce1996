"""plies: adversarial game-tree search (minimax, alpha-beta and their family).

The package is layered: :mod:`plies.errors` holds the error types every part raises,
:mod:`plies.trees` searches explicit game trees (the classroom side), :mod:`plies.game`,
:mod:`plies.engine` and :mod:`plies.games` are the game engine, :mod:`plies.draw`
draws trees, :mod:`plies.lab` is the tree lab's application layer and the command line
in :mod:`plies.cli` sits on top. Nothing in the core imports the CLI.
"""

from plies.errors import (
    ArgumentTypeError,
    IllegalMoveError,
    LimitError,
    ParseError,
    PliesError,
    SearchError,
    TreeError,
    UnknownGameError,
)

__version__ = "0.1.0"

__all__ = [
    "ArgumentTypeError",
    "IllegalMoveError",
    "LimitError",
    "ParseError",
    "PliesError",
    "SearchError",
    "TreeError",
    "UnknownGameError",
    "__version__",
]
