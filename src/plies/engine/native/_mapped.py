"""The generic kernel and the ports' rules from plies' object cache, without Numba.

A fresh process searching Othello or m,n,k natively paid 0.4 s and 95 MB of Numba
and LLVM before a search of 5-30 ms. As for Connect Four's solver
(``games/connect4/_objects``), once Numba has loaded or compiled the code on a
machine, a writer process started as it exits writes (:func:`._objload.write_at_exit`):

* the kernel's C-ABI entries (:mod:`._kentry`: ``negamax``, ``principal_variation``,
  ``exact``, ``line``, ``best_moves``, each taking its arrays as pointers and shapes),
  one cache for every game, named by the kernel's sources (:func:`kernel_cache_path`);
* each module's rules (``rule``-decorated functions, compiled again as plain
  cfuncs, the helpers they call inlined or linked in), one cache per module, named
  by its source and the plies modules it imports (:func:`rule_cache_path`).

A later process maps them (:func:`._objload.load_entries`): :class:`MappedKernel`
runs the kernel functions through ctypes with the arguments ``_kernel``'s take, and a
rule's address is its mapped symbol's. Anything that keeps a cache from loading (none
written yet, another CPU, changed sources or versions, a damaged file,
``PLIES_OBJECT_CACHE=0``) leaves that part to Numba, as before.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from plies.engine.native import _objload
from plies.engine.native._objload import CEntry, ObjectLoadError

__all__ = [
    "ENTRY_ARGUMENTS",
    "ENTRY_RESULTS",
    "MappedKernel",
    "entry_signature",
    "imported_sources",
    "kernel_cache_path",
    "mapped_kernel",
    "mapped_rules",
    "rule_cache_path",
]

_TABLE = ("table",)
#: The kinds of each kernel entry's arguments, in ``_kernel``'s order: ``q`` an int64,
#: ``d`` a float64, ``?`` a bool, ``array`` an int64 array (pointer, size), ``rows`` a
#: 2-D one (pointer, rows, columns), ``table`` the table's five arrays (pointer and size
#: each).
ENTRY_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "negamax": (
        "array", "array", "q", "q", "d", "d", "rows", "rows", "array", "rows", *_TABLE, "array",
    ),
    "principal_variation": ("array", "array", "q", "q", "rows", "rows", *_TABLE, "array"),
    "exact": ("array", "array", "q", "d", "d", "rows", "rows", *_TABLE, "array"),
    "line": ("array", "array", "d", "array", "rows", "rows", *_TABLE, "array"),
    "best_moves": (
        "array", "array", "q", "d", "?", "array", "rows", "rows", *_TABLE, "array",
    ),
}  # fmt: skip
#: Each entry's result: ``d`` a float64, ``q`` an int64.
ENTRY_RESULTS = {
    "negamax": "d",
    "principal_variation": "q",
    "exact": "d",
    "line": "q",
    "best_moves": "q",
}
_LETTERS = {"q": "q", "d": "d", "?": "?", "array": "Pq", "rows": "Pqq", "table": "Pq" * 5}


def entry_signature(name: str) -> str:
    """The ``struct`` letters of the entry of the kernel function ``name``."""
    return ENTRY_RESULTS[name] + "".join(_LETTERS[kind] for kind in ENTRY_ARGUMENTS[name])


def _arguments(kinds: tuple[str, ...], values: tuple[Any, ...]) -> list[Any]:
    """``values`` as an entry takes them (see :data:`ENTRY_ARGUMENTS`)."""
    flat: list[Any] = []
    for kind, value in zip(kinds, values, strict=True):
        if kind == "q":
            flat.append(int(value))
        elif kind == "d":
            flat.append(float(value))
        elif kind == "?":
            flat.append(bool(value))
        elif kind == "table":
            for array in value:
                flat.extend((_data(array), array.size))
        elif kind == "rows":
            flat.extend((_data(value), *value.shape))
        else:
            flat.extend((_data(value), value.size))
    return flat


def _data(array: Any) -> int:
    """A C-contiguous array's data pointer."""
    if not array.flags.c_contiguous:
        raise ValueError("the kernel takes C-contiguous arrays")
    return int(array.ctypes.data)


class MappedKernel:
    """``_kernel``'s ``negamax``, ``principal_variation``, ``exact``, ``line`` and
    ``best_moves`` with its arguments, run by cached object code (through ctypes,
    which releases the GIL: the runner's worker threads run them as Numba's)."""

    def __init__(self, entries: dict[str, Any]) -> None:
        missing = set(ENTRY_ARGUMENTS) - set(entries)
        if missing:
            raise ObjectLoadError(f"the kernel's cache lacks {', '.join(sorted(missing))}")
        self.entries = entries

    def _call(self, name: str, values: tuple[Any, ...]) -> Any:
        return self.entries[name](*_arguments(ENTRY_ARGUMENTS[name], values))

    def negamax(self, *values: Any) -> float:
        """``_kernel.negamax``."""
        return float(self._call("negamax", values))

    def principal_variation(self, *values: Any) -> int:
        """``_kernel.principal_variation``."""
        return int(self._call("principal_variation", values))

    def exact(self, *values: Any) -> float:
        """``_kernel.exact``."""
        return float(self._call("exact", values))

    def line(self, *values: Any) -> int:
        """``_kernel.line``."""
        return int(self._call("line", values))

    def best_moves(self, *values: Any) -> int:
        """``_kernel.best_moves``."""
        return int(self._call("best_moves", values))


#: This process's mapped kernel once looked for: the kernel, or None (Numba's).
_KERNEL: list[MappedKernel | None] = []


def mapped_kernel() -> MappedKernel | None:
    """The kernel mapped from the object cache, or None where it does not load (then
    the caller uses ``_kernel`` and :func:`remember_kernel`); looked for once."""
    if not _KERNEL:
        _KERNEL.append(_load_kernel())
    return _KERNEL[0]


def _load_kernel() -> MappedKernel | None:
    if not _objload.cache_enabled():
        return None
    try:
        return MappedKernel(_objload.load_entries(kernel_cache_path()))
    except (ObjectLoadError, OSError, ValueError):
        return None


def kernel_cache_path() -> Path:
    """The cache file of the kernel's entries."""
    return _objload.cache_path("native-kernel", _kernel_sources())


def _kernel_sources() -> list[Path]:
    """The files the kernel's entries are made of (a change to any makes a new key)."""
    here = Path(__file__).parent
    names = ("_kernel", "_kentry", "_control", "_mapped", "_pointers", "_protocol")
    return [here / f"{name}.py" for name in names]


def remember_kernel() -> None:
    """Have the kernel's cache written at this process's exit (Numba loaded it here)."""
    try:
        path = kernel_cache_path()
    except (ObjectLoadError, OSError):
        return
    _objload.write_at_exit(path, (__name__, "write_kernel_cache", ()))


def write_kernel_cache() -> None:
    """Write the kernel's cache here and now (a writer process's job)."""
    _objload.write_missing(kernel_cache_path(), _compile_kernel)


def _compile_kernel() -> tuple[list[bytes], dict[str, tuple[int, CEntry]]]:
    from plies.engine.native._kentry import compile_objects

    return compile_objects()


#: Each module's mapped rules once looked for: name -> ctypes function, or None.
_RULES: dict[str, dict[str, Any] | None] = {}


def mapped_rules(module: str) -> dict[str, Any] | None:
    """The rules of ``module`` mapped from the object cache (by the functions'
    qualified names), or None where its cache does not load; looked for once."""
    if module not in _RULES:
        _RULES[module] = _load_rules(module)
    return _RULES[module]


def _load_rules(module: str) -> dict[str, Any] | None:
    if not _objload.cache_enabled():
        return None
    try:
        return _objload.load_entries(rule_cache_path(module))
    except (ObjectLoadError, OSError, KeyError, AttributeError):
        return None


def rule_cache_path(module: str) -> Path:
    """The cache file of the rules defined in ``module`` (imported)."""
    return _objload.cache_path("rules-" + module.replace(".", "-"), rule_sources(module))


#: ``from plies.x.y import ...`` and ``import plies.x.y`` lines of a module's source.
_IMPORT = re.compile(r"^(?:from|import)\s+(plies(?:\.\w+)*)", re.MULTILINE)


def rule_sources(module: str) -> list[Path]:
    """The files rules compiled from ``module`` depend on: its source, the plies
    modules it imports at its top (whose constants and helpers it may compile in) and
    the protocol's (the signatures, the pointer and bit intrinsics, the kernel's rule
    calls). One level: a constant that reaches the port through two modules is not
    followed (nor by Numba's cache: see ``_startup``), so a port takes its
    compiled-in constants from its game's modules directly."""
    source = Path(sys.modules[module].__file__ or "")
    here = Path(__file__).parent
    paths = [source, *imported_sources(source)]
    protocol = ("_protocol", "_pointers", "_bits", "_kernel", "_control")
    paths.extend(here / f"{name}.py" for name in protocol if here / f"{name}.py" not in paths)
    return paths


def imported_sources(source: Path) -> list[Path]:
    """The files of the plies modules ``source`` imports at its top (one level), in
    the order of their names, ``source`` itself left out."""
    paths: list[Path] = []
    for name in sorted(set(_IMPORT.findall(source.read_text()))):
        path = _module_file(name)
        if path is not None and path != source and path not in paths:
            paths.append(path)
    return paths


def _module_file(name: str) -> Path | None:
    """The source file of the plies module ``name`` (a package's ``__init__.py``),
    found without importing it, or None."""
    root = Path(__file__).parents[3]  # the folder holding ``plies``
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def remember_rules(module: str) -> None:
    """Have the rules' cache of ``module`` written at this process's exit (Numba
    compiled or loaded a rule of it here)."""
    try:
        path = rule_cache_path(module)
    except (ObjectLoadError, OSError, KeyError, AttributeError):
        return
    _objload.write_at_exit(path, (__name__, "write_rule_cache", (module,)))


def write_rule_cache(module: str) -> None:
    """Write the rules' cache of ``module`` (imported here) now (a writer's job)."""
    import importlib

    importlib.import_module(module)
    _objload.write_missing(rule_cache_path(module), lambda: _compile_rules(module))


def _compile_rules(module: str) -> tuple[list[bytes], dict[str, tuple[int, CEntry]]]:
    from plies.engine.native._protocol import compile_rules

    return compile_rules(module)
