"""Monte-Carlo tree search on explicit trees (:func:`plies.trees.mcts_tree`): seeded,
counted, recorded step by step, and converging to the minimax move."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plies.errors import PliesError, SearchError
from plies.trees import (
    MAX_MCTS_ITERATIONS,
    convergence_line,
    exact_values,
    mcts_tree,
    narrate_mcts,
    parse,
    random_tree,
)

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
#: MAX chooses between a chance node worth 0.9 * 10 + 0.1 * 0 = 9 and a sure 6.
CHANCE = (
    '{"tree": {"kind": "max", "children": ['
    '{"kind": "chance", "children": [{"p": 0.9, "value": 10}, {"p": 0.1, "value": 0}]},'
    '{"value": 6}]}}'
)


def test_the_same_seed_gives_the_same_run_and_another_seed_another() -> None:
    tree = parse(AIMA)
    first = mcts_tree(tree, iterations=200, seed=5)
    again = mcts_tree(tree, iterations=200, seed=5)
    other = mcts_tree(tree, iterations=200, seed=6)
    assert first.steps == again.steps and first.children == again.children
    assert first.steps != other.steps


@pytest.mark.parametrize("iterations", [1, 2, 3, 7, 250])
def test_root_visits_sum_to_the_iterations(iterations: int) -> None:
    result = mcts_tree(parse(AIMA), iterations=iterations, seed=1)
    assert sum(child.visits for child in result.children) == iterations
    assert len(result.steps) == iterations
    assert result.steps[-1].backup[0][:2] == (0, iterations)


def test_every_step_backs_its_leaf_value_up_the_selected_path() -> None:
    tree = parse(AIMA)
    visits = [0] * len(tree)
    total = [0.0] * len(tree)
    for step in mcts_tree(tree, iterations=60, seed=2).steps:
        path = [0, *(choice.child for choice in step.selection)]
        assert [node for node, _, _ in step.backup] == path
        if step.expanded is not None:
            assert step.expanded == path[-1]
        leaf = step.simulation[-1] if step.simulation else path[-1]
        assert leaf == step.leaf and tree.kind[leaf] == "leaf"
        assert step.reward == tree.value[leaf]
        for node, n, mean in step.backup:
            visits[node] += 1
            total[node] += step.reward
            assert n == visits[node] and mean == pytest.approx(total[node] / n)


def test_unvisited_children_are_expanded_left_to_right_before_ucb_is_used() -> None:
    steps = mcts_tree(parse(AIMA), iterations=4, seed=0).steps
    assert [step.selection[0].how for step in steps] == ["expand", "expand", "expand", "ucb"]
    assert [step.expanded for step in steps[:3]] == [1, 5, 9]  # B, C, D
    assert len(steps[3].selection[0].scores) == 3


def test_ucb_scores_follow_the_formula_with_min_counting_one_minus_the_mean() -> None:
    tree = parse(AIMA)
    result = mcts_tree(tree, iterations=40, seed=4)
    low, high = 2, 14
    for step in result.steps:
        for choice in step.selection:
            if choice.how != "ucb" or tree.kind[choice.node] != "min":
                continue
            # the statistics before this step, replayed from the earlier steps
            before = [s for s in result.steps if s.iteration < step.iteration]
            n_parent = sum(choice.node in [n for n, _, _ in s.backup] for s in before)
            for child, score in zip(tree.children[choice.node], choice.scores, strict=True):
                seen = [s.reward for s in before if child in [n for n, _, _ in s.backup]]
                mean = (sum(seen) / len(seen) - low) / (high - low)
                expected = 1 - mean + math.sqrt(2) * math.sqrt(math.log(n_parent) / len(seen))
                assert score == pytest.approx(expected)
            return
    pytest.fail("no UCB choice at a MIN node in 40 iterations")


def test_on_the_aima_tree_the_most_visited_move_is_minimaxs() -> None:
    result = mcts_tree(parse(AIMA), iterations=2000, seed=0)
    assert result.best == 0 and result.minimax_best == (0,) and result.agrees
    assert result.minimax_value == 3
    assert [child.exact for child in result.children] == [3, 2, 2]
    assert convergence_line(result) == (
        "after 2000 iterations the most visited move is B, minimax's best move is B "
        "(value 3): they agree"
    )


def test_chance_nodes_are_sampled_by_their_probabilities() -> None:
    tree = parse(CHANCE)
    result = mcts_tree(tree, iterations=2000, seed=3)
    sampled = [c.child for s in result.steps for c in s.selection if c.how == "chance"]
    share = sampled.count(2) / len(sampled)  # node 2 is the 0.9 outcome
    assert 0.85 < share < 0.95
    assert result.best_name == "B" and result.agrees and result.minimax_value == 9
    assert result.children[0].value == pytest.approx(9, abs=0.5)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(2, 3),
    st.integers(1, 3),
    st.integers(0, 10**6),
    st.booleans(),
)
def test_random_trees_converge_to_a_minimax_best_move(
    branching: int, depth: int, seed: int, chance: bool
) -> None:
    tree = random_tree(branching=branching, depth=depth, seed=seed, low=-20, high=20, chance=chance)
    values = exact_values(tree)
    leaves = [tree.value[leaf] for leaf in tree.leaf_ids]
    spread = max(leaves) - min(leaves)  # type: ignore[operator]
    children = sorted((values[c] for c in tree.children[0]), reverse=True)
    # a clear best move (or equal best ones): a gap of a fifth of the leaf range
    assume(children[0] == children[1] or children[0] - children[1] >= spread / 5)
    result = mcts_tree(tree, iterations=3000, seed=seed)
    assert result.agrees, [(c.visits, c.exact) for c in result.children]


def test_a_min_root_prefers_the_lowest_move() -> None:
    result = mcts_tree(parse("[[3,12,8],[2,4,6],[14,5,2]]", root="min"), iterations=2000)
    assert result.minimax_value == 6 and result.best_name == "C" and result.agrees


def test_keep_steps_caps_the_recorded_iterations() -> None:
    result = mcts_tree(parse(AIMA), iterations=50, seed=0, keep_steps=5)
    assert [step.iteration for step in result.steps] == [1, 2, 3, 4, 5]
    assert sum(child.visits for child in result.children) == 50


def test_the_narration_tells_every_phase() -> None:
    lines = narrate_mcts(mcts_tree(parse(AIMA), iterations=10, seed=1), limit=4)
    assert lines[:5] == [
        "Iteration 1",
        "  selection: A -> B (its first unvisited child)",
        "  expansion: B joins the search tree",
        "  simulation: B -> B1 = 3 (leaf 0)",
        "  backup 3: A 1 visit, mean 3; B 1 visit, mean 3",
    ]
    assert any("highest UCB for MAX: B 1.566, C 1.816, D 2.482" in line for line in lines)
    assert sum(line.startswith("Iteration") for line in lines) == 4


@pytest.mark.parametrize(
    ("tree", "options", "message"),
    [
        (AIMA, {"iterations": 0}, "iterations must be 1 to"),
        (AIMA, {"iterations": MAX_MCTS_ITERATIONS + 1}, "iterations must be 1 to"),
        (AIMA, {"iterations": 2.5}, "iterations must be a whole number"),
        (AIMA, {"c": -1}, "exploration constant"),
        (AIMA, {"c": math.inf}, "exploration constant"),
        (AIMA, {"seed": "x"}, "the seed must be a whole number"),
        (AIMA, {"keep_steps": -1}, "keep_steps"),
        ("[[1,inf],[2,3]]", {}, "B2 is inf"),
        ("7", {}, "root is a leaf node"),
        ('{"tree": {"kind": "chance", "children": [{"p": 1, "value": 1}]}}', {}, "chance node"),
    ],
)
def test_bad_arguments_are_refused(tree: str, options: dict, message: str) -> None:
    with pytest.raises(SearchError, match=message) as info:
        mcts_tree(parse(tree), **options)
    assert isinstance(info.value, PliesError)
    assert "\n" not in str(info.value)
