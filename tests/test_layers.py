"""No private module or name is imported across packages.

import-linter (``lint-imports``, contracts in pyproject.toml) checks the floors; it has
no contract for private names, so this test reads every module of ``src/plies`` and
fails on an import, from another package, of a ``_module`` or a ``_name``. A package
here is ``plies.X``, except that ``plies.engine.native`` and each game's home
``plies.games.<name>`` are packages of their own. ``plies._arguments`` and
``plies._forkserver`` are the shared helpers every package may use.

To share something across packages, make it public (a public module, or a name in the
package's ``__init__``/``__all__``); :data:`ALLOWED` lists exceptions (none).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"

#: Private modules of the top package that every package may import.
SHARED_HELPERS = frozenset({"plies._arguments", "plies._forkserver"})

#: Packages below the top one that count as packages of their own.
SUBPACKAGES = frozenset({"plies.engine.native"})

#: Private imports across packages allowed, written ``importer -> module.name``: none
#: (issue 25 made public what packages share). A new one fails the test.
ALLOWED: frozenset[str] = frozenset()


def package_of(module: str) -> str:
    """The package ``module`` (dotted, under plies) belongs to."""
    parts = module.split(".")
    if ".".join(parts[:3]) in SUBPACKAGES:
        return ".".join(parts[:3])
    if len(parts) >= 3 and parts[1] == "games" and _is_game_home(parts[2]):
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _is_game_home(name: str) -> bool:
    """Whether ``plies.games.<name>`` is a game's home (a public package folder)."""
    return not name.startswith("_") and (SOURCE / "plies" / "games" / name).is_dir()


def is_private(target: str, package: str) -> bool:
    """Whether ``target`` (a dotted module or ``module.name``) goes through a private
    part below ``package``, the package it belongs to."""
    below = target[len(package) :].split(".")[1:]
    return any(part.startswith("_") and not part.startswith("__") for part in below)


def module_name(path: Path) -> str:
    """The dotted module name of a file under :data:`SOURCE`."""
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_targets(path: Path) -> Iterator[str]:
    """Every plies module or ``module.name`` the file at ``path`` imports (anywhere in
    it, function bodies and ``TYPE_CHECKING`` blocks included)."""
    module = module_name(path)
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node)
            yield from (f"{source}.{alias.name}" for alias in node.names if alias.name != "*")


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    keep = len(base) - node.level + (1 if is_package else 0)
    return ".".join(base[:keep] + ([node.module] if node.module else []))


def private_imports() -> list[str]:
    """Every private import across packages in src/plies, as ``importer -> target``."""
    found = []
    for path in sorted((SOURCE / "plies").rglob("*.py")):
        importer = module_name(path)
        for target in imported_targets(path):
            if not target.startswith("plies.") or _is_shared_helper(target):
                continue
            package = package_of(target)
            if package != package_of(importer) and is_private(target, package):
                found.append(f"{importer} -> {target}")
    return found


def _is_shared_helper(target: str) -> bool:
    """Whether ``target`` is, or is in, one of :data:`SHARED_HELPERS`."""
    return any(target == helper or target.startswith(helper + ".") for helper in SHARED_HELPERS)


def test_no_new_private_import_across_packages() -> None:
    """Every private import across packages is one of :data:`ALLOWED`."""
    found = private_imports()
    new = sorted(set(found) - ALLOWED)
    assert not new, (
        "private modules or names imported across packages (make them public instead):\n"
        + "\n".join(new)
    )
    gone = sorted(ALLOWED - set(found))
    if gone:
        shown = ", ".join(gone[:3]) + (f" and {len(gone) - 3} more" if len(gone) > 3 else "")
        warnings.warn(
            f"tests/test_layers.py: {len(gone)} imports of ALLOWED are gone (remove them): {shown}",
            stacklevel=1,
        )


def test_the_check_sees_private_imports() -> None:
    """The rules on known cases: across packages, within one, helpers, game homes."""
    assert package_of("plies.engine.native._kernel") == "plies.engine.native"
    assert package_of("plies.engine._exact") == "plies.engine"
    assert package_of("plies.games._text") == "plies.games"
    assert is_private("plies.engine._exact.narrow", "plies.engine")
    assert is_private("plies.engine.native._private_name", "plies.engine.native")
    assert not is_private("plies.engine.native.NativeGame", "plies.engine.native")
    assert not is_private("plies.engine.__version__", "plies.engine")
    assert _is_shared_helper("plies._arguments.need_int")
    assert not _is_shared_helper("plies._argumentsx")


def test_a_relative_import_is_read_from_its_own_module() -> None:
    """``from ._x import y`` in a package's ``__init__`` reads the package's ``_x``."""
    node = ast.parse("from ._x import y").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _absolute("plies.draw", True, node) == "plies.draw._x"
    assert _absolute("plies.draw._svg", False, node) == "plies.draw._x"
