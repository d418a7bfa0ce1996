"""Text formats against golden files, and the properties every drawing keeps."""

from __future__ import annotations

import csv
import io
import itertools

import pytest

from draw.cases import TEXTBOOK, check_golden, textbook
from plies import draw
from plies.draw._layout import positions
from plies.trees import SearchOptions, parse, search
from plies.trees._format import narrate
from plies.trees._random import random_tree

NAMES = sorted(TEXTBOOK)


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
