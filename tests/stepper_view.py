"""Shared by the stepper's browser tests (the page alone and in the lab's frame): where
the drawing, its nodes and the narration are on screen, and the checks that the whole
tree shows, inside its pane and in the window, with the narration beside or below it."""

from __future__ import annotations

from typing import Any

from plies.trees import SearchOptions, TreeResult, parse, search
from plies.trees._random import random_tree

#: The desktop and the phone of the issue.
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"

#: Rectangles in the page's (or the frame's) viewport: [left, top, right, bottom].
GEOMETRY = """() => {
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const pane = document.getElementById('drawing');
  return {
    pane: rect(pane),
    nodes: [...pane.querySelectorAll('g.node')].map(g => [g.id, rect(g)]),
    line: rect(document.getElementById('line')),
    aside: rect(document.querySelector('aside')),
    viewport: [0, 0, window.innerWidth, window.innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    zoom: Number(pane.dataset.zoom),
    step: Number(document.body.dataset.step),
  };
}"""


def textbook_trees() -> dict[str, TreeResult]:
    """AIMA Figure 5.2 and a uniform tree of branching 3 and depth 4 (81 leaves)."""
    aima = search(parse(AIMA), SearchOptions(algorithm="alphabeta"))
    wide = search(random_tree(branching=3, depth=4, seed=1), SearchOptions(algorithm="alphabeta"))
    return {"aima": aima, "b3d4": wide}


def inside(inner: list[float], outer: list[float], slack: float = 0.5) -> bool:
    """Whether the rectangle ``inner`` lies within ``outer`` (to ``slack`` pixels)."""
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two rectangles share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_whole_tree_shows(view: dict[str, Any], where: str) -> None:
    """Every node inside the drawing's pane, the pane and the narration inside the
    viewport (nothing to scroll to), the narration clear of the drawing."""
    outside = [name for name, box in view["nodes"] if not inside(box, view["pane"])]
    assert not outside, f"{where}: nodes outside the drawing pane {view['pane']}: {outside}"
    assert inside(view["pane"], view["viewport"]), f"{where}: the pane {view['pane']} is cut off"
    assert inside(view["line"], view["viewport"]), (
        f"{where}: the narration {view['line']} is cut off"
    )
    assert not overlap(view["aside"], view["pane"]), f"{where}: the narration covers the drawing"
    assert view["zoom"] == 1, f"{where}: the drawing starts zoomed in ({view['zoom']})"
