"""Compiled search kernels (Numba), behind ``plies.engine.solve(..., backend=)``.

Ported so far: Connect Four on boards whose ``(height + 1) * width`` bits fit a 64-bit
word, solved by Pascal Pons' method (:mod:`plies.engine.native._connect4`). Callers
use the engine; this package only answers which games it ports
(:func:`native_port_problem`) and solves them (:func:`solve_native`). Numba and NumPy
are imported on the first native solve, never by ``import plies``; the compiled code
is cached on disk (``__pycache__``), so only the first run on a machine compiles.
"""

from __future__ import annotations

import functools
from typing import Any

from plies.engine._result import SolveResult
from plies.engine.native._table import DEFAULT_ENTRIES, NativeTable
from plies.game import BaseGame

__all__ = ["DEFAULT_ENTRIES", "NativeTable", "native_port_problem", "numba_missing", "solve_native"]

BACKENDS = ("python", "native")


@functools.cache
def numba_missing() -> str | None:
    """Why the native backend cannot run here (Numba does not import), or None."""
    try:
        import numba  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install (NumPy version clash)
        return f"numba does not import ({exc})"
    return None


def native_port_problem(game: BaseGame[Any, Any]) -> str | None:
    """Why ``game`` has no native port (a sentence naming it), or None if it has one."""
    from plies.games.connect4 import Connect4

    if type(game) is not Connect4:
        return f"{game.name} has no native port yet (only connect4 has)"
    if (game.height + 1) * game.width > 64:
        return (
            f"connect4 {game.width} x {game.height} has no native port: "
            "(height + 1) * width must be at most 64"
        )
    return None


def solve_native(game: BaseGame[Any, Any], state: Any, **options: Any) -> SolveResult:
    """:func:`plies.engine.solve` by the native kernel (the caller checked the port).

    ``options`` are the keywords of
    :func:`~plies.engine.native._solve.solve_connect4`; this function only defers
    importing Numba and NumPy until a native solve runs.
    """
    from plies.engine.native._solve import solve_connect4

    return solve_connect4(game, state, **options)  # type: ignore[arg-type]  # it is Connect4
