"""``plies tree --algorithm mcts``: the narrated iterations, the root moves' table, the
convergence line, ``--json``, and one-line errors for options that do not apply."""

from __future__ import annotations

import json

import pytest

from cli_errors import assert_one_line_error
from plies.cli import main
from plies.lab import MCTS_STEPS_CAP

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(["tree", *args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_text_narrates_the_first_iterations_then_the_table_and_convergence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, AIMA, "--algorithm", "mcts", "--iterations", "500", "--seed", "1")
    lines = out.splitlines()
    assert "Iteration 1" in lines and "Iteration 10" in lines and "Iteration 11" not in lines
    assert "  expansion: B joins the search tree" in lines
    assert "... 490 more iterations (--json shows the first steps)" in lines
    assert "Root moves" in out and "minimax value" in out
    assert lines[-1] == (
        "after 500 iterations the most visited move is B, minimax's best move is B "
        "(value 3): they agree"
    )


def test_no_narrate_leaves_only_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, AIMA, "--algorithm", "mcts", "--iterations", "50", "--no-narrate")
    assert "Iteration" not in out and "after 50 iterations" in out


def test_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    args = (AIMA, "--algorithm", "mcts", "--iterations", "300", "--seed", "4", "--json")
    doc = json.loads(run(capsys, *args))
    assert doc["algorithm"] == "mcts" and doc["iterations"] == 300 and doc["seed"] == 4
    assert [c["name"] for c in doc["children"]] == ["B", "C", "D"]
    assert sum(c["visits"] for c in doc["children"]) == 300
    assert [c["minimax_value"] for c in doc["children"]] == [3, 2, 2]
    assert doc["best"] == "B" and doc["minimax_best"] == ["B"] and doc["agrees"] is True
    assert doc["steps_shown"] == MCTS_STEPS_CAP == len(doc["steps"])
    first = doc["steps"][0]
    assert first["selection"] == [{"node": "A", "child": "B", "how": "expand"}]
    assert first["expanded"] == "B" and first["backup"][0] == {
        "node": "A",
        "visits": 1,
        "value": first["value"],
    }
    assert json.loads(run(capsys, *args)) == doc  # seeded: the same document again


def test_the_default_seed_is_zero_and_random_trees_keep_theirs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plain = json.loads(run(capsys, AIMA, "--algorithm", "mcts", "--json"))
    zero = json.loads(run(capsys, AIMA, "--algorithm", "mcts", "--seed", "0", "--json"))
    assert plain == zero and plain["iterations"] == 1000
    doc = json.loads(
        run(
            capsys, "--random", "--seed", "9", "--algorithm", "mcts", "--iterations", "20", "--json"
        )
    )
    assert doc["seed"] == 9 and doc["tree"].startswith("[")


def test_the_exploration_constant_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    greedy = json.loads(run(capsys, AIMA, "--algorithm", "mcts", "--exploration", "0", "--json"))
    assert greedy["c"] == 0
    assert (
        greedy["children"]
        != json.loads(run(capsys, AIMA, "--algorithm", "mcts", "--json"))["children"]
    )


@pytest.mark.parametrize(
    "argv",
    [
        [AIMA, "--algorithm", "mcts", "--iterations", "0"],
        [AIMA, "--algorithm", "mcts", "--iterations", "2000000"],
        [AIMA, "--algorithm", "mcts", "--exploration", "-1"],
        [AIMA, "--algorithm", "mcts", "--exploration", "x"],
        [AIMA, "--algorithm", "mcts", "--strict"],
        [AIMA, "--algorithm", "mcts", "--order", "best"],
        [AIMA, "--algorithm", "mcts", "--depth-limit", "1"],
        [AIMA, "--algorithm", "mcts", "--compare"],
        [AIMA, "--iterations", "10"],
        [AIMA, "--algorithm", "minimax", "--exploration", "1"],
        ["[[1,inf],[2,3]]", "--algorithm", "mcts"],
        ["7", "--algorithm", "mcts"],
        ["--batch", "-", "--algorithm", "mcts"],
    ],
)
def test_bad_options_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, ["tree", *argv])


def test_a_game_tree_lists_its_moves_once(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--game", "tictactoe:5 1 9", "--algorithm", "mcts", "--iterations", "300")
    out = run(capsys, *args, "--no-narrate")
    assert "│ 3    │" in out and "3 (3)" not in out
    doc = json.loads(run(capsys, *args, "--json"))
    assert [c["move"] for c in doc["children"]] == ["3", "7", "2", "4", "6", "8"]
