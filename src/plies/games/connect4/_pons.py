"""Pascal Pons' Connect Four solver, compiled with Numba (``@njit(cache=True)``).

The search of Pons' "Solving Connect 4" (PascalPons/connect4, ``Solver.cpp``), for
any board whose ``(height + 1) * width`` bits fit one 64-bit word. Scores are Pons':
for the side to move with ``moves`` stones on the board, a win with its next stone
scores ``(cells + 1 - moves) // 2``, a loss to the opponent's next stone
``-((cells - moves) // 2)``, a draw 0. A score depends on the position only (not on
the root), so the table stores it as it is.

Ideas beyond Pons' (some as Christophe Steininger's ``c4`` solver has them):

* *enhanced transposition cut-offs*: a node with at least :data:`ETC_LEFT` empty
  cells looks its children up in the table before searching any, and one whose
  stored upper bound already gives a cut-off ends the node unsearched; a child whose
  replies are forced is looked up where its forced line ends (:func:`forced_line`),
  as ``c4``'s static search plays forced moves before its look-up (such a child
  keeps no entry of its own);
* *children the opponent cannot win*: a child where the opponent has no four left
  to fill scores at least a draw for us, a cut-off when beta is at most 0, before any
  child is searched (``c4`` asks each child the same);
* *move order by useful threats* (:func:`order_moves`): a threat right above one of
  the opponent's is never played, one right above a cell the opponent could play next
  takes that cell from them;
* *wins with our second or third stone* found while ordering the moves
  (:func:`order_moves`), and when there is none, a tighter upper bound;
* *forced moves* (a node with one move that does not lose at once) pass the
  window on to their child with no table look-up or entry (like ``c4``'s static
  search of forced lines, but counting the node);
* *mirror images* share table entries near the root (:func:`canonical`), as ``c4``'s
  keys do everywhere;
* *claimeven bounds* (:func:`claimeven_bound`): on a board of even height, the first
  player to move cannot win when the second could answer every stone on top of it.
* *a two-way table near the root* (:func:`store`, :data:`TWO_WAY_LEFT`): an entry may
  sit in either slot of a pair, and a new one replaces the pair's entry that cost
  fewer nodes, as in ``c4``; deeper entries do not replace costly ones;
* *fetched entries*: the enhanced transposition cut-offs start loading all the
  children's entries (:func:`~plies.engine.native.prefetch`) before reading any;
* *dead stones merged once the table is full* (:func:`table_key`): after a search has
  visited :data:`MERGE_AFTER` times the table's entries in nodes, positions that
  differ only in stones no four can use any more share one entry, as in ``c4``;
* *the root walks from a draw* once its score range is narrow (:func:`root_threshold`),
  as ``c4`` does, where Pons asks about the middle;
* *fail-soft on both sides*: a node whose children all fail low returns and stores the
  best of their bounds, not alpha, as ``c4`` does: the root's successive searches
  share tighter upper bounds (Test_L1_R3's first 50 lines 3.4% fewer nodes, Test_L2_R2
  and Test_L2_R1 6-12% fewer on their samples).

The arrays every function shares (made by :mod:`plies.games.connect4._solve`):

* ``board`` (uint64): ``[bottom_mask, board_mask, h1, cells, width, key_mask, seed,
  evens, column masks in the game's centre-first order...]``, ``key_mask`` the bits
  of a key the table keeps (26 of a uint32 word, the others for :func:`store`; Pons
  keeps 32), ``evens`` the cells of even rows counted from 1 on a board of even height
  (0 on others: no claimeven bounds), ``seed`` 0, or odd for a helper's search (its
  own move order, see :func:`negamax`);
* ``keys`` (uint32 or uint64) and ``values`` (int8): the transposition table, each key
  stored XORed with its value's :func:`seal` (so processes may share one table);
* ``scratch`` (uint64, ``cells + 1`` rows of ``5 * width``): Pons' MoveSorter of the
  node with that many stones (its moves, then their scores), then its children's keys
  and slots (the enhanced transposition cut-offs fetch their entries at once), then
  each move's forced reply (0: none; :func:`order_moves`), which the cut-offs replace
  with the length of its :func:`forced_line`; so no node allocates;
* ``control`` (int64, the table's): ``[nodes, node limit, stop, journal length,
  journal...]``; the kernel stops when the node count reaches the limit (stop = 2) or
  another thread sets stop (to 1, 3 or 4), then every node returns at once without
  storing anything. The journal lists the slots written since the table was last
  cleared (its length passes the capacity when they did not fit), so clearing costs
  what the search wrote, not the table's size.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from plies.engine.native import (
    JOURNAL,
    JOURNAL_LENGTH,
    NODE_LIMIT,
    NODES,
    STOP,
    popcount,
    prefetch,
    ptr,
)
from plies.games.connect4._dead import dead_stones
from plies.games.connect4._probes import narrowed_threshold

__all__ = ["best_moves", "principal_line", "solve_root"]

# Indices into ``board`` (those into ``control`` are the table's).
BOTTOM, BOARD, H1, CELLS, WIDTH, KEY_MASK, SEED, EVENS, COLUMNS = 0, 1, 2, 3, 4, 5, 6, 7, 8

#: Table values: 0 is an empty slot; an upper bound u is stored as ``u + UPPER``
#: (2..62), a lower bound l as ``l + LOWER`` (66..126): scores stay within -30..30
#: because a board has at most 60 cells. (Pons' offsets, made board-independent.)
UPPER = 32
LOWER = 96
#: Enhanced transposition cut-offs are tried at nodes with this many empty cells or
#: more (below it, a node's subtree is too small to pay for the look-ups).
ETC_LEFT = 6
#: A search that has visited this many times the table's entries in nodes keys its
#: positions by :func:`table_key` (dead stones merged) from then on: the empty board
#: took 142 million nodes instead of 173 million in no more time, Test_L1_R3's first 50
#: lines 4% fewer nodes (19 of its searches pass 8 million nodes), and its lines 51-80
#: took the same CPU time as without it. The key costs about 15% of a node's time,
#: which a search that fills the table less does not win back (keyed so from the start,
#: Test_L2_R2's first 300 lines took 20% more time). Entries keyed either way hold true
#: bounds for both (see :func:`table_key`), so a search may switch halfway.
MERGE_AFTER = 1
#: Dead stones are merged in keys of positions with this many empty cells or more
#: (the enhanced transposition cut-offs' children).
DEAD_LEFT = 6
#: The enhanced transposition cut-offs follow a child's forced line (see
#: :func:`forced_line`) at most this many stones deep.
FORCED_LINE = 8
#: A helper's search (``board[SEED]`` not 0, see :func:`negamax`) swaps the first two
#: moves at one node in ``2**HELPER_BITS`` picked by its seed, where at least
#: ``HELPER_LEFT`` cells are empty.
HELPER_LEFT = 20
HELPER_BITS = 2
#: Positions with this many empty cells or more share table entries with their
#: mirror images (see :func:`canonical`): the empty board took 241 million nodes
#: instead of 441 million; deeper, mirror images rarely meet and the key costs more.
MIRROR_LEFT = 24
#: Nodes with this many empty cells or more keep their table entries in either slot of
#: a pair, as ``c4`` keeps all of its entries (see :func:`store`): the empty board took
#: 208 million nodes instead of 241 million. Deeper nodes keep theirs in the home slot
#: only, so that their look-ups read one slot (a second read for every node cost more
#: time than the nodes it saved on Pons' sets).
TWO_WAY_LEFT = 20
#: A deeper node's entry does not replace an entry of another key whose search took
#: more nodes and more than ``2**PROTECTED`` (bit lengths compared; see :func:`store`).
PROTECTED = 10
#: Above every table value: :func:`probe` wanting any.
ANY_BOUND = 127
#: Above every score (a board has at most 60 cells): no bound.
NO_BOUND = 64

#: Pointers to the arrays' data (and the sizes that index them) that the nodes pass
#: on: Numba passes an array as a struct with a reference count to raise and drop at
#: every call, which took a third of a node's time. ``scratch`` rows are ``stride``
#: long; ``size`` is the table's (uint64).
Buffers = namedtuple("Buffers", "keys values board scratch stride control control_size size")

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, nogil=True)
def winning_cells(stones: Any, mask: Any, board_mask: Any, h1: int) -> Any:
    """Empty cells that would complete four for ``stones`` (Pons'
    compute_winning_position): vertical, then horizontal and both diagonals, where a
    cell completes four with two stones on one side and a third on either side."""
    r = (stones << 1) & (stones << 2) & (stones << 3)
    row = np.int64(h1)  # one column over: the next cell of the same row
    for shift in (row, row - 1, row + 1):
        p = (stones << shift) & (stones << 2 * shift)
        r |= p & (stones << 3 * shift)
        r |= p & (stones >> shift)
        p = (stones >> shift) & (stones >> 2 * shift)
        r |= p & (stones << shift)
        r |= p & (stones >> 3 * shift)
    return r & (board_mask ^ mask)


@njit(cache=True, nogil=True)
def wins_of(stones: Any, mask: Any, board: Any) -> Any:
    """:func:`winning_cells` of ``stones`` with the board's constants."""
    return winning_cells(stones, mask, board[BOARD], board[H1])


@njit(cache=True, nogil=True)
def possible(mask: Any, board: Any) -> Any:
    """The cell where a stone would land in each non-full column."""
    return (mask + board[BOTTOM]) & board[BOARD]


@njit(cache=True, nogil=True)
def can_win_next(position: Any, mask: Any, board: Any) -> bool:
    """Whether the side to move completes four with its next stone."""
    return (wins_of(position, mask, board) & possible(mask, board)) != ZERO


@njit(cache=True, nogil=True)
def has_four(stones: Any, h1: Any) -> bool:
    """Whether ``stones`` hold four in a row in any direction."""
    for shift in (ONE, h1, h1 - ONE, h1 + ONE):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (shift + shift)) != ZERO:
            return True
    return False


@njit(cache=True, nogil=True)
def claimeven_bound(position: Any, mask: Any, board: Any) -> int:
    """An upper bound on the score of the first player to move on a board of even
    height: :data:`NO_BOUND` (none), 0 or a loss (see :func:`loss_bound`). The
    opponent can answer every stone we put on an odd row (counted from 1) right on top
    of it, and one we put on an even row (only the playable cell of a column holding
    an odd number of stones) on the playable even cell of another such column (there
    is one: we move with an even number of stones on the board). Then they get every
    empty even cell not playable now, we at most the rest: with no four among those
    we cannot win, and if they hold four among theirs, they win by some stone."""
    empty = board[BOARD] ^ mask
    theirs = (position ^ mask) | (empty & board[EVENS] & ~possible(mask, board))
    h1 = board[H1]
    if has_four(position | (empty & ~theirs), h1):
        return NO_BOUND
    return loss_bound(theirs, board)


@njit(cache=True, nogil=True)
def loss_bound(theirs: Any, board: Any) -> int:
    """0 when ``theirs`` (the second player's stones and every empty cell they take
    by claimeven) holds no four, else the score of the latest loss to one: they fill
    a four's highest cell right after we play below it, with the cells above still
    empty, so the lower its highest cell, the sooner we lose."""
    h1 = board[H1]
    tops = ZERO
    for shift in (ONE, h1, h1 - ONE, h1 + ONE):
        pairs = theirs & (theirs >> shift)
        fours = pairs & (pairs >> (shift + shift))  # each four's first cell
        # The highest cell: three rows up going up, the first cell otherwise.
        tops |= fours << np.uint64(3) if shift == ONE or shift == h1 + ONE else fours
    if tops == ZERO:
        return 0
    height = np.int64(h1) - 1
    for row in range(height):  # from the bottom row (0)
        if tops & (board[BOTTOM] << np.uint64(row)) != ZERO:
            above = height - 1 - row  # cells left empty: their stone is at most
            return -((above + 2) // 2)  # number cells - above, Pons' loss by it
    return -1


@njit(cache=True, nogil=True)
def non_losing_moves(theirs: Any, mask: Any, board: Any) -> Any:
    """Pons' possibleNonLosingMoves: the landing cells of moves that do not let the
    opponent win at once (``theirs``: their winning cells). A threat of theirs on a
    playable cell must be blocked (two cannot be: no move), and no stone may go right
    under one of their threats."""
    playable = possible(mask, board)
    forced = playable & theirs
    if forced != ZERO:
        if forced & (forced - ONE) != ZERO:
            return ZERO
        playable = forced
    return playable & ~(theirs >> 1)


@njit(cache=True, nogil=True)
def sort_moves(position: Any, mask: Any, candidates: Any, board: Any, scratch: Any, at: int) -> int:
    """Pons' MoveSorter: fill row ``at`` of ``scratch`` with the candidate moves
    (landing cells), best last, and return how many. A move's score is the number of
    threats it creates; columns are added from the edges in, so among equal scores the
    more central move sits later and is tried first (insertion keeps equals in the
    order added). Indexing the row in place, not a view of it, saves a reference count
    per node."""
    width = np.int64(board[WIDTH])
    board_mask, h1 = board[BOARD], board[H1]
    size = 0
    for i in range(width - 1, -1, -1):
        move = candidates & board[COLUMNS + i]
        if move != ZERO:
            score = popcount(winning_cells(position | move, mask, board_mask, h1))
            k = size
            size += 1
            while k > 0 and scratch[at, width + k - 1] > score:
                scratch[at, k] = scratch[at, k - 1]
                scratch[at, width + k] = scratch[at, width + k - 1]
                k -= 1
            scratch[at, k] = move
            scratch[at, width + k] = score
    return size


@njit(cache=True, nogil=True)
def order_moves(
    position: Any, mask: Any, candidates: Any, theirs: Any, board: Any, scratch: Any, at: int
) -> int:
    """The search's move order: fill the row of ``scratch`` (a pointer) from ``at``
    as :func:`sort_moves` fills a row, each move scored by the threats it leaves us
    that are not spoiled (a cell right above one of the opponent's threats ``theirs``
    is never played while the game goes on), twice each, plus once more each one
    right above a cell the opponent could play next (which they then may not play).
    Pons counts every threat once; this order visits 10-20% fewer nodes on his sets.
    Each move's forced reply (the opponent's only move that does not lose at once, or
    0) goes to the row's fifth part, for :func:`forced_line`. Returns how many moves,
    or -1 as soon as one leaves the opponent no move that stops our next stone winning
    (that child is not searched), else -2 when one leaves them a single such move
    after which we have one (:func:`wins_after_reply`): a win with our third stone."""
    width = np.int64(board[WIDTH])
    board_mask, h1, bottom = board[BOARD], board[H1], board[BOTTOM]
    spoiled = theirs << ONE
    size = 0
    third = False
    # Our third stone needs a cell left for the opponent to have no answer to.
    deep = board[CELLS] - popcount(mask) >= np.uint64(4)
    for i in range(width - 1, -1, -1):
        move = candidates & board[COLUMNS + i]
        if move != ZERO:
            after = mask | move
            ours = winning_cells(position | move, after, board_mask, h1)
            playable = (after + bottom) & board_mask
            replies = non_losing_moves(ours, after, board)
            if replies == ZERO:
                return -1  # the opponent cannot stop our next stone winning
            if not third and deep and replies & (replies - ONE) == ZERO:
                third = wins_after_reply(position | move, after, position ^ mask, replies, board)
            threats = ours & ~spoiled
            above = (playable << ONE) & board_mask
            score = popcount(threats) + popcount(threats) + popcount(threats & above)
            forced = replies if replies & (replies - ONE) == ZERO else ZERO
            k = size
            size += 1
            while k > 0 and scratch[at + width + k - 1] > score:
                scratch[at + k] = scratch[at + k - 1]
                scratch[at + width + k] = scratch[at + width + k - 1]
                scratch[at + 4 * width + k] = scratch[at + 4 * width + k - 1]
                k -= 1
            scratch[at + k] = move
            scratch[at + width + k] = score
            scratch[at + 4 * width + k] = forced
    return -2 if third else size


@njit(cache=True, nogil=True)
def wins_after_reply(ours: Any, mask: Any, theirs: Any, reply: Any, board: Any) -> bool:
    """Whether, after the opponent's only reply ``reply`` (they to move with stones
    ``theirs``, ours ``ours``, ``mask`` filled), we have a move that leaves them no
    way to stop our next stone winning."""
    board_mask, h1 = board[BOARD], board[H1]
    after = mask | reply
    threats = winning_cells(theirs | reply, after, board_mask, h1)
    candidates = non_losing_moves(threats, after, board)
    while candidates != ZERO:
        move = candidates & (~candidates + ONE)
        candidates ^= move
        next_mask = after | move
        if (
            non_losing_moves(
                winning_cells(ours | move, next_mask, board_mask, h1), next_mask, board
            )
            == ZERO
        ):
            return True
    return False


@njit(cache=True, nogil=True)
def negamax(
    position: Any,
    mask: Any,
    moves: int,
    alpha: int,
    beta: int,
    keys: Any,
    values: Any,
    board: Any,
    scratch: Any,
    control: Any,
) -> int:
    """Pons' negamax: the score if it lies in ``(alpha, beta)``, else a bound on the
    same side (fail-soft), by :func:`node` on the arrays' :class:`Buffers`. The side
    to move cannot win at once (the caller checked)."""
    return node(position, mask, moves, alpha, beta, buffers(keys, values, board, scratch, control))


@njit(cache=True, nogil=True)
def buffers(keys: Any, values: Any, board: Any, scratch: Any, control: Any) -> Any:
    """The :class:`Buffers` of the arrays (C-contiguous, kept alive by the caller)."""
    return Buffers(
        ptr(keys), ptr(values), ptr(board), ptr(scratch), scratch.shape[1],
        ptr(control), control.size, np.uint64(keys.size),
    )  # fmt: skip


@njit(cache=True, nogil=True)
def node(position: Any, mask: Any, moves: int, alpha: int, beta: int, b: Any) -> int:
    """:func:`negamax` on raw pointers ``b`` (see :class:`Buffers`)."""
    keys, values, board, scratch, control = b.keys, b.values, b.board, b.scratch, b.control
    row = moves * b.stride  # this node's row of scratch
    # Step 1. Count the node; stop at the node limit (or when told to, see control).
    control[NODES] += 1
    first = control[NODES]  # this node's number: its search's cost is counted from it
    if control[NODES] >= control[NODE_LIMIT]:
        control[STOP] = 2
        return 0
    # Step 2. Only moves that do not lose at once; none: the opponent wins next.
    cells = np.int64(board[CELLS])
    theirs = wins_of(position ^ mask, mask, board)
    candidates = non_losing_moves(theirs, mask, board)
    if candidates == ZERO:
        return -((cells - moves) // 2)
    # Neither side can win with the last two stones: a draw.
    if moves >= cells - 2:
        return 0
    # Step 3. Score bounds: the opponent cannot win with its next stone, we cannot
    # win with ours (the soonest loss and win narrow the window).
    low = -((cells - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    if candidates & (candidates - ONE) == ZERO:
        # One move (a forced block, or all others lose at once): its child's score,
        # with no table entry, claimeven bound or order of our own.
        return -node(position ^ mask, mask | candidates, moves + 1, -beta, -alpha, b)
    # Claimeven: when the opponent could take every even cell, we cannot win.
    if moves % 2 == 0 and beta > -1 and board[EVENS] != ZERO:
        bound = claimeven_bound(position, mask, board)
        if beta > bound:
            beta = bound
            if alpha >= beta:
                return beta
    # Step 4. The table: a lower or an upper bound from an earlier search.
    merge = first >= np.int64(b.size) * MERGE_AFTER  # dead stones merged from here on
    key = table_key(position, mask, cells - moves, board, merge)
    slot = key % b.size
    two_way = cells - moves >= TWO_WAY_LEFT
    code = probe(key, slot, two_way, ANY_BOUND, b)
    if code != 0:
        if code > LOWER - UPPER:
            low = code - LOWER
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:
            high = code - UPPER
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
    # Step 5. The children, most threats first (see order_moves); fail-soft, a lower
    # bound stored on a cut-off and an upper bound otherwise.
    count = order_moves(position, mask, candidates, theirs, board, scratch, row)
    if count == -1:
        return (cells - 1 - moves) // 2  # a win with our second stone: exact
    if count == -2:
        return (cells - 3 - moves) // 2  # a win with our third stone: exact
    # No move wins with our second stone either.
    high = (cells - 3 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    if moves % 2 == 1 and board[EVENS] != ZERO:
        # A child where the opponent moves first and cannot win by claimeven.
        child_position = position ^ mask
        for i in range(count):
            bound = -claimeven_bound(child_position, mask | scratch[row + i], board)
            if bound > alpha:
                alpha = bound
                if alpha >= beta:
                    store(slot, key, alpha + LOWER, control[NODES] - first, two_way, b)
                    return alpha
    if beta <= 0 and (moves % 2 == 0 or board[EVENS] == ZERO):
        # A child where the opponent has no four left to fill: a draw at worst for us
        # (where claimeven bounds the children above, it covers this too).
        child_position = position ^ mask
        empty = board[BOARD] ^ mask
        for i in range(count):
            if not has_four(child_position | (empty ^ scratch[row + i]), board[H1]):
                store(slot, key, LOWER, control[NODES] - first, two_way, b)
                return 0
    if cells - moves >= ETC_LEFT:
        # Enhanced transposition cut-off: a child the table bounds from above may
        # already score beta for us, its subtree unsearched; a child with a forced
        # reply is looked up where its forced line ends. The entries are fetched
        # together (each is a cache miss in a large table), then read.
        width = np.int64(board[WIDTH])
        for i in range(count):
            move = scratch[row + i]
            reply = scratch[row + 4 * width + i]
            stones, line_mask, plies = forced_line(
                position | move, position ^ mask, mask | move, reply, cells - moves, board
            )
            child_key = table_key(stones, line_mask, cells - moves - plies, board, merge)
            child_slot = child_key % b.size
            scratch[row + 2 * width + i] = child_key
            scratch[row + 3 * width + i] = child_slot
            scratch[row + 4 * width + i] = plies
            prefetch(keys, child_slot)
            prefetch(values, child_slot)
        # Where the opponent moves (an odd number of plies on), an upper bound u cuts
        # if -u >= beta: its code u + UPPER at most UPPER - beta (and an upper bound's
        # code at most LOWER - UPPER). Where we move, a lower bound l cuts if l >= beta:
        # its code l + LOWER at least LOWER + beta.
        cutting = min(LOWER - UPPER, UPPER - beta)
        for i in range(count):
            plies = np.int64(scratch[row + 4 * width + i])
            line_two_way = cells - moves - plies >= TWO_WAY_LEFT
            child_key, child_slot = scratch[row + 2 * width + i], scratch[row + 3 * width + i]
            if plies % 2 == 1:
                code = probe(child_key, child_slot, line_two_way, cutting, b)
                if code != 0:
                    store(slot, key, UPPER - code + LOWER, control[NODES] - first, two_way, b)
                    return UPPER - code
            else:
                code = probe(child_key, child_slot, line_two_way, ANY_BOUND, b, LOWER + beta)
                if code != 0:
                    store(slot, key, code, control[NODES] - first, two_way, b)
                    return code - LOWER
    # A helper (seed != 0) tries the second move first at some nodes near the root.
    swap = count  # no swap
    seed = board[SEED]
    if (
        seed != ZERO
        and count >= 2
        and cells - moves >= HELPER_LEFT
        and (key * seed) >> np.uint64(64 - HELPER_BITS) == ZERO
    ):
        swap = count - 2
    # Fail-soft on a fail low too: the best of the children's upper bounds, which may
    # lie below alpha (Pons returns alpha), is returned and stored.
    value = -np.int64(cells)  # below every score; the loop runs at least once
    for i in range(count - 1, -1, -1):
        move = scratch[row + i]
        if i == swap:
            move = scratch[row + count - 1]
        elif i == count - 1 and swap < count:
            move = scratch[row + swap]
        score = -node(position ^ mask, mask | move, moves + 1, -beta, -alpha, b)
        if control[STOP] != 0:
            return 0
        if score >= beta:
            store(slot, key, score + LOWER, control[NODES] - first, two_way, b)
            return score
        alpha = max(alpha, score)
        value = max(value, score)
    store(slot, key, value + UPPER, control[NODES] - first, two_way, b)
    return value


@njit(cache=True, nogil=True)
def forced_line(ours: Any, theirs: Any, mask: Any, reply: Any, left: int, board: Any) -> Any:
    """Where a child's forced line ends: ``(stones, mask, plies)``, the stones of the
    side to move there, the filled cells and how many stones on from the node with
    ``left`` empty cells the line ends (1: at the child). The child has our stones
    ``ours`` (our move among them), the opponent's ``theirs`` and ``mask``; ``reply``
    is the opponent's only move that does not lose at once (0: it has a choice). Each
    side plays its only such move while it has one, at most :data:`FORCED_LINE`
    stones on, while the position reached could keep an entry (more than 2 empty
    cells). A forced node keeps no entry (see :func:`node`) and scores what the end of
    its line scores, negated at each stone."""
    board_mask, h1 = board[BOARD], board[H1]
    plies = 1
    while reply != ZERO and plies < FORCED_LINE and left - plies > 3:
        if plies % 2 == 1:
            theirs |= reply
            threats = winning_cells(theirs, mask | reply, board_mask, h1)  # we move next
        else:
            ours |= reply
            threats = winning_cells(ours, mask | reply, board_mask, h1)  # they move next
        mask |= reply
        plies += 1
        replies = non_losing_moves(threats, mask, board)
        reply = replies if replies & (replies - ONE) == ZERO else ZERO
    return (theirs if plies % 2 == 1 else ours), mask, plies


@njit(cache=True, nogil=True)
def table_key(position: Any, mask: Any, empty: int, board: Any, merge: bool = True) -> Any:
    """The table's key of a position with ``empty`` empty cells: :func:`canonical`'s,
    after, with ``merge`` (a search that has filled its table: see
    :data:`MERGE_AFTER`) and at least :data:`DEAD_LEFT` empty cells, the stones
    :func:`~._dead.dead_stones` gives the side to move are counted as its own. The
    merged key is the plain key of that recoloured position, which scores as the
    position does (every window a game can still use holds the same colours), so an
    entry stored under either key is a true bound for every position that looks it up."""
    if merge and empty >= DEAD_LEFT:
        position |= dead_stones(position, mask, board[H1], board[BOARD])
    return canonical(position + mask, empty, board)


@njit(cache=True, nogil=True)
def canonical(key: Any, empty: int, board: Any) -> Any:
    """The table's key of a position of key ``key`` with ``empty`` empty cells: the
    least of its key and its mirror image's where at least :data:`MIRROR_LEFT` cells
    are empty (a position and its mirror image score the same), else ``key``."""
    if empty < MIRROR_LEFT:
        return key
    width = np.int64(board[WIDTH])
    h1 = board[H1]
    column = (ONE << h1) - ONE
    mirrored = ZERO
    for c in range(width):
        mirrored |= ((key >> (h1 * np.uint64(c))) & column) << (h1 * np.uint64(width - 1 - c))
    return min(key, mirrored)


@njit(cache=True, nogil=True, inline="always")
def holds(key: Any, slot: Any, flagged: Any, code: int, b: Any) -> bool:
    """Whether ``slot``, whose value is ``code`` (not 0), holds the entry of ``key``:
    as its home slot (the key modulo the table's size; ``flagged`` 0) or as the other
    slot of the home's pair (``home ^ 1``, in the same cache line; ``flagged`` 1). Pons
    keeps only part of the key: the home slot (the key modulo a prime) and the kept low
    bits (``board[KEY_MASK]``) tell keys apart by the Chinese remainder theorem."""
    key_mask = b.board[KEY_MASK]
    flag = key_mask + ONE
    word = b.keys[slot] ^ seal(code)
    return (word & (key_mask | flag)) == (key & key_mask) | (flagged * flag)


@njit(cache=True, nogil=True, inline="always")
def probe(key: Any, home: Any, two_way: bool, most: int, b: Any, least: int = 1) -> int:
    """The table's value for ``key`` (0: none) if it is at least ``least`` and at most
    ``most`` (:data:`ANY_BOUND`: any value), whose home slot is ``home``; the other slot of the
    pair is read too for a node that keeps its entries in either (``two_way``, see
    :data:`TWO_WAY_LEFT`). The value is read first and the key only for a value
    wanted: the enhanced transposition cut-offs want only the few upper bounds that
    cut, and the search does not wait for the other children's keys."""
    code = np.int64(b.values[home])
    if least <= code <= most and holds(key, home, ZERO, code, b):
        return code
    other = home ^ ONE
    if two_way and other < b.size:
        code = np.int64(b.values[other])
        if least <= code <= most and holds(key, other, ONE, code, b):
            return code
    return 0


@njit(cache=True, nogil=True)
def work(slot: Any, code: int, shift: Any, b: Any) -> Any:
    """The cost of the search that wrote ``slot``'s entry, whose value ``store`` has
    read already (``code``), kept from bit ``shift`` of its key word (see
    :func:`store`); 0 for an empty slot."""
    if code == 0:
        return ZERO
    return (np.uint64(b.keys[slot]) ^ seal(code)) >> shift


@njit(cache=True, nogil=True)
def store(home: Any, key: Any, code: int, nodes: int, two_way: bool, b: Any) -> None:
    """Write the entry of ``key`` (home slot ``home``) that a search of ``nodes``
    nodes found. For a node that keeps its entries in either slot of the pair
    (``two_way``), as ``c4`` does: over the entry of the same key if the pair holds
    one, else over the one of the pair whose search cost fewer nodes. Another node's
    entry goes to its home slot, unless an entry of another key is there that cost more
    (see :data:`PROTECTED`): then it is not kept. A kept key word holds the key's low
    bits (``board[KEY_MASK]``), a flag set in the pair's other slot, and the cost (the
    bit length of ``nodes``, at most 31) in the 5 bits above; it is sealed with its
    value (see :func:`seal`). The slot is noted in the journal."""
    key_mask = b.board[KEY_MASK]
    flag = key_mask + ONE
    shift = np.uint64(64) - leading_zeros(flag)  # the cost's bits: above the flag
    cost = min(np.uint64(64) - leading_zeros(np.uint64(nodes) | ONE), np.uint64(31))
    slot, flagged = home, ZERO
    code_home = np.int64(b.values[home])
    if code_home == 0 or not holds(key, home, ZERO, code_home, b):  # not this key's
        other = home ^ ONE
        if not two_way:
            if work(home, code_home, shift, b) > max(cost, np.uint64(PROTECTED)):
                return  # a costlier entry of another key keeps the slot
        elif other < b.size:  # the last slot (the size is odd) has none
            code_other = np.int64(b.values[other])
            held = code_other != 0 and holds(key, other, ONE, code_other, b)
            if held or work(other, code_other, shift, b) < work(home, code_home, shift, b):
                slot, flagged = other, ONE
    b.keys[slot] = ((key & key_mask) | (flagged * flag) | (cost << shift)) ^ seal(code)
    b.values[slot] = code
    control = b.control
    length = control[JOURNAL_LENGTH]
    if JOURNAL + length < b.control_size:
        control[JOURNAL + length] = slot
    control[JOURNAL_LENGTH] = length + 1


@njit(cache=True, nogil=True)
def seal(code: Any) -> Any:
    """What a key is stored XORed with: its value ``code`` repeated in each byte of
    the low 32 bits. A reader accepts an entry whose key XOR the seal of its value is
    the key looked up, so an entry whose key and value were written by two different
    processes sharing the table (each writes a word at a time) is refused, unless
    ``k1 ^ k2 == seal(v1) ^ seal(v2)``: Hyatt's lockless hashing, as chess engines
    share tables between threads. Alone in a process, the check changes nothing."""
    return np.uint64(code) * np.uint64(0x01010101)


@njit(cache=True, nogil=True)
def c_half(value: int) -> int:
    """``value / 2`` truncated towards zero, as C divides (Pons' thresholds need it)."""
    return value // 2 if value >= 0 else -(-value // 2)


@njit(cache=True, nogil=True)
def threshold(low: int, high: int) -> int:
    """Pons' next null-window threshold for a score in ``[low, high]``: the middle,
    pulled towards zero's far side (``low / 2`` or ``high / 2``), where searches are
    cheap. The engine's ``pons_threshold`` (:mod:`plies.engine.solver`) is the same
    rule in Python; a test pins the two."""
    med = low + (high - low) // 2
    if med <= 0 and c_half(low) < med:
        return c_half(low)
    if med >= 0 and c_half(high) > med:
        return c_half(high)
    return med


#: The root's rule once Pons' threshold is known: ``_probes.narrowed_threshold``
#: compiled (its one home, which the cluster's split solve follows too).
narrowed = njit(cache=True, nogil=True)(narrowed_threshold)


@njit(cache=True, nogil=True)
def root_threshold(low: int, high: int) -> int:
    """The root's next null-window threshold for a score in ``[low, high]``: Pons'
    (:func:`threshold`) while the range is wide, then a walk from a draw, next to the
    last search's bound (:func:`narrowed`)."""
    return narrowed(low, high, threshold(low, high))


@njit(cache=True, nogil=True)
def solve_root(
    position: Any,
    mask: Any,
    moves: int,
    weak: bool,
    keys: Any,
    values: Any,
    board: Any,
    scratch: Any,
    control: Any,
) -> int:
    """Pons' solve: null-window searches narrowing [min, max] to the exact score
    (for ``weak``, [-1, 1]: only the sign), at :func:`root_threshold`'s thresholds."""
    cells = np.int64(board[CELLS])
    if can_win_next(position, mask, board):
        return (cells + 1 - moves) // 2
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    while low < high:
        med = root_threshold(low, high)
        score = negamax(position, mask, moves, med, med + 1, keys, values, board, scratch, control)
        if control[STOP] != 0:
            return 0
        if score <= med:
            high = score
        else:
            low = score
    return low


@njit(cache=True, nogil=True)
def reaches(
    position: Any,
    mask: Any,
    moves: int,
    move: Any,
    target: int,
    keys: Any,
    values: Any,
    board: Any,
    scratch: Any,
    control: Any,
) -> bool:
    """Whether playing ``move`` (a landing cell) scores at least ``target``: one
    null-window search of the child, whose score is the negation of the move's."""
    cells = np.int64(board[CELLS])
    if (wins_of(position, mask, board) & move) != ZERO:
        return (cells + 1 - moves) // 2 >= target  # a win at once
    child, child_mask = position ^ mask, mask | move
    if can_win_next(child, child_mask, board):
        score = (cells - moves) // 2  # the opponent wins at once
    else:
        score = negamax(
            child, child_mask, moves + 1, -target, -target + 1,
            keys, values, board, scratch, control,
        )  # fmt: skip
    return -score >= target


@njit(cache=True, nogil=True)
def best_moves(
    position: Any,
    mask: Any,
    moves: int,
    target: int,
    first_only: bool,
    found: Any,
    keys: Any,
    values: Any,
    board: Any,
    scratch: Any,
    control: Any,
) -> int:
    """The moves scoring at least ``target``, in Pons' order (most threats first,
    centre first among equals), as landing cells in ``found``; returns how many."""
    # The searches of the children use the rows after this one only.
    count = sort_moves(position, mask, possible(mask, board), board, scratch, moves)
    total = 0
    for i in range(count - 1, -1, -1):
        move = scratch[moves, i]
        if reaches(position, mask, moves, move, target, keys, values, board, scratch, control):
            found[total] = move
            total += 1
            if first_only:
                break
        if control[STOP] != 0:
            return 0
    return total


@njit(cache=True, nogil=True)
def principal_line(
    position: Any,
    mask: Any,
    moves: int,
    score: int,
    line: Any,
    keys: Any,
    values: Any,
    board: Any,
    scratch: Any,
    control: Any,
) -> int:
    """An optimal line from a position of exact ``score`` to the end of the game: at
    each step the first move (in Pons' order) that keeps the score; returns its length."""
    cells = np.int64(board[CELLS])
    found = np.zeros(1, np.uint64)
    length = 0
    while moves < cells:
        if (
            best_moves(
                position, mask, moves, score, True, found, keys, values, board, scratch, control
            )
            == 0
        ):
            return length  # stopped (control[STOP]) or no move: cannot happen
        move = found[0]
        line[length] = move
        length += 1
        if (wins_of(position, mask, board) & move) != ZERO:
            return length
        position, mask = position ^ mask, mask | move
        moves += 1
        score = -score
    return length
