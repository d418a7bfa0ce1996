"""The ``plies tree`` command line: the grader contract, output and errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error
from plies.cli import main

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
DATA = Path(__file__).parents[1] / "trees" / "data"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    status, out, err = run(capsys, "tree", *args, "--json")
    assert status == 0, err
    return json.loads(out)


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, AIMA)
    assert doc["value"] == 3
    assert doc["path"] == [0, 0]
    assert doc["leaf_count"] == 9
    assert doc["evaluated"] == [0, 1, 2, 3, 6, 7, 8]
    assert len(doc["nodes"]) == 13
    root = doc["nodes"][0]
    assert root["path"] == [] and root["kind"] == "max"
    assert (root["alpha_in"], root["beta_in"]) == ("-inf", "inf")
    pruned = [n for n in doc["nodes"] if n["status"] == "pruned"]
    assert [n["path"] for n in pruned] == [[1, 1], [1, 2]]
    assert pruned[0]["reason"] == "pruned: v=2 <= alpha=3 (set at A)"
    assert doc["nodes"][5]["status"] == "cutoff"
    assert [n["name"] for n in doc["nodes"][:3]] == ["A", "B", "B1"]
    assert doc["path_names"] == ["B", "B1"]


def test_lab_sheet_flat_form(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "--leaves", "6,4,7,8,3,9,5,7", "--branching", "2")
    assert doc["value"] == 7
    assert doc["path"] == [1, 1, 1]
    assert sorted(set(range(8)) - set(doc["evaluated"])) == [3]


def test_paths_refer_to_the_input_tree_whatever_the_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = run_json(capsys, AIMA, "--order", "worst")
    assert doc["path"] == [0, 0]
    doc = run_json(capsys, AIMA, "--order", "best")
    assert doc["path"] == [0, 0]
    assert doc["evaluated"][:3] == [0, 2, 1]  # B's leaves, smallest first: 3, 8, 12
    doc_a = run_json(capsys, AIMA, "--order", "random", "--seed", "5")
    doc_b = run_json(capsys, AIMA, "--order", "random", "--seed", "5")
    assert doc_a["evaluated"] == doc_b["evaluated"]


def test_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, AIMA, "--root", "min")["value"] == 6
    assert run_json(capsys, AIMA, "--algorithm", "minimax")["evaluated"] == list(range(9))
    assert run_json(capsys, AIMA, "--algorithm", "negamax")["evaluated"] == [0, 1, 2, 3, 6, 7, 8]
    assert run_json(capsys, "[[3,4],[3,9]]", "--strict")["evaluated"] == [0, 1, 2, 3]
    doc = run_json(capsys, AIMA, "--window", "5,10")
    assert doc["bound"] == "upper"
    assert run_json(capsys, AIMA, "--fail-hard")["fail"] == "hard"


def test_infinities_are_strings_in_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", "[[inf, 2], [-inf]]", "--json")
    assert status == 0
    assert "Infinity" not in out and "NaN" not in out
    doc = json.loads(out)
    assert doc["value"] == 2


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))")
    assert status == 0
    assert "evaluated 5 of 8 leaves" in out
    assert "Step 1: enter A (MAX) with alpha=-inf, beta=inf" in out
    assert "pruned: v=5 >= beta=3 (set at B)" in out
    assert "so E's remaining child E2 is pruned" in out
    assert "Principal variation: B -> D -> D2" in out
    assert "\x1b[" not in out  # no colour codes when not a terminal


def test_compare_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", AIMA, "--compare")
    assert status == 0
    assert "Knuth-Moore minimum for b=3, d=2" in out and "= 5 leaves" in out
    doc = run_json(capsys, AIMA, "--compare")
    best = [r for r in doc["rows"] if r["algorithm"] == "alphabeta" and r["order"] == "best"]
    assert best[0]["evaluated"] == doc["knuth_moore_minimum"] == 5


def test_random_tree_is_reproducible_and_reads_back(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--random", "--branching", "3", "--depth", "3", "--seed", "7")
    first = run_json(capsys, *args)
    assert run_json(capsys, *args) == first
    again = run_json(capsys, first["tree"])
    assert again["value"] == first["value"]
    assert again["leaf_count"] == 27
    ragged = run_json(capsys, "--random", "--ragged", "--seed", "3", "--depth", "4")
    assert ragged["value"] == run_json(capsys, ragged["tree"])["value"]


def test_file_and_stdin(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tree.txt"
    path.write_text(AIMA + "\n")
    assert run_json(capsys, f"@{path}")["value"] == 3
    monkeypatch.setattr(sys, "stdin", io.StringIO(AIMA))
    assert run_json(capsys, "-")["value"] == 3


def test_cs188_file_defaults_to_its_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, f"@{DATA / 'aima-two-agents.test'}")
    assert doc["algorithm"] == "alphabeta" and doc["strict"] is True
    assert doc["path_labels"] == ["B", "b1"]
    assert run_json(capsys, f"@{DATA / 'aima-two-agents.test'}", "--no-strict")["strict"] is False


def test_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "class.txt"
    path.write_text(f"# answers\n{AIMA}\n\n[[1,2],[3\nA(B(1,2),C(3,4))\n")
    status, out, err = run(capsys, "tree", "--batch", f"@{path}")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["line"] for d in lines] == [2, 4, 5]
    assert lines[0]["value"] == 3
    assert "expected ',' or ']'" in lines[1]["error"]
    assert lines[2]["value"] == 3
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("error: 1 tree")


def test_guided_input_reasks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = "two\n2\n2\n3\nfive\n5\n2\n9\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status, out, err = run(capsys, "tree", "--guided", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["leaf_count"] == 4 and doc["value"] == 3
    assert "'two' is not a whole number" in err
    assert "'five' is not a number" in err


def test_guided_input_that_ends_early(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n2\n1\n"))
    status, _, err = run(capsys, "tree", "--guided")
    assert status == 1
    assert err.endswith("error: the input ended before the tree was complete\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["[[1,2],[3,4)"], "expected ',' or ']' at column 12, found ')'"),
        (["[1, a]"], "expected '(' or ':' after the label 'a'"),
        ([""], "the tree is empty"),
        (["--leaves", "1,2,3", "--branching", "2"], "3 leaves do not fill a complete 2-ary tree"),
        (["--leaves", "1,x", "--branching", "2"], "leaf 'x' is not a number"),
        (
            ['{"kind":"chance","children":[1,2]}', "--algorithm", "alphabeta"],
            "alphabeta cannot search chance nodes",
        ),
        (
            ['{"kind":"chance","children":[{"p":0.3,"value":1},{"p":0.3,"value":2}]}'],
            "sum to 0.6, not 1",
        ),
        ([], "no tree given"),
        (["@/nonexistent/tree.txt"], "cannot read the tree file"),
        ([AIMA, "--order", "sideways"], "invalid choice: 'sideways'"),
        ([AIMA, "--window", "3"], "expected two numbers"),
        ([AIMA, "--depth", "2"], "--depth sets the depth of a --random or --game tree"),
        ([AIMA, "--depth-limit", "1"], "has no static value"),
        (["--batch", AIMA], "--batch reads trees from -"),
    ],
)
def test_errors_are_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _out, err = run(capsys, "tree", *args)
    assert status == 1
    assert message in err
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_usage_errors_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree", AIMA, "--order", "sideways"]) == 1
    assert main(["no-such-command"]) == 1
    assert "invalid choice" in capsys.readouterr().err


def test_deep_chain_through_the_cli(tmp_path: Path) -> None:
    depth = 100_000
    path = tmp_path / "chain.txt"
    path.write_text("[" * depth + "1" + "]" * depth)
    for extra in ([], ["--json"], ["--show-tree", "--no-narrate"]):
        proc = subprocess.run(
            [sys.executable, "-m", "plies", "tree", f"@{path}", *extra],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert "RecursionError" not in proc.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("plies ")
    assert main(["tree", "--help"]) == 0
    assert "--algorithm" in capsys.readouterr().out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo")
    assert status == 0
    assert "Value: 3" in out and "Knuth-Moore minimum" in out


@pytest.mark.parametrize(
    ("argv", "note"),
    [
        (["--algorithm", "minimax", "--strict"], "--strict has no effect"),
        (["--algorithm", "minimax", "--fail-hard"], "--fail-hard has no effect"),
        (["--order", "static"], "--order static has no effect"),
        (["--seed", "4"], "--seed has no effect"),
        (["--values", "-5,5"], "--values has no effect without --random"),
        (["--algorithm", "alphabeta", "--no-star1"], "--no-star1 has no effect"),
    ],
)
def test_options_without_effect_say_so(
    capsys: pytest.CaptureFixture[str], argv: list[str], note: str
) -> None:
    status, out, err = run(capsys, "tree", AIMA, "--json", *argv)
    assert status == 0
    assert json.loads(out)["value"] == 3
    assert f"note: {note}" in err


def test_options_with_effect_give_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "tree", AIMA, "--strict", "--order", "random", "--seed", "2")
    assert status == 0
    assert "note:" not in err


@pytest.mark.parametrize("values", ["0.5,3", "1e400,1", "-inf,3", "5,1"])
def test_random_values_must_be_a_whole_range(
    capsys: pytest.CaptureFixture[str], values: str
) -> None:
    assert_one_line_error(capsys, ["tree", "--random", "--values", values])


def test_evaluation_order_names_leaves_by_number_not_hash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "tree", AIMA, "--no-narrate", "--no-show-tree")
    assert "Leaves in evaluation order: 3 (leaf 0), 12 (leaf 1)" in out  # as --json's
    assert "#" not in out.split("Leaves in evaluation order:")[1].splitlines()[0]


def test_an_endless_input_is_refused_not_read_whole(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("needs /dev/zero")
    assert_one_line_error(capsys, ["tree", "@/dev/zero"])


def test_windows_line_ends_read_as_text_mode_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = (DATA / "aima-two-agents.test").read_text(encoding="utf-8")
    path = tmp_path / "crlf.test"
    path.write_bytes(source.replace("\n", "\r\n").encode("utf-8"))
    status, out, err = run(capsys, "tree", f"@{path}", "--json")
    assert status == 0, err
    assert (
        json.loads(out)["value"]
        == json.loads(run(capsys, "tree", f"@{DATA / 'aima-two-agents.test'}", "--json")[1])[
            "value"
        ]
    )


def test_a_cs188_state_without_evaluation_is_fine_until_reached(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = (DATA / "aima-two-agents.test").read_text(encoding="utf-8")
    path = tmp_path / "missing.test"
    path.write_text(
        "\n".join(line for line in source.splitlines() if not line.startswith("c3 ")),
        encoding="utf-8",
    )
    status, out, err = run(capsys, "tree", f"@{path}", "--show-tree", "--narrate")
    assert status == 0, err
    assert "c3: ?" in out and "Value: 3" in out
    assert_one_line_error(capsys, ["tree", f"@{path}", "--algorithm", "minimax"])


def test_negamax_cut_offs_at_min_nodes_say_whose_view(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "tree", AIMA, "--algorithm", "negamax", "--no-narrate")
    assert "Cut-off at C: v=-2 >= beta=-3 (in MIN's view)" in out
