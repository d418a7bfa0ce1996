"""The tree lab's application layer: what every shell of it (the command line, the web
app) shares.

Tree text, its notation and the search options go in; the tree, the search result and
notes on options that had no effect come out, and the renderers of :mod:`plies.draw`
and :mod:`plies.trees` turn those into documents. Answers to exercises are checked
here too. A shell only translates its own input (an argparse namespace, a JSON body, a
query string) into these calls, so the CLI and the web app give the same answer to
the same question.

>>> from plies import lab
>>> tree = lab.read_tree("[[3,12,8],[2,4,6],[14,5,2]]")
>>> options = lab.LabOptions(algorithm="minimax", strict=True)
>>> lab.run(tree, options).value
3
>>> options.notes(tree)
['--strict has no effect: minimax does not prune here']
"""

from plies.lab._check import AnswerError, CheckResult, Feedback, check_answer, node_name
from plies.lab._games import game_tree, read_game_tree
from plies.lab._room import (
    Room,
    RoomError,
    open_room,
    play_move,
    roll,
    room_state,
    think,
    undo,
)
from plies.lab._search import (
    ExerciseError,
    LabOptions,
    compare_document,
    exercise,
    read_tree,
    run,
    search_document,
    with_bounds,
)
from plies.lab._text import SCORE_STYLES, ScoreStyle, format_line, format_score, score_of

__all__ = [
    "SCORE_STYLES",
    "AnswerError",
    "CheckResult",
    "ExerciseError",
    "Feedback",
    "LabOptions",
    "Room",
    "RoomError",
    "ScoreStyle",
    "check_answer",
    "compare_document",
    "exercise",
    "format_line",
    "format_score",
    "game_tree",
    "node_name",
    "open_room",
    "play_move",
    "read_game_tree",
    "read_tree",
    "roll",
    "room_state",
    "run",
    "score_of",
    "search_document",
    "think",
    "undo",
    "with_bounds",
]
