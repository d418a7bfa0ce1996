"""The native port of English draughts (:mod:`plies.games.checkers`).

**State.** ``[black, white, kings, player, quiet]``: the Python state's fields, the
bitboards with their ghost bits as in :mod:`plies.games.checkers`.

**Moves.** A step is ``k * 4 + d`` (``k = square - 1``, ``d`` the index of its shift
in :data:`SHIFTS`: +4, +5, -4, -5). A capture is ``STEPS + n``, ``n`` a node of the
*jump trie*: every sequence of jumps a piece could make on an empty board (a start
square, then a direction per jump, no square jumped twice; 1,328 sequences of 1 to 9
jumps), numbered once, in the order of a depth-first walk. A node knows its parent,
the square jumped and the square landed on, so an id decodes to the exact path (the
Python move) by walking up, with no position needed, and ``move_space`` is
``STEPS + 1,328`` (the history table is that small). Two king paths that start and
end on the same squares and take the same pieces are one move in the Python game (the
first found is listed); the port lists the same one, since it walks the same
directions in the same order.

**Constants.** ``[draw_plies, the trie...]``: for each bit index and direction the
trie node of the first jump (-1: off the board), then per node the landing bit, the
jumped bit, the parent node (-1 for a first jump), the start bit, and per direction
the node of the next jump (-1: none). Offsets are module constants.

**Rules.** ``legal_moves`` walks the trie with an explicit stack (the next direction
of each level, 3 bits apiece in one int64; the levels' nodes are the parents of the
current node), in the Python order: jumping pieces in square order, for each the
sequences depth first, directions in the Python table's order; else the steps in
square order, targets in square order. ``evaluate`` is the Python evaluate, term for
term; ``order_moves`` and ``quiescence_moves`` the Python hooks (a stable sort on the
same keys). ``key`` mixes the three bitboards, the side to move and the draw count (the
Python key's fields, more than 64 bits) with splitmix64's finaliser: distinct
positions share a key with a chance near 2**-64 per pair; the conformance suite checks
no two positions it meets do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine import native
from plies.engine.native import (
    NativeGame,
    Prepared,
    helper,
    int64_array,
    rule,
)
from plies.games.checkers._rules import (
    _BOARD,
    _CENTRE,
    _CROWN,
    _HOME,
    _SQUARE_OF,
    Checkers,
    CheckersMove,
    CheckersState,
    square_bit,
)

__all__ = ["STEPS", "CheckersNative", "perft"]

#: The diagonal shifts of a bit index, in the order of the Python jump tables.
SHIFTS = (4, 5, -4, -5)
#: Move ids below this are steps (``k * 4 + d``); captures follow.
STEPS = 32 * 4

BOARD = _BOARD
CROWN_BLACK, CROWN_WHITE = _CROWN
HOME_BLACK, HOME_WHITE = _HOME
CENTRE = _CENTRE


def _build_trie() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    """``(first jump per bit and direction, land, over, parent, start, children)``."""
    first = [-1] * (35 * 4)
    land: list[int] = []
    over: list[int] = []
    parent: list[int] = []
    start: list[int] = []
    children: list[int] = []

    def grow(at: int, node: int, origin: int, jumped: int) -> None:
        for d, shift in enumerate(SHIFTS):
            middle, target = at + shift, at + 2 * shift
            if not (0 <= target < 35 and BOARD >> middle & 1 and BOARD >> target & 1):
                continue
            if jumped >> middle & 1:
                continue
            child = len(land)
            land.append(target)
            over.append(middle)
            parent.append(node)
            start.append(origin)
            children.extend([-1] * 4)
            if node < 0:
                first[at * 4 + d] = child
            else:
                children[node * 4 + d] = child
            grow(target, child, origin, jumped | 1 << middle)

    for square in range(1, 33):
        bit = square_bit(square)
        grow(bit, -1, bit, 0)
    return first, land, over, parent, start, children


_FIRST, _LAND, _OVER, _PARENT, _START, _CHILDREN = _build_trie()
#: Nodes of the jump trie (capture ids are ``STEPS + node``).
NODES = len(_LAND)
# Offsets in the constants.
FIRST = 1
LAND = FIRST + 35 * 4
OVER = LAND + NODES
PARENT = OVER + NODES
START = PARENT + NODES
CHILD = START + NODES

_TRIE = int64_array([*_FIRST, *_LAND, *_OVER, *_PARENT, *_START, *_CHILDREN])


def _path_of(move: int) -> CheckersMove:
    """The Python move of a move id."""
    if move < STEPS:
        k, d = divmod(move, 4)
        target = k + k // 8 + SHIFTS[d]
        return (k + 1, _SQUARE_OF[target] if 0 <= target < 35 else 0)  # 0: off the board
    node = move - STEPS
    squares = []
    while node >= 0:
        squares.append(_SQUARE_OF[_LAND[node]])
        origin = _START[node]
        node = _PARENT[node]
    squares.append(_SQUARE_OF[origin])
    return tuple(reversed(squares))


#: Every move id's Python move, and back.
_PATHS = [_path_of(move) for move in range(STEPS + NODES)]
_IDS = {path: move for move, path in enumerate(_PATHS) if path[-1] != 0}


@helper(inline=True)
def lowest_bit(x: Any) -> int:
    """The index of the lowest set bit of ``x`` (non-zero): one instruction."""
    return native.trailing_zeros(x)


@helper(inline=True)
def jumpers(men: Any, kings: Any, opponent: Any, empty: Any, player: int) -> Any:
    """The pieces of ``player`` that can capture something (Python ``_jumpers``)."""
    both = men | kings
    if player == 0:
        found = both & (opponent >> 4) & (empty >> 8)
        found |= kings & (opponent << 4) & (empty << 8)
        found |= both & (opponent >> 5) & (empty >> 10)
        found |= kings & (opponent << 5) & (empty << 10)
    else:
        found = both & (opponent << 4) & (empty << 8)
        found |= kings & (opponent >> 4) & (empty >> 8)
        found |= both & (opponent << 5) & (empty << 10)
        found |= kings & (opponent >> 5) & (empty >> 10)
    return found


@helper(inline=True)
def step_count(men: Any, kings: Any, empty: Any, player: int) -> int:
    """The steps (not jumps) the pieces could make (Python ``_mobility``)."""
    forward = men | kings
    if player == 0:
        return (
            native.popcount(forward << 4 & empty)
            + native.popcount(forward << 5 & empty)
            + native.popcount(kings >> 4 & empty)
            + native.popcount(kings >> 5 & empty)
        )
    return (
        native.popcount(forward >> 4 & empty)
        + native.popcount(forward >> 5 & empty)
        + native.popcount(kings << 4 & empty)
        + native.popcount(kings << 5 & empty)
    )


@helper(inline=True)
def sides(state: Any) -> Any:
    """``(own, opponent, own kings, own men, empty)`` for the side to move."""
    if state[3] == 0:
        own, opponent = state[0], state[1]
    else:
        own, opponent = state[1], state[0]
    kings = own & state[2]
    return own, opponent, kings, own ^ kings, BOARD & ~(state[0] | state[1])


@helper(inline=True)
def has_move(state: Any) -> bool:
    """Whether the side to move has a legal move (the draw count aside)."""
    _, opponent, kings, men, empty = sides(state)
    player = state[3]
    if jumpers(men, kings, opponent, empty, player) != 0:
        return True
    return step_count(men, kings, empty, player) != 0


@helper()
def captured_of(consts: Any, node: int) -> Any:
    """The bits jumped by the trie path ending at ``node``."""
    captured = np.int64(0)
    while node >= 0:
        captured |= np.int64(1) << consts[OVER + node]
        node = consts[PARENT + node]
    return captured


@helper()
def add_capture(consts: Any, out: Any, first: int, count: int, node: int, captured: Any) -> int:
    """Append the capture ending at ``node`` unless a move of this piece (from
    ``out[first]`` on) already ends on its square taking the same pieces; the count."""
    land = consts[LAND + node]
    for i in range(first, count):
        other = out[i] - STEPS
        if consts[LAND + other] == land and captured_of(consts, other) == captured:
            return count
    out[count] = STEPS + node
    return count + 1


@helper()
def generate(consts: Any, state: Any, out: Any) -> int:
    """Every legal move of the side to move into ``out`` (the draw count aside)."""
    _, opponent, kings, men, empty = sides(state)
    player = state[3]
    count = 0
    pieces = jumpers(men, kings, opponent, empty, player)
    if pieces != 0:
        crown = CROWN_BLACK if player == 0 else CROWN_WHITE
        while pieces != 0:
            bit = lowest_bit(pieces)
            pieces &= pieces - 1
            free = empty | (np.int64(1) << bit)
            if (kings >> bit) & 1:
                low, high, crowns = 0, 4, np.int64(0)
            elif player == 0:
                low, high, crowns = 0, 2, crown
            else:
                low, high, crowns = 2, 4, crown
            first = count
            node = -1
            at = bit
            left = opponent  # opponent pieces not jumped yet
            captured = np.int64(0)
            stack = np.int64(0)  # the next direction of each level below, 3 bits apiece
            d = low
            ended = True
            while True:
                if d < high:
                    child = consts[FIRST + at * 4 + d] if node < 0 else consts[CHILD + node * 4 + d]
                    d += 1
                    if child < 0:
                        continue
                    over, land = consts[OVER + child], consts[LAND + child]
                    if (left >> over) & 1 and (free >> land) & 1:
                        ended = False
                        gone = captured | (np.int64(1) << over)
                        if (crowns >> land) & 1:  # a man is crowned: the move ends
                            count = add_capture(consts, out, first, count, child, gone)
                        else:
                            stack = (stack << 3) | d
                            node, at, captured = child, land, gone
                            left ^= np.int64(1) << over
                            d = low
                            ended = True
                    continue
                if node < 0:
                    break
                if ended:
                    count = add_capture(consts, out, first, count, node, captured)
                over = np.int64(1) << consts[OVER + node]
                captured ^= over
                left ^= over
                node = consts[PARENT + node]
                at = bit if node < 0 else consts[LAND + node]
                d = stack & 7
                stack >>= 3
                ended = False
        return count
    own = men | kings
    while own != 0:
        bit = lowest_bit(own)
        own &= own - 1
        k = bit - bit // 9
        if (kings >> bit) & 1:  # targets in square order: -5, -4, +4, +5
            for d in (3, 2, 0, 1):
                target = bit + SHIFTS[d]
                if 0 <= target < 35 and (empty >> target) & 1:
                    out[count] = k * 4 + d
                    count += 1
        elif player == 0:
            for d in (0, 1):
                target = bit + SHIFTS[d]
                if target < 35 and (empty >> target) & 1:
                    out[count] = k * 4 + d
                    count += 1
        else:
            for d in (3, 2):
                target = bit + SHIFTS[d]
                if target >= 0 and (empty >> target) & 1:
                    out[count] = k * 4 + d
                    count += 1
    return count


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """The captures if there is one, else the steps, in the Python order; none once
    the draw count has run out."""
    if state[4] >= consts[0]:
        return 0
    return generate(consts, state, out)


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Move the piece, remove what it jumped, crown a man, count quiet plies."""
    if move < STEPS:
        k = move // 4
        start = k + k // 8
        end = start + SHIFTS[move % 4]
        captured = np.int64(0)
    else:
        node = move - STEPS
        start = consts[START + node]
        end = consts[LAND + node]
        captured = captured_of(consts, node)
    black, white, kings, player, quiet = state[0], state[1], state[2], state[3], state[4]
    start_mask = np.int64(1) << start
    end_mask = np.int64(1) << end
    moved = start_mask | end_mask if start != end else np.int64(0)
    if kings & start_mask:
        kings ^= moved
        quiet = 0 if captured != 0 else quiet + 1
    else:
        kings |= end_mask & (CROWN_BLACK if player == 0 else CROWN_WHITE)
        quiet = 0
    kings &= ~captured
    if player == 0:
        child[0], child[1] = black ^ moved, white & ~captured
    else:
        child[0], child[1] = black & ~captured, white ^ moved
    child[2], child[3], child[4] = kings, 1 - player, quiet


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """-1 for the side to move with no move, 0 once the draw count has run out."""
    if not has_move(state):
        return -1.0
    if state[4] >= consts[0]:
        return 0.0
    return np.nan


@helper(inline=True)
def column(bit: int) -> int:
    """The column (0-7 from the left) of a bit index."""
    k = bit - bit // 9
    return 2 * (k % 4) + (1 if (k // 4) % 2 == 0 else 0)


@helper(inline=True)
def row(bit: int) -> int:
    """The row (0: squares 1-4) of a bit index."""
    return (bit - bit // 9) // 4


@helper()
def chase(own: Any, other: Any, kings: Any, stronger: int) -> int:
    """Black's view of the stronger side's kings closing on the other side's pieces
    (Python ``Checkers._chase``)."""
    own_kings = own & kings
    if own_kings == 0 or other == 0:
        return 0
    distance = 0
    walk = own_kings
    while walk != 0:
        bit = lowest_bit(walk)
        walk &= walk - 1
        r, c = row(bit), column(bit)
        nearest = 99
        targets = other
        while targets != 0:
            t = lowest_bit(targets)
            targets &= targets - 1
            gap = max(abs(r - row(t)), abs(c - column(t)))
            nearest = min(nearest, gap)
        distance += nearest
    bonus = -3 * distance
    return bonus if stronger == 0 else -bonus


@rule("evaluate")
def evaluate(consts: Any, state: Any) -> float:
    """The Python evaluate for the side to move, term for term."""
    black, white, kings = state[0], state[1], state[2]
    empty = BOARD & ~(black | white)
    score = 0
    material_black = 0
    material_white = 0
    for side in range(2):
        if side == 0:
            own, other, home = black, white, HOME_BLACK
        else:
            own, other, home = white, black, HOME_WHITE
        own_kings = own & kings
        men = own ^ own_kings
        count = native.popcount(men)
        value = 100 * count + 140 * native.popcount(own_kings)
        if side == 0:
            material_black = value
        else:
            material_white = value
        rows = 0
        walk = men
        while walk != 0:
            rows += row(lowest_bit(walk))
            walk &= walk - 1
        advance = 3 * (rows if side == 0 else 7 * count - rows)
        if other & ~kings:
            value += 8 * native.popcount(men & home)
        value += advance + 10 * native.popcount(own_kings & CENTRE)
        value += 2 * step_count(men, own_kings, empty, side)
        score += value if side == 0 else -value
    lead = material_black - material_white
    if lead != 0:
        score += int(300 * lead / (material_black + material_white))
        if lead > 0:
            score += chase(black, white, kings, 0)
        else:
            score += chase(white, black, kings, 1)
    return float(score if state[3] == 0 else -score)


@helper(inline=True)
def mix(h: Any) -> Any:
    """splitmix64's finaliser."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@rule("key")
def key(consts: Any, state: Any) -> np.uint64:
    """A 64-bit mix of the bitboards, the side to move and the draw count."""
    h = mix(np.uint64(state[0]) + np.uint64(0x9E3779B97F4A7C15))
    h = mix(h ^ np.uint64(state[1]))
    h = mix(h ^ np.uint64(state[2]))
    return mix(h ^ np.uint64(state[4] * 2 + state[3]))


@helper()
def sort_by_keys(consts: Any, state: Any, moves: Any, count: int) -> None:
    """The Python ``order_moves``: captures taking most (length, then kings taken)
    first; crowning man steps, then man steps, then king steps; stable."""
    if count < 2:
        return
    kings = state[2]
    jumps = moves[0] >= STEPS
    crown = CROWN_BLACK if state[3] == 0 else CROWN_WHITE
    # Each entry becomes (rank, index, move) packed in one int64 and sorted: stable.
    for i in range(count):
        move = moves[i]
        if jumps:
            node = move - STEPS
            length = 1
            walk = node
            while walk >= 0:
                length += 1
                walk = consts[PARENT + walk]
            rank = 64 - (2 * length + native.popcount(captured_of(consts, node) & kings))
        else:
            k = move // 4
            start = k + k // 8
            target = start + SHIFTS[move % 4]
            if (kings >> start) & 1:
                rank = 2
            elif (crown >> target) & 1:
                rank = 0
            else:
                rank = 1
        moves[i] = (rank << 24) | (i << 12) | move
    for i in range(1, count):
        entry = moves[i]
        j = i
        while j > 0 and moves[j - 1] > entry:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = entry
    for i in range(count):
        moves[i] &= 0xFFF


@rule("order_moves")
def order_moves(consts: Any, state: Any, moves: Any, count: int) -> None:
    """The Python ``order_moves`` hook."""
    sort_by_keys(consts, state, moves, count)


@rule("quiescence_moves")
def quiescence_moves(consts: Any, state: Any, out: Any) -> int:
    """The captures, ordered, when the side to move must capture; else none."""
    if state[4] >= consts[0]:
        return 0
    _, opponent, kings, men, empty = sides(state)
    if jumpers(men, kings, opponent, empty, state[3]) == 0:
        return 0  # no capture: the steps are not listed at all
    count = generate(consts, state, out)
    if count == 0 or out[0] < STEPS:
        return 0
    sort_by_keys(consts, state, out, count)
    return count


@helper()
def perft(rules: Any, consts: Any, states: Any, moves: Any, ply: int, depth: int) -> int:
    """Leaves ``depth`` plies below ``states[ply]`` through the rules (the last ply
    counted, not played); ``states`` and ``moves`` have ``ply + depth + 1`` rows."""
    count = native.call_legal_moves(
        rules, native.ptr(consts), native.ptr(states[ply]), native.ptr(moves[ply])
    )
    if depth <= 1:
        return count
    leaves = 0
    for i in range(count):
        native.call_play(
            rules,
            native.ptr(consts),
            native.ptr(states[ply]),
            moves[ply, i],
            native.ptr(states[ply + 1]),
        )
        leaves += perft(rules, consts, states, moves, ply + 1, depth - 1)
    return leaves


#: Trie nodes reachable from a start, largest first: the most captures ``n`` pieces
#: can have between them is the sum of the first ``n``.
_REACH = sorted((sum(1 for s in _START if s == square_bit(q)) for q in range(1, 33)), reverse=True)


class CheckersNative(NativeGame[CheckersState, CheckersMove]):
    """The adapter of :class:`~plies.games.checkers.Checkers`."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    key = key
    order_moves = order_moves
    quiescence_moves = quiescence_moves

    def __init__(self, game: Checkers) -> None:
        self.game = game
        self._consts = int64_array([game.draw_plies, *_TRIE])

    def prepare(self, state: CheckersState) -> Prepared:
        """The constants and the state; the sizes from the pieces on the board.

        Moves: the most the side with more pieces could have (4 steps a piece, or the
        trie nodes its pieces reach). Plies: the game ends within ``draw_plies`` quiet
        plies of each capture or man's move, of which there are at most one per piece
        and one per row a man has left to go; quiescence adds a capture per piece."""
        black, white, kings = state.black, state.white, state.kings
        pieces = max(black.bit_count(), white.bit_count())
        max_moves = max(4 * pieces, sum(_REACH[:pieces]), 1)
        to_go = 0
        for side, men in ((0, black & ~kings), (1, white & ~kings)):
            for bit in range(35):
                if men >> bit & 1:
                    r = (bit - bit // 9) // 4
                    to_go += 7 - r if side == 0 else r
        resets = (black | white).bit_count() + to_go
        draw = self.game.draw_plies
        max_plies = max(draw - state.quiet, 0) + resets * (draw + 1)
        prepared = Prepared(self._consts, None, max_moves=max_moves, max_plies=max_plies,
                            move_space=STEPS + NODES,
                            quiescence_plies=(black | white).bit_count())  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode(self, prepared: Prepared, state: CheckersState) -> Any:
        """``[black, white, kings, player, quiet]``."""
        return int64_array(list(state))

    def encode_move(self, prepared: Prepared, move: CheckersMove) -> int:
        """The step's ``k * 4 + d`` or the capture's ``STEPS`` + trie node."""
        return _IDS[tuple(move)]

    def decode_move(self, prepared: Prepared, move: int) -> CheckersMove:
        """The squares of the path."""
        return _PATHS[move]
