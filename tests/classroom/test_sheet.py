"""Worksheets: the practice room's exercises from one seed, searched once, and a key
that says what the search did."""

from __future__ import annotations

import random

import pytest

from plies import classroom, lab
from plies.classroom import ShapeError, make_worksheet
from plies.trees import format_tree, parse


def test_each_exercise_is_the_practice_rooms_from_a_seed_drawn_from_the_sheets() -> None:
    sheet = make_worksheet(count=3, seed=11, branching=3, depth=3, cutoffs=2, strict=True)
    seeds = random.Random(11)
    for exercise in sheet.exercises:
        own = seeds.getrandbits(31)
        room = lab.exercise(seed=own, branching=3, depth=3, cutoffs=2, strict=True)
        assert exercise.seed == own
        assert exercise.text == format_tree(room)
        assert exercise.result.options.strict is True
        assert exercise.result.cutoffs >= 2


def test_the_same_seed_gives_the_same_sheet_and_another_seed_another() -> None:
    one = make_worksheet(count=4, seed=5).to_json()
    assert one == make_worksheet(count=4, seed=5).to_json()
    assert one != make_worksheet(count=4, seed=6).to_json()


def test_the_json_holds_the_tree_text_and_plies_tree_json_of_it() -> None:
    sheet = make_worksheet(count=2, seed=3, root="min", cutoffs=2)
    for entry in sheet.to_json()["exercises"]:
        tree = parse(entry["tree"], root="min")
        options = lab.LabOptions()
        assert entry["search"] == lab.search_document(lab.run(tree, options), options)
        assert tree.kind[0] == "min"


def test_the_key_follows_the_search_leaf_by_leaf_and_cut_by_cut() -> None:
    exercise = make_worksheet(count=1, seed=1).exercises[0]  # AIMA-like: one cut at D
    key = exercise.key()
    tree, result = exercise.tree, exercise.result
    assert key["evaluated"] == [tree.name(tree.leaf_ids[leaf]) for leaf in result.evaluated]
    assert sorted(key["evaluated"] + key["never_evaluated"]) == sorted(
        tree.name(node) for node in tree.leaf_ids
    )
    assert len(key["cuts"]) == result.cutoffs
    cut = key["cuts"][0]
    assert cut["at"] == "D"
    assert cut["after"] == "D1"
    assert cut["reason"] == "v=6 >= beta=1"
    assert cut["bound_from"] == "B"
    assert cut["pruned"] == ["D2"]
    root = key["nodes"][0]
    assert (root["name"], root["value"], root["window"]) == ("A", "1", ["-inf", "inf"])


def test_a_chance_tree_is_keyed_by_expectiminimax_with_no_cuts() -> None:
    exercise = make_worksheet(count=1, seed=2, chance=True).exercises[0]
    assert exercise.tree.has_chance
    assert exercise.result.options.algorithm == "expectiminimax"
    assert exercise.key()["cuts"] == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"count": 0, "seed": 1}, "count must be at least 1, not 0"),
        ({"count": classroom.MAX_COUNT + 1, "seed": 1}, "count must be at most 200"),
        ({"count": 1, "seed": -1}, "seed must be at least 0"),
        ({"count": 1, "seed": 1, "branching": 4, "depth": 4}, "has up to 256 leaves"),
        ({"count": 1, "seed": 1, "depth": 1}, "depth must be at least 2, not 1"),
        ({"count": 1, "seed": 1, "colour": "red"}, "unknown shape field 'colour'"),
    ],
)
def test_a_count_or_shape_out_of_range_is_refused(arguments: dict, message: str) -> None:
    with pytest.raises(ShapeError, match=message):
        make_worksheet(**arguments)


def test_a_difficulty_the_shape_cannot_meet_is_the_practice_rooms_error() -> None:
    with pytest.raises(lab.ExerciseError, match="at most 2 cut-offs, not 5"):
        make_worksheet(count=1, seed=1, depth=2, cutoffs=5)
