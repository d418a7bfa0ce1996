"""Connect Four's rules in the native game protocol, for every board size.

The rules mirror :class:`plies.games.connect4.Connect4` step for step (the same
legal-move order, evaluation, threat-count ordering, winning and forced moves), so the
compiled search visits the nodes the Python engine visits. Three layouts, chosen per
board (``consts[FITS]``, ``consts[PACKED]``):

* **one word** (``(height + 1) * width <= 64``, e.g. 7 x 6 or 8 x 7): the Python
  game's own bitboards (Tromp's and Pons' column layout) as one int64 each; the state
  is ``[ply, won, position, mask]``, the key ``position + mask`` as in Python;
* **packed word** (``height * width <= 64``, e.g. 9 x 7 or 8 x 8): the same without
  the sentinel row (``height`` bits a column), the same state; the shifted boards
  that could wrap from a column's top into the next one are masked (see ``word_``
  below). ``position + mask`` is no longer unique (a full column carries into the
  next), so the key is a 64-bit mix, as in the rows layout. (The rows layout took
  these boards before: 3.75 M nodes/s on the 9 x 7 benchmark; see
  ``benchmarks/native_games.py``.)
* **rows** (larger boards, up to 16 x 16): one int per row (bit ``c`` for column
  ``c``), the state ``[ply, won, score, heights..., position rows..., mask rows...]``
  where ``score`` is the side to move's cell weights minus the opponent's (kept up to
  date by ``play``). The Python key (``position + mask``, up to 272 bits) does not fit;
  the key is a 64-bit mix of the rows (a multiply-xorshift per row, then the
  finaliser of SplitMix64), equal for equal positions and, for different ones, equal
  with a chance of about 2**-64.

A move is the 1-based column, as in Python. The constants are :data:`HEADER` values
then the columns centre first, per column its bottom cell, top cell and column mask
(one-word layout), the five weight-digit masks (one word) and the cell weights by row
(rows layout).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine import native
from plies.engine.native import NativeGame, Prepared, helper, int64_array, rule
from plies.games.connect4._rules import Connect4, Connect4State

__all__ = ["Connect4Native"]

# consts: the header.
FITS, WIDTH, HEIGHT, STRIDE, SIZE, BOTTOM_MASK, BOARD_MASK, PACKED, ROW_MASK = range(9)
#: Word layouts: three masks each of the cells with at least 1, 2, 3 cells below them
#: in their column (``consts[BELOW + k - 1]``), then of those with 1, 2, 3 above.
BELOW, ABOVE = 9, 12
HEADER = 16
# state: ply and won in both layouts; then the bitboards, or the rows layout's fields.
PLY, WON, POSITION, MASK = 0, 1, 2, 3
SCORE, HEIGHTS = 2, 3

U0 = np.uint64(0)
U1 = np.uint64(1)


# -- one word ---------------------------------------------------------------------
# Cell (column c, row r) is bit ``c * stride + r``. A step along a line is a shift:
# ``stride`` to the next column, 1 up, ``stride + 1`` and ``stride - 1`` diagonally.
# With Python's sentinel row (stride = height + 1) a shifted line never wraps into the
# next column; in the packed layout (stride = height) a vertical or diagonal step off
# the top or bottom row lands in another column, so every such shifted board keeps only
# the cells whose line really has that many cells below or above them (the BELOW and
# ABOVE masks; the sentinel layout skips them, as Python does).


@helper(inline=True)
def sentinel_line_ends(p: Any, h1: Any) -> Any:
    """:func:`word_line_ends` with the sentinel row: nothing wraps, nothing to mask
    (the masks cost the 7 x 6 search 10-30% more time)."""
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    result = (p << one) & (p << two) & (p << three)
    for shift in (h1, h1 + one, h1 - one):
        left = p << shift
        right = p >> shift
        result |= (left & (p << (two * shift)) & ((p << (three * shift)) | right)) | (
            right & (p >> (two * shift)) & (left | (p >> (three * shift)))
        )
    return result


@helper(inline=True)
def word_line_ends(consts: Any, p: Any) -> Any:
    """Cells on a four with three stones of ``p`` (``Connect4._line_ends``): in each
    direction, two stones on one side and a third beyond them or on the other side."""
    stride = np.uint64(consts[STRIDE])
    if consts[PACKED] == 0:
        return sentinel_line_ends(p, stride)
    b1, b2 = np.uint64(consts[BELOW]), np.uint64(consts[BELOW + 1])
    b3 = np.uint64(consts[BELOW + 2])
    a1, a2 = np.uint64(consts[ABOVE]), np.uint64(consts[ABOVE + 1])
    a3 = np.uint64(consts[ABOVE + 2])
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    result = (p << one) & (p << two) & (p << three) & b3
    s = stride  # across: no row changes, nothing to mask
    left1, left2, left3 = p << s, p << (two * s), p << (three * s)
    right1, right2, right3 = p >> s, p >> (two * s), p >> (three * s)
    result |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (left1 | right3))
    s = stride + one  # up and right: the cells to the left lie lower
    left1, left2, left3 = (p << s) & b1, (p << (two * s)) & b2, (p << (three * s)) & b3
    right1, right2, right3 = (p >> s) & a1, (p >> (two * s)) & a2, (p >> (three * s)) & a3
    result |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (left1 | right3))
    s = stride - one  # down and right: the cells to the left lie higher
    left1, left2, left3 = (p << s) & a1, (p << (two * s)) & a2, (p << (three * s)) & a3
    right1, right2, right3 = (p >> s) & b1, (p >> (two * s)) & b2, (p >> (three * s)) & b3
    result |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (left1 | right3))
    return result


@helper(inline=True)
def word_wins(consts: Any, stones: Any, mask: Any) -> Any:
    """Empty cells that would complete four for ``stones`` (``winning_cells``)."""
    return word_line_ends(consts, stones) & (np.uint64(consts[BOARD_MASK]) ^ mask)


@helper(inline=True)
def word_playable(consts: Any, mask: Any) -> Any:
    """The landing cells, one per column not full (``playable_cells``): the empty
    cells of the bottom row or on a stone (a stone on top of a column shifts onto the
    bottom of the next, which is in the bottom row anyway)."""
    return ((mask << U1) | np.uint64(consts[BOTTOM_MASK])) & ~mask & np.uint64(consts[BOARD_MASK])


@helper(inline=True)
def word_four(consts: Any, stones: Any) -> bool:
    """Whether ``stones`` hold four in a row: per direction, the cells that start one
    (those with three cells of the line above them: the ABOVE masks)."""
    stride = np.uint64(consts[STRIDE])
    if consts[PACKED] == 0:  # the sentinel row: nothing to mask
        for shift in (U1, stride, stride + U1, stride - U1):
            m = stones & (stones >> shift)
            if m & (m >> (shift + shift)):
                return True
        return False
    up3 = np.uint64(consts[ABOVE + 2])
    m = stones & (stones >> U1)
    if m & (m >> np.uint64(2)) & up3:
        return True
    m = stones & (stones >> stride)
    if m & (m >> (stride + stride)):
        return True
    s = stride + U1
    m = stones & (stones >> s)
    if m & (m >> (s + s)) & up3:
        return True
    s = stride - U1
    m = stones & (stones >> s)
    return bool(m & (m >> (s + s)) & np.uint64(consts[BELOW + 2]) != U0)


@helper(inline=True)
def word_column(cell: Any, stride: int) -> int:
    """The 1-based column of the lowest set bit of ``cell`` (non-zero)."""
    return int(native.trailing_zeros(cell)) // stride + 1


@helper(inline=True)
def word_key(consts: Any, position: Any, mask: Any) -> Any:
    """``position + mask`` with the sentinel row (Python's key). Packed, a 64-bit mix:
    the mask's multiply-xorshift, xor the position, then SplitMix64's finaliser; equal
    for equal positions, never equal for two positions with one mask (both steps
    are bijections), equal for others with a chance of about 2**-64."""
    if consts[PACKED] == 0:
        return position + mask
    h = mask * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    h ^= position
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


# -- rows -------------------------------------------------------------------------
# The stones of a side are rows at ``state[base:]``, xor the rows at ``state[xor_at:]``
# when ``xor_at >= 0`` (the side that just moved: position ^ mask), plus ``extra`` bits
# in row ``extra_row`` (a stone being tried).


@helper(inline=True)
def row_at(  # noqa: PLR0917
    state: Any, base: int, xor_at: int, r: int, height: int, extra_row: int, extra: int
) -> int:
    """Row ``r`` of a side's stones (0 off the board)."""
    if r < 0 or r >= height:
        return 0
    value = state[base + r]
    if xor_at >= 0:
        value ^= state[xor_at + r]
    if r == extra_row:
        value |= extra
    return value  # type: ignore[no-any-return]


@helper(inline=True)
def _ends(  # noqa: PLR0917
    l1: int, l2: int, l3: int, r1: int, r2: int, r3: int
) -> int:
    """Cells with stones 1, 2 (and 3, or 1 on the other side) columns to the left in
    rows ``l1..l3``, or likewise to the right in rows ``r1..r3``."""
    left1, left2, left3 = l1 << 1, l2 << 2, l3 << 3
    right1, right2, right3 = r1 >> 1, r2 >> 2, r3 >> 3
    return (left1 & left2 & (left3 | right1)) | (right1 & right2 & (left1 | right3))


@helper(inline=True)
def rows_base(consts: Any) -> int:
    """Where the position rows start in a rows-layout state."""
    return HEIGHTS + consts[WIDTH]  # type: ignore[no-any-return]


@helper(inline=True)
def _ends7(  # noqa: PLR0917
    b3: int, b2: int, b1: int, s: int, a1: int, a2: int, a3: int
) -> int:
    """Cells of row ``s`` on a four with three stones of a side, from the side's
    row ``s``, the three below and the three above: per direction, two stones on one
    side and a third beyond them or on the other side (the rows form of
    ``Connect4._line_ends``). Bits may pass the board's width."""
    result = b1 & b2 & b3
    result |= _ends(s, s, s, s, s, s)
    result |= _ends(b1, b2, b3, a1, a2, a3)
    return result | _ends(a1, a2, a3, b1, b2, b3)


@helper(inline=True)
def wins_count(consts: Any, state: Any, opponent: bool, extra_row: int, extra: int) -> Any:
    """``(number of winning cells, those playable now as row bits)`` of the side to
    move (plus ``extra``) or the side that just moved, one pass over the rows (a
    window of seven slides up the board, and stops above the side's reach)."""
    height, row_mask = consts[HEIGHT], consts[ROW_MASK]
    base = rows_base(consts)
    mask_at = base + height
    xor_at = mask_at if opponent else -1
    b3, b2, b1 = 0, 0, 0
    s = row_at(state, base, xor_at, 0, height, extra_row, extra)
    a1 = row_at(state, base, xor_at, 1, height, extra_row, extra)
    a2 = row_at(state, base, xor_at, 2, height, extra_row, extra)
    a3 = row_at(state, base, xor_at, 3, height, extra_row, extra)
    count = 0
    playable_wins = 0
    below = row_mask  # the mask row under this one (the floor under row 0)
    for r in range(height):
        mask = state[mask_at + r]
        if r == extra_row:
            mask |= extra
        if mask == 0 and b1 | b2 | b3 == 0:
            break  # this row and those above are empty, the three below hold none
        wins = _ends7(b3, b2, b1, s, a1, a2, a3) & (row_mask ^ mask)
        count += native.popcount(wins)
        playable_wins |= wins & below & ~state[mask_at + r]
        below = state[mask_at + r]
        b3, b2, b1, s, a1, a2 = b2, b1, s, a1, a2, a3
        a3 = row_at(state, base, xor_at, r + 4, height, extra_row, extra)
    return count, playable_wins


@helper(inline=True)
def evaluation_counts(consts: Any, state: Any) -> Any:
    """``(own winning cells, own playable wins as row bits, the opponent's winning
    cells)``: :func:`wins_count` of both sides in one pass."""
    height, row_mask = consts[HEIGHT], consts[ROW_MASK]
    base = rows_base(consts)
    mask_at = base + height
    b3, b2, b1 = 0, 0, 0
    s = row_at(state, base, -1, 0, height, -1, 0)
    a1 = row_at(state, base, -1, 1, height, -1, 0)
    a2 = row_at(state, base, -1, 2, height, -1, 0)
    a3 = row_at(state, base, -1, 3, height, -1, 0)
    o3, o2, o1 = 0, 0, 0
    t = row_at(state, base, mask_at, 0, height, -1, 0)
    c1 = row_at(state, base, mask_at, 1, height, -1, 0)
    c2 = row_at(state, base, mask_at, 2, height, -1, 0)
    c3 = row_at(state, base, mask_at, 3, height, -1, 0)
    own = 0
    theirs = 0
    playable_wins = 0
    below = row_mask
    for r in range(height):
        mask = state[mask_at + r]
        if mask == 0 and b1 | b2 | b3 | o1 | o2 | o3 == 0:
            break  # this row and those above are empty, the three below hold none
        empty = row_mask ^ mask
        wins = _ends7(b3, b2, b1, s, a1, a2, a3) & empty
        own += native.popcount(wins)
        playable_wins |= wins & below
        theirs += native.popcount(_ends7(o3, o2, o1, t, c1, c2, c3) & empty)
        below = mask
        b3, b2, b1, s, a1, a2 = b2, b1, s, a1, a2, a3
        a3 = row_at(state, base, -1, r + 4, height, -1, 0)
        o3, o2, o1, t, c1, c2 = o2, o1, t, c1, c2, c3
        c3 = row_at(state, base, mask_at, r + 4, height, -1, 0)
    return own, playable_wins, theirs


@helper(inline=True)
def mover_four_at(consts: Any, state: Any, r: int, c: int) -> bool:
    """Whether the side that just moved in ``state`` holds a four through (r, c)."""
    height, width = consts[HEIGHT], consts[WIDTH]
    base = rows_base(consts)
    mask_at = base + height
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            for k in range(1, 4):
                cc, rr = c + sign * k * dc, r + sign * k * dr
                if cc < 0 or cc >= width or rr < 0 or rr >= height:
                    break
                if ((state[base + rr] ^ state[mask_at + rr]) >> cc) & 1 == 0:
                    break
                run += 1
        if run >= 4:
            return True
    return False


# -- the rules --------------------------------------------------------------------


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """The columns not full, centre first; none once the game is won."""
    if state[WON] != 0:
        return 0
    width = consts[WIDTH]
    count = 0
    if consts[FITS] != 0:
        mask = state[MASK]
        for i in range(width):
            column = consts[HEADER + i]
            if mask & consts[HEADER + 2 * width + column - 1] == 0:
                out[count] = column
                count += 1
        return count
    height = consts[HEIGHT]
    for i in range(width):
        column = consts[HEADER + i]
        if state[HEIGHTS + column - 1] < height:
            out[count] = column
            count += 1
    return count


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Drop a stone in column ``move``; the turn passes; note a four."""
    child[PLY] = state[PLY] + 1
    if consts[FITS] != 0:
        position, mask = np.uint64(state[POSITION]), np.uint64(state[MASK])
        new_mask = mask | (mask + np.uint64(consts[HEADER + consts[WIDTH] + move - 1]))
        stones = position | (new_mask ^ mask)
        child[POSITION] = np.int64(position ^ mask)
        child[MASK] = np.int64(new_mask)
        child[WON] = 1 if word_four(consts, stones) else 0
        return
    width, height = consts[WIDTH], consts[HEIGHT]
    base = rows_base(consts)
    mask_at = base + height
    column = move - 1
    r = state[HEIGHTS + column]
    for c in range(width):
        child[HEIGHTS + c] = state[HEIGHTS + c]
    child[HEIGHTS + column] = r + 1
    for row in range(height):
        child[base + row] = state[base + row] ^ state[mask_at + row]
        child[mask_at + row] = state[mask_at + row]
    child[mask_at + r] |= np.int64(1) << column
    child[SCORE] = -(state[SCORE] + consts[HEADER + 4 * width + 5 + r * width + column])
    child[WON] = 1 if mover_four_at(consts, child, r, column) else 0


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """-1 for the side to move after a four, 0 on a full board, else NaN."""
    if state[WON] != 0:
        return -1.0
    if state[PLY] == consts[SIZE]:
        return 0.0
    return np.nan


@rule("evaluate")
def evaluate(consts: Any, state: Any) -> float:
    """``Connect4.heuristic``: cell weights, 16 per winning cell (own minus the
    opponent's), 512 when the side to move can win now."""
    if consts[FITS] != 0:
        position, mask = np.uint64(state[POSITION]), np.uint64(state[MASK])
        opponent = position ^ mask
        width = consts[WIDTH]
        score = np.int64(0)
        for bit in range(5):
            digit = np.uint64(consts[HEADER + 4 * width + bit])
            score += (
                np.int64(native.popcount(position & digit))
                - np.int64(native.popcount(opponent & digit))
            ) << bit
        own = word_wins(consts, position, mask)
        theirs = word_wins(consts, opponent, mask)
        if own & word_playable(consts, mask):
            score += 512
        score += 16 * (np.int64(native.popcount(own)) - np.int64(native.popcount(theirs)))
        return float(score)
    own_count, own_playable, their_count = evaluation_counts(consts, state)
    score = state[SCORE] + 16 * (own_count - their_count)
    if own_playable:
        score += 512
    return float(score)


@rule("key")
def key(consts: Any, state: Any) -> np.uint64:
    """``position + mask`` (one word), else a 64-bit mix of the rows (see above)."""
    if consts[FITS] != 0:
        word: np.uint64 = word_key(consts, np.uint64(state[POSITION]), np.uint64(state[MASK]))
        return word
    height = consts[HEIGHT]
    base = rows_base(consts)
    h = np.uint64(height)
    for r in range(2 * height):
        h = (h ^ np.uint64(state[base + r])) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@rule("winning_move")
def winning_move(consts: Any, state: Any) -> int:
    """The leftmost column where the side to move completes four now, or -1."""
    if state[WON] != 0:
        return -1
    if consts[FITS] != 0:
        position, mask = np.uint64(state[POSITION]), np.uint64(state[MASK])
        wins = word_wins(consts, position, mask) & word_playable(consts, mask)
        if wins == U0:
            return -1
        return word_column(wins, consts[STRIDE])
    _, columns = wins_count(consts, state, False, -1, 0)
    if columns == 0:
        return -1
    column = 0
    while (columns >> column) & 1 == 0:
        column += 1
    return column + 1


@rule("forced_moves")
def forced_moves(consts: Any, state: Any, moves: Any, count: int) -> int:
    """Keep the moves that leave the opponent no win next move (a threat of theirs
    must be blocked, two cannot be, no stone goes right under one), in order."""
    if consts[FITS] != 0:
        position, mask = np.uint64(state[POSITION]), np.uint64(state[MASK])
        playable = word_playable(consts, mask)
        theirs = word_wins(consts, position ^ mask, mask)
        forced = playable & theirs
        if forced:
            if forced & (forced - U1):
                return 0
            playable = forced
        # (Packed, a threat in the bottom row shifts down onto the top of the column
        # to its left; but it is playable, so it is the one cell kept, or one of two.)
        cells = playable & ~(theirs >> U1)
        width = consts[WIDTH]
        kept = 0
        for i in range(count):
            move = moves[i]
            if cells & np.uint64(consts[HEADER + 3 * width + move - 1]):
                moves[kept] = move
                kept += 1
        return kept
    height, row_mask = consts[HEIGHT], consts[ROW_MASK]
    base = rows_base(consts)
    mask_at = base + height
    playable_cells = 0  # (one bit per column: each column has one landing cell)
    forced_cells = 0
    forced_count = 0
    below_threat = 0  # columns whose landing cell lies right under a threat of theirs
    b3, b2, b1 = 0, 0, 0
    s = row_at(state, base, mask_at, 0, height, -1, 0)
    a1 = row_at(state, base, mask_at, 1, height, -1, 0)
    a2 = row_at(state, base, mask_at, 2, height, -1, 0)
    a3 = row_at(state, base, mask_at, 3, height, -1, 0)
    below = row_mask
    playable_under = 0  # the landing cells of the row below
    for r in range(height):
        mask = state[mask_at + r]
        theirs = _ends7(b3, b2, b1, s, a1, a2, a3) & (row_mask ^ mask)
        playable = below & ~mask & row_mask
        below_threat |= playable_under & theirs
        playable_cells |= playable
        hit = playable & theirs
        if hit:
            forced_count += native.popcount(hit)
            forced_cells |= hit
        if mask == 0 and b1 | b2 | b3 == 0:
            break  # the rows above are empty and out of their lines' reach
        playable_under = playable
        below = mask
        b3, b2, b1, s, a1, a2 = b2, b1, s, a1, a2, a3
        a3 = row_at(state, base, mask_at, r + 4, height, -1, 0)
    if forced_count > 1:
        return 0
    if forced_count == 1:
        playable_cells = forced_cells
    cells = playable_cells & ~below_threat
    kept = 0
    for i in range(count):
        move = moves[i]
        if (cells >> (move - 1)) & 1:
            moves[kept] = move
            kept += 1
    return kept


@rule("order_moves")
def order_moves(consts: Any, state: Any, moves: Any, count: int) -> None:
    """By the threats each move makes (empty cells completing four for the mover
    after it), most first, in the given order among equals (a stable sort). Each
    move is sorted as ``threats << 40 | (65535 - index) << 16 | move``, in place."""
    if count < 2:
        return
    fits = consts[FITS] != 0
    position, mask = np.uint64(state[POSITION]), np.uint64(state[MASK])
    width = consts[WIDTH]
    for i in range(count):
        move = moves[i]
        if fits:
            new_mask = mask | (mask + np.uint64(consts[HEADER + width + move - 1]))
            stones = position | (new_mask ^ mask)
            threats = np.int64(native.popcount(word_wins(consts, stones, new_mask)))
        else:
            column = move - 1
            landing = state[HEIGHTS + column]
            bit = np.int64(1) << column
            threats = np.int64(wins_count(consts, state, False, landing, bit)[0])
        moves[i] = (threats << 40) | ((65535 - i) << 16) | move
    for i in range(1, count):  # insertion sort, descending
        packed = moves[i]
        j = i - 1
        while j >= 0 and moves[j] < packed:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = packed
    for i in range(count):
        moves[i] &= 0xFFFF


def word_stride(width: int, height: int) -> int:
    """The bits a column takes in a one-word layout: ``height + 1`` (Python's sentinel
    row) where they fit 64 bits, else ``height`` (packed) where the cells do, else 0
    (the rows layout)."""
    if (height + 1) * width <= 64:
        return height + 1
    return height if height * width <= 64 else 0


def _signed(value: int) -> int:
    """A 64-bit pattern as the int64 holding it (masks may use bit 63)."""
    return value - (1 << 64) if value >= 1 << 63 else value


class Connect4Native(NativeGame[Connect4State, int]):
    """The adapter of :class:`~plies.games.connect4.Connect4` (any board size) to the
    native game protocol: the compiled search and exact solver of any board."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    key = key
    order_moves = order_moves
    winning_move = winning_move
    forced_moves = forced_moves

    def __init__(self, game: Connect4) -> None:
        self.game = game
        #: Bits per column of the one-word layouts (0: the rows layout).
        self.stride = word_stride(game.width, game.height)
        self.fits = self.stride != 0
        self._consts: Any = None

    def consts(self) -> Any:
        """The board's constants (made once)."""
        if self._consts is None:
            game = self.game
            width, height, stride = game.width, game.height, self.stride
            header = [0] * HEADER
            header[FITS] = int(self.fits)
            header[WIDTH], header[HEIGHT], header[STRIDE], header[SIZE] = (
                width, height, stride, game.size,
            )  # fmt: skip
            header[ROW_MASK] = (1 << width) - 1
            bottoms, tops, columns = [0] * width, [0] * width, [0] * width
            digits = [0] * 5
            if self.fits:
                header[PACKED] = int(stride == height)

                def cells(rows: range) -> int:
                    return sum(1 << (c * stride + r) for c in range(width) for r in rows)

                header[BOTTOM_MASK] = cells(range(1))
                header[BOARD_MASK] = cells(range(height))
                for k in (1, 2, 3):
                    header[BELOW + k - 1] = cells(range(k, height))
                    header[ABOVE + k - 1] = cells(range(height - k))
                column = (1 << height) - 1
                bottoms = [1 << (c * stride) for c in range(width)]
                tops = [1 << (c * stride + height - 1) for c in range(width)]
                columns = [column << (c * stride) for c in range(width)]
                digits = [
                    sum(
                        1 << (c * stride + r)
                        for c in range(width)
                        for r in range(height)
                        if game._weights[c][r] >> bit & 1
                    )
                    for bit in range(5)
                ]
            weights = [game._weights[c][r] for r in range(height) for c in range(width)]
            order = list(game._centre_order)
            values = [*header, *order, *bottoms, *tops, *columns, *digits, *weights]
            self._consts = int64_array([_signed(v) for v in values])
        return self._consts

    def encode(self, prepared: Prepared, state: Connect4State) -> Any:
        """The state in the board's layout (see the module docstring)."""
        position, mask, ply, won = state
        game = self.game
        width, height, h1 = game.width, game.height, game.height + 1
        if self.stride == h1:
            return int64_array([ply, int(won), _signed(position), _signed(mask)])
        if self.fits:  # packed: drop the sentinel bit of every column
            column = (1 << height) - 1
            packed_position = packed_mask = 0
            for c in range(width):
                packed_position |= ((position >> (c * h1)) & column) << (c * height)
                packed_mask |= ((mask >> (c * h1)) & column) << (c * height)
            return int64_array([ply, int(won), _signed(packed_position), _signed(packed_mask)])
        opponent = position ^ mask
        score = 0
        heights = []
        position_rows = [0] * height
        mask_rows = [0] * height
        for c in range(width):
            filled = 0
            for r in range(height):
                bit = 1 << (c * h1 + r)
                if mask & bit:
                    filled = r + 1
                    mask_rows[r] |= 1 << c
                    if position & bit:
                        position_rows[r] |= 1 << c
                        score += game._weights[c][r]
                    elif opponent & bit:
                        score -= game._weights[c][r]
            heights.append(filled)
        return int64_array([ply, int(won), score, *heights, *position_rows, *mask_rows])

    def prepare(self, state: Connect4State) -> Prepared:
        """The board's constants and the state; moves: the columns; plies: the empty
        cells."""
        game = self.game
        prepared = Prepared(self.consts(), None, max_moves=game.width,
                            max_plies=game.size - state.ply, move_space=game.width + 1)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode_move(self, prepared: Prepared, move: int) -> int:
        """The 1-based column."""
        return move

    def decode_move(self, prepared: Prepared, move: int) -> int:
        """The 1-based column."""
        return int(move)
