"""The checks of the engine's public functions' arguments, made before any work.

Every argument of :func:`~plies.engine.search`, :func:`~plies.engine.iterate`,
:func:`~plies.engine.solve` and the other public functions is checked here: a wrong
type raises :class:`~plies.errors.ArgumentTypeError` naming the argument, a value the
engine cannot use a :class:`~plies.errors.SearchError` (a NaN aspiration window used to
widen for ever), and the position must be one of the game's own
(:meth:`~plies.game.BaseGame.check_state`). So a misuse never reaches the search, where
it would end in an AttributeError, a TypeError or a typing error of compiled code.
"""

from __future__ import annotations

import threading
from typing import Any

from plies._arguments import need_bool, need_callable, need_choice, need_int, need_number, shown
from plies.engine._limits import Limits
from plies.engine._table import TranspositionTable
from plies.engine.native import BACKENDS, NativeTable
from plies.errors import ArgumentTypeError, SearchError
from plies.game import BaseGame

__all__ = [
    "check_game",
    "check_limits",
    "check_search",
    "check_solve",
    "check_state",
    "check_table",
]

#: The tasks a backend is chosen for.
TASKS = ("search", "solve")


def check_game(game: object) -> BaseGame[Any, Any]:
    """``game``, which must be a plies game (a :class:`~plies.game.BaseGame`)."""
    if not isinstance(game, BaseGame):
        raise ArgumentTypeError(
            f"game must be a plies game (a plies.game.BaseGame instance), not {shown(game)}"
        )
    return game


def check_state(game: BaseGame[Any, Any], state: object) -> None:
    """Raise unless ``state`` is a position of ``game`` (its ``check_state``)."""
    game.check_state(state)


def check_limits(limits: object) -> Limits:
    """``limits`` (None: no limit), which must be a :class:`Limits`."""
    if limits is None:
        return Limits()
    if not isinstance(limits, Limits):
        raise ArgumentTypeError(
            f"limits must be a plies.engine.Limits (or None), not {shown(limits)}"
        )
    return limits


def check_table(table: object, name: str = "table") -> None:
    """``table`` must be None, a :class:`TranspositionTable` or a :class:`NativeTable`."""
    if table is not None and not isinstance(table, TranspositionTable | NativeTable):
        raise ArgumentTypeError(
            f"{name} must be a TranspositionTable, a NativeTable or None, not {shown(table)}"
        )


def check_backend(backend: object) -> None:
    """``backend`` must be None or one of :data:`BACKENDS`."""
    if backend is not None:
        need_choice(backend, "backend", BACKENDS, error=SearchError)


def check_hooks(stop: object, progress: object) -> None:
    """``stop`` must be None, a :class:`threading.Event` or a callable; ``progress``
    None or a callable."""
    if stop is not None and not isinstance(stop, threading.Event) and not callable(stop):
        raise ArgumentTypeError(
            f"stop must be a threading.Event, a callable or None, not {shown(stop)}"
        )
    if progress is not None:
        need_callable(progress, "progress")


def check_search(
    game: object,
    state: object,
    *,
    limits: object,
    algorithm: object,
    algorithms: tuple[str, ...],
    chance: object,
    chance_modes: tuple[str, ...],
    table: object,
    use_table: object,
    ordering: object,
    seed: object,
    aspiration: object,
    stop: object,
    progress: object,
    backend: object,
) -> Limits:
    """Check the arguments of :func:`~plies.engine.search` (and ``iterate``); return
    the limits (a :class:`Limits` for None)."""
    check_game(game)
    need_choice(algorithm, "algorithm", algorithms, error=SearchError)
    need_choice(chance, "chance method", chance_modes, error=SearchError)
    checked = check_limits(limits)
    check_table(table)
    need_bool(use_table, "use_table")
    need_bool(ordering, "ordering")
    if seed is not None:
        need_int(seed, "seed")
    if aspiration is not None:
        # NaN never fits a window and inf never narrows one: the window widened for
        # ever (engine.search(..., aspiration=math.nan) never returned).
        need_number(aspiration, "aspiration", minimum=0, error=SearchError)
    check_hooks(stop, progress)
    check_backend(backend)
    check_state(game, state)  # type: ignore[arg-type]  # a BaseGame, checked above
    return checked


def check_solve(
    game: object,
    state: object,
    *,
    table: object,
    limits: object,
    stop: object,
    ordering: object,
    progress: object,
    weak: object,
    moves: object,
    solve_moves: tuple[str, ...],
    backend: object,
) -> Limits:
    """Check the arguments of :func:`~plies.engine.solve`; return the limits."""
    check_game(game)
    check_table(table)
    checked = check_limits(limits)
    check_hooks(stop, progress)
    need_bool(ordering, "ordering")
    need_bool(weak, "weak")
    need_choice(moves, "moves option", solve_moves, error=SearchError)
    check_backend(backend)
    check_state(game, state)  # type: ignore[arg-type]  # a BaseGame, checked above
    return checked


def check_task(task: object) -> str:
    """``task``, ``"search"`` or ``"solve"``."""
    return need_choice(task, "task", TASKS, error=SearchError)
