"""Exercises worth doing: never trivial, at least the cut-offs asked for (deep ones,
ties under the chosen rule), the same tree from the same seed and options, and a clear
error when the difficulty cannot be had on the shape asked for."""

from __future__ import annotations

import time
from typing import Any

import pytest

from plies.errors import PliesError
from plies.lab import ExerciseError, exercise
from plies.trees import SearchOptions, Tree, TreeResult, format_tree, random_tree, search

SEEDS = range(200)


def _search(tree: Tree, *, strict: bool = False) -> TreeResult:
    return search(tree, SearchOptions(strict=strict, trace=False))


def _deep(tree: Tree, result: TreeResult) -> bool:
    depth = tree.depth
    return any(
        c.source >= 0 and depth[c.node] - depth[c.source] >= 2 for c in result.cut_at.values()
    )


@pytest.mark.parametrize("ragged", [False, True])
def test_no_exercise_is_cut_free_or_trivial(ragged: bool) -> None:
    """Random trees of the default shape: 25% (uniform) and 84% (ragged) had no cut-off
    over these seeds, and 154 of 200 ragged ones were trivial (one level, or under four
    leaves, like A(2)). Exercises: none."""
    before = [_search(random_tree(seed=s, ragged=ragged)).cutoffs == 0 for s in SEEDS]
    assert sum(before) / len(SEEDS) > (0.8 if ragged else 0.2)
    for seed in SEEDS:
        tree = exercise(seed=seed, ragged=ragged)
        assert tree.height >= 2 and tree.leaf_count >= 4, format_tree(tree)
        assert _search(tree).cutoffs >= 1, format_tree(tree)


@pytest.mark.parametrize(
    "options",
    [
        {"cutoffs": 3, "depth": 4},
        {"deep": True, "depth": 4},
        {"deep": True, "depth": 5, "ragged": True, "cutoffs": 2},
        {"ties": True},
        {"ties": True, "strict": True},
        {"branching": 3, "depth": 4, "cutoffs": 5, "deep": True, "ties": True},
    ],
)
def test_the_difficulty_asked_for_holds(options: dict[str, Any]) -> None:
    strict = options.get("strict", False)
    for seed in range(50):
        tree = exercise(seed=seed, **options)
        result = _search(tree, strict=strict)
        assert result.cutoffs >= options.get("cutoffs", 1)
        if options.get("deep"):
            assert _deep(tree, result), format_tree(tree)
        if options.get("ties"):  # a cut-off that one tie rule makes and the other not
            assert _search(tree, strict=not strict).evaluated != result.evaluated


def test_the_same_seed_and_options_give_the_same_tree() -> None:
    options = {"branching": 3, "depth": 4, "cutoffs": 4, "deep": True, "ties": True}
    first = [format_tree(exercise(seed=s, **options)) for s in range(20)]
    assert first == [format_tree(exercise(seed=s, **options)) for s in range(20)]
    assert len(set(first)) == 20


def test_inner_nodes_are_labelled_by_their_names() -> None:
    tree = exercise(seed=1)
    assert format_tree(tree).startswith("A(B(C(")
    assert [tree.name(n) for n in tree.leaf_ids[:2]] == ["C1", "C2"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"depth": 1}, "too small to practise on"),
        ({"branching": 1}, "too small to practise on"),
        ({"depth": 3, "cutoffs": 7}, "at most 6 cut-offs"),
        ({"deep": True}, "needs depth 4 or more"),
        ({"chance": True, "cutoffs": 1}, "does not prune"),
        ({"depth": 3, "cutoffs": 3}, "in 400 tries from seed 0"),  # 6 possible, 3 never are
    ],
)
def test_impossible_exercises_raise_a_clear_error(options: dict[str, Any], message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ExerciseError, match=message) as caught:
        exercise(**options)
    assert isinstance(caught.value, PliesError)
    assert time.perf_counter() - start < 5


def test_chance_exercises_need_no_cut_off() -> None:
    tree = exercise(seed=2, chance=True)
    assert tree.has_chance and tree.height >= 2
