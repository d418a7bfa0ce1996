"""plies: adversarial game-tree search (minimax, alpha-beta and their family).

The package is built in floors: a module imports from the floors below its own, never
from one above, and packages side by side on a floor (``|``) do not import each other::

    plies.cli                              the command line (parses and prints)
    plies.web | plies.uci                  the web lab and the UCI engine (shells too)
    plies.classroom                        worksheets, exams and platform exercises
    plies.lab | plies.grade                the application layer: trees and games;
                                           grading students' own search code
    plies.book                             opening books
    plies.cluster | plies.draw             Dask solves; drawings of trees
    plies.games | plies.testing            each game's home; the conformance kit
    plies.engine                           search and solve (engine.native: the kernel)
    plies.trees | plies.game | plies.prune explicit trees; the game protocol;
                                           prune-and-search (selection, 2-D LP)
    plies.errors, plies._arguments, plies._forkserver    shared helpers

The shells reach games, the engine and books only through :mod:`plies.lab`, the
engine imports no game, and no package imports another's private (``_``) module or
name. ``lint-imports`` checks the floors (``[tool.importlinter]`` in pyproject.toml)
and ``tests/test_layers.py`` the private names.
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
