"""``plies tree --algorithm maxn|paranoid|brs``: the narrated report, ``--json``,
``--player``, ``--random --players``, drawings, and one-line errors for trees and
options that belong to the other searches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plies.cli import main

THREE = '{"players": 3, "tree": [[[1,2,3],[4,1,1]], [[2,5,0],[3,3,3]]]}'
SEED5 = ["--random", "--seed", "5", "--values", "0,9"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(["tree", *args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_paranoid_report_narrates_draws_and_names_the_cutoff(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, *SEED5, "--algorithm", "paranoid")
    lines = out.splitlines()
    assert lines[:3] == [
        "Random tree (seed 5)",
        "Tree: 15 nodes, 8 leaves, height 3, 3 players, player 0 at the root",
        "A player 0",
    ]
    assert "Search: paranoid for player 0, alpha-beta (fail-soft), ties to the leftmost" in lines
    assert "Step 1: enter A (player 0, MAX) with alpha=-inf, beta=inf" in lines
    assert "    └── G player 2  ✂ pruned" in lines
    assert "Value: 1 (player 0's utility)" in lines
    assert "Principal line: B -> D -> D2   (child indices [0, 1, 1])" in lines
    assert "evaluated 6 of 8 leaves, 1 cut-off" in lines
    assert lines[-1] == "Cut-off at E: v=1 <= alpha=1; pruned G"


def test_maxn_json_gives_the_vector_and_path(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(run(capsys, THREE, "--algorithm", "maxn", "--json"))
    assert {k: doc[k] for k in ("algorithm", "players", "value", "path", "leaves_evaluated")} == {
        "algorithm": "maxn",
        "players": 3,
        "value": [2, 5, 0],
        "path": [1, 0],
        "leaves_evaluated": 4,
    }
    assert doc["path_names"] == ["C", "C1"] and doc["player"] is None


def test_brs_json_with_a_root_player_and_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = tmp_path / "three.json"
    tree.write_text(THREE)
    doc = json.loads(run(capsys, f"@{tree}", "--algorithm", "brs", "--player", "2", "--json"))
    assert (doc["algorithm"], doc["player"], doc["value"], doc["path"]) == ("brs", 2, 0, [1, 0])


def test_random_players_and_seed_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(
        run(
            capsys,
            "--random",
            "--players",
            "4",
            "--depth",
            "4",
            "--seed",
            "3",
            "--algorithm",
            "maxn",
            "--json",
        )
    )
    assert doc["players"] == 4 and doc["seed"] == 3 and doc["leaf_count"] == 16
    assert len(doc["value"]) == 4


def test_draw_svg_text_and_before(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg, text, before = tmp_path / "brs.svg", tmp_path / "brs.txt", tmp_path / "tree.svg"
    run(capsys, *SEED5, "--algorithm", "brs", "--draw", str(svg), "--no-narrate")
    run(capsys, *SEED5, "--algorithm", "brs", "--draw", str(text), "--json")
    run(capsys, *SEED5, "--algorithm", "brs", "--draw", str(before), "--before", "--json")
    assert 'class="edge pruned"' in svg.read_text() and "(9, 4, 5)" in svg.read_text()
    assert text.read_text().splitlines()[0] == "A player 0  v=3  ◀ principal line"
    assert 'class="pruned"' not in before.read_text() and "v=" not in before.read_text()


def test_no_narrate_and_no_show_tree_leave_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, THREE, "--algorithm", "maxn", "--no-narrate", "--no-show-tree")
    assert "Step 1" not in out and "├──" not in out
    assert "Value: (2, 5, 0)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([THREE], 'this tree has "players"'),
        ([THREE, "--algorithm", "minimax"], "--algorithm maxn, paranoid or brs"),
        (["[[1,2],[3]]", "--algorithm", "paranoid"], "for a two-player tree use"),
        ([THREE, "--algorithm", "paranoid", "--player", "3"], "--player 3 is not a player"),
        ([THREE, "--algorithm", "maxn", "--player", "1"], "max^n has no root player"),
        ([THREE, "--algorithm", "brs", "--strict"], "--strict does not apply to --algorithm brs"),
        ([THREE, "--algorithm", "maxn", "--iterations", "5"], "--iterations does not apply"),
        ([THREE, "--algorithm", "maxn", "--players", "3"], "--players sets the players of a"),
        (["[[1,2]]", "--player", "1"], "--player works with --algorithm maxn, paranoid or brs"),
        ([THREE, "--algorithm", "maxn", "--notation", "brackets"], "not --notation brackets"),
        (["--algorithm", "maxn"], "no tree given"),
        ([THREE, "--algorithm", "maxn", "--draw", "x.png"], "drawn as .svg or .txt"),
        ([THREE, "--algorithm", "maxn", "--format", "svg"], "go with --draw FILE"),
        ([THREE, "--algorithm", "maxn", "--steps", "frames"], "--steps does not apply"),
        (['{"players": 3, "tree": [[1,2]]}', "--algorithm", "maxn"], "value at 0 has 2 numbers"),
    ],
)
def test_one_line_errors(
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tree", *argv]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("error: "), err
    assert message in err
    assert list(tmp_path.iterdir()) == []  # nothing drawn


def test_bad_player_value_is_refused_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree", THREE, "--algorithm", "brs", "--player", "-1"]) != 0
    assert "argument --player: expected a number of at least 0" in capsys.readouterr().err
