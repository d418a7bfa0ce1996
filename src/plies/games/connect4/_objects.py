"""Pons' kernel from plies' object cache: the solve without Numba in the process.

A fresh process loading Pons' kernel through Numba paid 0.4 s and 150 MB before a
one-off solve's 10 ms (``import numba`` and LLVM's JIT). Once Numba has loaded or
compiled the kernel on a machine, :func:`remember_compiled` has the kernel's C-ABI
entries (:mod:`._centry`) as object code to plies' cache, and later processes map
them (:func:`plies.engine.native.load_object_entries`) and call them through ctypes:
:class:`ObjectKernel` takes the kernel functions' arguments and passes the arrays'
pointers and shapes. Anything that keeps the cache from loading (none written yet,
another CPU, changed sources or versions, a damaged file, ``PLIES_OBJECT_CACHE=0``)
leaves the solve to Numba, as before.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

from plies.engine import native

__all__ = ["ObjectKernel", "kernel_for", "remember_compiled", "write_cache"]

#: Key types the entries are compiled for (the table's keys: see ``NativeTable``).
KEY_DTYPES = ("uint32", "uint64")

#: The kernel each key type uses in this process: an ObjectKernel, or ``_pons``.
_KERNELS: dict[str, Any] = {}
#: Key dtypes' names (NumPy's ``dtype.name`` is Python code: 1.4 us of an easy solve's 21).
_NAMES: dict[Any, str] = {}


class ObjectKernel:
    """Pons' three kernel functions (``solve_root``, ``principal_line``,
    ``best_moves``) with ``_pons``' arguments, run by cached object code."""

    #: No load before the clock: the code is mapped already.
    preloaded = True

    def __init__(self, entries: dict[str, Any], key_dtype: str) -> None:
        self.entries = entries
        self.key_dtype = key_dtype
        #: Not used by a solve yet: the first one's clock starts after the mapping.
        self.fresh = True
        #: The arrays of the last call and their pointers (see :meth:`_pointers`).
        self._last: tuple[tuple[weakref.ref[Any], ...], tuple[int, ...]] | None = None

    def solve_root(self, position: Any, mask: Any, moves: int, weak: bool, *arrays: Any) -> int:
        """``_pons.solve_root``."""
        entry = self.entries["solve_root"]
        pointers = self._pointers(arrays)
        return int(entry(int(position), int(mask), int(moves), bool(weak), *pointers))

    def principal_line(
        self, position: Any, mask: Any, moves: int, score: int, line: Any, *arrays: Any
    ) -> int:
        """``_pons.principal_line``."""
        entry = self.entries["principal_line"]
        pointers = self._pointers(arrays)
        return int(
            entry(int(position), int(mask), int(moves), int(score), *_array(line), *pointers)
        )

    def best_moves(  # noqa: PLR0917
        self,
        position: Any,
        mask: Any,
        moves: int,
        target: int,
        first_only: bool,
        found: Any,
        *arrays: Any,
    ) -> int:
        """``_pons.best_moves``."""
        entry = self.entries["best_moves"]
        arguments = (int(position), int(mask), int(moves), int(target), bool(first_only))
        return int(entry(*arguments, *_array(found), *self._pointers(arrays)))

    def _pointers(self, arrays: tuple[Any, ...]) -> tuple[int, ...]:
        """The kernel's five arrays (keys, values, board, scratch, control) as the
        entries take them: pointer and size each, scratch's rows and columns. The
        last arrays' are kept, with weak references to the arrays (a live array's
        memory stays its own): a table's solves pass the same ones (working them out
        took an easy solve 7 of its 40 us)."""
        last = self._last
        if last is not None:
            for array, ref in zip(arrays, last[0], strict=True):
                if array is not ref():
                    break
            else:
                return last[1]
        keys, values, board, scratch, control = arrays
        if keys.dtype != self.key_dtype:
            raise TypeError(f"this kernel takes {self.key_dtype} keys, not {keys.dtype.name}")
        rows, columns = scratch.shape
        pointers = (
            *_array(keys), *_array(values), *_array(board),
            _array(scratch)[0], rows, columns, *_array(control),
        )  # fmt: skip
        self._last = (tuple(weakref.ref(array) for array in arrays), pointers)
        return pointers


def _array(array: Any) -> tuple[int, int]:
    """A C-contiguous array's data pointer and size."""
    if not array.flags.c_contiguous:
        raise ValueError("the kernel takes C-contiguous arrays")
    return array.ctypes.data, array.size


def kernel_for(keys: Any, values: Any) -> Any:
    """The kernel for a table of these ``keys`` and ``values``: an
    :class:`ObjectKernel` where the cache loads, else ``_pons`` (Numba)."""
    dtype = _NAMES.get(keys.dtype) or _NAMES.setdefault(keys.dtype, str(keys.dtype.name))
    kernel = _KERNELS.get(dtype)
    if kernel is None:
        usable = values.dtype.name == "int8" and keys.flags.writeable
        kernel = (_object_kernel(dtype) if usable else None) or _numba_kernel()
        _KERNELS[dtype] = kernel
    return kernel


def _numba_kernel() -> Any:
    from plies.games.connect4 import _pons

    return _pons


def _object_kernel(dtype: str) -> ObjectKernel | None:
    """The cached kernel for keys of ``dtype``, or None where it does not load."""
    if dtype not in KEY_DTYPES or not native.object_cache_enabled():
        return None
    try:
        return ObjectKernel(native.load_object_entries(cache_path(dtype)), dtype)
    except (native.ObjectLoadError, OSError):
        return None


def cache_path(dtype: str) -> Path:
    """The cache file of the entries for keys of ``dtype``."""
    return native.object_cache_path(f"connect4-pons-{dtype}", _sources())


def _sources() -> list[Path]:
    """The files the compiled kernel is made of (a change to any makes a new key)."""
    here, engine = Path(__file__).parent, Path(native.__file__).parent
    return [
        here / "_pons.py", here / "_probes.py", here / "_centry.py", here / "_dead.py",
        engine / "_table.py", engine / "_bits.py", engine / "_pointers.py",
    ]  # fmt: skip


def remember_compiled(keys: Any) -> None:
    """Have the object cache for keys like ``keys`` written once this process exits
    (by a writer process: see :func:`plies.engine.native.write_object_cache_at_exit`),
    Numba having loaded the kernel here."""
    dtype = str(keys.dtype.name)
    if dtype not in KEY_DTYPES or not native.object_cache_enabled():
        return
    try:
        path = cache_path(dtype)
    except (native.ObjectLoadError, OSError):
        return
    native.write_object_cache_at_exit(path, (__name__, "write_cache", (dtype,)))


def write_cache(dtype: str) -> None:
    """Write the object cache for keys of ``dtype`` here and now (a writer's job),
    unless it is there already or another writer is at it."""
    native.write_missing_object_cache(cache_path(dtype), lambda: _compile(dtype))


def _compile(dtype: str) -> Any:
    from plies.games.connect4._centry import compile_objects

    return compile_objects(dtype)
