"""The chess evaluation's positional terms (pawn structure, the king's shelter,
mobility, rooks on open files) and the static exchange evaluation.

:mod:`plies.games.chess` keeps material and piece-square sums up to date move by
move; this module adds what depends on several pieces at once, from the bitboards of
a python-chess board:

* pawn structure: passed pawns (more the further they are, most in the endgame),
  doubled and isolated pawns;
* the king's pawn shield and the open files beside it (middlegame);
* mobility of knights, bishops, rooks and queens, rooks on open and half-open
  files, the attack on the enemy king (middlegame: the squares around it each
  piece attacks, weighted by the piece and by how many pieces attack), threats
  (pieces attacked by lesser ones, counted by whose move it is) and the tempo
  (:func:`piece_terms`, computed for every position).

The weights live in :mod:`plies.games.chess._tables`, fitted to Stockfish's
evaluations by ``scripts/tune_chess.py``; the shapes (which squares, which
pieces) are here.

:func:`exchange_value` is the static exchange evaluation of a capture, which the
quiescence search asks before it tries a capture of a lesser piece.

The pawn and king terms depend only on the pawns and the two kings, so they are kept
in a table keyed by those (the same few pawn structures recur all through a search). Every term is
computed for white on the board and for black on the board flipped, so the
evaluation of a position and of its colour-mirrored twin agree exactly.

Measured on Win At Chess (all 300, 20,000 nodes a move, in-process): 178 solved
without these terms, 182 with them, at a cost of about 5% of the nodes per second.
A count of the enemy pieces within two squares of each king (weighted, on a rising
scale) solved 182 as well, for another 5% of the speed: it was left out, as were
an extension for a pawn reaching the seventh rank (180) and ordering quiet moves by
their piece-square gain (182).

Mobility and rooks on open files, in self-play at equal time (0.1 s a move, the native
search, 80 games from 6 random plies): +61 Elo (95%: -8 .. +136) against the evaluation
without them, for a fifth of the nodes per second. Counting the squares enemy pawns
attack as well: +17 (95%: -35 .. +70) against leaving them out, no clear gain, so they
stay out. The exchange evaluation in the quiescence search, against dropping every
capture of a lesser piece on a defended square: +28 (95%: -30 .. +88, 100 games).
The king attack, against Stockfish at ``UCI_Elo`` 2000 (0.1 s a move, 200 games):
34.5% against 28.0% before (248 games), for a tenth of the nodes per second. Threats
and the tempo, every weight fitted: 50.5% against 41.5% for the fitted weights without
them (200 games each). Safe checks (the squares from which a piece could check the
king next move, not held by the side's own pieces nor watched by enemy pawns) fitted
Stockfish's scores a little better but scored 45.2% against 50.5%: left out.
"""

from __future__ import annotations

import chess

from plies.games.chess import _tables

__all__ = ["SEE_VALUE", "exchange_value", "pawn_attacks", "pawn_king_terms", "piece_terms"]

#: Passed pawn bonus by rank from its own side (index 1 = second rank .. 6 = seventh).
_PASSED_MG = _tables.PASSED_MG
_PASSED_EG = _tables.PASSED_EG
#: Per pawn beyond the first on a file, and per pawn with no pawn of its side on the
#: neighbouring files (middlegame, endgame).
_DOUBLED = _tables.DOUBLED
_ISOLATED = _tables.ISOLATED
#: King shield (middlegame): per own pawn right in front of the king (the three files
#: around it), per pawn one rank further, and the penalty per one of those files with
#: no own pawn at all.
_SHIELD_NEAR = _tables.SHIELD_NEAR
_SHIELD_FAR = _tables.SHIELD_FAR
_OPEN_FILE = _tables.OPEN_FILE

_FILE_MASKS = tuple(chess.BB_FILES)


def _adjacent_files(file: int) -> int:
    mask = 0
    if file > 0:
        mask |= _FILE_MASKS[file - 1]
    if file < 7:
        mask |= _FILE_MASKS[file + 1]
    return mask


_ADJACENT = tuple(_adjacent_files(file) for file in range(8))


def _ahead(square: int) -> int:
    """The squares in front of ``square`` (white's view) on its file and the two beside."""
    file, rank = square & 7, square >> 3
    files = _FILE_MASKS[file] | _ADJACENT[file]
    ranks = 0
    for higher in range(rank + 1, 8):
        ranks |= chess.BB_RANKS[higher]
    return files & ranks


_AHEAD = tuple(_ahead(square) for square in range(64))


def _white_terms(own: int, enemy: int, king: int) -> tuple[int, int]:
    """(middlegame, endgame) pawn and shield terms for white's pawns ``own`` against
    black's ``enemy``, white's king on ``king``."""
    mg = eg = 0
    for file in range(8):
        on_file = (own & _FILE_MASKS[file]).bit_count()
        if not on_file:
            continue
        if on_file > 1:
            mg -= _DOUBLED[0] * (on_file - 1)
            eg -= _DOUBLED[1] * (on_file - 1)
        if not own & _ADJACENT[file]:
            mg -= _ISOLATED[0] * on_file
            eg -= _ISOLATED[1] * on_file
    pawns = own
    while pawns:
        square = pawns.bit_length() - 1
        pawns ^= 1 << square
        # Passed: no enemy pawn ahead on its file or beside, and no own pawn ahead
        # on its file (the rear one of a doubled pair is not counted).
        if not enemy & _AHEAD[square] and not own & _AHEAD[square] & _FILE_MASKS[square & 7]:
            rank = square >> 3
            mg += _PASSED_MG[rank]
            eg += _PASSED_EG[rank]
    rank = king >> 3
    if rank <= 1:
        file = king & 7
        files = _FILE_MASKS[file] | _ADJACENT[file]
        near = files & chess.BB_RANKS[rank + 1]
        far = files & chess.BB_RANKS[rank + 2]
        mg += _SHIELD_NEAR * (own & near).bit_count() + _SHIELD_FAR * (own & far).bit_count()
        for shield_file in range(max(0, file - 1), min(7, file + 1) + 1):
            if not own & _FILE_MASKS[shield_file]:
                mg -= _OPEN_FILE
    return mg, eg


_CACHE: dict[tuple[int, int, int, int], tuple[int, int]] = {}
_CACHE_LIMIT = 1 << 16


def pawn_king_terms(board: chess.Board) -> tuple[int, int]:
    """(middlegame, endgame) pawn-structure and king-shield score from white's view.

    Kept per pawn structure and king squares (a dict of up to 65,536 entries,
    emptied when full).
    """
    white = board.occupied_co[chess.WHITE]
    pawns = board.pawns
    kings = board.kings
    white_pawns = pawns & white
    black_pawns = pawns & ~white
    white_king = (kings & white).bit_length() - 1
    black_king = (kings & ~white).bit_length() - 1
    key = (white_pawns, black_pawns, white_king, black_king)
    found = _CACHE.get(key)
    if found is None:
        white_mg, white_eg = _white_terms(white_pawns, black_pawns, white_king)
        black_mg, black_eg = _white_terms(
            chess.flip_vertical(black_pawns), chess.flip_vertical(white_pawns), black_king ^ 56
        )
        found = (white_mg - black_mg, white_eg - black_eg)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


# -- the pieces: mobility and rooks on open files -----------------------------------

#: Mobility per piece type (index 2 knight .. 5 queen): (middlegame, endgame) points
#: per square it attacks that holds no piece of its own and no enemy pawn attacks,
#: counted from a usual number of such squares (fewer cost, more gain).
_MOBILITY_MG = _tables.MOBILITY_MG
_MOBILITY_EG = _tables.MOBILITY_EG
_MOBILITY_USUAL = (0, 0, 4, 6, 6, 12, 0)
#: A rook on a file without pawns (open), or without pawns of its own (half-open):
#: (middlegame, endgame).
_ROOK_OPEN = _tables.ROOK_OPEN
_ROOK_HALF_OPEN = _tables.ROOK_HALF_OPEN
#: The attack on the enemy king (middlegame only): each knight, bishop, rook or queen
#: that attacks a square of the king's zone (its square and those next to it) adds
#: its weight per such square; the sum counts by the share of how many pieces attack
#: (in percent, index: attackers, at most 7), so one piece alone counts nothing.
_KING_ATTACK_WEIGHT = _tables.KING_ATTACK_WEIGHT
_KING_ATTACKERS_SHARE = (0, 0, 50, 75, 88, 94, 97, 99)
#: Threats, by whose move it is (middlegame, endgame): a piece is threatened when an
#: enemy pawn attacks it (a pawn or the king is never threatened), a minor piece
#: attacks it and it is a rook or a queen, or a rook attacks it and it is a queen.
#: Per threatened piece of the side to move (it may still save one), per one of those
#: beyond the first (a fork: it saves only one), and per threatened piece of the
#: side that has just moved; and the side to move's own bonus (the tempo).
_THREATENED_MOVING = _tables.THREATENED_MOVING
_FORKED = _tables.FORKED
_THREATENED_WAITING = _tables.THREATENED_WAITING
_TEMPO = _tables.TEMPO

_NOT_FILE_A = chess.BB_ALL & ~chess.BB_FILE_A
_NOT_FILE_H = chess.BB_ALL & ~chess.BB_FILE_H


def pawn_attacks(pawns: int, white: bool) -> int:
    """The squares ``pawns`` (of white if ``white``, else of black) attack."""
    if white:
        return ((pawns << 7) & _NOT_FILE_H | (pawns << 9) & _NOT_FILE_A) & chess.BB_ALL
    return (pawns >> 7) & _NOT_FILE_A | (pawns >> 9) & _NOT_FILE_H


def _attacks(kind: int, square: int, occupied: int) -> int:
    """The squares a knight, bishop, rook or queen on ``square`` attacks."""
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    found = 0
    if kind != chess.ROOK:
        found = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if kind != chess.BISHOP:
        found |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        found |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return found


def _side_piece_terms(board: chess.Board, colour: bool) -> tuple[int, int, int]:
    """(middlegame, endgame) mobility, rook-file and king-attack terms of ``colour``'s
    pieces, and how many enemy pieces they threaten."""
    own = board.occupied_co[colour]
    own_pawns = board.pawns & own
    enemy_pawns = board.pawns & ~own
    allowed = ~own & ~pawn_attacks(enemy_pawns, not colour) & chess.BB_ALL
    occupied = board.occupied
    enemy_king = (board.kings & ~own).bit_length() - 1
    zone = chess.BB_KING_ATTACKS[enemy_king] | 1 << enemy_king
    mg = eg = attackers = attack = by_minor = by_rook = 0
    for kind, pieces in (
        (chess.KNIGHT, board.knights),
        (chess.BISHOP, board.bishops),
        (chess.ROOK, board.rooks),
        (chess.QUEEN, board.queens),
    ):
        pieces &= own
        while pieces:
            square = (pieces & -pieces).bit_length() - 1
            pieces &= pieces - 1
            attacked = _attacks(kind, square, occupied)
            if kind <= chess.BISHOP:
                by_minor |= attacked
            elif kind == chess.ROOK:
                by_rook |= attacked
            near_king = attacked & zone
            if near_king:
                attackers += 1
                attack += _KING_ATTACK_WEIGHT[kind] * near_king.bit_count()
            squares = (attacked & allowed).bit_count() - _MOBILITY_USUAL[kind]
            mg += _MOBILITY_MG[kind] * squares
            eg += _MOBILITY_EG[kind] * squares
            if kind == chess.ROOK:
                file = _FILE_MASKS[square & 7]
                if not board.pawns & file:
                    mg += _ROOK_OPEN[0]
                    eg += _ROOK_OPEN[1]
                elif not own_pawns & file:
                    mg += _ROOK_HALF_OPEN[0]
                    eg += _ROOK_HALF_OPEN[1]
    mg += attack * _KING_ATTACKERS_SHARE[min(attackers, 7)] // 100
    enemy = board.occupied_co[not colour]
    threatened = (
        enemy & ~board.pawns & ~board.kings & pawn_attacks(own_pawns, colour)
        | enemy & (board.rooks | board.queens) & by_minor
        | enemy & board.queens & by_rook
    )
    return mg, eg, threatened.bit_count()


def piece_terms(board: chess.Board) -> tuple[int, int]:
    """(middlegame, endgame) mobility, rooks on open files, the attack on the enemy
    king, threats and the tempo from white's view.

    Mobility: for each knight, bishop, rook and queen, the squares it attacks that
    hold no piece of its side and that no enemy pawn attacks, less a usual number,
    times a weight per piece type. A rook on a file without pawns, or without pawns
    of its side, gains. The king attack (middlegame): the squares of the enemy king's
    zone each piece attacks, weighted by the piece, times a share that grows with the
    number of attacking pieces (none for one). Threats (see ``_THREATENED_MOVING``)
    and the tempo count by whose move it is. The same geometry for both colours, so
    the colour-mirrored position (the other side to move) scores the negation.
    """
    white_mg, white_eg, by_white = _side_piece_terms(board, chess.WHITE)
    black_mg, black_eg, by_black = _side_piece_terms(board, chess.BLACK)
    moving, waiting = (by_black, by_white) if board.turn else (by_white, by_black)
    sign = 1 if board.turn else -1
    forks = max(0, moving - 1)
    threat_mg = (
        _TEMPO[0]
        - _THREATENED_MOVING[0] * moving
        - _FORKED[0] * forks
        + _THREATENED_WAITING[0] * waiting
    )
    threat_eg = (
        _TEMPO[1]
        - _THREATENED_MOVING[1] * moving
        - _FORKED[1] * forks
        + _THREATENED_WAITING[1] * waiting
    )
    return white_mg - black_mg + sign * threat_mg, white_eg - black_eg + sign * threat_eg


# -- static exchange evaluation -----------------------------------------------------

#: Piece values of the exchange evaluation (index 1 pawn .. 6 king): a king "captured"
#: ends the line so badly for its side that it never takes a defended piece.
SEE_VALUE = (0, 100, 300, 300, 500, 900, 20000)


def exchange_value(board: chess.Board, move: chess.Move) -> int:
    """What the capture ``move`` wins (centipawns, negative: loses) once every piece
    attacking its target square, cheapest first, has taken or declined to
    (static exchange evaluation: each side may stop when taking on would lose more).

    Pieces behind others on a line join as those leave (x-rays); pins and checks
    are ignored. Among pieces of one type the lowest square takes first.
    """
    target = move.to_square
    attacker = board.piece_type_at(move.from_square)
    victim = board.piece_type_at(target) or chess.PAWN  # en passant: a pawn
    assert attacker is not None, f"no piece on {chess.square_name(move.from_square)}"
    occupied = board.occupied ^ (1 << move.from_square)
    if not board.occupied >> target & 1 and attacker == chess.PAWN:  # en passant
        occupied ^= 1 << (target - 8 if board.turn else target + 8)
    by_kind = (0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    gains = [SEE_VALUE[victim]]
    on_target = SEE_VALUE[attacker]
    side = not board.turn
    while True:
        takers = board.attackers_mask(side, target, occupied) & occupied
        if not takers:
            break
        kind = 1
        while not takers & by_kind[kind]:
            kind += 1
        taker = takers & by_kind[kind]
        gains.append(on_target - gains[-1])
        on_target = SEE_VALUE[kind]
        occupied ^= taker & -taker
        side = not side
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0]
