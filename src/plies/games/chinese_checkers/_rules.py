"""Chinese Checkers for 2, 3, 4 or 6 players on the star board.

**Board.** A six-pointed star (see :mod:`._star`) of corner side ``size``: ``size=4``
is the common 121-hole board with 10 pieces a player (Bell, "The shortest game of
Chinese Checkers", Integers 9, 2009); ``size=3``, the default, the 73-hole board with
6 pieces a player on which Schadd and Winands compare max^n, paranoid and Best-Reply
Search with three players ("Best-Reply Search for Multi-Player Games", IEEE TCIAIG
3(1), 2011, after Sturtevant's smaller boards for max^n and paranoid); ``size=2`` a
37-hole board with 3 pieces, small enough to search deeply. Holes are numbered 1 to
the number of holes row by row from the top, left to right.

**Players.** Each player starts with its corner full and must fill the opposite one.
Seats, in turn order, clockwise from the bottom corner: two players bottom and top;
three bottom, upper left, upper right (the three corners they aim for start empty);
four bottom, lower left, top, upper right; six every corner. Player 1 (number 0 in
the API) moves first. ``render`` and POSITION text show player ``k`` as the digit
``k``.

**Moves.** A move takes one of the mover's pieces either one step to an adjacent
empty hole, or through a chain of jumps: each jump passes over one adjacent piece (of
any player, never removed) to the empty hole just beyond it, in a straight line; the
chain may stop after any jump and never jumps two pieces at once. The hole the piece
left counts as empty during its chain (a chain may pass through it but not end
there). A move is ``(origin, destination)`` (0-based holes); chains reaching one hole
by different paths are one move, written with the shortest path (the first found,
directions in :data:`~._star.DIRECTIONS` order). Text: ``12-18`` (a step; any move
may be typed with its two ends), ``3x12x30`` (a chain: the holes landed on), ``pass``
when the mover has no move at all (all pieces blocked; rare, but the protocol needs
a move wherever the game goes on).

**End.** A player wins as soon as its target corner is full and at least one piece in
it is its own. This is the usual rule against blocking (Sturtevant's solving papers
use it): a piece left in, or parked in, someone's target counts towards filling it,
so it cannot keep that player from winning; it also means a move that fills
another player's target (holding one of that player's pieces) wins the game for that
player. Only one target can fill on one move, so there is never more than one
winner. Positions may repeat; instead of a repetition rule, the game is a draw once
every player has made ``turns`` moves (100 by default; the count of moves played is
part of the state). Utilities: with two players the winner gets 1 and the loser -1 (zero-sum, as
every two-player search requires); with more, the winner gets 1 and the others 0.
A draw is 0 for everyone.

**Evaluation.** ``d(p)`` is the sum over ``p``'s pieces of the square of each one's
distance in steps to the tip of its target corner (0 on the tip). ``evaluate(s, p)``
is ``sum of d(q) for q != p - (N - 1) d(p)``: zero-sum over the players, ``d(q) -
d(p)`` with two, and the higher the further ahead ``p`` is of the others' average.
Steps rather than rows pull pieces off the sides towards the corner (with rows, a
piece beside the last empty target hole gained nothing by stepping in front of it),
and squares make a piece left behind weigh more than one nearly home (with plain
distances, a straggler on the starting tip got trapped behind the opponent's
arrivals). Measured in self-play at depth 2 on the 73-hole board (BRS, max^n and
paranoid taking turns, a random first move each, four games): with rows, 1 of 4
two-player and 1 of 4 three-player games ended before the draw; with squared
steps, all 8, in 56-60 plies (two players) and 65-90 (three).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame, Board
from plies.games.chinese_checkers._star import Star, make_star
from plies.games.text import clip, read_int, shown, whole

__all__ = [
    "PASS",
    "PLAYER_COUNTS",
    "SEATS",
    "ChineseCheckers",
    "ChineseCheckersMove",
    "ChineseCheckersState",
]

ChineseCheckersMove = tuple[int, int]
"""A move: the hole a piece leaves and the hole it ends on (0-based)."""

#: The move of a player that has no other (all its pieces blocked).
PASS: ChineseCheckersMove = (-1, -1)

#: The corners the players start in, in turn order, by number of players.
SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
#: The numbers of players the game takes.
PLAYER_COUNTS = tuple(SEATS)
#: Corner sides the game takes (1: 13 holes, 5: 181 holes).
SIZES = range(1, 6)
#: The default number of moves each player may make before the game is drawn.
TURNS = 100
#: The most ``turns`` a game accepts.
MAX_TURNS = 1000

#: No state: what the game has checked before it checks any.
_NOTHING = object()

_MOVE_TEXT = re.compile(r"\d+(?:-\d+|(?:x\d+)+)")


class ChineseCheckersState(NamedTuple):
    """A position: each player's pieces as a bit mask of holes, the player to move and
    the plies (moves) played, which say how far the draw is. In a game the turn is
    the ply count modulo the players; :meth:`ChineseCheckers.with_turn` gives it to
    another player without a move (Best-Reply Search's passes)."""

    pieces: tuple[int, ...]
    turn: int
    ply: int


def _holes(mask: int) -> list[int]:
    """The holes of ``mask``, ascending."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _check_int(value: object, what: str, low: int, high: int) -> int:
    if not whole(value):
        raise ArgumentTypeError(f"chinese-checkers {what} must be an integer, got {value!r}")
    assert isinstance(value, int)
    if not low <= value <= high:
        raise PliesError(f"chinese-checkers {what} must be between {low} and {high}, got {value}")
    return value


class ChineseCheckers(BaseGame[ChineseCheckersState, ChineseCheckersMove]):
    """Chinese Checkers for ``players`` (2, 3, 4 or 6) on the star of corner side
    ``size`` (3: 73 holes, 6 pieces each; 4: 121 holes, 10 pieces), drawn after
    ``turns`` moves by each player (see the module docstring for the rules)."""

    name = "chinese-checkers"
    state_type = ChineseCheckersState

    def __init__(self, players: int = 2, size: int = 3, turns: int = TURNS) -> None:
        if not whole(players):
            raise ArgumentTypeError(f"chinese-checkers players must be an integer, got {players!r}")
        if players not in SEATS:
            raise PliesError(f"chinese-checkers players must be 2, 3, 4 or 6, got {players}")
        self.size = _check_int(size, "size", SIZES.start, SIZES.stop - 1)
        self.turns = _check_int(turns, "turns", 1, MAX_TURNS)
        self.num_players = players
        self.star: Star = make_star(size)
        self.seats = SEATS[players]
        #: Plies after which the game is drawn.
        self.ply_limit = players * self.turns
        #: Pieces each player has.
        self.pieces_each = size * (size + 1) // 2
        self._starts = tuple(self._corner_mask(seat) for seat in self.seats)
        self._goals = tuple(self._corner_mask((seat + 3) % 6) for seat in self.seats)
        #: Per player, each hole's squared distance in steps from the tip of its
        #: target (see the module docstring).
        self.distances = tuple(
            tuple(steps * steps for steps in self.star.distances[(seat + 3) % 6])
            for seat in self.seats
        )
        self._adjacent = tuple(
            sum(1 << neighbour for neighbour, _ in links) for links in self.star.links
        )
        # The last state checked, and the last state with its moves: play() checks a
        # move against the moves the caller has just listed (the conformance suite ran
        # 3x faster with both).
        self._checked: object = _NOTHING
        self._last_moves: tuple[object, list[ChineseCheckersMove]] = (None, [])

    def _corner_mask(self, corner: int) -> int:
        return sum(1 << hole for hole in self.star.corners[corner])

    def __repr__(self) -> str:
        return f"ChineseCheckers(players={self.num_players}, size={self.size}, turns={self.turns})"

    def native(self) -> Any:
        """The native port (:mod:`plies.games.chinese_checkers._native`)."""
        from plies.games.chinese_checkers._native import ChineseCheckersNative

        return ChineseCheckersNative(self)

    # -- checks -----------------------------------------------------------------------

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a position of this game: one mask per player, each
        with the right number of pieces on the board's holes, apart, a player to move
        and a ply count from 0 to the limit, with at most one winner."""
        if state is self._checked:
            return
        super().check_state(state)
        assert isinstance(state, ChineseCheckersState)
        pieces, turn, ply = state
        board = (1 << self.star.holes) - 1
        if not (isinstance(pieces, tuple) and all(whole(mask) for mask in pieces)):
            problem = "its pieces are not a tuple of int masks"
        elif len(pieces) != self.num_players:
            problem = f"{len(pieces)} players, not {self.num_players}"
        elif any(mask < 0 or mask & ~board for mask in pieces):
            problem = "pieces off the board"
        elif sum(mask.bit_count() for mask in pieces) != (sum(pieces) & board).bit_count() or any(
            mask.bit_count() != self.pieces_each for mask in pieces
        ):
            problem = f"pieces on one another, or not {self.pieces_each} a player"
        elif not whole(turn) or not 0 <= turn < self.num_players:
            problem = f"turn {turn!r}: the players are 0-{self.num_players - 1}"
        elif not whole(ply) or not 0 <= ply <= self.ply_limit:
            problem = f"ply {ply!r} outside 0-{self.ply_limit}"
        elif len(self._winners(pieces)) > 1:
            problem = "more than one player has won"
        else:
            self._checked = state
            return
        raise PliesError(f"{self.name}: {clip(repr(state))} is not a position ({problem})")

    def _check_move(self, move: object) -> ChineseCheckersMove:
        if type(move) is not tuple or len(move) != 2 or not all(type(h) is int for h in move):
            raise ArgumentTypeError(
                f"{self.name}: a move is a pair of holes such as (3, 12), got "
                f"{clip(repr(move))} of type {type(move).__name__}"
            )
        return move

    def _check_player(self, player: object) -> int:
        if not whole(player):
            raise ArgumentTypeError(f"{self.name}: a player is an int, got {clip(repr(player))}")
        assert isinstance(player, int)
        if not 0 <= player < self.num_players:
            raise PliesError(f"{self.name}: a player is 0 to {self.num_players - 1}, got {player}")
        return player

    # -- rules ------------------------------------------------------------------------

    def initial_state(self) -> ChineseCheckersState:
        """Every player's corner full, player 0 to move."""
        return ChineseCheckersState(self._starts, 0, 0)

    def to_move(self, state: ChineseCheckersState) -> int:
        """The player whose turn it is (the plies played modulo the players)."""
        self.check_state(state)
        return state.turn

    def goal_holes(self, player: int) -> tuple[int, ...]:
        """The holes of ``player``'s target corner (0-based, ascending)."""
        return self.star.corners[(self.seats[self._check_player(player)] + 3) % 6]

    def _winners(self, pieces: Sequence[int]) -> list[int]:
        occupied = sum(pieces)
        return [
            player
            for player, goal in enumerate(self._goals)
            if occupied & goal == goal and pieces[player] & goal
        ]

    def winner(self, state: ChineseCheckersState) -> int | None:
        """The player whose target is full with one of its pieces in it, or None."""
        self.check_state(state)
        found = self._winners(state.pieces)
        return found[0] if found else None

    def is_terminal(self, state: ChineseCheckersState) -> bool:
        """Someone has won, or the ply limit is reached."""
        self.check_state(state)
        return state.ply >= self.ply_limit or bool(self._winners(state.pieces))

    def utilities(self, state: ChineseCheckersState) -> tuple[float, ...]:
        """1 for the winner; -1 (two players) or 0 (more) for the others; 0 each in a
        draw or before the end."""
        self.check_state(state)
        found = self._winners(state.pieces)
        if not found:
            return (0.0,) * self.num_players
        loss = -1.0 if self.num_players == 2 else 0.0
        return tuple(1.0 if player == found[0] else loss for player in range(self.num_players))

    def utility(self, state: ChineseCheckersState, player: int) -> float:
        """``player``'s entry of :meth:`utilities`."""
        return self.utilities(state)[self._check_player(player)]

    def terminal_value(self, state: ChineseCheckersState) -> float | None:
        """The utility of the side to move at the end, else None."""
        if not self.is_terminal(state):
            return None
        return self.utilities(state)[state.turn]

    def remaining_plies(self, state: ChineseCheckersState) -> int:
        """The plies left before the draw: no game lasts longer."""
        self.check_state(state)
        return self.ply_limit - state.ply

    def destinations(self, occupied: int, origin: int) -> int:
        """The holes (a mask) a piece on ``origin`` can end a move on, the other pieces
        standing on ``occupied``: the empty neighbours, and every hole a chain of
        jumps reaches."""
        steps = self._adjacent[origin] & ~occupied
        occupied &= ~(1 << origin)
        links = self.star.links
        seen = 1 << origin
        frontier = [origin]
        while frontier:
            for over, landing in links[frontier.pop()]:
                if landing >= 0 and occupied >> over & 1 and not (occupied | seen) >> landing & 1:
                    seen |= 1 << landing
                    frontier.append(landing)
        return steps | (seen & ~(1 << origin))

    def legal_moves(self, state: ChineseCheckersState) -> list[ChineseCheckersMove]:
        """Origins ascending, for each its destinations ascending; ``[PASS]`` when the
        mover has none; none at the end."""
        if self.is_terminal(state):
            return []
        return list(self._moves(state))

    def _moves(self, state: ChineseCheckersState) -> list[ChineseCheckersMove]:
        last, moves = self._last_moves
        if last is state:
            return moves
        moves = self._generate(state)
        self._last_moves = (state, moves)
        return moves

    def _generate(self, state: ChineseCheckersState) -> list[ChineseCheckersMove]:
        pieces = state.pieces
        occupied = sum(pieces)
        moves = [
            (origin, destination)
            for origin in _holes(pieces[state.turn])
            for destination in _holes(self.destinations(occupied, origin))
        ]
        return moves or [PASS]

    def play(self, state: ChineseCheckersState, move: ChineseCheckersMove) -> ChineseCheckersState:
        """The position after ``move``; an illegal one raises :class:`IllegalMoveError`."""
        self._check_move(move)
        if self.is_terminal(state):
            raise IllegalMoveError(f"{self.name}: move {move!r} after the game is over")
        if move not in self._moves(state):
            raise IllegalMoveError(f"{self.name}: illegal move {move!r} ({self._why(state, move)})")
        return self.play_unchecked(state, move)

    def _why(self, state: ChineseCheckersState, move: ChineseCheckersMove) -> str:
        origin, destination = move
        mine = state.pieces[state.turn]
        holes = self.star.holes
        if move == PASS:
            return "a pass is legal only when no piece can move"
        if not (0 <= origin < holes and 0 <= destination < holes):
            return f"the holes are 0 to {holes - 1}"
        if not mine >> origin & 1:
            return f"hole {origin + 1} holds no piece of the player to move"
        if sum(state.pieces) >> destination & 1:
            return f"hole {destination + 1} is taken"
        return f"hole {destination + 1} is neither next to hole {origin + 1} nor reached by jumps"

    def play_unchecked(
        self, state: ChineseCheckersState, move: ChineseCheckersMove
    ) -> ChineseCheckersState:
        """Move the piece (or pass); the turn passes on."""
        pieces, mover, ply = state
        if move != PASS:
            origin, destination = move
            moved = pieces[mover] ^ (1 << origin) ^ (1 << destination)
            pieces = (*pieces[:mover], moved, *pieces[mover + 1 :])
        return ChineseCheckersState(pieces, (mover + 1) % self.num_players, ply + 1)

    def with_turn(self, state: ChineseCheckersState, player: int) -> ChineseCheckersState | None:
        """``state`` with ``player`` to move, the players between having passed, for
        Best-Reply Search; passes are no moves, so the ply count (the draw) stays. None
        at the end of the game."""
        self.check_state(state)
        player = self._check_player(player)
        if self.is_terminal(state):
            return None
        return state._replace(turn=player)

    # -- search hooks -----------------------------------------------------------------

    def distance(self, state: ChineseCheckersState, player: int) -> int:
        """``d(player)``: the squared steps its pieces still have to go to the tip of
        its target, summed (a full target corner scores its own small sum)."""
        table = self.distances[player]
        return sum(table[hole] for hole in _holes(state.pieces[player]))

    def evaluate(self, state: ChineseCheckersState, player: int) -> float:
        """The others' distances minus ``N - 1`` times ``player``'s (zero-sum)."""
        self.check_state(state)
        player = self._check_player(player)
        total = sum(self.distance(state, other) for other in range(self.num_players))
        return float(total - self.num_players * self.distance(state, player))

    def evaluations(self, state: ChineseCheckersState) -> tuple[float, ...]:
        """:meth:`evaluate` for every player, from one count of the distances."""
        self.check_state(state)
        each = [self.distance(state, player) for player in range(self.num_players)]
        total = sum(each)
        return tuple(float(total - self.num_players * mine) for mine in each)

    def order_moves(
        self, state: ChineseCheckersState, moves: Sequence[ChineseCheckersMove]
    ) -> list[ChineseCheckersMove]:
        """The moves that bring a piece furthest towards its target first (stable)."""
        self.check_state(state)
        table = self.distances[state.turn]
        return sorted(moves, key=lambda m: table[m[1]] - table[m[0]] if m != PASS else 0)

    # -- notation ---------------------------------------------------------------------

    def jump_path(self, state: ChineseCheckersState, move: ChineseCheckersMove) -> list[int]:
        """The holes ``move`` stands on and lands on, in order: its two ends for a step,
        the shortest chain of jumps for a jump (raises :class:`IllegalMoveError` for a
        move that is neither)."""
        self.check_state(state)
        origin, destination = self._check_move(move)
        if move != PASS and self._adjacent[origin] >> destination & 1:
            return [origin, destination]
        occupied = sum(state.pieces) & ~(1 << origin)
        parent = {origin: origin}
        queue = deque([origin])
        while queue and destination not in parent:
            here = queue.popleft()
            for over, landing in self.star.links[here]:
                if landing >= 0 and occupied >> over & 1 and not occupied >> landing & 1:
                    parent.setdefault(landing, here)
                    if parent[landing] == here and landing not in queue:
                        queue.append(landing)
        if move == PASS or destination == origin or destination not in parent:
            raise IllegalMoveError(f"{self.name}: {move!r} is no step nor chain of jumps")
        path = [destination]
        while path[-1] != origin:
            path.append(parent[path[-1]])
        return path[::-1]

    def format_move(self, state: ChineseCheckersState, move: ChineseCheckersMove) -> str:
        """``pass``, ``12-18`` (a step) or ``3x12x30`` (a chain of jumps)."""
        if self._check_move(move) == PASS:
            self.check_state(state)
            return "pass"
        path = self.jump_path(state, move)
        if len(path) == 2 and self._adjacent[path[0]] >> path[1] & 1:
            return f"{path[0] + 1}-{path[1] + 1}"
        return "x".join(str(hole + 1) for hole in path)

    def parse_move(self, state: ChineseCheckersState, text: str) -> ChineseCheckersMove:
        """Read ``pass``, ``a-b`` (any move, by its ends) or ``axbx...`` (a chain of
        jumps, each checked); the move must be legal here."""
        written = need_text(text, "a move's text").strip().lower()
        self.check_state(state)
        if self.is_terminal(state):
            raise IllegalMoveError(f"{self.name}: move {shown(text)} after the game is over")
        legal = self._moves(state)
        if written == "pass":
            if legal == [PASS]:
                return PASS
            raise IllegalMoveError(f"{self.name}: cannot pass, the player to move has moves")
        if not _MOVE_TEXT.fullmatch(written):
            raise ParseError(
                f"{self.name}: a move is 'a-b' (a step), 'axbxc' (jumps) or 'pass', "
                f"got {shown(text)}"
            )
        holes = [self._read_hole(part) for part in re.split(r"[-x]", written)]
        if "x" in written:
            self._check_chain(state, holes, text)
        move = (holes[0], holes[-1])
        if move not in legal:
            raise IllegalMoveError(
                f"{self.name}: illegal move {shown(text)} ({self._why(state, move)})"
            )
        return move

    def _read_hole(self, text: str) -> int:
        hole = read_int(text, what="a hole", game=self.name)
        if not 1 <= hole <= self.star.holes:
            raise ParseError(f"{self.name}: hole {hole} is not on the board (1-{self.star.holes})")
        return hole - 1

    def _check_chain(self, state: ChineseCheckersState, holes: list[int], text: str) -> None:
        """Raise unless every hop of ``holes`` jumps one piece to an empty hole."""
        occupied = sum(state.pieces) & ~(1 << holes[0])
        for start, end in pairwise(holes):
            over = [o for o, landing in self.star.links[start] if landing == end]
            if not over or not occupied >> over[0] & 1 or occupied >> end & 1:
                raise IllegalMoveError(
                    f"{self.name}: illegal move {shown(text)} (no jump from hole "
                    f"{start + 1} to hole {end + 1})"
                )

    def _row_holes(self) -> list[list[int]]:
        rows: list[list[int]] = [[] for _ in range(self.star.rows)]
        for hole, (row, _) in enumerate(self.star.cells):
            rows[row].append(hole)
        return rows

    def _symbols(self, state: ChineseCheckersState) -> list[str]:
        symbols = ["."] * self.star.holes
        for player, mask in enumerate(state.pieces):
            for hole in _holes(mask):
                symbols[hole] = str(player + 1)
        return symbols

    def format_position(self, state: ChineseCheckersState) -> str:
        """The rows from the top joined by ``/`` (``.`` an empty hole, ``k`` a piece of
        player ``k``), the player to move (from 1) and the plies played."""
        symbols = self._symbols(state)
        rows = ("".join(symbols[hole] for hole in row) for row in self._row_holes())
        return "/".join(rows) + f" {state.turn + 1} {state.ply}"

    def parse_position(self, text: str) -> ChineseCheckersState:
        """Moves from the start (``'76-64 9x21'``), or the board as
        :meth:`format_position` writes it, ``ROWS PLAYER PLY`` (the last two may be
        left out: player 1 to move, no ply played)."""
        need_text(text, "a position's text")
        if "/" not in text:
            return super().parse_position(text)
        parts = text.split()
        if len(parts) not in (1, 3):
            raise ParseError(
                f"{self.name}: a board position is 'ROWS PLAYER PLY', got {shown(text)}"
            )
        turn, ply = (
            (read_int(parts[1], what="the player to move", game=self.name) - 1,
             read_int(parts[2], what="the ply count", game=self.name))
            if len(parts) == 3 else (0, 0)
        )  # fmt: skip
        if not 0 <= turn < self.num_players:
            raise ParseError(
                f"{self.name}: the player to move is 1-{self.num_players}, got {turn + 1}"
            )
        state = ChineseCheckersState(self._read_rows(parts[0]), turn, ply)
        try:
            self.check_state(state)
        except PliesError as exc:
            raise ParseError(f"{self.name}: {shown(text)} is not a position: {exc}") from None
        return state

    def _read_rows(self, text: str) -> tuple[int, ...]:
        rows = text.split("/")
        layout = self._row_holes()
        if len(rows) != len(layout):
            raise ParseError(f"{self.name}: a board has {len(layout)} rows, got {len(rows)}")
        pieces = [0] * self.num_players
        for number, (row, holes) in enumerate(zip(rows, layout, strict=True), 1):
            if len(row) != len(holes):
                raise ParseError(
                    f"{self.name}: row {number} has {len(holes)} holes, got {shown(row)}"
                )
            for symbol, hole in zip(row, holes, strict=True):
                if symbol == ".":
                    continue
                if not ("1" <= symbol <= str(self.num_players)):
                    raise ParseError(
                        f"{self.name}: row {number}: {symbol!r} is no hole ('.' or a player "
                        f"1-{self.num_players})"
                    )
                pieces[int(symbol) - 1] |= 1 << hole
        return tuple(pieces)

    # -- view -------------------------------------------------------------------------

    def grid(self, state: ChineseCheckersState) -> list[str]:
        """The star drawn on its grid (see :mod:`._star`): ``.`` an empty hole, ``k``
        a piece of player ``k``, spaces between and around the holes."""
        self.check_state(state)
        grid = [[" "] * self.star.columns for _ in range(self.star.rows)]
        for symbol, (row, column) in zip(self._symbols(state), self.star.cells, strict=True):
            grid[row][column] = symbol
        return ["".join(row) for row in grid]

    def render(self, state: ChineseCheckersState) -> str:
        """The grid, each row led by the number of its first hole, and whose turn it is
        (or who won)."""
        width = len(str(self.star.holes))
        lines = [
            f"{holes[0] + 1:>{width}} {row.rstrip()}"
            for row, holes in zip(self.grid(state), self._row_holes(), strict=True)
        ]
        found = self._winners(state.pieces)
        if found:
            lines.append(f"player {found[0] + 1} wins")
        elif state.ply >= self.ply_limit:
            lines.append(f"draw: {self.turns} moves each")
        else:
            lines.append(f"player {state.turn + 1} to move (ply {state.ply} of {self.ply_limit})")
        return "\n".join(lines)

    def board(self, state: ChineseCheckersState) -> Board:
        """The grid drawn as discs (``x`` player 1, ``o`` player 2, digits 3-6 the
        others, spaces between the holes; the room draws a star on a square grid),
        the hole numbers on the holes, and the cells a move's text names."""
        grid = [row.replace("1", "x").replace("2", "o") for row in self.grid(state)]
        numbers = [[""] * self.star.columns for _ in range(self.star.rows)]
        for hole, (row, column) in enumerate(self.star.cells):
            numbers[row][column] = str(hole + 1)
        return Board(grid, "discs", cells_of=self._cells_named, numbers=numbers)

    def _cells_named(self, text: str) -> list[tuple[int, int]]:
        """The cells of the holes a move's text names, in order (none for other text)."""
        holes = [int(part) for part in re.findall(r"\d{1,3}", text)]
        return [self.star.cells[hole - 1] for hole in holes if 1 <= hole <= self.star.holes]
