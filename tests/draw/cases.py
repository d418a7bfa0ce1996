"""Shared trees and the golden-file helper of the drawing tests.

Refresh the golden files after an intended change with

    PLIES_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/draw

and review the diff of tests/draw/golden/ before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from plies.trees import SearchOptions, Tree, TreeResult, parse, search

GOLDEN = Path(__file__).parent / "golden"

#: Textbook trees: name -> (tree text, algorithm).
TEXTBOOK = {
    # AIMA 3rd/4th ed. Figure 5.2 (alpha-beta prunes two leaves of the middle MIN node).
    "aima-5-2": ("[[3,12,8],[2,4,6],[14,5,2]]", "alphabeta"),
    # The labelled tree of many course notes: one cut-off at E, one at C.
    "labelled": ("A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))", "alphabeta"),
    # The same tree by negamax: the drawing must show the same values in MAX's view.
    "labelled-negamax": ("A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))", "negamax"),
    # AIMA Figure 5.11 style chance tree (expectiminimax, no pruning).
    "chance": (
        '{"tree": {"kind": "max", "children": ['
        '{"kind": "chance", "children": [{"p": 0.9, "value": 2}, {"p": 0.1, "value": 3}]},'
        '{"kind": "chance", "children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 4}]}]}}',
        "expectiminimax",
    ),
}


def textbook(name: str) -> tuple[Tree, TreeResult]:
    text, algorithm = TEXTBOOK[name]
    tree = parse(text)
    return tree, search(tree, SearchOptions(algorithm=algorithm))


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with tests/draw/golden/NAME (or rewrite it when refreshing)."""
    path = GOLDEN / name
    if os.environ.get("PLIES_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden file {path}: run with PLIES_UPDATE_GOLDEN=1 to create it")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"
