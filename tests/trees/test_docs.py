"""The examples in the students' tutorial and the docstrings run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import plies.trees
import plies.trees._compare
import plies.trees._search

TUTORIAL = Path(__file__).parents[2] / "docs" / "students.md"


def test_doctests() -> None:
    for module in (plies.trees, plies.trees._search, plies.trees._compare):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0


def test_tutorial_python_example_for_trees() -> None:
    text = TUTORIAL.read_text()
    section = text[text.index("## 7. From Python") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(block.group(1), namespace)
    result = namespace["result"]
    assert (result.value, result.path) == (3, [0, 0, 1])  # type: ignore[attr-defined]
