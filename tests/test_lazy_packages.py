"""The packages whose names load on first use (PEP 562): plies.engine, plies.lab and
plies.trees.

Importing one loads none of its modules (a command pays only for what it uses); every
name of its ``__all__`` is there when asked for; and each is the very object its
``if TYPE_CHECKING:`` import names, so that what mypy checks is what runs.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ("plies.engine", "plies.lab", "plies.trees")


def type_checking_imports(package: str) -> dict[str, tuple[str, str]]:
    """The names the package's ``if TYPE_CHECKING:`` block imports: ``name: (module,
    its name there)``."""
    path = Path(importlib.import_module(package).__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    blocks = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    assert len(blocks) == 1, f"{package}: one TYPE_CHECKING block expected"
    names: dict[str, tuple[str, str]] = {}
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names:
            names[alias.asname or alias.name] = (node.module, alias.name)
    return names


def test_importing_the_packages_loads_none_of_their_modules() -> None:
    code = (
        "import json, sys\n"
        f"for name in {PACKAGES!r}:\n"
        "    __import__(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('plies.'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(done.stdout)
    assert [m for m in loaded if m.startswith(tuple(f"{p}." for p in PACKAGES))] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_the_one_mypy_sees(package: str) -> None:
    module = importlib.import_module(package)
    declared = type_checking_imports(package)
    assert sorted(declared) == sorted(module.__all__)
    for name, (home, original) in declared.items():
        expected = getattr(importlib.import_module(home), original)
        assert getattr(module, name) is expected, f"{package}.{name}"
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_an_attribute_error(package: str) -> None:
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(module, "no_such_name")  # noqa: B009  # the name is the point
    with pytest.raises(ImportError):
        exec(f"from {package} import no_such_name")
