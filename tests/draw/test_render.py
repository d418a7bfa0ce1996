"""Pictures made by external programs or libraries: Graphviz SVG/PNG, pdflatex, step
frames and animations (PNG and GIF by resvg). scripts/test.sh installs the programs;
without them these tests skip."""

from __future__ import annotations

import importlib.util
import itertools
import math
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from draw.cases import TEXTBOOK, textbook
from plies import draw
from plies.trees import alphabeta
from plies.trees._format import narrate
from plies.trees._random import random_tree

SVG = "{http://www.w3.org/2000/svg}"

needs_graphviz = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz 'dot' is not installed (apt-get install graphviz)"
)
needs_resvg = pytest.mark.skipif(
    importlib.util.find_spec("resvg_py") is None, reason="resvg-py is not installed"
)
needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None,
    reason="pdflatex is not installed (apt-get install texlive-latex-base texlive-pictures)",
)
pytest.importorskip("graphviz", reason="the graphviz package is not installed")


def _node_titles(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {
        g.find(f"{SVG}title").text or ""  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "node"
    }


@needs_graphviz
@pytest.mark.parametrize("name", sorted(TEXTBOOK))
def test_svg_has_every_node(name: str) -> None:
    tree, result = textbook(name)
    for subject in (tree, result):
        titles = _node_titles(draw.to_svg(subject, graphviz=True))
        assert titles == {f"n{i}" for i in range(len(tree))}


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@needs_graphviz
def test_graphviz_png_opens_with_sane_dimensions() -> None:
    _tree, result = textbook("labelled")
    width, height = _png_size(draw.to_png(result, graphviz=True))
    assert 300 < width < 3000 and 200 < height < 2000
    pil = pytest.importorskip("PIL.Image")
    import io

    with pil.open(io.BytesIO(draw.to_png(result, graphviz=True))) as image:
        assert image.size == (width, height)


def _boxes(svg: str) -> list[tuple[float, float, float, float]]:
    """Bounding boxes of every node (its shape and its text, text width estimated)."""
    boxes = []
    root = ET.fromstring(svg)
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "node":
            continue
        xs: list[float] = []
        ys: list[float] = []
        for poly in g.iter(f"{SVG}polygon"):
            for point in (poly.get("points") or "").split():
                x, y = point.split(",")
                xs.append(float(x))
                ys.append(float(y))
        for text in g.iter(f"{SVG}text"):
            x, y = float(text.get("x") or 0), float(text.get("y") or 0)
            size = float(text.get("font-size") or 11)
            half = 0.3 * size * len(text.text or "")
            xs += [x - half, x + half]
            ys += [y - size, y]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


@needs_graphviz
def test_no_overlaps_at_100_leaves() -> None:
    """At 100 leaves every node keeps its own box: no shape or label overlaps another."""
    tree = random_tree(branching=10, depth=2, seed=4, low=-100, high=100)
    assert tree.leaf_count == 100
    boxes = _boxes(draw.to_svg(alphabeta(tree), graphviz=True))
    assert len(boxes) == len(tree)
    boxes.sort()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b[0] >= a[2]:
                break
            assert b[1] >= a[3] or a[1] >= b[3], f"{a} overlaps {b}"


@needs_pdflatex
@pytest.mark.parametrize("name", ["labelled", "chance", "big"])
def test_tikz_compiles(name: str, tmp_path: Path) -> None:
    if name == "big":
        result = alphabeta(random_tree(branching=10, depth=2, seed=4))
    else:
        result = textbook(name)[1]
    (tmp_path / "tree.tex").write_text(draw.to_tikz(result), encoding="utf-8")
    done = subprocess.run(
        # Uncompressed objects, so that the page size can be read from the PDF.
        [
            "pdflatex",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-jobname=tree",
            r"\pdfobjcompresslevel=0 \input{tree.tex}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    pdf = (tmp_path / "tree.pdf").read_bytes()
    assert pdf[:5] == b"%PDF-"
    assert "Overfull" not in done.stdout or name != "labelled"
    # The page fits the picture: leaf slots of 1.6 cm, one leaf wide more, and the
    # borders (the page had 3.6 cm of guessed margins before, 2.6 of them blank).
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert box is not None
    width_cm = float(box.group(1)) / 72 * 2.54
    expected = 1.6 * (result.tree.leaf_count - 1) + 0.8 + 0.8
    assert expected <= width_cm < expected + 1.5, (width_cm, expected)


@pytest.mark.parametrize("fmt", ["svg", pytest.param("png", marks=needs_resvg)])
def test_step_frames(fmt: str, tmp_path: Path) -> None:
    _tree, result = textbook("labelled")
    paths = draw.write_steps(result, tmp_path / "steps", fmt=fmt)
    # Before the search, one frame per narrated step, and the result.
    assert len(paths) == len(narrate(result)) + 2
    assert paths[0].name == f"step-000.{fmt}"
    if fmt == "svg":
        first = ET.fromstring(paths[0].read_text(encoding="utf-8"))
        last = ET.fromstring(paths[-1].read_text(encoding="utf-8"))
        assert "Before the search" in ET.tostring(first, encoding="unicode")
        assert "Done: value 3" in ET.tostring(last, encoding="unicode")
        # Fixed layout: node 5 has the same shape in the same place in every frame.
        shape = f"{SVG}g[@id='n5']/{SVG}polygon"
        assert first.find(f".//{shape}").get("points") == last.find(f".//{shape}").get("points")  # type: ignore[union-attr]
        n7 = f".//{SVG}g[@id='n7']"
        assert "pruned" not in (first.find(n7).get("class") or "")  # type: ignore[union-attr]
        assert "pruned" in (last.find(n7).get("class") or "")  # type: ignore[union-attr]
    else:
        assert _png_size(paths[3].read_bytes())[0] > 200


def _svg_size(text: str) -> tuple[str | None, str | None]:
    root = ET.fromstring(text)
    return root.get("width"), root.get("height")


@pytest.mark.parametrize("fmt", ["svg", pytest.param("png", marks=needs_resvg)])
def test_every_frame_has_one_canvas(fmt: str, tmp_path: Path) -> None:
    """Captions of every length (step 13's is 170 characters) leave the canvas as it
    is: frames of a slide deck or an animation do not jump."""
    _tree, result = textbook("aima-5-2")
    paths = draw.write_steps(result, tmp_path, fmt=fmt)
    if fmt == "svg":
        sizes = {_svg_size(p.read_text(encoding="utf-8")) for p in paths}
    else:
        sizes = {_png_size(p.read_bytes()) for p in paths}
    assert len(sizes) == 1, sizes


def _caption_times(svg: str) -> list[float]:
    """When each caption of an animated SVG appears, in seconds."""
    root = ET.fromstring(svg)
    times = []
    for group in root:
        texts = group.findall(f"{SVG}text")
        if texts and all(t.get("class") == "caption" for t in texts):
            begin = group.find(f"{SVG}set")
            times.append(0.0 if begin is None else float(begin.get("begin", "0s")[:-1]))
    return sorted(times)


def test_animated_svg_has_one_caption_per_step() -> None:
    _tree, result = textbook("labelled")
    svg = draw.animated_svg(result)
    count = len(narrate(result)) + 2
    assert _caption_times(svg) == pytest.approx([k * 1.2 for k in range(count)])


def test_animated_svg_grows_with_nodes_plus_steps() -> None:
    """Each state of a node is drawn once: 1,000 leaves made a 381 MB file when every
    frame held the whole drawing. Here the size per node and step stays flat."""
    sizes = []
    for depth in (2, 3):
        result = alphabeta(random_tree(branching=6, depth=depth, seed=3))
        svg = draw.animated_svg(result, max_frames=10_000)
        sizes.append(len(svg) / (len(result.tree) + len(narrate(result))))
    assert sizes[1] < 1.3 * sizes[0], sizes


@needs_resvg
def test_animated_gif(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    _tree, result = textbook("aima-5-2")
    path = draw.write_animation(tmp_path / "search.gif", result)
    with image.open(path) as gif:
        assert gif.n_frames == len(narrate(result)) + 2


def test_notebook_reprs() -> None:
    tree, result = textbook("labelled")
    for svg in (tree._repr_svg_(), result._repr_svg_()):  # type: ignore[attr-defined]
        root = ET.fromstring(svg)
        ids = {g.get("id") for g in root.iter(f"{SVG}g")}
        assert {f"n{i}" for i in range(len(tree))} <= ids
    assert "value 3" in result._repr_html_()  # type: ignore[attr-defined]


def test_animated_svg_shows_one_state_of_each_part_at_a_time() -> None:
    """Every node and edge has exactly one state on screen at any moment: the spans
    of its states follow each other from 0 s to the end, without gap or overlap."""
    _tree, result = textbook("labelled")
    root = ET.fromstring(draw.animated_svg(result))
    parents = {child: parent for parent in root.iter() for child in parent}
    spans: dict[str, list[tuple[float, float]]] = {}
    for group in root.iter(f"{SVG}g"):
        part = group.get("data-id")
        if part is None:
            continue
        timing = parents[group].find(f"{SVG}set")
        if timing is None:  # one state for the whole animation
            spans.setdefault(part, []).append((0.0, math.inf))
            continue
        begin = float(timing.get("begin", "")[:-1])
        dur = timing.get("dur")
        spans.setdefault(part, []).append((begin, begin + float(dur[:-1]) if dur else math.inf))
    n = len(result.tree)
    assert set(spans) == {f"n{i}" for i in range(n)} | {f"e{i}" for i in range(1, n)}
    for part, times in spans.items():
        times.sort()
        assert times[0][0] == 0 and times[-1][1] == math.inf, part
        for (_b1, e1), (b2, _e2) in itertools.pairwise(times):
            assert e1 == pytest.approx(b2), (part, times)


def _luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    low, high = sorted((_luminance(a), _luminance(b)))
    return (high + 0.05) / (low + 0.05)


def test_greyed_text_is_still_readable() -> None:
    """Text in pruned and unseen parts (the pruning reason on its edge included) at
    WCAG's 4.5:1 at least on what it stands on: the lines' grey was 2.6:1."""
    import re

    from plies.draw._look import COLORS
    from plies.draw._svg import STYLE

    grey = COLORS["pruned_text"]
    for background in ("#ffffff", "#f7f7f7", COLORS["unseen"]):
        assert _contrast(grey, background) >= 4.5, background
    for rule in (".node.pruned text", ".edge.pruned text", ".node.unseen text"):
        fill = re.search(re.escape(rule) + r" \{ fill: (#[0-9a-f]{6}); \}", STYLE)
        assert fill is not None and fill.group(1) == grey, rule
