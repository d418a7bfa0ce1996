"""Opening books: exact values of every position near the start, in an SQLite file.

:func:`build_book` solves every distinct position up to ``plies`` plies from the start
(mirror images and transpositions once, by the game's
:meth:`~plies.game.BaseGame.canonical_key`) and stores its exact engine score for the
side to move; :class:`Book` answers from the file. Only the deepest level (and the
finished games above it) is searched, on a Dask cluster if asked
(:func:`plies.cluster.run_lines`); every shallower value follows from its children by
negamax over the book. Results are committed as they arrive: building again into the
same file resumes an interrupted build.

>>> import tempfile, pathlib
>>> from plies.games import get_game
>>> path = pathlib.Path(tempfile.mkdtemp()) / "ttt.sqlite"
>>> stats = build_book("tictactoe", path, plies=2)
>>> stats.positions, stats.complete
(82, True)
>>> game = get_game("tictactoe")
>>> with Book.open(path, game) as book:
...     book.answer(game.initial_state(), moves="all").result
'draw'

The book sits above :mod:`plies.cluster` (it runs its leaves through it), the engine
and the games; nothing below imports it. Its file format is described in
:mod:`plies.book._store`.
"""

from plies.book._build import MAX_PLIES, BookLeaves, build_book
from plies.book._reader import Book, child_score
from plies.book._store import BookError, BookStats, LevelStats

__all__ = [
    "MAX_PLIES",
    "Book",
    "BookError",
    "BookLeaves",
    "BookStats",
    "LevelStats",
    "build_book",
    "child_score",
]
