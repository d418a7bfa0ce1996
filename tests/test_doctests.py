"""Every docstring example in ``src/plies`` runs, and shows what it says.

Each module with a ``>>>`` line is collected here (a new one is picked up by itself) and
its examples run with :mod:`doctest`, as ``python -m doctest`` would but importing the
module as the package does. An example that cannot run here says ``# doctest: +SKIP``
and why in the prose around it. Every ``>>>`` line of a module must belong to an example
doctest finds: one in a comment or a string that is not a docstring would never run.
"""

from __future__ import annotations

import doctest
import importlib
import io
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"

#: A line that starts an example.
PROMPT = re.compile(r"^\s*>>>", re.M)


def modules_with_examples() -> list[str]:
    """The dotted names of the modules of src/plies with a ``>>>`` line."""
    names = []
    for path in sorted((SOURCE / "plies").rglob("*.py")):
        if PROMPT.search(path.read_text(encoding="utf-8")):
            parts = list(path.relative_to(SOURCE).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def source_of(name: str) -> Path:
    """The file of module ``name`` under src/."""
    path = SOURCE.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_run(name: str) -> None:
    """The module's examples print what their docstrings say they print."""
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module, name)
    found = sum(len(test.examples) for test in tests)
    written = len(PROMPT.findall(source_of(name).read_text(encoding="utf-8")))
    assert found == written, f"{name}: {written} '>>>' lines, {found} in docstrings doctest finds"
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def test_there_are_examples() -> None:
    """The collection finds the package's examples (it would pass vacuously if not)."""
    assert {"plies.trees", "plies.draw", "plies.engine"} <= set(modules_with_examples())
