"""``plies tree`` drawing options: every format from the command line, the search
options reaching the drawing, and one-line errors for bad input."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

from plies.cli import main

LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


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


@pytest.mark.parametrize("ext", ["svg", "png"])
def test_draw_picture_formats(ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if ext == "png":
        pytest.importorskip("resvg_py", reason="resvg-py is not installed")
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


def test_png_needs_no_graphviz(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PNG drawings, PNG frames and GIFs come from plies' own SVG (resvg): no 'dot'
    and no graphviz package needed (it said "needs the graphviz package")."""
    pytest.importorskip("resvg_py", reason="resvg-py is not installed")
    pytest.importorskip("PIL", reason="Pillow is not installed")
    monkeypatch.setenv("PATH", str(tmp_path))  # no 'dot' anywhere
    monkeypatch.setitem(sys.modules, "graphviz", None)  # and no graphviz package
    png, frames, gif = tmp_path / "tree.png", tmp_path / "frames", tmp_path / "a.gif"
    args = ["--draw", str(png), "--steps", str(frames), "--steps-format", "png"]
    status, _out, err = run(capsys, LABELLED, *args, "--animate", str(gif))
    assert status == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG" and gif.read_bytes()[:3] == b"GIF"
    assert len(list(frames.glob("step-*.png"))) == 29


def test_missing_resvg_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    status, _out, err = run(capsys, LABELLED, "--draw", str(tmp_path / "tree.png"))
    assert status == 1
    assert "pip install 'plies[draw]'" in err and len(err.strip().splitlines()) == 1


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


AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"


def test_steps_replace_their_own_stale_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second run into the same DIR leaves no frame of the first behind: 29 frames
    of the labelled tree, then 27 of AIMA 5.2."""
    frames = tmp_path / "frames"
    assert run(capsys, LABELLED, "--steps", str(frames))[0] == 0
    assert len(list(frames.iterdir())) == 29
    status, _out, err = run(capsys, AIMA, "--steps", f"{frames}/")
    assert status == 0, err
    assert sorted(p.name for p in frames.iterdir()) == [f"step-{k:03d}.svg" for k in range(27)]
    # One slash, also when DIR was given with one ("wrote frames//" before).
    assert f"wrote {frames}/ (27 frames)" in err and "//" not in err


def test_steps_refuse_a_directory_with_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file plies did not write is never overwritten or removed, and nothing is
    written at all: the check runs before the first file (--draw too)."""
    frames = tmp_path / "slides"
    frames.mkdir()
    (frames / "notes.txt").write_text("mine", encoding="utf-8")
    (frames / "step-000.svg").write_text("an old frame", encoding="utf-8")
    drawing = tmp_path / "tree.svg"
    status, _out, err = run(capsys, LABELLED, "--draw", str(drawing), "--steps", str(frames))
    assert status == 1
    assert "holds 'notes.txt'" in err and len(err.strip().splitlines()) == 1
    assert (frames / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (frames / "step-000.svg").read_text(encoding="utf-8") == "an old frame"
    assert not drawing.exists()


BIG = ["--random", "--branching", "10", "--depth", "3", "--seed", "1"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--steps", "frames"], "--steps would have 823 frames, over the limit of 500; "),
        (["--animate", "a.svg"], "an animation would have 823 frames, over the limit of 500"),
        (["--draw", "x.png"], "a PNG of 76,060 x 440 pixels at 96 dpi is over the limit of 32,767"),
        (["--animate", "a.gif"], "a GIF frame of 76,060 x 440 pixels at 96 dpi is over the"),
        (["--steps", "f", "--steps-format", "png"], "a PNG frame of 76,060 x 440 pixels"),
        (["--draw", "x.mmd"], "a Mermaid chart of 1,111 nodes is over the limit of 500 nodes"),
        (["--draw", "x.tex"], "over the limit of 350 leaves"),
    ],
)
def test_big_jobs_are_refused_before_any_work(
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,000 leaves: 823 frames (before: 1,139 frames written without a word), a PNG
    76,060 pixels wide, a Mermaid chart GitHub would not render. Refused with one line
    naming the limit and the option, before any drawing work (and before the search)."""
    monkeypatch.chdir(tmp_path)

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("a renderer ran for a job over the limit")

    monkeypatch.setattr("plies.draw._dot.render_dot", must_not_run)
    monkeypatch.setattr("plies.draw.render_dot", must_not_run)
    monkeypatch.setattr("plies.draw.svg_to_png", must_not_run)
    status, _out, err = run(capsys, *BIG, "--json", *args)
    assert status == 1
    assert message in err, err
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_gif_of_100_leaves_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 leaves made a GIF in 81 s and 3.7 GB; now refused before any frame is
    drawn, pointing at --dpi and the SVG animation."""
    monkeypatch.setattr("plies.draw._steps.svg_to_png", lambda *a, **k: 1 / 0)
    small = ["--random", "--branching", "10", "--depth", "2", "--seed", "1", "--json"]
    status, _out, err = run(capsys, *small, "--animate", str(tmp_path / "a.gif"))
    assert status == 1
    assert "over the limit of 100 million" in err and "--dpi" in err and "FILE.svg" in err
    assert not (tmp_path / "a.gif").exists()


def test_max_frames_and_max_nodes_raise_the_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anim = tmp_path / "a.svg"
    status, _out, err = run(capsys, *BIG, "--json", "--animate", str(anim), "--max-frames", "900")
    assert status == 0, err
    assert anim.stat().st_size < 5_000_000  # 1,000 leaves: 381 MB when frames were copies
    chart = tmp_path / "x.mmd"
    status, _out, err = run(capsys, *BIG, "--json", "--draw", str(chart), "--max-nodes", "2000")
    assert status == 0, err


def test_dpi_sets_the_png_resolution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """96 dpi draws the SVG's pixels one for one; 48 at half the size, 192 at twice."""
    pytest.importorskip("resvg_py", reason="resvg-py is not installed")
    svg, low, high = tmp_path / "tree.svg", tmp_path / "low.png", tmp_path / "high.png"
    assert run(capsys, LABELLED, "--draw", str(svg))[0] == 0
    assert run(capsys, LABELLED, "--draw", str(low), "--dpi", "48")[0] == 0
    assert run(capsys, LABELLED, "--draw", str(high), "--dpi", "192")[0] == 0
    width = int(svg.read_text(encoding="utf-8").split('width="', 1)[1].split('"', 1)[0])
    assert int.from_bytes(low.read_bytes()[16:20], "big") == width // 2
    assert int.from_bytes(high.read_bytes()[16:20], "big") == 2 * width
