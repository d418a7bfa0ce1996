"""The tree lab's application layer: what every shell of it (the command line, the web
app) shares.

Tree text, its notation and the search options go in; the tree, the search result and
notes on options that had no effect come out, and the renderers of :mod:`plies.draw`
and :mod:`plies.trees` turn those into documents. Answers to exercises are checked
here too. A shell only translates its own input (an argparse namespace, a JSON body, a
query string) into these calls, so the CLI and the web app give the same answer to
the same question.

It is the application layer of games too: the shells find games here (:data:`GAMES`,
:func:`parse_game_spec`, :func:`load_game`, re-exported from :mod:`plies.games`, which
no shell imports), and the game room (:class:`Room`, :func:`open_room`,
:func:`play_move`, :func:`think`...) is how a person plays the engine, in the web app
and at the command line alike.

>>> from plies import lab
>>> tree = lab.read_tree("[[3,12,8],[2,4,6],[14,5,2]]")
>>> options = lab.LabOptions(algorithm="minimax", strict=True)
>>> lab.run(tree, options).value
3
>>> options.notes(tree)
['--strict has no effect: minimax does not prune here']
"""

from plies.games import GAMES, OPENSPIEL, GameEntry, get_game, parse_game_spec
from plies.games.text import MAX_DIGITS, shown
from plies.lab._check import AnswerError, CheckResult, Feedback, check_answer, node_name
from plies.lab._games import game_tree, load_game, read_game_tree
from plies.lab._play import EngineMove, engine_move, play_engine_move
from plies.lab._room import (
    Outcome,
    Room,
    RoomError,
    open_room,
    outcome,
    play_move,
    player_names,
    roll,
    room_of,
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
    "GAMES",
    "MAX_DIGITS",
    "OPENSPIEL",
    "SCORE_STYLES",
    "AnswerError",
    "CheckResult",
    "EngineMove",
    "ExerciseError",
    "Feedback",
    "GameEntry",
    "LabOptions",
    "Outcome",
    "Room",
    "RoomError",
    "ScoreStyle",
    "check_answer",
    "compare_document",
    "engine_move",
    "exercise",
    "format_line",
    "format_score",
    "game_tree",
    "get_game",
    "load_game",
    "node_name",
    "open_room",
    "outcome",
    "parse_game_spec",
    "play_engine_move",
    "play_move",
    "player_names",
    "read_game_tree",
    "read_tree",
    "roll",
    "room_of",
    "room_state",
    "run",
    "score_of",
    "search_document",
    "shown",
    "think",
    "undo",
    "with_bounds",
]
