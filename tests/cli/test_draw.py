"""``plies tree`` drawing options: every format from the command line, the search
options reaching the drawing, and one-line errors for bad input."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest

from plies.cli import main

LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"
has_dot = shutil.which("dot") is not None


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["tree", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("ext", ["dot", "tex", "mmd", "html"])
def test_draw_text_formats(ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"tree.{ext}"
    status, out, err = run(capsys, LABELLED, "--draw", str(path))
    assert status == 0, err
    assert f"wrote {path}" in err
    assert "Principal variation" in out  # the usual report still prints
    expected = r"$\le$ $\alpha$=3" if ext == "tex" else "≤ α=3"
    assert expected in path.read_text(encoding="utf-8")


@pytest.mark.skipif(not has_dot, reason="Graphviz 'dot' is not installed")
@pytest.mark.parametrize("ext", ["svg", "png"])
def test_draw_graphviz_formats(
    ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"tree.{ext}"
    assert run(capsys, LABELLED, "--draw", str(path))[0] == 0
    assert path.stat().st_size > 1000


def test_format_overrides_the_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tree.txt"
    assert run(capsys, LABELLED, "--draw", str(path), "--format", "mmd")[0] == 0
    assert path.read_text(encoding="utf-8").startswith("flowchart TD")


def test_before_has_no_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tree.dot"
    assert run(capsys, LABELLED, "--draw", str(path), "--before")[0] == 0
    text = path.read_text(encoding="utf-8")
    assert "α" not in text and "dashed" not in text


def test_search_options_reach_the_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given, best = tmp_path / "given.dot", tmp_path / "best.dot"
    assert run(capsys, LABELLED, "--draw", str(given))[0] == 0
    assert run(capsys, LABELLED, "--draw", str(best), "--algorithm", "minimax")[0] == 0
    assert "dashed" in given.read_text(encoding="utf-8")
    assert "dashed" not in best.read_text(encoding="utf-8")  # minimax prunes nothing
    root_min = tmp_path / "min.dot"
    assert run(capsys, LABELLED, "--root", "min", "--draw", str(root_min))[0] == 0
    assert "n0 [shape=invtriangle" in root_min.read_text(encoding="utf-8")


@pytest.mark.parametrize("ext", ["md", "csv"])
def test_trace_table(ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"trace.{ext}"
    assert run(capsys, LABELLED, "--trace-table", str(path), "--no-narrate")[0] == 0
    text = path.read_text(encoding="utf-8")
    if ext == "csv":
        rows = list(csv.reader(text.splitlines()))
        assert rows[0][0] == "step" and len(rows) == 28
    else:
        assert text.startswith("| step | node | event | alpha | beta | value | reason |")


def test_animate_svg_and_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    anim = tmp_path / "search.svg"
    assert run(capsys, LABELLED, "--animate", str(anim), "--json")[0] == 0
    assert "<set " in anim.read_text(encoding="utf-8")
    if has_dot:
        status, _out, err = run(capsys, LABELLED, "--steps", str(tmp_path / "frames"))
        assert status == 0, err
        assert len(list((tmp_path / "frames").glob("step-*.svg"))) == 29


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--draw", "tree.gif"], "cannot tell the drawing format"),
        (["--draw", "missing-dir/tree.dot"], "cannot write"),
        (["--format", "svg"], "give --draw too"),
        (["--before"], "give --draw FILE too"),
        (["--animate", "a.mp4"], "--animate writes .svg or .gif"),
        (["--trace-table", "t.xlsx"], "--trace-table writes .md or .csv"),
    ],
)
def test_errors_are_one_line(
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _out, err = run(capsys, LABELLED, *args)
    assert status == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_missing_graphviz_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no 'dot' anywhere
    status, _out, err = run(capsys, LABELLED, "--draw", str(tmp_path / "tree.png"))
    assert status == 1
    assert "Graphviz" in err and len(err.strip().splitlines()) == 1


def test_svg_needs_no_graphviz(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare install draws SVG: plies' own renderer, no Graphviz program or package."""
    monkeypatch.setenv("PATH", str(tmp_path))  # no 'dot' anywhere
    monkeypatch.setitem(sys.modules, "graphviz", None)  # and no graphviz package
    path = tmp_path / "tree.svg"
    status, _out, err = run(capsys, LABELLED, "--draw", str(path))
    assert status == 0, err
    assert 'id="n14"' in path.read_text(encoding="utf-8")
