"""The README's game-engine example runs and prints what the README says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from plies.cli import main

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


def section(title: str) -> str:
    text = README.read_text()
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_readme_connect4_solver_example_prints_what_it_says() -> None:
    text = section("Solving Connect Four exactly")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    expected = re.search(r"```text\n(.*?)```", text, re.S)
    assert code is not None and expected is not None
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code.group(1), str(README), "exec"), {"__name__": "readme_example"})
    assert output.getvalue() == expected.group(1)


def test_readme_connect4_console_example_matches_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = section("Solving Connect Four exactly")
    console = re.search(r"```console\n\$ plies (solve connect4 \d+)\n(.*?)\n\$", text, re.S)
    assert console is not None
    assert main(console.group(1).split()) == 0
    shown = console.group(2).splitlines()
    out = capsys.readouterr().out.splitlines()
    assert out[:-1] == shown[:-1]  # all but the nodes/time line, which varies
    assert out[-1].split()[0] == shown[-1].split()[0] == "nodes"
