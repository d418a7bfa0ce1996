"""The compiled search over any native game (see :mod:`plies.engine.native._protocol`).

:func:`negamax` is :func:`plies.engine._negamax.make_negamax`'s node for alternating
games without chance, step for step (the same step numbers): the same table cut-offs,
killer moves, history ordering, PVS null windows, leaf loop and quiescence search (the
game's ``quiescence_moves`` at the horizon; nodes below it have negative depths), so on
the same table contents it visits the same nodes. :func:`exact` is the solver's node:
fail-soft PVS to the end of every line, with the game's win-in-one and forced-move
hooks, the score bounds and a table of bounds. Scores are the engine's (float64; see
:mod:`plies.engine._scores`), from the side to move's view.

The arrays every function shares (made by :mod:`plies.engine.native._generic`):

* ``states`` (plies + 2 rows) and ``moves`` (plies + 1 rows): the state and the move
  list of the node at each ply, so no node allocates;
* ``history`` (by move id) and ``killers`` (two per ply, -1 for none);
* ``table``: ``(keys, tags, values, moves, bounds)``, buckets of :data:`WAYS` slots
  (the mixed key modulo the buckets picks one); ``bounds`` 0 marks an empty slot; a store
  takes the key's slot, an empty one, or the oldest iteration's. ``bounds`` has an
  item per slot; the other four are views of one block, a bucket's eight keys, tags,
  values and moves side by side (:func:`entry`), so that a store touches one page of
  it, not one page in each of four arrays: on a fresh table, the page faults of
  Othello's depth-10 search (51,385 nodes) cost as much as the search itself;
* ``control`` (int64): the counters and switches at the indices below; the kernel
  stops when ``nodes`` reaches the node limit (stop = 2) or another thread sets stop,
  then every node returns at once and stores nothing.

The entries take these arrays; inside, the nodes pass raw pointers to their data
(:class:`Buffers`, made once per call by :func:`buffers`). Numba passes an array as
a struct of seven or nine words with a reference count to raise and drop, and a node
passing a dozen arrays to its children spent more time in that than in the game:
pointers made the search of m,n,k and Nim 2-4x faster per node.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit

from plies.engine.native._control import (
    BEST,
    CUTOFFS,
    DEEP_TABLE,
    DEPTH_TAG,
    FIRST_CUTOFFS,
    HAS_EXTENSION,
    HAS_FORCED,
    HAS_NULL,
    HAS_ORDER,
    HAS_QUIESCENCE,
    HAS_QUIET,
    HAS_WIN,
    HITS,
    HORIZON,
    LEAVES,
    MOVER_WINS,
    NODE_LIMIT,
    NODES,
    ORDERING,
    PROBES,
    PVS,
    ROOT_BEST,
    ROOT_DEPTH,
    ROOT_MOVE,
    ROOT_SCORE,
    ROOT_SCORE_SCALE,
    SELDEPTH,
    STOP,
    USE_TABLE,
    WORST,
)
from plies.engine.native._pointers import call, offset, ptr

__all__ = ["best_moves", "exact", "line", "negamax", "principal_variation", "reaches"]

# control's indices are _control's (imported above under their names).

#: Table bounds (0: an empty slot).
EXACT, LOWER, UPPER = 1, 2, 3
#: The remaining depth's bits of an entry's tag (above: the search and its iteration).
DEPTH_BITS = (1 << 32) - 1
#: The tag of the exact solver's entries (no search iteration has it).
SOLVE_TAG = np.int64(-1)

WIN = 1e9
WIN_THRESHOLD = WIN / 1000.0
#: Slots per bucket of the table (64 bytes of keys, one cache line): an entry is lost
#: only when its bucket is full, so a search that fills a small part of the table
#: keeps everything, as the Python engine's dict does.
WAYS = 8
#: The fields of an entry kept in the table's block: key, tag, value, move.
FIELDS = 4
#: Longest move list sorted by history (as :data:`plies.engine._negamax.LONG_MOVE_LIST`).
LONG_MOVE_LIST = 1024
#: Null-move pruning and late-move reductions, as in :mod:`plies.engine._negamax`.
NULL_MIN_DEPTH = 3
NULL_BASE = 2
NULL_DEPTH_STEP = 3
NULL_MARGIN = 200.0
NULL_MARGIN_MAX = 3
LMR_FIRST = 3
LMR_MIN_DEPTH = 3
#: Reverse futility, futility and late-move pruning, as in :mod:`plies.engine._negamax`.
RFP_DEPTH = 5
RFP_MARGIN = 100.0
FUTILITY_DEPTH = 3
FUTILITY_MARGINS = np.array([0.0, 200.0, 300.0, 500.0])
LATE_MOVE_COUNTS = np.array([0, 6, 12, 22], np.int64)
#: Internal iterative reduction, as in :mod:`plies.engine._negamax`.
IIR_DEPTH = 4


def _late_reductions() -> Any:
    """The plies a late move's first search leaves out, by remaining depth and move
    index (each up to 63): ``engine._negamax.LATE_REDUCTIONS``, the same formula."""
    table = np.ones((64, 64), np.int64)
    for depth in range(1, 64):
        for index in range(1, 64):
            table[depth, index] = max(1, int(0.5 + math.log(depth) * math.log(index) / 2.0))
    return table


LMR_TABLE = _late_reductions()


#: Pointers to the arrays' data and the sizes that index them (see the module
#: docstring): ``states`` and ``moves`` are rows of ``state_size`` and ``move_size``
#: int64s, ``killers`` two int64s per ply, the table has ``slots`` slots (its block's
#: four views start at their field's place in the first bucket: see :func:`entry`);
#: ``rows`` is the number of state rows (a node at ply ``rows - 2`` has no room for
#: children).
Buffers = namedtuple(
    "Buffers",
    "states state_size moves move_size history killers control "
    "keys tags values table_moves bounds slots rows",
)


@njit(cache=True, nogil=True)
def buffers(states: Any, moves: Any, history: Any, killers: Any, table: Any, control: Any) -> Any:
    """The :class:`Buffers` of the arrays (C-contiguous, kept alive by the caller)."""
    keys, tags, values, table_moves, bounds = table
    return Buffers(
        ptr(states), states.shape[1], ptr(moves), moves.shape[1], ptr(history),
        ptr(killers), ptr(control), ptr(keys), ptr(tags), ptr(values), ptr(table_moves),
        ptr(bounds), bounds.size, states.shape[0],
    )  # fmt: skip


@njit(cache=True, nogil=True)
def state_at(b: Any, ply: int) -> Any:
    """The state row of ``ply``."""
    return offset(b.states, ply * b.state_size)


@njit(cache=True, nogil=True)
def moves_at(b: Any, ply: int) -> Any:
    """The move row of ``ply``."""
    return offset(b.moves, ply * b.move_size)


@njit(cache=True, nogil=True)
def terminal_score(outcome: float, ply: int) -> float:
    """The engine score of a terminal state ``ply`` plies from the root."""
    if outcome > 0:
        return outcome * WIN - ply
    if outcome < 0:
        return outcome * WIN + ply
    return 0.0


@njit(cache=True, nogil=True)
def to_front(moves: Any, start: int, count: int, move: int) -> bool:
    """Move ``move`` (if among ``moves[start:count]``) to ``start``, the others keeping
    their order; whether it was there."""
    for i in range(start, count):
        if moves[i] == move:
            while i > start:
                moves[i] = moves[i - 1]
                i -= 1
            moves[start] = move
            return True
    return False


@njit(cache=True, nogil=True)
def order(
    moves: Any, count: int, tt_move: int, ply: int, history: Any, killers: Any, start: int
) -> None:
    """The engine's order: table move, the first ``start`` moves in the game's order
    (a game with ``is_quiet``: its leading noisy moves), first killer, second killer,
    then by history (stable, so the game's order breaks ties); past LONG_MOVE_LIST
    moves no sort, the table move and killers first (as ``front_first``)."""
    first, second = killers[2 * ply], killers[2 * ply + 1]
    if count > LONG_MOVE_LIST:
        front = 0
        for move in (tt_move, first, second):
            if move >= 0 and to_front(moves, front, count, move):
                front += 1
        return
    for i in range(start + 1, count):  # insertion sort, descending history, stable
        move = moves[i]
        score = history[move]
        k = i
        while k > start and history[moves[k - 1]] < score:
            moves[k] = moves[k - 1]
            k -= 1
        moves[k] = move
    for move in (second, first):
        if move >= 0:
            to_front(moves, start, count, move)
    if tt_move >= 0:
        to_front(moves, 0, count, tt_move)


@njit(cache=True, nogil=True)
def noisy_front(rules: Any, consts: Any, state: Any, moves: Any, count: int) -> int:
    """How many of the first moves are not quiet (the game's ``is_quiet``): the
    captures and promotions its order puts first (every move, in check)."""
    front = 0
    while front < count and is_quiet(rules, consts, state, moves[front]) == 0:
        front += 1
    return front


@njit(cache=True, nogil=True)
def bucket(key: Any, slots: int) -> int:
    """The first slot of ``key``'s bucket. Keys are mixed first (splitmix64's
    finaliser): game keys are structured (bitboards), and ``x | o << 16`` modulo
    an even bucket count piled thousands of tic-tac-toe keys into a few buckets."""
    h = key ^ (key >> np.uint64(30))
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return np.int64(h % np.uint64(slots // WAYS)) * WAYS


@njit(cache=True, nogil=True, inline="always")
def entry(slot: int) -> int:
    """Where ``slot``'s key, tag, value and move sit in the table's block (see
    :data:`FIELDS`): its bucket's part, then its way."""
    return (slot // WAYS) * (FIELDS * WAYS) + slot % WAYS


@njit(cache=True, nogil=True)
def probe(key: Any, b: Any) -> int:
    """The slot holding ``key`` in its bucket of :data:`WAYS` slots, or -1."""
    keys, bounds = b.keys, b.bounds
    start = bucket(key, b.slots)
    for slot in range(start, start + WAYS):
        if bounds[slot] != 0 and keys[entry(slot)] == key:
            return slot
    return -1


@njit(cache=True, nogil=True)
def store(key: Any, tag: int, bound: int, value: float, move: int, b: Any) -> None:
    """Write an entry in its bucket: over the key's old entry, else in an empty slot,
    else over the entry of the oldest iteration (the least tag) there."""
    keys, tags, bounds = b.keys, b.tags, b.bounds
    start = bucket(key, b.slots)
    slot = start
    for i in range(start, start + WAYS):
        if bounds[i] == 0 or keys[entry(i)] == key:
            slot = i
            break
        if tags[entry(i)] < tags[entry(slot)]:
            slot = i
    at = entry(slot)
    keys[at] = key
    tags[at] = tag
    b.values[at] = value
    b.table_moves[at] = move
    bounds[slot] = bound


@njit(cache=True, nogil=True)
def legal_moves(rules: Any, consts: Any, state: Any, out: Any) -> int:
    """The game's ``legal_moves`` rule (see :mod:`plies.engine.native._protocol`)."""
    return call("legal_moves", rules[0], (consts, state, out))


@njit(cache=True, nogil=True)
def play(rules: Any, consts: Any, state: Any, move: int, child: Any) -> None:
    """The game's ``play`` rule."""
    call("play", rules[1], (consts, state, move, child))


@njit(cache=True, nogil=True)
def terminal_value(rules: Any, consts: Any, state: Any) -> float:
    """The game's ``terminal_value`` rule."""
    return call("terminal_value", rules[2], (consts, state))


@njit(cache=True, nogil=True)
def evaluate(rules: Any, consts: Any, state: Any) -> float:
    """The game's ``evaluate`` rule."""
    return call("evaluate", rules[3], (consts, state))


@njit(cache=True, nogil=True)
def key_of(rules: Any, consts: Any, state: Any) -> Any:
    """The game's ``key`` rule."""
    return call("key", rules[4], (consts, state))


@njit(cache=True, nogil=True)
def order_hint(rules: Any, consts: Any, state: Any, moves: Any, count: int) -> None:
    """The game's ``order_moves`` rule."""
    call("order_moves", rules[5], (consts, state, moves, count))


@njit(cache=True, nogil=True)
def winning(rules: Any, consts: Any, state: Any) -> int:
    """The game's ``winning_move`` rule."""
    return call("winning_move", rules[6], (consts, state))


@njit(cache=True, nogil=True)
def forced(rules: Any, consts: Any, state: Any, moves: Any, count: int) -> int:
    """The game's ``forced_moves`` rule."""
    return call("forced_moves", rules[7], (consts, state, moves, count))


@njit(cache=True, nogil=True)
def noisy(rules: Any, consts: Any, state: Any, out: Any) -> int:
    """The game's ``quiescence_moves`` rule."""
    return call("quiescence_moves", rules[8], (consts, state, out))


@njit(cache=True, nogil=True)
def null_move(rules: Any, consts: Any, state: Any, child: Any) -> int:
    """The game's ``null_move`` rule."""
    return call("null_move", rules[9], (consts, state, child))


@njit(cache=True, nogil=True)
def extension(rules: Any, consts: Any, state: Any) -> int:
    """The game's ``extension`` rule."""
    return call("extension", rules[10], (consts, state))


@njit(cache=True, nogil=True)
def is_quiet(rules: Any, consts: Any, state: Any, move: int) -> int:
    """The game's ``is_quiet`` rule."""
    return call("is_quiet", rules[11], (consts, state, move))


@njit(cache=True, nogil=True)
def node(rules: Any, consts: Any, ply: int, depth: int, alpha: float, beta: float, b: Any) -> float:
    """The search node: the score of the state at ``ply`` searched ``depth`` plies
    deep, fail-soft in ``(alpha, beta)`` (see the Python engine's ``negamax``)."""
    control = b.control
    state = state_at(b, ply)
    # Step 1. Count the node; stop at the node limit or when told to.
    control[NODES] += 1
    if control[NODES] >= control[NODE_LIMIT]:
        control[STOP] = 2
        return 0.0
    # A node below the horizon (the engine's quiescence_node; depth < 0, only the
    # quiescence search makes them) is a leaf, terminal or not.
    below = depth < 0
    if below:
        control[LEAVES] += 1
        control[SELDEPTH] = max(control[SELDEPTH], ply)
    # Step 2. Terminal.
    outcome = terminal_value(rules, consts, state)
    if not np.isnan(outcome):
        if not below:
            control[LEAVES] += 1
        return terminal_score(outcome, ply)
    # Step 2a. No row left for a child (a line longer than the port's buffers allow,
    # extensions or quiescence past what it sized them for): the static evaluation,
    # never a write past the buffers.
    if ply + 2 >= b.rows:
        if not below:
            control[LEAVES] += 1
            control[HORIZON] += 1
        return evaluate(rules, consts, state)
    # Step 2b. The game's extension (a check), within twice the iteration's depth;
    # asked once here, for steps 3b and 5b too.
    extended = 0
    if control[HAS_EXTENSION] != 0:
        extended = extension(rules, consts, state)
        if not below and ply < 2 * control[ROOT_DEPTH]:
            depth += extended
    # Step 3. Horizon: static evaluation, or quiescence search if the game has it.
    if depth <= 0:
        if not below:
            control[LEAVES] += 1
            control[HORIZON] += 1
        if control[HAS_QUIESCENCE] == 0:
            return evaluate(rules, consts, state)
        # Step 3b. Quiescence (the engine's quiesce): stand pat on the evaluation,
        # then the game's noisy moves, fail-soft. The children get depth - 1 (< 0).
        # (Measured: a module constant as their depth, or this loop in a recursive
        # function of its own, compiled and ran, then segfaulted once loaded from
        # Numba's disk cache.)
        # Where the game extends the state (chess: in check), no standing pat: the
        # noisy moves (every evasion) alone, the evaluation only if there are none.
        best = -np.inf if extended > 0 else evaluate(rules, consts, state)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        row, child = moves_at(b, ply), state_at(b, ply + 1)
        count = noisy(rules, consts, state, row)
        for index in range(count):
            play(rules, consts, state, row[index], child)
            score = -node(rules, consts, ply + 1, depth - 1, -beta, -alpha, b)
            if control[STOP] != 0:
                return 0.0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        control[CUTOFFS] += 1
                        break
        return best if best > -np.inf else evaluate(rules, consts, state)
    # Step 5. Transposition table.
    alpha_orig = alpha
    tt_move = -1
    key = np.uint64(0)
    tag = depth + control[DEPTH_TAG]
    use_table = control[USE_TABLE] != 0
    if use_table:
        key = key_of(rules, consts, state)
        control[PROBES] += 1
        slot = probe(key, b)
        if slot >= 0:
            control[HITS] += 1
            tt_move = b.table_moves[entry(slot)]
            entry_tag = b.tags[entry(slot)]
            if entry_tag == tag or (
                control[DEEP_TABLE] != 0 and entry_tag >= 0 and (entry_tag & DEPTH_BITS) >= depth
            ):
                value = b.values[entry(slot)]
                if value >= WIN_THRESHOLD:
                    value -= ply
                elif value <= -WIN_THRESHOLD:
                    value += ply
                bound = b.bounds[slot]
                if (
                    bound == EXACT
                    or (bound == LOWER and value >= beta)
                    or (bound == UPPER and value <= alpha)
                ):
                    if ply == 0 and bound != UPPER:
                        control[ROOT_MOVE] = tt_move
                    if entry_tag != tag:  # an earlier search's work: not proven exact here
                        control[HORIZON] += 1
                    return value
    # Step 5a. Internal iterative reduction (a game with is_quiet): no table move to try
    # first, a ply shallower (stored at that depth).
    if control[HAS_QUIET] != 0 and use_table and tt_move < 0 and depth >= IIR_DEPTH:
        depth -= 1
        tag = depth + control[DEPTH_TAG]
    # Step 5b. Reverse futility (a game with is_quiet, off the principal variation, not
    # in check, a few plies from the horizon): a static evaluation above beta by a
    # margin a ply fails high; within FUTILITY_DEPTH of the horizon, quiet moves that
    # cannot lift the evaluation to alpha are pruned (step 8).
    pruning = False
    static = 0.0
    evaluated = False  # static holds the evaluation (asked once, for 5b and 5c)
    if (
        control[HAS_QUIET] != 0
        and ply > 0
        and depth <= RFP_DEPTH
        and np.nextafter(alpha, np.inf) >= beta
        and -WIN_THRESHOLD < beta < WIN_THRESHOLD
        and extended == 0
    ):
        static = evaluate(rules, consts, state)
        evaluated = True
        if static - RFP_MARGIN * depth >= beta:
            return static
        pruning = depth <= FUTILITY_DEPTH
    child = state_at(b, ply + 1)
    # Step 5c. Null move: off the principal variation (a null window), if even
    # passing keeps the score at beta in a shallower search, the node fails high.
    if (
        control[HAS_NULL] != 0
        and depth >= NULL_MIN_DEPTH
        and ply > 0
        and np.nextafter(alpha, np.inf) >= beta
        and -WIN_THRESHOLD < beta < WIN_THRESHOLD
    ):
        if not evaluated:
            static = evaluate(rules, consts, state)
        margin = static - beta
        if margin >= 0 and null_move(rules, consts, state, child) != 0:
            left_out = (
                NULL_BASE
                + depth // NULL_DEPTH_STEP
                + min(int(margin // NULL_MARGIN), NULL_MARGIN_MAX)
            )
            reduced = max(depth - 1 - left_out, 0)  # the horizon, not a quiescence node
            score = -node(rules, consts, ply + 1, reduced, -beta, -alpha, b)
            if control[STOP] != 0:
                return 0.0
            if score >= beta:
                control[CUTOFFS] += 1
                return score if score < WIN_THRESHOLD else beta
    # Step 6. A win in one ends the node.
    if control[HAS_WIN] != 0:
        move = winning(rules, consts, state)
        if move >= 0:
            play(rules, consts, state, move, child)
            score = -node(rules, consts, ply + 1, depth - 1, -beta, -alpha, b)
            if ply == 0:
                control[ROOT_MOVE] = move
            return score
    # Step 7. Generate and order the moves.
    row = moves_at(b, ply)
    count = legal_moves(rules, consts, state, row)
    if control[HAS_FORCED] != 0 and depth >= 2:
        first = row[0]
        kept = forced(rules, consts, state, row, count)
        if kept == 0:  # every move loses at once: any one gives the value
            row[0] = first
            count = 1
        elif kept > 0:
            count = kept
    if control[HAS_ORDER] != 0:
        order_hint(rules, consts, state, row, count)
    ordering = control[ORDERING] != 0
    quiet_rule = control[HAS_QUIET] != 0
    if ordering and count > 1:
        start = noisy_front(rules, consts, state, row, count) if quiet_rule else 0
        order(row, count, tt_move, ply, b.history, b.killers, start)
    # Step 8. The children; PVS null windows after the first.
    best = -np.inf
    best_move = -1
    cut_index = -1
    if depth - 1 <= 0 and control[HAS_QUIESCENCE] == 0:
        # Step 8a. The children are leaves: scored here, as the engine does.
        for index in range(count):
            move = row[index]
            play(rules, consts, state, move, child)
            control[NODES] += 1
            control[LEAVES] += 1
            outcome = terminal_value(rules, consts, child)
            if np.isnan(outcome):
                control[HORIZON] += 1
                score = -evaluate(rules, consts, child)
            else:
                score = -terminal_score(outcome, ply + 1)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        cut_index = index
                        break
        if control[NODES] >= control[NODE_LIMIT]:
            control[STOP] = 2
            return 0.0
    else:
        pvs = control[PVS] != 0
        reduce = pvs and control[HAS_QUIET] != 0 and depth >= LMR_MIN_DEPTH
        for index in range(count):
            move = row[index]
            quiet = False
            if index > 0 and (pruning or (reduce and index >= LMR_FIRST)):
                quiet = is_quiet(rules, consts, state, move) != 0
            if (
                pruning
                and quiet
                and best > -WIN_THRESHOLD
                and (static + FUTILITY_MARGINS[depth] <= alpha or index >= LATE_MOVE_COUNTS[depth])
            ):
                continue  # Step 8b. Futility and late-move pruning of a quiet move.
            play(rules, consts, state, move, child)
            if pvs and index > 0:
                null_beta = np.nextafter(alpha, np.inf)
                if reduce and index >= LMR_FIRST and quiet:
                    # Late-move reduction: a quiet late move is searched shallower
                    # first (the later and deeper, the more), at full depth only if it
                    # beats alpha.
                    cut = LMR_TABLE[min(depth, 63), min(index, 63)]
                    score = -node(rules, consts, ply + 1, depth - 1 - cut, -null_beta, -alpha, b)
                    if score > alpha and control[STOP] == 0:
                        score = -node(rules, consts, ply + 1, depth - 1, -null_beta, -alpha, b)
                else:
                    score = -node(rules, consts, ply + 1, depth - 1, -null_beta, -alpha, b)
                if alpha < score < beta and control[STOP] == 0:
                    score = -node(rules, consts, ply + 1, depth - 1, -beta, -alpha, b)
            else:
                score = -node(rules, consts, ply + 1, depth - 1, -beta, -alpha, b)
            if control[STOP] != 0:
                return 0.0
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if ply == 0:  # the best root move so far, should the search stop
                        control[ROOT_BEST] = move
                        control[ROOT_SCORE] = np.int64(score * ROOT_SCORE_SCALE)
                    if alpha >= beta:
                        cut_index = index
                        break
    if cut_index >= 0:
        control[CUTOFFS] += 1
        if cut_index == 0:
            control[FIRST_CUTOFFS] += 1
        if ordering and (not quiet_rule or is_quiet(rules, consts, state, best_move) != 0):
            # The (quiet) move becomes this ply's first killer and gains history; in a
            # game with is_quiet, the quiet moves tried before it lose as much.
            killers = b.killers
            if killers[2 * ply] != best_move:
                killers[2 * ply + 1] = killers[2 * ply]
                killers[2 * ply] = best_move
            bonus = depth * depth
            b.history[best_move] += bonus
            if quiet_rule and count <= LONG_MOVE_LIST:
                for index in range(cut_index):
                    if is_quiet(rules, consts, state, row[index]) != 0:
                        b.history[row[index]] -= bonus
    # Step 9. Store the result with its bound, win distances relative to the node.
    if use_table:
        if best <= alpha_orig:
            bound = UPPER
            if tt_move >= 0:
                best_move = tt_move
        elif best >= beta:
            bound = LOWER
        else:
            bound = EXACT
        stored = best
        if stored >= WIN_THRESHOLD:
            stored += ply
        elif stored <= -WIN_THRESHOLD:
            stored -= ply
        store(key, tag, bound, stored, best_move, b)
    if ply == 0:
        control[ROOT_MOVE] = best_move
    return best


@njit(cache=True, nogil=True)
def negamax(
    rules: Any,
    consts: Any,
    ply: int,
    depth: int,
    alpha: float,
    beta: float,
    states: Any,
    moves: Any,
    history: Any,
    killers: Any,
    table: Any,
    control: Any,
) -> float:
    """The score of ``states[ply]`` searched ``depth`` plies deep, fail-soft in
    ``(alpha, beta)``: the entry of :func:`node`."""
    b = buffers(states, moves, history, killers, table, control)
    return node(rules, ptr(consts), ply, depth, alpha, beta, b)


@njit(cache=True, nogil=True)
def principal_variation(
    rules: Any,
    consts: Any,
    best_move: int,
    depth: int,
    states: Any,
    moves: Any,
    table: Any,
    line: Any,
) -> int:
    """``best_move``, then the table's moves while they are legal and new (the
    engine's ``_pv``), from ``states[0]`` into ``line``; returns the length."""
    b = buffers(states, moves, line, line, table, line)  # only states, moves, table
    c = ptr(consts)
    line[0] = best_move
    length = 1
    seen = np.zeros(depth + 1, np.uint64)
    seen[0] = key_of(rules, c, state_at(b, 0))
    play(rules, c, state_at(b, 0), best_move, state_at(b, 1))
    while length < depth:
        state = state_at(b, length)
        if not np.isnan(terminal_value(rules, c, state)):
            break
        key = key_of(rules, c, state)
        slot = probe(key, b)
        if slot < 0 or b.table_moves[entry(slot)] < 0:
            break
        repeated = False
        for i in range(length):
            if seen[i] == key:
                repeated = True
        if repeated:
            break
        seen[length] = key
        move = b.table_moves[entry(slot)]
        row = moves_at(b, length)
        count = legal_moves(rules, c, state, row)
        legal = False
        for i in range(count):
            if row[i] == move:
                legal = True
        if not legal:
            break
        line[length] = move
        play(rules, c, state, move, state_at(b, length + 1))
        length += 1
    return length


@njit(cache=True, nogil=True)
def exact_node(rules: Any, consts: Any, ply: int, alpha: float, beta: float, b: Any) -> float:
    """The exact score of the state at ``ply``, fail-soft in ``(alpha, beta)``: PVS to
    the end of every line, the table's move first, then the game's order. As in the
    Python solver (``plies.engine._exact``), the soonest win and loss the node can
    still have bound its value before any move is searched (the *score bounds*)."""
    control = b.control
    alpha_in, beta_in = alpha, beta
    state = state_at(b, ply)
    control[NODES] += 1
    if control[NODES] >= control[NODE_LIMIT]:
        control[STOP] = 2
        return 0.0
    outcome = terminal_value(rules, consts, state)
    if not np.isnan(outcome):
        control[LEAVES] += 1
        return terminal_score(outcome, ply)
    child = state_at(b, ply + 1)
    if control[HAS_WIN] != 0:
        move = winning(rules, consts, state)
        if move >= 0:
            play(rules, consts, state, move, child)
            return -exact_node(rules, consts, ply + 1, -beta, -alpha, b)
    key = key_of(rules, consts, state)
    control[PROBES] += 1
    slot = probe(key, b)
    tt_move = -1
    if slot >= 0:
        control[HITS] += 1
        tt_move = b.table_moves[entry(slot)]
        if b.tags[entry(slot)] == SOLVE_TAG:
            value = b.values[entry(slot)]
            if value >= WIN_THRESHOLD:
                value -= ply
            elif value <= -WIN_THRESHOLD:
                value += ply
            bound = b.bounds[slot]
            if bound == EXACT:
                return value
            if bound == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
    # The soonest win: not in one ply when the game's winning hook said none, and not
    # on the opponent's move when only the last mover wins.
    has_win = control[HAS_WIN] != 0
    mover_wins = control[MOVER_WINS] != 0
    high = float(control[BEST] - ply - (1 if not has_win else 3 if mover_wins else 2))
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    row = moves_at(b, ply)
    count = legal_moves(rules, consts, state, row)
    # The soonest loss: not on our own move when only the last mover wins, nor on the
    # opponent's next one when only moves that do not lose at once are searched.
    loss_gap = 2 if mover_wins else 1
    if control[HAS_FORCED] != 0:
        first = row[0]
        kept = forced(rules, consts, state, row, count)
        if kept == 0:  # every move loses at once: search one
            row[0] = first
            count = 1
        elif kept > 0:
            count = kept
            if has_win and mover_wins:
                loss_gap = 4
    low = float(control[WORST] + ply + loss_gap)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    if control[HAS_ORDER] != 0:
        order_hint(rules, consts, state, row, count)
    if tt_move >= 0:
        to_front(row, 0, count, tt_move)
    best = -np.inf
    best_move = -1
    for index in range(count):
        move = row[index]
        play(rules, consts, state, move, child)
        if index > 0:  # a null window: does it beat the best so far?
            score = -exact_node(rules, consts, ply + 1, -(alpha + 1.0), -alpha, b)
            if alpha < score < beta and control[STOP] == 0:
                score = -exact_node(rules, consts, ply + 1, -beta, -alpha, b)
        else:
            score = -exact_node(rules, consts, ply + 1, -beta, -alpha, b)
        if control[STOP] != 0:
            return 0.0
        if score > best:
            best = score
            best_move = move
            if score >= beta:
                control[CUTOFFS] += 1
                break
            alpha = max(alpha, score)
    # The kind is judged against the window the node was given: a score at a bound the
    # node proved itself (the table's, the soonest win or loss) is exact.
    if best <= alpha_in:
        bound = UPPER
    elif best >= beta_in:
        bound = LOWER
    else:
        bound = EXACT
    stored = best
    if stored >= WIN_THRESHOLD:
        stored += ply
    elif stored <= -WIN_THRESHOLD:
        stored -= ply
    store(key, SOLVE_TAG, bound, stored, best_move, b)
    return best


@njit(cache=True, nogil=True)
def exact(
    rules: Any,
    consts: Any,
    ply: int,
    alpha: float,
    beta: float,
    states: Any,
    moves: Any,
    table: Any,
    control: Any,
) -> float:
    """The exact score of ``states[ply]``, fail-soft in ``(alpha, beta)``: the entry
    of :func:`exact_node`."""
    b = buffers(states, moves, control, control, table, control)  # no history, killers
    return exact_node(rules, ptr(consts), ply, alpha, beta, b)


@njit(cache=True, nogil=True)
def reaches(rules: Any, consts: Any, ply: int, move: int, target: float, b: Any) -> bool:
    """Whether ``move`` from the state at ``ply`` scores at least ``target`` (relative
    to the root, ``ply`` plies above): one null-window search of the child."""
    play(rules, consts, state_at(b, ply), move, state_at(b, ply + 1))
    score = -exact_node(rules, consts, ply + 1, -target, -target + 1.0, b)
    return score >= target


@njit(cache=True, nogil=True)
def moves_reaching(
    rules: Any, consts: Any, ply: int, target: float, first_only: bool, found: Any, b: Any
) -> int:
    """The moves of the state at ``ply`` scoring at least ``target``, in the game's
    order (its ordering hook applied), into ``found``; returns how many."""
    state, row = state_at(b, ply), moves_at(b, ply)
    count = legal_moves(rules, consts, state, row)
    if b.control[HAS_ORDER] != 0:
        order_hint(rules, consts, state, row, count)
    total = 0
    for i in range(count):
        move = row[i]
        if reaches(rules, consts, ply, move, target, b):
            found[total] = move
            total += 1
            if first_only:
                break
        if b.control[STOP] != 0:
            return 0
    return total


@njit(cache=True, nogil=True)
def best_moves(
    rules: Any,
    consts: Any,
    ply: int,
    target: float,
    first_only: bool,
    found: Any,
    states: Any,
    moves: Any,
    table: Any,
    control: Any,
) -> int:
    """The moves of ``states[ply]`` scoring at least ``target``, in the game's order
    (its ordering hook applied), into ``found``; returns how many."""
    b = buffers(states, moves, control, control, table, control)  # no history, killers
    return moves_reaching(rules, ptr(consts), ply, target, first_only, found, b)


@njit(cache=True, nogil=True)
def line(
    rules: Any,
    consts: Any,
    value: float,
    out: Any,
    states: Any,
    moves: Any,
    table: Any,
    control: Any,
) -> int:
    """An optimal line from ``states[0]`` (of exact ``value``) to the end of the game:
    at each step the first move in the game's order keeping the value (the Python
    solver's ``line``); returns its length (0 also when stopped)."""
    b = buffers(states, moves, control, control, table, control)  # no history, killers
    c = ptr(consts)
    found = np.zeros(1, np.int64)
    length = 0
    while np.isnan(terminal_value(rules, c, state_at(b, length))) and length < out.size:
        if moves_reaching(rules, c, length, value, True, found, b) == 0:
            return 0
        out[length] = found[0]
        play(rules, c, state_at(b, length), found[0], state_at(b, length + 1))
        length += 1
        value = -value
    return length


@njit(cache=True, nogil=True)
def describe(rules: Any, consts: Any, state: Any, moves: Any, kept: Any, numbers: Any) -> Any:
    """What the rules say of ``state``, for the conformance suite: its moves into
    ``moves``, the non-losing ones into ``kept``, and in ``numbers`` the move count,
    terminal value, evaluation, winning move and forced-move count; returns the key."""
    c, s = ptr(consts), ptr(state)
    count = legal_moves(rules, c, s, ptr(moves))
    numbers[0] = count
    numbers[1] = terminal_value(rules, c, s)
    numbers[2] = evaluate(rules, c, s)
    numbers[3] = winning(rules, c, s)
    kept[:count] = moves[:count]
    numbers[4] = forced(rules, c, s, ptr(kept), count)
    return key_of(rules, c, s)


@njit(cache=True, nogil=True)
def play_move(rules: Any, consts: Any, state: Any, move: int, child: Any) -> None:
    """The rules' ``play``, callable from Python (for the conformance suite)."""
    play(rules, ptr(consts), ptr(state), move, ptr(child))
