"""The exact solver: null-window searches that narrow the value of a position.

This is the search of Pascal Pons' Connect Four solver ("Solving Connect 4: how to
build a perfect AI"), written for any deterministic :class:`~plies.game.BaseGame`.
The game-specific tricks come through the game protocol:

* ``winning_move``: a win in one is taken without searching anything else;
* ``forced_moves``: only the moves that do not lose at once are searched, and a
  node where every move loses at once is a leaf. With both hooks a node below the
  root never has a win in one (its parent only played moves that allow none), so
  ``winning_move`` is asked once, at the root;
* ``last_mover_wins`` and ``remaining_plies`` (the *score bounds*): the soonest win
  and loss a node can still have, and the end of the game, bound its value before
  any move is searched; a window outside the bounds ends the node at once;
* ``order_moves``: the order children are tried in (Connect Four: centre first,
  then by the number of threats a move creates).

Scores are the engine's (see :mod:`plies.engine._scores`), as Python ints: a win
``u * WIN - d`` plies from the root, a loss ``u * WIN + d``, a draw 0. The node
function is fail-soft and searches every line to the end of the game. The
transposition table maps the game's key to one int: the score relative to the node
times 4 plus the bound kind (:data:`UPPER_CODE`, :data:`LOWER_CODE`,
:data:`EXACT_CODE`), no tuple per entry. (Entries with the best move's place as well
saved no nodes on Pons' sets.) When the table is full the older half of
the entries is dropped.

:meth:`ExactSolver.value` finds the value with null windows ``(t, t + 1)`` only, each telling
whether the value is above ``t``; the next threshold follows Pons' rule (halfway,
pulled towards the extremes, where a search is cheap because the bounds cut it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from plies.engine._context import SearchContext
from plies.engine._limits import MAX_PLY
from plies.engine._negamax import overrides, unchecked_play
from plies.engine._scores import WIN
from plies.game import BaseGame

__all__ = [
    "EXACT_CODE",
    "LOWER_CODE",
    "UPPER_CODE",
    "ExactSolver",
    "best_moves_and_line",
    "engine_shift",
    "narrow",
    "pons_threshold",
    "scaled_utility",
    "score_bounds",
]

#: Bound kinds of a table entry (the low two bits of its int).
UPPER_CODE = 0
LOWER_CODE = 1
EXACT_CODE = 2

WIN_INT = int(WIN)
#: Engine utility units per 0.001 of utility (utilities are multiples of 0.001).
_MILLI = WIN_INT // 1000

ExactNode = Callable[[Any, int, int, int], int]


def scaled_utility(outcome: float) -> int:
    """A utility (a multiple of 0.001) in engine units, as an int."""
    return round(outcome * 1000) * _MILLI


def terminal_int(outcome: float, ply: int) -> int:
    """:func:`~plies.engine._scores.terminal_score` as an int: the score of a finished
    game of utility ``outcome`` for the side to move, ``ply`` plies from the root."""
    score = scaled_utility(outcome)
    return score - ply if score > 0 else score + ply if score < 0 else 0


def engine_shift(value: int, ply: int) -> int:
    """An engine score relative to a root ``ply`` plies above, made relative to the
    position itself (a win or loss is ``ply`` plies nearer), as the table stores it."""
    return value + ply if value > 0 else value - ply if value < 0 else 0


class ExactSolver:
    """Exact values, best moves and optimal lines of one game's positions.

    ``ctx`` carries the game, the limits and the transposition table (required); the
    table is kept between calls, so solving positions of one game in a row reuses it.
    ``ordering`` switches the game's ``order_moves`` hint off (for comparisons).
    """

    def __init__(self, ctx: SearchContext, *, ordering: bool = True) -> None:
        game = ctx.game
        self.ctx = ctx
        self.game = game
        self.winning_move = game.winning_move if overrides(game, "winning_move") else None
        self.forced_moves = (
            game.forced_moves
            if self.winning_move is not None and overrides(game, "forced_moves")
            else None
        )
        self.remaining = game.remaining_plies if overrides(game, "remaining_plies") else None
        self.worst, self.best, self.mover_wins = score_bounds(game)
        self.ordering = ordering
        self.play = unchecked_play(game)
        self.node = self._make_node()

    def _make_node(self) -> ExactNode:
        """Build ``node(state, alpha, beta, ply) -> score``, the exact search.

        ``ply`` counts plies from the root the scores are relative to. When the game has
        both ``winning_move`` and ``forced_moves``, the caller guarantees that the side to
        move in ``state`` has no win in one (:meth:`value` checks it at the root).
        """
        ctx, game = self.ctx, self.game
        terminal_value = game.terminal_value
        legal_moves = game.legal_moves
        play = self.play
        key_of = game.key
        to_move = game.to_move
        alternating = game.alternating
        winning_move, forced_moves = self.winning_move, self.forced_moves
        # With forced_moves a node below the root has no win in one: no need to ask.
        ask_winning = winning_move if forced_moves is None else None
        remaining = self.remaining
        order_moves = game.order_moves if self.ordering and overrides(game, "order_moves") else None
        mover_wins = self.mover_wins
        worst, best_possible = self.worst, self.best
        # Score bounds. The soonest win: not in one ply when win-in-one is excluded, and
        # never on the opponent's move when only the last mover can win. The soonest
        # loss: not on our own move when only the last mover wins, nor on the
        # opponent's next move when only moves that do not lose at once are searched.
        win_gap = 1 if winning_move is None else 3 if mover_wins else 2
        loss_gap = 1 if not mover_wins else 4 if forced_moves is not None else 2
        draw_at_two = mover_wins and forced_moves is not None and remaining is not None
        table_obj = ctx.table
        assert table_obj is not None, "the exact solver needs a transposition table"
        table = table_obj.entries
        table_get = table.get
        capacity = table_obj.capacity

        def lose_at_once(state: Any, ply: int) -> int:
            """The score when every move loses at once: play one and let the opponent win."""
            child = play(state, legal_moves(state)[0])
            win = winning_move(child)  # type: ignore[misc]  # forced_moves implies winning_move
            assert win is not None, "forced_moves said every move loses at once"
            outcome = terminal_value(play(child, win))
            assert outcome is not None and outcome < 0
            return terminal_int(outcome, ply + 2)

        def node(state: Any, alpha: int, beta: int, ply: int) -> int:
            # Step 1. Count the node; look at the clock every CHECK_EVERY nodes.
            ctx.nodes += 1
            if ctx.nodes >= ctx.next_check:
                ctx.check()
            alpha_in, beta_in = alpha, beta
            # Step 2. The end of the game (terminal_int, inlined: once per node).
            outcome = terminal_value(state)
            if outcome is not None:
                ctx.leaves += 1
                if outcome == 0:
                    return 0
                if outcome < 0:
                    return scaled_utility(outcome) + ply
                return scaled_utility(outcome) - ply
            # Step 3. A win in one (only when the parent could not exclude it).
            if ask_winning is not None:
                move = ask_winning(state)
                if move is not None:
                    ctx.leaves += 1
                    outcome = terminal_value(play(state, move))
                    assert outcome is not None and outcome < 0
                    return -terminal_int(outcome, ply + 1)
            # Step 4. What the table knows, and the soonest win: cut-offs that need
            # no move generation.
            high = best_possible - ply - win_gap
            key = key_of(state)
            code = table_get(key)
            if code is not None:
                value: int = code >> 2
                if value > 0:
                    value -= ply
                elif value < 0:
                    value += ply
                kind = code & 3
                if kind == EXACT_CODE:
                    return value
                if kind == LOWER_CODE:
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return alpha
                elif value < high:
                    high = value
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
            # Step 5. The moves: all, or those that do not lose at once; then the
            # soonest loss (which assumes such a move exists).
            if forced_moves is not None:
                moves = forced_moves(state)
                if not moves:
                    ctx.leaves += 1
                    if mover_wins:  # the opponent's winning move scores -1 (contract)
                        return ply + 2 - WIN_INT
                    return lose_at_once(state, ply)
                if draw_at_two:
                    left = remaining(state)  # type: ignore[misc]  # draw_at_two implies it
                    if left is not None and left <= 2:
                        # Neither our move nor the opponent's reply can win, and then
                        # the game is over.
                        ctx.leaves += 1
                        return 0
            else:
                moves = legal_moves(state)
            low = worst + ply + loss_gap
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
            # Step 6. Search the children in the game's order; fail-soft.
            if order_moves is not None and len(moves) > 1:
                moves = order_moves(state, moves)
            best = worst - MAX_PLY - 1
            me = to_move(state) if not alternating else 0
            next_ply = ply + 1
            for move in moves:
                child = play(state, move)
                if alternating or to_move(child) != me:
                    score = -node(child, -beta, -alpha, next_ply)
                else:
                    score = node(child, alpha, beta, next_ply)
                if score > best:
                    best = score
                    if score > alpha:
                        if score >= beta:
                            break
                        alpha = score
            # Step 7. Store what was proven, relative to the node. The kind is judged
            # against the window the node was given: a score at a bound the node
            # proved itself (the soonest win or loss, or the table's) is exact.
            code = UPPER_CODE if best <= alpha_in else LOWER_CODE if best >= beta_in else EXACT_CODE
            # engine_shift(best, ply), written out as Step 4 writes its inverse: no call per node.
            stored = best + ply if best > 0 else best - ply if best < 0 else 0
            table[key] = stored * 4 + code
            if len(table) > capacity:
                table_obj.drop_oldest()
            return best

        return node

    # -- positions ------------------------------------------------------------------

    def search(self, state: Any, alpha: int, beta: int, ply: int = 0) -> int:
        """Fail-soft score of any position ``ply`` plies below the root, in ``(alpha, beta)``.

        Unlike the node function it accepts a finished game or a win in one.
        """
        game, ctx = self.game, self.ctx
        outcome = game.terminal_value(state)
        move = None
        if outcome is None and self.winning_move is not None:
            move = self.winning_move(state)
        if outcome is None and move is None:
            return self.node(state, alpha, beta, ply)
        # A finished game or a win in one: a node and a leaf, counted (and the clock
        # read) as the node function counts them. 'solve nim 1000000' reported 0
        # nodes, and its best moves (a million children, each a win in one for the
        # opponent) ignored limits and Ctrl-C.
        ctx.nodes += 1
        ctx.leaves += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()
        if outcome is not None:
            return terminal_int(outcome, ply)
        outcome = game.terminal_value(self.play(state, move))
        assert outcome is not None and outcome < 0
        return -terminal_int(outcome, ply + 1)

    def value(self, state: Any, *, weak: bool = False) -> int:
        """The exact score of ``state`` for the side to move (engine units, as an int).

        Thresholds follow Pons' rule on ranks (see :class:`_Ranks`) for games where
        only the last mover wins (+1/0/-1 utilities); for other games the sign comes
        first, then the value is approached from its proven side. ``weak`` only
        decides the result, ``1`` (a win), ``0`` (a draw) or ``-1``: the same
        searches, stopped as soon as the sign is known. (A single window at 0, "any
        win?", cost 10 times the nodes of the strong solve on Test_L1_R1: a search for
        a quick win is cut short by the score bounds, one for any win is not.)
        """
        game = self.game
        if game.terminal_value(state) is not None or (
            self.winning_move is not None and self.winning_move(state) is not None
        ):
            score = self.search(state, -1, 1)
            return _sign(score) if weak else score
        horizon = self.remaining(state) if self.remaining is not None else None
        return narrow(
            lambda alpha, beta: self.search(state, alpha, beta),
            worst=self.worst,
            best=self.best,
            mover_wins=self.mover_wins,
            horizon=horizon,
            weak=weak,
        )

    def reaches(self, state: Any, move: Any, value: int, ply: int = 0) -> bool:
        """Whether ``move`` from ``state`` (``ply`` plies below the root) scores at
        least ``value`` (root-relative): one null-window search of the child."""
        game = self.game
        child = self.play(state, move)
        if game.alternating or game.to_move(child) != game.to_move(state):
            return -self.search(child, -value, -value + 1, ply + 1) >= value
        return self.search(child, value - 1, value, ply + 1) >= value

    def best_moves(self, state: Any, value: int, *, first_only: bool = False) -> list[Any]:
        """The moves of ``state`` that reach its exact ``value``, in the game's order."""
        found = []
        moves = self._ordered_moves(state)
        for move in moves:
            if self.reaches(state, move, value):
                found.append(move)
                if first_only:
                    break
        return found

    def line(self, state: Any, value: int) -> tuple[Any, ...]:
        """Optimal moves from ``state`` (of exact ``value``) to the end of the game.

        Each step tests the moves in the game's order with one null-window search of
        the child each, until one reaches the value: cheap with the table full of the
        solve's bounds, but a cost per ply, so quadratic in the length of the line for
        games thousands of plies long (use ``moves="best"`` there).
        """
        game = self.game
        line: list[Any] = []
        while game.terminal_value(state) is None and len(line) < MAX_PLY:
            moves = self._ordered_moves(state)
            ply = len(line)
            move = next(m for m in moves if self.reaches(state, m, value, ply))
            child = self.play(state, move)
            if game.alternating or game.to_move(child) != game.to_move(state):
                value = -value
            line.append(move)
            state = child
        return tuple(line)

    def _ordered_moves(self, state: Any) -> Sequence[Any]:
        """Every legal move, in the game's order (as the node function orders them)."""
        moves = self.game.legal_moves(state)
        if self.ordering and overrides(self.game, "order_moves"):
            moves = self.game.order_moves(state, moves)
        return moves


#: A score as a solver keeps it: engine units (int) or the native kernel's float.
ScoreT = TypeVar("ScoreT", int, float)


def best_moves_and_line(
    value: ScoreT,
    *,
    weak: bool,
    moves: str,
    floor: ScoreT,
    line: Callable[[ScoreT], tuple[Any, ...]],
    reaching: Callable[[ScoreT, bool], Sequence[Any]],
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(best moves, line)`` of a solved position of exact ``value`` (for ``weak``,
    a score of the result's sign), as :func:`~plies.engine.solve` finds them for its
    ``moves`` option: ``"line"`` the line and its first move, ``"best"`` one best move,
    ``"all"`` every best move and the line, ``"none"`` nothing; a weak solve finds no
    line (its best moves only keep the result).

    ``line(value)`` is the optimal line, ``reaching(target, first_only)`` the moves
    that reach ``target`` in the game's order (the first only, if asked): a best move
    reaches the value, or in a weak solve any win, any draw, or for a loss anything at
    all (``floor``, a score below every score)."""
    target = value if not weak or value >= 0 else floor
    pv: tuple[Any, ...] = ()
    if moves in ("line", "all") and not weak:
        pv = line(value)
    best: tuple[Any, ...] = ()
    if moves == "all":
        best = tuple(reaching(target, False))
    elif moves != "none":
        best = pv[:1] or tuple(reaching(target, True))
    return best, pv or best[:1]


def score_bounds(game: BaseGame[Any, Any]) -> tuple[int, int, bool]:
    """``(worst, best, mover_wins)``: the game's least and greatest utility in engine
    units, and whether only the last mover can win; what the exact solvers' score
    bounds and :func:`narrow` start from."""
    low, high = game.utility_bounds()
    return scaled_utility(low), scaled_utility(high), game.last_mover_wins and game.alternating


def narrow(
    search: Callable[[int, int], int],
    *,
    worst: int,
    best: int,
    mover_wins: bool,
    horizon: int | None,
    weak: bool,
) -> int:
    """The exact score of a position (not finished, no win in one) from null-window
    searches ``search(alpha, beta)`` (fail-soft), as :meth:`ExactSolver.value` finds
    it; the native solver drives its kernel with it too. ``worst`` and ``best`` are
    the game's utility bounds in engine units, ``horizon`` its ``remaining_plies``
    (or None)."""
    # Pons' starting range: from a loss on the opponent's next move to a win on
    # ours (the node function tightens both as soon as it sees a position).
    low = worst + (2 if mover_wins else 1)
    high = best - 1
    if not mover_wins:  # then utilities need not be +1/-1
        while low < high and not (weak and _sign_known(low, high)):
            # The sign first; then from the side the fail-soft bound came from,
            # as MTD(f) does: is the value above the best proven so far (or, for
            # a loss, at least the least excluded)? Halving the range instead
            # tests thresholds far from the value, which cost a search as deep as
            # the distance where transpositions change the distance (Subtraction
            # to 3,001: 2.7M nodes instead of 16k).
            if low < 0 < high:
                med = 0
            elif low < -1 < high:
                med = -1
            else:
                med = low if low >= 0 else high - 1
            score = search(med, med + 1)
            if score <= med:
                high = score
            else:
                low = score
        return _sign(low) if weak else low
    ranks = _Ranks(horizon if horizon is not None else MAX_PLY)
    low_rank, high_rank = ranks.rank(low), ranks.rank(high)
    while low_rank < high_rank and not (weak and _sign_known(low_rank, high_rank)):
        # Pons' rule on his half-scale scores, then back to a rank threshold.
        med = pons_threshold(_c_half(low_rank), _c_half(high_rank))
        # "Half-scale score > med" is "rank > 2 med + 1" for a win, "> 2 med" else.
        threshold = 2 * med + 1 if med >= 0 else 2 * med
        threshold = max(low_rank, min(threshold, high_rank - 1))
        cut = ranks.value(threshold + 1)  # the least value above the threshold
        score = search(cut - 1, cut)
        if score < cut:
            high_rank = min(high_rank, ranks.rank(score))
        else:
            low_rank = max(low_rank, ranks.rank(score))
    return _sign(low_rank) if weak else ranks.value(low_rank)


def pons_threshold(low: int, high: int) -> int:
    """Pons' next threshold for a score known to lie in ``[low, high]`` (``low <=
    high``, his half-scale scores): halfway, pulled towards the extreme on its side,
    where a null-window search is cheap because the score bounds cut it."""
    med = low + _c_half(high - low)
    if med <= 0 and _c_half(low) < med:
        return _c_half(low)
    if med >= 0 and _c_half(high) > med:
        return _c_half(high)
    return med


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _sign_known(low: int, high: int) -> bool:
    """Whether every value in ``[low, high]`` has the same sign."""
    return low > 0 or high < 0 or (low >= 0 and high <= 0)


def _c_half(value: int) -> int:
    """``value / 2`` rounded towards zero (C's integer division, as in Pons' code)."""
    return value // 2 if value >= 0 else -(-value // 2)


class _Ranks:
    """Integer ranks of exact values: 0 a draw, ``L + 2 - d`` a win in ``d`` plies.

    ``L`` is the game's ``remaining_plies`` at the root (else :data:`MAX_PLY`), so the
    rank of a win falls by one per ply of delay and a loss is the negation. Halving a
    rank gives Pons' Connect Four score (22 minus the winner's stones on 7 x 6), which
    is where the thresholds are picked. Only for games with utilities +1/0/-1.
    """

    def __init__(self, horizon: int) -> None:
        self.top = horizon + 2

    def rank(self, value: int) -> int:
        """The rank of an engine score (a win, a loss or 0)."""
        if value > 0:
            return self.top - (WIN_INT - value)
        if value < 0:
            return -(self.top - (WIN_INT + value))
        return 0

    def value(self, rank: int) -> int:
        """The engine score of a rank (the inverse of :meth:`rank`)."""
        if rank > 0:
            return WIN_INT - (self.top - rank)
        if rank < 0:
            return -WIN_INT + (self.top + rank)
        return 0
