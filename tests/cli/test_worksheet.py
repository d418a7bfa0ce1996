"""``plies worksheet``: the files it writes, ``answers.json`` equal to what ``plies
tree --json`` prints for each tree, and one-line errors."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run


def test_moodle_and_qti_are_written_with_the_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "quiz"
    status, printed, err = run(
        capsys, "worksheet", "--count", "2", "--seed", "3", "--out", str(out),
        "--format", "moodle,qti", "--root", "min", "--strict",
    )  # fmt: skip
    assert status == 0 and err == ""
    names = ["answers.json", "moodle.xml", "qti.zip"]
    assert printed.split() == [str(out / name) for name in names]
    assert (out / "moodle.xml").read_bytes().startswith(b"<?xml")
    assert "imsmanifest.xml" in zipfile.ZipFile(out / "qti.zip").namelist()
    assert not (out / "worksheet.pdf").exists()


def test_answers_json_holds_what_plies_tree_json_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sheet"
    argv = ["--count", "2", "--seed", "4", "--out", str(out), "--format", "moodle"]
    run(capsys, "worksheet", *argv, "--root", "min", "--strict", "--cutoffs", "2")
    sheet = json.loads((out / "answers.json").read_text(encoding="utf-8"))
    assert sheet["seed"] == 4
    assert sheet["shape"]["root"] == "min"
    for exercise in sheet["exercises"]:
        status, printed, _ = run(
            capsys, "tree", exercise["tree"], "--root", "min", "--strict", "--json"
        )
        assert status == 0
        assert exercise["search"] == json.loads(printed)
        assert exercise["search"]["cutoffs"] >= 2
        assert exercise["key"]["rule"] == "strict"


def test_the_same_seed_writes_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        run(capsys, "worksheet", "--count", "3", "--seed", "9", "--out", str(tmp_path / name),
            "--format", "moodle", "--format", "qti")  # fmt: skip
    for name in ("answers.json", "moodle.xml", "qti.zip"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize(
    "options",
    [
        ["--count", "0"],
        ["--count", "201"],
        ["--count", "2", "--branching", "4", "--depth", "4"],
        ["--count", "2", "--depth", "1"],
        ["--count", "2", "--depth", "2", "--cutoffs", "9"],
        ["--count", "2", "--chance", "--cutoffs", "1"],
        ["--count", "2", "--format", "pdf,docx"],
        ["--count", "2", "--values", "5,1"],
        ["--count", "2", "--seed", "x"],
    ],
)
def test_a_bad_count_or_shape_is_one_line(
    options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["worksheet", "--seed", "1", "--out", str(tmp_path / "out"), *options]
    assert_one_line_error(capsys, argv)
    assert not (tmp_path / "out").exists()


def test_the_missing_pdflatex_message_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    status, out, err = run(
        capsys, "worksheet", "--count", "1", "--seed", "1", "--out", str(tmp_path / "o")
    )
    assert (status, out) == (1, "")
    assert len(err.splitlines()) == 1 and err.startswith("error: pdflatex not found")
    assert "apt-get install texlive-latex-base texlive-pictures" in err
