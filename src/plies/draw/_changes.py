"""What each step of a search changes in a drawing, for the pictures that play a
search: the HTML stepper, the animated SVG, step frames, and a web app serving steps.

:func:`track` follows :func:`~plies.draw._state.replay` and reports, per step, only the
nodes and edges whose drawn state changed. Memory stays proportional to nodes + steps:
one current state per node, and per step only what changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from plies.draw._look import edge_look, node_look, visible
from plies.draw._state import Snapshot, nice, replay
from plies.draw._svg import edge_classes, node_classes, value_text
from plies.trees import Tree, TreeResult

__all__ = ["node_path", "result_steps", "step_data", "track"]

N = TypeVar("N")
E = TypeVar("E")


def track(
    tree: Tree,
    snaps: Iterable[Snapshot],
    node_state: Callable[[Tree, int, Snapshot], N],
    edge_state: Callable[[Tree, int, Snapshot], E],
) -> Iterator[tuple[Snapshot, dict[int, N], dict[int, E]]]:
    """Per snapshot, the nodes and edges whose state (as the two functions draw it)
    differs from the previous snapshot. The first snapshot reports every node and
    every edge (edges by the id of their lower node, 1 to n-1)."""
    n = len(tree)
    nodes: list[N] = []
    edges: dict[int, E] = {}
    previous = -1
    for snap in snaps:
        if not nodes or snap.changed is None:
            nodes = [node_state(tree, i, snap) for i in range(n)]
            edges = {i: edge_state(tree, i, snap) for i in range(1, n)}
            previous = snap.current
            yield snap, dict(enumerate(nodes)), dict(edges)
            continue
        changed_nodes: dict[int, N] = {}
        changed_edges: dict[int, E] = {}
        # Only nodes the step touched (and the old and new current node) can change.
        for i in sorted({*snap.changed, previous, snap.current}):
            if i < 0:
                continue
            state = node_state(tree, i, snap)
            if state != nodes[i]:
                nodes[i] = changed_nodes[i] = state
            if i:
                edge = edge_state(tree, i, snap)
                if edge != edges[i]:
                    edges[i] = changed_edges[i] = edge
        previous = snap.current
        yield snap, changed_nodes, changed_edges


def _node_state(tree: Tree, node: int, snap: Snapshot) -> tuple[str, str, str]:
    look = node_look(tree, node, snap)
    return (node_classes(look), value_text(tree, node, look), look.beside)


def _edge_state(tree: Tree, node: int, snap: Snapshot) -> tuple[str, str]:
    look = edge_look(tree, node, snap)
    return (edge_classes(look), look.label)


def node_path(tree: Tree, snap: Snapshot) -> list[str]:
    """The nodes from the root to the current one with their windows and values (at
    the end: the principal variation with its values)."""
    if snap.current < 0:
        return [visible(f"{tree.name(n)} = {nice(snap.value[n])}") for n in sorted(snap.pv)]
    chain = []
    node = snap.current
    while node >= 0:
        chain.append(node)
        node = tree.parent[node]
    rows = []
    for node in reversed(chain):
        kind = tree.kind[node]
        if kind == "leaf":
            rows.append(visible(f"leaf {tree.name(node)} = {nice(snap.value[node])}"))
            continue
        value = "" if snap.value[node] is None else f"  v={nice(snap.value[node])}"
        rows.append(
            visible(
                f"{tree.name(node)} {kind.upper()}  α={nice(snap.alpha[node])} "
                f"β={nice(snap.beta[node])}{value}"
            )
        )
    return rows


def step_data(tree: Tree, snaps: Iterable[Snapshot]) -> Iterator[dict[str, Any]]:
    """JSON-ready steps for a page that plays a search on plies' own SVG drawing
    (:func:`plies.draw._svg.svg_body` of the first snapshot): per step the narration
    ``line``, the ``current`` node id (-1: none), the ``path`` rows, and the changed
    ``nodes`` (id -> [classes, value text, note]) and ``edges`` (id -> [classes,
    label]). Step 0 changes nothing: the drawing already shows it."""
    for k, (snap, nodes, edges) in enumerate(track(tree, snaps, _node_state, _edge_state)):
        yield {
            "line": visible(snap.line),
            "current": snap.current,
            "path": node_path(tree, snap),
            "nodes": {} if k == 0 else {str(i): list(s) for i, s in nodes.items()},
            "edges": {} if k == 0 else {str(i): list(s) for i, s in edges.items()},
        }


def result_steps(result: TreeResult) -> Iterator[dict[str, Any]]:
    """:func:`step_data` of a traced search, one step at a time."""
    return step_data(result.tree, replay(result))
