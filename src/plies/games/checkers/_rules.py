"""English draughts (checkers) on 8 x 8, on bitboards.

**Board and notation.** The 32 dark squares are numbered 1-32 as in checkers
literature: the board is seen with Black at the top, square 1 is the dark square
nearest the top-left corner (the second square of the top row), 1-4 make the top row,
5-8 the next, and so on down to 29-32. Black starts on 1-12 and moves first, "down"
towards 32; White starts on 21-32 and moves up towards 1. Black's first moves are
``9-13 9-14 10-14 10-15 11-15 11-16 12-16``.

A move is written ``11-15`` (a step), ``22x15`` (a jump) or ``22x15x24`` (a multiple
jump: every square landed on). :meth:`Checkers.parse_move` also takes a jump's start
and end alone (``22x24``) when only one legal jump joins them, and either separator.

**Rules.** Men move one square diagonally forward, kings forward and backward. A
capture jumps an adjacent opponent piece to the empty square beyond it and must go on
jumping while it can; a move is the whole sequence. Capturing is compulsory, but any
capturing sequence may be chosen (not necessarily the longest). A man reaching the far
row (Black: 29-32, White: 1-4) is crowned and the move ends there, even if the new
king could jump on. Jumped pieces are removed when the move is complete (no piece is
jumped twice). Two sequences that start and end on the same squares and capture the
same pieces give the same position and are one move (the first path found is the one
listed; parse_move accepts the other).

**End of the game.** The side to move with no legal move (no pieces left, or all
blocked) loses. The draw rule: a game in which ``draw_moves`` moves by each side (80
plies by default) pass without a capture or a man's move is drawn (tournament play
has a 40-move rule of this kind, which a player claims and a referee counts; here it
applies by itself, to both sides).
The count of such plies is part of the state (and of its key and POSITION text), since
the same board can be won with 80 plies left and drawn with 2. A position where the
side to move has no move is a loss even when the count has just reached the limit.

**Positions.** A POSITION is either the moves from the start (``11-15 23-19 8-11``;
PDN move numbers such as ``1.`` are skipped), or a position in PDN's FEN form::

    B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12

the side to move (``B`` or ``W``), then the white and the black pieces (either order),
each a comma-separated list of squares, ``K`` before a king (``W:WK3,18:B1-4,K30``;
``a-b`` is a range). An optional last field, a number, is the count of plies played
without a capture or a man's move (omitted when 0). :meth:`Checkers.format_position`
writes this form.

**Bitboards.** Square ``s`` (1-32) is bit ``k + k // 8`` for ``k = s - 1``: rows of
four squares packed with an unused "ghost" bit (8, 17, 26) after every second row, so
that every diagonal step is a shift by 4 or 5 on every row (+4/+5 down the board,
-4/-5 up), and a step off the side of the board lands on a ghost bit, which is never
empty.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame, Board
from plies.games.text import check_export, check_player, clip, read_int, shown, whole

__all__ = [
    "DRAW_MOVES",
    "Checkers",
    "CheckersMove",
    "CheckersState",
    "format_path",
    "square_bit",
]

#: The default draw rule: this many moves by each side without a capture or a man's move.
DRAW_MOVES = 40
#: The largest ``draw_moves`` a game accepts.
MAX_DRAW_MOVES = 1000

CheckersMove = tuple[int, ...]
"""A move: the squares (1-32) the piece stands on and lands on, in order."""


def square_bit(square: int) -> int:
    """The bit index of ``square`` (1-32) in the bitboards."""
    k = square - 1
    return k + k // 8


_SQUARES = range(1, 33)
#: Square number of each bit index (0 for the ghost bits).
_SQUARE_OF = [0] * 35
for _s in _SQUARES:
    _SQUARE_OF[square_bit(_s)] = _s
_BOARD = sum(1 << square_bit(s) for s in _SQUARES)
#: The bit mask of each square (index 0 unused).
_MASK_OF = [0, *(1 << square_bit(s) for s in _SQUARES)]
_ROW_OF = [0] * 35  # row 0 (squares 1-4, the top) to row 7 (29-32), per bit index
for _s in _SQUARES:
    _ROW_OF[square_bit(_s)] = (_s - 1) // 4

#: The rows where men are crowned: Black's on 29-32, White's on 1-4.
_CROWN = (
    sum(1 << square_bit(s) for s in range(29, 33)),
    sum(1 << square_bit(s) for s in range(1, 5)),
)
#: The home rows (Black's 1-4, White's 29-32): men there keep the other side from crowning.
_HOME = (_CROWN[1], _CROWN[0])
_CENTRE = sum(1 << square_bit(s) for s in (10, 11, 14, 15, 18, 19, 22, 23))

_START_BLACK = sum(1 << square_bit(s) for s in range(1, 13))
_START_WHITE = sum(1 << square_bit(s) for s in range(21, 33))

#: Signed shifts of a man's forward steps: Black's go down the board, White's up.
_FORWARD = ((4, 5), (-4, -5))
_ALL_SHIFTS = (4, 5, -4, -5)


def _step_table(shifts: Sequence[int]) -> list[tuple[int, ...]]:
    """Per bit index, the bit indices one step away along ``shifts`` on the board."""
    table: list[tuple[int, ...]] = []
    for bit in range(35):
        targets = []
        if _BOARD >> bit & 1:
            for shift in shifts:
                target = bit + shift
                if 0 <= target < 35 and _BOARD >> target & 1:
                    targets.append(target)
        table.append(tuple(sorted(targets)))  # moves listed in square order
    return table


def _jump_table(shifts: Sequence[int]) -> list[tuple[tuple[int, int], ...]]:
    """Per bit index, the (jumped bit, landing bit) pairs along ``shifts`` on the board."""
    table: list[tuple[tuple[int, int], ...]] = []
    for bit in range(35):
        jumps = []
        if _BOARD >> bit & 1:
            for shift in shifts:
                over, land = bit + shift, bit + 2 * shift
                if 0 <= land < 35 and _BOARD >> over & 1 and _BOARD >> land & 1:
                    jumps.append((over, land))
        table.append(tuple(jumps))
    return table


_MAN_STEPS = (_step_table(_FORWARD[0]), _step_table(_FORWARD[1]))
_KING_STEPS = _step_table(_ALL_SHIFTS)
_MAN_JUMPS = (_jump_table(_FORWARD[0]), _jump_table(_FORWARD[1]))
_KING_JUMPS = _jump_table(_ALL_SHIFTS)

#: ``_HOP[a * 33 + b]``: the bit mask of the square jumped from square a to square b, 0
#: when a to b is no jump (a step, or not on one diagonal two apart).
_HOP = [0] * (33 * 33)
for _bit in range(35):
    for _over, _land in _KING_JUMPS[_bit]:
        _HOP[_SQUARE_OF[_bit] * 33 + _SQUARE_OF[_land]] = 1 << _over
_ADJACENT = {(_SQUARE_OF[b], _SQUARE_OF[t]) for b in range(35) for t in _KING_STEPS[b]}

_SIDE_NAMES = ("Black", "White")
_MOVE_TEXT = re.compile(r"\s*(\d+)((?:\s*[-xX]\s*\d+)+)\s*")
_MOVE_NUMBER = re.compile(r"\d+\.+")
_FEN_START = re.compile(r"\s*[BWbw]\s*:")


class CheckersState(NamedTuple):
    """A position: both sides' pieces, the kings, the side to move and the draw count.

    ``black``, ``white`` and ``kings`` are bitboards (see the module documentation;
    ``kings`` holds the kings of both colours). ``player`` is 0 when Black is to move,
    1 for White. ``quiet`` counts the plies played since the last capture or man's move.
    """

    black: int
    white: int
    kings: int
    player: int
    quiet: int


def _bits(mask: int) -> list[int]:
    """The bit indices set in ``mask``, lowest first (so in square order)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _sides(state: CheckersState) -> tuple[int, int]:
    """The pieces of the side to move and of its opponent."""
    if state.player == 0:
        return state.black, state.white
    return state.white, state.black


def _jumpers(men: int, kings: int, opponent: int, empty: int, player: int) -> int:
    """The pieces (of ``player``) that can capture something."""
    found = 0
    for shift in _FORWARD[player]:
        if shift > 0:
            found |= (men | kings) & (opponent >> shift) & (empty >> 2 * shift)
            found |= kings & (opponent << shift) & (empty << 2 * shift)
        else:
            found |= (men | kings) & (opponent << -shift) & (empty << -2 * shift)
            found |= kings & (opponent >> -shift) & (empty >> -2 * shift)
    return found


def _step_targets(men: int, kings: int, empty: int, player: int) -> tuple[int, ...]:
    """The squares reached by steps, one mask per direction (forward ones first)."""
    forward = men | kings
    if player == 0:
        return (forward << 4 & empty, forward << 5 & empty, kings >> 4 & empty, kings >> 5 & empty)
    return (forward >> 4 & empty, forward >> 5 & empty, kings << 4 & empty, kings << 5 & empty)


def _mobility(men: int, kings: int, empty: int, player: int) -> int:
    """The number of steps (not jumps) the pieces could make."""
    return sum(mask.bit_count() for mask in _step_targets(men, kings, empty, player))


def _has_move(state: CheckersState) -> bool:
    """Whether the side to move has a legal move (the draw count aside)."""
    own, opponent = _sides(state)
    kings = own & state.kings
    men = own ^ kings
    empty = _BOARD & ~(state.black | state.white)
    if _jumpers(men, kings, opponent, empty, state.player):
        return True
    return any(_step_targets(men, kings, empty, state.player))


class _JumpSearch(NamedTuple):
    """What stays fixed while the jump sequences of one piece are listed."""

    #: Empty squares (the moving piece's own square included).
    empty: int
    #: The (jumped bit, landing bit) pairs of each bit for this piece.
    table: list[tuple[tuple[int, int], ...]]
    #: Where the piece is crowned (0 for a king).
    crown: int
    #: (last square, captured mask) -> the first path that gets there: two routes to
    #: one result are one move.
    found: dict[tuple[int, int], tuple[int, ...]]


def _extend(at: int, path: tuple[int, ...], opponent: int, captured: int, job: _JumpSearch) -> None:
    """Add to ``job.found`` every complete jump sequence going on from bit ``at``.

    ``path`` holds the squares so far, ``opponent`` the opponent pieces not yet
    jumped, ``captured`` those jumped.
    """
    ended = True
    for over, land in job.table[at]:
        if opponent >> over & 1 and job.empty >> land & 1:
            ended = False
            square = _SQUARE_OF[land]
            gone = captured | 1 << over
            if job.crown >> land & 1:  # a man is crowned: the move ends here
                job.found.setdefault((square, gone), (*path, square))
            else:
                _extend(land, (*path, square), opponent ^ 1 << over, gone, job)
    if ended:
        job.found.setdefault((path[-1], captured), path)


def _captured(move: CheckersMove) -> int:
    """The bit mask of the squares a move (known to be well formed) jumps."""
    captured = 0
    for a, b in pairwise(move):
        captured |= _HOP[a * 33 + b]
    return captured


def _is_jump(move: CheckersMove) -> bool:
    """Whether a well-formed move is a capture."""
    return len(move) > 2 or _HOP[move[0] * 33 + move[1]] != 0


def format_path(move: CheckersMove) -> str:
    """A move as text: ``11-15`` for a step, ``22x15x24`` for jumps."""
    if len(move) >= 2 and all(type(s) is int and 1 <= s <= 32 for s in move):
        return ("x" if _is_jump(move) else "-").join(map(str, move))
    return clip(repr(move))


class Checkers(BaseGame[CheckersState, CheckersMove]):
    """English draughts from the standard start, Black (squares 1-12) to move.

    ``draw_moves`` is the draw rule: the game is drawn once each side has made that
    many moves (``2 * draw_moves`` plies) without a capture or a man's move.
    """

    name = "checkers"
    state_type = CheckersState
    last_mover_wins = True  # the only wins: a move that leaves the opponent no move
    # No winning_move hook: a complete one (the solver needs every win in one) cost
    # more than it saved, measured: 2K v 1K (B:WK28:BK19,K23) solved in 3.6-4.0 s with
    # it (169k nodes), 2.3-2.6 s without (197k); depth-11 searches 15-25% slower.

    def __init__(self, draw_moves: int = DRAW_MOVES) -> None:
        if isinstance(draw_moves, bool) or not isinstance(draw_moves, int):
            raise ArgumentTypeError(f"checkers draw_moves must be an integer, got {draw_moves!r}")
        if not 1 <= draw_moves <= MAX_DRAW_MOVES:
            raise PliesError(
                f"checkers draw_moves must be between 1 and {MAX_DRAW_MOVES}, got {draw_moves}"
            )
        self.draw_moves = draw_moves
        #: Plies without a capture or a man's move after which the game is drawn.
        self.draw_plies = 2 * draw_moves
        # The last (state, its legal moves): play() checks a move against the moves
        # the caller has just listed, and the engine asks terminal_value, then
        # legal_moves of one state.
        self._last_moves: tuple[CheckersState | None, list[CheckersMove]] = (None, [])

    def __repr__(self) -> str:
        if self.draw_moves == DRAW_MOVES:
            return "Checkers()"
        return f"Checkers(draw_moves={self.draw_moves})"

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`CheckersState`: the two sides' pieces
        on the 32 dark squares, apart, the kings among them, the player 0 or 1 and the
        draw count from 0 to this game's limit."""
        super().check_state(state)
        assert isinstance(state, CheckersState)
        black, white, kings, player, quiet = state
        if not all(whole(field) for field in state):
            problem = "its fields are not five ints"
        elif min(black, white, kings) < 0 or (black | white) & ~_BOARD or black & white:
            problem = "pieces off the board or on one another"
        elif kings & ~(black | white):
            problem = "kings that are no pieces"
        elif player not in (0, 1) or not 0 <= quiet <= self.draw_plies:
            problem = f"player {player}, draw count {quiet}"
        else:
            return
        raise PliesError(f"checkers: {shown(repr(state))} is not a position ({problem})")

    @staticmethod
    def _check_move(move: object) -> CheckersMove:
        """``move``, which must be a tuple of ints (a move's squares)."""
        if type(move) is not tuple or not all(type(square) is int for square in move):
            raise ArgumentTypeError(
                "checkers: a move is a tuple of squares such as (11, 15), got "
                f"{clip(repr(move))} of type {type(move).__name__}"
            )
        return move

    def native(self) -> Any:
        """The native port (:mod:`plies.games.checkers._native`): the rules compiled."""
        from plies.games.checkers._native import CheckersNative

        return CheckersNative(self)

    # -- rules ------------------------------------------------------------------------

    def initial_state(self) -> CheckersState:
        """The standard start: Black on 1-12, White on 21-32, Black to move."""
        return CheckersState(_START_BLACK, _START_WHITE, 0, 0, 0)

    def to_move(self, state: CheckersState) -> int:
        """0 when Black is to move, 1 for White."""
        if type(state) is not CheckersState:
            self.check_state(state)
        return state.player

    def legal_moves(self, state: CheckersState) -> list[CheckersMove]:
        """The legal moves: the capturing sequences if there is one, else the steps.

        In square order of the piece moved; ``[]`` once the game is over.
        """
        if type(state) is not CheckersState:
            self.check_state(state)
        cached, moves = self._last_moves
        if cached is state:
            return moves
        moves = self._generate(state) if state.quiet < self.draw_plies else []
        self._last_moves = (state, moves)
        return moves

    def _generate(self, state: CheckersState) -> list[CheckersMove]:
        """Every legal move of the side to move, the draw count aside."""
        player = state.player
        own, opponent = _sides(state)
        kings = own & state.kings
        men = own ^ kings
        occupied = state.black | state.white
        empty = _BOARD & ~occupied
        jumpers = _jumpers(men, kings, opponent, empty, player)
        if jumpers:
            moves: list[CheckersMove] = []
            man_table, crown = _MAN_JUMPS[player], _CROWN[player]
            for bit in _bits(jumpers):
                # The moving piece leaves its square: a king may pass it again.
                free = empty | 1 << bit
                if kings >> bit & 1:
                    job = _JumpSearch(free, _KING_JUMPS, 0, {})
                else:
                    job = _JumpSearch(free, man_table, crown, {})
                _extend(bit, (_SQUARE_OF[bit],), opponent, 0, job)
                moves.extend(job.found.values())
            return moves
        steps: list[CheckersMove] = []
        man_steps = _MAN_STEPS[player]
        for bit in _bits(own):
            square = _SQUARE_OF[bit]
            for target in _KING_STEPS[bit] if kings >> bit & 1 else man_steps[bit]:
                if empty >> target & 1:
                    steps.append((square, _SQUARE_OF[target]))
        return steps

    def play(self, state: CheckersState, move: CheckersMove) -> CheckersState:
        """The position after ``move`` (a tuple of squares, see :data:`CheckersMove`).

        Raises :class:`ArgumentTypeError` for a move that is not a tuple of ints and
        :class:`IllegalMoveError` (with the reason) for one that is not legal.
        """
        self.check_state(state)
        self._check_move(move)
        legal = self.legal_moves(state)
        if move not in legal:
            raise IllegalMoveError(self._illegal_reason(state, move, legal))
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: CheckersState, move: CheckersMove) -> CheckersState:
        """:meth:`play` for a legal move, without the checks (the engine's path)."""
        try:  # no cost unless raised: a value that is no state, refused by its check
            black, white, kings, player, quiet = state
            start = _MASK_OF[move[0]]
            end = _MASK_OF[move[-1]]
            # A step or a single jump (most moves) without a loop.
            captured = _HOP[move[0] * 33 + move[1]] if len(move) == 2 else _captured(move)
            moved = start | end if start != end else 0
            if kings & start:
                kings ^= moved
                quiet = 0 if captured else quiet + 1
            else:
                kings |= end & _CROWN[player]
                quiet = 0
            kings &= ~captured
            if player == 0:
                return CheckersState(black ^ moved, white & ~captured, kings, 1, quiet)
            return CheckersState(black & ~captured, white ^ moved, kings, 0, quiet)
        except (AttributeError, TypeError, ValueError):
            self.check_state(state)
            raise

    def is_terminal(self, state: CheckersState) -> bool:
        """Whether the side to move has no move, or the draw count has run out."""
        if type(state) is not CheckersState:
            self.check_state(state)
        return state.quiet >= self.draw_plies or not _has_move(state)

    def utility(self, state: CheckersState, player: int) -> float:
        """-1 for the side with no legal move, +1 for the other; 0 for a draw."""
        self.check_state(state)
        check_player(player)
        value = self.terminal_value(state)
        if value is None:
            return 0.0
        return value if player == state.player else -value

    def is_draw_by_rule(self, state: CheckersState) -> bool:
        """Whether the game ended drawn by the draw rule."""
        self.check_state(state)
        return state.quiet >= self.draw_plies and _has_move(state)

    # -- search hooks -----------------------------------------------------------------

    def key(self, state: CheckersState) -> int:
        """One integer: the three bitboards, the side to move and the draw count."""
        if type(state) is not CheckersState:
            self.check_state(state)
        black, white, kings, player, quiet = state
        return black | white << 35 | kings << 70 | (quiet << 1 | player) << 105

    def terminal_value(self, state: CheckersState) -> float | None:
        """-1.0 when the side to move has no move, 0.0 for a draw, else None."""
        if type(state) is not CheckersState:
            self.check_state(state)
        if not _has_move(state):
            return -1.0
        if state.quiet >= self.draw_plies:
            return 0.0
        return None

    def evaluate(self, state: CheckersState, player: int) -> float:
        """Material, advancement, the home row, the centre and (lightly) mobility.

        In units of a man (100): a king is worth 140; a man gains 3 per row it has
        advanced; a man on its home row is worth 8 more while the opponent has men to
        crown; a king in the 8 centre squares 10; each step a side can make counts 2.
        A side ahead in material gains 300 times its share of the lead (lead / all
        material: 13 for 12 men against 11, 100 for two kings against one, so it trades
        down), and its kings 3 per square they close on the opponent's pieces.
        """
        if type(state) is not CheckersState:
            self.check_state(state)
        black, white, kings, _, _ = state
        empty = _BOARD & ~(black | white)
        score = 0
        material = [0, 0]
        for side, (own, other) in enumerate(((black, white), (white, black))):
            own_kings = own & kings
            men = own ^ own_kings
            value = 100 * men.bit_count() + 140 * own_kings.bit_count()
            material[side] = value
            rows = sum(_ROW_OF[bit] for bit in _bits(men))
            advance = 3 * (rows if side == 0 else 7 * men.bit_count() - rows)
            if other & ~kings:
                value += 8 * (men & _HOME[side]).bit_count()
            value += advance + 10 * (own_kings & _CENTRE).bit_count()
            value += 2 * _mobility(men, own_kings, empty, side)
            score += value if side == 0 else -value
        lead = material[0] - material[1]
        if lead:
            score += int(300 * lead / (material[0] + material[1]))  # symmetric rounding
            score += self._chase(state, 0 if lead > 0 else 1)
        return float(score if player == 0 else -score)

    @staticmethod
    def _chase(state: CheckersState, stronger: int) -> int:
        """Bonus (Black's view) for the stronger side's kings being near the other side."""
        own, other = (state.black, state.white) if stronger == 0 else (state.white, state.black)
        own_kings = own & state.kings
        if not own_kings or not other:
            return 0
        targets = _bits(other)
        distance = 0
        for bit in _bits(own_kings):
            row, col = _ROW_OF[bit], _column(bit)
            distance += min(max(abs(row - _ROW_OF[t]), abs(col - _column(t))) for t in targets)
        bonus = -3 * distance
        return bonus if stronger == 0 else -bonus

    def order_moves(
        self, state: CheckersState, moves: Sequence[CheckersMove]
    ) -> Sequence[CheckersMove]:
        """Captures taking the most pieces (kings first among equals); steps that
        crown first, then man steps, then king steps."""
        if type(state) is not CheckersState:
            self.check_state(state)
        try:  # no cost unless raised
            if len(moves) < 2:
                return moves
            if _is_jump(moves[0]):
                kings = state.kings
                return sorted(
                    moves,
                    key=lambda m: -(2 * len(m) + (_captured(m) & kings).bit_count()),
                )
            kings, crown = state.kings, _CROWN[state.player]
            return sorted(
                moves,
                key=lambda m: (
                    0
                    if 1 << square_bit(m[1]) & crown and not kings >> square_bit(m[0]) & 1
                    else 2
                    if kings >> square_bit(m[0]) & 1
                    else 1
                ),
            )
        except (TypeError, IndexError):
            raise ArgumentTypeError(
                f"checkers: moves must be a sequence of moves (tuples of squares), got "
                f"{clip(repr(moves))}"
            ) from None

    def quiescence_moves(self, state: CheckersState) -> Sequence[CheckersMove]:
        """The captures, biggest first, when the side to move must capture; else none."""
        if type(state) is not CheckersState:
            self.check_state(state)
        moves = self.legal_moves(state)
        if moves and _is_jump(moves[0]):
            return self.order_moves(state, moves)
        return ()

    # -- notation ---------------------------------------------------------------------

    def format_move(self, state: CheckersState, move: CheckersMove) -> str:
        """``11-15`` for a step, ``22x15`` or ``22x15x24`` for a capture."""
        self.check_state(state)
        return format_path(self._check_move(move))

    def parse_move(self, state: CheckersState, text: str) -> CheckersMove:
        """Read ``11-15``, ``22x15``, ``22x15x24`` or the short ``22x24`` and check it.

        Raises :class:`ParseError` for malformed text or a square outside 1-32 and
        :class:`IllegalMoveError` (with the legal moves) for a move that is not legal
        or a short form that fits more than one capture.
        """
        match = _MOVE_TEXT.fullmatch(need_text(text, "a move's text"))
        self.check_state(state)
        if match is None:
            raise ParseError(
                f"checkers: a move is squares 1-32 joined by '-' or 'x' (11-15, 22x15x24), "
                f"got {shown(text)}"
            )
        numbers = [match.group(1), *re.split(r"\s*[-xX]\s*", match.group(2).strip())[1:]]
        squares = tuple(read_int(n, what="a square", game="checkers") for n in numbers)
        for square in squares:
            if not 1 <= square <= 32:
                raise ParseError(f"checkers: squares are 1-32, got {square} in {shown(text)}")
        legal = self.legal_moves(state)
        if squares in legal:
            return squares
        same_ends = [m for m in legal if m[0] == squares[0] and m[-1] == squares[-1]]
        if len(squares) == 2 and same_ends and _is_jump(same_ends[0]):
            if len(same_ends) == 1:
                return same_ends[0]
            listed = " ".join(map(format_path, same_ends))
            raise IllegalMoveError(
                f"checkers: {text.strip()} is ambiguous: write the whole path ({listed})"
            )
        for move in same_ends:
            if len(move) == len(squares) and self._same_capture(state, squares, move):
                return move
        raise IllegalMoveError(self._illegal_reason(state, squares, legal))

    def _same_capture(self, state: CheckersState, route: CheckersMove, move: CheckersMove) -> bool:
        """Whether ``route`` is a legal path of the same capture as the legal ``move``
        (same start, end and pieces taken): a king's other way round."""
        _, opponent = _sides(state)
        if not state.kings >> square_bit(route[0]) & 1:
            return False  # a man's route is fixed by the pieces it takes
        empty = _BOARD & ~(state.black | state.white) | 1 << square_bit(route[0])
        taken = 0
        for a, b in pairwise(route):
            over = _HOP[a * 33 + b]
            if not over & opponent & ~taken or not empty >> square_bit(b) & 1:
                return False
            taken |= over
        return taken == _captured(move)

    def _illegal_reason(
        self, state: CheckersState, move: CheckersMove, legal: Sequence[CheckersMove]
    ) -> str:
        """The message for ``move``, which is not among ``legal``."""
        text = format_path(move)
        if not legal:
            return f"checkers: {text}: the game is over"
        listed = " ".join(map(format_path, legal))
        reason = "not a legal move"
        own, _ = _sides(state)
        if move and 1 <= move[0] <= 32 and not own >> square_bit(move[0]) & 1:
            reason = f"no {_SIDE_NAMES[state.player]} piece on {move[0]}"
        elif _is_jump(legal[0]) and len(move) == 2 and (move[0], move[1]) in _ADJACENT:
            reason = "a capture is compulsory"
        return f"checkers: illegal move {text} ({reason}; legal: {listed})"

    def parse_position(self, text: str) -> CheckersState:
        """Read the moves from the start, or a position in FEN form (see the module).

        Raises :class:`ParseError` for malformed text and :class:`IllegalMoveError`
        for an illegal move.
        """
        if _FEN_START.match(need_text(text, "a position's text")):
            return self._parse_fen(text)
        state = self.initial_state()
        count = 0
        for token in text.replace(",", " ").split():
            if _MOVE_NUMBER.fullmatch(token):
                continue
            count += 1
            try:
                move = self.parse_move(state, token)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{exc} (move {count} of the POSITION)") from None
            state = self.play_unchecked(state, move)
        return state

    def _parse_fen(self, text: str) -> CheckersState:
        """Read ``B:W21,22,...:B1,2,...[:N]`` (see the module documentation)."""
        fields = [field.strip() for field in text.strip().rstrip(".").split(":")]
        player = "BW".index(fields[0].upper())
        pieces: dict[str, tuple[int, int]] = {}
        quiet = 0
        for index, field in enumerate(fields[1:], start=1):
            colour = field[:1].upper()
            if colour in ("B", "W"):
                if colour in pieces:
                    raise ParseError(
                        f"checkers: FEN lists the {colour} pieces twice: {shown(text)}"
                    )
                pieces[colour] = _read_pieces(field[1:], text)
            elif index == len(fields) - 1 and field.isdigit():
                quiet = read_int(field, what="the draw count", game="checkers")
                if quiet > self.draw_plies:
                    raise ParseError(
                        f"checkers: the draw count {quiet} is above the limit of this game "
                        f"({self.draw_plies} plies) in {shown(text)}"
                    )
            else:
                raise ParseError(
                    "checkers: a FEN is B|W:W<squares>:B<squares>[:<plies>] (squares like "
                    f"21,K30 or 1-12), got field {shown(field)} in {shown(text)}"
                )
        if len(pieces) != 2:
            raise ParseError(
                f"checkers: a FEN needs both the W and the B pieces, got {shown(text)}"
            )
        (white, white_kings), (black, black_kings) = pieces["W"], pieces["B"]
        both = black & white
        if both:
            raise ParseError(
                f"checkers: square {_SQUARE_OF[_bits(both)[0]]} holds a black and a white "
                f"piece in {shown(text)}"
            )
        for side, men in ((0, black & ~black_kings), (1, white & ~white_kings)):
            crowned = men & _CROWN[side]
            if crowned:
                raise ParseError(
                    f"checkers: a {_SIDE_NAMES[side].lower()} man on "
                    f"{_SQUARE_OF[_bits(crowned)[0]]} would be a king (write K"
                    f"{_SQUARE_OF[_bits(crowned)[0]]}) in {shown(text)}"
                )
        return CheckersState(black, white, black_kings | white_kings, player, quiet)

    def format_position(self, state: CheckersState) -> str:
        """The FEN form: ``B:W21,...,K30:B1,...``, then ``:N`` if the draw count is N > 0."""
        self.check_state(state)

        def listed(pieces: int) -> str:
            return ",".join(
                ("K" if state.kings >> bit & 1 else "") + str(_SQUARE_OF[bit])
                for bit in _bits(pieces)
            )

        text = f"{'BW'[state.player]}:W{listed(state.white)}:B{listed(state.black)}"
        return f"{text}:{state.quiet}" if state.quiet else text

    def export_game(
        self,
        start: CheckersState,
        moves: Sequence[CheckersMove],
        *,
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """The game from ``start`` through ``moves`` in PDN's form: tag pairs (``Event``,
        ``Date`` today's, ``Black``, ``White``, ``Result``: ``1-0`` White won, ``0-1``
        Black won, ``1/2-1/2``, ``*`` while the game goes on; ``GameType "21"``,
        English draughts; ``SetUp`` and ``FEN`` when ``start`` is not the usual
        start), ``headers`` over those, a blank line and the moves numbered as in
        PGN (``1. 11-15 23-19 2. 8-11``; ``1... 23-19`` when White moves first) in the
        standard notation, lines of at most 80 characters, then the result.
        :meth:`parse_position` reads the moves back (numbers skipped, without the
        result). Raises IllegalMoveError for a move not legal where it is played."""
        self.check_state(start)
        check_export(moves, headers)
        tags = {"Event": "?", "Date": datetime.date.today().strftime("%Y.%m.%d")}
        tags |= {"Black": "?", "White": "?", "Result": "*", "GameType": "21"}
        if start != self.initial_state():
            tags |= {"SetUp": "1", "FEN": self.format_position(start)}
        words: list[str] = []
        state, number = start, 1
        for ply, move in enumerate(moves):
            self._check_move(move)
            if state.player == 0:
                words.append(f"{number}.")
            elif ply == 0:
                words.append(f"{number}...")
            words.append(format_path(move))
            state = self.play(state, move)
            if state.player == 0:  # White moved: the next pair begins
                number += 1
        value = self.terminal_value(state)
        if value is not None:
            winner = None if value == 0 else 1 - state.player  # the side to move lost
            tags["Result"] = {None: "1/2-1/2", 0: "0-1", 1: "1-0"}[winner]
        tags |= headers or {}
        words.append(tags["Result"])
        lines = [""]
        for word in words:
            joined = f"{lines[-1]} {word}".strip()
            if len(joined) > 80:
                lines.append(word)
            else:
                lines[-1] = joined
        pairs = [f'[{name} "{_quoted(text)}"]' for name, text in tags.items()]
        return "\n".join([*pairs, "", *lines]) + "\n"

    def player_names(self) -> tuple[str, str]:
        """``Black`` and ``White``."""
        from plies.games.checkers._view import PLAYER_NAMES

        return PLAYER_NAMES

    def board(self, state: CheckersState) -> Board:
        """The board for the game room (see :mod:`._view`)."""
        self.check_state(state)
        from plies.games.checkers._view import checkers_board

        return checkers_board(state)

    def tree_picture(self, state: CheckersState) -> list[str]:
        """The 8 x 8 squares under a node of a game tree (see :mod:`._view`)."""
        self.check_state(state)
        from plies.games.checkers._view import checkers_rows

        return checkers_rows(state)

    def render(self, state: CheckersState) -> str:
        """The board, Black's side (1-4) at the top, with the square numbers of each row.

        ``b``/``w`` are men, ``B``/``W`` kings, ``.`` an empty dark square; the last
        line names the side to move and the draw count.
        """
        self.check_state(state)
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                if (row + col) % 2 == 0:
                    cells.append(" ")
                    continue
                bit = square_bit(row * 4 + col // 2 + 1)
                king = state.kings >> bit & 1
                if state.black >> bit & 1:
                    cells.append("B" if king else "b")
                elif state.white >> bit & 1:
                    cells.append("W" if king else "w")
                else:
                    cells.append(".")
            first = row * 4 + 1
            lines.append(f"{' '.join(cells)}   {first:2}-{first + 3:2}")
        side = _SIDE_NAMES[state.player]
        lines.append(
            f"{side} to move; {state.quiet} of {self.draw_plies} plies without a capture "
            "or a man's move"
        )
        return "\n".join(lines)


def _quoted(text: str) -> str:
    """``text`` inside a PDN tag's quotes: backslashes and quotes escaped, as in PGN."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _column(bit: int) -> int:
    """The column (0-7 from the left) of a bit index."""
    square = _SQUARE_OF[bit] - 1
    row = square // 4
    return 2 * (square % 4) + (1 if row % 2 == 0 else 0)


def _read_pieces(text: str, whole: str) -> tuple[int, int]:
    """The squares of one side's FEN field (after its colour): (pieces, kings)."""
    pieces = kings = 0
    for item in filter(None, (part.strip() for part in text.split(","))):
        king = item[:1].upper() == "K"
        body = item[1:] if king else item
        low, dash, high = body.partition("-")
        first = read_int(low, what="a square", game="checkers")
        last = read_int(high, what="a square", game="checkers") if dash else first
        if not (1 <= first <= 32 and 1 <= last <= 32 and first <= last):
            raise ParseError(
                f"checkers: squares are 1-32 (ranges low-high), got {shown(item)} in {shown(whole)}"
            )
        for square in range(first, last + 1):
            bit = 1 << square_bit(square)
            if pieces & bit:
                raise ParseError(f"checkers: square {square} is listed twice in {shown(whole)}")
            pieces |= bit
            if king:
                kings |= bit
    return pieces, kings
