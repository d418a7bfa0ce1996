"""Monte-Carlo tree search in the tree lab: the run and its JSON document, shared by
every shell (``plies tree --algorithm mcts`` now).

>>> from plies.lab import read_tree
>>> from plies.lab._mcts_tree import mcts_document, run_mcts_tree
>>> result = run_mcts_tree(read_tree("[[3,12,8],[2,4,6],[14,5,2]]"), iterations=500, seed=1)
>>> doc = mcts_document(result)
>>> doc["best"], doc["minimax_best"], len(doc["steps"])
('B', ['B'], 200)
"""

from __future__ import annotations

import math
from typing import Any

from plies.trees import (
    MctsChoice,
    MctsResult,
    MctsStep,
    Tree,
    convergence_line,
    exact_values,
    json_number,
    mcts_tree,
    narrate_step,
)

__all__ = ["MCTS_ALGORITHM", "MCTS_STEPS_CAP", "mcts_document", "run_mcts_tree"]

#: The name ``--algorithm`` gives Monte-Carlo tree search on an explicit tree. It is
#: not one of :data:`plies.trees.ALGORITHMS`: those are the exact searches every shell
#: (the web lab's select, its OpenAPI enum, ``--batch``) runs through
#: :class:`~plies.trees.SearchOptions`, and whose JSON holds ``value`` and ``path``.
MCTS_ALGORITHM = "mcts"

#: The most iterations :func:`mcts_document` writes out as steps by default.
MCTS_STEPS_CAP = 200


def run_mcts_tree(
    tree: Tree, *, iterations: int, seed: int | None = None, c: float | None = None
) -> MctsResult:
    """Monte-Carlo tree search (UCT) on ``tree`` (see :func:`plies.trees.mcts_tree`);
    ``seed`` defaults to 0 and ``c`` to sqrt(2)."""
    return mcts_tree(
        tree,
        iterations=iterations,
        seed=0 if seed is None else seed,
        c=math.sqrt(2) if c is None else c,
        keep_steps=MCTS_STEPS_CAP,
    )


def _choice_document(tree: Tree, choice: MctsChoice) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "node": tree.name(choice.node),
        "child": tree.name(choice.child),
        "how": choice.how,
    }
    if choice.how == "ucb":
        doc["ucb"] = [round(s, 6) for s in choice.scores]
    return doc


def _step_document(tree: Tree, step: MctsStep) -> dict[str, Any]:
    return {
        "iteration": step.iteration,
        "selection": [_choice_document(tree, choice) for choice in step.selection],
        "expanded": None if step.expanded is None else tree.name(step.expanded),
        "simulation": [tree.name(n) for n in step.simulation],
        "leaf": tree.leaf_index[step.leaf],
        "value": json_number(step.reward),
        "backup": [
            {"node": tree.name(node), "visits": visits, "value": json_number(mean)}
            for node, visits, mean in step.backup
        ],
        # The same nodes by number (node i of ``nodes``, the drawing's #n{i}): names are
        # unique only when the tree's labels are.
        "ids": {
            "path": [node for node, _, _ in step.backup],
            "expanded": step.expanded,
            "simulation": list(step.simulation),
            "leaf": step.leaf,
        },
        "lines": narrate_step(tree, step),
    }


def _nodes_document(tree: Tree) -> list[dict[str, Any]]:
    """Every node in preorder (node i is the drawing's ``#n{i}``): its ``name``,
    ``kind``, ``parent`` (a number; ``None`` at the root), ``children`` (numbers), its
    ``leaf`` number and ``value`` (leaves only; ``None`` elsewhere) and its exact
    ``minimax_value``."""
    exact = exact_values(tree)
    nodes = []
    for i in range(len(tree)):
        is_leaf = tree.kind[i] == "leaf"
        value = tree.value[i]
        nodes.append(
            {
                "name": tree.name(i),
                "kind": tree.kind[i],
                "parent": None if i == 0 else tree.parent[i],
                "children": list(tree.children[i]),
                "leaf": tree.leaf_index[i] if is_leaf else None,
                "value": json_number(value) if is_leaf and value is not None else None,
                "minimax_value": json_number(exact[i]),
            }
        )
    return nodes


def mcts_document(result: MctsResult, steps: int = MCTS_STEPS_CAP) -> dict[str, Any]:
    """The JSON document of a run: ``algorithm`` (``"mcts"``), ``iterations``,
    ``seed``, ``c``, ``children`` (per root move its ``name``, ``move``, ``index``,
    ``visits``, mean ``value``, ``ucb`` and exact ``minimax_value``), ``best`` and
    ``minimax_best`` (names), ``minimax_value``, ``agrees``, ``convergence`` (the
    line setting the most visited move beside minimax's), ``nodes`` (every node of the
    tree, see :func:`_nodes_document`), and the first ``steps`` iterations as
    ``steps`` (``steps_shown`` says how many), each with its narration ``lines`` and
    its nodes by number (``ids``)."""
    tree = result.tree
    shown = result.steps[: max(steps, 0)]
    return {
        "algorithm": MCTS_ALGORITHM,
        "iterations": result.iterations,
        "seed": result.seed,
        "c": result.c,
        "children": [
            {
                "name": child.name,
                "move": child.move,
                "index": child.index,
                "visits": child.visits,
                "value": None if child.value is None else json_number(child.value),
                "ucb": json_number(round(child.ucb, 6) if math.isfinite(child.ucb) else child.ucb),
                "minimax_value": json_number(child.exact),
            }
            for child in result.children
        ],
        "best": result.best_name,
        "minimax_best": [result.children[i].name for i in result.minimax_best],
        "minimax_value": json_number(result.minimax_value),
        "agrees": result.agrees,
        "convergence": convergence_line(result),
        "nodes": _nodes_document(tree),
        "steps_shown": len(shown),
        "steps": [_step_document(tree, step) for step in shown],
    }
