"""The native rules of Rolit: the Python game's four bitboards, compiled.

The state is ``[red, yellow, green, blue, player]``: each player's discs (square ``a1``
is bit 0, ``h8`` bit 63, stored as int64 bit patterns) and the player to move. There
are no constants. A move is the square 0-63, as in Python, and the moves come a1
first, as :meth:`~plies.games.rolit.Rolit.legal_moves` lists them.

The native protocol speaks for the side to move: ``terminal_value`` is its payoff (its
share of the win, or 0), ``evaluate`` its evaluation (its discs, a corner counting
:data:`~plies.games.rolit._rules.CORNER_BONUS` more). The rules of N players
say the rest: ``to_move``, ``utilities`` (every player's payoff once the board is
full), ``evaluations`` (every player's evaluation) and ``with_turn`` (the same discs
with another player to move, Best-Reply Search's passes). The port takes no task of the
two-player kernel (``tasks`` is empty: its search and solver are negamax); the
N-player searches and playouts use it, and the conformance suite checks it against
the Python rules.

The Python key is the four boards and the player (258 bits); the native key is a
64-bit mix of them (splitmix64's finaliser after each word), as the Othello port's.
Every bit operation is on ``np.uint64`` with ``np.uint64`` operands: Numba types
``uint64 op int64`` as float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine import native
from plies.engine.native import NativeGame, Prepared, helper, int64_array, rule
from plies.games.rolit._rules import (
    _CORNERS,
    _NOT_A,
    _NOT_H,
    CORNER_BONUS,
    PLAYERS,
    SQUARES,
    Rolit,
    RolitState,
)

__all__ = ["RolitNative"]

#: Index of the player to move in the state (the boards come first, in player order).
PLAYER = PLAYERS

_U = np.uint64
ZERO, ONE = _U(0), _U(1)
FULL = _U((1 << SQUARES) - 1)
NOT_A, NOT_H = _U(_NOT_A), _U(_NOT_H)
CORNERS = _U(_CORNERS)


def _signed(bits: int) -> int:
    """A 64-bit board as the int64 with the same bit pattern."""
    return bits - (1 << 64) if bits >> 63 else bits


@helper(inline=True)
def _left(bits: Any, shift: Any, landing: Any) -> Any:
    """``bits`` one step towards h8 (``shift`` 1, 7, 8 or 9), wrapped squares dropped."""
    return (bits << shift) & landing


@helper(inline=True)
def _right(bits: Any, shift: Any, landing: Any) -> Any:
    """``bits`` one step towards a1, wrapped squares dropped."""
    return (bits >> shift) & landing


@helper(inline=True)
def _ends_left(mine: Any, others: Any, shift: Any, landing: Any) -> Any:
    """The squares one step past runs of ``others`` that start next to ``mine``,
    towards h8 (a run is at most six discs)."""
    run = _left(mine, shift, landing) & others
    for _ in range(5):
        run |= _left(run, shift, landing) & others
    return _left(run, shift, landing)


@helper(inline=True)
def _ends_right(mine: Any, others: Any, shift: Any, landing: Any) -> Any:
    """:func:`_ends_left` towards a1."""
    run = _right(mine, shift, landing) & others
    for _ in range(5):
        run |= _right(run, shift, landing) & others
    return _right(run, shift, landing)


@helper()
def captures(mine: Any, others: Any) -> Any:
    """The empty squares where a disc of ``mine`` outflanks some of ``others``."""
    found = _ends_left(mine, others, _U(1), NOT_A) | _ends_right(mine, others, _U(1), NOT_H)
    found |= _ends_left(mine, others, _U(8), FULL) | _ends_right(mine, others, _U(8), FULL)
    found |= _ends_left(mine, others, _U(9), NOT_A) | _ends_right(mine, others, _U(9), NOT_H)
    found |= _ends_left(mine, others, _U(7), NOT_H) | _ends_right(mine, others, _U(7), NOT_A)
    return found & ~(mine | others)


@helper()
def neighbours(occupied: Any) -> Any:
    """The empty squares next to a disc."""
    near = _left(occupied, _U(1), NOT_A) | _right(occupied, _U(1), NOT_H)
    near |= _left(occupied, _U(8), FULL) | _right(occupied, _U(8), FULL)
    near |= _left(occupied, _U(9), NOT_A) | _right(occupied, _U(9), NOT_H)
    near |= _left(occupied, _U(7), NOT_H) | _right(occupied, _U(7), NOT_A)
    return near & ~occupied


@helper(inline=True)
def _flips_left(mine: Any, others: Any, start: Any, shift: Any, landing: Any) -> Any:
    """The discs of ``others`` a disc of ``mine`` on ``start`` (a bit) outflanks
    towards h8."""
    run = ZERO
    probe = _left(start, shift, landing)
    while probe & others:
        run |= probe
        probe = _left(probe, shift, landing)
    return run if probe & mine else ZERO


@helper(inline=True)
def _flips_right(mine: Any, others: Any, start: Any, shift: Any, landing: Any) -> Any:
    """:func:`_flips_left` towards a1."""
    run = ZERO
    probe = _right(start, shift, landing)
    while probe & others:
        run |= probe
        probe = _right(probe, shift, landing)
    return run if probe & mine else ZERO


@helper()
def flips(mine: Any, others: Any, start: Any) -> Any:
    """Every disc of ``others`` a disc of ``mine`` on ``start`` outflanks."""
    turned = _flips_left(mine, others, start, _U(1), NOT_A)
    turned |= _flips_right(mine, others, start, _U(1), NOT_H)
    turned |= _flips_left(mine, others, start, _U(8), FULL)
    turned |= _flips_right(mine, others, start, _U(8), FULL)
    turned |= _flips_left(mine, others, start, _U(9), NOT_A)
    turned |= _flips_right(mine, others, start, _U(9), NOT_H)
    turned |= _flips_left(mine, others, start, _U(7), NOT_H)
    turned |= _flips_right(mine, others, start, _U(7), NOT_A)
    return turned


@helper(inline=True)
def _occupied(state: Any) -> Any:
    """Every disc on the board."""
    return _U(state[0]) | _U(state[1]) | _U(state[2]) | _U(state[3])


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """The player's captures, or if it has none every empty square next to a disc;
    a1 first; none once the board is full."""
    occupied = _occupied(state)
    mine = _U(state[state[PLAYER]])
    moves = captures(mine, occupied & ~mine) if mine else ZERO
    if moves == ZERO:
        moves = neighbours(occupied)
    count = 0
    while moves:
        out[count] = np.int64(native.trailing_zeros(moves))
        count += 1
        moves &= moves - ONE
    return count


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Place a disc and turn what it outflanks; the next player moves."""
    player = state[PLAYER]
    mine = _U(state[player])
    square = ONE << _U(move)
    turned = flips(mine, _occupied(state) & ~mine, square)
    for owner in range(PLAYERS):
        board = _U(state[owner])
        board = board | turned | square if owner == player else board & ~turned
        child[owner] = np.int64(board)
    child[PLAYER] = (player + 1) % PLAYERS


@helper(inline=True)
def _most_discs(state: Any) -> Any:
    """The most discs a player has, and how many players have that many (the winners,
    who share the payoff of 1)."""
    most, winners = np.int64(-1), 0
    for owner in range(PLAYERS):
        count = np.int64(native.popcount(_U(state[owner])))
        if count > most:
            most, winners = count, 1
        elif count == most:
            winners += 1
    return most, winners


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """The payoff of the player to move once the board is full (its share of the
    win: 1 shared by the players with the most discs), else NaN."""
    if _occupied(state) != FULL:
        return np.nan
    most, winners = _most_discs(state)
    mine = np.int64(native.popcount(_U(state[state[PLAYER]])))
    return 1.0 / winners if mine == most else 0.0


@rule("evaluate")
def evaluate(consts: Any, state: Any) -> float:
    """The player to move's discs, a corner counting more: the Python ``evaluate``."""
    mine = _U(state[state[PLAYER]])
    return float(
        np.int64(native.popcount(mine)) + CORNER_BONUS * np.int64(native.popcount(mine & CORNERS))
    )


@rule("to_move")
def to_move(consts: Any, state: Any) -> Any:
    """The player to move, 0 Red to 3 Blue."""
    return state[PLAYER]


@rule("utilities")
def utilities(consts: Any, state: Any, values: Any) -> int:
    """Once the board is full, 1 and every player's payoff in ``values`` (1 shared by
    the players with the most discs, 0 for the others); else 0."""
    if _occupied(state) != FULL:
        return 0
    most, winners = _most_discs(state)
    for owner in range(PLAYERS):
        mine = np.int64(native.popcount(_U(state[owner])))
        values[owner] = 1.0 / winners if mine == most else 0.0
    return 1


@rule("evaluations")
def evaluations(consts: Any, state: Any, values: Any) -> int:
    """1 and every player's evaluation in ``values`` (the Python ``evaluations``)."""
    for owner in range(PLAYERS):
        mine = _U(state[owner])
        values[owner] = float(
            np.int64(native.popcount(mine))
            + CORNER_BONUS * np.int64(native.popcount(mine & CORNERS))
        )
    return 1


@rule("with_turn")
def with_turn(consts: Any, state: Any, player: int, out: Any) -> int:
    """1 and the same discs with ``player`` to move in ``out`` (the Python
    ``with_turn``, which gives a full board a player too)."""
    for owner in range(PLAYERS):
        out[owner] = state[owner]
    out[PLAYER] = player
    return 1


@helper(inline=True)
def _mix(h: Any) -> Any:
    """splitmix64's finaliser: every input bit reaches every output bit."""
    h ^= h >> _U(30)
    h *= _U(0xBF58476D1CE4E5B9)
    h ^= h >> _U(27)
    h *= _U(0x94D049BB133111EB)
    return h ^ (h >> _U(31))


@rule("key")
def key(consts: Any, state: Any) -> Any:
    """A 64-bit hash of the four boards and the player (see the module docstring)."""
    h = _mix(_U(state[0]) ^ _U(0x9E3779B97F4A7C15))
    h = _mix(h ^ _U(state[1]))
    h = _mix(h ^ _U(state[2]))
    h = _mix(h ^ _U(state[3]))
    return _mix(h + _U(state[PLAYER]))


class RolitNative(NativeGame[RolitState, int]):
    """The adapter of :class:`~plies.games.rolit.Rolit`: its rules, no kernel task."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    key = key
    to_move = to_move
    utilities = utilities
    evaluations = evaluations
    with_turn = with_turn
    players = PLAYERS
    #: The kernel's search and solver are two-player: Rolit takes neither (its
    #: N-player searches and playouts read ``to_move``, ``utilities`` and ``evaluations``).
    tasks = ()

    def __init__(self, game: Rolit) -> None:
        self.game = game

    def prepare(self, state: RolitState) -> Prepared:
        """No constants; moves: at most one a square; plies: one an empty square."""
        empties = SQUARES - sum(board.bit_count() for board in state.discs)
        prepared = Prepared(int64_array([0]), None, max_moves=SQUARES, max_plies=empties + 1,
                            move_space=SQUARES)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode(self, prepared: Prepared, state: RolitState) -> Any:
        """``[red, yellow, green, blue, player]``."""
        return int64_array([*(_signed(board) for board in state.discs), state.player])

    def encode_move(self, prepared: Prepared, move: int) -> int:
        """The square."""
        return int(move)

    def decode_move(self, prepared: Prepared, move: int) -> int:
        """The square."""
        return int(move)
