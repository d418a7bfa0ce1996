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
and at the command line alike. The engine is run here too, never by a shell:
:func:`analyze` (a search, one :class:`Analysis` per depth, with its
:class:`SearchOptions`), :func:`solve_position` (:class:`SolveOptions`), the work on a
batch's line (:class:`AnalyzeLines`, :class:`SolveLines`) and the look-ups of an
opening book (:func:`open_book`, :func:`book_answer`, :func:`book_record`).

>>> from plies import lab
>>> tree = lab.read_tree("[[3,12,8],[2,4,6],[14,5,2]]")
>>> options = lab.LabOptions(algorithm="minimax", strict=True)
>>> lab.run(tree, options).value
3
>>> options.notes(tree)
['--strict has no effect: minimax does not prune here']
"""

from typing import TYPE_CHECKING, Any

from plies.games import GAMES, OPENSPIEL, GameEntry, get_game, parse_game_spec
from plies.games.text import MAX_DIGITS, shown
from plies.lab._analyze import (
    ALGORITHMS,
    BACKENDS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    Analysis,
    SearchOptions,
    SearchTable,
    analysis_record,
    analyze,
    analyze_once,
    check_backend,
    search_table,
)
from plies.lab._check import AnswerError, CheckResult, Feedback, check_answer, node_name
from plies.lab._expected import keeps_score, split_expected
from plies.lab._games import game_tree, load_game, read_game_tree
from plies.lab._mcts_tree import MCTS_ALGORITHM, MCTS_STEPS_CAP, mcts_document, run_mcts_tree
from plies.lab._room import (
    Outcome,
    Room,
    RoomError,
    format_winners,
    open_room,
    outcome,
    play_move,
    player_names,
    roll,
    room_algorithms,
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
    "ALGORITHMS",
    "BACKENDS",
    "CHANCE_MODES",
    "COMPLEXITY_ALGORITHMS",
    "COMPLEXITY_ORDERS",
    "COMPLEXITY_REFERENCES",
    "DEFAULT_ALGORITHM",
    "DEFAULT_NOISE",
    "DEFAULT_TABLE_ENTRIES",
    "GAMES",
    "MAX_COMPLEXITY_LEAVES",
    "MAX_COMPLEXITY_SEEDS",
    "MAX_COMPLEXITY_WORK",
    "MAX_DIGITS",
    "MAX_NUMBERS",
    "MAX_RANDOM_CONSTRAINTS",
    "MCTS_ALGORITHM",
    "MCTS_STEPS_CAP",
    "MIN_TABLE_ENTRIES",
    "MULTI_ALGORITHMS",
    "MULTI_DRAWING_FORMATS",
    "NATIVE_TABLE_ENTRIES",
    "OPENSPIEL",
    "PLAYER_ALGORITHMS",
    "QUICK_NODES",
    "SCORE_STYLES",
    "SEARCH_ENTRIES",
    "SOLVE_MOVES",
    "SPRT_MODELS",
    "Analysis",
    "AnalyzeLines",
    "AnswerError",
    "Book",
    "BookStats",
    "CheckResult",
    "Complexity",
    "ComplexityError",
    "ComplexityOptions",
    "EloEstimate",
    "EngineMove",
    "ExerciseError",
    "Feedback",
    "GameEntry",
    "GameRecord",
    "LPRun",
    "LabOptions",
    "MatchError",
    "MatchOptions",
    "MatchResult",
    "Measured",
    "Measurement",
    "Outcome",
    "Pentanomial",
    "PlayerSpec",
    "PlayerTotal",
    "PruneStep",
    "RatingError",
    "Room",
    "RoomError",
    "ScoreStyle",
    "SearchOptions",
    "SearchTable",
    "SelectRun",
    "SolveLines",
    "SolveOptions",
    "SolveResult",
    "SolverTable",
    "Sprt",
    "analysis_record",
    "analyze",
    "analyze_once",
    "book_answer",
    "book_record",
    "build_book",
    "check_answer",
    "check_backend",
    "check_match",
    "check_two_player_text",
    "compare_document",
    "complexity_png",
    "complexity_svg",
    "describe_multi",
    "elo_to_score",
    "engine_move",
    "exact_score",
    "exercise",
    "format_line",
    "format_score",
    "format_winners",
    "game_tree",
    "get_game",
    "keeps_score",
    "load_game",
    "lp_lab",
    "match_record",
    "mcts_document",
    "measure_complexity",
    "measured_tree",
    "multi_document",
    "multi_drawing",
    "multi_value_text",
    "node_name",
    "open_book",
    "open_room",
    "outcome",
    "parse_depths",
    "parse_game_spec",
    "parse_player",
    "play_engine_move",
    "play_move",
    "player_names",
    "plot_complexity",
    "random_lp",
    "random_multi",
    "random_numbers",
    "read_game_tree",
    "read_multi_tree",
    "read_numbers",
    "read_openings",
    "read_tree",
    "roll",
    "room_algorithms",
    "room_of",
    "room_state",
    "run",
    "run_match",
    "run_mcts_tree",
    "run_multi_tree",
    "score_of",
    "score_to_elo",
    "score_token",
    "search_document",
    "search_table",
    "select_lab",
    "shown",
    "solve_position",
    "solve_record",
    "solver_table",
    "split_expected",
    "sprt",
    "think",
    "undo",
    "warm_solver",
    "with_bounds",
    "write_lp_drawing",
    "write_multi_drawing",
]

if TYPE_CHECKING:
    from plies.lab._complexity import (
        COMPLEXITY_ALGORITHMS,
        COMPLEXITY_ORDERS,
        COMPLEXITY_REFERENCES,
        DEFAULT_NOISE,
        MAX_COMPLEXITY_LEAVES,
        MAX_COMPLEXITY_SEEDS,
        MAX_COMPLEXITY_WORK,
        Complexity,
        ComplexityError,
        ComplexityOptions,
        Measurement,
        complexity_png,
        complexity_svg,
        measure_complexity,
        measured_tree,
        parse_depths,
        plot_complexity,
    )
    from plies.lab._lines import AnalyzeLines, SolveLines
    from plies.lab._match import (
        GameRecord,
        MatchOptions,
        MatchResult,
        PlayerTotal,
        check_match,
        match_record,
        read_openings,
        run_match,
    )
    from plies.lab._multi_tree import (
        MULTI_ALGORITHMS,
        MULTI_DRAWING_FORMATS,
        check_two_player_text,
        describe_multi,
        multi_document,
        multi_drawing,
        multi_value_text,
        random_multi,
        read_multi_tree,
        run_multi_tree,
        write_multi_drawing,
    )
    from plies.lab._play import EngineMove, engine_move, play_engine_move
    from plies.lab._players import PLAYER_ALGORITHMS, MatchError, PlayerSpec, parse_player
    from plies.lab._prune import (
        MAX_NUMBERS,
        MAX_RANDOM_CONSTRAINTS,
        LPRun,
        Measured,
        PruneStep,
        SelectRun,
        lp_lab,
        random_lp,
        random_numbers,
        read_numbers,
        select_lab,
        write_lp_drawing,
    )
    from plies.lab._ratings import (
        SPRT_MODELS,
        EloEstimate,
        Pentanomial,
        RatingError,
        Sprt,
        elo_to_score,
        score_to_elo,
        sprt,
    )
    from plies.lab._solve import (
        DEFAULT_TABLE_ENTRIES,
        MIN_TABLE_ENTRIES,
        NATIVE_TABLE_ENTRIES,
        QUICK_NODES,
        SEARCH_ENTRIES,
        SOLVE_MOVES,
        Book,
        BookStats,
        SolveOptions,
        SolveResult,
        SolverTable,
        book_answer,
        book_record,
        build_book,
        exact_score,
        open_book,
        score_token,
        solve_position,
        solve_record,
        solver_table,
        warm_solver,
    )

#: Names made on first use, by the module that makes them: what only some commands
#: need (solving, books and engine moves, with plies.book and plies.cluster; the line
#: jobs of batches; prune-and-search and the complexity measurement, with plies.draw),
#: so that the tree lab (the web's operations, the static site's Python) loads none of it.
_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "plies.lab._multi_tree": (
        "MULTI_ALGORITHMS",
        "MULTI_DRAWING_FORMATS",
        "check_two_player_text",
        "describe_multi",
        "multi_document",
        "multi_drawing",
        "multi_value_text",
        "random_multi",
        "read_multi_tree",
        "run_multi_tree",
        "write_multi_drawing",
    ),
    "plies.lab._play": (
        "EngineMove",
        "engine_move",
        "play_engine_move",
    ),
    "plies.lab._prune": (
        "MAX_NUMBERS",
        "MAX_RANDOM_CONSTRAINTS",
        "LPRun",
        "Measured",
        "PruneStep",
        "SelectRun",
        "lp_lab",
        "random_lp",
        "random_numbers",
        "read_numbers",
        "select_lab",
        "write_lp_drawing",
    ),
    "plies.lab._solve": (
        "DEFAULT_TABLE_ENTRIES",
        "MIN_TABLE_ENTRIES",
        "NATIVE_TABLE_ENTRIES",
        "QUICK_NODES",
        "SEARCH_ENTRIES",
        "SOLVE_MOVES",
        "Book",
        "BookStats",
        "SolveOptions",
        "SolveResult",
        "SolverTable",
        "book_answer",
        "book_record",
        "build_book",
        "exact_score",
        "open_book",
        "score_token",
        "solve_position",
        "solve_record",
        "solver_table",
        "warm_solver",
    ),
    "plies.lab._lines": ("AnalyzeLines", "SolveLines"),
    "plies.lab._match": (
        "GameRecord",
        "MatchOptions",
        "MatchResult",
        "PlayerTotal",
        "check_match",
        "match_record",
        "read_openings",
        "run_match",
    ),
    "plies.lab._players": (
        "PLAYER_ALGORITHMS",
        "MatchError",
        "PlayerSpec",
        "parse_player",
    ),
    "plies.lab._ratings": (
        "SPRT_MODELS",
        "EloEstimate",
        "Pentanomial",
        "RatingError",
        "Sprt",
        "elo_to_score",
        "score_to_elo",
        "sprt",
    ),
    "plies.lab._complexity": (
        "COMPLEXITY_ALGORITHMS",
        "COMPLEXITY_ORDERS",
        "COMPLEXITY_REFERENCES",
        "DEFAULT_NOISE",
        "MAX_COMPLEXITY_LEAVES",
        "MAX_COMPLEXITY_SEEDS",
        "MAX_COMPLEXITY_WORK",
        "Complexity",
        "ComplexityError",
        "ComplexityOptions",
        "Measurement",
        "complexity_png",
        "complexity_svg",
        "measure_complexity",
        "measured_tree",
        "parse_depths",
        "plot_complexity",
    ),
}
_LAZY = {name: module for module, names in _LAZY_MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, its module imported on first use (start-up time)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'plies.lab' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value
