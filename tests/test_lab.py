"""The tree lab's application layer: the same answers for every shell."""

from __future__ import annotations

import doctest
from pathlib import Path
from typing import Any

import pytest

import plies.lab
from plies.errors import ArgumentTypeError
from plies.lab import LabOptions, read_tree, run

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
CS188 = Path(__file__).parent / "trees" / "data" / "aima-two-agents.test"


def test_doctests() -> None:
    failures, tried = doctest.testmod(plies.lab)
    assert tried > 0 and failures == 0


def test_gaps_are_filled_from_the_tree_hints() -> None:
    tree = read_tree(CS188.read_text(encoding="utf-8"))
    options = LabOptions().search_options(tree)
    assert (options.algorithm, options.strict) == ("alphabeta", True)
    assert LabOptions(strict=False).search_options(tree).strict is False


def test_chance_trees_default_to_expectiminimax() -> None:
    tree = read_tree('{"tree": {"kind": "chance", "children": [{"value": 1}, {"value": 3}]}}')
    assert run(tree, LabOptions()).value == 2


def test_bounds_are_checked_against_the_leaves() -> None:
    with pytest.raises(plies.errors.TreeError, match="outside the bounds"):
        read_tree(AIMA, bounds=(0, 10))


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (LabOptions(algorithm="minimax", strict=True), ["--strict has no effect"]),
        (LabOptions(algorithm="minimax", window=(0, 5)), ["--window has no effect"]),
        (LabOptions(order="static"), ["--order static has no effect"]),
        (LabOptions(seed=3), ["--seed has no effect"]),
        (LabOptions(star1=False), ["--no-star1 has no effect"]),
        (LabOptions(strict=True, order="random", seed=3), []),
    ],
)
def test_notes_name_options_without_effect(options: LabOptions, expected: list[str]) -> None:
    notes = options.notes(read_tree(AIMA))
    assert len(notes) == len(expected)
    for note, start in zip(notes, expected, strict=True):
        assert note.startswith(start)


def test_notes_spell_options_as_the_shell_does() -> None:
    notes = LabOptions(algorithm="minimax", fail_hard=True).notes(
        read_tree(AIMA), spell=lambda name: name
    )
    assert notes == ["fail_hard has no effect: minimax does not prune here"]


@pytest.mark.parametrize("field", ["fail_hard", "star1", "strict"])
def test_flags_must_be_booleans(field: str) -> None:
    with pytest.raises(ArgumentTypeError, match=field):
        LabOptions(**{field: "yes"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        lambda: plies.lab.read_game_tree(None, depth=1),  # type: ignore[arg-type]
        lambda: plies.lab.read_game_tree("tictactoe", depth=2, max_nodes="x"),  # type: ignore[arg-type]
        lambda: plies.lab.game_tree("tictactoe", None, depth=1),  # type: ignore[arg-type]
        lambda: run("[1,2]", LabOptions()),  # type: ignore[arg-type]
        lambda: run(read_tree(AIMA), None),  # type: ignore[arg-type]
        lambda: plies.lab.check_answer("x", {"value": 1}),  # type: ignore[arg-type]
        lambda: plies.lab.compare_document(read_tree(AIMA), None),  # type: ignore[arg-type]
        lambda: plies.lab.search_document(None, LabOptions()),  # type: ignore[arg-type]
        lambda: plies.lab.node_name(read_tree(AIMA), 99),
        lambda: plies.lab.node_name(read_tree(AIMA), "0"),  # type: ignore[arg-type]
    ],
)
def test_wrong_arguments_are_plies_errors(call: Any) -> None:
    with pytest.raises(plies.errors.PliesError):
        call()
