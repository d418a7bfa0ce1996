"""The compiled search over any native game (see :mod:`plies.engine.native._protocol`).

:func:`negamax` is :func:`plies.engine._negamax.make_negamax`'s node for alternating
games without chance, step for step (the same step numbers): the same table cut-offs,
killer moves, history ordering, PVS null windows, leaf loop and quiescence search (the
game's ``quiescence_moves`` at the horizon; nodes below it have negative depths), so on
the same table contents it visits the same nodes. :func:`exact` is the solver's node:
fail-soft PVS to the end of every line, with the game's win-in-one and forced-move
hooks and a table of bounds. Scores are the engine's (float64; see
:mod:`plies.engine._scores`), from the side to move's view.

The arrays every function shares (made by :mod:`plies.engine.native._games`):

* ``states`` (plies + 2 rows) and ``moves`` (plies + 1 rows): the state and the move
  list of the node at each ply, so no node allocates;
* ``history`` (by move id) and ``killers`` (two per ply, -1 for none);
* ``table``: ``(keys, tags, values, moves, bounds)``, buckets of :data:`WAYS` slots
  (the mixed key modulo the buckets picks one); ``bounds`` 0 marks an empty slot; a store
  takes the key's slot, an empty one, or the oldest iteration's;
* ``control`` (int64): the counters and switches at the indices below; the kernel
  stops when ``nodes`` reaches the node limit (stop = 2) or another thread sets stop,
  then every node returns at once and stores nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["best_moves", "exact", "line", "negamax", "principal_variation", "reaches"]

# control: NODES, NODE_LIMIT and STOP as in the table module, then this kernel's.
NODES, NODE_LIMIT, STOP = 0, 1, 2
LEAVES, CUTOFFS, FIRST_CUTOFFS, PROBES, HITS, HORIZON = 3, 4, 5, 6, 7, 8
ROOT_MOVE, DEPTH_TAG, PVS, USE_TABLE, ORDERING = 9, 10, 11, 12, 13
HAS_ORDER, HAS_WIN, HAS_FORCED = 14, 15, 16
#: The game's quiescence hook is on; the deepest ply a quiescence search reached.
HAS_QUIESCENCE, SELDEPTH = 17, 18
CONTROL_SIZE = 19

#: Table bounds (0: an empty slot).
EXACT, LOWER, UPPER = 1, 2, 3
#: The tag of the exact solver's entries (no search iteration has it).
SOLVE_TAG = np.int64(-1)

WIN = 1e9
WIN_THRESHOLD = WIN / 1000.0
#: Slots per bucket of the table (64 bytes of keys, one cache line): an entry is lost
#: only when its bucket is full, so a search that fills a small part of the table
#: keeps everything, as the Python engine's dict does.
WAYS = 8
#: Longest move list sorted by history (as :data:`plies.engine._negamax.LONG_MOVE_LIST`).
LONG_MOVE_LIST = 1024


@intrinsic
def ptr(typingctx: Any, array: Any) -> Any:
    """The data pointer of a C-contiguous array: what the rules receive. (Arrays cost
    a struct and two reference counts per rule call; pointers halved a toy walk's time
    per node, 0.10 to 0.05 us.)"""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(array)(context, builder, args[0]).data

    return types.CPointer(array.dtype)(array), codegen


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
def order(moves: Any, count: int, tt_move: int, ply: int, history: Any, killers: Any) -> None:
    """The engine's order: table move, first killer, second killer, then by history
    (stable, so the game's order breaks ties); past LONG_MOVE_LIST moves no sort, the
    table move and killers first (as ``front_first``)."""
    first, second = killers[ply, 0], killers[ply, 1]
    if count > LONG_MOVE_LIST:
        front = 0
        for move in (tt_move, first, second):
            if move >= 0 and to_front(moves, front, count, move):
                front += 1
        return
    for i in range(1, count):  # insertion sort, descending history, stable
        move = moves[i]
        score = history[move]
        k = i
        while k > 0 and history[moves[k - 1]] < score:
            moves[k] = moves[k - 1]
            k -= 1
        moves[k] = move
    for move in (second, first, tt_move):
        if move >= 0:
            to_front(moves, 0, count, move)


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


@njit(cache=True, nogil=True)
def probe(key: Any, table: Any) -> int:
    """The slot holding ``key`` in its bucket of :data:`WAYS` slots, or -1."""
    keys, _, _, _, bounds = table
    start = bucket(key, keys.size)
    for slot in range(start, start + WAYS):
        if bounds[slot] != 0 and keys[slot] == key:
            return slot
    return -1


@njit(cache=True, nogil=True)
def store(key: Any, tag: int, bound: int, value: float, move: int, table: Any) -> None:
    """Write an entry in its bucket: over the key's old entry, else in an empty slot,
    else over the entry of the oldest iteration (the least tag) there."""
    keys, tags, values, moves, bounds = table
    start = bucket(key, keys.size)
    slot = start
    for i in range(start, start + WAYS):
        if bounds[i] == 0 or keys[i] == key:
            slot = i
            break
        if tags[i] < tags[slot]:
            slot = i
    keys[slot] = key
    tags[slot] = tag
    values[slot] = value
    moves[slot] = move
    bounds[slot] = bound


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
    """The search node: the score of ``states[ply]`` searched ``depth`` plies deep,
    fail-soft in ``(alpha, beta)`` (see the Python engine's ``negamax``)."""
    legal_moves, play, terminal_value, evaluate, key_of, order_hint, winning, forced, noisy = rules
    state = states[ply]
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
        if ply > control[SELDEPTH]:  # noqa: PLR1730
            control[SELDEPTH] = ply
    # Step 2. Terminal.
    outcome = terminal_value(ptr(consts), ptr(state))
    if not np.isnan(outcome):
        if not below:
            control[LEAVES] += 1
        return terminal_score(outcome, ply)
    # Step 3. Horizon: static evaluation, or quiescence search if the game has it.
    if depth <= 0:
        if not below:
            control[LEAVES] += 1
            control[HORIZON] += 1
        if control[HAS_QUIESCENCE] == 0:
            return evaluate(ptr(consts), ptr(state))
        # Step 3b. Quiescence (the engine's quiesce): stand pat on the evaluation,
        # then the game's noisy moves, fail-soft. The children get depth - 1 (< 0).
        # (Measured: a module constant as their depth, or this loop in a recursive
        # function of its own, compiled and ran, then segfaulted once loaded from
        # Numba's disk cache.)
        best = evaluate(ptr(consts), ptr(state))
        if best >= beta:
            return best
        alpha = max(alpha, best)
        row = moves[ply]
        count = noisy(ptr(consts), ptr(state), ptr(row))
        child = states[ply + 1]
        for index in range(count):
            play(ptr(consts), ptr(state), row[index], ptr(child))
            score = -negamax(
                rules, consts, ply + 1, depth - 1, -beta, -alpha,
                states, moves, history, killers, table, control,
            )  # fmt: skip
            if control[STOP] != 0:
                return 0.0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        control[CUTOFFS] += 1
                        break
        return best
    # Step 5. Transposition table.
    alpha_orig = alpha
    tt_move = -1
    key = np.uint64(0)
    tag = depth + control[DEPTH_TAG]
    use_table = control[USE_TABLE] != 0
    if use_table:
        key = key_of(ptr(consts), ptr(state))
        control[PROBES] += 1
        slot = probe(key, table)
        if slot >= 0:
            control[HITS] += 1
            _, tags, values, table_moves, bounds = table
            tt_move = table_moves[slot]
            if tags[slot] == tag:
                value = values[slot]
                if value >= WIN_THRESHOLD:
                    value -= ply
                elif value <= -WIN_THRESHOLD:
                    value += ply
                bound = bounds[slot]
                if (
                    bound == EXACT
                    or (bound == LOWER and value >= beta)
                    or (bound == UPPER and value <= alpha)
                ):
                    if ply == 0 and bound != UPPER:
                        control[ROOT_MOVE] = tt_move
                    return value
    # Step 6. A win in one ends the node.
    if control[HAS_WIN] != 0:
        move = winning(ptr(consts), ptr(state))
        if move >= 0:
            play(ptr(consts), ptr(state), move, ptr(states[ply + 1]))
            score = -negamax(
                rules, consts, ply + 1, depth - 1, -beta, -alpha,
                states, moves, history, killers, table, control,
            )  # fmt: skip
            if ply == 0:
                control[ROOT_MOVE] = move
            return score
    # Step 7. Generate and order the moves.
    row = moves[ply]
    count = legal_moves(ptr(consts), ptr(state), ptr(row))
    if control[HAS_FORCED] != 0 and depth >= 2:
        first = row[0]
        kept = forced(ptr(consts), ptr(state), ptr(row), count)
        if kept == 0:  # every move loses at once: any one gives the value
            row[0] = first
            count = 1
        elif kept > 0:
            count = kept
    if control[HAS_ORDER] != 0:
        order_hint(ptr(consts), ptr(state), ptr(row), count)
    ordering = control[ORDERING] != 0
    if ordering and count > 1:
        order(row, count, tt_move, ply, history, killers)
    # Step 8. The children; PVS null windows after the first.
    best = -np.inf
    best_move = -1
    cut_index = -1
    child = states[ply + 1]
    if depth - 1 <= 0 and control[HAS_QUIESCENCE] == 0:
        # Step 8a. The children are leaves: scored here, as the engine does.
        for index in range(count):
            move = row[index]
            play(ptr(consts), ptr(state), move, ptr(child))
            control[NODES] += 1
            control[LEAVES] += 1
            outcome = terminal_value(ptr(consts), ptr(child))
            if np.isnan(outcome):
                control[HORIZON] += 1
                score = -evaluate(ptr(consts), ptr(child))
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
        for index in range(count):
            move = row[index]
            play(ptr(consts), ptr(state), move, ptr(child))
            if pvs and index > 0:
                null_beta = np.nextafter(alpha, np.inf)
                score = -negamax(
                    rules, consts, ply + 1, depth - 1, -null_beta, -alpha,
                    states, moves, history, killers, table, control,
                )  # fmt: skip
                if alpha < score < beta and control[STOP] == 0:
                    score = -negamax(
                        rules, consts, ply + 1, depth - 1, -beta, -alpha,
                        states, moves, history, killers, table, control,
                    )  # fmt: skip
            else:
                score = -negamax(
                    rules, consts, ply + 1, depth - 1, -beta, -alpha,
                    states, moves, history, killers, table, control,
                )  # fmt: skip
            if control[STOP] != 0:
                return 0.0
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        cut_index = index
                        break
    if cut_index >= 0:
        control[CUTOFFS] += 1
        if cut_index == 0:
            control[FIRST_CUTOFFS] += 1
        if ordering:  # the move becomes this ply's first killer and gains history
            if killers[ply, 0] != best_move:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = best_move
            history[best_move] += depth * depth
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
        store(key, tag, bound, stored, best_move, table)
    if ply == 0:
        control[ROOT_MOVE] = best_move
    return best


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
    legal_moves, play, terminal_value, _, key_of, _, _, _, _ = rules
    line[0] = best_move
    length = 1
    seen = np.zeros(depth + 1, np.uint64)
    seen[0] = key_of(ptr(consts), ptr(states[0]))
    play(ptr(consts), ptr(states[0]), best_move, ptr(states[1]))
    while length < depth:
        state = states[length]
        if not np.isnan(terminal_value(ptr(consts), ptr(state))):
            break
        key = key_of(ptr(consts), ptr(state))
        slot = probe(key, table)
        if slot < 0 or table[3][slot] < 0:
            break
        repeated = False
        for i in range(length):
            if seen[i] == key:
                repeated = True
        if repeated:
            break
        seen[length] = key
        move = table[3][slot]
        count = legal_moves(ptr(consts), ptr(state), ptr(moves[length]))
        legal = False
        for i in range(count):
            if moves[length, i] == move:
                legal = True
        if not legal:
            break
        line[length] = move
        play(ptr(consts), ptr(state), move, ptr(states[length + 1]))
        length += 1
    return length


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
    """The exact score of ``states[ply]``, fail-soft in ``(alpha, beta)``: PVS to the
    end of every line, the table's move first, then the game's order."""
    legal_moves, play, terminal_value, _, key_of, order_hint, winning, forced, _ = rules
    state = states[ply]
    control[NODES] += 1
    if control[NODES] >= control[NODE_LIMIT]:
        control[STOP] = 2
        return 0.0
    outcome = terminal_value(ptr(consts), ptr(state))
    if not np.isnan(outcome):
        control[LEAVES] += 1
        return terminal_score(outcome, ply)
    child = states[ply + 1]
    if control[HAS_WIN] != 0:
        move = winning(ptr(consts), ptr(state))
        if move >= 0:
            play(ptr(consts), ptr(state), move, ptr(child))
            return -exact(rules, consts, ply + 1, -beta, -alpha, states, moves, table, control)
    key = key_of(ptr(consts), ptr(state))
    control[PROBES] += 1
    slot = probe(key, table)
    tt_move = -1
    if slot >= 0:
        control[HITS] += 1
        _, tags, values, table_moves, bounds = table
        tt_move = table_moves[slot]
        if tags[slot] == SOLVE_TAG:
            value = values[slot]
            if value >= WIN_THRESHOLD:
                value -= ply
            elif value <= -WIN_THRESHOLD:
                value += ply
            bound = bounds[slot]
            if bound == EXACT:
                return value
            if bound == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
    alpha_orig = alpha  # the window the table left: the bound stored is relative to it
    row = moves[ply]
    count = legal_moves(ptr(consts), ptr(state), ptr(row))
    if control[HAS_FORCED] != 0:
        first = row[0]
        kept = forced(ptr(consts), ptr(state), ptr(row), count)
        if kept == 0:
            row[0] = first
            count = 1
        elif kept > 0:
            count = kept
    if control[HAS_ORDER] != 0:
        order_hint(ptr(consts), ptr(state), ptr(row), count)
    if tt_move >= 0:
        to_front(row, 0, count, tt_move)
    best = -np.inf
    best_move = -1
    for index in range(count):
        move = row[index]
        play(ptr(consts), ptr(state), move, ptr(child))
        if index > 0:  # a null window: does it beat the best so far?
            score = -exact(
                rules, consts, ply + 1, -(alpha + 1.0), -alpha, states, moves, table, control
            )
            if alpha < score < beta and control[STOP] == 0:
                score = -exact(rules, consts, ply + 1, -beta, -alpha, states, moves, table, control)
        else:
            score = -exact(rules, consts, ply + 1, -beta, -alpha, states, moves, table, control)
        if control[STOP] != 0:
            return 0.0
        if score > best:
            best = score
            best_move = move
            if score >= beta:
                control[CUTOFFS] += 1
                break
            alpha = max(alpha, score)
    if best <= alpha_orig:
        bound = UPPER
    elif best >= beta:
        bound = LOWER
    else:
        bound = EXACT
    stored = best
    if stored >= WIN_THRESHOLD:
        stored += ply
    elif stored <= -WIN_THRESHOLD:
        stored -= ply
    store(key, SOLVE_TAG, bound, stored, best_move, table)
    return best


@njit(cache=True, nogil=True)
def reaches(
    rules: Any,
    consts: Any,
    ply: int,
    move: int,
    target: float,
    states: Any,
    moves: Any,
    table: Any,
    control: Any,
) -> bool:
    """Whether ``move`` from ``states[ply]`` scores at least ``target`` (relative to
    the root, ``ply`` plies above): one null-window search of the child."""
    play = rules[1]
    play(ptr(consts), ptr(states[ply]), move, ptr(states[ply + 1]))
    score = -exact(rules, consts, ply + 1, -target, -target + 1.0, states, moves, table, control)
    return score >= target


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
    row = moves[ply]
    count = rules[0](ptr(consts), ptr(states[ply]), ptr(row))
    if control[HAS_ORDER] != 0:
        rules[5](ptr(consts), ptr(states[ply]), ptr(row), count)
    total = 0
    for i in range(count):
        move = row[i]
        if reaches(rules, consts, ply, move, target, states, moves, table, control):
            found[total] = move
            total += 1
            if first_only:
                break
        if control[STOP] != 0:
            return 0
    return total


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
    found = np.zeros(1, np.int64)
    length = 0
    while np.isnan(rules[2](ptr(consts), ptr(states[length]))) and length < out.size:
        if (
            best_moves(rules, consts, length, value, True, found, states, moves, table, control)
            == 0
        ):
            return 0
        out[length] = found[0]
        rules[1](ptr(consts), ptr(states[length]), found[0], ptr(states[length + 1]))
        length += 1
        value = -value
    return length


@njit(cache=True, nogil=True)
def describe(rules: Any, consts: Any, state: Any, moves: Any, forced: Any, numbers: Any) -> Any:
    """What the rules say of ``state``, for the conformance suite: its moves into
    ``moves``, the non-losing ones into ``forced``, and in ``numbers`` the move count,
    terminal value, evaluation, winning move and forced-move count; returns the key."""
    legal_moves, _, terminal_value, evaluate, key_of, _, winning, forced_moves, _ = rules
    count = legal_moves(ptr(consts), ptr(state), ptr(moves))
    numbers[0] = count
    numbers[1] = terminal_value(ptr(consts), ptr(state))
    numbers[2] = evaluate(ptr(consts), ptr(state))
    numbers[3] = winning(ptr(consts), ptr(state))
    forced[:count] = moves[:count]
    numbers[4] = forced_moves(ptr(consts), ptr(state), ptr(forced), count)
    return key_of(ptr(consts), ptr(state))


@njit(cache=True, nogil=True)
def play_move(rules: Any, consts: Any, state: Any, move: int, child: Any) -> None:
    """The rules' ``play``, callable from Python (for the conformance suite)."""
    rules[1](ptr(consts), ptr(state), move, ptr(child))
