"""Dead stones: stones whose colour can no longer matter, for the kernel's table keys.

A stone is *dead* when every four-cell window through it (in each of the four
directions, on the board) holds stones of both colours besides it: no such window
can ever be four of one colour, whatever the stone's colour. Giving every dead stone
to one side is not sound, though: two dead stones of the opponent's in one window
would turn it into a window of ours. :func:`dead_stones` gives the side to move the
stones that can safely be its own:

* *buried* stones, which lie in no window with an empty cell;
* the opponent's dead stones whose every window with an empty cell keeps a live
  (not dead) stone of the opponent's, so that the window stays blocked for us.

Then every window a game can still use holds the same colours as before (a test
checks it), so the position and the one with those stones recoloured score the same,
and the kernel keys them alike (:func:`plies.games.connect4._pons.table_key`), as
Christophe Steininger's ``c4`` solver does with its own, partial test.

The four directions are four lanes of one 256-bit vector (LLVM's vector types,
through a Numba intrinsic): the same shifts and masks for all four at once, about 6 ns
a position in a loop on this project's machine (19 ns from input to result), against
twice that for the four one after another. On a processor without vector registers
LLVM compiles the same lanes to plain words.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["dead_stones"]

_WORD = ir.IntType(64)
_LANES = ir.VectorType(_WORD, 4)
_INDEX = ir.IntType(32)


@intrinsic
def _dead_stones(typingctx: Any, position: Any, mask: Any, h1: Any, full: Any) -> Any:
    """The stones the side to move may take as its own (a uint64 mask; see the module)
    in the position with stones ``position`` (the side to move's) and ``mask`` (both
    sides'), on a board of column stride ``h1``
    (height + 1) whose cells are ``full``. Lane by lane, one direction each (a shift
    of 1 up a column, ``h1`` along a row, ``h1 - 1`` and ``h1 + 1`` along the
    diagonals): a window's first cell is a bit of ``starts`` when its four cells are
    on the board; a stone of one colour is live when a window through it lacks the
    other colour or holds no second stone of its own."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ours, filled, stride, board = args
        theirs = builder.xor(ours, filled)

        def lanes(values: list[Any]) -> Any:
            vector = ir.Constant(_LANES, ir.Undefined)
            for i, value in enumerate(values):
                vector = builder.insert_element(vector, value, _INDEX(i))
            return vector

        def clamp(value: Any) -> Any:
            # LLVM leaves a shift by 64 or more undefined; by 63 it empties a board,
            # as directions with no window on a narrow board should.
            top = _WORD(63)
            return builder.select(builder.icmp_unsigned("<", value, top), value, top)

        one = _WORD(1)
        steps = [one, stride, builder.sub(stride, one), builder.add(stride, one)]
        s1 = lanes([clamp(step) for step in steps])
        s2 = lanes([clamp(builder.add(step, step)) for step in steps])
        s3 = lanes([clamp(builder.add(builder.add(step, step), step)) for step in steps])
        x, y, cells = lanes([ours] * 4), lanes([theirs] * 4), lanes([board] * 4)
        right, left = builder.lshr, builder.shl
        or_, and_, not_ = builder.or_, builder.and_, builder.not_
        starts = and_(and_(cells, right(cells, s1)), and_(right(cells, s2), right(cells, s3)))
        x1, x2, x3 = right(x, s1), right(x, s2), right(x, s3)
        y1, y2, y3 = right(y, s1), right(y, s2), right(y, s3)
        # Windows holding two or more of a colour, and windows holding any.
        x_two = or_(or_(and_(or_(x, x1), or_(x2, x3)), and_(x, x1)), and_(x2, x3))
        y_two = or_(or_(and_(or_(y, y1), or_(y2, y3)), and_(y, y1)), and_(y2, y3))
        x_any = or_(or_(x, x1), or_(x2, x3))
        y_any = or_(or_(y, y1), or_(y2, y3))
        # Windows that keep a stone of that colour live, spread over their cells.
        x_open = and_(starts, not_(and_(x_two, y_any)))
        y_open = and_(starts, not_(and_(y_two, x_any)))
        x_cells = or_(or_(x_open, left(x_open, s1)), or_(left(x_open, s2), left(x_open, s3)))
        y_cells = or_(or_(y_open, left(y_open, s1)), or_(left(y_open, s2), left(y_open, s3)))
        live = or_(and_(x, x_cells), and_(y, y_cells))
        name = "llvm.vector.reduce.or.v4i64"
        reduce = builder.module.globals.get(name) or ir.Function(
            builder.module, ir.FunctionType(_WORD, [_LANES]), name=name
        )
        dead = and_(filled, not_(builder.call(reduce, [live])))
        # Which of the opponent's dead stones may be given to the side to move: those
        # whose every window with an empty cell keeps a live stone of the opponent's.
        e = lanes([and_(board, not_(filled))] * 4)
        e_any = or_(or_(e, right(e, s1)), or_(right(e, s2), right(e, s3)))
        z = lanes([and_(theirs, not_(dead))] * 4)
        z_any = or_(or_(z, right(z, s1)), or_(right(z, s2), right(z, s3)))
        bad = and_(starts, and_(e_any, not_(z_any)))
        bad_cells = or_(or_(bad, left(bad, s1)), or_(left(bad, s2), left(bad, s3)))
        sound = and_(and_(dead, theirs), not_(builder.call(reduce, [bad_cells])))
        open_windows = and_(starts, e_any)
        open_cells = or_(
            or_(open_windows, left(open_windows, s1)),
            or_(left(open_windows, s2), left(open_windows, s3)),
        )
        buried = and_(filled, not_(builder.call(reduce, [open_cells])))
        return or_(buried, sound)

    word = types.uint64
    return word(word, word, word, word), codegen


#: The dead stones of a position (compiled code only; see :func:`_dead_stones`). Typed
#: loosely for mypy, as Numba's intrinsics are.
dead_stones: Any = _dead_stones
