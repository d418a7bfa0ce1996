"""Paranoid, max^n and Best-Reply Search for games of more than two players, over a
port's N-player rules.

The Python searches are :mod:`plies.engine._multi`'s; these are the same trees walked
in compiled code, over the rules ``to_move``, ``utilities``, ``evaluations`` and (for
BRS) ``with_turn`` of :mod:`plies.engine.native._protocol` (a port that sets
``players`` above two). They visit the same nodes in the same order as the Python
searches run *without a table* (``use_table=False``), so value, best move, line and
node count agree exactly (with a table, see below):

* paranoid: fail-soft alpha-beta for the root player, every other player minimising
  its score; a terminal state is worth ``utility * WIN``, one at the horizon the root
  player's evaluation; moves in the game's order (``order_moves`` when the port has it);
* max^n: every player maximises its own component, ties to the leftmost child; the
  vector of a node is written in ``vectors[ply]``;
* Best-Reply Search: the root player's turns as paranoid's MAX nodes; any other
  player's turn one MIN layer over every opponent's moves (in turn order from the one
  to move, each from the position ``with_turn`` gives that opponent), after which the
  root player moves again (``with_turn`` once more, unless the game is over).

A line is kept as ``move * players + player`` per step (BRS's replies come from
players not to move), read back as (player, move id) pairs by :func:`line_pairs`.
Paranoid and BRS take a table (a :class:`~plies.engine.native.NativeTable`'s search
arrays, kept through a search's iterations) as the Python searches do: entries of the
root player's value with its bound, used at the same remaining depth, their move
searched first; max^n runs without one. With tables of the same size they visit the
same nodes as the Python searches until a bucket of eight slots overflows (the Python
table's dictionary then still holds what the native one replaced).

Each call searches one depth; :func:`search_depth` (Python) runs it under a
:class:`~plies.engine.native.Runner` (node and time limits, stop requests) and reads
the line back. Compiled functions, cached on disk by Numba."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from plies.engine.native._kernel import EXACT, LOWER, UPPER, WAYS, bucket, entry
from plies.engine.native._pointers import call, ptr
from plies.engine.native._table import NODE_LIMIT, NODES, STOP, NativeTable

__all__ = ["MultiBuffers", "line_pairs", "no_table", "search_depth"]

#: Indices into ``counters``: leaves, cut-offs, first-move cut-offs, horizon leaves
#: (a reused entry found below a horizon counts), table probes and hits.
LEAVES, CUTOFFS, FIRST_CUTOFFS, HORIZON, PROBES, HITS = 0, 1, 2, 3, 4, 5

#: A win's score (the engine's ``WIN``): a payoff is ``utility * WIN``.
_WIN = 1_000_000_000.0
_INF = np.inf


@njit(cache=True, nogil=True)
def _leaf(rules: Any, consts: Any, state: Any, depth: int, values: Any, counters: Any) -> int:
    """Score a terminal state (``values`` its payoffs times WIN; returns 1) or one at
    the horizon (``values`` the evaluations; returns 2); else 0."""
    over = call("utilities", rules[13], (ptr(consts), ptr(state), ptr(values)))
    if over == 1:
        counters[LEAVES] += 1
        for i in range(values.size):
            values[i] *= _WIN
        return 1
    if depth == 0:
        counters[LEAVES] += 1
        counters[HORIZON] += 1
        call("evaluations", rules[14], (ptr(consts), ptr(state), ptr(values)))
        return 2
    return 0


@njit(cache=True, nogil=True)
def _stopped(control: Any) -> bool:
    """Count a node; True when the node limit is reached or a stop was asked for."""
    control[NODES] += 1
    if control[STOP] != 0:
        return True
    if control[NODES] >= control[NODE_LIMIT]:
        control[STOP] = 2
        return True
    return False


@njit(cache=True, nogil=True)
def paranoid_node(
    rules: Any, consts: Any, ordered: bool, root: int, ply: int, depth: int,
    alpha: float, beta: float, states: Any, moves: Any, vectors: Any, lines: Any,
    table: Any, counters: Any, control: Any,
) -> float:  # fmt: skip
    """The root player's fail-soft score of ``states[ply]`` searched ``depth`` plies;
    the best line below it in ``lines[ply]`` (its length first). With a ``table``
    (the five arrays of :meth:`~plies.engine.native.NativeTable.search_arrays`;
    empty: none), as the Python search with one: an entry of the same
    depth whose bound settles the window ends the node, and any entry's move is
    searched first."""
    lines[ply, 0] = 0
    if _stopped(control):
        return 0.0
    state, values = states[ply], vectors[ply]
    if _leaf(rules, consts, state, depth, values, counters):
        return values[root]
    players, row = values.size, moves[ply]
    mover = call("to_move", rules[12], (ptr(consts), ptr(state)))
    key, slot = _probe(rules, consts, state, table, counters)
    if slot >= 0 and _settles(table, slot, depth, alpha, beta):
        return _reuse(table, slot, lines, ply, counters)
    count = call("legal_moves", rules[0], (ptr(consts), ptr(state), ptr(row)))
    if ordered:
        call("order_moves", rules[5], (ptr(consts), ptr(state), ptr(row), count))
    if slot >= 0:
        _bring_first(row, count, table[3][entry(slot)] // players)
    maximizing = mover == root
    low, high, horizon = alpha, beta, counters[HORIZON]
    best, best_step = (-_INF if maximizing else _INF), -1
    child = states[ply + 1]
    for i in range(count):
        call("play", rules[1], (ptr(consts), ptr(state), row[i], ptr(child)))
        score = paranoid_node(rules, consts, ordered, root, ply + 1, depth - 1, alpha, beta,
                              states, moves, vectors, lines, table, counters, control)  # fmt: skip
        if control[STOP] != 0:
            return 0.0
        if (score > best) if maximizing else (score < best):
            best, best_step = score, row[i] * players + mover
            _extend(lines, ply, best_step)
            if maximizing:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                counters[CUTOFFS] += 1
                counters[FIRST_CUTOFFS] += i == 0
                break
    _store(table, key, depth, counters[HORIZON] == horizon, best, low, high, best_step)
    return best


@njit(cache=True, nogil=True, inline="always")
def _extend(lines: Any, ply: int, move: int) -> None:
    """``move`` (a move id times the players, plus its player: see :data:`LINE_STEP`)
    heads the line at ``ply``, the line below it after."""
    below = lines[ply + 1, 0]
    lines[ply, 1] = move
    for j in range(below):
        lines[ply, 2 + j] = lines[ply + 1, 1 + j]
    lines[ply, 0] = below + 1


@njit(cache=True, nogil=True)
def maxn_node(
    rules: Any, consts: Any, ply: int, depth: int, states: Any, moves: Any, vectors: Any,
    lines: Any, counters: Any, control: Any,
) -> None:  # fmt: skip
    """The max^n vector of ``states[ply]`` searched ``depth`` plies, in
    ``vectors[ply]`` (ties to the leftmost child); the line in ``lines[ply]``."""
    lines[ply, 0] = 0
    if _stopped(control):
        return
    state, values = states[ply], vectors[ply]
    if _leaf(rules, consts, state, depth, values, counters):
        return
    row = moves[ply]
    count = call("legal_moves", rules[0], (ptr(consts), ptr(state), ptr(row)))
    mover = call("to_move", rules[12], (ptr(consts), ptr(state)))
    child, below = states[ply + 1], vectors[ply + 1]
    for i in range(count):
        call("play", rules[1], (ptr(consts), ptr(state), row[i], ptr(child)))
        maxn_node(rules, consts, ply + 1, depth - 1, states, moves, vectors, lines, counters,
                  control)  # fmt: skip
        if control[STOP] != 0:
            return
        if i == 0 or below[mover] > values[mover]:
            values[:] = below
            _extend(lines, ply, row[i] * values.size + mover)


@njit(cache=True, nogil=True)
def brs_node(
    rules: Any, consts: Any, ordered: bool, root: int, ply: int, depth: int,
    alpha: float, beta: float, states: Any, turned: Any, moves: Any, vectors: Any,
    lines: Any, table: Any, counters: Any, control: Any,
) -> float:  # fmt: skip
    """Best-Reply Search: the root player's fail-soft score of ``states[ply]``
    searched ``depth`` plies (each layer one ply), the best line in ``lines[ply]``.
    The root player's turns are MAX layers as in :func:`paranoid_node`; any other
    player's turn is the merged MIN layer: every opponent's moves, in turn order from
    the one to move (the others from ``with_turn`` of the position, in
    ``turned[ply]``), the root player to move after each reply; a table's reply
    first. (One function for both layers: Numba's cache loads mutually recursive
    functions wrongly, and the search crashed.)"""
    lines[ply, 0] = 0
    if _stopped(control):
        return 0.0
    state, values = states[ply], vectors[ply]
    if _leaf(rules, consts, state, depth, values, counters):
        return values[root]
    mover = call("to_move", rules[12], (ptr(consts), ptr(state)))
    players, row = values.size, moves[ply]
    key, slot = _probe(rules, consts, state, table, counters)
    if slot >= 0 and _settles(table, slot, depth, alpha, beta):
        return _reuse(table, slot, lines, ply, counters)
    low, high, horizon = alpha, beta, counters[HORIZON]
    first = table[3][entry(slot)] if slot >= 0 else -1
    if mover == root:  # a MAX layer
        count = call("legal_moves", rules[0], (ptr(consts), ptr(state), ptr(row)))
        if ordered:
            call("order_moves", rules[5], (ptr(consts), ptr(state), ptr(row), count))
        if first >= 0:
            _bring_first(row, count, first // players)
        best, best_step = -_INF, -1
        for i in range(count):
            call("play", rules[1], (ptr(consts), ptr(state), row[i], ptr(states[ply + 1])))
            score = brs_node(rules, consts, ordered, root, ply + 1, depth - 1, alpha, beta,
                             states, turned, moves, vectors, lines, table, counters,
                             control)  # fmt: skip
            if control[STOP] != 0:
                return 0.0
            if score > best:
                best, best_step = score, row[i] * players + root
                _extend(lines, ply, best_step)
                alpha = max(alpha, score)
                if alpha >= beta:
                    counters[CUTOFFS] += 1
                    counters[FIRST_CUTOFFS] += i == 0
                    break
        _store(table, key, depth, counters[HORIZON] == horizon, best, low, high, best_step)
        return best
    best, best_step, tried = _INF, -1, 0
    # The table's reply first (pass -1), then every opponent's moves but that one.
    for step in range(-1 if first >= 0 else 0, players):
        opponent = first % players if step < 0 else (mover + step) % players
        if opponent == root:
            continue
        position = state
        if opponent != mover:
            position = turned[ply]
            call("with_turn", rules[15], (ptr(consts), ptr(state), opponent, ptr(position)))
        if step < 0:
            row[0], count = first // players, 1
        else:
            count = call("legal_moves", rules[0], (ptr(consts), ptr(position), ptr(row)))
            if ordered:
                call("order_moves", rules[5], (ptr(consts), ptr(position), ptr(row), count))
        for i in range(count):
            reply = row[i] * players + opponent
            if step >= 0 and reply == first:
                continue
            _reply(rules, consts, root, ply, position, row[i], states, turned, vectors)
            score = brs_node(rules, consts, ordered, root, ply + 1, depth - 1, alpha, beta,
                             states, turned, moves, vectors, lines, table, counters,
                             control)  # fmt: skip
            if control[STOP] != 0:
                return 0.0
            if score < best:
                best, best_step = score, reply
                _extend(lines, ply, reply)
                beta = min(beta, score)
                if alpha >= beta:
                    counters[CUTOFFS] += 1
                    counters[FIRST_CUTOFFS] += tried == 0
                    _store(table, key, depth, counters[HORIZON] == horizon, best, low, high,
                           best_step)  # fmt: skip
                    return best
            tried += 1
    _store(table, key, depth, counters[HORIZON] == horizon, best, low, high, best_step)
    return best


@njit(cache=True, nogil=True, inline="always")
def _reply(
    rules: Any, consts: Any, root: int, ply: int, position: Any, move: int, states: Any,
    turned: Any, vectors: Any,
) -> None:  # fmt: skip
    """Play the reply ``move`` from ``position`` into ``states[ply + 1]``, and give
    the turn back to the root player unless the game is over (the Python
    ``with_turn``; ``turned[ply + 1]`` and ``vectors[ply + 1]`` are scratch here)."""
    child = states[ply + 1]
    call("play", rules[1], (ptr(consts), ptr(position), move, ptr(child)))
    over = call("utilities", rules[13], (ptr(consts), ptr(child), ptr(vectors[ply + 1])))
    if over == 1 or call("to_move", rules[12], (ptr(consts), ptr(child))) == root:
        return
    scratch = turned[ply + 1]
    call("with_turn", rules[15], (ptr(consts), ptr(child), root, ptr(scratch)))
    child[:] = scratch


# -- the table ---------------------------------------------------------------------------

# The table's layout, buckets, slots and bound codes are the two-player kernel's
# (``_kernel``'s ``bucket``, ``entry``, ``WAYS``, ``EXACT``...: a NativeTable's search
# arrays; a bound of 0 is an empty slot).


@njit(cache=True, nogil=True)
def _probe(rules: Any, consts: Any, state: Any, table: Any, counters: Any) -> tuple[Any, int]:
    """The key of ``state`` and the slot of its entry (-1: none, or no table);
    probes and hits counted."""
    bounds = table[4]
    if bounds.size == 0:
        return np.uint64(0), -1
    key = call("key", rules[4], (ptr(consts), ptr(state)))
    counters[PROBES] += 1
    keys, start = table[0], bucket(key, bounds.size)
    for slot in range(start, start + WAYS):
        if bounds[slot] != 0 and keys[entry(slot)] == key:
            counters[HITS] += 1
            return key, slot
    return key, -1


@njit(cache=True, nogil=True, inline="always")
def _settles(table: Any, slot: int, depth: int, alpha: float, beta: float) -> bool:
    """Whether the entry in ``slot``, searched ``depth`` plies deep, settles a node
    searched in (alpha, beta), as the Python search's ``_cuts``."""
    at = entry(slot)
    if table[1][at] >> 1 != depth:
        return False
    bound, value = table[4][slot], table[2][at]
    return (
        bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha)
    )


@njit(cache=True, nogil=True, inline="always")
def _reuse(table: Any, slot: int, lines: Any, ply: int, counters: Any) -> float:
    """The value of the entry in ``slot``; the line is its move alone, and a value
    found below a horizon counts as a horizon leaf (the iteration is not exact)."""
    at = entry(slot)
    if table[1][at] & 1 == 0:
        counters[HORIZON] += 1
    lines[ply, 0] = 1
    lines[ply, 1] = table[3][at]
    return table[2][at]  # type: ignore[no-any-return]


@njit(cache=True, nogil=True)
def _store(
    table: Any, key: Any, depth: int, complete: bool, best: float, alpha: float, beta: float,
    step: int,
) -> None:  # fmt: skip
    """Keep what a node searched in (alpha, beta) found (no table: nothing): over the
    key's old entry, else in an empty slot, else over the shallowest entry of the
    bucket. The tag is the depth and whether no line met the horizon."""
    keys, tags, bounds = table[0], table[1], table[4]
    if bounds.size == 0:
        return
    start = bucket(key, bounds.size)
    slot = start
    for i in range(start, start + WAYS):
        if bounds[i] == 0 or keys[entry(i)] == key:
            slot = i
            break
        if tags[entry(i)] < tags[entry(slot)]:
            slot = i
    at = entry(slot)
    keys[at], tags[at] = key, depth * 2 + complete
    table[2][at], table[3][at] = best, step
    bounds[slot] = UPPER if best <= alpha else LOWER if best >= beta else EXACT


@njit(cache=True, nogil=True, inline="always")
def _bring_first(row: Any, count: int, move: int) -> None:
    """``move`` (if among ``row[:count]``) to the front, the others kept in order."""
    for j in range(count):
        if row[j] == move:
            for k in range(j, 0, -1):
                row[k] = row[k - 1]
            row[0] = move
            return


def no_table() -> tuple[Any, ...]:
    """The table arrays of a search without one (empty: no probe, no store)."""
    return (np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.float64),
            np.zeros(0, np.int64), np.zeros(0, np.int8))  # fmt: skip


class MultiBuffers:
    """The arrays one N-player search walks in: a state, a move list, a vector and a
    line per ply, and the counters."""

    def __init__(self, prepared: Any, players: int, depth: int) -> None:
        plies = depth + 2
        self.states = np.zeros((plies, prepared.state.size), np.int64)
        self.turned = np.zeros((plies, prepared.state.size), np.int64)
        self.moves = np.zeros((plies, max(prepared.max_moves, 1)), np.int64)
        self.vectors = np.zeros((plies, players), np.float64)
        self.lines = np.zeros((plies, plies + 1), np.int64)
        self.counters = np.zeros(6, np.int64)
        self.states[0] = prepared.state


def search_depth(
    algorithm: str, port: Any, prepared: Any, root: int, depth: int, runner: Any, counters: Any,
    table: NativeTable | None = None,
) -> tuple[float, Any, list[tuple[int, int]]]:  # fmt: skip
    """One iteration of ``algorithm`` (``"paranoid"``, ``"maxn"`` or ``"brs"``)
    ``depth`` plies deep from ``prepared``, under ``runner`` (raises
    :class:`~plies.engine.native.KernelStopped` when a limit stops it): the root
    player's score, the vector (max^n; else None) and the line as (player, move id)
    pairs. ``table`` (paranoid and BRS; max^n runs without), a
    :class:`~plies.engine.native.NativeTable` whose search arrays hold the entries, is
    kept between the iterations of one search. The counters (leaves, cut-offs, first-move cut-offs,
    horizon leaves, table probes and hits) are added to ``counters``."""
    buffers = MultiBuffers(prepared, port.players, depth)
    rules, consts = port.rules(), prepared.consts
    b = buffers
    arrays = table.search_arrays() if table is not None else no_table()
    vector = None
    if algorithm == "paranoid":
        ordered = port.hooks()[0]
        value = runner.run(
            paranoid_node, rules, consts, ordered, root, 0, depth, -_INF, _INF,
            b.states, b.moves, b.vectors, b.lines, arrays, b.counters, runner.control,
        )  # fmt: skip
    elif algorithm == "brs":
        ordered = port.hooks()[0]
        value = runner.run(
            brs_node, rules, consts, ordered, root, 0, depth, -_INF, _INF, b.states,
            b.turned, b.moves, b.vectors, b.lines, arrays, b.counters, runner.control,
        )  # fmt: skip
    else:
        runner.run(maxn_node, rules, consts, 0, depth, b.states, b.moves, b.vectors, b.lines,
                   b.counters, runner.control)  # fmt: skip
        vector = b.vectors[0].copy()
        value = float(vector[root])
    counters += b.counters
    return float(value), vector, line_pairs(b.lines[0], port.players)


def line_pairs(line: Any, players: int) -> list[tuple[int, int]]:
    """A line of the kernel (its length first, then ``move * players + player``
    each) as (player, move id) pairs."""
    steps = (int(step) for step in line[1 : 1 + int(line[0])])
    return [(step % players, step // players) for step in steps]
