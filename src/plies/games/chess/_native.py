"""The native port of chess (:mod:`plies.games.chess`): bitboards in the kernel's rules.

**State** (int64s, see the offsets below): the six piece bitboards (pawns .. kings,
both colours), the two colours' pieces, the side to move (0 white), the castling
rights (python-chess's bitboard of rook squares), the en-passant square (-1: none),
the halfmove clock, whether the last ply was a move (a null move may follow it),
the position's hash, the hash of the set of repeated positions, how often this
position has occurred, then the hashes of the earlier positions the repetition rule
can still look back at (at most the halfmove clock's worth, oldest first). ``play``
copies only the part of that history in use.

**Moves.** ``from * 64 + to + 4096 * promotion`` (python-chess's piece type, 0 for
none): a bijection with :class:`chess.Move`; ``move_space`` is ``6 * 4096``.

**Move order** is python-chess's ``generate_legal_moves`` (read there, written anew):
out of check, the pieces other than pawns from the highest square down, each one's
targets from the highest down; castling (h-side first); pawn captures (pawns from the
highest, targets from the highest, promotions queen, rook, bishop, knight); single
pushes by target from the highest; double pushes; en passant. In check: the king's
steps, then (one checker) the other pieces' moves onto the checker or between it and
the king in the same order, then en passant. Sliding attacks come from ray tables (the
first blocker of each ray found by a bit scan).

**Rules.** Every rule is the Python game's, term for term: the terminal rules in
:meth:`Chess.terminal_value`'s order, the evaluation (material and square tables
tapered by phase, pawn structure and king shield, mobility and rooks on open
files, bishop pair: the same integers,
the same float operations), ``order_moves`` (MVV-LVA then promotions, a stable sort),
``quiescence_moves``, ``null_move``, ``extension`` and ``is_quiet``. ``key`` mixes the
position's Zobrist hash, the halfmove clock and the set of repeated positions (each
mixed apart before they are xored): the Python key's three fields.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import numpy as np

from plies.engine import native
from plies.engine.native import (
    NativeGame,
    Prepared,
    deferred,
    helper,
    int64_array,
    rule,
)
from plies.games.chess._eval import (
    _DOUBLED,
    _FORKED,
    _ISOLATED,
    _KING_ATTACK_WEIGHT,
    _KING_ATTACKERS_SHARE,
    _MOBILITY_EG,
    _MOBILITY_MG,
    _MOBILITY_USUAL,
    _OPEN_FILE,
    _PASSED_EG,
    _PASSED_MG,
    _ROOK_HALF_OPEN,
    _ROOK_OPEN,
    _SHIELD_FAR,
    _SHIELD_NEAR,
    _TEMPO,
    _THREATENED_MOVING,
    _THREATENED_WAITING,
    SEE_VALUE,
)
from plies.games.chess._rules import _ORDER_VALUE, _PHASE, Chess, ChessState
from plies.games.chess._tables import BISHOP_PAIR as _BISHOP_PAIR
from plies.games.chess._tables import EG as _EG
from plies.games.chess._tables import MG as _MG

__all__ = ["MOVE_SPACE", "STATE_SIZE", "ChessNative", "perft"]

# -- state layout ------------------------------------------------------------------

#: Piece bitboards 0-5 (pawn .. king, python-chess's type minus one), colours 6-7.
WHITE_PIECES = 6
SIDE, CASTLING, EP, CLOCK, MOVED, HASH, REPEATED, REPS, COUNT = range(8, 17)
#: Where the earlier positions' hashes start, and how many are kept at most.
HISTORY = 17
HISTORY_SIZE = 128
STATE_SIZE = HISTORY + HISTORY_SIZE
MOVE_SPACE = 6 * 4096
#: Most legal moves of a chess position (218 is the known maximum).
MAX_MOVES = 256
#: consts: the game's options.
USE_NULL, USE_REDUCTIONS = 0, 1

_MASK64 = (1 << 64) - 1
#: The zero bits above the highest set bit (compiled code only): one LZCNT.
leading_zeros: Any = deferred("numba.cpython.unsafe.numbers", "leading_zeros")


def _signed(value: int) -> int:
    """A 64-bit pattern as an int64."""
    value &= _MASK64
    return value - (1 << 64) if value >> 63 else value


def _table(values: list[int]) -> Any:
    return np.array([_signed(v) for v in values], dtype=np.int64)


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _steps(square: int, deltas: tuple[tuple[int, int], ...]) -> int:
    file, rank = square & 7, square >> 3
    mask = 0
    for df, dr in deltas:
        if _on_board(file + df, rank + dr):
            mask |= 1 << ((rank + dr) * 8 + file + df)
    return mask


_KNIGHT_DELTAS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_DELTAS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
#: Ray directions: the first four go up the square numbers (the nearest blocker is
#: the lowest bit), the last four down. N, E, NE, NW, S, W, SW, SE.
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1))


def _ray(square: int, df: int, dr: int) -> int:
    file, rank = square & 7, square >> 3
    mask = 0
    while _on_board(file + df, rank + dr):
        file, rank = file + df, rank + dr
        mask |= 1 << (rank * 8 + file)
    return mask


KNIGHT = _table([_steps(s, _KNIGHT_DELTAS) for s in range(64)])
KING = _table([_steps(s, _KING_DELTAS) for s in range(64)])
#: A pawn's attacks by colour (0 white) and square: ``PAWN[colour * 64 + square]``.
PAWN = _table(
    [_steps(s, ((-1, 1), (1, 1))) for s in range(64)]
    + [_steps(s, ((-1, -1), (1, -1))) for s in range(64)]
)
RAYS = _table([_ray(s, df, dr) for df, dr in _DIRECTIONS for s in range(64)])


def _between_and_line(a: int, b: int) -> tuple[int, int]:
    for df, dr in _DIRECTIONS:
        ray = _ray(a, df, dr)
        if ray >> b & 1:
            back = _ray(a, -df, -dr)
            return ray & ~_ray(b, df, dr) & ~(1 << b), ray | back | (1 << a)
    return 0, 0


_PAIRS = [_between_and_line(a, b) for a in range(64) for b in range(64)]
BETWEEN = _table([p[0] for p in _PAIRS])
LINE = _table([p[1] for p in _PAIRS])

RANKS = _table([0xFF << (8 * r) for r in range(8)])
FILES = _table([0x0101010101010101 << f for f in range(8)])
RANK_1, RANK_8 = 0xFF, _signed(0xFF << 56)
DARK = _signed(chess.BB_DARK_SQUARES)
LIGHT = _signed(chess.BB_LIGHT_SQUARES)
CORNERS_WHITE = _signed(chess.BB_A1 | chess.BB_H1)
CORNERS_BLACK = _signed(chess.BB_A8 | chess.BB_H8)
E1, E8 = chess.E1, chess.E8

# -- evaluation tables (the Python game's) -----------------------------------------

MG = int64_array([v for table in _MG for v in table])
EG = int64_array([v for table in _EG for v in table])
PHASE = int64_array(_PHASE)
ORDER_VALUE = int64_array(_ORDER_VALUE)
FULL_PHASE = 24
BISHOP_PAIR = _BISHOP_PAIR


def _adjacent(file: int) -> int:
    mask = 0
    if file > 0:
        mask |= 0x0101010101010101 << (file - 1)
    if file < 7:
        mask |= 0x0101010101010101 << (file + 1)
    return mask


ADJACENT = _table([_adjacent(f) for f in range(8)])
AHEAD = _table(
    [
        ((0x0101010101010101 << (s & 7)) | _adjacent(s & 7))
        & sum(0xFF << (8 * r) for r in range((s >> 3) + 1, 8))
        for s in range(64)
    ]
)
#: Pawn structure and the king's shield (``_eval``'s).
PASSED_MG = int64_array(_PASSED_MG)
PASSED_EG = int64_array(_PASSED_EG)
DOUBLED_MG, DOUBLED_EG = _DOUBLED
ISOLATED_MG, ISOLATED_EG = _ISOLATED
SHIELD_NEAR = _SHIELD_NEAR
SHIELD_FAR = _SHIELD_FAR
OPEN_FILE = _OPEN_FILE
#: Mobility and rook files (``_eval``'s), by python-chess piece type.
MOBILITY_MG = int64_array(_MOBILITY_MG)
MOBILITY_EG = int64_array(_MOBILITY_EG)
MOBILITY_USUAL = int64_array(_MOBILITY_USUAL)
ROOK_OPEN_MG, ROOK_OPEN_EG = _ROOK_OPEN
ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG = _ROOK_HALF_OPEN
KING_ATTACK_WEIGHT = int64_array(_KING_ATTACK_WEIGHT)
KING_ATTACKERS_SHARE = int64_array(_KING_ATTACKERS_SHARE)
#: Threats and the tempo (``_eval``'s), (middlegame, endgame).
THREATENED_MOVING_MG, THREATENED_MOVING_EG = _THREATENED_MOVING
FORKED_MG, FORKED_EG = _FORKED
THREATENED_WAITING_MG, THREATENED_WAITING_EG = _THREATENED_WAITING
TEMPO_MG, TEMPO_EG = _TEMPO
NOT_FILE_A = _signed(~chess.BB_FILE_A)
NOT_FILE_H = _signed(~chess.BB_FILE_H)
#: The exchange evaluation's piece values, by python-chess piece type.
SEE_VALUES = int64_array(SEE_VALUE)

# -- hashing -----------------------------------------------------------------------

_rng = random.Random(20261126)
#: Zobrist numbers: pieces by colour, type and square, then castling squares,
#: en-passant squares and the side to move (black).
_ZOBRIST = [_rng.getrandbits(64) for _ in range(2 * 6 * 64 + 64 + 64 + 1)]
ZOBRIST = _table(_ZOBRIST)
Z_CASTLING = 768
Z_EP = 832
Z_BLACK = 896


@helper(inline=True)
def msb(x: Any) -> Any:
    """The index of the highest set bit of ``x`` (non-zero)."""
    return 63 - leading_zeros(x)


@helper(inline=True)
def down(x: Any, n: int) -> Any:
    """``x`` shifted ``n`` (1-63) bits down, zeros coming in (a logical shift)."""
    return (x >> n) & ((np.int64(1) << (64 - n)) - 1)


@helper()
def slide(square: int, occupied: Any, first: int) -> Any:
    """The squares the rays ``first .. first + 1`` and ``first + 4 .. first + 5`` of
    ``square`` reach, each up to its first blocker (0: rook lines, 2: diagonals)."""
    attacks = np.int64(0)
    for d in (first, first + 1):
        ray = RAYS[d * 64 + square]
        blockers = ray & occupied
        if blockers != 0:
            ray ^= RAYS[d * 64 + native.trailing_zeros(blockers)]
        attacks |= ray
    for d in (first + 4, first + 5):
        ray = RAYS[d * 64 + square]
        blockers = ray & occupied
        if blockers != 0:
            ray ^= RAYS[d * 64 + msb(blockers)]
        attacks |= ray
    return attacks


@helper()
def attackers(s: Any, colour: int, square: int, occupied: Any) -> Any:
    """The pieces of ``colour`` on ``occupied`` attacking ``square``."""
    found = (KNIGHT[square] & s[1]) | (KING[square] & s[5])
    found |= PAWN[(1 - colour) * 64 + square] & s[0]
    found |= slide(square, occupied, 2) & (s[2] | s[4])
    found |= slide(square, occupied, 0) & (s[3] | s[4])
    return found & s[WHITE_PIECES + colour] & occupied


@helper()
def king_of(s: Any, colour: int) -> Any:
    """The square of ``colour``'s king."""
    return msb(s[5] & s[WHITE_PIECES + colour])


@helper()
def in_check(s: Any) -> Any:
    """Whether the side to move is in check."""
    us = s[SIDE]
    occupied = s[6] | s[7]
    return attackers(s, 1 - us, king_of(s, us), occupied) != 0


@helper()
def pinned_pieces(s: Any, king: int, us: int, occupied: Any) -> Any:
    """The pieces of ``us`` that are the only piece between their king and an enemy
    slider on the same line."""
    enemy = s[WHITE_PIECES + 1 - us]
    snipers = (slide(king, 0, 0) & (s[3] | s[4]) & enemy) | (
        slide(king, 0, 2) & (s[2] | s[4]) & enemy
    )
    pinned = np.int64(0)
    while snipers != 0:
        sniper = msb(snipers)
        snipers ^= np.int64(1) << sniper
        between = BETWEEN[king * 64 + sniper] & occupied
        if between != 0 and (between & (between - 1)) == 0:
            pinned |= between
    return pinned & s[WHITE_PIECES + us]


@helper()
def ep_moves(  # noqa: PLR0917  # as the generator's
    s: Any, out: Any, count: int, stop: bool, from_mask: Any, king: int
) -> int:
    """The legal en-passant captures (capturers from the highest square)."""
    ep = s[EP]
    if ep <= 0:
        return count
    us = s[SIDE]
    occupied = s[6] | s[7]
    target = np.int64(1) << ep
    if target & occupied:
        return count
    rank = RANKS[4] if us == 0 else RANKS[3]
    capturers = s[0] & s[WHITE_PIECES + us] & from_mask & PAWN[(1 - us) * 64 + ep] & rank
    taken = np.int64(1) << (ep - 8 if us == 0 else ep + 8)
    while capturers != 0:
        origin = msb(capturers)
        capturers ^= np.int64(1) << origin
        after = occupied ^ (np.int64(1) << origin) ^ target ^ taken
        if attackers(s, 1 - us, king, after) == 0:
            if stop:
                return 1
            out[count] = origin * 64 + ep
            count += 1
    return count


@helper()
def add_pawn_moves(out: Any, count: int, origin: int, target: int) -> int:
    """The pawn move (its four promotions, queen first, on the last ranks)."""
    move = origin * 64 + target
    if target < 8 or target >= 56:
        for promotion in (5, 4, 3, 2):
            out[count] = move + promotion * 4096
            count += 1
        return count
    out[count] = move
    return count + 1


@helper()
def castling_moves(  # noqa: PLR0917  # as the generator's
    s: Any, out: Any, count: int, stop: bool, us: int, occupied: Any
) -> int:
    """The legal castling moves (the h-side first)."""
    own = s[WHITE_PIECES + us]
    back = RANK_1 if us == 0 else RANK_8
    king_bit = own & s[5] & back
    king_bit &= -king_bit
    if king_bit == 0:
        return count
    king = native.trailing_zeros(king_bit)
    rights = clean_castling(s) & back
    offset = 0 if us == 0 else 56
    while rights != 0:
        rook = msb(rights)
        rights ^= np.int64(1) << rook
        a_side = rook < king
        king_to = offset + (2 if a_side else 6)
        rook_to = offset + (3 if a_side else 5)
        rook_bit = np.int64(1) << rook
        king_path = BETWEEN[king * 64 + king_to]
        empty = king_path | BETWEEN[rook * 64 + rook_to]
        empty |= (np.int64(1) << king_to) | (np.int64(1) << rook_to)
        if (occupied ^ king_bit ^ rook_bit) & empty:
            continue
        safe = True
        passed = king_path | king_bit
        while passed != 0 and safe:
            square = msb(passed)
            passed ^= np.int64(1) << square
            safe = attackers(s, 1 - us, square, occupied ^ king_bit) == 0
        after = occupied ^ king_bit ^ rook_bit ^ (np.int64(1) << rook_to)
        if safe and attackers(s, 1 - us, king_to, after) == 0:
            if stop:
                return 1
            out[count] = king * 64 + king_to
            count += 1
    return count


@helper()
def clean_castling(s: Any) -> Any:
    """python-chess's clean castling rights: rooks in the corners, kings at home."""
    rights = s[CASTLING] & s[3]
    white = rights & RANK_1 & s[6] & CORNERS_WHITE
    black = rights & RANK_8 & s[7] & CORNERS_BLACK
    if (s[6] & s[5] & (np.int64(1) << E1)) == 0:
        white = 0
    if (s[7] & s[5] & (np.int64(1) << E8)) == 0:
        black = 0
    return white | black


@helper()
def pseudo(  # noqa: PLR0917  # the generator's masks and what it knows
    s: Any, out: Any, count: int, stop: bool, from_mask: Any, to_mask: Any, king: int, pinned: Any
) -> int:
    """python-chess's pseudo-legal moves from ``from_mask`` to ``to_mask`` in its
    order, those that are legal (pins, the king's safety) into ``out``; with
    ``stop``, 1 at the first legal move found."""
    us = s[SIDE]
    own = s[WHITE_PIECES + us]
    enemy = s[WHITE_PIECES + 1 - us]
    occupied = own | enemy
    king_bit = np.int64(1) << king
    pieces = own & ~s[0] & from_mask
    while pieces != 0:
        origin = msb(pieces)
        bit = np.int64(1) << origin
        pieces ^= bit
        if s[1] & bit:
            targets = KNIGHT[origin]
        elif s[2] & bit:
            targets = slide(origin, occupied, 2)
        elif s[3] & bit:
            targets = slide(origin, occupied, 0)
        elif s[4] & bit:
            targets = slide(origin, occupied, 2) | slide(origin, occupied, 0)
        else:
            targets = KING[origin]
        targets &= ~own & to_mask
        while targets != 0:
            target = msb(targets)
            targets ^= np.int64(1) << target
            if origin == king:
                legal = attackers(s, 1 - us, target, occupied ^ king_bit) == 0
            else:
                legal = (pinned & bit) == 0 or (LINE[origin * 64 + target] & king_bit) != 0
            if legal:
                if stop:
                    return 1
                out[count] = origin * 64 + target
                count += 1
    if from_mask & s[5]:
        count = castling_moves(s, out, count, stop, us, occupied)
        if stop and count:
            return count
    pawns = s[0] & own & from_mask
    if pawns == 0:
        return count
    capturers = pawns
    while capturers != 0:
        origin = msb(capturers)
        bit = np.int64(1) << origin
        capturers ^= bit
        targets = PAWN[us * 64 + origin] & enemy & to_mask
        while targets != 0:
            target = msb(targets)
            targets ^= np.int64(1) << target
            if (pinned & bit) == 0 or (LINE[origin * 64 + target] & king_bit) != 0:
                if stop:
                    return 1
                count = add_pawn_moves(out, count, origin, target)
    if us == 0:
        single = (pawns << 8) & ~occupied
        double = (single << 8) & ~occupied & (RANKS[2] | RANKS[3])
    else:
        single = down(pawns, 8) & ~occupied
        double = down(single, 8) & ~occupied & (RANKS[5] | RANKS[4])
    single &= to_mask
    double &= to_mask
    step = -8 if us == 0 else 8
    for pushes, distance in ((single, step), (double, 2 * step)):
        while pushes != 0:
            target = msb(pushes)
            pushes ^= np.int64(1) << target
            origin = target + distance
            if ((pinned >> origin) & 1) == 0 or (LINE[origin * 64 + target] & king_bit) != 0:
                if stop:
                    return 1
                count = add_pawn_moves(out, count, origin, target)
    return count


@helper()
def generate(s: Any, out: Any, stop: bool) -> int:
    """The legal moves in python-chess's order into ``out`` (with ``stop``: 1 if
    there is one, nothing written), whatever the draw rules say."""
    us = s[SIDE]
    occupied = s[6] | s[7]
    king = king_of(s, us)
    pinned = pinned_pieces(s, king, us, occupied)
    checkers = attackers(s, 1 - us, king, occupied)
    everything = np.int64(-1)
    if checkers == 0:
        count = pseudo(s, out, 0, stop, everything, everything, king, pinned)
        if stop and count:
            return count
        return ep_moves(s, out, count, stop, everything, king)
    count = 0
    own = s[WHITE_PIECES + us]
    king_bit = np.int64(1) << king
    steps = KING[king] & ~own
    while steps != 0:
        target = msb(steps)
        steps ^= np.int64(1) << target
        if attackers(s, 1 - us, target, occupied ^ king_bit) == 0:
            if stop:
                return 1
            out[count] = king * 64 + target
            count += 1
    if checkers & (checkers - 1):
        return count
    checker = msb(checkers)
    target_mask = BETWEEN[king * 64 + checker] | checkers
    count = pseudo(s, out, count, stop, ~s[5], target_mask, king, pinned)
    if stop and count:
        return count
    ep = s[EP]
    if ep > 0:
        double_pushed = ep - 8 if us == 0 else ep + 8
        if ((target_mask >> ep) & 1) != 0 or double_pushed == checker:
            count = ep_moves(s, out, count, stop, ~s[5], king)
    return count


@helper()
def side_insufficient(s: Any, colour: int) -> Any:
    """python-chess's ``has_insufficient_material`` for ``colour``."""
    own = s[WHITE_PIECES + colour]
    other = s[WHITE_PIECES + 1 - colour]
    if own & (s[0] | s[3] | s[4]):
        return False
    if own & s[1]:
        return native.popcount(own) <= 2 and (other & ~s[5] & ~s[4]) == 0
    if own & s[2]:
        same_colour = (s[2] & DARK) == 0 or (s[2] & LIGHT) == 0
        return same_colour and s[0] == 0 and s[1] == 0
    return True


@helper()
def drawn_by_rule(s: Any) -> Any:
    """Threefold repetition or insufficient material (the rules looked at first)."""
    if s[CLOCK] >= 4 and s[REPS] >= 3:
        return True
    return side_insufficient(s, 0) and side_insufficient(s, 1)


@helper()
def listed(s: Any, out: Any) -> Any:
    """python-chess's legal moves in its order; none once the game is over."""
    if s[CLOCK] >= 100 or drawn_by_rule(s):
        return 0
    return generate(s, out, False)


@rule("legal_moves")
def legal_moves(consts: Any, s: Any, out: Any) -> Any:
    """python-chess's legal moves in its order; none once the game is over."""
    return listed(s, out)


@rule("terminal_value")
def terminal_value(consts: Any, s: Any) -> float:
    """:meth:`Chess.terminal_value`: repetition and dead positions, mate and
    stalemate, then the fifty-move rule; NaN while the game goes on."""
    if drawn_by_rule(s):
        return 0.0
    if generate(s, s, True) == 0:
        return -1.0 if in_check(s) else 0.0
    if s[CLOCK] >= 100:
        return 0.0
    return np.nan


@helper()
def position_hash(s: Any, ep: int) -> Any:
    """The Zobrist hash of the pieces, the side to move, the castling rights and
    ``ep`` (-1: no en-passant capture)."""
    h = np.int64(0)
    for colour in range(2):
        own = s[WHITE_PIECES + colour]
        for kind in range(6):
            pieces = s[kind] & own
            base = (colour * 6 + kind) * 64
            while pieces != 0:
                square = native.trailing_zeros(pieces)
                pieces &= pieces - 1
                h ^= ZOBRIST[base + square]
    rights = s[CASTLING]
    while rights != 0:
        square = native.trailing_zeros(rights)
        rights &= rights - 1
        h ^= ZOBRIST[Z_CASTLING + square]
    if ep >= 0:
        h ^= ZOBRIST[Z_EP + ep]
    if s[SIDE] == 1:
        h ^= ZOBRIST[Z_BLACK]
    return h


@helper()
def legal_ep(s: Any) -> int:
    """The en-passant square if an en-passant capture is legal, else -1."""
    if s[EP] <= 0:
        return -1
    us = s[SIDE]
    occupied = s[6] | s[7]
    king = king_of(s, us)
    checkers = attackers(s, 1 - us, king, occupied)
    if checkers != 0:
        if checkers & (checkers - 1):
            return -1
        checker = msb(checkers)
        target_mask = BETWEEN[king * 64 + checker] | checkers
        double_pushed = s[EP] - 8 if us == 0 else s[EP] + 8
        if ((target_mask >> s[EP]) & 1) == 0 and double_pushed != checker:
            return -1
    return s[EP] if ep_moves(s, s, 0, True, np.int64(-1), king) else -1


@helper(inline=True)
def mix(h: Any) -> Any:
    """splitmix64's finaliser."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@helper()
def set_member(position: Any) -> Any:
    """A position's hash as a member of the repeated set (mixed, then xored in)."""
    return np.int64(mix(np.uint64(position) + np.uint64(0x9E3779B97F4A7C15)))


@helper()
def finish(s: Any, c: Any, clock: int, moved: int) -> None:
    """The child's clock, hash, history, repetitions and repeated set (its pieces,
    side, castling rights and en-passant square written)."""
    c[CLOCK] = clock
    c[MOVED] = moved
    h = position_hash(c, legal_ep(c))
    c[HASH] = h
    if moved == 0 or clock == 0:
        c[COUNT] = 0
        c[REPS] = 1
        c[REPEATED] = 0
        return
    count = s[COUNT]
    start = 0
    if count == HISTORY_SIZE:
        start = 1
        count -= 1
    for i in range(count):
        c[HISTORY + i] = s[HISTORY + start + i]
    c[HISTORY + count] = s[HASH]
    count += 1
    c[COUNT] = count
    reps = 1
    back = 2
    while back <= count and back <= clock:
        if c[HISTORY + count - back] == h:
            reps += 1
        back += 2
    c[REPS] = reps
    repeated = s[REPEATED]
    if reps == 2:
        repeated ^= set_member(h)
    c[REPEATED] = repeated


@helper()
def piece_on(s: Any, bit: Any) -> int:
    """The piece kind (0 pawn .. 5 king) on ``bit``, -1 for none."""
    for kind in range(6):
        if s[kind] & bit:
            return kind
    return -1


@helper()
def move_pieces(s: Any, move: int, c: Any) -> Any:
    """The child's pieces, side, castling rights and en-passant square in ``c``
    (python-chess's push of a legal move); returns the new halfmove clock."""
    origin, target, promotion = (move >> 6) & 63, move & 63, move >> 12
    us = s[SIDE]
    for i in range(8):
        c[i] = s[i]
    from_bit = np.int64(1) << origin
    to_bit = np.int64(1) << target
    own, other = WHITE_PIECES + us, WHITE_PIECES + 1 - us
    clock = s[CLOCK] + 1
    castling = s[CASTLING] & ~from_bit & ~to_bit
    ep = -1
    piece = piece_on(s, from_bit)
    victim = piece_on(s, to_bit)
    if victim >= 0:
        c[victim] ^= to_bit
        c[other] ^= to_bit
        clock = 0
    c[piece] ^= from_bit
    c[own] ^= from_bit
    placed = piece
    if piece == 0:
        clock = 0
        step = target - origin
        if step in (16, -16):
            ep = origin + step // 2
        elif victim < 0 and step % 8 != 0 and target == s[EP]:
            taken = np.int64(1) << (target - 8 if us == 0 else target + 8)
            c[0] ^= taken
            c[other] ^= taken
        if promotion:
            placed = promotion - 1
    elif piece == 5:
        castling &= ~(RANK_1 if us == 0 else RANK_8)
        if target - origin == 2 or origin - target == 2:
            if target > origin:
                rook_bits = (np.int64(1) << (origin + 3)) | (np.int64(1) << (origin + 1))
            else:
                rook_bits = (np.int64(1) << (origin - 4)) | (np.int64(1) << (origin - 1))
            c[3] ^= rook_bits
            c[own] ^= rook_bits
    c[placed] |= to_bit
    c[own] |= to_bit
    c[SIDE] = 1 - us
    c[CASTLING] = castling
    c[EP] = ep
    return clock


@rule("play")
def play(consts: Any, s: Any, move: int, c: Any) -> None:
    """The position after ``move``, with its past for the repetition rule."""
    clock = move_pieces(s, move, c)
    finish(s, c, clock, 1)


@helper()
def white_terms(own: Any, enemy: Any, king: int) -> Any:
    """(middlegame, endgame) pawn and shield terms of white's pawns ``own`` against
    black's ``enemy``, white's king on ``king`` (``_eval._white_terms``)."""
    mg = 0
    eg = 0
    for file in range(8):
        on_file = native.popcount(own & FILES[file])
        if on_file == 0:
            continue
        if on_file > 1:
            mg -= DOUBLED_MG * (on_file - 1)
            eg -= DOUBLED_EG * (on_file - 1)
        if (own & ADJACENT[file]) == 0:
            mg -= ISOLATED_MG * on_file
            eg -= ISOLATED_EG * on_file
    pawns = own
    while pawns != 0:
        square = msb(pawns)
        pawns ^= np.int64(1) << square
        if (enemy & AHEAD[square]) == 0 and (own & AHEAD[square] & FILES[square & 7]) == 0:
            rank = square >> 3
            mg += PASSED_MG[rank]
            eg += PASSED_EG[rank]
    rank = king >> 3
    if rank <= 1:
        file = king & 7
        files = FILES[file] | ADJACENT[file]
        near = files & RANKS[rank + 1]
        far = files & RANKS[rank + 2]
        mg += SHIELD_NEAR * native.popcount(own & near) + SHIELD_FAR * native.popcount(own & far)
        for shield_file in range(max(0, file - 1), min(7, file + 1) + 1):
            if (own & FILES[shield_file]) == 0:
                mg -= OPEN_FILE
    return mg, eg


@helper()
def flip(x: Any) -> Any:
    """The board mirrored top to bottom (python-chess's ``flip_vertical``)."""
    x = (down(x, 8) & 0x00FF00FF00FF00FF) | ((x & 0x00FF00FF00FF00FF) << 8)
    x = (down(x, 16) & 0x0000FFFF0000FFFF) | ((x & 0x0000FFFF0000FFFF) << 16)
    return down(x, 32) | (x << 32)


@helper()
def pawn_attacks(pawns: Any, colour: int) -> Any:
    """The squares ``pawns`` of ``colour`` (0 white) attack (``_eval.pawn_attacks``)."""
    if colour == 0:
        return ((pawns << 7) & NOT_FILE_H) | ((pawns << 9) & NOT_FILE_A)
    return (down(pawns, 7) & NOT_FILE_A) | (down(pawns, 9) & NOT_FILE_H)


@helper()
def side_piece_terms(s: Any, colour: int) -> Any:
    """(middlegame, endgame) mobility, rook-file and king-attack terms of ``colour``'s
    pieces, and how many enemy pieces they threaten (``_eval._side_piece_terms``)."""
    own = s[WHITE_PIECES + colour]
    own_pawns = s[0] & own
    enemy_pawns = s[0] & ~own
    allowed = ~own & ~pawn_attacks(enemy_pawns, 1 - colour)
    occupied = s[6] | s[7]
    enemy_king = king_of(s, 1 - colour)
    zone = KING[enemy_king] | (np.int64(1) << enemy_king)
    mg = 0
    eg = 0
    attackers = 0
    attack = 0
    by_minor = np.int64(0)
    by_rook = np.int64(0)
    for kind in range(1, 5):
        pieces = s[kind] & own
        while pieces != 0:
            square = native.trailing_zeros(pieces)
            pieces &= pieces - 1
            if kind == 1:
                attacked = KNIGHT[square]
            elif kind == 2:
                attacked = slide(square, occupied, 2)
            elif kind == 3:
                attacked = slide(square, occupied, 0)
            else:
                attacked = slide(square, occupied, 2) | slide(square, occupied, 0)
            if kind <= 2:
                by_minor |= attacked
            elif kind == 3:
                by_rook |= attacked
            near_king = attacked & zone
            if near_king != 0:
                attackers += 1
                attack += KING_ATTACK_WEIGHT[kind + 1] * native.popcount(near_king)
            squares = native.popcount(attacked & allowed) - MOBILITY_USUAL[kind + 1]
            mg += MOBILITY_MG[kind + 1] * squares
            eg += MOBILITY_EG[kind + 1] * squares
            if kind == 3:
                file = FILES[square & 7]
                if (s[0] & file) == 0:
                    mg += ROOK_OPEN_MG
                    eg += ROOK_OPEN_EG
                elif (own_pawns & file) == 0:
                    mg += ROOK_HALF_OPEN_MG
                    eg += ROOK_HALF_OPEN_EG
    mg += attack * KING_ATTACKERS_SHARE[min(attackers, 7)] // 100
    enemy = s[WHITE_PIECES + 1 - colour]
    threatened = (
        (enemy & ~s[0] & ~s[5] & pawn_attacks(own_pawns, colour))
        | (enemy & (s[3] | s[4]) & by_minor)
        | (enemy & s[4] & by_rook)
    )
    return mg, eg, native.popcount(threatened)


@rule("evaluate")
def evaluate(consts: Any, s: Any) -> Any:
    """:meth:`Chess.evaluate` for the side to move, term for term."""
    mg = 0
    eg = 0
    phase = 0
    for colour in range(2):
        own = s[WHITE_PIECES + colour]
        flip_square = 0 if colour == 0 else 56
        sign = 1 if colour == 0 else -1
        for kind in range(6):
            pieces = s[kind] & own
            base = (kind + 1) * 64
            while pieces != 0:
                square = native.trailing_zeros(pieces)
                pieces &= pieces - 1
                mg += sign * MG[base + (square ^ flip_square)]
                eg += sign * EG[base + (square ^ flip_square)]
                phase += PHASE[kind + 1]
    white_pawns = s[0] & s[6]
    black_pawns = s[0] & s[7]
    white_mg, white_eg = white_terms(white_pawns, black_pawns, king_of(s, 0))
    black_mg, black_eg = white_terms(flip(black_pawns), flip(white_pawns), king_of(s, 1) ^ 56)
    mg += white_mg - black_mg
    eg += white_eg - black_eg
    white_mg, white_eg, by_white = side_piece_terms(s, 0)
    black_mg, black_eg, by_black = side_piece_terms(s, 1)
    mg += white_mg - black_mg
    eg += white_eg - black_eg
    moving = by_black if s[SIDE] == 0 else by_white
    waiting = by_white if s[SIDE] == 0 else by_black
    sign = 1 if s[SIDE] == 0 else -1
    forks = max(0, moving - 1)
    mg += sign * (
        TEMPO_MG
        - THREATENED_MOVING_MG * moving
        - FORKED_MG * forks
        + THREATENED_WAITING_MG * waiting
    )
    eg += sign * (
        TEMPO_EG
        - THREATENED_MOVING_EG * moving
        - FORKED_EG * forks
        + THREATENED_WAITING_EG * waiting
    )
    if native.popcount(s[2] & s[6]) >= 2:
        mg += BISHOP_PAIR
        eg += BISHOP_PAIR
    if native.popcount(s[2] & s[7]) >= 2:
        mg -= BISHOP_PAIR
        eg -= BISHOP_PAIR
    phase = min(phase, FULL_PHASE)
    score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE
    return score if s[SIDE] == 0 else -score


@rule("key")
def key(consts: Any, s: Any) -> Any:
    """The position's hash, the halfmove clock and the repeated set, mixed."""
    h = mix(np.uint64(s[HASH]) ^ (np.uint64(s[CLOCK]) * np.uint64(0x9E3779B97F4A7C15)))
    return mix(h ^ np.uint64(s[REPEATED]))


@helper()
def capture_score(s: Any, move: int) -> Any:
    """MVV-LVA: the victim's value times 32 less the attacker's (en passant: a pawn)."""
    victim = piece_on(s, np.int64(1) << (move & 63))
    attacker = piece_on(s, np.int64(1) << ((move >> 6) & 63))
    victim = 0 if victim < 0 else victim
    attacker = 0 if attacker < 0 else attacker
    return ORDER_VALUE[victim + 1] * 32 - ORDER_VALUE[attacker + 1]


@helper()
def sort_keys(moves: Any, count: int) -> None:
    """Sort ``moves[:count]``, each a key ``(1000 - score) << 40 | index << 20 |
    move``, ascending (so highest score first, stable), and leave the moves."""
    for i in range(1, count):
        entry = moves[i]
        j = i
        while j > 0 and moves[j - 1] > entry:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = entry
    for i in range(count):
        moves[i] &= 0xFFFFF


@helper()
def order_by_value(s: Any, moves: Any, count: int) -> None:
    """:meth:`Chess.order_moves`: captures by MVV-LVA, promotions by their gain, then
    the quiet moves, each group in the given order. The noisy moves are moved to the
    front (the quiet ones shifted back, in order), each as its sort key, then sorted:
    no allocation (two scratch arrays took half of the time, sorting every move most
    of the rest)."""
    enemy = s[WHITE_PIECES + 1 - s[SIDE]]
    noisy = 0
    for i in range(count):
        move = moves[i]
        if (enemy >> (move & 63)) & 1:
            score = capture_score(s, move)
        elif move >> 12:
            score = (ORDER_VALUE[move >> 12] - 1) * 32
        else:
            continue
        for j in range(i, noisy, -1):  # the quiet moves between shift back
            moves[j] = moves[j - 1]
        moves[noisy] = ((1000 - score) << 40) | (noisy << 20) | move
        noisy += 1
    sort_keys(moves, noisy)


@rule("order_moves")
def order_moves(consts: Any, s: Any, moves: Any, count: int) -> None:
    """:meth:`Chess.order_moves`."""
    order_by_value(s, moves, count)


@helper()
def exchange_value(s: Any, move: int) -> Any:
    """``_eval.exchange_value``: what the capture ``move`` wins once both sides have
    taken on its square, cheapest piece first (lowest square first among equals),
    each free to stop; x-rays join, pins ignored."""
    target = move & 63
    origin = (move >> 6) & 63
    us = s[SIDE]
    target_bit = np.int64(1) << target
    attacker = piece_on(s, np.int64(1) << origin)
    victim = piece_on(s, target_bit)
    occupied = (s[6] | s[7]) ^ (np.int64(1) << origin)
    if victim < 0:  # en passant: a pawn, taken beside the target square
        victim = 0
        if attacker == 0:
            occupied ^= np.int64(1) << (target - 8 if us == 0 else target + 8)
    gains = np.empty(34, np.int64)
    gains[0] = SEE_VALUES[victim + 1]
    on_target = SEE_VALUES[attacker + 1]
    side = 1 - us
    depth = 0
    while True:
        takers = attackers(s, side, target, occupied)
        if takers == 0:
            break
        kind = 0
        while (takers & s[kind]) == 0:
            kind += 1
        taker = takers & s[kind]
        depth += 1
        gains[depth] = on_target - gains[depth - 1]
        on_target = SEE_VALUES[kind + 1]
        occupied ^= taker & -taker
        side = 1 - side
    while depth > 0:
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
        depth -= 1
    return gains[0]


@rule("quiescence_moves")
def quiescence_moves(consts: Any, s: Any, out: Any) -> Any:
    """:meth:`Chess.quiescence_moves`: the evasions in check; else the captures but
    those of a lesser piece that lose by the exchange evaluation, and queen
    promotions, by MVV-LVA."""
    if in_check(s):
        count = listed(s, out)
        order_by_value(s, out, count)
        return count
    count = generate(s, out, False)
    us = s[SIDE]
    enemy = s[WHITE_PIECES + 1 - us]
    occupied = s[6] | s[7]
    kept = 0
    for i in range(count):
        move = out[i]
        target = move & 63
        bit = np.int64(1) << target
        promotion = move >> 12
        if enemy & bit or (target == s[EP] and piece_on(s, np.int64(1) << (move >> 6 & 63)) == 0
                           and (move & 7) != ((move >> 6) & 7)):  # fmt: skip
            score = capture_score(s, move)
            victim = piece_on(s, bit)
            attacker = piece_on(s, np.int64(1) << ((move >> 6) & 63))
            victim = 0 if victim < 0 else victim
            if (
                ORDER_VALUE[victim + 1] < ORDER_VALUE[attacker + 1]
                and promotion == 0
                and exchange_value(s, move) < 0
            ):
                continue
        elif promotion == 5 and (occupied & bit) == 0:
            score = (ORDER_VALUE[5] - 1) * 32
        else:
            continue
        out[kept] = ((1000 - score) << 40) | (kept << 20) | move  # kept <= i
        kept += 1
    sort_keys(out, kept)
    return kept


@helper()
def gives_check(s: Any, move: int) -> Any:
    """Whether ``move`` puts the opponent in check: the moved (or promoted) piece on its
    square attacks the king, or one of ours does along the line it left. Castling and
    en passant, which move or take a second piece, are played on a copy."""
    origin, target, promotion = (move >> 6) & 63, move & 63, move >> 12
    us = s[SIDE]
    from_bit = np.int64(1) << origin
    to_bit = np.int64(1) << target
    piece = piece_on(s, from_bit)
    step = target - origin
    if (piece == 5 and step in (2, -2)) or (
        piece == 0 and step % 8 != 0 and target == s[EP] and ((s[6] | s[7]) & to_bit) == 0
    ):
        after = np.empty(HISTORY, np.int64)
        at: Any = native.ptr(after)  # type: ignore[call-arg]  # an intrinsic
        move_pieces(s, move, at)
        return attackers(at, us, king_of(at, 1 - us), at[6] | at[7]) != 0
    king = king_of(s, 1 - us)
    occupied = ((s[6] | s[7]) & ~from_bit) | to_bit
    # Ours but the moved piece (not on ``occupied``), through the square it left.
    if attackers(s, us, king, occupied) != 0:
        return True
    placed = promotion - 1 if promotion else piece
    if placed == 0:
        reach = PAWN[(1 - us) * 64 + king]
    elif placed == 1:
        reach = KNIGHT[king]
    else:
        reach = np.int64(0)
        if placed in (2, 4):
            reach |= slide(king, occupied, 2)
        if placed in (3, 4):
            reach |= slide(king, occupied, 0)
    return (reach & to_bit) != 0


@rule("is_quiet")
def is_quiet(consts: Any, s: Any, move: int) -> int:
    """:meth:`Chess.is_quiet`: no capture, promotion or check, not out of check (never
    with reductions off)."""
    if consts[USE_REDUCTIONS] == 0 or move >> 12:
        return 0
    if ((s[6] | s[7]) >> (move & 63)) & 1:
        return 0
    if in_check(s) or gives_check(s, move):
        return 0
    return 1


@rule("extension")
def extension(consts: Any, s: Any) -> Any:
    """One ply more in check."""
    return 1 if in_check(s) else 0


@rule("null_move")
def null_move(consts: Any, s: Any, c: Any) -> int:
    """:meth:`Chess.null_move`: the turn passed (no en passant, a new past), unless
    the option is off, the last ply was a pass (or the root's FEN), the side to move
    is in check or has only pawns and king."""
    if consts[USE_NULL] == 0 or s[MOVED] == 0 or in_check(s):
        return 0
    if (s[WHITE_PIECES + s[SIDE]] & ~(s[0] | s[5])) == 0:
        return 0
    for i in range(8):
        c[i] = s[i]
    c[SIDE] = 1 - s[SIDE]
    c[CASTLING] = s[CASTLING]
    c[EP] = -1
    finish(s, c, s[CLOCK] + 1, 0)
    return 1


@helper()
def perft(  # noqa: PLR0917  # as checkers' perft
    rules: Any, consts: Any, states: Any, moves: Any, ply: int, depth: int
) -> int:
    """Leaves ``depth`` plies below ``states[ply]`` (the last ply counted, not
    played): the move generator (perft ignores the draw rules, which the
    ``legal_moves`` rule applies) and the ``play`` rule; ``states`` and ``moves`` have
    ``ply + depth + 1`` rows."""
    count = generate(native.ptr(states[ply]), native.ptr(moves[ply]), False)  # type: ignore[call-arg]
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


# -- the Python side -----------------------------------------------------------------


def _mix(h: int) -> int:
    h &= _MASK64
    h ^= h >> 30
    h = (h * 0xBF58476D1CE4E5B9) & _MASK64
    h ^= h >> 27
    h = (h * 0x94D049BB133111EB) & _MASK64
    return h ^ (h >> 31)


def tuple_hash(position: tuple[Any, ...]) -> int:
    """:func:`position_hash` of a Python position (``ChessState.position()``), as an
    int64."""
    h = 0
    occupied = (position[6], position[7])
    for colour in range(2):
        for kind in range(6):
            pieces = position[kind] & occupied[colour]
            base = (colour * 6 + kind) * 64
            while pieces:
                square = (pieces & -pieces).bit_length() - 1
                pieces &= pieces - 1
                h ^= _ZOBRIST[base + square]
    rights = position[9]
    while rights:
        square = (rights & -rights).bit_length() - 1
        rights &= rights - 1
        h ^= _ZOBRIST[Z_CASTLING + square]
    if position[10] is not None:
        h ^= _ZOBRIST[Z_EP + position[10]]
    if not position[8]:
        h ^= _ZOBRIST[Z_BLACK]
    return _signed(h)


def member_hash(position_hash: int) -> int:
    """:func:`set_member` in Python."""
    return _signed(_mix((position_hash & _MASK64) + 0x9E3779B97F4A7C15))


_HASHES: dict[tuple[Any, ...], int] = {}


def _hash_of(state: ChessState) -> int:
    position = state.position()
    found = _HASHES.get(position)
    if found is None:
        if len(_HASHES) >= 1 << 16:
            _HASHES.clear()
        found = _HASHES[position] = tuple_hash(position)
    return found


class ChessNative(NativeGame[ChessState, chess.Move]):
    """The adapter of :class:`~plies.games.chess.Chess` (standard chess boards)."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    key = key
    order_moves = order_moves
    quiescence_moves = quiescence_moves
    null_move = null_move
    extension = extension
    is_quiet = is_quiet

    #: The kernel's search only: an exact solve of chess (lines end by the fifty-move
    #: rule at the soonest) is out of reach, natively as in Python.
    tasks = ("search",)

    def __init__(self, game: Chess) -> None:
        self.game = game
        self._consts = int64_array([int(game.use_null_move), int(game.use_reductions)])

    def pruning_hooks(self) -> tuple[bool, bool, bool]:
        """As every port's, with no ``is_quiet`` when the game's reductions are off
        (``Chess.has_quiet_moves``), as the Python engine sees it."""
        has_null, has_extension, has_quiet = super().pruning_hooks()
        return has_null, has_extension, has_quiet and self.game.has_quiet_moves

    def problem(self, state: ChessState | None) -> str | None:
        """Why ``state`` cannot be searched natively: a variant or Chess960 board, a
        position python-chess calls invalid, or a state whose moves were restricted
        (``restricted``, ``unclaimed``)."""
        if state is None:
            return None
        board = state.board
        if type(board) is not chess.Board or board.chess960:
            return "the native chess port plays standard chess only (no variant, no Chess960)"
        status = board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK
        if status != chess.STATUS_VALID:
            return f"the native chess port needs a valid position, not {board.fen()}"
        if state._moves is not None:
            fresh = ChessState(
                board, parent=state.parent, move=state.move,
                mg=state.mg, eg=state.eg, phase=state.phase,
            )  # fmt: skip
            if self.game.legal_moves(fresh) != state._moves:
                return "the native chess port searches every legal move (no restricted root)"
        return None

    def prepare(self, state: ChessState) -> Prepared:
        """The options and the encoded state; lines end within 101 plies of each
        capture or pawn move, of which the pieces allow a bounded number.

        Quiescence: a capture or promotion a ply out of check, every evasion in check,
        so a line below the horizon has at most a capture per piece and a promotion
        per pawn, twice over with the evasions between; a chain of checks evading
        checks ends only by the draw rules (101 plies), and two such chains are
        allowed for. (The whole game's bound as rows took 10 ms a search to allocate;
        the kernel has no guard of its own against a longer line.)"""
        board = state.board
        pieces = chess.popcount(board.occupied)
        pawns = chess.popcount(board.pawns)
        resets = pieces + 6 * pawns
        max_plies = max(100 - board.halfmove_clock, 0) + 1 + resets * 101
        prepared = Prepared(self._consts, None, max_moves=MAX_MOVES, max_plies=max_plies,
                            move_space=MOVE_SPACE,
                            quiescence_plies=2 * (pieces + pawns) + 2 + 2 * 101)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode(self, prepared: Prepared, state: ChessState) -> Any:
        """The state array (see the module docstring)."""
        board = state.board
        values = [0] * STATE_SIZE
        values[0:6] = [
            _signed(b)
            for b in (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                      board.kings)
        ]  # fmt: skip
        values[6] = _signed(board.occupied_co[chess.WHITE])
        values[7] = _signed(board.occupied_co[chess.BLACK])
        values[SIDE] = 0 if board.turn else 1
        values[CASTLING] = _signed(board.castling_rights)
        values[EP] = -1 if board.ep_square is None else board.ep_square
        values[CLOCK] = board.halfmove_clock
        values[MOVED] = 0 if state.move is None else 1
        values[HASH] = _hash_of(state)
        repeated = 0
        for position in state.repeated():
            repeated ^= member_hash(tuple_hash(position))
        values[REPEATED] = repeated
        values[REPS] = state.repetitions()
        earlier: list[int] = []
        walk = state.parent
        while walk is not None and len(earlier) < min(board.halfmove_clock, HISTORY_SIZE):
            earlier.append(_hash_of(walk))
            walk = walk.parent
        earlier.reverse()
        values[COUNT] = len(earlier)
        values[HISTORY : HISTORY + len(earlier)] = earlier
        return int64_array(values)

    def encode_move(self, prepared: Prepared, move: chess.Move) -> int:
        """``from * 64 + to + 4096 * promotion``."""
        return move.from_square * 64 + move.to_square + 4096 * (move.promotion or 0)

    def decode_move(self, prepared: Prepared, move: int) -> chess.Move:
        """The :class:`chess.Move` of an id."""
        return chess.Move((move >> 6) & 63, move & 63, (move >> 12) or None)
