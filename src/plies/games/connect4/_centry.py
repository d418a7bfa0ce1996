"""C-ABI entries of Pons' kernel (:mod:`._pons`), for plies' object cache.

Each entry is a ``numba.cfunc`` taking the kernel function's integers and, for each
array, its data pointer and shape, so that a process can call it through
:mod:`ctypes` from the object file :func:`compile_objects` returns, with neither
Numba nor LLVM loaded (see :mod:`plies.engine.native._objload`). The entries
allocate nothing but ``principal_line``'s one-cell buffer (Numba's runtime, NRT, which
the loader takes from Numba's extension module).

This module imports Numba and compiles: only a process that has Numba loaded
already (a solve that fell back to it) imports it, to write the cache.
"""

from __future__ import annotations

from typing import Any

from numba import carray, cfunc, types  # type: ignore[attr-defined]

from plies.engine.native import CEntry
from plies.games.connect4 import _pons as kernel

__all__ = ["ENTRY_SIGNATURES", "compile_objects"]

_U64, _I64, _I8 = types.uint64, types.int64, types.int8
_POINTER: Any = types.CPointer

#: Each entry's ``struct`` signature (result, then arguments; ``P`` a pointer) before
#: the kernel's five arrays (keys, values, board, scratch, control), which follow as
#: ``PqPqPqPqqPq`` (pointer and size each; scratch: rows and columns).
ENTRY_SIGNATURES = {
    "solve_root": "qQQq?",
    "principal_line": "qQQqqPq",
    "best_moves": "qQQqq?Pq",
}
ARRAYS_SIGNATURE = "PqPqPqPqqPq"


def _arrays(key: Any) -> tuple[Any, ...]:
    """The Numba types of the five arrays' pointers and sizes, keys of type ``key``."""
    return (
        _POINTER(key), _I64, _POINTER(_I8), _I64, _POINTER(_U64), _I64,
        _POINTER(_U64), _I64, _I64, _POINTER(_I64), _I64,
    )  # fmt: skip


def _entries(key: Any) -> dict[str, Any]:
    """The three cfunc entries for tables whose keys are ``key`` (uint32 or uint64)."""
    arrays = _arrays(key)

    # fmt: off
    @cfunc(_I64(_U64, _U64, _I64, types.boolean, *arrays), nogil=True)
    def solve_root(position, mask, moves, weak, kp, kn, vp, vn, bp, bn, sp, rows, cols, cp, cn):  # type: ignore[no-untyped-def]  # noqa: PLR0917
        return kernel.solve_root(
            position, mask, moves, weak, carray(kp, kn), carray(vp, vn), carray(bp, bn),
            carray(sp, (rows, cols)), carray(cp, cn),
        )

    @cfunc(_I64(_U64, _U64, _I64, _I64, _POINTER(_U64), _I64, *arrays), nogil=True)
    def principal_line(position, mask, moves, score, lp, ln, kp, kn, vp, vn, bp, bn, sp, rows, cols, cp, cn):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.principal_line(
            position, mask, moves, score, carray(lp, ln), carray(kp, kn),
            carray(vp, vn), carray(bp, bn), carray(sp, (rows, cols)), carray(cp, cn),
        )

    @cfunc(_I64(_U64, _U64, _I64, _I64, types.boolean, _POINTER(_U64), _I64, *arrays), nogil=True)
    def best_moves(position, mask, moves, target, first_only, fp, fn, kp, kn, vp, vn, bp, bn, sp, rows, cols, cp, cn):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.best_moves(
            position, mask, moves, target, first_only, carray(fp, fn), carray(kp, kn),
            carray(vp, vn), carray(bp, bn), carray(sp, (rows, cols)), carray(cp, cn),
        )
    # fmt: on

    return {"solve_root": solve_root, "principal_line": principal_line, "best_moves": best_moves}


def compile_objects(key_dtype: str) -> tuple[list[bytes], dict[str, tuple[int, CEntry]]]:
    """Compile the entries for tables whose keys are ``key_dtype`` (``"uint32"`` or
    ``"uint64"``): ``(object files, entries by the kernel function's name)``."""
    objects: list[bytes] = []
    entries: dict[str, tuple[int, CEntry]] = {}
    for name, entry in _entries(getattr(types, key_dtype)).items():
        library = entry._library  # Numba's code library of the cfunc
        # Its final module holds the kernel functions it calls, linked in.
        objects.append(library._codegen._tm.emit_object(library._final_module))
        entries[name] = (
            len(objects) - 1,
            CEntry(entry.native_name, ENTRY_SIGNATURES[name] + ARRAYS_SIGNATURE),
        )
    return objects, entries
