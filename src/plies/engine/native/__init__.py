"""Compiled search kernels (Numba), behind ``plies.engine.solve(..., backend=)``.

A game advertises its port with a ``native()`` method. Connect Four's solves by Pascal
Pons' method (:mod:`plies.engine.native._connect4`) where the board fits a 64-bit word;
its rules, and m,n,k's, Nim's, Othello's and checkers', are written in the native game
protocol (:mod:`plies.engine.native._protocol`:
:class:`NativeGame`, :func:`rule`) and get the compiled search and exact solver
(:mod:`plies.engine.native._kernel`). Callers use the engine; this package only
answers which games it ports (:func:`native_port_problem`) and solves them
(:func:`solve_native`). Numba and NumPy
are imported on the first native solve, never by ``import plies``; the compiled code
is cached on disk (``__pycache__``), so only the first run on a machine compiles.
"""

from __future__ import annotations

import functools
from typing import Any

from plies.engine._result import SolveResult
from plies.engine.native._table import DEFAULT_ENTRIES, SEARCH_ENTRIES, NativeTable
from plies.game import BaseGame

__all__ = [
    "DEFAULT_ENTRIES",
    "SEARCH_ENTRIES",
    "NativeGame",
    "NativeTable",
    "Prepared",
    "has_port",
    "int64_array",
    "native_port",
    "native_port_problem",
    "numba_missing",
    "rule",
    "solve_native",
]

BACKENDS = ("python", "native")


@functools.cache
def numba_missing() -> str | None:
    """Why the native backend cannot run here (Numba does not import), or None."""
    try:
        import numba  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install (NumPy version clash)
        return f"numba does not import ({exc})"
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


def solve_native(game: BaseGame[Any, Any], state: Any, **options: Any) -> SolveResult:
    """:func:`plies.engine.solve` by the native kernel (the caller checked the port).

    ``options`` are the keywords of
    :func:`~plies.engine.native._solve.solve_connect4`; this function only defers
    importing Numba and NumPy until a native solve runs.
    """
    return native_port(game).solve(game, state, **options)  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    """The protocol's names (:mod:`._protocol`), imported (with Numba) when asked for."""
    if name in ("NativeGame", "Prepared", "rule", "int64_array"):
        from plies.engine.native import _protocol

        return getattr(_protocol, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
