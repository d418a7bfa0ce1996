"""Searches for games of more than two players: max^n, paranoid and Best-Reply Search.

All three search a deterministic game of ``num_players`` players (two work too) by
iterative deepening under the engine's :class:`~plies.engine.Limits` and stop requests,
and return a :class:`MultiResult`. Scores are in engine units: a terminal state is worth
``utility * WIN`` to each player (no distance term: a payoff is the payoff however far
away), a state at the horizon its :meth:`~plies.game.BaseGame.evaluate` (below
``WIN / 1000`` in magnitude), so a proven payoff always outweighs a guess.

* :func:`maxn` (Luckhardt and Irani, 1986) backs up the whole vector: at each node the
  player to move takes the child best for itself, ties to the leftmost (the first in
  ``legal_moves`` order; the moves are never reordered, since another order could
  pick another of the tied vectors). It prunes nothing: shallow pruning is sound only
  when every vector's sum is bounded, and here evaluations and payoffs scaled by
  ``WIN`` meet in one tree, so the bound (about ``WIN``) would never cut between two
  evaluations (Sturtevant and Korf found shallow pruning rare even where it is
  sound). The table holds exact vectors, reused at the same remaining depth only: with
  no pruning every value is exact, and a state's depth-d vector depends on nothing but
  the state and d.
* :func:`paranoid` (Sturtevant and Korf, 2000) is alpha-beta for the root player
  against the coalition of the others, who minimise its score. A two-player zero-sum
  search, so the table of bounds is sound (entries keyed by the root player, the
  player to move and the game's key, used at the same remaining depth).
* :func:`best_reply` (Schadd and Winands, 2011) keeps the root player's MAX layers and
  merges the opponents' turns into one MIN layer: every move of every opponent is
  tried from the same position, the single best reply (for the coalition) is played,
  the other opponents pass, and the turn comes straight back (the game's
  :meth:`~plies.game.BaseGame.with_turn`). Each layer counts one ply. Also a
  two-player zero-sum search of its own tree: the table is sound as for paranoid.

Layers: the engine may import nothing above it; this module uses the engine's
context, limits, table and argument checks.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from plies._arguments import need_bool, need_choice, need_int
from plies.engine._arguments import check_game, check_hooks, check_limits
from plies.engine._context import SearchAborted, SearchContext, StopRequest
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import overrides, unchecked_play
from plies.engine._result import SearchStats
from plies.engine._scores import WIN, WIN_THRESHOLD
from plies.engine._search import deep_recursion
from plies.engine._table import EXACT, LOWER, UPPER, TranspositionTable
from plies.errors import ArgumentTypeError, SearchError
from plies.game import BaseGame

__all__ = [
    "MULTI_ALGORITHMS",
    "MultiResult",
    "best_reply",
    "choose_multi_backend",
    "format_multi_value",
    "iterate_multi",
    "maxn",
    "multi_search",
    "paranoid",
]

#: The N-player searches by name (as :func:`multi_search` and the shells know them).
MULTI_ALGORITHMS = ("maxn", "paranoid", "brs")

INF = math.inf

#: The table's owner tag for these searches (their entries are not the two-player ones).
_OWNER = "multi-player search"

# A table entry: (depth, bound, value, move, complete). ``value`` is the root
# player's score (paranoid, BRS; bound says how it holds) or the whole vector (max^n,
# always EXACT); ``move`` the best move (BRS MIN layers: (player, move)); ``complete``
# whether no line below met the horizon (the value is then the end-of-game one).


@dataclass(frozen=True)
class MultiResult:
    """The outcome of an N-player search (of its last completed iteration).

    ``player`` is the player whose score ``value`` is (the root player: the one to
    move, or paranoid's ``player``), in engine units (``utility * WIN`` for a proven
    payoff, else an evaluation; see :func:`format_multi_value`). ``values`` is every
    player's score for max^n (``values[player] == value``) and None for paranoid and
    BRS, which know only the root player's. ``best_move`` is the move to play (None
    at a terminal state), ``pv`` the principal line and ``pv_players`` who plays each
    of its moves (in BRS the best reply may come from a player not to move: the
    others passed). ``depth`` is the last completed iteration's, ``completed`` False
    when a limit or a stop request cut the search short, ``exact`` True when every
    line of the searched tree reached the end of the game.
    """

    algorithm: str
    player: int
    value: float
    values: tuple[float, ...] | None
    best_move: Any
    pv: tuple[Any, ...]
    pv_players: tuple[int, ...]
    depth: int
    completed: bool
    exact: bool
    stats: SearchStats

    @property
    def is_payoff(self) -> bool:
        """Whether the value is a payoff reached at the end of the game (``utility *
        WIN`` for each player) rather than an evaluation at the horizon: the search
        was exact, or a score is beyond any evaluation (a vector comes from one leaf,
        so then every score in it is a payoff, a payoff of 0 included)."""
        scores = self.values if self.values is not None else (self.value,)
        return self.exact or any(abs(score) >= WIN_THRESHOLD for score in scores)

    @property
    def value_text(self) -> str:
        """The result's value as text: the vector for max^n, else the root player's
        (see :func:`format_multi_value`)."""
        payoff = self.is_payoff
        if self.values is not None:
            return "(" + ", ".join(format_multi_value(v, payoff=payoff) for v in self.values) + ")"
        return format_multi_value(self.value, payoff=payoff)


def format_multi_value(value: float, *, payoff: bool | None = None) -> str:
    """One player's score as text: a payoff as ``payoff 0.5`` (the utility), an
    evaluation as a signed number (``+12``, ``-0.25``). ``payoff`` says which it is
    (None: a payoff when beyond any evaluation, ``WIN / 1000``).

    >>> format_multi_value(WIN / 2), format_multi_value(12.0), format_multi_value(0.0, payoff=True)
    ('payoff 0.5', '+12', 'payoff 0')
    """
    if payoff is None:
        payoff = abs(value) >= WIN_THRESHOLD
    if payoff:
        return f"payoff {value / WIN:g}"
    return f"{value:+g}"


# -- the shared driver ------------------------------------------------------------------


class _Lines:
    """Triangular principal-line store: ``at[ply]`` is the best line found below the
    node at ``ply``, as (player, move) pairs."""

    def __init__(self) -> None:
        self.at: list[list[tuple[int, Any]]] = [[]]

    def clear(self, ply: int) -> None:
        """The node at ``ply`` is a leaf: no line below it."""
        while len(self.at) <= ply + 1:
            self.at.append([])
        self.at[ply] = []

    def extend(self, ply: int, player: int, move: Any) -> None:
        """``move`` by ``player`` is the best at ``ply``: it heads the line below."""
        self.at[ply] = [(player, move), *self.at[ply + 1]]


class _Search:
    """What every N-player search shares: the context (counters, limits, stop), the
    table, the principal lines and the iterative-deepening loop. Subclasses define
    :meth:`root_value`."""

    algorithm = ""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        state: Any,
        *,
        player: int,
        limits: Limits,
        table: TranspositionTable | None,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.game, self.state, self.player = game, state, player
        self.limits = limits
        self.ctx = SearchContext(game, limits=limits, stop=stop, table=None, progress=progress)
        self.table = table
        self.play = unchecked_play(game)
        self.lines = _Lines()
        self.ordered = overrides(game, "order_moves")
        #: Whether a limit or a stop request cut the last iteration short.
        self.aborted = False

    def count_node(self) -> None:
        """Count a node; look at the limits when the context says it is time."""
        ctx = self.ctx
        ctx.nodes += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()

    def probe(self, key: Any) -> Any:
        """The table entry for ``key``, or None; counted in the statistics."""
        if self.table is None:
            return None
        self.ctx.tt_probes += 1
        entry = self.table.entries.get(key)
        if entry is not None:
            self.ctx.tt_hits += 1
        return entry

    def reuse(self, entry: Any, ply: int, player: int, move: Any) -> Any:
        """The value of a table ``entry`` that settles the node at ``ply``: its line
        is the entry's ``move`` by ``player`` alone, and a value found below a horizon
        keeps the iteration from counting as exact."""
        if not entry[4]:
            self.ctx.horizon_hits += 1
        self.lines.at[ply] = [(player, move)]
        return entry[2]

    def store(self, key: Any, entry: tuple[int, int, Any, Any, bool]) -> None:
        """Keep what a node found, ``(depth, bound, value, move, complete)`` (the
        table makes room when it is full)."""
        table = self.table
        if table is None:
            return
        table.entries[key] = entry
        if len(table.entries) > table.capacity:
            table.make_room()

    def moves_first(self, state: Any, moves: Sequence[Any], first: Any) -> list[Any]:
        """``moves`` in the game's order (:meth:`order_moves`), ``first`` (the table's
        move) brought to the front."""
        listed = list(self.game.order_moves(state, moves) if self.ordered else moves)
        if first is not None and first in listed:
            listed.remove(first)
            listed.insert(0, first)
        return listed

    # -- one iteration, then the loop ------------------------------------------------

    def root_value(self, depth: int) -> tuple[float, tuple[float, ...] | None]:
        """Search the root ``depth`` plies deep: (the root player's score, the vector
        or None); the line is left in :attr:`lines`."""
        raise NotImplementedError

    def iterations(self) -> Iterator[MultiResult]:
        """Yield a result per completed depth; stop at the depth limit, when the value
        is exact, or (silently) when a limit or a stop request cuts an iteration."""
        game, ctx = self.game, self.ctx
        if game.is_terminal(self.state):
            payoffs = _payoffs(game, self.state)
            yield self.result(payoffs[self.player], self.vector_or_none(payoffs), 0, exact=True)
            return
        max_depth = self.limits.depth if self.limits.depth is not None else MAX_PLY
        with deep_recursion(max_depth):
            for depth in range(1, max_depth + 1):
                ctx.horizon_hits = 0
                try:
                    value, vector = self.root_value(depth)
                except SearchAborted:
                    self.aborted = True
                    return
                exact = ctx.horizon_hits == 0
                yield self.result(value, vector, depth, exact=exact)
                if exact:
                    return

    def vector_or_none(self, vector: tuple[float, ...]) -> tuple[float, ...] | None:
        """The vector a result shows: max^n's; the others show the root's value only."""
        return vector if self.algorithm == "maxn" else None

    def result(
        self, value: float, vector: tuple[float, ...] | None, depth: int, *, exact: bool
    ) -> MultiResult:
        """The result of a finished iteration (``depth`` 0: the game is over)."""
        line = self.lines.at[0] if depth else []
        return MultiResult(
            algorithm=self.algorithm,
            player=self.player,
            value=value,
            values=vector,
            best_move=line[0][1] if line else None,
            pv=tuple(move for _, move in line),
            pv_players=tuple(mover for mover, _ in line),
            depth=depth,
            completed=True,
            exact=exact,
            stats=self.ctx.stats(),
        )

    def run(self) -> MultiResult:
        """Every iteration; the last completed one's result (cut short: marked so)."""
        last: MultiResult | None = None
        for last in self.iterations():  # noqa: B007  (the last one is the answer)
            pass
        if last is None:
            last = self.fallback()
        if self.aborted:
            last = replace(last, completed=False, stats=self.ctx.stats())
        return last

    def fallback(self) -> MultiResult:
        """When no iteration completed: the static evaluation and the first move."""
        game, state = self.game, self.state
        vector = tuple(game.evaluations(state))
        mover = game.to_move(state)
        first = game.legal_moves(state)[0]
        return MultiResult(
            algorithm=self.algorithm,
            player=self.player,
            value=vector[self.player],
            values=self.vector_or_none(vector),
            best_move=first,
            pv=(first,),
            pv_players=(mover,),
            depth=0,
            completed=False,
            exact=False,
            stats=self.ctx.stats(),
        )


def _payoffs(game: BaseGame[Any, Any], state: Any) -> tuple[float, ...]:
    """A terminal state's payoffs in engine units (``utility * WIN`` each)."""
    return tuple(utility * WIN for utility in game.utilities(state))


# -- max^n ------------------------------------------------------------------------------


class _MaxN(_Search):
    """max^n: every player maximises its own component; ties to the leftmost child."""

    algorithm = "maxn"

    def root_value(self, depth: int) -> tuple[float, tuple[float, ...] | None]:
        vector = self.node(self.state, depth, 0)
        return vector[self.player], vector

    def node(self, state: Any, depth: int, ply: int) -> tuple[float, ...]:
        """The depth-``depth`` vector of ``state`` (``ply`` plies below the root)."""
        game, ctx, lines = self.game, self.ctx, self.lines
        self.count_node()
        lines.clear(ply)
        if game.is_terminal(state):
            ctx.leaves += 1
            return _payoffs(game, state)
        if depth == 0:
            ctx.leaves += 1
            ctx.horizon_hits += 1
            return tuple(game.evaluations(state))
        mover = game.to_move(state)
        key = ("maxn", mover, game.key(state))
        entry = self.probe(key)
        if entry is not None and entry[0] == depth:
            return self.reuse(entry, ply, mover, entry[3])  # type: ignore[no-any-return]
        hits_before = ctx.horizon_hits
        best: tuple[float, ...] | None = None
        best_move = None
        for move in game.legal_moves(state):
            vector = self.node(self.play(state, move), depth - 1, ply + 1)
            if best is None or vector[mover] > best[mover]:
                best, best_move = vector, move
                lines.extend(ply, mover, move)
        assert best is not None  # a non-terminal state has moves
        self.store(key, (depth, EXACT, best, best_move, ctx.horizon_hits == hits_before))
        return best


# -- paranoid ---------------------------------------------------------------------------


class _Paranoid(_Search):
    """Alpha-beta for the root player against the coalition of every other player."""

    algorithm = "paranoid"

    def root_value(self, depth: int) -> tuple[float, tuple[float, ...] | None]:
        return self.node(self.state, depth, -INF, INF, 0), None

    def leaf(self, state: Any, depth: int) -> float | None:
        """The root player's score of a terminal state or one at the horizon, else None."""
        game, ctx = self.game, self.ctx
        if game.is_terminal(state):
            ctx.leaves += 1
            return game.utility(state, self.player) * WIN
        if depth == 0:
            ctx.leaves += 1
            ctx.horizon_hits += 1
            return game.evaluate(state, self.player)
        return None

    def node(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft alpha-beta: the root player's score of ``state`` if it lies inside
        (alpha, beta), else a bound on the side it fell."""
        game, ctx, lines = self.game, self.ctx, self.lines
        self.count_node()
        lines.clear(ply)
        value = self.leaf(state, depth)
        if value is not None:
            return value
        mover = game.to_move(state)
        key = (self.algorithm, self.player, mover, game.key(state))
        entry = self.probe(key)
        if entry is not None and entry[0] == depth and _cuts(entry, alpha, beta):
            return self.reuse(entry, ply, mover, entry[3])  # type: ignore[no-any-return]
        moves = self.moves_first(state, game.legal_moves(state), entry and entry[3])
        maximizing = mover == self.player
        window = (alpha, beta)
        hits_before = ctx.horizon_hits
        best, best_move = (-INF if maximizing else INF), None
        for move in moves:
            score = self.node(self.play(state, move), depth - 1, alpha, beta, ply + 1)
            if (score > best) if maximizing else (score < best):
                best, best_move = score, move
                lines.extend(ply, mover, move)
                if maximizing:
                    alpha = max(alpha, score)
                else:
                    beta = min(beta, score)
                if alpha >= beta:
                    ctx.cutoffs += 1
                    ctx.first_move_cutoffs += move is moves[0]
                    break
        bound = _bound(best, *window)
        self.store(key, (depth, bound, best, best_move, ctx.horizon_hits == hits_before))
        return best


def _cuts(entry: Any, alpha: float, beta: float) -> bool:
    """Whether a table entry of the right depth settles a node searched in (alpha, beta)."""
    bound, value = entry[1], entry[2]
    return bool(
        bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha)
    )


def _bound(best: float, alpha: float, beta: float) -> int:
    """How a fail-soft value found in the window (alpha, beta) holds."""
    if best <= alpha:
        return UPPER
    if best >= beta:
        return LOWER
    return EXACT


# -- Best-Reply Search ------------------------------------------------------------------


class _BestReply(_Paranoid):
    """Best-Reply Search: the root player's MAX layers; one MIN layer where the best
    single reply of all the opponents is played and the others pass."""

    algorithm = "brs"

    def node(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        game = self.game
        if game.to_move(state) == self.player:
            return super().node(state, depth, alpha, beta, ply)
        return self.min_layer(state, depth, alpha, beta, ply)

    def replies(self, state: Any, first: Any) -> list[tuple[int, Any, Any]]:
        """Every opponent's moves from ``state``: (player, position with that player
        to move, move), the table's reply first."""
        game = self.game
        mover = game.to_move(state)
        found = []
        for opponent in self.opponents(mover):
            position = state if opponent == mover else self.turn(state, opponent)
            for move in self.moves_first(position, game.legal_moves(position), None):
                found.append((opponent, position, move))
        if first is not None:
            found.sort(key=lambda reply: (reply[0], reply[2]) != first)  # stable: rest kept
        return found

    def opponents(self, mover: int) -> list[int]:
        """The root player's opponents in turn order from ``mover``."""
        count = self.game.num_players
        order = [(mover + step) % count for step in range(count)]
        return [player for player in order if player != self.player]

    def turn(self, state: Any, player: int) -> Any:
        """``state`` with ``player`` to move (the game's ``with_turn``)."""
        turned = self.game.with_turn(state, player)
        if turned is None:
            raise SearchError(
                f"{self.game.name}: best-reply search needs the game's with_turn() "
                f"(the position with another player to move); it gave None for player {player}"
            )
        return turned

    def min_layer(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The merged MIN layer: the best single reply among every opponent's moves;
        after it the turn goes back to the root player."""
        game, ctx, lines = self.game, self.ctx, self.lines
        self.count_node()
        lines.clear(ply)
        value = self.leaf(state, depth)
        if value is not None:
            return value
        key = ("brs-min", self.player, game.to_move(state), game.key(state))
        entry = self.probe(key)
        if entry is not None and entry[0] == depth and _cuts(entry, alpha, beta):
            return self.reuse(entry, ply, *entry[3])  # type: ignore[no-any-return]
        replies = self.replies(state, entry and entry[3])
        window = (alpha, beta)
        hits_before = ctx.horizon_hits
        best, best_reply = INF, None
        for index, (opponent, position, move) in enumerate(replies):
            child = self.play(position, move)
            if not game.is_terminal(child) and game.to_move(child) != self.player:
                child = self.turn(child, self.player)
            score = self.node(child, depth - 1, alpha, beta, ply + 1)
            if score < best:
                best, best_reply = score, (opponent, move)
                lines.extend(ply, opponent, move)
                beta = min(beta, score)
                if alpha >= beta:
                    ctx.cutoffs += 1
                    ctx.first_move_cutoffs += index == 0
                    break
        bound = _bound(best, *window)
        self.store(key, (depth, bound, best, best_reply, ctx.horizon_hits == hits_before))
        return best


# -- the native backend -----------------------------------------------------------------


class _Native(_Search):
    """Paranoid, max^n or Best-Reply Search in the native kernel
    (:mod:`plies.engine.native`'s ``multi_search_depth``), one kernel call an
    iteration: the same tree as the Python search without a table; paranoid and BRS
    with one (``table_entries`` above 0) keep a native table of that size through
    the iterations, as the Python searches do theirs. The line comes back as
    (player, move id) pairs and its moves are decoded here."""

    def __init__(
        self, algorithm: str, port: Any, table_entries: int, *args: Any, **options: Any
    ) -> None:
        super().__init__(*args, **options)
        import numpy as np

        from plies.engine.native import NODES, Runner

        self.algorithm = algorithm
        self.port = port
        self.prepared = port.prepare(self.state)
        self.runner = Runner(np.zeros(NODES + 8, np.int64), self.limits, options["stop"],
                             options["progress"])  # fmt: skip
        #: Leaves, cut-offs, first-move cut-offs, horizon leaves, table probes and
        #: hits, all iterations.
        self.counters = np.zeros(6, np.int64)
        #: The native table (paranoid and BRS with a table; max^n runs without).
        self.table_entries = table_entries if algorithm != "maxn" else 0
        self.native_table: Any = None

    def root_value(self, depth: int) -> tuple[float, tuple[float, ...] | None]:
        from plies.engine.native import multi_search_depth

        runner, ctx = self.runner, self.ctx
        counters = self.counters
        horizon = int(counters[3])
        try:
            value, vector, line = multi_search_depth(
                self.algorithm, self.port, self.prepared, self.player, depth, runner, counters,
                self.native_table,
            )  # fmt: skip
        finally:
            leaves, cutoffs, first_cutoffs, _, probes, hits = (int(n) for n in counters)
            ctx.nodes, ctx.leaves = runner.nodes, leaves
            ctx.cutoffs, ctx.first_move_cutoffs = cutoffs, first_cutoffs
            ctx.tt_probes, ctx.tt_hits = probes, hits
        ctx.horizon_hits = int(counters[3]) - horizon
        decode = self.port.decode_move
        self.lines.at[0] = [(player, decode(self.prepared, move)) for player, move in line]
        return value, (tuple(float(v) for v in vector) if vector is not None else None)

    def iterations(self) -> Iterator[MultiResult]:
        from plies.engine.native import KernelStopped

        if self.table_entries:
            self.native_table = _claim_native_table(self.table_entries)
        found = super().iterations()
        try:
            while True:
                try:
                    yield next(found)
                except StopIteration:
                    return
                except KernelStopped:
                    self.aborted = True
                    return
        finally:
            if self.native_table is not None:
                self.native_table.busy = False


#: This thread's native tables of the N-player searches, by entries: kept between
#: searches and emptied before each (a fresh table of 2**20 entries paid a page fault
#: for each page its first stores touched, 1-2 ms: more than a small search takes).
_KEPT_TABLES = threading.local()


def _claim_native_table(entries: int) -> Any:
    """This thread's kept native table of ``entries`` entries (a new one when none is
    kept or a paused search holds it), emptied and marked busy."""
    from plies.engine.native import NativeTable

    kept: dict[int, Any] = _KEPT_TABLES.__dict__.setdefault("tables", {})
    table = kept.get(entries)
    if table is None or table.busy:
        table = kept[entries] = NativeTable(entries)
    table.clear()
    table.busy = True
    return table


def _native_problem(game: BaseGame[Any, Any], state: Any, algorithm: str) -> str | None:
    """Why ``algorithm`` cannot search ``game`` at ``state`` natively, or None."""
    from plies.engine.native import has_port, native_port, numba_missing

    if not has_port(game):
        return f"{game.name} has no native port"
    missing = numba_missing()
    if missing:
        return missing
    port = native_port(game)
    if port is None or port.players < 3 or port.players != game.num_players:
        return f"the native port of {game.name} has no rules of {game.num_players} players"
    if algorithm == "brs" and not port.has_with_turn():
        return (
            f"the native port of {game.name} has no with_turn rule (best-reply search's "
            "passes: the position with another player to move)"
        )
    return port.problem(state)  # type: ignore[no-any-return]


def choose_multi_backend(
    game: BaseGame[Any, Any], algorithm: str, backend: str | None = None, state: Any = None
) -> str:
    """The backend (``"native"`` or ``"python"``) :func:`multi_search` runs
    ``algorithm`` on for ``game`` (at ``state``, if given) when no table object is
    given: None picks native where the port has the N-player rules (BRS: and
    ``with_turn``); ``"native"`` where it cannot run raises :class:`SearchError`
    saying why."""
    need_choice(algorithm, "algorithm", MULTI_ALGORITHMS, error=SearchError)
    return _pick_backend(game, state, algorithm, backend)


def _pick_backend(game: BaseGame[Any, Any], state: Any, algorithm: str, backend: Any) -> str:
    """``"native"`` or ``"python"``: None picks native where the port has the N-player
    rules (the caller passes ``"python"`` when a table object was given); ``"native"``
    where it cannot run raises."""
    if backend is not None:
        need_choice(backend, "backend", ("python", "native"), error=SearchError)
    if backend == "python":
        return "python"
    problem = _native_problem(game, state, algorithm)
    if problem is not None and backend == "native":
        raise SearchError(f"{algorithm}: no native search here: {problem}")
    return "python" if problem is not None else "native"


# -- the public functions ---------------------------------------------------------------


def _checked(
    game: Any,
    state: Any,
    *,
    limits: Any,
    table: Any,
    use_table: Any,
    stop: Any,
    progress: Any,
    player: Any,
) -> tuple[Limits, int, TranspositionTable | None]:
    """Check the arguments shared by the N-player searches; return the limits, the
    root player and the table to use (a fresh one when none was given)."""
    check_game(game)
    checked = check_limits(limits)
    if table is not None and not isinstance(table, TranspositionTable):
        raise ArgumentTypeError(
            f"table must be a plies.engine.TranspositionTable or None, not {type(table).__name__}"
        )
    need_bool(use_table, "use_table")
    check_hooks(stop, progress)
    game.check_state(state)
    if game.has_chance:
        raise SearchError(
            f"{game.name} has chance nodes: the N-player searches need a game without"
        )
    count = game.num_players
    root = game.to_move(state) if player is None else need_int(player, "player", minimum=0)
    if root >= count:
        raise SearchError(f"player {root} is not a player of {game.name} (0 to {count - 1})")
    if not use_table:
        return checked, root, None
    table = table if table is not None else TranspositionTable()
    table.claim(_OWNER)
    return checked, root, table


def maxn(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None = None,
    table: TranspositionTable | None = None,
    use_table: bool = True,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
) -> MultiResult:
    """Search ``state`` by max^n (Luckhardt and Irani): each player maximises its own
    score, ties to the leftmost child; the result's ``values`` are every player's.

    ``limits`` bounds depth, nodes and time (none: until the value is exact, small
    games only); hitting one returns the last completed iteration marked
    ``completed=False``. ``table`` reuses a :class:`TranspositionTable` (exact vectors
    at equal depth, see the module's notes), ``use_table=False`` searches without one.
    ``stop`` (an Event or a callable) ends the search; ``progress`` is called with the
    node count every few hundred nodes. ``backend``: ``"native"`` (the port's compiled
    rules: a game whose port has the N-player rules; max^n searches without a table,
    paranoid and BRS with a native one of the Python table's capacity unless
    ``use_table=False``), ``"python"``, or None: native where it can run and no
    ``table`` was given. Bad arguments raise before any search.
    """
    options: dict[str, Any] = {"limits": limits, "table": table, "use_table": use_table}
    options |= {"stop": stop, "progress": progress, "backend": backend}
    return _prepared(game, state, "maxn", options).run()


def paranoid(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None = None,
    player: int | None = None,
    table: TranspositionTable | None = None,
    use_table: bool = True,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
) -> MultiResult:
    """Search ``state`` by paranoid alpha-beta (Sturtevant and Korf): ``player`` (default:
    the one to move) maximises its score, every other player minimises it.

    ``value`` is that player's score; the other options are those of :func:`maxn`
    (the table holds bounds, as a two-player alpha-beta's does).
    """
    options: dict[str, Any] = {
        "limits": limits,
        "table": table,
        "use_table": use_table,
        "player": player,
    }
    options |= {"stop": stop, "progress": progress, "backend": backend}
    return _prepared(game, state, "paranoid", options).run()


def best_reply(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    limits: Limits | None = None,
    table: TranspositionTable | None = None,
    use_table: bool = True,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
) -> MultiResult:
    """Search ``state`` by Best-Reply Search (Schadd and Winands): the player to move
    searches its own moves, and between two of them only the single best reply among
    all its opponents' moves (the others pass).

    Needs the game's :meth:`~plies.game.BaseGame.with_turn` (a
    :class:`~plies.errors.SearchError` otherwise, once a reply needs it). ``value`` is
    the player to move's score; the result's ``pv_players`` say who plays each move
    of the line. Options as for :func:`maxn` (natively: a port with the N-player
    rules and ``with_turn``).
    """
    options: dict[str, Any] = {"limits": limits, "table": table, "use_table": use_table}
    options |= {"stop": stop, "progress": progress, "backend": backend}
    return _prepared(game, state, "brs", options).run()


def multi_search(
    game: BaseGame[Any, Any], state: Any, *, algorithm: str, **options: Any
) -> MultiResult:
    """:func:`maxn`, :func:`paranoid` or :func:`best_reply` by name (one of
    :data:`MULTI_ALGORITHMS`: ``maxn``, ``paranoid``, ``brs``), with their options."""
    return _prepared(game, state, algorithm, options).run()


def iterate_multi(
    game: BaseGame[Any, Any], state: Any, *, algorithm: str, **options: Any
) -> Iterator[MultiResult]:
    """The search :func:`multi_search` runs, one :class:`MultiResult` per completed
    depth (a limit or a stop request ends the generator silently, the unfinished
    depth thrown away). Every argument is checked before the first depth runs."""
    return _prepared(game, state, algorithm, options).iterations()


#: The search classes by algorithm name, and whether each takes a root ``player``.
_SEARCHES: dict[str, tuple[type[_Search], bool]] = {
    "maxn": (_MaxN, False),
    "paranoid": (_Paranoid, True),
    "brs": (_BestReply, False),
}


def _prepared(
    game: BaseGame[Any, Any], state: Any, algorithm: str, options: dict[str, Any]
) -> _Search:
    """The search ``algorithm`` names, its arguments checked (nothing searched yet)."""
    need_choice(algorithm, "algorithm", MULTI_ALGORITHMS, error=SearchError)
    kind, takes_player = _SEARCHES[algorithm]
    known = {"limits", "table", "use_table", "stop", "progress", "backend"}
    known |= {"player"} if takes_player else set()
    unknown = sorted(set(options) - known)
    if unknown:
        raise ArgumentTypeError(f"{algorithm} takes no option {unknown[0]!r}")
    stop, progress = options.get("stop"), options.get("progress")
    checked, root, used = _checked(
        game, state, limits=options.get("limits"), table=options.get("table"),
        use_table=options.get("use_table", True), stop=stop, progress=progress,
        player=options.get("player"),
    )  # fmt: skip
    backend = options.get("backend")
    if options.get("table") is not None and backend is None:
        backend = "python"  # a table given is searched with: the Python one
    if _pick_backend(game, state, algorithm, backend) == "native":
        port = _native_port(game)
        entries = used.capacity if used is not None else 0
        return _Native(algorithm, port, entries, game, state, player=root, limits=checked,
                       table=None, stop=stop, progress=progress)  # fmt: skip
    return kind(game, state, player=root, limits=checked, table=used, stop=stop, progress=progress)


def _native_port(game: BaseGame[Any, Any]) -> Any:
    from plies.engine.native import native_port

    return native_port(game)
