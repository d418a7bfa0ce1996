"""The fast engine: negamax alpha-beta with its enhancements, in one place.

:func:`make_negamax` builds the node function for one search. It closes over the
search context and the game's bound methods, so a node call passes only what changes
(state, depth, window, ply) and never looks a method up. The same function serves
plain negamax alpha-beta, PVS (NegaScout: null windows after the first move) and the
null-window passes of MTD(f); chance nodes are searched with Star1, Star2 or plain
expectation.

Scores are from the side to move's view, fail-soft (a failed search returns a bound
beyond the window, not the window edge). Step comments follow the order of a node.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from plies.engine._context import SearchContext
from plies.engine._scores import WIN, WIN_THRESHOLD, terminal_score
from plies.engine._table import EXACT, LOWER, UPPER
from plies.game import BaseGame

__all__ = [
    "CHANCE_MODES",
    "NodeFunction",
    "RootBest",
    "make_negamax",
    "overrides",
    "quiet_hook",
    "unchecked_play",
]

#: How chance nodes are searched: Star2 (probe, then Star1), Star1 (bounds from the
#: outcomes searched so far) or plain (every outcome with a full window).
CHANCE_MODES = ("star2", "star1", "plain")

NodeFunction = Callable[[Any, float, float, float, int], float]

INF = math.inf

#: Longest move list the engine sorts by history. A longer one (a Nim heap of
#: 100,000 gives 100,000 moves) is ordered lazily: table move and killers first, then
#: the game's order, each move made as the loop reaches it. Sorting 200,000 Nim moves
#: took 17-40 ms per node, longer than a node may take to keep limits and Ctrl-C
#: prompt (see CHECK_GAP); no built-in game but a large Nim or m,n,k board has as many.
LONG_MOVE_LIST = 1024

#: Null-move pruning: the least remaining depth where it is tried, and the plies the
#: pass's search leaves out besides the pass itself: NULL_BASE, one more every
#: NULL_DEPTH_STEP plies of depth, and one more every NULL_MARGIN the evaluation is
#: above beta (at most NULL_MARGIN_MAX).
NULL_MIN_DEPTH = 3
NULL_BASE = 2
NULL_DEPTH_STEP = 3
NULL_MARGIN = 200.0
NULL_MARGIN_MAX = 3
#: Late-move reductions: moves from this index on (after the table move and the
#: killers) at nodes with at least :data:`LMR_MIN_DEPTH` plies left.
LMR_FIRST = 3
LMR_MIN_DEPTH = 3
#: Reverse futility pruning (games with ``is_quiet``): at most this many plies from
#: the horizon, off the principal variation and out of check, a static evaluation
#: this much a ply above beta fails high.
RFP_DEPTH = 5
RFP_MARGIN = 100.0
#: Futility and late-move pruning of quiet moves (games with ``is_quiet``, the same
#: nodes): at most FUTILITY_DEPTH plies from the horizon, a quiet move after the
#: first is not searched when the evaluation plus the depth's margin is at most
#: alpha, or when it comes at or after the depth's count in the order.
FUTILITY_DEPTH = 3
FUTILITY_MARGINS = (0.0, 200.0, 300.0, 500.0)
LATE_MOVE_COUNTS = (0, 6, 12, 22)
#: Internal iterative reduction (games with ``is_quiet`` and a table): a node at least
#: this many plies from the horizon with no table move to try first is searched a ply
#: shallower (its result stored at that depth): ordered blind, a full-depth search of
#: it costs more than it tells.
IIR_DEPTH = 4


#: Root scores are kept as integers in this many parts (the native kernel keeps them in
#: its int64 control row: ``native._control.ROOT_SCORE_SCALE``, the same number).
ROOT_SCORE_SCALE = 65536


class RootBest:
    """The root move that last raised alpha in the iteration under way, with its score
    (``None`` and 0.0 before any did): what an iteration stopped before its end has
    proven. The score is truncated to a :data:`ROOT_SCORE_SCALE`-th, as the native
    kernel keeps it."""

    __slots__ = ("move", "score")

    def __init__(self) -> None:
        self.move: Any = None
        self.score = 0.0

    def clear(self) -> None:
        """Forget the move (a new iteration starts)."""
        self.move = None
        self.score = 0.0


def _late_reductions() -> tuple[tuple[int, ...], ...]:
    """Plies a late move's first search leaves out, by the node's remaining depth and
    the move's index (each up to 63): ``round(ln depth * ln index / 2)``, at least one,
    as engines since Stockfish's reduce more the deeper the node and the later the move
    (on chess at 100,000 nodes a move, 80 games: +84 Elo [+25, +149] over one ply)."""
    return tuple(
        tuple(max(1, int(0.5 + math.log(max(depth, 1)) * math.log(max(index, 1)) / 2.0))
              for index in range(64))
        for depth in range(64)
    )  # fmt: skip


#: :func:`_late_reductions`, the same table as the native kernel's ``LMR_TABLE``.
LATE_REDUCTIONS = _late_reductions()


def front_first(moves: Sequence[Any], front: Sequence[Any]) -> Iterator[Any]:
    """The moves of ``front`` that are in ``moves`` (in that order, once each), then
    the other moves in their order: lazily, so a cut-off stops the work early."""
    first = []
    for move in front:
        if move is not None and move not in first and move in moves:
            first.append(move)
            yield move
    if not first:
        yield from moves
        return
    for move in moves:
        if move not in first:
            yield move


def overrides(game: BaseGame[Any, Any], name: str) -> bool:
    """Whether ``game``'s class overrides the :class:`BaseGame` hook ``name``."""
    return getattr(type(game), name) is not getattr(BaseGame, name)


def quiet_hook(game: BaseGame[Any, Any]) -> Callable[[Any, Any], bool] | None:
    """The game's ``is_quiet`` when it overrides it and can say yes
    (:attr:`~plies.game.BaseGame.has_quiet_moves`; a native port's ``pruning_hooks``
    says the same)."""
    if not overrides(game, "is_quiet") or not game.has_quiet_moves:
        return None
    return game.is_quiet


def unchecked_play(game: BaseGame[Any, Any]) -> Callable[[Any, Any], Any]:
    """The game's :meth:`~plies.game.BaseGame.play_unchecked`, or its ``play`` when it
    has no unchecked path (saves the default's extra call per move).

    The engine plays only moves from ``legal_moves`` and ``chance_outcomes``, so it
    never needs ``play``'s legality check.
    """
    if overrides(game, "play_unchecked"):
        return game.play_unchecked
    return game.play


def alternating_game(game: BaseGame[Any, Any]) -> bool:
    """Whether every move of ``game`` hands the turn over (no chance nodes either)."""
    return game.alternating and not game.has_chance


#: The remaining depth's bits in a table entry's tag (above them: the search and its
#: iteration, see :class:`~plies.engine._context.SearchContext`).
DEPTH_BITS = (1 << 32) - 1


def deep_enough(entry_tag: float, depth: float) -> bool:
    """Whether an entry tagged ``entry_tag`` was searched at least ``depth`` deep, by any
    search or iteration (an entry searched to the end of every line, tag ``inf``, is
    deep enough for any depth)."""
    if entry_tag == INF:
        return True
    return entry_tag >= 0 and depth != INF and int(entry_tag) & DEPTH_BITS >= depth


def make_negamax(
    ctx: SearchContext,
    *,
    pvs: bool = False,
    chance: str = "star1",
    use_table: bool = True,
    ordering: bool = True,
    deep: bool = False,
    root_best: RootBest | None = None,
) -> NodeFunction:
    """Build ``negamax(state, depth, alpha, beta, ply) -> score`` for one search.

    ``pvs`` searches every move after the first with a null window and re-searches
    the ones that beat it; ``chance`` picks the chance-node method (see
    :data:`CHANCE_MODES`); ``use_table`` and ``ordering`` switch the transposition
    table and move ordering (table move, killers, history) on or off; ``deep`` cuts on
    any table entry searched at least as deep (:func:`deep_enough`), not only on this
    iteration's; ``root_best`` records each root move that raises alpha (after a full
    search, not the leaf loop of step 8a). ``depth`` may be ``math.inf`` (search to
    the end of every line).
    """
    game = ctx.game
    terminal_value = game.terminal_value
    evaluate = game.evaluate
    to_move = game.to_move
    legal_moves = game.legal_moves
    play = unchecked_play(game)
    key_of = game.key
    is_chance = game.is_chance
    chance_outcomes = game.chance_outcomes
    has_chance = game.has_chance
    alternating = game.alternating and not has_chance
    order_hint = game.order_moves if overrides(game, "order_moves") else None
    winning_move = game.winning_move if overrides(game, "winning_move") else None
    # forced_moves is only asked once winning_move found no win (its contract).
    forced_moves = (
        game.forced_moves if winning_move is not None and overrides(game, "forced_moves") else None
    )
    noisy_moves = game.quiescence_moves if overrides(game, "quiescence_moves") else None
    extension = game.extension if overrides(game, "extension") else None
    # A pass hands the turn over: only for games where every move does too.
    null_move = game.null_move if overrides(game, "null_move") and alternating_game(game) else None
    quiet_test = quiet_hook(game)
    is_quiet = quiet_test if pvs else None
    # A game that tells quiet moves apart gets its noisy moves ordered first, killers
    # and history from quiet moves only, and the pruning of steps 5a and 8b.
    quiet_rule = quiet_test if alternating_game(game) else None
    # In chance games an expected score mixes wins and losses: no distance term.
    ply_weight = 0 if has_chance else 1
    low_utility, high_utility = game.utility_bounds()
    value_low, value_high = low_utility * WIN, high_utility * WIN
    table_obj = ctx.table if use_table else None
    table = table_obj.entries if table_obj is not None else None
    capacity = table_obj.capacity if table_obj is not None else 0
    killers = ctx.killers
    history = ctx.history
    history_score = history.__getitem__  # C-level sort key (a lambda cost a third more)
    nextafter = math.nextafter
    # Leaves scored inside their parent's loop (step 8a): only where a child at depth
    # 0 is certainly a leaf of the plain kind (no quiescence, no chance, turn passes).
    inline_leaves = noisy_moves is None and alternating

    # Positional arguments: a call with keywords costs ~15% more in this hot helper.
    def child_score(  # noqa: PLR0917
        child: Any, depth: float, alpha: float, beta: float, ply: int, me: int
    ) -> float:
        """Score of ``child`` for player ``me``, whether or not the turn passed."""
        if to_move(child) == me:
            return negamax(child, depth, alpha, beta, ply)
        return -negamax(child, depth, -beta, -alpha, ply)

    def negamax(state: Any, depth: float, alpha: float, beta: float, ply: int) -> float:
        # Step 1. Count the node; look at the clock every CHECK_EVERY nodes.
        ctx.nodes += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()
        # Step 2. Terminal: the utility, shifted so that sooner wins score higher
        # (terminal_score, inlined: this runs once per node).
        outcome = terminal_value(state)
        if outcome is not None:
            ctx.leaves += 1
            if outcome > 0:
                return outcome * WIN - ply * ply_weight
            if outcome < 0:
                return outcome * WIN + ply * ply_weight
            return 0.0
        # Step 2b. The game's extension (a check), within twice the iteration's depth;
        # asked once here, for steps 3 and 5b too.
        extended = extension(state) if extension is not None else 0
        if extended and ply < 2 * ctx.root_depth:
            depth += extended
        # Step 3. Horizon: static evaluation, or quiescence search if the game has it.
        if depth <= 0:
            ctx.leaves += 1
            ctx.horizon_hits += 1
            if noisy_moves is not None:
                return quiesce(state, alpha, beta, ply, extended > 0)
            return evaluate(state, to_move(state))
        # Step 4. Chance node.
        if has_chance and is_chance(state):
            return chance_node(state, depth, alpha, beta, ply)
        # Step 5. Transposition table: cut on an entry of this iteration and depth
        # (on a deep table, on any entry searched at least as deep), else remember
        # its move for ordering.
        alpha_orig = alpha
        tt_move = None
        if table is not None:
            tag = depth + ctx.depth_tag
            key = key_of(state)
            ctx.tt_probes += 1
            entry = table.get(key)
            if entry is not None:
                ctx.tt_hits += 1
                entry_depth, bound, tt_value, tt_move = entry
                value: float = tt_value
                if entry_depth == tag or (deep and deep_enough(entry_depth, depth)):
                    if value >= WIN_THRESHOLD:
                        value -= ply * ply_weight
                    elif value <= -WIN_THRESHOLD:
                        value += ply * ply_weight
                    if (
                        bound == EXACT
                        or (bound == LOWER and value >= beta)
                        or (bound == UPPER and value <= alpha)
                    ):
                        if ply == 0 and bound != UPPER:
                            ctx.root_move = tt_move
                        if entry_depth != tag:  # an earlier search's work: not proven exact here
                            ctx.horizon_hits += 1
                        return value
        # Step 5a. Internal iterative reduction (see IIR_DEPTH).
        if (
            quiet_rule is not None
            and table is not None
            and tt_move is None
            and IIR_DEPTH <= depth < INF
        ):
            depth -= 1
            tag = depth + ctx.depth_tag
        # Step 5b. Reverse futility (see RFP_DEPTH); within FUTILITY_DEPTH of the
        # horizon, quiet moves that cannot lift the evaluation to alpha are pruned.
        pruning = False
        static = 0.0
        evaluated = False  # static holds the evaluation (asked once, for 5b and 5c)
        if (
            quiet_rule is not None
            and ply > 0
            and depth <= RFP_DEPTH
            and nextafter(alpha, INF) >= beta
            and -WIN_THRESHOLD < beta < WIN_THRESHOLD
            and not extended
        ):
            static, evaluated = evaluate(state, to_move(state)), True
            if static - RFP_MARGIN * depth >= beta:
                return static
            pruning = depth <= FUTILITY_DEPTH
        # Step 5c. Null move: off the principal variation (a null window), if even
        # passing keeps the score at beta in a shallower search, the node fails high.
        if (
            null_move is not None
            and depth >= NULL_MIN_DEPTH
            and ply > 0
            and nextafter(alpha, INF) >= beta
            and -WIN_THRESHOLD < beta < WIN_THRESHOLD
        ):
            margin = (static if evaluated else evaluate(state, to_move(state))) - beta
            passed = null_move(state) if margin >= 0 else None
            if passed is not None:
                left_out = (
                    NULL_BASE
                    + depth // NULL_DEPTH_STEP
                    + min(int(margin // NULL_MARGIN), NULL_MARGIN_MAX)
                )
                score = -negamax(passed, max(depth - 1 - left_out, 0), -beta, -alpha, ply + 1)
                if score >= beta:
                    ctx.cutoffs += 1
                    return score if score < WIN_THRESHOLD else beta
        # Step 6. A game-supplied immediate win ends the node at once.
        if winning_move is not None:
            move = winning_move(state)
            if move is not None:
                child = play(state, move)
                if alternating:
                    score = -negamax(child, depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = child_score(child, depth - 1, alpha, beta, ply + 1, to_move(state))
                if ply == 0:
                    ctx.root_move = move
                return score
        # Step 7. Generate and order the moves.
        moves = legal_moves(state)
        if forced_moves is not None and depth >= 2:
            # Only with two plies to see it: the moves left out lose at once, which
            # the search would find anyway, so the value is unchanged.
            forced = forced_moves(state)
            if forced is not None:
                # Empty: every move loses at once; any one of them gives the value.
                moves = forced if forced else moves[:1]
        if order_hint is not None:
            moves = order_hint(state, moves)
        ordered: Iterable[Any] = moves
        if ordering and len(moves) > LONG_MOVE_LIST:
            slots = killers[ply] if ply < len(killers) else ()
            ordered = front_first(moves, (tt_move, *slots))
        elif ordering and len(moves) > 1:
            # Table move first, then the leading noisy moves in the game's order (a
            # game with is_quiet), this ply's killers, then by history; the sort is
            # stable, so the game's order breaks ties. (Inlined: a method call per
            # node cost ~8% of the speed on Connect Four.)
            start = 0
            if quiet_rule is not None:
                while start < len(moves) and not quiet_rule(state, moves[start]):
                    start += 1
            listed = sorted(moves[start:], key=history_score, reverse=True)
            if ply < len(killers):
                first_killer, second_killer = killers[ply]
                if second_killer is not None and second_killer in listed:
                    listed.remove(second_killer)
                    listed.insert(0, second_killer)
                if first_killer is not None and first_killer in listed:
                    listed.remove(first_killer)
                    listed.insert(0, first_killer)
            if start:
                listed[:0] = moves[:start]
            if tt_move is not None and tt_move in listed:
                listed.remove(tt_move)
                listed.insert(0, tt_move)
            ordered = listed
        # Step 8. Search the children; PVS uses a null window after the first move.
        me = 0 if alternating else to_move(state)
        next_depth = depth - 1
        next_ply = ply + 1
        best = -INF
        best_move = None
        cut_index = -1
        if next_depth <= 0 and inline_leaves:
            # Step 8a. The children are leaves: score them here instead of calling
            # negamax for each. Counters are added in batches: at the end of the
            # loop, or when the clock is due in a long loop (a node limit may
            # overshoot by a few leaves). Measured on Connect Four at depth 10:
            # 115k -> 150k nodes/s.
            scored = horizon = 0
            due = ctx.next_check - ctx.nodes  # leaves until the clock is due
            child_player = 1 - to_move(state)  # the turn passes: ask once, not per leaf
            for index, move in enumerate(ordered):
                if scored >= due:  # thousands of moves: count them, look at the clock
                    ctx.nodes += scored
                    ctx.leaves += scored
                    ctx.horizon_hits += horizon
                    scored = horizon = 0
                    ctx.check()
                    due = ctx.next_check - ctx.nodes
                child = play(state, move)
                scored += 1
                outcome = terminal_value(child)
                if outcome is None:
                    horizon += 1
                    score = -evaluate(child, child_player)
                elif outcome > 0:
                    score = next_ply * ply_weight - outcome * WIN
                elif outcome < 0:
                    score = -outcome * WIN - next_ply * ply_weight
                else:
                    score = 0.0
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            cut_index = index
                            break
            ctx.nodes += scored
            ctx.leaves += scored
            ctx.horizon_hits += horizon
            if ctx.nodes >= ctx.next_check:
                ctx.check()
        else:
            for index, move in enumerate(ordered):
                quiet = False
                if index and (pruning or (is_quiet is not None and index >= LMR_FIRST)):
                    quiet = quiet_test(state, move)  # type: ignore[misc]  # either implies it
                if (
                    pruning
                    and quiet
                    and best > -WIN_THRESHOLD
                    and (
                        static + FUTILITY_MARGINS[int(depth)] <= alpha
                        or index >= LATE_MOVE_COUNTS[int(depth)]
                    )
                ):
                    continue  # Step 8b. Futility and late-move pruning of a quiet move.
                child = play(state, move)
                if pvs and index:
                    null_beta = nextafter(alpha, INF)
                    if (
                        is_quiet is not None
                        and index >= LMR_FIRST
                        and depth >= LMR_MIN_DEPTH
                        and alternating
                        and quiet
                    ):
                        # Late-move reduction: a quiet late move is searched shallower
                        # first (the later and deeper, the more), at full depth only if
                        # it beats alpha.
                        cut = LATE_REDUCTIONS[min(depth, 63)][min(index, 63)]  # type: ignore[call-overload]
                        score = -negamax(child, next_depth - cut, -null_beta, -alpha, next_ply)
                        if score > alpha:
                            score = -negamax(child, next_depth, -null_beta, -alpha, next_ply)
                    elif alternating:
                        score = -negamax(child, next_depth, -null_beta, -alpha, next_ply)
                    else:
                        score = child_score(child, next_depth, alpha, null_beta, next_ply, me)
                    if alpha < score < beta:  # it beat the best so far: find its value
                        if alternating:
                            score = -negamax(child, next_depth, -beta, -alpha, next_ply)
                        else:
                            score = child_score(child, next_depth, alpha, beta, next_ply, me)
                elif alternating:
                    score = -negamax(child, next_depth, -beta, -alpha, next_ply)
                else:
                    score = child_score(child, next_depth, alpha, beta, next_ply, me)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if ply == 0 and root_best is not None:  # should the search stop
                            root_best.move = move
                            root_best.score = int(score * ROOT_SCORE_SCALE) / ROOT_SCORE_SCALE
                        if alpha >= beta:
                            cut_index = index
                            break
        if cut_index >= 0:
            ctx.cutoffs += 1
            if cut_index == 0:
                ctx.first_move_cutoffs += 1
            if ordering and (quiet_rule is None or quiet_rule(state, best_move)):
                # The (quiet) move becomes this ply's first killer and gains history; in
                # a game with is_quiet, the quiet moves tried before it lose as much.
                while len(killers) <= ply:
                    killers.append([None, None])
                slots = killers[ply]
                if slots[0] != best_move:
                    slots[1] = slots[0]
                    slots[0] = best_move
                bonus = 1 if depth == INF else int(depth * depth)
                history[best_move] += bonus
                if quiet_rule is not None and len(moves) <= LONG_MOVE_LIST:
                    for move in ordered[:cut_index]:  # type: ignore[index]  # a list here
                        if quiet_rule(state, move):
                            history[move] -= bonus
        # Step 9. Store the result with its bound, win distances relative to the node.
        if table is not None:
            if best <= alpha_orig:
                bound = UPPER
                best_move = tt_move if tt_move is not None else best_move
            elif best >= beta:
                bound = LOWER
            else:
                bound = EXACT
            stored = best
            if stored >= WIN_THRESHOLD:
                stored += ply * ply_weight
            elif stored <= -WIN_THRESHOLD:
                stored -= ply * ply_weight
            table[key] = (tag, bound, stored, best_move)
            if len(table) > capacity:
                table_obj.make_room()  # type: ignore[union-attr]  # table implies table_obj
        if ply == 0:
            ctx.root_move = best_move
        return best

    def quiesce(state: Any, alpha: float, beta: float, ply: int, forcing: bool) -> float:
        """Stand pat on the evaluation, then try the game's noisy moves (fail-soft).

        A ``forcing`` state (the game extends it; chess: in check) does not stand pat:
        the noisy moves (chess: every evasion) alone give the score, the evaluation
        only if there are none."""
        assert noisy_moves is not None
        me = to_move(state)
        best = -INF if forcing else evaluate(state, me)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        for move in noisy_moves(state):
            child = play(state, move)
            if alternating or to_move(child) != me:
                score = -quiescence_node(child, -beta, -alpha, ply + 1)
            else:
                score = quiescence_node(child, alpha, beta, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        ctx.cutoffs += 1
                        break
        return best if best > -INF else evaluate(state, me)

    def quiescence_node(state: Any, alpha: float, beta: float, ply: int) -> float:
        """A node below the horizon: terminal, chance (stand pat) or quiesce."""
        ctx.nodes += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()
        ctx.leaves += 1
        if ply > ctx.seldepth:  # noqa: PLR1730  (cheaper than a max() call per node)
            ctx.seldepth = ply
        outcome = terminal_value(state)
        if outcome is not None:
            return terminal_score(outcome, ply, ply_weight)
        if has_chance and is_chance(state):
            return evaluate(state, to_move(state))
        return quiesce(state, alpha, beta, ply, extension is not None and extension(state) > 0)

    def chance_node(state: Any, depth: float, alpha: float, beta: float, ply: int) -> float:
        """Expected score of a chance node, with Star1/Star2 cut-offs (fail-soft).

        Chance events do not use up depth or plies. Every outcome's score lies in
        ``[lows[i], highs[i]]`` (the utility bounds, tightened by Star2's probes); the
        window handed to outcome ``i`` is what it must reach for the node to leave
        ``(alpha, beta)`` whatever the others turn out to be.
        """
        me = to_move(state)
        outcomes = [(o, p) for o, p in chance_outcomes(state) if p > 0]
        children = [play(state, o) for o, _ in outcomes]
        if chance == "plain":
            total = 0.0
            for (_, p), child in zip(outcomes, children, strict=True):
                total += p * child_score(child, depth, -INF, INF, ply, me)
            return total
        count = len(outcomes)
        lows = [value_low] * count
        highs = [value_high] * count
        if chance == "star2":
            cut = probe(
                children,
                outcomes,
                lows=lows,
                highs=highs,
                depth=depth,
                alpha=alpha,
                beta=beta,
                ply=ply,
                me=me,
            )
            if cut is not None:
                return cut
        rest_low = sum(p * low for (_, p), low in zip(outcomes, lows, strict=True))
        rest_high = sum(p * high for (_, p), high in zip(outcomes, highs, strict=True))
        total = 0.0
        for i, ((_, p), child) in enumerate(zip(outcomes, children, strict=True)):
            rest_low -= p * lows[i]
            rest_high -= p * highs[i]
            # The window outcome i must leave for the node to leave (alpha, beta)
            # whatever the rest turns out to be. The cut tests below compare the sums
            # themselves, not the score with these divided edges: rounding must never
            # make a bound land on the wrong side of the node's window.
            child_alpha = max(lows[i], (alpha - total - rest_high) / p)
            child_beta = min(highs[i], (beta - total - rest_low) / p)
            windowed = child_alpha < child_beta
            if windowed:
                score = child_score(child, depth, child_alpha, child_beta, ply, me)
            else:  # an empty window (rounding, or the bounds met): the exact score
                score = child_score(child, depth, -INF, INF, ply, me)
            if score >= child_beta:
                low_total = total + p * score + rest_low
                if low_total >= beta:  # even the worst rest keeps it above beta
                    ctx.cutoffs += 1
                    return low_total
            if score <= child_alpha:
                high_total = total + p * score + rest_high
                if high_total <= alpha:  # even the best rest cannot lift it above alpha
                    ctx.cutoffs += 1
                    return high_total
            if windowed and not child_alpha < score < child_beta and lows[i] < score < highs[i]:
                # A bound at the window's edge that did not decide (rounding): get the
                # exact score. (At lows[i] or highs[i] a bound is the exact score.)
                score = child_score(child, depth, -INF, INF, ply, me)
            total += p * score
        return total

    def probe(
        children: list[Any],
        outcomes: list[tuple[Any, float]],
        *,
        lows: list[float],
        highs: list[float],
        depth: float,
        alpha: float,
        beta: float,
        ply: int,
        me: int,
    ) -> float | None:
        """Star2's probing phase: try to prove cheaply that the node fails high.

        After outcome ``i``, if ``me`` moves again, the score of any one move is a
        lower bound on the outcome's score. Each such outcome is probed with one move
        (the table's, else the first) in a null window at the least score that still
        allows a cut-off, counting the outcomes not yet probed at their upper bounds.
        The phase stops as soon as a cut-off is no longer possible. Returns the cut
        score, or None (``lows`` then holds the bounds the probes proved).
        """
        proven = 0.0  # sum of p * lower bound over the outcomes probed so far
        optimistic = sum(o[1] * high for o, high in zip(outcomes, highs, strict=True))
        for i, child in enumerate(children):
            p = outcomes[i][1]
            optimistic -= p * highs[i]
            threshold = (beta - proven - optimistic) / p
            if threshold > highs[i]:
                return None  # even a perfect outcome i leaves the node below beta
            if lows[i] < threshold:
                if (
                    to_move(child) != me
                    or terminal_value(child) is not None
                    or (has_chance and is_chance(child))
                ):
                    return None  # no cheap lower bound for this outcome
                moves = legal_moves(child)
                if order_hint is not None:
                    moves = order_hint(child, moves)
                if table is not None:
                    entry = table.get(key_of(child))
                    if entry is not None and entry[3] is not None and entry[3] in moves:
                        moves = [entry[3]]
                grandchild = play(child, moves[0])
                score = child_score(
                    grandchild, depth - 1, nextafter(threshold, -INF), threshold, ply + 1, me
                )
                if score < threshold:
                    return None
                lows[i] = max(lows[i], score)
            proven += p * lows[i]
        if proven >= beta:
            ctx.cutoffs += 1
            return proven
        return None

    return negamax
