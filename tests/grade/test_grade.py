"""plies grade on students' Python submissions written for these tests
(``tests/grade/submissions/``): correct ones get full marks, each mistake loses marks
with its cause named, and code that loops, recurses, crashes, exits or eats memory is
marked within the limits, in a process of its own."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.cli import main
from plies.errors import PliesError
from plies.grade import (
    Limits,
    Report,
    SubmissionError,
    grade,
    reference,
    textbook_search,
    write_report,
)
from plies.grade._battery import default_battery
from plies.trees import parse, random_tree

SUBMISSIONS = Path(__file__).parent / "submissions"
FAST = Limits(timeout=1.0)


def graded(name: str, form: str, function: str, **options: object) -> Report:
    return grade(SUBMISSIONS / name, form=form, function=function, **options)  # type: ignore[arg-type]


def causes_of(report: Report) -> set[str]:
    return {c for t in report.tests if not t.leaves_right for c in t.causes}


def full_marks(report: Report) -> bool:
    return report.score == report.max_score and all(
        t.output.startswith("Correct.") for t in report.tests
    )


# Correct submissions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "form", "function", "options"),
    [
        ("array_gfg.py", "array", "minimax", {}),
        ("array_any.py", "array", "alphabeta", {}),
        ("array_any.py", "array", "alphabeta", {"branching": 3, "depth": 4}),
        ("array_any.py", "array", "alphabeta", {"branching": 10, "depth": 2}),
        ("node_textbook.py", "node", "alpha_beta_pruning", {}),
        ("node_kinds.py", "node", "alphabeta", {"seed": 7, "random_trees": 8}),
        ("node_kinds_strict.py", "node", "alphabeta", {"rule": "strict"}),
        ("node_expectimax.py", "node", "expectimax", {"algorithm": "expectimax"}),
        ("aima_alphabeta.py", "aima", "alphabeta_search", {}),
        ("array_strict.py", "array", "minimax", {"rule": "strict"}),
    ],
)
def test_a_correct_submission_gets_full_marks(
    name: str, form: str, function: str, options: dict[str, object]
) -> None:
    report = graded(name, form, function, **options)
    assert full_marks(report), report.to_text()
    assert len(report.tests) >= 6


def test_the_node_form_tells_depth_from_no_depth_by_the_parameters() -> None:
    with_depth = graded("node_kinds.py", "node", "alphabeta")
    without = graded("node_textbook.py", "node", "alpha_beta_pruning")
    assert with_depth.score == with_depth.max_score == without.max_score == without.score


# Mistakes, and their causes ------------------------------------------------------------------

STRICT_CAUSE = "it prunes only when v > beta (or < alpha): the strict tie rule"
NONSTRICT_CAUSE = "it prunes on ties (alpha >= beta): the non-strict rule"


@pytest.mark.parametrize(
    ("name", "function", "options", "cause"),
    [
        ("array_strict.py", "minimax", {}, STRICT_CAUSE),
        ("array_gfg.py", "minimax", {"rule": "strict"}, NONSTRICT_CAUSE),
        ("array_noprune.py", "minimax", {}, "no pruning at all"),
        ("array_min_alpha.py", "minimax", {}, "a MIN node updates alpha instead of beta"),
        ("array_no_bounds.py", "minimax", {}, "alpha and beta are not passed down"),
        ("array_right_to_left.py", "minimax", {}, "right to left"),
    ],
)
def test_each_mistake_loses_marks_and_is_named(
    name: str, function: str, options: dict[str, object], cause: str
) -> None:
    report = graded(name, "array", function, **options)
    assert report.score < report.max_score
    wrong = [t for t in report.tests if not t.leaves_right]
    assert wrong
    assert all(any(cause in c for c in t.causes) for t in wrong), report.to_text()
    assert cause in report.summary()
    # the value may be right all along: the leaves still cost marks
    assert all(t.score < t.max_score for t in wrong)


def test_the_strict_and_non_strict_pair_is_told_apart_both_ways() -> None:
    for name, rule, cause in (
        ("node_kinds_strict.py", "nonstrict", STRICT_CAUSE),
        ("node_kinds.py", "strict", NONSTRICT_CAUSE),
    ):
        report = graded(name, "node", "alphabeta", rule=rule)
        assert report.score < report.max_score
        assert cause in report.summary(), report.summary()
        assert any(t.name.startswith("A tie at") and not t.leaves_right for t in report.tests)


def test_a_wrong_value_with_the_right_leaves_loses_the_value_part() -> None:
    report = graded("array_off_by_one.py", "array", "minimax")
    assert all(t.leaves_right and not t.value_right for t in report.tests)
    first = report.tests[0]
    assert "Value: your code returned 6; the value of the tree is 5." in first.output
    assert first.score == pytest.approx(2 / 3)


def test_the_first_divergence_is_explained_in_alpha_betas_terms() -> None:
    report = graded("node_kinds_strict.py", "node", "alphabeta")
    tie = next(t for t in report.tests if t.name.startswith("A tie at alpha"))
    assert (
        "At the 4th leaf evaluated: at C (MIN), after C1 returned 3, v=3 <= alpha=3 (set at A): "
        "C's remaining children (C2) are pruned under the non-strict rule, but your code "
        "evaluated leaf C2." in tie.output
    )


def test_aima_moves_and_leaves_are_marked_apart() -> None:
    minimax = graded("aima_minimax.py", "aima", "minimax_decision")
    assert all(t.value_right for t in minimax.tests)
    assert "no pruning at all" in minimax.summary()
    last = graded("aima_last_move.py", "aima", "alphabeta_search")
    aima = next(t for t in last.tests if t.name == "AIMA Figure 5.2")
    assert "Move: D is worth 2; the best (B) are worth 3." in aima.output


# Code that fails ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("array_loop.py", "it ran past the 1 s limit"),
        ("array_recursion.py", "RecursionError"),
        ("array_exit.py", "the submission called exit('done') (line 6: sys.exit(\"done\"))"),
        ("array_segfault.py", "killed by SIGSEGV"),
        ("array_memory.py", "MemoryError"),
    ],
)
def test_code_that_fails_costs_its_tests_within_the_limit(name: str, message: str) -> None:
    started = time.monotonic()
    report = graded(name, "array", "minimax", limits=FAST, random_trees=0)
    elapsed = time.monotonic() - started
    assert report.score == 0 and not any(t.ran for t in report.tests)
    assert all(message in t.output for t in report.tests), report.tests[0].output
    assert elapsed < len(report.tests) * FAST.timeout + 10


def test_recursion_errors_name_the_students_own_line() -> None:
    report = graded("array_recursion.py", "array", "minimax", random_trees=0)
    assert (
        "(line 3: return minimax(depth + 1, index * 2, not maximizing, values, alpha, beta))"
        in (report.tests[0].output)
    )


@pytest.mark.parametrize(
    ("name", "function", "form", "message"),
    [
        ("array_syntax.py", "minimax", "array", "cannot be loaded: SyntaxError: expected ':'"),
        (
            "array_gfg.py",
            "alphabeta",
            "array",
            "defines no function alphabeta (it defines minimax)",
        ),
        ("array_gfg.py", "minimax", "node", "minimax takes 6 parameters; the node form calls it"),
        ("missing.py", "minimax", "array", "submission not found"),
    ],
)
def test_a_submission_that_cannot_be_loaded_is_one_error(
    name: str, function: str, form: str, message: str
) -> None:
    with pytest.raises(SubmissionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        graded(name, form, function)


def test_top_level_code_that_never_ends_cannot_be_loaded(tmp_path: Path) -> None:
    path = tmp_path / "hang.py"
    path.write_text("while True:\n    pass\n")
    with pytest.raises(SubmissionError, match="top-level code ran past the 1 s limit"):
        grade(path, form="array", function="minimax", limits=FAST)


def test_the_submission_never_runs_in_the_graders_process(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    path = tmp_path / "spy.py"
    path.write_text(
        "import os\n"
        f"open({str(marker)!r}, 'a').write(str(os.getpid()) + '\\n')\n"
        + (SUBMISSIONS / "array_gfg.py").read_text()
    )
    report = grade(path, form="array", function="minimax")
    assert report.score == report.max_score
    pids = {int(p) for p in marker.read_text().split()}
    assert pids and os.getpid() not in pids
    assert "submission" not in sys.modules


def test_prints_are_kept_apart_from_the_graders_answers(tmp_path: Path) -> None:
    path = tmp_path / "chatty.py"
    body = (SUBMISSIONS / "array_gfg.py").read_text()
    path.write_text(
        body.replace(
            "    if depth == 3:", "    print('visiting', depth, nodeIndex)\n    if depth == 3:"
        )
    )
    report = grade(path, form="array", function="minimax")
    assert report.score == report.max_score
    assert "Your code printed:\n  visiting 0 0" in report.tests[0].output


# The reference --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    branching=st.integers(2, 4),
    depth=st.integers(1, 4),
    ragged=st.booleans(),
    strict=st.booleans(),
)
def test_the_textbook_search_without_mistakes_is_plies_search(
    seed: int, branching: int, depth: int, ragged: bool, strict: bool
) -> None:
    tree = random_tree(branching=branching, depth=depth, seed=seed, ragged=ragged, low=-3, high=3)
    result = reference(tree, "alphabeta", strict=strict)
    leaves, windows = textbook_search(tree, strict=strict)
    assert leaves == [tree.leaf_ids[k] for k in result.evaluated]
    assert [(n, a, b) for n, a, b in windows] == [
        (n, result.alpha_in[n], result.beta_in[n]) for n, _, _ in windows
    ]


def test_the_reference_agrees_with_every_cs188_tree_case() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "trees"))
    try:
        from test_cs188 import berkeley_cases  # the 82 Berkeley cases, in plies' words
    finally:
        sys.path.pop(0)
    algorithms = {"minimax": "minimax", "alphabeta": "alphabeta", "expectiminimax": "expectimax"}
    for case in berkeley_cases():
        tree = parse(case.text)
        algorithm = algorithms[str(tree.hints["algorithm"])]
        strict = bool(tree.hints.get("strict", False))
        result = reference(tree, algorithm, strict=strict)
        assert tree.move[result.pv[1]] == case.move, case.name
        leaves, _ = textbook_search(tree, strict=strict, prune=algorithm == "alphabeta")
        assert leaves == [tree.leaf_ids[k] for k in result.evaluated], case.name


def test_a_correct_submission_gets_full_marks_on_the_cs188_trees(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "trees"))
    try:
        from test_cs188 import berkeley_cases
    finally:
        sys.path.pop(0)
    alphabeta = [c for c in berkeley_cases() if c.name.startswith("q3/")]
    trees = tmp_path / "cs188.txt"
    trees.write_text("\n---\n".join(f"# name: {c.name}\n{c.text}" for c in alphabeta))
    report = graded(
        "node_kinds_strict.py", "node", "alphabeta", rule="strict", trees=[trees], battery=False
    )
    assert len(report.tests) == len(alphabeta) == 33
    assert report.score == report.max_score, report.to_text()


# The battery and a teacher's trees ---------------------------------------------------------


def test_the_default_battery_has_what_the_issue_names() -> None:
    names = " | ".join(c.name for c in default_battery("node"))
    for wanted in ("AIMA Figure 5.2", "A tie at alpha", "A tie at beta", "Negative and float",
                   "A MIN root", "Unbalanced", "A deep chain", "Random"):  # fmt: skip
        assert wanted in names
    array = " | ".join(c.name for c in default_battery("array"))
    assert (
        "The lab reports' tree" in array and "A tie at alpha" in array and "A tie at beta" in array
    )
    assert [c.tree.value for c in default_battery("node", seed=3)] == [
        c.tree.value for c in default_battery("node", seed=3)
    ]


def test_a_teachers_trees_have_names_weights_and_hidden_marks(tmp_path: Path) -> None:
    trees = tmp_path / "exam.txt"
    trees.write_text(
        "# name: the exam's tree\n# weight: 3\n# hidden\n[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"
        "---\n# root: min\n[[3, 5], [3, 1]]\n"
    )
    report = graded("node_kinds_strict.py", "node", "alphabeta", trees=[trees], battery=False)
    first, second = report.tests
    assert (first.name, first.max_score, first.hidden) == ("the exam's tree", 3.0, True)
    assert (second.name, second.max_score, second.hidden) == ("exam.txt tree 2", 1.0, False)
    assert report.max_score == 4
    gradescope = report.to_gradescope()
    assert [t["visibility"] for t in gradescope["tests"]] == ["after_published", "visible"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[1, 2], [3]]", "the array form needs a complete tree of branching 2 and depth 3"),
        ("# weight: -1\n[[1, 2], [3, 4]]", "the weight must be a number above 0"),
        ("[[1, 2]", "tree 1"),
        ("\n\n", "holds no tree"),
    ],
)
def test_a_bad_trees_file_is_one_error(tmp_path: Path, text: str, message: str) -> None:
    trees = tmp_path / "bad.txt"
    trees.write_text(text)
    with pytest.raises(PliesError, match=message):
        graded("array_gfg.py", "array", "minimax", trees=[trees])


# The command line -----------------------------------------------------------------------------


def test_the_command_line_grades_and_exits_0_whatever_the_marks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "grade",
                str(SUBMISSIONS / "array_strict.py"),
                "--form",
                "array",
                "--function",
                "minimax",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("PASS  The lab reports' tree: 1 / 1\n")
    assert "FAIL  A tie at alpha" in out and "Score: " in out


def test_the_command_line_writes_json_for_an_autograder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    argv = ["grade", str(SUBMISSIONS / "array_gfg.py"), "--form", "array", "--function", "minimax",
            "--format", "json", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    doc = json.loads(out.read_text())
    assert doc["score"] == doc["max_score"] == len(doc["tests"])
    assert set(doc["tests"][0]) >= {"name", "score", "max_score", "output"}
    assert "Score: " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["x.py", "--form", "array"], "the array form needs --function NAME"),
        (["x.py", "--form", "array", "--function", "f"], "submission not found: x.py"),
        (["x.py", "--form", "tree", "--function", "f"], "argument --form: invalid choice"),
        (["x.py", "--form", "array", "--function", "f", "--timeout", "0"], "must be above 0"),
        (
            ["x.py", "--form", "aima", "--function", "f", "--algorithm", "expectimax"],
            "no chance nodes",
        ),
        (["x.py", "--form", "node", "--function", "f", "--only-trees"], "--only-trees needs"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_each_test_is_drawn_with_the_codes_path(tmp_path: Path) -> None:
    report = graded(
        "array_strict.py", "array", "minimax", random_trees=0, draw=tmp_path / "drawings"
    )
    files = sorted((tmp_path / "drawings").glob("*.svg"))
    assert len(files) == len(report.tests) == 7
    tie = next(t for t in report.tests if t.name.startswith("A tie at alpha"))
    drawn = Path(tie.output.rsplit("Drawing: ", 1)[1])
    assert drawn.name.startswith("03-a-tie-at-alpha") and drawn in files
    assert "extra" in drawn.read_text()


def test_drawing_into_a_file_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    with pytest.raises(PliesError, match="it is not a folder"):
        graded("array_gfg.py", "array", "minimax", draw=tmp_path / "taken")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: grade(123, form="array", function="minimax"), "submission must be a path"),
        (
            lambda: graded("array_gfg.py", "array", "minimax", trees="exam.txt"),
            "trees must be a list",
        ),
        (lambda: graded("array_gfg.py", "array", "minimax", draw=5), "draw must be a path"),
        (lambda: default_battery("bogus"), "unknown form 'bogus'"),
        (lambda: textbook_search("x"), "tree must be a Tree"),  # type: ignore[arg-type]
        (lambda: write_report(None, "text"), "report must be a Report"),  # type: ignore[arg-type]
    ],
)
def test_library_misuse_is_plies_own_error(call: Any, message: str) -> None:
    with pytest.raises(PliesError, match=message):
        call()
