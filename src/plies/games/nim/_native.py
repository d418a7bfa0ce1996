"""The native port of Nim, for positions of at most a few thousand objects.

The state is ``[player, heaps...]``; the constants ``[heaps, stride, bits]``, where
``bits`` is the width of the largest heap at the root, ``stride`` is ``2**bits`` and a
move's id is ``heap * stride + take``. The key packs the heaps ``bits`` apiece under a
tag of ``(heaps, bits)`` when they fit (else it hashes them with the tag): so a table
reused between roots of other sizes never takes one position for another, and equal
keys always mean the same move ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine.native import NativeGame, Prepared, int64_array, rule
from plies.games.nim._rules import Nim, NimMove, NimState

__all__ = ["NimNative"]


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """Every (heap, take): heaps left to right, larger takes first."""
    stride = consts[1]
    count = 0
    for heap in range(consts[0]):
        for take in range(state[1 + heap], 0, -1):
            out[count] = heap * stride + take
            count += 1
    return count


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Take from the heap; the turn passes."""
    for i in range(1, consts[0] + 1):
        child[i] = state[i]
    child[0] = 1 - state[0]
    # The stride is a power of two: a shift and a mask, not a division (a signed
    # one, with Python's rounding).
    child[1 + (move >> consts[2])] -= move & (consts[1] - 1)


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """-1 for the side to move when every heap is empty."""
    for heap in range(consts[0]):
        if state[1 + heap] != 0:
            return np.nan
    return -1.0


@rule("key")
def key(consts: Any, state: Any) -> np.uint64:
    """The heaps packed ``bits`` apiece under the tag ``heaps << 6 | bits`` (top 12
    bits) when they fit 52 bits, else hashed with the tag (not the player)."""
    heaps, bits = consts[0], consts[2]
    tag = np.uint64(heaps << 6 | bits)
    if heaps * bits <= 52:
        h = tag << np.uint64(52)
        for heap in range(heaps):
            h |= np.uint64(state[1 + heap]) << np.uint64(heap * bits)
        return h
    h = tag
    for heap in range(heaps):
        h = (h ^ np.uint64(state[1 + heap])) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return h


@rule("winning_move")
def winning_move(consts: Any, state: Any) -> int:
    """Take the whole heap when only one heap is left."""
    found = -1
    for heap in range(consts[0]):
        if state[1 + heap] != 0:
            if found >= 0:
                return -1
            found = heap
    if found < 0:
        return -1
    return found * consts[1] + state[1 + found]


class NimNative(NativeGame[NimState, NimMove]):
    """The adapter of :class:`~plies.games.nim.Nim`."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    key = key
    winning_move = winning_move

    def __init__(self, game: Nim) -> None:
        self.game = game

    def problem(self, state: NimState | None) -> str | None:
        """Positions whose search buffers (moves x plies) would be too large."""
        if state is None:
            return None
        total = sum(state.heaps)
        if (total + 2) * max(total, len(state.heaps) + 1) > self.MAX_BUFFER:
            return (
                f"nim {','.join(map(str, state.heaps))} has no native port: "
                f"{total:,} objects need buffers of more than {self.MAX_BUFFER:,} moves"
            )
        return None

    def prepare(self, state: NimState) -> Prepared:
        """Constants from the root's heaps; moves and plies: the objects left."""
        bits = max(max(state.heaps).bit_length(), 1)
        consts = int64_array([len(state.heaps), 1 << bits, bits])
        total = sum(state.heaps)
        prepared = Prepared(consts, None, max_moves=total, max_plies=total,
                            move_space=len(state.heaps) << bits)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode(self, prepared: Prepared, state: NimState) -> Any:
        """``[player, heaps...]``."""
        return int64_array([state.player, *state.heaps])

    def encode_move(self, prepared: Prepared, move: NimMove) -> int:
        """``heap * stride + take``."""
        return int(move.heap * prepared.consts[1] + move.take)

    def decode_move(self, prepared: Prepared, move: int) -> NimMove:
        """The (heap, take) pair."""
        stride = int(prepared.consts[1])
        return NimMove(move // stride, move % stride)
