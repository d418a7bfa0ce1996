"""The engine is game-blind: it imports no game, and games reach it by public names.

Every game lives in its home ``plies.games.<name>`` with its native port; the engine
finds a port only through the game's ``native()``. These tests hold that in place:
importing every engine module loads no game, no engine source names a game module,
ports and engine.native use only public names across packages, and the constants
written twice (compiled code cannot read Python's at run time) agree.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

import pytest

import plies

SRC = pathlib.Path(plies.__file__).parent
ENGINE = SRC / "engine"
GAMES = SRC / "games"


def _module_of(path: pathlib.Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path) -> list[tuple[str, str]]:
    """``(module, name)`` of every ``from X import name`` and ``(module, "")`` of every
    ``import X`` in the file, function-level imports included."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return found


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def test_importing_every_engine_module_imports_no_game() -> None:
    pytest.importorskip("numba")
    modules = sorted(_module_of(path) for path in ENGINE.rglob("*.py"))
    code = textwrap.dedent(
        f"""
        import importlib, sys
        for name in {modules!r}:
            importlib.import_module(name)
        games = sorted(m for m in sys.modules if m == "plies.games" or m.startswith("plies.games."))
        print(" ".join(games))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(modules) > 20  # the walk found the engine (and its native package)
    assert done.stdout.strip() == "", f"engine modules imported games: {done.stdout}"


def test_no_engine_source_imports_a_game() -> None:
    offenders = [
        f"{_module_of(path)}: {module}"
        for path in ENGINE.rglob("*.py")
        for module, _ in _imports(path)
        if module == "plies.games" or module.startswith("plies.games.")
    ]
    assert offenders == []


def test_engine_native_uses_only_public_engine_names() -> None:
    offenders = [
        f"{_module_of(path)}: from {module} import {name}"
        for path in (ENGINE / "native").rglob("*.py")
        for module, name in _imports(path)
        if module.startswith("plies.engine")
        and not module.startswith("plies.engine.native")
        and (_is_private(module) or name.startswith("_"))
    ]
    assert offenders == []


def test_games_use_only_public_engine_and_native_names() -> None:
    offenders = [
        f"{_module_of(path)}: from {module} import {name}"
        for path in GAMES.rglob("*.py")
        for module, name in _imports(path)
        if module.startswith("plies.engine") and (_is_private(module) or name.startswith("_"))
    ]
    assert offenders == []


def test_every_game_has_its_home() -> None:
    homes = {path.name for path in GAMES.iterdir() if (path / "__init__.py").is_file()}
    assert homes >= {"checkers", "chess", "connect4", "mnk", "nim", "openspiel", "othello", "pig"}
    loose = sorted(p.name for p in GAMES.glob("*.py") if p.name not in ("__init__.py", "text.py"))
    assert loose == []  # no game module outside a home


def test_native_exports_every_name_it_lists() -> None:
    pytest.importorskip("numba")
    from plies.engine import native

    missing = [name for name in native.__all__ if getattr(native, name, None) is None]
    assert missing == []


# -- constants written twice -------------------------------------------------------
# Numba freezes a module's globals into the compiled code and keys its disk cache by
# the module's own file, so the kernels keep their own copies; these pin them.


def test_the_kernels_win_scale_is_the_engines() -> None:
    pytest.importorskip("numba")
    from plies.engine import WIN, WIN_THRESHOLD
    from plies.engine.native import _kernel
    from plies.game import WIN as GAME_WIN

    assert _kernel.WIN == WIN == GAME_WIN
    assert _kernel.WIN_THRESHOLD == WIN_THRESHOLD


def test_the_kernels_long_move_list_is_the_engines() -> None:
    pytest.importorskip("numba")
    from plies.engine import _negamax
    from plies.engine.native import _kernel

    assert _kernel.LONG_MOVE_LIST == _negamax.LONG_MOVE_LIST


def test_the_kernels_control_indices_are_the_tables() -> None:
    pytest.importorskip("numba")
    from plies.engine import native
    from plies.engine.native import _kernel

    assert (_kernel.NODES, _kernel.NODE_LIMIT, _kernel.STOP) == (
        native.NODES,
        native.NODE_LIMIT,
        native.STOP,
    )


def test_pons_kernel_threshold_is_the_engines() -> None:
    pytest.importorskip("numba")
    from plies.engine.solver import pons_threshold
    from plies.games.connect4 import _pons

    for low in range(-25, 26):
        for high in range(low, 26):
            assert _pons.threshold.py_func(low, high) == pons_threshold(low, high), (low, high)
    for value in range(-41, 42):
        assert _pons.c_half.py_func(value) == int(value / 2)  # C's division: towards 0


def test_pons_kernel_root_threshold_is_the_cluster_ones() -> None:
    """The serial kernel's root and the cluster's split solve ask the same questions."""
    pytest.importorskip("numba")
    from plies.games.connect4 import _pons
    from plies.games.connect4._probes import root_threshold

    for low in range(-25, 26):
        for high in range(low + 1, 26):
            med = root_threshold(low, high)
            assert low <= med < high, (low, high)
            assert _pons.root_threshold.py_func(low, high) == med, (low, high)
    # Pons' threshold while wide, then whether it wins, then next to the last bound
    assert [root_threshold(*r) for r in ((-9, 10), (-6, 7), (1, 7), (-6, -1))] == [
        -4, 0, 1, -2,
    ]  # fmt: skip
