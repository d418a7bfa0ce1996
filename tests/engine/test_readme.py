"""The README's game-engine example runs and prints what the README says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def engine_section() -> str:
    text = README.read_text()
    start = text.index("\n## Game engine")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_readme_game_is_complete_short_and_prints_what_it_says() -> None:
    section = engine_section()
    code = re.search(r"```python\n(.*?)```", section, re.S)
    expected = re.search(r"```text\n(.*?)```", section, re.S)
    assert code is not None and expected is not None
    source = code.group(1)
    definition = source[source.index("State = ") : source.index("game = TakeAway()")]
    assert len(definition.strip().splitlines()) < 40
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(source, str(README), "exec"), {"__name__": "readme_example"})
    assert output.getvalue() == expected.group(1)
