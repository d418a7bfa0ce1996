"""Monte-Carlo tree search: UCT with MCTS-Solver, chance nodes and seeded playouts.

Each iteration walks four steps:

1. **Selection**: from the root, while a node is fully expanded and not proven, go to
   the child with the highest UCB1 bound ``mean + c * sqrt(ln N / n)`` for the player
   who chooses there (means are rewards scaled to [0, 1]); at a chance node, sample an
   outcome with its probability.
2. **Expansion**: add one untried move's child.
3. **Simulation**: play a playout from it to the end of the game (uniform random moves,
   or ``"guided"``: a winning move where the game names one, else the game's first
   ordered move three times in four).
4. **Backpropagation**: add the playout's utility to every node on the path.

Values are kept from the first player's view (player 0) and turned to the chooser's
view where a choice is made, so games where a player moves twice in a row need no
special case. MCTS-Solver (Winands, Björnsson and Saito 2008) marks terminal states
proven and backs proofs up exactly: a decision node is a proven win for its player as
soon as one child is, and proven otherwise once all its children are (the best of
them). A proven root ends the search; its score is then a win or loss in N plies
(N: the length of the forced line found, which may be longer than the fastest one).
Games with chance nodes are searched without the solver (an expectation proves no
result): their score is an expected utility. Elsewhere an unproven score is the mean
of the playouts (``playouts +0.035``), an estimate rather than the game's value.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies._arguments import need_bool, need_choice, need_int, need_number, need_object
from plies.engine._context import StopRequest, stop_callable
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import unchecked_play
from plies.engine._result import SearchResult, SearchStats
from plies.engine._scores import Score, terminal_score
from plies.errors import SearchError
from plies.game import WIN, BaseGame

__all__ = [
    "DEFAULT_ITERATIONS",
    "PLAYOUTS",
    "MctsMove",
    "MctsOptions",
    "MctsResult",
    "mcts",
]

#: Playout policies: uniform random moves, or guided by the game's hooks.
PLAYOUTS: tuple[str, ...] = ("random", "guided")
#: Iterations run when no limit at all is given.
DEFAULT_ITERATIONS = 10_000
#: How often a guided playout plays the game's first ordered move.
_GUIDED_SHARE = 0.75


@dataclass(frozen=True)
class MctsOptions:
    """How MCTS searches: ``exploration`` is UCB1's constant c (default sqrt 2, for
    rewards in [0, 1]), ``playout`` one of :data:`PLAYOUTS`, ``solver`` whether
    proven results are backed up (MCTS-Solver), ``seed`` the random generator's seed
    (same seed, same game, same limits but time: same result). Checked when made."""

    exploration: float = math.sqrt(2)
    playout: str = "random"
    solver: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        need_number(self.exploration, "exploration constant", minimum=0, error=SearchError)
        need_choice(self.playout, "playout", PLAYOUTS)
        need_bool(self.solver, "solver")
        need_int(self.seed, "seed", error=SearchError)


@dataclass(frozen=True)
class MctsMove:
    """One root move's statistics: its ``visits``, its mean ``value`` (utility for the
    side to move at the root, from -1 to 1 for the usual +1/0/-1 games) and its
    ``proven`` :class:`~plies.engine.Score` for the side to move (None: not proven)."""

    move: Any
    visits: int
    value: float
    proven: Score | None


@dataclass(frozen=True)
class MctsResult:
    """What :func:`mcts` found: the ``best_move`` (the proven best, else the most
    visited), the engine ``value`` for the side to move (a proven win or loss in N
    plies as :mod:`plies.engine._scores` encodes it; else the mean utility times
    ``WIN``, an expectation), the principal line ``pv`` (most visited children),
    ``iterations`` run, ``exact`` (the root was proven), ``moves`` (each root move's
    statistics, most visited first, ties by the higher mean), ``tree_nodes`` (nodes in
    the tree), ``stats`` (``nodes``: every state entered, in the tree and in playouts;
    ``time``; ``nps``) and ``chance`` (the game has chance nodes)."""

    value: float
    best_move: Any
    pv: tuple[Any, ...]
    iterations: int
    exact: bool
    moves: tuple[MctsMove, ...]
    tree_nodes: int
    stats: SearchStats
    #: Whether the game has chance nodes (then an unproven value is an expectation).
    chance: bool = False

    @property
    def score(self) -> Score:
        """A proven root's win, loss or draw; else the mean of the playouts: an
        expected utility in a game with chance nodes, else :meth:`Score.playouts`."""
        if self.exact:
            return _proven_score(self.value)
        if self.chance:
            return Score.expected(self.value / WIN)
        return Score.playouts(self.value / WIN)

    def as_search_result(self) -> SearchResult:
        """This result as the engine's :class:`~plies.engine.SearchResult` (algorithm
        ``"mcts"``; ``depth`` is the line's length; ``chance`` unless proven)."""
        return SearchResult(
            value=self.value,
            best_move=self.best_move,
            pv=self.pv,
            depth=len(self.pv),
            completed=True,
            exact=self.exact,
            algorithm="mcts",
            stats=self.stats,
            chance=not self.exact,
        )


class _Node:
    """A state in the tree. ``total`` sums rewards from player 0's view; ``proven``
    is the exact utility for player 0 once known, ``distance`` its plies from here."""

    __slots__ = (
        "children",
        "distance",
        "is_chance",
        "move",
        "outcomes",
        "parent",
        "player",
        "proven",
        "state",
        "total",
        "untried",
        "visits",
    )

    def __init__(self, state: Any, move: Any, parent: _Node | None, player: int) -> None:
        self.state = state
        self.move = move
        self.parent = parent
        self.player = player
        self.children: list[_Node] = []
        self.untried: list[Any] = []
        self.outcomes: Sequence[tuple[Any, float]] = ()
        self.is_chance = False
        self.visits = 0
        self.total = 0.0
        self.proven: float | None = None
        self.distance = 0


class _Search:
    """One MCTS run: the game's hooks, the generator, the counters and the limits."""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        options: MctsOptions,
        stop: Callable[[], bool] | None,
    ) -> None:
        self.game = game
        self.options = options
        self.rng = random.Random(options.seed)
        self.stop = stop
        self.has_chance = game.has_chance
        self.solver = options.solver and not game.has_chance
        self.low, self.high = game.utility_bounds()
        self.scale = max(abs(self.low), abs(self.high)) or 1.0
        self.nodes = 0
        self.tree_nodes = 0
        self.guided = options.playout == "guided"
        # bound methods hoisted out of the loops
        self.terminal_value = game.terminal_value
        self.to_move = game.to_move
        self.legal_moves = game.legal_moves
        self.play = unchecked_play(game)

    # -- building nodes -----------------------------------------------------------------

    def make_node(self, state: Any, move: Any, parent: _Node | None) -> _Node:
        """A new node for ``state``, terminal ones proven at once."""
        self.tree_nodes += 1
        self.nodes += 1
        node = _Node(state, move, parent, self.to_move(state))
        outcome = self.terminal_value(state)
        if outcome is not None:
            node.proven = outcome if node.player == 0 else -outcome
        elif self.has_chance and self.game.is_chance(state):
            node.is_chance = True
            node.outcomes = self.game.chance_outcomes(state)
        else:
            node.untried = self.expansion_order(state)
        return node

    def expansion_order(self, state: Any) -> list[Any]:
        """The moves of ``state`` to expand, the next one last (popped)."""
        moves = list(self.legal_moves(state))
        if self.guided:
            moves = list(self.game.order_moves(state, moves))
            moves.reverse()
        else:
            self.rng.shuffle(moves)
        return moves

    # -- the four steps ------------------------------------------------------------------

    def iterate(self, root: _Node) -> None:
        """One iteration: select, expand, simulate, back up."""
        node = root
        ply = 0
        while node.proven is None:
            ply += 1
            if ply > MAX_PLY:
                raise SearchError(f"mcts: a line went past {MAX_PLY} plies")
            if node.is_chance:
                node = self.sample_outcome(node)
                continue
            if node.untried:
                move = node.untried.pop()
                child = self.make_node(self.play(node.state, move), move, node)
                node.children.append(child)
                node = child
                break
            node = self.select(node)
        reward = node.proven if node.proven is not None else self.playout(node.state)
        self.back_up(node, reward)

    def select(self, node: _Node) -> _Node:
        """The child with the highest UCB1 bound for the player choosing at ``node``;
        with the solver, children proven lost for that player are skipped (a node
        whose children are all proven is proven itself, so one is always left)."""
        sign = 1.0 if node.player == 0 else -1.0
        worst = self.worst_utility(sign)
        scale = self.scale
        log_visits = math.log(node.visits)
        c = self.options.exploration
        best = node.children[0]
        best_bound = -math.inf
        for child in node.children:
            if self.solver and child.proven is not None and sign * child.proven <= worst:
                continue
            mean = (sign * child.total / child.visits / scale + 1.0) / 2.0
            bound = mean + c * math.sqrt(log_visits / child.visits)
            if bound > best_bound:
                best, best_bound = child, bound
        return best

    def best_utility(self, sign: float) -> float:
        """The highest utility the player of ``sign`` (+1: player 0) can get."""
        return self.high if sign > 0 else -self.low

    def worst_utility(self, sign: float) -> float:
        """The lowest utility the player of ``sign`` can get."""
        return self.low if sign > 0 else -self.high

    def sample_outcome(self, node: _Node) -> _Node:
        """The child of chance ``node`` for an outcome drawn with its probability."""
        outcomes = node.outcomes
        weights = [probability for _, probability in outcomes]
        (outcome,) = self.rng.choices(outcomes, weights)
        for child in node.children:
            if child.move == outcome[0]:
                return child
        child = self.make_node(self.play(node.state, outcome[0]), outcome[0], node)
        node.children.append(child)
        return child

    def playout(self, state: Any) -> float:
        """Play ``state`` to the end; its utility for player 0."""
        rng = self.rng
        game = self.game
        for _ in range(MAX_PLY):
            outcome = self.terminal_value(state)
            if outcome is not None:
                return outcome if self.to_move(state) == 0 else -outcome
            self.nodes += 1
            if self.has_chance and game.is_chance(state):
                outcomes = game.chance_outcomes(state)
                weights = [probability for _, probability in outcomes]
                move = rng.choices(outcomes, weights)[0][0]
            else:
                move = self.playout_move(state)
            state = self.play(state, move)
        raise SearchError(f"mcts: a playout went past {MAX_PLY} plies")

    def playout_move(self, state: Any) -> Any:
        """A playout's move in decision ``state``."""
        moves = self.legal_moves(state)
        if self.guided:
            winning = self.game.winning_move(state)
            if winning is not None:
                return winning
            if self.rng.random() < _GUIDED_SHARE:
                return self.game.order_moves(state, moves)[0]
        return moves[self.rng.randrange(len(moves))]

    def back_up(self, node: _Node | None, reward: float) -> None:
        """Add ``reward`` to ``node`` and its ancestors, proving them where it can."""
        # A node's proof can change only when the child it was reached through is
        # proven (proofs and expansions happen only on this path), so ``prove`` runs
        # only then instead of scanning the children at every node of every iteration.
        child_proven = True
        while node is not None:
            node.visits += 1
            node.total += reward
            if self.solver and child_proven and node.proven is None and not node.is_chance:
                self.prove(node)
            child_proven = node.proven is not None
            node = node.parent

    def prove(self, node: _Node) -> None:
        """Mark ``node`` proven when a child is a win (the highest utility) for its
        player, the soonest of them, or when every move's child is proven (the best
        of them for that player)."""
        sign = 1.0 if node.player == 0 else -1.0
        best_utility = self.best_utility(sign)
        winners = [
            child
            for child in node.children
            if child.proven is not None and sign * child.proven >= best_utility
        ]
        if winners:
            best = min(winners, key=lambda child: child.distance)
        elif node.untried or any(child.proven is None for child in node.children):
            return
        else:
            best = max(node.children, key=lambda child: _preference(sign, child))
        node.proven = best.proven
        node.distance = best.distance + 1


def _preference(sign: float, child: _Node) -> tuple[float, float]:
    """How much the chooser of ``sign`` likes proven ``child``: higher utility, then
    a sooner win or a later loss."""
    utility = sign * child.proven  # type: ignore[operator]
    return (utility, -child.distance if utility > 0 else child.distance)


def _check_limits(limits: Limits, iterations: int | None) -> None:
    if limits.depth is not None:
        raise SearchError(
            f"mcts has no depth limit (got depth {limits.depth}): give iterations, nodes or time"
        )
    if iterations is not None:
        need_int(iterations, "iterations", minimum=1, error=SearchError)


def mcts(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    iterations: int | None = None,
    limits: Limits | None = None,
    options: MctsOptions | None = None,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
) -> MctsResult:
    """Search ``state`` of ``game`` by Monte-Carlo tree search (UCT, see the module).

    It stops after ``iterations``, at ``limits``' ``nodes`` (states entered, in the
    tree and in playouts) or ``time``, on a ``stop`` request, or when the root is
    proven; with none of these, after :data:`DEFAULT_ITERATIONS`. ``progress`` is
    called with the node count every hundred iterations. A depth limit, a bad option
    or a state of another game raises plies' error before anything runs.

    >>> from plies.games import get_game
    >>> game = get_game("tictactoe")
    >>> found = mcts(game, game.parse_position("1 4 2 5"), iterations=200)
    >>> game.format_move(game.parse_position("1 4 2 5"), found.best_move), str(found.score)
    ('3', 'win in 1')
    """
    need_object(game, BaseGame, "game")
    game.check_state(state)
    limits = Limits() if limits is None else need_object(limits, Limits, "limits")
    options = MctsOptions() if options is None else need_object(options, MctsOptions, "options")
    _check_limits(limits, iterations)
    if iterations is None and limits.nodes is None and limits.time is None:
        iterations = DEFAULT_ITERATIONS
    search = _Search(game, options, stop_callable(stop))
    started = time.perf_counter()
    deadline = None if limits.time is None else started + limits.time
    root = search.make_node(state, None, None)
    done = 0
    while root.proven is None:
        if _should_stop(search, limits, iterations, done, deadline):
            break
        search.iterate(root)
        done += 1
        if progress is not None and done % 100 == 0:
            progress(search.nodes)
    elapsed = time.perf_counter() - started
    return _result(search, root, done, elapsed)


def _should_stop(
    search: _Search, limits: Limits, iterations: int | None, done: int, deadline: float | None
) -> bool:
    if iterations is not None and done >= iterations:
        return True
    if limits.nodes is not None and search.nodes >= limits.nodes:
        return True
    if deadline is not None and time.perf_counter() >= deadline:
        return True
    return search.stop is not None and search.stop()


def _result(search: _Search, root: _Node, done: int, elapsed: float) -> MctsResult:
    """The result of a search of ``root`` after ``done`` iterations."""
    sign = 1.0 if root.player == 0 else -1.0
    stats = SearchStats(nodes=search.nodes, leaves=done, time=elapsed, seldepth=0)
    moves = tuple(
        sorted(
            (_move_stats(sign, child) for child in root.children),
            key=lambda found: (-found.visits, -found.value),  # ties as _best_child breaks them
        )
    )
    best = _best_child(sign, root)
    pv = _principal_line(root, best)
    if root.proven is not None:
        value = terminal_score(sign * root.proven, root.distance)
    elif root.visits:
        value = sign * root.total / root.visits * WIN
    else:
        value = 0.0
    return MctsResult(
        value=value,
        best_move=None if best is None else best.move,
        pv=pv,
        iterations=done,
        exact=root.proven is not None,
        moves=moves,
        tree_nodes=search.tree_nodes,
        stats=stats,
        chance=search.game.has_chance,
    )


def _move_stats(sign: float, child: _Node) -> MctsMove:
    mean = sign * child.total / child.visits if child.visits else 0.0
    proven = None
    if child.proven is not None:
        proven = _proven_score(terminal_score(sign * child.proven, child.distance + 1))
    return MctsMove(child.move, child.visits, mean, proven)


def _proven_score(value: float) -> Score:
    """The :class:`Score` of proven engine ``value`` (0: a draw)."""
    return Score.draw() if value == 0 else Score.from_value(value)


def _best_child(sign: float, node: _Node) -> _Node | None:
    """The proven best child of a proven ``node``, else the most visited one
    (children proven lost skipped while others remain; ties: the higher mean)."""
    if not node.children or node.is_chance:
        return None
    if node.proven is not None:
        proven = [child for child in node.children if child.proven == node.proven]
        if proven:
            return max(proven, key=lambda child: _preference(sign, child))
    candidates = [
        child
        for child in node.children
        if child.proven is None or sign * child.proven >= 0 or child.proven == node.proven
    ] or node.children
    return max(candidates, key=lambda child: (child.visits, sign * child.total))


def _principal_line(root: _Node, best: _Node | None) -> tuple[Any, ...]:
    """The moves from ``root`` through ``best`` and then each node's best child."""
    line: list[Any] = []
    node = best
    while node is not None:
        line.append(node.move)
        if node.is_chance or not node.children:
            break
        node = _best_child(1.0 if node.player == 0 else -1.0, node)
    return tuple(line)
