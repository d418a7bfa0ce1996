"""Compiled search kernels (Numba) and the native game protocol, behind
``plies.engine.solve(..., backend=)`` and ``plies.engine.search``.

A game advertises its port with a ``native()`` method; the engine finds ports only
that way (:func:`native_port`, :func:`has_port`, :func:`native_port_problem`), so this
package imports no game. Each port lives in its game's home (``games/<name>``)
and builds on the public names below:

* the protocol: :class:`NativeGame` (the adapter of a Python game), :class:`Prepared`,
  :func:`rule` (compile a rule), :func:`int64_array`; a port written in it gets the
  generic compiled search (PVS, iterative deepening, table) and exact solver;
* bit tricks for compiled rules: :data:`popcount`, :data:`trailing_zeros`, :func:`ptr`
  (an array's data pointer, as the rules receive them), :func:`prefetch` (start
  loading an array's item into the caches), :func:`call_legal_moves` and
  :func:`call_play` (the rules called through their addresses, from compiled code),
  :func:`play_move` and :func:`describe_state` (from Python, for the conformance suite);
* what a port with its own kernel needs (Connect Four's Pons solver):
  :class:`NativeTable` and the indices of its ``control`` row (:data:`NODES`,
  :data:`NODE_LIMIT`, :data:`STOP`, :data:`JOURNAL_LENGTH`, :data:`JOURNAL`),
  :class:`Runner` (kernel calls under limits and stop requests), :func:`load` (load
  kernel functions before the clock starts), :class:`KernelStopped`, :func:`compiled`;
* MCTS's playouts in the kernel (:class:`NativePlayouts`, for :func:`plies.engine.mcts`);
* plies' object cache of C-ABI entries, mapped without Numba or LLVM
  (:func:`load_object_entries`, :func:`write_object_cache`, :func:`object_cache_path`,
  :func:`write_object_cache_at_exit` (by a detached writer process),
  :func:`write_missing_object_cache`, :class:`CEntry`; see ``_objload``): Connect
  Four's solve uses it.

Numba and NumPy are imported when a name that needs them is first asked for (the
protocol's, the runner's), never by ``import plies``; the compiled code is cached on
disk (``__pycache__``), so only the first run on a machine compiles.
:func:`skip_blas_probe` shortens Numba's start-up in plies' own processes.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

from plies.engine.native._startup import follow_imports, skip_blas_probe
from plies.engine.native._table import (
    DEFAULT_ENTRIES,
    JOURNAL,
    JOURNAL_LENGTH,
    KEY_SPARE_BITS,
    NODE_LIMIT,
    NODES,
    SEARCH_ENTRIES,
    STOP,
    NativeTable,
)
from plies.game import BaseGame

follow_imports()  # Numba's cache stamps of plies' files cover their imports (_startup)

if TYPE_CHECKING:
    from plies.engine.native._bits import popcount, trailing_zeros
    from plies.engine.native._kernel import describe as describe_state
    from plies.engine.native._kernel import legal_moves as call_legal_moves
    from plies.engine.native._kernel import play as call_play
    from plies.engine.native._kernel import play_move
    from plies.engine.native._multi_kernel import search_depth as multi_search_depth
    from plies.engine.native._objload import CEntry, ObjectCacheMissing, ObjectLoadError
    from plies.engine.native._objload import cache_enabled as object_cache_enabled
    from plies.engine.native._objload import cache_path as object_cache_path
    from plies.engine.native._objload import load_entries as load_object_entries
    from plies.engine.native._objload import read_cache as read_object_cache
    from plies.engine.native._objload import write_at_exit as write_object_cache_at_exit
    from plies.engine.native._objload import write_cache as write_object_cache
    from plies.engine.native._objload import write_missing as write_missing_object_cache
    from plies.engine.native._playout import NativePlayouts
    from plies.engine.native._pointers import prefetch, ptr
    from plies.engine.native._protocol import (
        NativeGame,
        Prepared,
        deferred,
        helper,
        int64_array,
        rule,
    )
    from plies.engine.native._runner import KernelStopped, Runner, compiled, load

__all__ = [
    "DEFAULT_ENTRIES",
    "JOURNAL",
    "JOURNAL_LENGTH",
    "KEY_SPARE_BITS",
    "NODES",
    "NODE_LIMIT",
    "SEARCH_ENTRIES",
    "STOP",
    "CEntry",
    "KernelStopped",
    "NativeGame",
    "NativePlayouts",
    "NativeTable",
    "ObjectCacheMissing",
    "ObjectLoadError",
    "Prepared",
    "Runner",
    "call_legal_moves",
    "call_play",
    "compiled",
    "deferred",
    "describe_state",
    "has_port",
    "helper",
    "int64_array",
    "load",
    "load_object_entries",
    "multi_search_depth",
    "native_port",
    "native_port_problem",
    "numba_missing",
    "object_cache_enabled",
    "object_cache_path",
    "play_move",
    "popcount",
    "prefetch",
    "ptr",
    "read_object_cache",
    "rule",
    "skip_blas_probe",
    "trailing_zeros",
    "write_missing_object_cache",
    "write_object_cache",
    "write_object_cache_at_exit",
]

BACKENDS = ("python", "native")


@functools.cache
def numba_missing() -> str | None:
    """Why the native backend cannot run here (Numba does not import), or None.
    Known without importing Numba (0.3 s and 93 MB, which plies' object cache spares a
    solve) when it imported in an earlier process with the same versions."""
    from plies.engine.native import _objload

    if _objload.numba_imported_here():
        return None
    try:
        import numba  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install (NumPy version clash)
        return f"numba does not import ({exc})"
    _objload.remember_numba_imports()
    return None


def has_port(game: BaseGame[Any, Any]) -> bool:
    """Whether ``game`` has a native port (see :func:`native_port`), known without
    making it: making a port imports its compiled code, and Numba with it."""
    return "native" in vars(type(game))


def native_port(game: BaseGame[Any, Any]) -> Any:
    """The native port ``game`` advertises (its ``native()``), or None.

    Only a class that defines ``native()`` itself has the port: a subclass of a ported
    game may change rules or hooks the compiled port does not know (a tic-tac-toe that
    asks for an ``extension``, say), so it is searched by the Python engine unless it
    says otherwise by defining ``native()`` again.
    """
    if not has_port(game):
        return None
    last = _LAST_PORT[0]
    if last is not None and last[0] is game:
        return last[1]
    port = game.native()  # type: ignore[attr-defined]  # a ported game's own method
    _LAST_PORT[0] = (game, port)  # one store: threads see a whole pair
    return port


#: The last game asked for and its port: a solve asks twice, and a port cost 2 us
#: to make (a tenth of an easy Connect Four position's solve). One entry, so at most
#: one game is kept alive by it; not on the game, which Dask may pickle.
_LAST_PORT: list[tuple[Any, Any] | None] = [None]


def native_port_problem(
    game: BaseGame[Any, Any], state: Any = None, task: str = "solve"
) -> str | None:
    """Why ``game`` (at ``state``, if given) has no native port for ``task``
    (``"solve"`` or ``"search"``): a sentence naming it, or None if it has one."""
    port = native_port(game)
    if port is None:
        return f"{game.name} has no native port"
    if task not in port.tasks:
        return f"{game.name}'s native port does not {task}"
    return port.problem(state)  # type: ignore[no-any-return]


#: The names that import Numba, and where they live: ``name: (module, its name there)``.
_LAZY = {
    "NativeGame": ("_protocol", "NativeGame"),
    "Prepared": ("_protocol", "Prepared"),
    "rule": ("_protocol", "rule"),
    "helper": ("_protocol", "helper"),
    "deferred": ("_protocol", "deferred"),
    "int64_array": ("_protocol", "int64_array"),
    "popcount": ("_bits", "popcount"),
    "trailing_zeros": ("_bits", "trailing_zeros"),
    "ptr": ("_pointers", "ptr"),
    "prefetch": ("_pointers", "prefetch"),
    "call_legal_moves": ("_kernel", "legal_moves"),
    "call_play": ("_kernel", "play"),
    "play_move": ("_kernel", "play_move"),
    "describe_state": ("_kernel", "describe"),
    "KernelStopped": ("_runner", "KernelStopped"),
    "Runner": ("_runner", "Runner"),
    "compiled": ("_runner", "compiled"),
    "load": ("_runner", "load"),
    "NativePlayouts": ("_playout", "NativePlayouts"),
    "multi_search_depth": ("_multi_kernel", "search_depth"),
    # plies' object cache (no Numba: see _objload)
    "CEntry": ("_objload", "CEntry"),
    "ObjectCacheMissing": ("_objload", "ObjectCacheMissing"),
    "ObjectLoadError": ("_objload", "ObjectLoadError"),
    "read_object_cache": ("_objload", "read_cache"),
    "object_cache_enabled": ("_objload", "cache_enabled"),
    "object_cache_path": ("_objload", "cache_path"),
    "load_object_entries": ("_objload", "load_entries"),
    "write_object_cache": ("_objload", "write_cache"),
    "write_object_cache_at_exit": ("_objload", "write_at_exit"),
    "write_missing_object_cache": ("_objload", "write_missing"),
}


def __getattr__(name: str) -> Any:
    """The names that need Numba (see :data:`_LAZY`), imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value  # asked once
    return value
