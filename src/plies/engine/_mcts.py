"""Monte-Carlo tree search: UCT with MCTS-Solver, chance nodes, N players, seeded playouts
in Python or in the native kernel, and trees kept from one move to the next.

Each iteration walks four steps:

1. **Selection**: from the root, while a node is fully expanded and not proven, go to
   the child with the highest UCB1 bound ``mean + c * sqrt(ln N / n)`` for the player
   who chooses there (means are rewards scaled to [0, 1]); at a chance node, sample an
   outcome with its probability.
2. **Expansion**: add one untried move's child (with the solver, a move the game's
   ``winning_move`` hook names first, so a win in one is proven at once).
3. **Simulation**: play playouts from it to the end of the game (uniform random moves;
   ``"guided"``: a winning move where the game names one, else the game's first
   ordered move three times in four; ``"evaluate"``: ``cutoff`` random plies, then the
   game's evaluation squashed into the utility range). In Python one playout a leaf;
   in the native kernel (:mod:`plies.engine.native._playout`, for games with a native
   port) ``leaf_playouts`` of them in one call.
4. **Backpropagation**: add the playouts' utilities to every node on the path.

Two players: values are kept from the first player's view (player 0) and turned to the
chooser's view where a choice is made, so games where a player moves twice in a row
need no special case. MCTS-Solver (Winands, Björnsson and Saito 2008) marks terminal
states proven and backs proofs up exactly: a decision node is a proven win for its
player as soon as one child is, and proven otherwise once all its children are (the
best of them). A proven root ends the search; its score is then a win or loss in N
plies (N: the length of the forced line found; wins in one are always seen first,
longer ones may be longer than the fastest). Games with chance nodes are searched
without the solver (an expectation proves no result): their score is an expected
utility. Elsewhere an unproven score is the mean of the playouts (``playouts +0.035``),
an estimate rather than the game's value.

More than two players (``num_players > 2``): each node keeps a reward *vector* (the
sum of :meth:`~plies.game.BaseGame.utilities` of its playouts) and every chooser
maximises its own component (the max^n rule, Sturtevant 2008), without the solver: a
payoff vector that is not zero-sum has no "win for one player is a loss for the
other" to back up, and one player's best child says nothing certain about the others'
payoffs, so only terminal states are exact.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies._arguments import need_bool, need_choice, need_int, need_number, need_object
from plies.engine._context import StopRequest, stop_callable
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import unchecked_play
from plies.engine._result import SearchResult, SearchStats
from plies.engine._scores import Score, terminal_score
from plies.engine.native import has_port, native_port, native_port_problem, numba_missing
from plies.errors import SearchError
from plies.game import WIN, BaseGame

__all__ = [
    "DEFAULT_CUTOFF",
    "DEFAULT_ITERATIONS",
    "MCTS_BACKENDS",
    "NATIVE_LEAF_PLAYOUTS",
    "PLAYOUTS",
    "REUSE_PLIES",
    "MctsMove",
    "MctsOptions",
    "MctsResult",
    "MctsTree",
    "mcts",
    "native_problem",
]

#: Playout policies: uniform random moves, guided by the game's hooks, or cut off and
#: scored by the game's evaluation.
PLAYOUTS: tuple[str, ...] = ("random", "guided", "evaluate")
#: Where playouts run: ``"python"``, or ``"native"`` (the compiled kernel).
MCTS_BACKENDS: tuple[str, ...] = ("python", "native")
#: Iterations run when no limit at all is given.
DEFAULT_ITERATIONS = 10_000
#: Random plies an ``"evaluate"`` playout plays before it scores the position.
DEFAULT_CUTOFF = 2
#: Playouts a native leaf gets (one kernel call), counted as one visit with their mean.
#: A call costs ~2 us and the Python tree ~20-40 us an iteration (selection, expansion,
#: the game's rules in Python), against ~0.3 us a Connect Four playout in the kernel:
#: one playout a leaf ran 1.6x Python's playouts per second, 16 ran 25x and 32 ran 43x
#: (Connect Four from the start, best of three interleaved one-second runs on a busy
#: two-core machine; ``benchmarks/mcts.py``).
NATIVE_LEAF_PLAYOUTS = 32
#: How deep below a kept tree's root :func:`mcts` looks for the position to reuse:
#: the engine's move and the opponent's reply.
REUSE_PLIES = 2
#: How often a guided playout plays the game's first ordered move.
_GUIDED_SHARE = 0.75
#: Without ``backend``, runs at least this long go native where a port exists (a
#: small run would spend more time loading the compiled kernel than searching).
_NATIVE_ITERATIONS = 10_000
_NATIVE_SECONDS = 1.0
_NATIVE_NODES = 1_000_000


@dataclass(frozen=True)
class MctsOptions:
    """How MCTS searches: ``exploration`` is UCB1's constant c (default sqrt 2, for
    rewards in [0, 1]), ``playout`` one of :data:`PLAYOUTS`, ``solver`` whether
    proven results are backed up (MCTS-Solver; two-player games only), ``seed`` the
    random generator's seed (same seed, same game, same backend, same limits but time:
    same result). ``cutoff`` and ``spread`` shape ``"evaluate"`` playouts: after
    ``cutoff`` random plies the position scores ``scale * tanh(evaluation / spread)``
    (``scale``: the largest utility; ``spread`` None: the mean absolute evaluation of
    the root's children, 1 if that is 0). ``leaf_playouts`` is the number of playouts
    an expanded leaf gets (None: 1 in Python, :data:`NATIVE_LEAF_PLAYOUTS` natively).
    Checked when made."""

    exploration: float = math.sqrt(2)
    playout: str = "random"
    solver: bool = True
    seed: int = 0
    cutoff: int = DEFAULT_CUTOFF
    spread: float | None = None
    leaf_playouts: int | None = None

    def __post_init__(self) -> None:
        need_number(self.exploration, "exploration constant", minimum=0, error=SearchError)
        need_choice(self.playout, "playout", PLAYOUTS)
        need_bool(self.solver, "solver")
        need_int(self.seed, "seed", error=SearchError)
        need_int(self.cutoff, "cutoff", minimum=0, maximum=MAX_PLY, error=SearchError)
        if self.spread is not None:
            need_number(self.spread, "spread", above=0, error=SearchError)
        if self.leaf_playouts is not None:
            need_int(
                self.leaf_playouts, "leaf_playouts", minimum=1, maximum=4096, error=SearchError
            )


@dataclass(frozen=True)
class MctsMove:
    """One root move's statistics: its ``visits`` (iterations through it), its mean
    ``value`` (utility for the side to move at the root, from -1 to 1 for the usual
    +1/0/-1 games) and its ``proven`` :class:`~plies.engine.Score` for the side to move
    (None: not proven)."""

    move: Any
    visits: int
    value: float
    proven: Score | None


class _Node:
    """A state in the tree. ``total`` sums rewards from player 0's view (two players),
    ``totals`` each player's (more players); ``proven`` is the exact utility for player
    0 once known, ``distance`` its plies from here, ``utilities`` a terminal state's
    payoff vector (more players)."""

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
        "totals",
        "untried",
        "utilities",
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
        self.totals: list[float] = []
        self.proven: float | None = None
        self.utilities: tuple[float, ...] = ()
        self.distance = 0


class MctsTree:
    """A search tree :func:`mcts` kept (:attr:`MctsResult.tree`), to pass as ``reuse``
    to the search of a later position of the same game: the position's node, at the
    root or up to :data:`REUSE_PLIES` plies below it, becomes the new root with its
    statistics, and the search grows it in place (so hand a tree to one search at a
    time)."""

    __slots__ = ("_root", "game")

    def __init__(self, game: BaseGame[Any, Any], root: _Node) -> None:
        self.game = game
        self._root = root

    @property
    def state(self) -> Any:
        """The position at the tree's root."""
        return self._root.state

    @property
    def visits(self) -> int:
        """The root's visits (iterations through it)."""
        return self._root.visits

    def node_of(self, game: BaseGame[Any, Any], state: Any) -> _Node | None:
        """The node of ``state`` of ``game`` at most :data:`REUSE_PLIES` plies below
        the root (breadth first: the shallowest), or None."""
        if not _same_game(self.game, game):
            return None
        level = [self._root]
        for _ in range(REUSE_PLIES + 1):
            for node in level:
                if node.state == state:
                    return node
            level = [child for node in level for child in node.children]
        return None


def _same_game(kept: BaseGame[Any, Any], game: BaseGame[Any, Any]) -> bool:
    """Whether ``kept`` and ``game`` are one game: the same object, or the same class
    and name (which carries a game's settings, ``connect4:width=5,height=4``), as two
    parses of one game spec are (a web room makes a game per request)."""
    return kept is game or (type(kept) is type(game) and kept.name == game.name)


@dataclass(frozen=True)
class MctsResult:
    """What :func:`mcts` found: the ``best_move`` (the proven best, else the most
    visited), the engine ``value`` for the side to move (a proven win or loss in N
    plies as :mod:`plies.engine._scores` encodes it; else the mean utility times
    ``WIN``, an expectation), the principal line ``pv`` (most visited children),
    ``iterations`` run, ``exact`` (the root was proven), ``moves`` (each root move's
    statistics, most visited first, ties by the higher mean), ``tree_nodes`` (nodes in
    the tree), ``stats`` (``nodes``: every state entered, in the tree and in playouts;
    ``time``; ``nps``), ``chance`` (the game has chance nodes), ``playouts`` (run by
    this search), ``backend`` (where they ran), ``reused`` (the root's visits kept from
    ``reuse``), ``utilities`` (each player's mean utility at the root) and ``tree``
    (to pass as ``reuse`` to the next search)."""

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
    playouts: int = 0
    backend: str = "python"
    reused: int = 0
    utilities: tuple[float, ...] = ()
    tree: MctsTree | None = field(default=None, compare=False, repr=False)

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


class _Search:
    """One two-player MCTS run: the game's hooks, the generator, the counters, the
    limits and, natively, the kernel's playouts."""

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
        self.solver = options.solver and not game.has_chance and game.num_players == 2
        self.low, self.high = game.utility_bounds()
        self.scale = max(abs(self.low), abs(self.high)) or 1.0
        self.nodes = 0
        self.tree_nodes = 0
        self.playouts = 0
        self.guided = options.playout == "guided"
        self.cutoff = options.cutoff if options.playout == "evaluate" else None
        self.spread = options.spread or 1.0
        self.leaf_playouts = options.leaf_playouts or 1
        self.native: Any = None  # the kernel's playouts (NativePlayouts), if native
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
            self.settle(node, outcome)
        elif self.has_chance and self.game.is_chance(state):
            node.is_chance = True
            node.outcomes = self.game.chance_outcomes(state)
        else:
            node.untried = self.expansion_order(state)
        return node

    def settle(self, node: _Node, outcome: float) -> None:
        """Mark terminal ``node`` proven: ``outcome`` is its mover's utility."""
        node.proven = outcome if node.player == 0 else -outcome

    def expansion_order(self, state: Any) -> list[Any]:
        """The moves of ``state`` to expand, the next one last (popped); with the
        solver, a win in one the game names goes first (proving the node at once)."""
        moves = list(self.legal_moves(state))
        if self.guided:
            moves = list(self.game.order_moves(state, moves))
            moves.reverse()
        else:
            self.rng.shuffle(moves)
        if self.solver:
            winning = self.game.winning_move(state)
            if winning is not None and winning in moves:
                moves.remove(winning)
                moves.append(winning)
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
        if node.proven is not None:
            # An end of the game reached again counts as a state entered, so a node
            # limit ends a search without the solver whose tree holds every end.
            self.nodes += 1
            self.back_up(node, self.proven_reward(node))
        else:
            # A leaf's playouts count as one visit with their mean (sixteen visits
            # would shrink UCB's exploration term fourfold: sqrt(ln 16N / 16n)).
            count = self.leaf_playouts
            self.back_up(node, self.simulate(node.state, count))
            self.playouts += count

    def proven_reward(self, node: _Node) -> Any:
        """What a visit of settled ``node`` adds to the totals."""
        return node.proven

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

    def simulate(self, state: Any, count: int) -> Any:
        """The mean utility for player 0 of ``count`` playouts from ``state``."""
        if self.native is not None:
            sign = 1.0 if self.to_move(state) == 0 else -1.0
            total, nodes = self.native.run(state, sign, count)
            self.nodes += nodes
            return total / count
        if count == 1:
            return self.playout(state)
        return sum(self.playout(state) for _ in range(count)) / count

    def playout(self, state: Any) -> Any:
        """Play ``state`` to the end (or to the cut-off); its utility for player 0."""
        rng = self.rng
        game = self.game
        for ply in range(MAX_PLY):
            outcome = self.terminal_value(state)
            if outcome is not None:
                return self.end_reward(state, outcome)
            if self.cutoff is not None and ply >= self.cutoff:
                return self.estimate(state)
            self.nodes += 1
            if self.has_chance and game.is_chance(state):
                outcomes = game.chance_outcomes(state)
                weights = [probability for _, probability in outcomes]
                move = rng.choices(outcomes, weights)[0][0]
            else:
                move = self.playout_move(state)
            state = self.play(state, move)
        raise SearchError(f"mcts: a playout went past {MAX_PLY} plies")

    def end_reward(self, state: Any, outcome: float) -> Any:
        """A playout's reward at terminal ``state`` (``outcome``: its mover's utility)."""
        return outcome if self.to_move(state) == 0 else -outcome

    def estimate(self, state: Any) -> Any:
        """An ``"evaluate"`` playout's reward at the cut-off: the evaluation for the side
        to move, squashed into the utility range, from player 0's view."""
        player = self.to_move(state)
        value = self.scale * math.tanh(self.game.evaluate(state, player) / self.spread)
        return value if player == 0 else -value

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

    def back_up(self, node: _Node | None, reward: Any) -> None:
        """Add a visit and ``reward`` to ``node`` and its ancestors, proving them
        where it can."""
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

    # -- reading the tree ---------------------------------------------------------------

    def mean(self, node: _Node, player: int) -> float:
        """The mean utility of ``node``'s playouts for ``player`` (0 if unvisited)."""
        if not node.visits:
            return 0.0
        mean = node.total / node.visits
        return mean if player == 0 else -mean

    def utilities_at(self, node: _Node) -> tuple[float, ...]:
        """Each player's mean utility at ``node``."""
        return (self.mean(node, 0), self.mean(node, 1))

    def best_child(self, node: _Node) -> _Node | None:
        """The proven best child of a proven ``node``, else the most visited one
        (children proven lost skipped while others remain; ties: the higher mean)."""
        if not node.children or node.is_chance:
            return None
        sign = 1.0 if node.player == 0 else -1.0
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

    def root_value(self, root: _Node) -> float:
        """The engine value of ``root`` for its side to move."""
        sign = 1.0 if root.player == 0 else -1.0
        if root.proven is not None:
            return terminal_score(sign * root.proven, root.distance)
        return self.mean(root, root.player) * WIN

    def move_stats(self, root: _Node, child: _Node) -> MctsMove:
        """The statistics of root move ``child`` for the side to move at ``root``."""
        sign = 1.0 if root.player == 0 else -1.0
        proven = None
        if child.proven is not None:
            proven = _proven_score(terminal_score(sign * child.proven, child.distance + 1))
        return MctsMove(child.move, child.visits, self.mean(child, root.player), proven)


class _VectorSearch(_Search):
    """One MCTS run on a game of more than two players: a reward vector per node, each
    chooser maximising its own component (max^n backups), no solver."""

    def __init__(
        self, game: BaseGame[Any, Any], options: MctsOptions, stop: Callable[[], bool] | None
    ) -> None:
        super().__init__(game, options, stop)
        self.players = game.num_players
        self.width = (self.high - self.low) or 1.0

    def make_node(self, state: Any, move: Any, parent: _Node | None) -> _Node:
        """A new node for ``state`` with a reward vector, terminal ones settled."""
        node = super().make_node(state, move, parent)
        node.totals = [0.0] * self.players
        return node

    def settle(self, node: _Node, outcome: float) -> None:
        """Mark terminal ``node`` settled: its payoff vector is exact."""
        node.utilities = tuple(self.game.utilities(node.state))
        node.proven = node.utilities[0]

    def proven_reward(self, node: _Node) -> Any:
        """A terminal node's payoff vector."""
        return node.utilities

    def select(self, node: _Node) -> _Node:
        """The child with the highest UCB1 bound for its chooser's own component."""
        player = node.player
        low, width = self.low, self.width
        log_visits = math.log(node.visits)
        c = self.options.exploration
        best = node.children[0]
        best_bound = -math.inf
        for child in node.children:
            mean = (child.totals[player] / child.visits - low) / width
            bound = mean + c * math.sqrt(log_visits / child.visits)
            if bound > best_bound:
                best, best_bound = child, bound
        return best

    def simulate(self, state: Any, count: int) -> Any:
        """The mean payoff vector of ``count`` playouts from ``state``."""
        if self.native is not None:
            sums, nodes = self.native.run_vector(state, count)
            self.nodes += nodes
            return [total / count for total in sums]
        totals = [0.0] * self.players
        for _ in range(count):
            for player, utility in enumerate(self.playout(state)):
                totals[player] += utility / count
        return totals

    def end_reward(self, state: Any, outcome: float) -> Any:
        """The payoff vector of terminal ``state``."""
        return self.game.utilities(state)

    def estimate(self, state: Any) -> Any:
        """Each player's evaluation at the cut-off, squashed into the utility range."""
        middle, half = (self.high + self.low) / 2, self.width / 2
        return [
            middle + half * math.tanh(value / self.spread) for value in self.game.evaluations(state)
        ]

    def back_up(self, node: _Node | None, reward: Any) -> None:
        """Add a visit and the reward vector to ``node`` and its ancestors."""
        while node is not None:
            node.visits += 1
            totals = node.totals
            for player, utility in enumerate(reward):
                totals[player] += utility
            node = node.parent

    def mean(self, node: _Node, player: int) -> float:
        """The mean utility of ``node``'s playouts for ``player``."""
        return node.totals[player] / node.visits if node.visits else 0.0

    def utilities_at(self, node: _Node) -> tuple[float, ...]:
        """Each player's mean utility at ``node``."""
        return tuple(self.mean(node, player) for player in range(self.players))

    def best_child(self, node: _Node) -> _Node | None:
        """The most visited child (ties: the higher mean for the chooser)."""
        if not node.children or node.is_chance:
            return None
        player = node.player
        return max(node.children, key=lambda child: (child.visits, self.mean(child, player)))

    def root_value(self, root: _Node) -> float:
        """The engine value of ``root`` for its side to move."""
        if root.proven is not None:
            return terminal_score(root.utilities[root.player], 0)
        return self.mean(root, root.player) * WIN

    def move_stats(self, root: _Node, child: _Node) -> MctsMove:
        """The statistics of root move ``child`` for the side to move at ``root``."""
        return MctsMove(child.move, child.visits, self.mean(child, root.player), None)


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


def native_problem(game: BaseGame[Any, Any], state: Any = None) -> str | None:
    """Why MCTS cannot play ``game``'s playouts (at ``state``, if given) in the native
    kernel, or None: it needs no chance, a native port and Numba, and for more than
    two players a port with their rules (``players``, ``to_move``, ``utilities``)."""
    if game.has_chance:
        return f"mcts plays native playouts in games without chance only ({game.name} has chance)"
    if not has_port(game):
        return f"{game.name} has no native port"
    if game.num_players == 2:
        return numba_missing() or native_port_problem(game, state, "search")
    missing = numba_missing()
    if missing:
        return missing
    port = native_port(game)
    if port is None or port.players != game.num_players:
        return (
            f"mcts: the native port of {game.name} has no rules of "
            f"{game.num_players} players (to_move, utilities)"
        )
    return port.problem(state)  # type: ignore[no-any-return]


def _is_large(iterations: int | None, limits: Limits) -> bool:
    """Whether a run within these limits is long enough to go native by default."""
    return (
        (iterations is not None and iterations >= _NATIVE_ITERATIONS)
        or (limits.time is not None and limits.time >= _NATIVE_SECONDS)
        or (limits.nodes is not None and limits.nodes >= _NATIVE_NODES)
    )


def _pick_backend(
    game: BaseGame[Any, Any],
    state: Any,
    backend: str | None,
    iterations: int | None,
    limits: Limits,
) -> str:
    """Where the playouts run: ``backend``, or None: native for a large run where the
    game has a port (see :func:`native_problem`), else Python."""
    if backend is not None:
        need_choice(backend, "backend", MCTS_BACKENDS)
    if backend == "python":
        return "python"
    if backend is None and not _is_large(iterations, limits):
        return "python"
    problem = native_problem(game, state)
    if problem is None:
        return "native"
    if backend == "native":
        raise SearchError(problem)
    return "python"


def _evaluation_spread(game: BaseGame[Any, Any], state: Any) -> float:
    """The mean absolute evaluation of ``state``'s children for their side to move
    (each player's, with more players), or 1 when that is 0: the default ``spread``."""
    if game.terminal_value(state) is not None or (game.has_chance and game.is_chance(state)):
        return 1.0
    values: list[float] = []
    for move in game.legal_moves(state):
        child = game.play(state, move)
        if game.terminal_value(child) is not None:
            continue
        if game.num_players > 2:
            values.extend(abs(value) for value in game.evaluations(child))
        else:
            values.append(abs(game.evaluate(child, game.to_move(child))))
    spread = sum(values) / len(values) if values else 0.0
    return spread if spread > 0 else 1.0


def _start_native(search: _Search, game: BaseGame[Any, Any], state: Any) -> None:
    """Set up and load ``search``'s kernel playouts (before the clock starts)."""
    from plies.engine.native import NativePlayouts

    vector = isinstance(search, _VectorSearch)
    search.native = NativePlayouts(
        native_port(game),
        state,
        policy=search.options.playout,
        cutoff=search.options.cutoff,
        spread=search.spread,
        # N players: an evaluation squashed into the utility range, middle + half * tanh
        scale=((search.high - search.low) or 1.0) / 2 if vector else search.scale,
        seed=search.options.seed,
    )
    if vector:
        search.native.middle = (search.high + search.low) / 2
    search.native.load()


def _root(search: _Search, state: Any, reuse: MctsTree | None) -> _Node:
    """The root to search: ``state``'s node in ``reuse`` (cut from its parent, its
    nodes counted), else a new one."""
    if reuse is not None:
        need_object(reuse, MctsTree, "reuse")
        node = reuse.node_of(search.game, state)
        if node is not None and (node.totals or search.game.num_players == 2):
            node.parent = None
            node.move = None
            search.tree_nodes = _count(node)
            return node
    return search.make_node(state, None, None)


def _count(root: _Node) -> int:
    """The nodes of the tree under ``root``."""
    count = 0
    todo = deque([root])
    while todo:
        node = todo.pop()
        count += 1
        todo.extend(node.children)
    return count


def mcts(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    iterations: int | None = None,
    limits: Limits | None = None,
    options: MctsOptions | None = None,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str | None = None,
    reuse: MctsTree | None = None,
) -> MctsResult:
    """Search ``state`` of ``game`` by Monte-Carlo tree search (UCT, see the module).

    It stops after ``iterations``, at ``limits``' ``nodes`` (states entered, in the
    tree and in playouts) or ``time``, on a ``stop`` request, or when the root is
    proven; with none of these, after :data:`DEFAULT_ITERATIONS`. ``progress`` is
    called with the node count every hundred iterations. ``backend`` is where the
    playouts run: ``"python"``, ``"native"`` (the compiled kernel; a game without a
    port raises), or None: native for runs of at least 10,000 iterations, a second or
    a million nodes where the game has a port, else Python. ``reuse`` is the
    :attr:`MctsResult.tree` of an earlier search of the game: when ``state`` is its
    root or up to :data:`REUSE_PLIES` plies below, that subtree is searched on (else a
    new tree is grown). A depth limit, a bad option or a state of another game raises
    plies' error before anything runs.

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
    chosen = _pick_backend(game, state, backend, iterations, limits)
    if options.playout == "evaluate" and options.spread is None:
        options = _with_spread(options, _evaluation_spread(game, state))
    if chosen == "native" and options.leaf_playouts is None:
        options = _with_leaf_playouts(options, NATIVE_LEAF_PLAYOUTS)
    kind = _VectorSearch if game.num_players > 2 else _Search
    search = kind(game, options, stop_callable(stop))
    if chosen == "native":
        _start_native(search, game, state)
    root = _root(search, state, reuse)
    reused = root.visits
    started = time.perf_counter()
    deadline = None if limits.time is None else started + limits.time
    done = 0
    while root.proven is None:
        if _should_stop(search, limits, iterations, done, deadline):
            break
        search.iterate(root)
        done += 1
        if progress is not None and done % 100 == 0:
            progress(search.nodes)
    elapsed = time.perf_counter() - started
    return _result(search, root, done, elapsed, chosen, reused)


def _with_spread(options: MctsOptions, spread: float) -> MctsOptions:
    return MctsOptions(
        options.exploration, options.playout, options.solver, options.seed,
        options.cutoff, spread, options.leaf_playouts,
    )  # fmt: skip


def _with_leaf_playouts(options: MctsOptions, count: int) -> MctsOptions:
    return MctsOptions(
        options.exploration, options.playout, options.solver, options.seed,
        options.cutoff, options.spread, count,
    )  # fmt: skip


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


def _result(  # noqa: PLR0917
    search: _Search, root: _Node, done: int, elapsed: float, backend: str, reused: int
) -> MctsResult:
    """The result of a search of ``root`` after ``done`` iterations."""
    stats = SearchStats(nodes=search.nodes, leaves=done, time=elapsed, seldepth=0)
    moves = tuple(
        sorted(
            (search.move_stats(root, child) for child in root.children),
            key=lambda found: (-found.visits, -found.value),  # ties as best_child breaks them
        )
    )
    best = search.best_child(root)
    return MctsResult(
        value=search.root_value(root) if root.visits or root.proven is not None else 0.0,
        best_move=None if best is None else best.move,
        pv=_principal_line(search, best),
        iterations=done,
        exact=root.proven is not None,
        moves=moves,
        tree_nodes=search.tree_nodes,
        stats=stats,
        chance=search.game.has_chance,
        playouts=search.playouts,
        backend=backend,
        reused=reused,
        utilities=search.utilities_at(root),
        tree=MctsTree(search.game, root),
    )


def _proven_score(value: float) -> Score:
    """The :class:`Score` of proven engine ``value`` (0: a draw)."""
    return Score.draw() if value == 0 else Score.from_value(value)


def _principal_line(search: _Search, best: _Node | None) -> tuple[Any, ...]:
    """The moves from the root through ``best`` and then each node's best child."""
    line: list[Any] = []
    node = best
    while node is not None:
        line.append(node.move)
        if node.is_chance or not node.children:
            break
        node = search.best_child(node)
    return tuple(line)
