"""What the documentation says about games and traces is true.

tests/test_docs.py runs every example; these tests check the claims around them: the
builders' tutorial game is short, complete and passes the conformance suite (the
README's earlier one did not: its ``play`` accepted illegal moves), and the trace's
event types are the ones the students' tutorial names (a cut-off is no event of its
own but the ``cutoff`` of a ``Backup``).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from plies import trees
from plies.errors import IllegalMoveError
from plies.testing import ConformanceError, check_game

DOCS = Path(__file__).resolve().parents[2] / "docs"

CHECK = """        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"cannot take {move!r} of {state[0]} sticks")
"""


def tutorial_game_source() -> str:
    """The first python block of the builders' tutorial: the TakeAway game."""
    match = re.search(r"```python\n(.*?)```", (DOCS / "builders.md").read_text(), re.S)
    assert match is not None
    return match.group(1)


def game_class(source: str) -> Any:
    """The ``TakeAway`` class the source defines (its class alone, nothing run)."""
    definition = source[: source.index("game = TakeAway()")]
    namespace: dict[str, Any] = {"__name__": "tutorial"}
    exec(compile(definition, str(DOCS / "builders.md"), "exec"), namespace)
    return namespace["TakeAway"]


def test_the_tutorial_game_is_complete_and_short() -> None:
    source = tutorial_game_source()
    definition = source[source.index("State = ") : source.index("game = TakeAway()")]
    assert len(definition.strip().splitlines()) < 40
    assert "check_game(game" in source


def test_the_tutorial_game_passes_the_conformance_suite_and_refuses_illegal_moves() -> None:
    game = game_class(tutorial_game_source())()
    report = check_game(game, playouts=50, seed=1)
    assert report.playouts == 50
    for move in (4, 0, None):
        with pytest.raises(IllegalMoveError):
            game.play((3, 0), move)


def test_without_its_check_the_game_is_refused_by_the_suite() -> None:
    source = tutorial_game_source()
    assert CHECK in source
    unchecked = game_class(source.replace(CHECK, ""))()
    with pytest.raises(ConformanceError, match="play"):
        check_game(unchecked, playouts=50, seed=1)


def test_the_event_types_the_tutorial_names_are_the_trace_types() -> None:
    text = " ".join((DOCS / "students.md").read_text().split())
    sentence = re.search(r"`result.events` is the trace, typed: ([^(]*)\(", text)
    assert sentence is not None
    named = set(re.findall(r"`(\w+)`", sentence.group(1)))
    assert named == {t.__name__ for t in typing.get_args(trees.Event)}
    assert "Cutoff" not in named
    assert "cutoff" in {f.name for f in dataclasses.fields(trees.Backup)}
