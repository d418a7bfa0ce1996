"""The search driver: iterative deepening, aspiration windows, MTD(f), solving.

:func:`iterate` yields one :class:`SearchResult` per completed depth; :func:`search`
returns the last one; :func:`solve` searches every line to its end and returns the
game-theoretic value with the distance to the end.

Deep games and recursion. The node functions recurse, one Python frame per ply (two
where the turn does not simply alternate). Since CPython 3.11 a call from Python to
Python does not grow the C stack, so the only guard is ``sys.getrecursionlimit()``;
measured here, a 500,000-deep recursion of this shape runs in 0.3 s in the main
thread. So instead of an explicit stack (slower in every node, harder to read) the
driver raises the recursion limit for the duration of a search to what its depth can
need (at most :data:`MAX_PLY` plies) and restores it afterwards. A line longer than
``MAX_PLY`` (a game that never ends) becomes a :class:`SearchError`, not a crash.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Protocol

from plies._arguments import need_bool, need_int
from plies.engine._arguments import (
    check_backend,
    check_game,
    check_search,
    check_solve,
    check_table,
    check_task,
)
from plies.engine._context import SearchAborted, SearchContext, StopRequest, solve_stopped
from plies.engine._exact import ExactSolver, best_moves_and_line
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import (
    CHANCE_MODES,
    NodeFunction,
    RootBest,
    make_negamax,
    overrides,
    quiet_hook,
    unchecked_play,
)
from plies.engine._result import SearchResult, SearchStats, SolveResult
from plies.engine._scores import WIN, WIN_THRESHOLD, score_distance, terminal_score
from plies.engine._table import TranspositionTable
from plies.engine._textbook import make_minimax
from plies.engine.native import (
    BACKENDS,
    NativeTable,
    has_port,
    native_port,
    native_port_problem,
    numba_missing,
)
from plies.errors import ArgumentTypeError, LimitError, SearchError
from plies.game import BaseGame

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "DEFAULT_ALGORITHM",
    "MAX_PLY",
    "choose_backend",
    "fallback_reason",
    "iterate",
    "search",
    "solve",
]

#: Every algorithm :func:`search` knows, fastest family first. ``expectiminimax`` is
#: ``minimax`` under its name for games with chance nodes.
ALGORITHMS = ("pvs", "negamax", "mtdf", "alphabeta", "minimax", "expectiminimax")
DEFAULT_ALGORITHM = "pvs"

#: Python frames per ply, at most (node, turn check, chance node) plus slack.
_FRAMES_PER_PLY = 4

INF = math.inf

#: What :func:`solve` finds besides the value (see its ``moves`` argument).
SOLVE_MOVES = ("line", "best", "all", "none")

_search_ids = itertools.count(1)


def choose_backend(
    game: BaseGame[Any, Any],
    backend: str | None = None,
    task: str = "solve",
    state: Any = None,
    **options: Any,
) -> str:
    """The backend :func:`solve` (``task="search"``: :func:`search`) runs for
    ``game`` (at ``state``, with the other ``options`` of that function):
    ``"native"`` or ``"python"``.

    None picks native where the game has a port, Numba imports and the options allow
    it; ``"native"`` where it cannot run raises :class:`SearchError` saying why.
    """
    _check_backend_question(game, state, task, backend)
    return _pick_backend(game, backend, state, task, **options)


def table_for(
    game: BaseGame[Any, Any], backend: str | None = None, entries: int | None = None
) -> TranspositionTable | NativeTable:
    """A new table for :func:`solve` of ``game`` on the backend ``backend`` picks, of
    ``entries`` entries (None: that backend's default for this game: the native port's
    own size, Pons' 2**23 for Connect Four and 2**20 for the other ports; the Python
    table's 2**20). A table larger than the machine's memory raises
    :class:`~plies.errors.LimitError` before anything is allocated."""
    if entries is not None:
        need_int(entries, "entries", minimum=16, error=LimitError)
    if choose_backend(game, backend) == "native":
        return NativeTable(entries or native_port(game).table_entries)
    return TranspositionTable(entries) if entries else TranspositionTable()


#: :func:`warm_up` solves a position this many plies before the end of a game, for
#: this many nodes at most.
WARM_PLIES = 12
WARM_NODES = 20_000


#: The searches that cut on a deep table's earlier entries (:func:`deep_table`): MTD(f)'s
#: null-window passes need every bound from one depth, so it keeps to its iteration's.
DEEP_ALGORITHMS = ("pvs", "negamax")


def deep_table(table: TranspositionTable | NativeTable | None, algorithm: str) -> bool:
    """Whether a search by ``algorithm`` on ``table`` cuts on any of its entries searched
    at least as deep as it needs (a table made with ``deep=True``, as a game engine's kept
    table is used), not only on the entries of the iteration under way."""
    return table is not None and table.deep and algorithm in DEEP_ALGORITHMS


def warm_up(
    game: BaseGame[Any, Any], table: TranspositionTable | NativeTable, *, weak: bool = False
) -> None:
    """Load what solving ``game`` on ``table`` needs, once per process: a native kernel
    loads each compiled function on its first call, so a position a few plies before
    the end is solved (for :data:`WARM_NODES` nodes at most). ``table`` is left empty,
    and a native one mapped whole (:meth:`NativeTable.touch`)."""
    check_game(game)
    check_table(table)
    if table is None:
        raise ArgumentTypeError("table must be a TranspositionTable or a NativeTable, not None")
    need_bool(weak, "weak")
    states = [game.initial_state()]
    while game.terminal_value(states[-1]) is None and game.legal_moves(states[-1]):
        states.append(game.play(states[-1], game.legal_moves(states[-1])[0]))
    table.clear()
    with contextlib.suppress(SearchError):  # the node limit: it is warm all the same
        solve(
            game,
            states[max(0, len(states) - WARM_PLIES)],
            table=table,
            weak=weak,
            moves="none",
            limits=Limits(nodes=WARM_NODES),
        )
    if isinstance(table, NativeTable):
        table.touch()  # which empties it too
    else:
        table.clear()


def fallback_reason(
    game: BaseGame[Any, Any], state: Any = None, task: str = "solve", **options: Any
) -> str | None:
    """Why ``task`` on ``game`` runs in Python although the game has a native port
    (one line for the user), or None (native, or no port at all: nothing to say).
    ``options`` are those of :func:`search` or :func:`solve`."""
    _check_backend_question(game, state, task, options.get("backend"))
    if getattr(game, "native", None) is None or options.get("backend") == "python":
        return None
    port_problem, option_problem = _native_problems(game, state, task, options)
    return port_problem or option_problem


def _check_backend_question(game: Any, state: Any, task: Any, backend: Any) -> None:
    """The checks of :func:`choose_backend`'s and :func:`fallback_reason`'s arguments
    (``state`` may be None: any position)."""
    check_game(game)
    check_task(task)
    check_backend(backend)
    if state is not None:
        game.check_state(state)


#: The algorithms of the native search (the rest run in Python).
NATIVE_ALGORITHMS = ("pvs", "negamax")


def _native_problems(
    game: BaseGame[Any, Any], state: Any, task: str, options: dict[str, Any]
) -> tuple[str | None, str | None]:
    """The one place that says why ``task`` cannot run natively: ``(the port's
    problem, the options' problem)``, each a sentence or None.

    The port's: the game has none (known without making it: a game without a port
    needs no Numba, whose import cost a chess engine's first move a second, five under
    load, past a UCI movetime), Numba does not import, or the port does not take this
    task or position. The options': one of :func:`search`'s or :func:`solve`'s options
    asks for the Python engine."""
    port_problem: str | None
    if not has_port(game):
        port_problem = f"{game.name} has no native port"
    else:
        port_problem = numba_missing() or native_port_problem(game, state, task)
    option_problem: str | None = None
    if isinstance(options.get("table"), TranspositionTable):
        option_problem = (
            "a TranspositionTable is the python backend's (the native one is a NativeTable)"
        )
    elif options.get("ordering") is False and task == "solve":
        option_problem = "ordering=False is for the python backend"
    elif task == "search":
        if options.get("algorithm", DEFAULT_ALGORITHM) not in NATIVE_ALGORITHMS:
            option_problem = f"the native search runs {' and '.join(NATIVE_ALGORITHMS)} only"
        elif options.get("seed") is not None:
            option_problem = "seeded tie-breaking is the python backend's"
    return port_problem, option_problem


def _pick_backend(
    game: BaseGame[Any, Any],
    backend: str | None,
    state: Any = None,
    task: str = "solve",
    **options: Any,
) -> str:
    """``"native"`` or ``"python"`` for ``task`` (see :func:`solve`'s ``backend``):
    the choice of :func:`choose_backend`, :func:`search` and :func:`solve`."""
    if backend not in (None, *BACKENDS):
        raise SearchError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if backend == "python":
        return "python"
    port_problem, option_problem = _native_problems(game, state, task, options)
    if backend is None:
        return "python" if port_problem or option_problem else "native"
    if port_problem:
        raise SearchError(port_problem)
    if option_problem:
        raise SearchError(f"backend 'native': {option_problem}")
    return "native"


class _RecursionGuard:
    """Shared state of :func:`deep_recursion`: who raised the limit, and from what."""

    lock = threading.Lock()
    users = 0
    saved = 0


@contextmanager
def deep_recursion(max_ply: int) -> Iterator[None]:
    """Let the search recurse ``max_ply`` plies deep; restore the limit afterwards.

    Nested and concurrent searches share one raised limit; the last to finish
    restores the original value.
    """
    guard = _RecursionGuard
    needed = _FRAMES_PER_PLY * min(max_ply, MAX_PLY) + 1_000
    with guard.lock:
        if guard.users == 0:
            guard.saved = sys.getrecursionlimit()
        guard.users += 1
        if needed > sys.getrecursionlimit():
            sys.setrecursionlimit(needed)
    try:
        yield
    except RecursionError:
        raise SearchError(
            f"a line of the game went deeper than {min(max_ply, MAX_PLY)} plies: "
            "does every line of the game end?"
        ) from None
    finally:
        with guard.lock:
            guard.users -= 1
            if guard.users == 0:
                sys.setrecursionlimit(guard.saved)


class _Run:
    """One iterative-deepening search: the context, the node function, the loop."""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        state: Any,
        *,
        limits: Limits,
        algorithm: str,
        chance: str,
        table: TranspositionTable | None,
        use_table: bool,
        ordering: bool,
        seed: int | None,
        aspiration: float | None,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.game = game
        self.state = state
        self.play = unchecked_play(game)
        self.limits = limits
        self.algorithm = algorithm
        self.seed = seed
        self.aspiration = aspiration
        if use_table and table is None:
            table = TranspositionTable()
        if use_table and table is not None:
            table.claim("search")
        self.ctx = SearchContext(
            game,
            limits=limits,
            stop=stop,
            table=table if use_table else None,
            progress=progress,
        )
        self.node: NodeFunction
        #: A game with is_quiet (chess): the root move an unfinished iteration proved
        #: better is played (see :meth:`_unfinished`).
        self.root_best: RootBest | None = None
        if algorithm in ("minimax", "expectiminimax", "alphabeta"):
            self.node = make_minimax(self.ctx, prune=algorithm == "alphabeta")
        else:
            if quiet_hook(game) is not None:
                self.root_best = RootBest()
            self.node = make_negamax(
                self.ctx,
                pvs=algorithm == "pvs",
                chance=chance,
                use_table=use_table,
                ordering=ordering,
                deep=use_table and deep_table(table, algorithm),
                root_best=self.root_best,
            )
        self.aborted = False
        self.search_id = next(_search_ids)
        self.last: SearchResult | None = None
        #: Random tie-breaking (seeded) and the node function it uses, or None.
        self.rng = random.Random(seed) if seed is not None else None
        self.tie_node: NodeFunction | None = None

    # -- one iteration --------------------------------------------------------------

    def _aspirated(self, depth: int, previous: float | None) -> float:
        """Search the root in a window around the previous value, widening on failure."""
        node, state = self.node, self.state
        delta = self.aspiration
        if self.game.has_chance:
            # Expected values drift more between depths than deterministic ones and
            # a failed window is costly; measured on Pig, windows only added nodes.
            delta = None
        if previous is None or not delta or abs(previous) >= WIN_THRESHOLD:
            return node(state, depth, -INF, INF, 0)
        alpha, beta = previous - delta, previous + delta
        while True:
            value = node(state, depth, alpha, beta, 0)
            if alpha < value < beta:
                return value
            delta *= 4
            if delta >= WIN_THRESHOLD:
                return node(state, depth, -INF, INF, 0)
            if value <= alpha:
                alpha = value - delta
            else:
                beta = value + delta

    def _mtdf(self, depth: int, guess: float) -> float:
        """MTD(f): null-window passes around a guess until the bounds meet."""
        node, state, ctx = self.node, self.state, self.ctx
        lower, upper = -INF, INF
        value = guess
        best_move = None
        while lower < upper:
            beta = math.nextafter(value, INF) if value == lower else value
            value = node(state, depth, math.nextafter(beta, -INF), beta, 0)
            if value < beta:
                upper = value
            else:
                lower = value
                best_move = ctx.root_move
        if best_move is not None:
            ctx.root_move = best_move
        return value

    def _run_iteration(self, depth: int, previous: float | None) -> float:
        if self.algorithm == "mtdf":
            guess = previous if previous is not None else 0.0
            return self._mtdf(depth, guess)
        if self.algorithm in ("pvs", "negamax"):
            return self._aspirated(depth, previous)
        return self.node(self.state, depth, -INF, INF, 0)

    # -- the loop -------------------------------------------------------------------

    def iterations(self) -> Iterator[SearchResult]:
        """Yield a result per completed depth; set :attr:`aborted` if a limit hit."""
        game, state, ctx = self.game, self.state, self.ctx
        outcome = game.terminal_value(state)
        if outcome is not None:
            self.last = SearchResult(
                value=terminal_score(outcome, 0),
                best_move=None,
                pv=(),
                depth=0,
                completed=True,
                exact=True,
                algorithm=self.algorithm,
                stats=ctx.stats(),
            )  # a game that is over is proven, chance game or not
            yield self.last
            return
        max_depth = self.limits.depth if self.limits.depth is not None else MAX_PLY
        previous: float | None = None
        previous_nodes = 0
        with deep_recursion(max_depth if not overrides(game, "quiescence_moves") else MAX_PLY):
            for depth in range(1, max_depth + 1):
                # Unique per search and iteration: a shared table guides the move order
                # of later searches but never cuts with their heuristic values.
                ctx.depth_tag = (self.search_id << 48) + (depth << 32)
                ctx.root_depth = depth
                ctx.horizon_hits = 0
                nodes_before = ctx.nodes
                if self.root_best is not None:
                    self.root_best.clear()
                try:
                    value = self._run_iteration(depth, previous)
                except SearchAborted:
                    self.aborted = True
                    unfinished = self._unfinished(depth)
                    if unfinished is not None:
                        self.last = unfinished
                        yield unfinished
                    return
                iteration_nodes = ctx.nodes - nodes_before
                ebf = (
                    iteration_nodes / previous_nodes
                    if previous_nodes
                    else iteration_nodes ** (1.0 / depth)
                )
                exact = ctx.horizon_hits == 0
                best_move = None if game.has_chance and game.is_chance(state) else ctx.root_move
                if self.rng is not None and best_move is not None:
                    try:
                        best_move = self._break_tie(depth, value, best_move)
                    except SearchAborted:  # the depth is done; only the tie-break is cut
                        self.aborted = True
                distance = 0 if game.has_chance else score_distance(value) or 0
                self.last = SearchResult(
                    value=value,
                    best_move=best_move,
                    # A mate proven beyond the depth (an extension): its whole line. A
                    # chance game's value is an expected utility, never a distance.
                    pv=self._pv(best_move, max(depth, distance)),
                    depth=depth,
                    completed=True,
                    exact=exact,
                    algorithm=self.algorithm,
                    stats=ctx.stats(ebf),
                    chance=game.has_chance,
                )
                yield self.last
                if exact or self.aborted:  # exact: deeper searches change nothing
                    return
                previous = value
                previous_nodes = iteration_nodes

    def _unfinished(self, depth: int) -> SearchResult | None:
        """The result of iteration ``depth``, stopped before its end, when a root move
        other than the last completed iteration's best raised alpha in it: proven
        better than the moves searched before it (at least its score), it is played
        rather than thrown away (``completed`` False, ``depth`` the unfinished one)."""
        best = self.root_best
        if best is None or best.move is None:
            return None
        last = self.last
        if last is not None and best.move == last.best_move:
            return None
        return SearchResult(
            value=best.score,
            best_move=best.move,
            pv=self._pv(best.move, depth),
            depth=depth,
            completed=False,
            exact=False,
            algorithm=self.algorithm,
            stats=self.ctx.stats(last.stats.ebf if last is not None else 0.0),
            chance=self.game.has_chance,
        )

    def _break_tie(self, depth: int, value: float, best_move: Any) -> Any:
        """A random move among those scoring ``value`` at ``depth`` (seeded).

        Each other root move is tested with a null window just below ``value`` (the
        same depth and iteration, so the table's entries from the search are reused).
        """
        assert self.rng is not None
        game, state = self.game, self.state
        if self.tie_node is None:
            self.tie_node = make_negamax(self.ctx)
        node, play = self.tie_node, self.play
        below = math.nextafter(value, -INF)
        me = game.to_move(state)
        ties = []
        for move in game.legal_moves(state):
            if move == best_move:
                ties.append(move)
                continue
            child = play(state, move)
            if (game.alternating and not game.has_chance) or game.to_move(child) != me:
                score = -node(child, depth - 1, -value, -below, 1)
            else:
                score = node(child, depth - 1, below, value, 1)
            if score >= value:
                ties.append(move)
        return self.rng.choice(ties)

    def _pv(self, best_move: Any, depth: int) -> tuple[Any, ...]:
        """The principal variation: ``best_move``, then table moves while they are legal."""
        game, state, play = self.game, self.state, self.play
        if best_move is None or (game.has_chance and game.is_chance(state)):
            return ()
        pv = [best_move]
        table = self.ctx.table
        if table is None:
            return tuple(pv)
        seen = {game.key(state)}
        current = play(state, best_move)
        while len(pv) < depth:
            if game.terminal_value(current) is not None:
                break
            if game.has_chance and game.is_chance(current):
                break
            key = game.key(current)
            entry = table.get(key)
            if key in seen or entry is None or entry[3] is None:
                break
            seen.add(key)
            move = entry[3]
            if move not in game.legal_moves(current):
                break
            pv.append(move)
            current = play(current, move)
        return tuple(pv)

    def result(self) -> SearchResult:
        """Run every iteration; the last completed one's result (marked cut short if a
        limit or a stop ended the search), else :meth:`fallback`'s."""
        for _ in self.iterations():
            pass
        result = self.last if self.last is not None else self.fallback()
        if self.aborted:
            result = replace(result, completed=False, stats=self.ctx.stats(result.stats.ebf))
        return result

    def fallback(self) -> SearchResult:
        """A result when no iteration completed: the static evaluation, first move."""
        game, state = self.game, self.state
        value = 0.0
        best_move = None
        if not (game.has_chance and game.is_chance(state)):
            value = game.evaluate(state, game.to_move(state))
            moves = game.legal_moves(state)
            if overrides(game, "order_moves"):
                moves = game.order_moves(state, moves)
            best_move = moves[0] if moves else None
        return SearchResult(
            value=value,
            best_move=best_move,
            pv=(best_move,) if best_move is not None else (),
            depth=0,
            completed=False,
            exact=False,
            algorithm=self.algorithm,
            stats=self.ctx.stats(),
            chance=game.has_chance,
        )


def _python_table(
    table: TranspositionTable | NativeTable | None, backend: str | None
) -> TranspositionTable | None:
    """The table the Python engine gets: a NativeTable is refused when the python
    backend was asked for, and dropped (the engine makes its own) when the default
    backend fell back to Python (a position the native port cannot take)."""
    if not isinstance(table, NativeTable):
        return table
    if backend == "python":
        raise SearchError("a NativeTable serves the native backend: give the python one none")
    return None


def _native_search(
    game: BaseGame[Any, Any],
    state: Any,
    backend: str | None,
    *,
    limits: Limits | None,
    algorithm: str,
    chance: str,
    seed: int | None,
    **options: Any,
) -> Any:
    """The native search run (``iterations()``, ``result()``) of :func:`search`, or
    None when the Python engine runs it (see ``backend``). The arguments are checked."""
    if backend == "python":
        return None
    picked = _pick_backend(
        game, backend, state, "search", algorithm=algorithm, seed=seed, table=options["table"]
    )
    if picked != "native":
        return None
    assert limits is not None
    port = native_port(game)
    return port.search(game, state, limits=limits, algorithm=algorithm, **options)


def refuse_many_players(game: BaseGame[Any, Any], task: str) -> None:
    """Raise :class:`SearchError` when ``game`` has other than two players: ``task``
    (a two-player search) assumes one opponent and zero-sum utilities."""
    players = game.num_players
    if players != 2:
        raise SearchError(
            f"{game.name} has {players} players: {task} is for two-player games; search it "
            "with maxn, paranoid or best_reply (plies.engine; algorithms maxn, paranoid, brs)"
        )


class _SearchRun(Protocol):
    """A search set up by :func:`_started`: the native port's run or a :class:`_Run`."""

    def iterations(self) -> Iterator[SearchResult]:
        """A result per completed depth."""
        ...

    def result(self) -> SearchResult:
        """The last completed depth's result."""
        ...


def _started(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None,
    table: TranspositionTable | NativeTable | None,
    backend: str | None,
    **options: Any,
) -> _SearchRun:
    """The one set-up of :func:`iterate` and :func:`search`: every argument checked,
    then the run of the backend picked, the native port's or a :class:`_Run`, each
    with ``iterations()`` and ``result()`` (nothing searched yet). ``options``: the
    other keywords of :func:`search`."""
    checked = check_search(
        game, state, limits=limits, algorithms=ALGORITHMS, chance_modes=CHANCE_MODES,
        table=table, backend=backend, **options,
    )  # fmt: skip
    refuse_many_players(game, "search")
    native = _native_search(game, state, backend, limits=checked, table=table, **options)
    if native is not None:
        return native  # type: ignore[no-any-return]
    return _Run(game, state, limits=checked, table=_python_table(table, backend), **options)


def iterate(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None = None,
    algorithm: str = DEFAULT_ALGORITHM,
    chance: str = "star1",
    table: TranspositionTable | NativeTable | None = None,
    use_table: bool = True,
    ordering: bool = True,
    seed: int | None = None,
    aspiration: float | None = 25.0,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
) -> Iterator[SearchResult]:
    """Search ``state`` by iterative deepening, yielding a result per completed depth.

    The generator ends when the depth limit is reached, when the value is exact
    (every line searched to its end), or silently when a node/time limit or ``stop``
    interrupts an iteration (that iteration is thrown away). Options are those of
    :func:`search`.
    """
    run = _started(
        game, state, limits=limits, algorithm=algorithm, chance=chance, table=table,
        use_table=use_table, ordering=ordering, seed=seed, aspiration=aspiration, stop=stop,
        progress=progress, backend=backend,
    )  # fmt: skip
    return run.iterations()


def search(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None = None,
    algorithm: str = DEFAULT_ALGORITHM,
    chance: str = "star1",
    table: TranspositionTable | NativeTable | None = None,
    use_table: bool = True,
    ordering: bool = True,
    seed: int | None = None,
    aspiration: float | None = 25.0,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
) -> SearchResult:
    """Search ``state`` and return the result of the last completed iteration.

    ``limits`` bounds depth, nodes and time (default: none, so the search runs until
    the value is exact: small games only). ``algorithm`` is one of
    :data:`ALGORITHMS`: ``pvs`` (default), ``negamax`` (alpha-beta in negamax form),
    ``mtdf``, ``alphabeta`` and ``minimax`` (textbook max/min form, no table) or
    ``expectiminimax`` (= ``minimax``). ``chance`` picks how the negamax family
    searches chance nodes (``star1``, the default, ``star2`` or ``plain``; all give
    the same value, and on Pig and random trees Star2's probes cost about what they
    save, so Star1 is the default). ``table`` reuses a
    :class:`TranspositionTable` (default: a fresh one); ``use_table`` and
    ``ordering`` switch the table and move ordering off. Equal moves are broken by
    the game's move order, or at random (reproducibly) when ``seed`` is given.
    ``aspiration`` is the half-width of the first window around the previous
    iteration's value, in evaluation units (None or 0: full windows; an infinite,
    NaN or negative width is a :class:`SearchError`). ``stop`` is a
    :class:`threading.Event` or a callable; once it is set the search ends.
    ``progress`` is called with the node count every few hundred nodes (for a
    progress display; keep it cheap).

    Hitting a limit is not an error: the result then has ``completed=False`` and is
    the last completed iteration's (or, if none completed, the static evaluation and
    the first move, at depth 0). Statistics cover all the work done; their ``time``
    does not count loading the native kernel (Numba loads it on first use: seconds on a
    machine's first run, when it compiles).

    Every argument is checked before the search starts: one of the wrong type raises
    :class:`~plies.errors.ArgumentTypeError` naming it, and ``state`` must be a
    position of ``game`` (:meth:`~plies.game.BaseGame.check_state`).

    ``backend`` picks the engine: ``"python"`` (any game), ``"native"`` (the compiled
    search of a game with a native port, see :mod:`plies.engine.native`: Connect
    Four, m,n,k, Nim, Othello and checkers; ``pvs`` or ``negamax``, no seed, no
    :class:`TranspositionTable`: it keeps its table in a :class:`NativeTable`) or
    None, native where it can run. Both visit the same nodes on the same table
    contents; :func:`fallback_reason` says why a game with a port runs in Python.
    """
    run = _started(
        game, state, limits=limits, algorithm=algorithm, chance=chance, table=table,
        use_table=use_table, ordering=ordering, seed=seed, aspiration=aspiration, stop=stop,
        progress=progress, backend=backend,
    )  # fmt: skip
    return run.result()


def solve(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    table: TranspositionTable | NativeTable | None = None,
    limits: Limits | None = None,
    stop: StopRequest | None = None,
    ordering: bool = True,
    progress: Callable[[int], None] | None = None,
    weak: bool = False,
    moves: str = "line",
    backend: str | None = None,
) -> SolveResult:
    """The exact value of ``state`` for the side to move, with distance and best line.

    Searches every line to the end of the game with the exact solver of
    :mod:`plies.engine._exact` (null-window searches narrowing the value, the game's
    win-in-one, forced-move, score-bound and ordering hooks, a table of bounds), then
    finds optimal moves as ``moves`` asks: ``"line"`` (the default) follows them to
    the end of the game for the principal variation, ``"best"`` finds one, ``"all"``
    every one (in ``best_moves``) and the line, ``"none"`` none (the value alone, the fastest).
    ``weak`` decides only win, draw or loss, which is faster (no line then: ``"line"``
    finds one best move; ``"all"`` proves every move that keeps the result, which can
    take far longer than the value: in chess, each move of a won ending searched to its
    end). Only for deterministic games small enough to solve.

    ``table`` reuses a :class:`TranspositionTable` between solves of one game (its
    ``capacity`` bounds the memory; a table used by :func:`search` cannot be shared
    with :func:`solve`: their entries differ). ``limits`` may bound nodes and time;
    running out raises :class:`SearchError` (there is no partial answer to an exact
    question), as does a ``stop`` request. ``progress`` is called with the node count
    every few hundred nodes.

    ``backend`` picks the solver: ``"python"`` (any game), ``"native"`` (a compiled
    kernel, see :mod:`plies.engine.native`, for the games with a native port; another
    game raises :class:`SearchError`) or None, native where the game has a port and Numba imports,
    unless a :class:`TranspositionTable` or ``ordering=False`` asks for the Python
    solver. The native solver keeps its table in a :class:`NativeTable` (default: a
    new one of about 2**23 entries, 40 MB).
    """
    limits = check_solve(
        game, state, table=table, limits=limits, stop=stop, ordering=ordering,
        progress=progress, weak=weak, moves=moves, solve_moves=SOLVE_MOVES, backend=backend,
    )  # fmt: skip
    refuse_many_players(game, "solve")
    if game.has_chance:
        raise SearchError(f"{game.name}: solve needs a game without chance; use search")
    if limits.depth is not None:
        raise SearchError("solve searches to the end of the game: give no depth limit")
    picked = _pick_backend(game, backend, state, "solve", table=table, ordering=ordering)
    if picked == "native":
        assert not isinstance(table, TranspositionTable)
        return native_port(game).solve(  # type: ignore[no-any-return]
            game,
            state,
            table=table,
            limits=limits,
            stop=stop,
            progress=progress,
            weak=weak,
            moves=moves,
        )
    table = _python_table(table, backend)
    if table is None:
        table = TranspositionTable()
    table.claim("solve")
    ctx = SearchContext(game, limits=limits, stop=stop, table=table, progress=progress)
    solver = ExactSolver(ctx, ordering=ordering)
    best_moves: tuple[Any, ...] = ()
    pv: tuple[Any, ...] = ()
    proven = False
    try:
        with deep_recursion(MAX_PLY):
            value = solver.value(state, weak=weak)
            proven = True
            if game.terminal_value(state) is None:
                best_moves, pv = best_moves_and_line(
                    value,
                    weak=weak,
                    moves=moves,
                    floor=solver.worst - MAX_PLY,
                    line=lambda exact: solver.line(state, exact),
                    reaching=lambda target, first: solver.best_moves(
                        state, target, first_only=first
                    ),
                )
    except SearchAborted as exc:
        raise solve_stopped(str(exc), proven=proven, moves=moves) from None
    return solve_result(value, best_moves, pv, ctx.stats(), weak=weak, moves=moves)


def solve_result(
    value: float,
    best_moves: tuple[Any, ...],
    pv: tuple[Any, ...],
    stats: SearchStats,
    *,
    weak: bool,
    moves: str,
    backend: str = "python",
) -> SolveResult:
    """The :class:`SolveResult` of a solve's value (engine units; 1, 0 or -1 for
    ``weak``), best moves and line, as either backend reports it."""
    distance: int | None = None
    if weak:  # value is 1, 0 or -1
        result = "win" if value > 0 else "loss" if value < 0 else "draw"
        utility, engine_value = float(value), value * WIN
    else:
        engine_value = float(value)
        distance = score_distance(value)
        if distance is None:
            result, utility = "draw", 0.0
            distance = len(pv) if moves in ("line", "all") else None
        else:
            result = "win" if value > 0 else "loss"
            steps = -(-abs(value) // WIN_THRESHOLD)
            utility = math.copysign(steps * WIN_THRESHOLD / WIN, value)
    return SolveResult(
        result=result,
        distance=distance,
        utility=utility,
        value=engine_value,
        best_move=best_moves[0] if best_moves else None,
        pv=pv,
        stats=stats,
        best_moves=best_moves,
        weak=weak,
        backend=backend,
    )
