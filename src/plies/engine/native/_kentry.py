"""C-ABI entries of the generic kernel (:mod:`._kernel`), for plies' object cache.

Each entry is a ``numba.cfunc`` taking the kernel function's numbers and, for each
array, its data pointer and shape (a table: its five arrays' pointers and sizes), so
that a process can call it through :mod:`ctypes` from the object file
:func:`compile_objects` returns, with neither Numba nor LLVM loaded (see
:mod:`._objload` and :mod:`._mapped`, which passes the arrays as
:data:`._mapped.ENTRY_ARGUMENTS` lays them out). The rules are called through their
addresses (the ``rules`` array), so one object serves every game.

This module imports Numba and compiles: only a process that has Numba loaded
already (a search that fell back to it) imports it, to write the cache.
"""

from __future__ import annotations

from typing import Any

from numba import carray, cfunc, types  # type: ignore[attr-defined]

from plies.engine.native import _kernel as kernel
from plies.engine.native._mapped import ENTRY_ARGUMENTS, ENTRY_RESULTS, entry_signature
from plies.engine.native._objload import CEntry

__all__ = ["compile_objects"]

_I64, _U64, _F64, _I8 = types.int64, types.uint64, types.float64, types.int8
_POINTER: Any = types.CPointer
#: The Numba types of each kind of argument (see ``_mapped.ENTRY_ARGUMENTS``).
_KINDS: dict[str, tuple[Any, ...]] = {
    "q": (_I64,),
    "d": (_F64,),
    "?": (types.boolean,),
    "array": (_POINTER(_I64), _I64),
    "rows": (_POINTER(_I64), _I64, _I64),
    "table": (
        _POINTER(_U64), _I64, _POINTER(_I64), _I64, _POINTER(_F64), _I64,
        _POINTER(_I64), _I64, _POINTER(_I8), _I64,
    ),
}  # fmt: skip
_RESULTS = {"q": _I64, "d": _F64}


def _signature(name: str) -> Any:
    """The Numba signature of the entry of the kernel function ``name``."""
    arguments = [t for kind in ENTRY_ARGUMENTS[name] for t in _KINDS[kind]]
    return _RESULTS[ENTRY_RESULTS[name]](*arguments)


def _entries() -> dict[str, Any]:
    """The cfunc entries of the kernel functions a search or solve calls."""

    # fmt: off
    @cfunc(_signature("negamax"), nogil=True)
    def negamax(rp, rn, cp, cn, ply, depth, alpha, beta, sp, sr, sc, mp, mr, mc, hp, hn, kp, kr, kc, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, op, on):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.negamax(
            carray(rp, rn), carray(cp, cn), ply, depth, alpha, beta, carray(sp, (sr, sc)),
            carray(mp, (mr, mc)), carray(hp, hn), carray(kp, (kr, kc)),
            (carray(t0, t1), carray(t2, t3), carray(t4, t5), carray(t6, t7), carray(t8, t9)),
            carray(op, on),
        )

    @cfunc(_signature("principal_variation"), nogil=True)
    def principal_variation(rp, rn, cp, cn, move, depth, sp, sr, sc, mp, mr, mc, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, lp, ln):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.principal_variation(
            carray(rp, rn), carray(cp, cn), move, depth, carray(sp, (sr, sc)),
            carray(mp, (mr, mc)),
            (carray(t0, t1), carray(t2, t3), carray(t4, t5), carray(t6, t7), carray(t8, t9)),
            carray(lp, ln),
        )

    @cfunc(_signature("exact"), nogil=True)
    def exact(rp, rn, cp, cn, ply, alpha, beta, sp, sr, sc, mp, mr, mc, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, op, on):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.exact(
            carray(rp, rn), carray(cp, cn), ply, alpha, beta, carray(sp, (sr, sc)),
            carray(mp, (mr, mc)),
            (carray(t0, t1), carray(t2, t3), carray(t4, t5), carray(t6, t7), carray(t8, t9)),
            carray(op, on),
        )

    @cfunc(_signature("line"), nogil=True)
    def line(rp, rn, cp, cn, value, lp, ln, sp, sr, sc, mp, mr, mc, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, op, on):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.line(
            carray(rp, rn), carray(cp, cn), value, carray(lp, ln), carray(sp, (sr, sc)),
            carray(mp, (mr, mc)),
            (carray(t0, t1), carray(t2, t3), carray(t4, t5), carray(t6, t7), carray(t8, t9)),
            carray(op, on),
        )

    @cfunc(_signature("best_moves"), nogil=True)
    def best_moves(rp, rn, cp, cn, ply, target, first_only, fp, fn, sp, sr, sc, mp, mr, mc, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, op, on):  # type: ignore[no-untyped-def]  # noqa: E501, PLR0917
        return kernel.best_moves(
            carray(rp, rn), carray(cp, cn), ply, target, first_only, carray(fp, fn),
            carray(sp, (sr, sc)), carray(mp, (mr, mc)),
            (carray(t0, t1), carray(t2, t3), carray(t4, t5), carray(t6, t7), carray(t8, t9)),
            carray(op, on),
        )
    # fmt: on

    return {
        "negamax": negamax,
        "principal_variation": principal_variation,
        "exact": exact,
        "line": line,
        "best_moves": best_moves,
    }


def compile_objects() -> tuple[list[bytes], dict[str, tuple[int, CEntry]]]:
    """Compile the entries: ``(object files, entries by the kernel function's name)``."""
    objects: list[bytes] = []
    entries: dict[str, tuple[int, CEntry]] = {}
    for name, entry in _entries().items():
        objects.append(object_code(entry))
        entries[name] = (len(objects) - 1, CEntry(entry.native_name, entry_signature(name)))
    return objects, entries


def object_code(entry: Any) -> bytes:
    """The object file of a cfunc compiled in this process (not loaded from Numba's
    cache): its code library's final module, the functions it calls linked in."""
    library = entry._library
    return bytes(library._codegen._tm.emit_object(library._final_module))
