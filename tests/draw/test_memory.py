"""Big trees: what the step drawings keep in memory, and what is refused up front.

Each job runs ``plies tree`` in a fresh process under a small Python parent that
reports the child's peak resident memory (``ru_maxrss`` of ``RUSAGE_CHILDREN``), so the
figure is the whole process: interpreter, tree, search trace and drawing. Measured on
the development machine (minimax, so nothing is pruned and the trace is longest):

- 10,000 leaves (11,111 nodes, 23,332 steps): the trace table peaks at about 35 MB,
  the HTML stepper at about 100 MB (before: 2.85 GB for the trace table).
- 100,000 leaves: the trace table about 105 MB in 4 s; the HTML stepper is refused in
  about a second, before any drawing (with ``--max-nodes 200000`` it is drawn: 800 MB,
  11 s, a 132 MB page).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import plies
from plies import draw
from plies.cli import main
from plies.errors import LimitError
from plies.trees import SearchOptions, search
from plies.trees._random import random_tree

MB = 1024  # ru_maxrss is in kilobytes on Linux
SRC = str(Path(plies.__file__).resolve().parents[1])

#: The parent: runs its arguments as a child and prints the child's peak RSS in kB.
PARENT = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "sys.stderr.write(done.stderr)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(done.returncode)\n"
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux")


def _plies_tree(*args: str) -> tuple[int, int, str]:
    """Run ``plies tree ARGS`` in a fresh process: exit status, peak RSS in kB, stderr."""
    done = subprocess.run(
        [sys.executable, "-c", PARENT, sys.executable, "-m", "plies", "tree", *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        check=False,
    )
    return done.returncode, int(done.stdout.split()[-1]), done.stderr


def _random(depth: int) -> list[str]:
    """A random tree of 10**depth leaves, searched by minimax: no pruning, so the
    trace and the step count are the longest possible."""
    tree = ["--random", "--branching", "10", "--depth", str(depth), "--seed", "1"]
    return [*tree, "--algorithm", "minimax", "--json"]


@pytest.mark.parametrize("output", ["trace.csv", "trace.md", "steps.html"])
def test_10000_leaves_stay_small(output: str, tmp_path: Path) -> None:
    """The trace table and the HTML stepper of 10,000 leaves (23,332 steps) need about
    35 and 100 MB for the whole process; copying every node at every step needed
    2.85 GB for the trace table."""
    path = tmp_path / output
    option = "--draw" if output.endswith(".html") else "--trace-table"
    status, peak, err = _plies_tree(*_random(4), option, str(path))
    assert status == 0, err
    assert peak < 300 * MB, f"peak {peak // MB} MB"
    if output == "trace.csv":
        rows = path.read_text(encoding="utf-8").count("\n") - 1
        assert rows == 23_332  # every step is there
    if output == "steps.html":
        assert path.read_text(encoding="utf-8").count('{"line":') == 23_334


def test_100000_leaves_trace_table_is_written_small(tmp_path: Path) -> None:
    """The trace table is streamed: 100,000 leaves (233,000 steps) in about 105 MB
    (killed at 24 GB before)."""
    path = tmp_path / "trace.csv"
    status, peak, err = _plies_tree(*_random(5), "--trace-table", str(path))
    assert status == 0, err
    assert peak < 500 * MB, f"peak {peak // MB} MB"
    assert path.stat().st_size > 6_000_000  # a row per step, nodes named B1, PKI3, ...


@pytest.mark.parametrize("output", ["x.html", "x.png", "x.tex"])
def test_100000_leaves_drawing_is_refused_in_one_line(output: str, tmp_path: Path) -> None:
    """Every picture of 100,000 leaves is refused with one line naming the limit and
    the option, and the process stays small: no drawing work started."""
    path = tmp_path / output
    status, peak, err = _plies_tree(*_random(5), "--draw", str(path))
    assert status == 1
    assert len(err.strip().splitlines()) == 1, err
    assert "over the limit" in err and "Traceback" not in err
    assert ("--max-nodes" in err) or ("--dpi" in err) or ("draw .svg or .html" in err)
    assert not path.exists()
    assert peak < 300 * MB, f"peak {peak // MB} MB"


def test_refusal_comes_before_any_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size check runs first: no renderer is called for a tree over the limit."""

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("a renderer ran for a tree over the limit")

    for name in ("svg_body", "to_svg_document"):
        monkeypatch.setattr(f"plies.draw._svg.{name}", must_not_run)
    monkeypatch.setattr("plies.draw._html.svg_body", must_not_run)
    monkeypatch.setattr("plies.draw.to_svg_document", must_not_run)
    args = ["--random", "--branching", "10", "--depth", "3", "--seed", "1", "--json"]
    for output in ("x.html", "x.svg"):
        status = main(["tree", *args, "--draw", str(tmp_path / output), "--max-nodes", "1000"])
        err = capsys.readouterr().err
        assert status == 1
        assert "a " in err and "1,111 nodes is over the limit of 1,000 nodes" in err


def test_library_limits_raise_limit_error() -> None:
    result = search(random_tree(branching=10, depth=3, seed=2), SearchOptions())
    with pytest.raises(LimitError, match="over the limit of 500"):
        draw.animated_svg(result)  # 1,000 leaves: more frames than the default allows
    with pytest.raises(LimitError, match=r"max_nodes="):
        draw.to_svg(result, max_nodes=100)
    with pytest.raises(LimitError, match=r"at 96 dpi is over the limit of 32,767 pixels a side"):
        draw.to_png(result)
    assert draw.to_svg(result).startswith("<svg")  # 1,111 nodes: within the default


def test_the_largest_png_stays_small(tmp_path: Path) -> None:
    """The largest PNG plies draws (just under 25 million pixels: 256 leaves 8 deep at
    110 dpi, 22,362 x 1,100) peaks at about 230 MB for the whole process; one of 46
    million pixels took 390 MB and 6 s, and resvg ends the process when an allocation
    fails, so the cap is checked before it runs."""
    pytest.importorskip("resvg_py", reason="resvg-py is not installed")
    path = tmp_path / "x.png"
    tree = ["--random", "--branching", "2", "--depth", "8", "--seed", "1", "--json"]
    status, peak, err = _plies_tree(*tree, "--draw", str(path), "--dpi", "110")
    assert status == 0, err
    assert int.from_bytes(path.read_bytes()[16:20], "big") == 22_362
    assert peak < 350 * MB, f"peak {peak // MB} MB"
    status, _peak, err = _plies_tree(*tree, "--draw", str(path), "--dpi", "130")
    assert status == 1 and "over the limit of 25 million" in err, err
