"""The example autograders in docs/grade/, run for real.

Gradescope's ``run_autograder`` runs in a folder laid out as Gradescope's
``/autograder`` (``submission/``, ``source/``, ``results/``), PrairieLearn's ``run.sh``
in one laid out as its ``/grade`` (``student/``, ``tests/``, ``results/``), with this
checkout's ``plies`` on PATH; the results they write must pass the schemas written
from the two formats' specifications (``data/README.md``) and say what the marks are.
``setup.sh`` installs system packages, so only what it checks before installing
anything runs here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
GRADESCOPE_FOLDER = ROOT / "docs" / "grade" / "gradescope"
RUN_AUTOGRADER = GRADESCOPE_FOLDER / "run_autograder"
SETUP = GRADESCOPE_FOLDER / "setup.sh"
PRAIRIELEARN_RUN = ROOT / "docs" / "grade" / "prairielearn" / "run.sh"
DATA = Path(__file__).parent / "data"
GRADESCOPE = json.loads((DATA / "gradescope-results.schema.json").read_text())
PRAIRIELEARN = json.loads((DATA / "prairielearn-results.schema.json").read_text())

#: The venv's bin/, holding the plies these tests grade with.
BIN = Path(sys.prefix) / "bin"

RIGHT = """\
def minimax(depth, index, maximizing, values, alpha, beta):
    if depth == 3:
        return values[index]
    best = float("-inf") if maximizing else float("inf")
    for child in (2 * index, 2 * index + 1):
        v = minimax(depth + 1, child, not maximizing, values, alpha, beta)
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best
"""
#: Prunes only when alpha > beta: the CS188 rule.
STRICT = RIGHT.replace("alpha >= beta", "alpha > beta")
STRICT_CAUSE = "it prunes only when v > beta (or < alpha)"


def run(script: Path, cwd: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` as the autograder would, with this checkout's plies on PATH."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_")}
    environment["PATH"] = f"{BIN}{os.pathsep}{environment.get('PATH', '')}"
    return subprocess.run(
        [str(script)],
        cwd=cwd,
        env={**environment, **variables},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def autograder(tmp_path: Path) -> Path:
    """A folder laid out as Gradescope's /autograder."""
    root = tmp_path / "autograder"
    for folder in ("submission", "source", "results"):
        (root / folder).mkdir(parents=True)
    return root


def gradescope(root: Path, **variables: str) -> dict[str, Any]:
    """Run run_autograder in ``root``; its results.json, checked against the schema."""
    done = run(RUN_AUTOGRADER, root, AUTOGRADER_ROOT=str(root), **variables)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.Draft202012Validator(GRADESCOPE).validate(results)
    return dict(results)


def test_the_scripts_are_executable_bash() -> None:
    for script in (RUN_AUTOGRADER, SETUP, PRAIRIELEARN_RUN):
        assert os.access(script, os.X_OK), f"{script} is not executable"
        assert script.read_text().startswith("#!/usr/bin/env bash\n")
        checked = subprocess.run(
            ["bash", "-n", str(script)], capture_output=True, text=True, check=False
        )
        assert checked.returncode == 0, checked.stderr


def test_run_autograder_gives_a_right_submission_full_marks(autograder: Path) -> None:
    (autograder / "submission" / "minimax.py").write_text(RIGHT)
    results = gradescope(autograder)
    tests = results["tests"]
    assert len(tests) >= 8
    assert results["score"] == sum(t["score"] for t in tests) == sum(t["max_score"] for t in tests)
    assert {t["status"] for t in tests} == {"passed"}
    assert results["output"].startswith(f"Score: {len(tests)} / {len(tests)} ")


def test_run_autograder_takes_the_teachers_options(autograder: Path) -> None:
    (autograder / "submission" / "minimax.py").write_text(STRICT)
    (autograder / "source" / "exam.txt").write_text(
        "# name: the exam's tree\n# weight: 4\n# hidden\n[[[0, 2], [2, 0]], [[3, 1], [0, 1]]]\n"
    )
    strict = gradescope(autograder, PLIES_OPTIONS="--rule strict")
    assert {t["status"] for t in strict["tests"]} == {"passed"}
    nonstrict = gradescope(
        autograder, PLIES_OPTIONS=f"--trees {autograder}/source/exam.txt --only-trees"
    )
    (exam,) = nonstrict["tests"]
    assert (exam["name"], exam["max_score"], exam["visibility"]) == (
        "the exam's tree",
        4.0,
        "after_published",
    )
    assert exam["score"] < 4 and "wrong leaves" in exam["tags"]
    assert STRICT_CAUSE in exam["output"]
    assert nonstrict["score"] == exam["score"]
    assert nonstrict["output"].endswith("its results are shown once the marks are published.")


def test_run_autograder_grades_the_file_the_assignment_names(autograder: Path) -> None:
    renamed = RIGHT.replace("def minimax(", "def alphabeta(").replace("= minimax(", "= alphabeta(")
    (autograder / "submission" / "search.py").write_text(renamed)
    results = gradescope(autograder, PLIES_FILE="search.py", PLIES_FUNCTION="alphabeta")
    assert results["score"] == sum(t["max_score"] for t in results["tests"])


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"alphabeta.py": RIGHT, "notes.txt": "hi"}, "Your submission has no file named "
         "minimax.py (it has: alphabeta.py notes.txt). Submit your code as minimax.py."),
        ({"minimax.py": "def minimax(:\n"}, "minimax.py cannot be loaded: SyntaxError"),
        ({"minimax.py": "def search(node):\n    return 0\n"},
         "the submission defines no function minimax"),
    ],
)  # fmt: skip
def test_a_submission_that_cannot_be_graded_gets_no_marks_and_the_reason(
    autograder: Path, files: dict[str, str], said: str
) -> None:
    for name, text in files.items():
        (autograder / "submission" / name).write_text(text)
    results = gradescope(autograder)
    assert results["score"] == 0 and results["tests"] == []
    assert said in results["output"]
    assert results["output_format"] == "text"


def test_prairielearns_run_sh_writes_its_results(tmp_path: Path) -> None:
    grade = tmp_path / "grade"
    (grade / "student").mkdir(parents=True)
    (grade / "student" / "minimax.py").write_text(STRICT)
    done = run(PRAIRIELEARN_RUN, grade, GRADE_ROOT=str(grade), PLIES_OPTIONS="--rule strict")
    assert done.returncode == 0, done.stderr
    results = json.loads((grade / "results" / "results.json").read_text())
    jsonschema.Draft202012Validator(PRAIRIELEARN).validate(results)
    assert results["gradable"] is True and results["score"] == 1.0
    nonstrict = run(PRAIRIELEARN_RUN, grade, GRADE_ROOT=str(grade))
    assert nonstrict.returncode == 0, nonstrict.stderr
    results = json.loads((grade / "results" / "results.json").read_text())
    jsonschema.Draft202012Validator(PRAIRIELEARN).validate(results)
    assert 0 < results["score"] < 1
    assert STRICT_CAUSE in results["message"]


def test_prairielearn_is_told_a_broken_submission_is_not_gradable(tmp_path: Path) -> None:
    grade = tmp_path / "grade"
    (grade / "student").mkdir(parents=True)
    (grade / "student" / "minimax.py").write_text("def minimax(:\n")
    done = run(PRAIRIELEARN_RUN, grade, GRADE_ROOT=str(grade))
    assert done.returncode == 0, done.stderr
    results = json.loads((grade / "results" / "results.json").read_text())
    jsonschema.Draft202012Validator(PRAIRIELEARN).validate(results)
    assert results["gradable"] is False
    assert "SyntaxError" in results["format_errors"][0]


@pytest.mark.parametrize(
    ("wheels", "said"),
    [
        ((), "no plies wheel (plies-*.whl) in"),
        (("plies-1.0-py3-none-any.whl", "plies-1.1-py3-none-any.whl"), "2 plies wheels in"),
    ],
)
def test_setup_refuses_a_zip_without_one_plies_before_installing_anything(
    tmp_path: Path, wheels: tuple[str, ...], said: str
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for wheel in wheels:
        (source / wheel).write_bytes(b"")
    # an apt-get that installs nothing, in case setup.sh ever reached it here
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "apt-get").write_text("#!/bin/sh\necho 'apt-get was called' >&2\nexit 99\n")
    (fake / "apt-get").chmod(0o755)
    path = f"{fake}{os.pathsep}{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    venv = tmp_path / "plies-venv"
    done = run(SETUP, tmp_path, AUTOGRADER_SOURCE=str(source), PLIES_VENV=str(venv), PATH=path)
    assert (done.returncode, done.stderr.count("\n")) == (1, 1), done.stderr
    assert said in done.stderr
    assert not venv.exists()
