"""Analysing a position of a game: a search by iterative deepening, as the shells run it.

:func:`analyze` yields an :class:`Analysis` per completed depth (``plies analyze``'s
info lines, UCI's ``info``); :func:`analyze_once` is one search's last completed depth
(``plies bench``, the engine's move in a room). The options are a
:class:`SearchOptions`; each result knows its :class:`~plies.engine.Score`, its line in
the game's notation and its JSON form (:func:`analysis_record`), so that every shell
prints the same search the same way.

Games of more than two players are analysed by the N-player searches
(:data:`MULTI_ALGORITHMS`: ``maxn``, ``paranoid``, ``brs``; they take two-player games
too): an analysis then holds the engine's :class:`~plies.engine.MultiResult` as
``multi`` and its record the value (max^n: every player's) and who plays each move.

>>> from plies.lab import load_game
>>> game, state = load_game("tictactoe", "1 4 2 3")
>>> [found.line[0] for found in analyze(game, state, SearchOptions(depth=3))]
['5', '5', '5']
>>> analysis_record(analyze_once(game, state, SearchOptions(depth=3)))["score_text"]
'win 3'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from plies._arguments import need_choice, need_int, need_object, shown
from plies.engine import ALGORITHMS as ENGINE_ALGORITHMS
from plies.engine import (
    BACKENDS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    MULTI_ALGORITHMS,
    WIN,
    Limits,
    MctsOptions,
    MctsResult,
    MctsTree,
    MultiResult,
    NativeTable,
    Score,
    SearchResult,
    StopRequest,
    TranspositionTable,
    choose_backend,
    choose_multi_backend,
    iterate,
    iterate_multi,
    mcts,
    mcts_native_problem,
    multi_search,
    search,
)
from plies.errors import ArgumentTypeError, SearchError
from plies.game import BaseGame
from plies.lab._text import format_line, format_score, score_of

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "CHANCE_MODES",
    "DEFAULT_ALGORITHM",
    "MULTI_ALGORITHMS",
    "TABLE_ENTRY_BYTES",
    "Analysis",
    "SearchOptions",
    "SearchTable",
    "analysis_record",
    "analyze",
    "analyze_once",
    "check_backend",
    "search_table",
    "table_entries",
]

#: The algorithms a position can be analysed with: the engine's alpha-beta family,
#: Monte-Carlo tree search (``"mcts"``, :func:`plies.engine.mcts`) and the N-player
#: searches (:data:`MULTI_ALGORITHMS`, :func:`plies.engine.multi_search`).
ALGORITHMS: tuple[str, ...] = (*ENGINE_ALGORITHMS, "mcts", *MULTI_ALGORITHMS)

#: The table a search may keep between searches (:func:`search_table`; UCI's ``Hash``):
#: the Python engine's, or a native one for a game whose port searches.
SearchTable = TranspositionTable | NativeTable
#: Bytes an entry of a kept table takes, roughly, on each backend: a native entry's
#: arrays (33 bytes) and its share of the buckets; a Python entry of a chess search
#: (key tuple, entry tuple and the dict slot: 590 bytes measured with tracemalloc after
#: a depth-5 middlegame search).
TABLE_ENTRY_BYTES = {"native": 40, "python": 600}
#: What :func:`check_backend` asks about: a search or a solve.
TASKS = ("search", "solve")


@dataclass(frozen=True)
class SearchOptions:
    """How to search a position: the limits (``depth`` in plies, ``nodes``, ``time`` in
    seconds; None: no limit of that kind), the ``algorithm`` (one of
    :data:`ALGORITHMS`), the ``chance`` method of the negamax family (one of
    :data:`CHANCE_MODES`), a ``seed`` breaking ties at random (MCTS: its playouts'
    generator, 0 when None), the ``backend`` (one of :data:`BACKENDS`; None:
    native where it runs) and, for ``"mcts"`` only, ``iterations`` (None: no limit of
    that kind). ``"mcts"`` runs in Python, within ``iterations``, ``nodes`` or ``time``
    (it has no depth). Checked when made: a wrong value raises plies' error naming it
    (see :func:`plies.engine.search`)."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    algorithm: str = DEFAULT_ALGORITHM
    chance: str = "star1"
    seed: int | None = None
    backend: str | None = None
    iterations: int | None = None
    limits: Limits = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        limits = Limits(depth=self.depth, nodes=self.nodes, time=self.time)
        object.__setattr__(self, "limits", limits)
        need_choice(self.algorithm, "algorithm", ALGORITHMS)
        need_choice(self.chance, "chance", CHANCE_MODES)
        if self.seed is not None:
            need_int(self.seed, "seed")
        if self.backend is not None:
            need_choice(self.backend, "backend", BACKENDS)
        if self.iterations is not None:
            self._check_iterations()
        if self.algorithm == "mcts":
            self._check_mcts()
        if self.algorithm in MULTI_ALGORITHMS:
            self._check_multi()

    def _check_iterations(self) -> None:
        need_int(self.iterations, "iterations", minimum=1, error=SearchError)
        if self.algorithm != "mcts":
            raise SearchError(
                f"iterations are a limit of mcts only (got iterations {self.iterations} with "
                f"algorithm {self.algorithm}): give depth, nodes or time"
            )

    def _check_mcts(self) -> None:
        if self.depth is not None:
            raise SearchError(
                f"mcts has no depth limit (got depth {self.depth}): give iterations, nodes or time"
            )

    def _check_multi(self) -> None:
        if self.seed is not None:
            raise SearchError(
                f"{self.algorithm} breaks ties by the game's move order: it takes no seed"
            )

    def multi_options(self) -> dict[str, Any]:
        """The keywords :func:`plies.engine.multi_search` takes from these options
        (``backend``: maxn, paranoid and BRS run natively where the port has the
        N-player rules, BRS where it has ``with_turn`` too; ``native`` where they
        cannot run is refused with the reason)."""
        return {"algorithm": self.algorithm, "limits": self.limits, "backend": self.backend}

    def mcts_options(self) -> MctsOptions:
        """The options of :func:`plies.engine.mcts` these options ask for."""
        return MctsOptions(seed=0 if self.seed is None else self.seed)

    def engine_options(self) -> dict[str, Any]:
        """The keywords :func:`plies.engine.search` and :func:`~plies.engine.iterate`
        take from these options."""
        return {
            "limits": self.limits,
            "algorithm": self.algorithm,
            "chance": self.chance,
            "seed": self.seed,
            "backend": self.backend,
        }


@dataclass(frozen=True)
class Analysis:
    """One completed depth of a search of ``state`` in ``game``: the engine's
    ``result``, its :attr:`score` (what its value means in the game), its
    :attr:`line` (the principal variation in the game's notation) and the text of its
    best move (:attr:`best_text`)."""

    game: BaseGame[Any, Any]
    state: Any
    result: SearchResult
    #: The N-player search's own result (None for the two-player searches and MCTS):
    #: ``result`` then says the same for the root player.
    multi: MultiResult | None = None

    @property
    def score(self) -> Score:
        """The result's score (:func:`plies.lab.score_of`; for an N-player search the
        root player's: a payoff beyond an evaluation reads as an expected utility, a
        share of the win)."""
        if self.multi is not None:
            return Score.from_value(self.result.value, chance=True)
        return score_of(self.game, self.result)

    @cached_property
    def line(self) -> tuple[str, ...]:
        """The principal variation, each move in the game's notation."""
        if self.multi is not None:
            return tuple(_multi_line(self.game, self.state, self.multi))
        return tuple(format_line(self.game, self.state, self.result.pv))

    @property
    def best_text(self) -> str | None:
        """The first move of the line as text, None where there is none."""
        return self.line[0] if self.line else None

    def with_pv(self, moves: Sequence[Any]) -> Analysis:
        """This analysis with ``moves`` as its principal variation (UCI finishes a
        mating line with short searches); the score stays the search's."""
        return Analysis(self.game, self.state, replace(self.result, pv=tuple(moves)))


def _multi_line(game: BaseGame[Any, Any], state: Any, found: MultiResult) -> list[str]:
    """An N-player line in the game's notation: each move from the position with its
    player to move (Best-Reply Search's replies skip the players who pass)."""
    texts = []
    for player, move in zip(found.pv_players, found.pv, strict=True):
        if game.to_move(state) != player:
            state = game.with_turn(state, player)
        texts.append(game.format_move(state, move))
        state = game.play(state, move)
    return texts


def _multi_analysis(game: BaseGame[Any, Any], state: Any, found: MultiResult) -> Analysis:
    """An N-player search's result as an analysis (its ``result`` the root player's)."""
    result = SearchResult(
        value=found.value,
        best_move=found.best_move,
        pv=found.pv,
        depth=found.depth,
        completed=found.completed,
        exact=found.exact,
        algorithm=found.algorithm,
        stats=found.stats,
        chance=True,  # a payoff is a share, not a win or loss in N plies
    )
    return Analysis(game, state, result, found)


def _check_position(game: BaseGame[Any, Any], options: SearchOptions) -> None:
    """Check what the engine does not: ``game`` and ``options`` (the engine checks the
    state itself, once per search), and that a two-player search is not asked of a
    game of more players."""
    need_object(game, BaseGame, "game")
    need_object(options, SearchOptions, "options")
    if options.algorithm in ENGINE_ALGORITHMS and game.num_players != 2:
        raise SearchError(
            f"{game.name} has {game.num_players} players: {options.algorithm} is a two-player "
            f"search; use algorithm maxn, paranoid or brs"
        )


def analyze(
    game: BaseGame[Any, Any],
    state: Any,
    options: SearchOptions | None = None,
    *,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    table: SearchTable | None = None,
) -> Iterator[Analysis]:
    """Search ``state`` by iterative deepening within ``options`` (default: no limit),
    one :class:`Analysis` per completed depth (:func:`plies.engine.iterate`): a
    ``stop`` request (an Event or a callable) ends it, ``progress`` is called with the
    node count as it goes, ``table`` (:func:`search_table`) is kept between searches.
    Everything is checked before the first depth runs."""
    options = SearchOptions() if options is None else options
    _check_position(game, options)
    if options.algorithm == "mcts":
        return iter([_mcts_analysis(game, state, options, stop, progress)])
    if options.algorithm in MULTI_ALGORITHMS:
        found = iterate_multi(
            game, state, stop=stop, progress=progress, table=table, **options.multi_options()
        )
        return (_multi_analysis(game, state, each) for each in found)
    results = iterate(
        game, state, stop=stop, progress=progress, table=table, **options.engine_options()
    )
    return (Analysis(game, state, result) for result in results)


def analyze_once(
    game: BaseGame[Any, Any],
    state: Any,
    options: SearchOptions | None = None,
    *,
    stop: StopRequest | None = None,
) -> Analysis:
    """One search of ``state`` within ``options`` (:func:`plies.engine.search`): its
    last completed depth, marked cut short where a limit or ``stop`` ended it, with
    statistics of all the work done (the static evaluation and the first move at depth
    0 when no depth completed)."""
    options = SearchOptions() if options is None else options
    _check_position(game, options)
    if options.algorithm == "mcts":
        return _mcts_analysis(game, state, options, stop, None)
    if options.algorithm in MULTI_ALGORITHMS:
        found = multi_search(game, state, stop=stop, **options.multi_options())
        return _multi_analysis(game, state, found)
    result = search(game, state, stop=stop, **options.engine_options())
    return Analysis(game, state, result)


def _mcts_analysis(
    game: BaseGame[Any, Any],
    state: Any,
    options: SearchOptions,
    stop: StopRequest | None,
    progress: Callable[[int], None] | None,
) -> Analysis:
    """One Monte-Carlo tree search of ``state`` within ``options``, as an analysis
    (its depth is the line's length; a proven root's score a win, loss or draw)."""
    found = run_mcts(game, state, options, stop, progress=progress)
    return Analysis(game, state, found.as_search_result())


def run_mcts(
    game: BaseGame[Any, Any],
    state: Any,
    options: SearchOptions,
    stop: StopRequest | None,
    *,
    progress: Callable[[int], None] | None = None,
    reuse: MctsTree | None = None,
) -> MctsResult:
    """:func:`plies.engine.mcts` of ``state`` within ``options`` (its limits,
    iterations, MCTS options and backend), searching on from ``reuse`` if given."""
    return mcts(
        game,
        state,
        limits=options.limits,
        iterations=options.iterations,
        options=options.mcts_options(),
        stop=stop,
        progress=progress,
        backend=options.backend,
        reuse=reuse,
    )


def check_backend(
    game: BaseGame[Any, Any],
    backend: str | None = None,
    *,
    task: str = "search",
    state: Any = None,
    algorithm: str = DEFAULT_ALGORITHM,
) -> str:
    """The backend (``native`` or ``python``) that ``backend`` (None: native where it
    runs) picks for a ``task`` of ``game``: a ``search`` with ``algorithm`` or a
    ``solve``, at ``state`` when given (:func:`plies.engine.choose_backend`). An
    impossible ``native`` raises :class:`~plies.errors.SearchError` saying why, so a
    shell can refuse it before anything runs."""
    need_object(game, BaseGame, "game")
    need_choice(task, "task", TASKS)
    if task == "solve":
        return choose_backend(game, backend, "solve", state)
    if algorithm == "mcts":  # None: the run picks by its size, Python for a short one
        problem = mcts_native_problem(game, state) if backend == "native" else None
        if problem is not None:
            raise SearchError(problem)
        return backend or "python"
    if algorithm in MULTI_ALGORITHMS:
        return choose_multi_backend(game, algorithm, backend, state)
    return choose_backend(game, backend, "search", state, algorithm=algorithm)


def search_table(
    entries: int,
    game: BaseGame[Any, Any] | None = None,
    *,
    backend: str | None = None,
    deep: bool = True,
) -> SearchTable:
    """A new table of at most ``entries`` entries (at least 16) for :func:`analyze`
    to keep between searches of the same game (UCI's ``Hash``): for ``game``, a native
    table where its port searches on ``backend`` (None: where the search runs by
    default; a Python table would make the search fall back to the Python engine),
    else the Python engine's. A ``deep`` table (the default, as game engines keep
    theirs) lets a search cut on every entry searched at least as deep as it needs,
    an earlier search's too; ``deep=False`` keeps each iteration to its own entries
    (the textbook search: then only the moves carry over)."""
    need_int(entries, "entries", minimum=16)
    if game is not None and choose_backend(game, backend, task="search") == "native":
        return NativeTable(entries, deep=deep)
    return TranspositionTable(entries, deep=deep)


def prepare_table(
    game: BaseGame[Any, Any], table: SearchTable, *, backend: str | None = None
) -> None:
    """Make ``table`` ready for searches of ``game`` (on ``backend``, None: native
    where it runs) before a clock runs (UCI's ``isready``, a match's players): a
    one-ply search of the start loads the search (the native one from its cache) and
    makes the table's arrays, then a native table's every byte is written
    (:meth:`~plies.engine.NativeTable.touch`), so that no timed search pays for
    mapping its memory (12-125 ms of a chess engine's first move). Leaves the table
    empty."""
    need_object(game, BaseGame, "game")
    if not isinstance(table, TranspositionTable | NativeTable):
        raise ArgumentTypeError(
            f"table must be a TranspositionTable or a NativeTable, not {shown(table)}"
        )
    options = SearchOptions(depth=1, backend=backend)
    for _ in analyze(game, game.initial_state(), options, table=table):
        pass
    if isinstance(table, NativeTable):
        table.touch()
    else:
        table.clear()


def table_entries(game: BaseGame[Any, Any], megabytes: int, *, backend: str | None = None) -> int:
    """How many entries of :func:`search_table` for ``game`` (on ``backend``) fit in
    ``megabytes`` (at least 16), by :data:`TABLE_ENTRY_BYTES` of the backend its
    searches run on."""
    need_int(megabytes, "megabytes", minimum=1)
    chosen = choose_backend(game, backend, task="search")
    return max(16, megabytes * 1024 * 1024 // TABLE_ENTRY_BYTES[chosen])


def analysis_record(analysis: Analysis) -> dict[str, Any]:
    """The JSON object of one completed depth (``plies analyze --json``): its depth,
    value, score as text (:func:`plies.lab.format_score`'s ``info`` style), result and
    distance, best move and line, nodes, speed, time, exactness, algorithm and every
    statistic."""
    need_object(analysis, Analysis, "analysis")
    if analysis.multi is not None:
        return _multi_record(analysis, analysis.multi)
    result = analysis.result
    stats = result.stats
    score = analysis.score
    return {
        "depth": result.depth,
        "score": result.value + 0.0,  # + 0.0 turns -0.0 into 0.0
        "score_text": format_score(score, "info"),
        "result": score.outcome,
        "distance": score.plies,
        "best_move": analysis.best_text,
        "pv": list(analysis.line),
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
        "exact": result.exact,
        "algorithm": result.algorithm,
        "stats": stats.as_dict(),
    }


def _shown_value(score: float, payoff: bool) -> float:
    """One player's score of an N-player search as a record shows it: a ``payoff`` as
    the utility (``0.5``), an evaluation as itself."""
    return score / WIN if payoff else score + 0.0


def _multi_record(analysis: Analysis, found: MultiResult) -> dict[str, Any]:
    """The JSON object of one completed depth of an N-player search: ``value`` is
    every player's score for max^n, the root ``player``'s for paranoid and BRS (a
    payoff as its utility, else the evaluation; ``payoff`` says which),
    ``pv_players`` who plays each move of the line; the rest as for the two-player
    searches."""
    stats = found.stats
    values, payoff = found.values, found.is_payoff
    return {
        "depth": found.depth,
        "value": [_shown_value(v, payoff) for v in values]
        if values is not None
        else _shown_value(found.value, payoff),
        "payoff": payoff,
        "player": found.player,
        "score": found.value + 0.0,
        "score_text": found.value_text,
        "result": None,
        "distance": None,
        "best_move": analysis.best_text,
        "pv": list(analysis.line),
        "pv_players": list(found.pv_players),
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
        "exact": found.exact,
        "algorithm": found.algorithm,
        "stats": stats.as_dict(),
    }
