"""Bit tricks for compiled rules: one instruction each on the machines we run on.

Ports of bitboard games (Connect Four, Othello, checkers) count and find set bits in
their ``@njit`` code; they take these from :mod:`plies.engine.native`.
"""

from __future__ import annotations

from typing import Any

from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numba.extending import intrinsic

__all__ = ["popcount", "trailing_zeros"]


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """Bits set in ``x``: LLVM's ctpop, one POPCNT instruction (Pons loops instead)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


#: Bits set in a word (compiled code only): one POPCNT. Typed loosely for mypy, as
#: Numba's intrinsics are.
popcount: Any = _popcount
#: The index of the lowest set bit of a non-zero word (compiled code only): one TZCNT.
trailing_zeros: Any = _trailing_zeros
