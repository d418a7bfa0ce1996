"""Text formats against golden files, and the properties every drawing keeps."""

from __future__ import annotations

import csv
import io
import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from draw.cases import TEXTBOOK, check_golden, textbook
from plies import draw
from plies.draw._layout import positions
from plies.trees import SearchOptions, Tree, TreeBuilder, parse, search
from plies.trees._format import narrate
from plies.trees._random import random_tree

NAMES = sorted(TEXTBOOK)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", NAMES)
def test_dot_golden(name: str) -> None:
    tree, result = textbook(name)
    check_golden(f"{name}.dot", draw.to_dot(result))
    check_golden(f"{name}.before.dot", draw.to_dot(tree))


@pytest.mark.parametrize("name", NAMES)
def test_tikz_golden(name: str) -> None:
    _tree, result = textbook(name)
    check_golden(f"{name}.tex", draw.to_tikz(result))


@pytest.mark.parametrize("name", NAMES)
def test_mermaid_golden(name: str) -> None:
    _tree, result = textbook(name)
    check_golden(f"{name}.mmd", draw.to_mermaid(result))


@pytest.mark.parametrize("name", NAMES)
def test_trace_table_golden(name: str) -> None:
    _tree, result = textbook(name)
    check_golden(f"{name}.trace.md", draw.trace_markdown(result))
    check_golden(f"{name}.trace.csv", draw.trace_csv(result))


def test_conventions_in_dot() -> None:
    tree, result = textbook("labelled")
    dot = draw.to_dot(result)
    lines = {line.split(" [")[0].strip(): line for line in dot.splitlines() if " [" in line}
    assert "shape=triangle" in lines["n0"]  # MAX up
    assert "shape=invtriangle" in lines["n1"]  # MIN down
    assert "shape=box" in lines["n3"]  # leaves are boxes with their value
    assert "#1" in lines["n3"]  # evaluation order
    assert "α=3 β=∞" in lines["n0"]  # alpha/beta on the node
    # The edge to the pruned subtree G: dashed, grey, with the inequality.
    assert 'label=" v=1 ≤ α=3"' in lines["n8 -> n12"]
    assert "style=dashed" in lines["n8 -> n12"]
    assert "style=dashed" in lines["n12 -> n13"]  # and the edges below it
    # The principal variation A -> B -> D -> 3 is bold.
    for edge in ("n0 -> n1", "n1 -> n2", "n2 -> n4"):
        assert "penwidth=3" in lines[edge]
    assert "n0 -> n8;" in dot.splitlines()[-9:][0] or "  n0 -> n8;" in dot.splitlines()
    before = draw.to_dot(tree)
    assert "α" not in before and "dashed" not in before and "#1" not in before


def test_chance_is_a_circle_with_probabilities() -> None:
    _tree, result = textbook("chance")
    dot = draw.to_dot(result)
    assert "shape=circle" in dot
    assert 'label=" p=0.9"' in dot


def test_trace_table_rows_follow_the_narration() -> None:
    _tree, result = textbook("labelled")
    rows = list(csv.reader(io.StringIO(draw.trace_csv(result))))
    assert rows[0] == ["step", "node", "event", "alpha", "beta", "value", "reason"]
    assert len(rows) - 1 == len(narrate(result))
    cut = [r for r in rows if r[2] == "cutoff"]
    assert [r[1] for r in cut] == ["E", "C"]
    assert cut[1][6] == "v=1 ≤ α=3: pruned G"


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax"])
@pytest.mark.parametrize("seed", range(12))
def test_replay_ends_where_the_result_is(algorithm: str, seed: int) -> None:
    """Playing the trace back gives every node the value and window the search
    recorded (in MAX's view, negamax included)."""
    tree = random_tree(branching=3, depth=3, seed=seed, ragged=seed % 2 == 1)
    result = search(tree, SearchOptions(algorithm=algorithm, order="random", seed=seed))
    end = list(draw.replay(result))[-1]
    final = draw.final_snapshot(result)
    for node in range(len(tree)):
        if final.status[node] == "pruned":
            assert end.status[node] == "pruned"
            continue
        assert end.value[node] == final.value[node], node
        if tree.kind[node] != "leaf":
            assert (end.alpha[node], end.beta[node]) == (final.alpha[node], final.beta[node])
    assert end.order == final.order
    assert end.reason == final.reason


def test_layout_never_overlaps_at_100_leaves() -> None:
    tree = random_tree(branching=10, depth=2, seed=1, ragged=True)
    where = positions(tree)
    for row in set(r for _x, r in where):
        xs = sorted(x for x, r in where if r == row)
        assert all(b - a >= 1 for a, b in itertools.pairwise(xs))


def test_format_from_extension_and_errors() -> None:
    assert draw.format_for("a.SVG") == "svg"
    assert draw.format_for("a.tikz") == "tex"
    assert draw.format_for("a.txt", "mmd") == "mmd"
    with pytest.raises(draw.DrawError, match=r"a\.gif"):
        draw.format_for("a.gif")


def test_tex_escapes_labels() -> None:
    tree = parse('{"tree": {"kind": "max", "label": "50%_a&b", "children": [1, 2]}}')
    assert r"50\%\_a\&b" in draw.to_tikz(tree)


# What was seen in the pictures ---------------------------------------------------------


def test_pruning_label_sits_on_the_outermost_pruned_edge() -> None:
    """AIMA 5.2: the cut-off at the middle MIN node prunes leaves 4 and 6 (nodes 7
    and 8). The label goes on the edge to node 8, the right end of the dashed fan, so
    the dashed edge to node 8 no longer runs through a label on the edge to node 7."""
    _tree, result = textbook("aima-5-2")
    dot = draw.to_dot(result)
    assert 'n5 -> n8 [label=" v=2 ≤ α=3"' in dot
    assert "n5 -> n7 [style=dashed" in dot


def _segments(root: ET.Element) -> list[tuple[float, float, float, float]]:
    return [
        tuple(float(line.get(k) or 0) for k in ("x1", "y1", "x2", "y2"))  # type: ignore[misc]
        for line in root.iter(f"{SVG}line")
    ]


def _label_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """Estimated boxes of the edge labels (10 px type, 6.2 px a character)."""
    boxes = []
    for group in root.iter(f"{SVG}g"):
        if "edge" not in (group.get("class") or "").split():
            continue
        text = group.find(f"{SVG}text")
        if text is None or not text.text:
            continue
        x, y, width = float(text.get("x") or 0), float(text.get("y") or 0), 6.2 * len(text.text)
        left = x - width if text.get("text-anchor") == "end" else x
        boxes.append((left, y - 9, left + width, y + 1))
    return boxes


def _crosses(box: tuple[float, float, float, float], seg: tuple[float, ...]) -> bool:
    x1, y1, x2, y2 = seg
    for k in range(101):
        x, y = x1 + (x2 - x1) * k / 100, y1 + (y2 - y1) * k / 100
        if box[0] < x < box[2] and box[1] < y < box[3]:
            return True
    return False


@pytest.mark.parametrize("name", [*NAMES, "big", "chance-static"])
def test_edge_labels_cross_no_line_and_stay_on_the_canvas(name: str) -> None:
    """No line of plies' own SVG runs through an edge label (a dashed edge crossed its
    pruning label), and every label is inside the canvas (a chance edge's label ran
    past the right border)."""
    if name == "big":
        result = search(random_tree(branching=10, depth=2, seed=4), SearchOptions())
    elif name == "chance-static":
        result = search(parse(CHANCE_STATIC), SearchOptions(algorithm="expectiminimax"))
    else:
        result = textbook(name)[1]
    root = ET.fromstring(draw.to_svg(result))
    width = float(root.get("width") or 0)
    boxes = _label_boxes(root)
    assert boxes
    for box in boxes:
        assert box[0] >= 0 and box[2] <= width, f"{box} leaves the canvas of width {width}"
        for seg in _segments(root):
            assert not _crosses(box, seg), f"a line {seg} crosses the label at {box}"


CHANCE_STATIC = (
    '{"tree": {"label": "A", "children": [{"kind": "chance", "children": '
    '[{"p": 0.5, "value": 3}, {"p": 0.5, "value": 5}]}, {"kind": "chance", "static": 2, '
    '"children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 20}]}]}, "bounds": [0, 20]}'
)


def test_static_value_of_a_chance_node_is_drawn_after_the_search() -> None:
    result = search(parse(CHANCE_STATIC), SearchOptions(algorithm="expectiminimax"))
    for text in (
        draw.to_svg(result),
        draw.to_dot(result),
        draw.to_mermaid(result),
        draw.to_html(result),
    ):
        assert "e=2" in text
    assert "e=2" in draw.to_tikz(result)


def test_hash_k_is_the_evaluation_order_everywhere() -> None:
    """``#k`` is the k-th leaf evaluated, in every format. In AIMA 5.2 leaf 7 of the
    input (14) is the 5th evaluated: it shows #5, and no drawing shows #7 or more
    (only 7 leaves are evaluated)."""
    _tree, result = textbook("aima-5-2")
    texts = {
        "dot": draw.to_dot(result),
        "svg": draw.to_svg(result),
        "mmd": draw.to_mermaid(result),
        "tex": draw.to_tikz(result).replace("\\#", "#"),
        "html": draw.to_html(result),
    }
    for fmt, text in texts.items():
        numbers = {int(m) for m in re.findall(r"#(\d+)\b(?![0-9a-fA-F])", text) if len(m) < 3}
        assert numbers == set(range(1, 8)), (fmt, numbers)
    assert 'label=<D1<BR/>14<BR/><FONT POINT-SIZE="9">#5</FONT>>' in texts["dot"]


# Control characters ----------------------------------------------------------------


def _tree_with_controls() -> Tree:
    """Labels and moves with control characters, as a program can still set them on a
    built tree (the parsers and TreeBuilder refuse them)."""
    builder = TreeBuilder()
    root = builder.add(-1, kind="max")
    child = builder.add(root, kind="min")
    builder.add(child, value=3)
    builder.add(child, value=5)
    builder.add(root, value=1)
    tree = builder.build()
    tree.label[0] = "ro\x00ot\x1b[31m"
    tree.label[1], tree.move[1] = "b\nc\x7f", "m\x01"
    tree.label[2] = "l\teaf\x85"
    return tree


def test_control_characters_are_shown_not_passed_on() -> None:
    result = search(_tree_with_controls(), SearchOptions())
    for fmt in ("dot", "svg", "tex", "mmd", "html"):
        text = draw.render(result, fmt).decode("utf-8")
        bad = [ch for ch in text if (ord(ch) < 32 and ch not in "\n") or 0x7F <= ord(ch) < 0xA0]
        assert not bad, (fmt, bad)
        assert "␀" in text and "␛" in text and "␊" in text, fmt
    ET.fromstring(draw.to_svg(result))  # still well-formed XML
    rows = draw.trace_csv(result)
    assert "\x00" not in rows and "␀" in rows


def test_notebook_view_of_a_huge_tree_is_a_note() -> None:
    tree = random_tree(branching=10, depth=5, seed=1)  # 111,111 nodes
    svg = draw.repr_svg(tree)
    assert len(svg) < 1000 and "over the limit of 20,000 nodes" in svg


def test_iter_steps_gives_what_changed_at_each_step() -> None:
    """The step data for a page: nothing changes at step 0 (the drawing shows it);
    then each step names the nodes it changed, and playing the changes forward ends
    on the drawing of the finished search."""
    _tree, result = textbook("labelled")
    steps = list(draw.iter_steps(result))
    assert len(steps) == len(narrate(result)) + 2
    assert steps[0]["nodes"] == {} and steps[0]["line"] == "Before the search"
    assert steps[1]["current"] == 0 and set(steps[1]["nodes"]) == {"0"}
    played: dict[str, list[str]] = {}
    for step in steps:
        played.update(step["nodes"])
    end = ET.fromstring(draw.to_svg(result))
    for group in end.iter(f"{SVG}g"):
        gid = group.get("id") or ""
        if gid.startswith("n") and gid[1:] in played:
            assert played[gid[1:]][0] == group.get("class"), gid
