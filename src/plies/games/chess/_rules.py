"""Chess, on python-chess boards (the ``plies[chess]`` extra).

python-chess (``chess`` on PyPI) knows the rules: move generation, check, castling,
en passant, promotion, SAN and FEN. This module makes it a plies game: states the
engine cannot change, every way a game ends, a tapered evaluation and the search hooks
(quiescence on captures, MVV-LVA ordering). python-chess is imported here and nowhere
else in the library (the UCI shell reaches it through this game).

The game ends

* in checkmate: a loss for the side mated (utility -1);
* in a draw (utility 0) by stalemate, insufficient material (python-chess's rule: no
  sequence of legal moves can mate), the fifty-move rule (100 plies without a capture
  or pawn move; a mate on the hundredth ply still counts) and threefold repetition
  (the same position, side to move, castling rights and en-passant capture a third
  time). The draws that FIDE lets a player claim are taken as claimed at once: a
  program searching for the best result would claim them whenever they help.

Player 0 is white, 1 black. A move is a :class:`chess.Move`. :meth:`Chess.format_move`
writes SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``), :meth:`Chess.format_uci` UCI
(``g1f3``, ``e7e8q``); :meth:`Chess.parse_move` reads either.

A POSITION is a FEN (``rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1``;
the move counters may be left out), ``startpos``, or empty (the start), followed
optionally by ``moves`` and moves in SAN or UCI; or just the moves from the start
(``e4 e5 Nf3``). :meth:`Chess.format_position` writes the FEN, followed by the moves
since the last capture or pawn move when those repeat a position (a FEN alone
forgets what the repetition rule needs).

States and costs (measured on Kiwipete with python-chess 1.11): a legal move list
costs 45 us, copying a board without its move stack 1 us and a push 4 us, against
3.4 us for a push and a pop on one board. So :meth:`Chess.play` makes a new board
(the engine keeps parents), with its own push for standard chess (:func:`_pushed`,
which skips python-chess's empty-board construction and undo record), and a state
remembers its legal moves, terminal value and keys once computed. Whether a move
exists at all (the terminal test at every node) is first asked of the king's steps
(:func:`_has_move`). Those two took the search from 23k to 37-40k nodes per second
of CPU time (20 WAC positions at 5,000 nodes each, same moves found).

The evaluation's material and piece-square sums (tapered from middlegame to endgame
by the material left) are updated move by move: 2 us per move with the new state
object, where summing the pieces from scratch (``_sums``) took 36 us (both on
Kiwipete's 48 moves, on a loaded machine where a copy and push took 7.5 us). Pawn
structure, the king's shield, mobility and rooks on open files come from
:mod:`plies.games.chess._eval`, as does the exchange evaluation of the quiescence search.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, UnknownGameError
from plies.game import BaseGame, Board
from plies.games.chess._tables import BISHOP_PAIR as _BISHOP_PAIR  # both phases alike
from plies.games.chess._tables import EG as _EG
from plies.games.chess._tables import MG as _MG
from plies.games.text import check_export, check_player, clip, shown

try:
    import chess
except ImportError:  # the extra is not installed: the game says so when asked for
    MISSING: str | None = "python-chess is not installed: pip install 'plies[chess]'"
else:
    MISSING = None
    from plies.games.chess._eval import exchange_value, pawn_king_terms, piece_terms

__all__ = ["MISSING", "Chess", "ChessState"]

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# -- evaluation tables -------------------------------------------------------------

#: Game phase per piece type: 24 with all minor pieces, rooks and queens on the board
#: (pure middlegame), 0 with none (pure endgame).
_PHASE = (0, 0, 1, 1, 2, 4, 0)
_FULL_PHASE = 24
#: MVV-LVA: victims by value, then attackers from the least valuable.
_ORDER_VALUE = (0, 1, 3, 3, 5, 9, 20)


class ChessState:
    """A chess position with what the rules need of its past; never changed.

    ``board`` is a :class:`chess.Board` without move stack that nobody pushes to
    once the state exists; ``parent`` the state before ``move`` (None for a position
    read from a FEN). ``mg``, ``eg`` and ``phase`` are the evaluation's running sums
    (material plus square bonuses from white's view, and the game phase). The other
    slots are answers computed once, on first use.
    """

    __slots__ = (
        "_check",
        "_dups",
        "_key",
        "_moves",
        "_position",
        "_reps",
        "_value",
        "board",
        "eg",
        "mg",
        "move",
        "parent",
        "phase",
    )

    def __init__(
        self,
        board: chess.Board,
        *,
        parent: ChessState | None,
        move: chess.Move | None,
        mg: int,
        eg: int,
        phase: int,
    ) -> None:
        self.board = board
        self.parent = parent
        self.move = move
        self.mg = mg
        self.eg = eg
        self.phase = phase
        self._moves: list[chess.Move] | None = None
        self._value: float | bool | None = False  # False: not computed yet
        self._position: tuple[Any, ...] | None = None
        self._reps = -1
        self._dups: frozenset[tuple[Any, ...]] | None = None
        self._key: tuple[Any, ...] | None = None
        self._check: bool | None = None

    def in_check(self) -> bool:
        """Whether the side to move is in check (asked by several hooks: kept)."""
        found = self._check
        if found is None:
            found = self._check = self.board.is_check()
        return found

    def position(self) -> tuple[Any, ...]:
        """What makes two positions "the same" for the repetition rule: the pieces,
        the side to move, the castling rights and an en-passant capture if legal."""
        found = self._position
        if found is None:
            board = self.board
            ep = (
                board.ep_square
                if board.ep_square is not None and board.has_legal_en_passant()
                else None
            )
            found = self._position = (
                board.pawns,
                board.knights,
                board.bishops,
                board.rooks,
                board.queens,
                board.kings,
                board.occupied_co[chess.WHITE],
                board.occupied_co[chess.BLACK],
                board.turn,
                board.castling_rights,  # kept clean: by push, by _pushed, by state_of
                ep,
            )
        return found

    def repetitions(self) -> int:
        """How often this position has occurred, this time included (1 = first time).

        Only states since the last capture or pawn move can repeat it, and only every
        second one (the same side to move).
        """
        if self._reps < 0:
            count = 1
            wanted = self.position()
            window = self.board.halfmove_clock
            earlier = self.parent.parent if self.parent is not None else None
            back = 2
            while earlier is not None and back <= window:
                if earlier.position() == wanted:
                    count += 1
                earlier = earlier.parent.parent if earlier.parent is not None else None
                back += 2
            self._reps = count
        return self._reps

    def repeated(self) -> frozenset[tuple[Any, ...]]:
        """The positions met at least twice since the last capture or pawn move: the
        part of the past that can still decide a threefold repetition soon."""
        found = self._dups
        if found is None:
            parent = self.parent
            inherited = (
                parent.repeated()
                if parent is not None and self.board.halfmove_clock > 0
                else frozenset()
            )
            found = inherited | {self.position()} if self.repetitions() >= 2 else inherited
            self._dups = found
        return found

    def key(self) -> tuple[Any, ...]:
        """The position, the fifty-move counter and the repeated positions."""
        found = self._key
        if found is None:
            found = self._key = (self.position(), self.board.halfmove_clock, self.repeated())
        return found

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChessState):
            return NotImplemented
        return (
            self.key() == other.key() and self.board.fullmove_number == other.board.fullmove_number
        )

    def __hash__(self) -> int:
        return hash(self.key())

    def __deepcopy__(self, memo: dict[int, Any]) -> ChessState:
        # The past is shared (states are never changed); only the board is copied.
        return ChessState(
            self.board.copy(stack=False),
            parent=self.parent,
            move=self.move,
            mg=self.mg,
            eg=self.eg,
            phase=self.phase,
        )

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"


def _sums(board: chess.Board) -> tuple[int, int, int]:
    """The evaluation's sums (middlegame, endgame from white's view; phase) from scratch."""
    mg = eg = phase = 0
    for square, piece in board.piece_map().items():
        kind = piece.piece_type
        if piece.color == chess.WHITE:
            mg += _MG[kind][square]
            eg += _EG[kind][square]
        else:
            mg -= _MG[kind][square ^ 56]
            eg -= _EG[kind][square ^ 56]
        phase += _PHASE[kind]
    return mg, eg, phase


class Chess(BaseGame[ChessState, "chess.Move"]):
    """Chess from the standard start (or any FEN), white first.

    The search always extends checks and, with ``null_move=1`` and ``reductions=1``
    (the defaults), prunes by null moves and reduces late quiet moves
    (``chess:reductions=0`` turns the reductions off). Measured on Win At Chess at
    20,000 nodes a move in Python (positions 1-100, then 101-200): checks extended 78
    and 59 solved, with null moves too 79 and 62, with one-ply reductions 77 (first
    hundred), with both 73; nothing extended 65: the suite's quiet tactical moves
    suffer from reductions at the depths Python reaches. Games say otherwise, and
    decide: in self-play at 100,000 nodes a move on the native search (80 games each,
    the tables kept between moves), one-ply reductions scored +80 Elo [+22, +142]
    against none, and the engine's reductions that grow with depth and move number
    +84 [+25, +149] against one ply. (The evaluation's pawn structure and king's
    shield: all 300 at 20,000 nodes, 178 solved before, 182 after.)
    """

    name = "chess"
    state_type = ChessState

    def __init__(self, *, null_move: int = 1, reductions: int = 1) -> None:
        if MISSING is not None:
            raise UnknownGameError(MISSING)
        for label, value in (("null_move", null_move), ("reductions", reductions)):
            if value not in (0, 1):
                raise UnknownGameError(f"{label} is 0 (off) or 1 (on), got {value!r}")
        self.use_null_move = bool(null_move)
        self.use_reductions = bool(reductions)
        # With reductions off no move is quiet: the search is full width.
        self.has_quiet_moves = self.use_reductions

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`ChessState` (made by this game)."""
        super().check_state(state)
        assert isinstance(state, ChessState)
        if not isinstance(state.board, chess.Board):
            raise ArgumentTypeError(f"chess: {shown(repr(state))} holds no chess.Board")

    @staticmethod
    def _check_move(move: object) -> chess.Move:
        """``move``, which must be a :class:`chess.Move`."""
        if not isinstance(move, chess.Move):
            raise ArgumentTypeError(
                f"chess: a move is a chess.Move, got {clip(repr(move))} of type "
                f"{type(move).__name__} (parse_move reads SAN and UCI text)"
            )
        return move

    # -- positions ----------------------------------------------------------------------

    def state_of(self, board: chess.Board) -> ChessState:
        """A state of ``board`` (copied, its move stack left behind) with no past."""
        if not isinstance(board, chess.Board):
            raise ArgumentTypeError(f"chess: a board is a chess.Board, got {clip(repr(board))}")
        copied = board.copy(stack=False)
        copied.castling_rights = copied.clean_castling_rights()  # as a push keeps them
        mg, eg, phase = _sums(copied)
        return ChessState(copied, parent=None, move=None, mg=mg, eg=eg, phase=phase)

    def initial_state(self) -> ChessState:
        """The standard start, white to move."""
        return self.state_of(chess.Board())

    def to_move(self, state: ChessState) -> int:
        """0 when white is to move, 1 for black."""
        if type(state) is not ChessState:
            self.check_state(state)
        return 0 if state.board.turn else 1

    def legal_moves(self, state: ChessState) -> list[chess.Move]:
        """python-chess's legal moves (empty once the game is over)."""
        if type(state) is not ChessState:
            self.check_state(state)
        moves = state._moves
        if moves is None:
            moves = [] if self.terminal_value(state) is not None else list(state.board.legal_moves)
            state._moves = moves
        return moves

    def play(self, state: ChessState, move: chess.Move) -> ChessState:
        """The position after ``move``; raises IllegalMoveError if it is not legal."""
        self.check_state(state)
        self._check_move(move)
        if move not in self.legal_moves(state):
            if self.terminal_value(state) is not None:
                raise IllegalMoveError(f"chess: move {move.uci()} after the game is over")
            raise IllegalMoveError(f"chess: illegal move {move.uci()} in {state.board.fen()}")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: ChessState, move: chess.Move) -> ChessState:
        """:meth:`play` for a legal move: copy the board, push, update the sums."""
        if type(state) is not ChessState:
            self.check_state(state)
        board = state.board
        mg, eg, phase = state.mg, state.eg, state.phase
        white = board.turn
        origin, target = move.from_square, move.to_square
        piece = board.piece_type_at(origin) or chess.PAWN
        # Square indices from the mover's own side: black's squares are mirrored.
        flip = 0 if white else 56
        sign = 1 if white else -1
        table_mg, table_eg = _MG[piece], _EG[piece]
        placed = move.promotion or piece
        d_mg = _MG[placed][target ^ flip] - table_mg[origin ^ flip]
        d_eg = _EG[placed][target ^ flip] - table_eg[origin ^ flip]
        if move.promotion:
            phase += _PHASE[placed]
        victim = board.piece_type_at(target)
        if victim is not None:
            d_mg += _MG[victim][target ^ flip ^ 56]
            d_eg += _EG[victim][target ^ flip ^ 56]
            phase -= _PHASE[victim]
        elif piece == chess.PAWN and target == board.ep_square and (origin - target) & 7:
            taken = target - 8 if white else target + 8
            d_mg += _MG[chess.PAWN][taken ^ flip ^ 56]
            d_eg += _EG[chess.PAWN][taken ^ flip ^ 56]
        elif piece == chess.KING and abs(origin - target) == 2:
            # Castling: the rook jumps too (h-file to f-file, or a-file to d-file).
            rook_from, rook_to = (
                (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
            )
            rook_mg, rook_eg = _MG[chess.ROOK], _EG[chess.ROOK]
            d_mg += rook_mg[rook_to ^ flip] - rook_mg[rook_from ^ flip]
            d_eg += rook_eg[rook_to ^ flip] - rook_eg[rook_from ^ flip]
        if type(board) is chess.Board and not board.chess960:
            child = _pushed(board, move, piece, victim)
        else:  # a variant or Chess960 board: python-chess's own push
            child = board.copy(stack=False)
            child.push(move)
        return ChessState(
            child,
            parent=state,
            move=move,
            mg=mg + sign * d_mg,
            eg=eg + sign * d_eg,
            phase=phase,
        )

    def is_terminal(self, state: ChessState) -> bool:
        """Whether the game is over (mate, stalemate or a draw rule)."""
        self.check_state(state)
        return self.terminal_value(state) is not None

    def utility(self, state: ChessState, player: int) -> float:
        """-1 for the side mated, +1 for the other, 0 for a draw."""
        self.check_state(state)
        check_player(player)
        value = self.terminal_value(state)
        if value is None:
            raise IllegalMoveError("chess: utility of a game that is not over")
        return value if player == self.to_move(state) else -value

    def outcome(self, state: ChessState) -> str | None:
        """Why the game is over (``checkmate``, ``stalemate``, ``insufficient material``,
        ``fifty moves``, ``threefold repetition``), or None while it goes on."""
        self.check_state(state)
        if self.terminal_value(state) is None:
            return None
        board = state.board
        if not any(board.generate_legal_moves()):
            return "checkmate" if board.is_check() else "stalemate"
        if board.is_insufficient_material():
            return "insufficient material"
        if state.repetitions() >= 3:
            return "threefold repetition"
        return "fifty moves"

    def can_win(self, state: ChessState, player: int) -> bool:
        """False when ``player`` (0 white, 1 black) has too little material to mate:
        python-chess's ``has_insufficient_material``, which looks at the material alone
        (a lone king; a knight, or bishops all on one colour, with nothing on the other
        side that could help them mate). FIDE's rule for a fallen flag reads it."""
        self.check_state(state)
        return not state.board.has_insufficient_material(player == 0)

    def unclaimed(self, state: ChessState) -> ChessState:
        """``state`` as if its draw by rule (threefold repetition, the fifty-move rule,
        insufficient material) were not claimed: the game goes on with the legal moves
        of the board, and the rules apply again from the next move. Any other state
        (the game goes on, or ends in mate or stalemate) is returned as it is. For the
        UCI engine: a GUI asks for a move whenever one is legal."""
        if self.terminal_value(state) != 0 or not _has_move(state):
            return state
        return _with_moves(state, list(state.board.legal_moves))

    def restricted(self, state: ChessState, moves: Sequence[chess.Move]) -> ChessState:
        """``state`` with only ``moves`` to choose from (UCI's ``searchmoves``: a search
        of some root moves); the positions after them are the usual ones. Raises
        IllegalMoveError for a move not legal in ``state``."""
        self.check_state(state)
        if not isinstance(moves, list | tuple):
            raise ArgumentTypeError(
                f"chess: moves must be a list of moves, got {clip(repr(moves))}"
            )
        legal = self.legal_moves(state)
        for move in moves:
            if not isinstance(move, chess.Move):
                raise ArgumentTypeError(
                    f"chess: a move is a chess.Move, got {clip(repr(move))} of type "
                    f"{type(move).__name__}"
                )
            if move not in legal:
                raise IllegalMoveError(f"chess: illegal move {move.uci()} in {state.board.fen()}")
        return _with_moves(state, list(dict.fromkeys(moves)))

    # -- search hooks -------------------------------------------------------------------

    def key(self, state: ChessState) -> Hashable:
        """The pieces, side to move, castling and en-passant rights, the fifty-move
        counter and the positions already repeated (see :meth:`ChessState.key`)."""
        if type(state) is not ChessState:
            self.check_state(state)
        return state.key()

    def terminal_value(self, state: ChessState) -> float | None:
        """-1.0 if the side to move is mated, 0.0 for a draw, None while the game goes on.

        The cheap rules first (a position that repeats cannot be a mate: play went on
        from it; insufficient material is only looked at without pawns, rooks and
        queens). Whether any legal move exists is asked lazily (:func:`_has_move`: a
        safe king step, else the first move python-chess finds). The answer is kept.
        """
        if type(state) is not ChessState:
            self.check_state(state)
        value = state._value
        if value is not False:
            return value  # None or a float once computed (False: not yet)
        board = state.board
        result: float | None = None
        repeated = board.halfmove_clock >= 4 and state.repetitions() >= 3
        dead = not (board.pawns | board.rooks | board.queens) and board.is_insufficient_material()
        if repeated or dead:
            result = 0.0
        elif not (state._moves if state._moves is not None else _has_move(state)):
            result = -1.0 if state.in_check() else 0.0
        elif board.halfmove_clock >= 100:
            result = 0.0
        state._value = result
        return result

    def evaluate(self, state: ChessState, player: int) -> float:
        """Material and piece-square bonuses, pawn structure and the king's pawn
        shield (:func:`~plies.games.chess._eval.pawn_king_terms`), mobility and rooks
        on open files (:func:`~plies.games.chess._eval.piece_terms`), tapered by the
        game phase, plus a bishop pair bonus; centipawns for ``player``."""
        if type(state) is not ChessState:
            self.check_state(state)
        phase = min(state.phase, _FULL_PHASE)
        board = state.board
        pawn_mg, pawn_eg = pawn_king_terms(board)
        piece_mg, piece_eg = piece_terms(board)
        pair = 0  # in both sums, so the one division keeps the score's mirror exact
        bishops = board.bishops
        if (bishops & board.occupied_co[chess.WHITE]).bit_count() >= 2:
            pair += _BISHOP_PAIR
        if (bishops & board.occupied_co[chess.BLACK]).bit_count() >= 2:
            pair -= _BISHOP_PAIR
        mg = state.mg + pawn_mg + piece_mg + pair
        eg = state.eg + pawn_eg + piece_eg + pair
        score = (mg * phase + eg * (_FULL_PHASE - phase)) / _FULL_PHASE
        return float(score if player == 0 else -score)

    def extension(self, state: ChessState) -> int:
        """One ply more where the side to move is in check (check extension)."""
        if type(state) is not ChessState:
            self.check_state(state)
        return 1 if state.in_check() else 0

    def null_move(self, state: ChessState) -> ChessState | None:
        """The position with the turn passed (no en passant), or None: in check,
        right after a pass, or when the side to move has nothing but pawns and king
        (where passing might be better than any move: zugzwang)."""
        if type(state) is not ChessState:
            self.check_state(state)
        board = state.board
        if not self.use_null_move or state.move is None or state.in_check():
            return None
        own = board.occupied_co[board.turn]
        if not own & ~(board.pawns | board.kings):
            return None
        passed = board.copy(stack=False)
        passed.push(chess.Move.null())
        # No parent: a pass is no move of the game, positions before it cannot repeat.
        return ChessState(
            passed, parent=None, move=None, mg=state.mg, eg=state.eg, phase=state.phase
        )

    def is_quiet(self, state: ChessState, move: chess.Move) -> bool:
        """Neither a capture nor a promotion nor a check, and not out of check
        (always False when reductions are off: no move is reduced)."""
        if type(state) is not ChessState:
            self.check_state(state)
        if type(move) is not chess.Move:
            self._check_move(move)
        board = state.board
        return self.use_reductions and not (
            move.promotion
            or board.piece_type_at(move.to_square) is not None
            or state.in_check()
            or board.gives_check(move)
        )

    def order_moves(self, state: ChessState, moves: Sequence[chess.Move]) -> list[chess.Move]:
        """Captures first, most valuable victim by least valuable attacker (MVV-LVA),
        then promotions, then the quiet moves in python-chess's order."""
        if type(state) is not ChessState:
            self.check_state(state)
        if not isinstance(moves, Sequence) or not all(type(m) is chess.Move for m in moves):
            raise ArgumentTypeError(
                f"chess: moves must be a list of chess.Move, got {clip(repr(moves))}"
            )
        board = state.board
        piece_at = board.piece_type_at
        enemy = board.occupied_co[not board.turn]
        noisy = []
        quiet = []
        for move in moves:
            if enemy >> move.to_square & 1:
                victim = piece_at(move.to_square) or chess.PAWN
                attacker = piece_at(move.from_square) or chess.PAWN
                noisy.append((_ORDER_VALUE[victim] * 32 - _ORDER_VALUE[attacker], move))
            elif move.promotion:
                noisy.append(((_ORDER_VALUE[move.promotion] - 1) * 32, move))  # by the gain
            else:
                quiet.append(move)
        if not noisy:
            return quiet
        noisy.sort(key=_first, reverse=True)
        return [move for _, move in noisy] + quiet

    def quiescence_moves(self, state: ChessState) -> list[chess.Move]:
        """Every move when in check (the evasions); else captures (MVV-LVA order) and
        queen promotions, leaving out a capture of a lesser piece (not a promotion)
        that loses material by the static exchange evaluation
        (:func:`~plies.games.chess._eval.exchange_value` below 0). A capture of an
        equal or greater piece never loses by it and is not evaluated.
        """
        if type(state) is not ChessState:
            self.check_state(state)
        board = state.board
        if state.in_check():
            return self.order_moves(state, self.legal_moves(state))
        piece_at = board.piece_type_at
        found = []
        for move in board.generate_legal_captures():
            victim = piece_at(move.to_square) or chess.PAWN  # en passant: a pawn
            attacker = piece_at(move.from_square) or chess.PAWN
            if (
                _ORDER_VALUE[victim] < _ORDER_VALUE[attacker]
                and not move.promotion
                and exchange_value(board, move) < 0
            ):
                continue
            found.append((_ORDER_VALUE[victim] * 32 - _ORDER_VALUE[attacker], move))
        pawns = (
            board.pawns
            & board.occupied_co[board.turn]
            & (chess.BB_RANK_7 if board.turn else chess.BB_RANK_2)
        )
        if pawns:
            for move in board.generate_legal_moves(from_mask=pawns):
                if move.promotion == chess.QUEEN and piece_at(move.to_square) is None:
                    found.append(((_ORDER_VALUE[chess.QUEEN] - 1) * 32, move))
        found.sort(key=_first, reverse=True)
        return [move for _, move in found]

    # -- notation -----------------------------------------------------------------------

    def format_move(self, state: ChessState, move: chess.Move) -> str:
        """``move`` in SAN (``Nf3``, ``O-O``, ``exd8=Q#``)."""
        self.check_state(state)
        return state.board.san(self._check_move(move))

    def format_uci(self, state: ChessState, move: chess.Move) -> str:
        """``move`` in UCI notation (``g1f3``, ``e7e8q``)."""
        self.check_state(state)
        return self._check_move(move).uci()

    def parse_move(self, state: ChessState, text: str) -> chess.Move:
        """A move in UCI (``e2e4``, ``e7e8q``) or SAN (``e4``, ``Nxf7+``, ``O-O``);
        raises IllegalMoveError (or ParseError for text that is no move at all)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"chess: a move is text, got {type(text).__name__}")
        token = text.strip()
        self.check_state(state)
        board = state.board
        if self.terminal_value(state) is not None:
            raise IllegalMoveError(f"chess: move {shown(token)} after the game is over")
        try:
            move = chess.Move.from_uci(token)
        except (chess.InvalidMoveError, ValueError):
            move = None
        if move is not None and not move:  # UCI's "0000" stands for no move
            raise IllegalMoveError(
                f"chess: {shown(token)} is a null move, which is no move of chess"
            )
        if move is not None:
            if move in self.legal_moves(state):
                return move
            from plies.games.chess._reasons import illegal_reason  # only to explain

            raise IllegalMoveError(
                f"chess: illegal move {shown(token)}: {illegal_reason(board, move)}"
            )
        try:
            move = board.parse_san(token)
        except chess.IllegalMoveError:
            from plies.games.chess._reasons import illegal_san_reason  # only to explain

            raise IllegalMoveError(
                f"chess: illegal move {shown(token)}: {illegal_san_reason(board, token)}"
            ) from None
        except chess.AmbiguousMoveError:
            raise IllegalMoveError(
                f"chess: ambiguous move {shown(token)} in {board.fen()} (name the file or rank)"
            ) from None
        except ValueError:
            raise ParseError(
                f"chess: {shown(token)} is no move in SAN (Nf3, exd5, O-O) or UCI (g1f3)"
            ) from None
        if not move:  # python-chess reads "--" (and "Z0") as the null move: no move of chess
            raise IllegalMoveError(
                f"chess: {shown(token)} is a null move, which is no move of chess"
            )
        return move

    def parse_position(self, text: str) -> ChessState:
        """A FEN, ``startpos`` or nothing (the start), then ``moves ...``; or moves only."""
        words = need_text(text, "a position's text").split()
        moves_at = words.index("moves") if "moves" in words else len(words)
        head, tail = words[:moves_at], words[moves_at + 1 :]
        if head[:1] == ["startpos"] and len(head) > 1:
            raise ParseError(f"chess: expected 'moves' after 'startpos', got {shown(head[1])}")
        if not head or head == ["startpos"]:
            state = self.initial_state()
        elif "/" in head[0]:
            state = self.state_of(self._board_of(" ".join(head)))
        elif moves_at == len(words):
            state, tail = self.initial_state(), words  # moves from the start
        else:
            given = shown(" ".join(head))
            raise ParseError(
                f"chess: a POSITION is a FEN or 'startpos' before 'moves', got {given}"
            )
        for count, token in enumerate(tail, 1):
            try:
                state = self.play(state, self.parse_move(state, token))
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{exc} (move {count} of the POSITION)") from None
        return state

    def _board_of(self, fen: str) -> chess.Board:
        """The board of ``fen`` (counters optional); ParseError if it is no valid position."""
        fields = fen.split()
        if len(fields) < 6:
            defaults = ["w", "-", "-", "0", "1"]
            fields += defaults[len(fields) - 1 :]
        try:
            board = chess.Board(" ".join(fields))
        except ValueError as exc:
            raise ParseError(f"chess: bad FEN {shown(fen)}: {exc}") from None
        # A check no legal game could reach (two sliders at once, ...) is still a
        # position the rules can be applied to: perft suites use some.
        status = board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK
        if status != chess.STATUS_VALID:
            problems = [
                name.lower().replace("_", " ")
                for name, flag in chess.Status.__members__.items()
                if flag and status & flag
            ]
            raise ParseError(
                f"chess: FEN {shown(fen)} is no legal position ({', '.join(problems)})"
            )
        return board

    def format_position(self, state: ChessState) -> str:
        """The FEN; with ``moves ...`` after an earlier FEN when a position repeated
        since the last capture or pawn move (so that the repetition rule reads back)."""
        self.check_state(state)
        if not state.repeated():
            return state.board.fen()
        line: list[str] = []
        base = state
        for _ in range(state.board.halfmove_clock):
            if base.parent is None or base.move is None:
                break
            line.append(base.move.uci())
            base = base.parent
        return f"{base.board.fen()} moves {' '.join(reversed(line))}"

    def export_game(
        self,
        start: ChessState,
        moves: Sequence[chess.Move],
        *,
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """The game from ``start`` through ``moves`` as PGN, written by python-chess's
        :mod:`chess.pgn`: the seven-tag roster (``Date`` today's, ``Result`` from the
        position reached: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` while the game goes
        on, a draw rule counting as claimed as in play), ``SetUp`` and ``FEN`` when
        ``start`` is not the usual start, and ``headers`` over those (``Event``,
        ``White``, ``Black``, ...). Raises IllegalMoveError for a move not legal
        where it is played."""
        self.check_state(start)
        check_export(moves, headers)
        import chess.pgn  # python-chess's PGN writer, only for this

        game = chess.pgn.Game()
        game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.setup(start.board)
        node: chess.pgn.GameNode = game
        state = start
        for move in moves:
            state = self.play(state, move)
            node = node.add_variation(move)
        value = self.terminal_value(state)
        if value is None:
            game.headers["Result"] = "*"
        elif value == 0:
            game.headers["Result"] = "1/2-1/2"
        else:  # the side to move is mated
            game.headers["Result"] = "0-1" if state.board.turn else "1-0"
        for name, text in (headers or {}).items():
            game.headers[name] = text
        return str(game)

    def player_names(self) -> tuple[str, str]:
        """``White`` and ``Black``."""
        from plies.games.chess._view import PLAYER_NAMES

        return PLAYER_NAMES

    def board(self, state: ChessState) -> Board:
        """The board for the game room (see :mod:`._view`)."""
        self.check_state(state)
        from plies.games.chess._view import chess_board

        return chess_board(state)

    def render(self, state: ChessState) -> str:
        """The board, white at the bottom, with files, ranks and the side to move."""
        self.check_state(state)
        rows = str(state.board).splitlines()
        lines = [f"{8 - i} {row}" for i, row in enumerate(rows)]
        lines.append("  a b c d e f g h")
        lines.append(f"{'white' if state.board.turn else 'black'} to move")
        return "\n".join(lines)

    def native(self) -> Any:
        """The native port (:mod:`plies.games.chess._native`): the same rules and hooks
        as compiled bitboard code, which the engine searches instead where it can."""
        from plies.games.chess._native import ChessNative

        return ChessNative(self)

    def __repr__(self) -> str:
        return f"Chess(null_move={int(self.use_null_move)}, reductions={int(self.use_reductions)})"


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def _with_moves(state: ChessState, moves: list[chess.Move]) -> ChessState:
    """A copy of ``state`` (same board and past) whose game goes on with ``moves``
    (see :meth:`Chess.unclaimed` and :meth:`Chess.restricted`)."""
    copy = ChessState(
        state.board,  # never changed once a state holds it: shared
        parent=state.parent,
        move=state.move,
        mg=state.mg,
        eg=state.eg,
        phase=state.phase,
    )
    copy._moves = moves
    copy._value = None
    return copy


def _has_move(state: ChessState) -> bool:
    """Whether the side to move has a legal move; learns whether it is in check.

    Out of check a king step to a square no enemy piece attacks is legal (no enemy
    line runs through the king, so the step opens none), and most positions have
    one: two attack look-ups where python-chess's first legal move costs its pin and
    check analysis and a generator, which took 14% of a search's time (the search's
    speed went from 33k to 37-40k nodes/s of CPU time, WAC positions at 5,000 nodes).
    Otherwise python-chess's generator answers.
    """
    board = state.board
    turn = board.turn
    king = (board.kings & board.occupied_co[turn]).bit_length() - 1
    if king < 0:  # no king: a board no game reaches, python-chess answers
        return any(board.generate_legal_moves())
    enemy = not turn
    attackers = board.attackers_mask
    in_check = state._check = bool(attackers(enemy, king))
    if not in_check:
        steps = chess.BB_KING_ATTACKS[king] & ~board.occupied_co[turn]
        while steps:
            square = steps.bit_length() - 1
            if not attackers(enemy, square):
                return True
            steps ^= 1 << square
    return any(board.generate_legal_moves())


def _pushed(board: chess.Board, move: chess.Move, piece: int, victim: int | None) -> chess.Board:
    """A new board: ``board`` after the legal ``move`` of ``piece`` (taking ``victim``
    on the target square, if any), without move stack: what ``copy(stack=False)`` and
    ``push`` give on a standard board. A whole play_unchecked took 12 us where the
    copy and push alone took 27 us (Kiwipete's moves, a heavily loaded machine); the
    search went from 23k to 31k nodes/s of CPU time (WAC positions at 5,000 nodes).

    ``Board.__init__`` is skipped (it builds an empty position only for the copy to
    overwrite it) and so is the undo record ``push`` keeps. The castling rights stay
    as python-chess keeps them after a push: only rooks and king still at home.
    """
    child: chess.Board = object.__new__(chess.Board)
    white = board.turn
    origin, target = move.from_square, move.to_square
    from_bb = 1 << origin
    to_bb = 1 << target
    boards = [0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings]
    own = board.occupied_co[white]
    other = board.occupied_co[not white]
    promoted = board.promoted
    castling = board.castling_rights & ~from_bb & ~to_bb
    ep_square = None
    halfmove = board.halfmove_clock + 1
    if victim is not None:
        boards[victim] ^= to_bb
        other ^= to_bb
        halfmove = 0
    boards[piece] ^= from_bb
    own ^= from_bb
    placed = piece
    moved_promoted = promoted & from_bb
    if piece == chess.PAWN:
        halfmove = 0
        step = target - origin
        if step in (16, -16):
            ep_square = origin + step // 2
        elif victim is None and step % 8 and target == board.ep_square:
            taken = 1 << (target - 8 if white else target + 8)  # en passant
            boards[chess.PAWN] ^= taken
            other ^= taken
            promoted &= ~taken
        if move.promotion:
            placed = move.promotion
            moved_promoted = to_bb
    elif piece == chess.KING:
        castling &= ~(chess.BB_RANK_1 if white else chess.BB_RANK_8)
        if abs(target - origin) == 2:  # castling: the rook jumps too
            rook_from, rook_to = (
                (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
            )
            rook_bb = (1 << rook_from) | (1 << rook_to)
            boards[chess.ROOK] ^= rook_bb
            own ^= rook_bb
            promoted &= ~rook_bb
    boards[placed] |= to_bb
    own |= to_bb
    promoted = (promoted & ~from_bb & ~to_bb) | (to_bb if moved_promoted else 0)
    child.pawns, child.knights, child.bishops = boards[1], boards[2], boards[3]
    child.rooks, child.queens, child.kings = boards[4], boards[5], boards[6]
    child.occupied_co = [other, own] if white else [own, other]
    child.occupied = own | other
    child.promoted = promoted
    child.chess960 = False
    child.ep_square = ep_square
    child.castling_rights = castling
    child.turn = not white
    child.fullmove_number = board.fullmove_number + (0 if white else 1)
    child.halfmove_clock = halfmove
    child.move_stack = []
    child._stack = []
    return child
