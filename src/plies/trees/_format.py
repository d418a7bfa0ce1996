"""Writing trees and results out: a notation that reads back in, strict JSON for
programs and graders, and the numbered plain-English narration of a search."""

from __future__ import annotations

import json
import math
from typing import Any

from plies.trees._model import Number, Tree, format_number
from plies.trees._result import Backup, Enter, Evaluate, Event, Exit, Static, TreeResult

__all__ = [
    "format_tree",
    "json_number",
    "narrate",
    "narrate_event",
    "narrated_events",
    "result_to_json",
    "tree_to_json",
]

_PLAIN_LABEL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789'"


def json_number(x: Number | None) -> Number | str | None:
    """A value for strict JSON (RFC 8259): infinities become ``"inf"``/``"-inf"``."""
    if x is None:
        return None
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x


def _needs_json(tree: Tree) -> bool:
    """Whether the bracket notation would lose something about ``tree``."""
    if tree.has_chance or tree.bounds is not None:
        return True
    if any(s is not None for s in tree.static) or any(m is not None for m in tree.move):
        return True
    for label in tree.label:
        if label is not None and (
            not label or label[0].isdigit() or any(ch not in _PLAIN_LABEL for ch in label)
        ):
            return True
    # Kinds must alternate by depth from the root for brackets to say them.
    root = tree.kind[0]
    for node in range(1, len(tree)):
        k = tree.kind[node]
        if k != "leaf" and (k == root) != (tree.depth[node] % 2 == 0):
            return True
    return False


def format_tree(tree: Tree, notation: str = "auto") -> str:
    """Write ``tree`` so that :func:`plies.trees.parse` reads it back.

    ``notation`` is ``brackets`` (nested lists, labelled where the tree has labels),
    ``json``, or ``auto``: brackets unless the tree has something only JSON can say
    (chance nodes, static values, moves, non-alternating kinds).
    """
    if notation == "auto":
        notation = "json" if _needs_json(tree) else "brackets"
    if notation == "json":
        return json.dumps(tree_to_json(tree), separators=(",", ":"))
    if notation != "brackets":
        raise ValueError(f"cannot write notation {notation!r}")
    labelled = tree.has_labels
    parts: list[str] = []
    children, label, value = tree.children, tree.label, tree.value
    open_, close = ("(", ")") if labelled else ("[", "]")
    # Explicit stack: ints are nodes to write, strings are text to emit.
    stack: list[int | str] = [0]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        name = label[item]
        kids = children[item]
        if not kids:
            v = value[item]
            assert v is not None
            parts.append(f"{name}:{format_number(v)}" if name else format_number(v))
            continue
        parts.append(f"{name or ''}{open_}")
        stack.append(close)
        for i in range(len(kids) - 1, -1, -1):
            stack.append(kids[i])
            if i:
                stack.append(",")
    return "".join(parts)


def tree_to_json(tree: Tree) -> dict[str, Any]:
    """The JSON document form of ``tree`` (see :func:`plies.trees.parse`)."""
    objects: list[dict[str, Any]] = []
    for node in range(len(tree)):
        obj: dict[str, Any] = {}
        if tree.label[node] is not None:
            obj["label"] = tree.label[node]
        if tree.move[node] is not None:
            obj["move"] = tree.move[node]
        parent = tree.parent[node]
        if parent >= 0 and tree.kind[parent] == "chance":
            obj["p"] = tree.probability[node]
        if tree.kind[node] == "leaf":
            obj["value"] = json_number(tree.value[node])
        else:
            obj["kind"] = tree.kind[node]
            if tree.static[node] is not None:
                obj["static"] = json_number(tree.static[node])
            obj["children"] = []
        if parent >= 0:
            # A leaf with nothing but a value is written as the bare number.
            plain = list(obj) == ["value"]
            objects[parent]["children"].append(obj["value"] if plain else obj)
        objects.append(obj)
    doc: dict[str, Any] = {"tree": objects[0]}
    if tree.bounds is not None:
        doc["bounds"] = [json_number(tree.bounds[0]), json_number(tree.bounds[1])]
    return doc


def result_to_json(result: TreeResult, *, nodes: bool = True) -> dict[str, Any]:
    """The result as a JSON-ready dict: ``value``, ``bound``, ``path``, ``leaf_count``,
    ``evaluated`` (leaf numbers in evaluation order), statistics and, with ``nodes``,
    one entry per node with its path, label, kind, alpha/beta in and out, value,
    status and reason."""
    tree = result.tree
    opts = result.options
    doc: dict[str, Any] = {
        "value": json_number(result.value),
        "bound": result.bound,
        "path": result.path,
        "path_labels": [tree.label[n] for n in result.pv[1:]],
        "leaf_count": tree.leaf_count,
        "evaluated": result.evaluated,
        "evaluated_count": result.evaluated_count,
        "nodes_visited": result.nodes_visited,
        "cutoffs": result.cutoffs,
        "algorithm": opts.algorithm,
        "order": opts.order,
        "strict": opts.strict,
        "fail": "soft" if opts.fail_soft else "hard",
        "window": [json_number(opts.window[0]), json_number(opts.window[1])],
        "depth_limit": opts.depth,
    }
    if opts.order == "random":
        doc["seed"] = opts.seed
    if nodes:
        paths = tree.paths()
        if paths is None:
            doc["paths_omitted"] = "the tree is too deep to list every node's path"
        doc["nodes"] = [
            {
                "id": n,
                "parent": tree.parent[n],
                "path": None if paths is None else list(paths[n]),
                "label": tree.label[n],
                "kind": tree.kind[n],
                "alpha_in": json_number(result.alpha_in[n]),
                "beta_in": json_number(result.beta_in[n]),
                "alpha_out": json_number(result.alpha_out[n]),
                "beta_out": json_number(result.beta_out[n]),
                "value": json_number(result.values[n]),
                "status": result.status[n],
                "reason": result.reason(n),
            }
            for n in range(len(tree))
        ]
    return doc


# Narration ------------------------------------------------------------------------------


def _who(tree: Tree, node: int) -> str:
    kind = tree.kind[node]
    if kind == "leaf":
        return f"leaf {tree.name(node)}"
    return f"{tree.name(node)} ({kind.upper()})"


def _names(tree: Tree, nodes: tuple[int, ...]) -> str:
    names = [tree.name(n) for n in nodes]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def narrate_event(tree: Tree, event: Event, negamax: bool = False) -> str:
    """One plain-English sentence for one event."""
    f = format_number
    if isinstance(event, Enter):
        window = f"alpha={f(event.alpha)}, beta={f(event.beta)}"
        if tree.kind[event.node] == "leaf":
            return f"visit {_who(tree, event.node)}"
        return f"enter {_who(tree, event.node)} with {window}"
    if isinstance(event, Evaluate):
        return (
            f"evaluate leaf {tree.name(event.node)} = {f(event.value)} "
            f"(leaf {event.leaf + 1} of {tree.leaf_count})"
        )
    if isinstance(event, Static):
        return (
            f"{_who(tree, event.node)} is at the depth limit: "
            f"use its static value e = {f(event.value)}"
        )
    if isinstance(event, Exit):
        return f"{_who(tree, event.node)} is done: its value is {f(event.value)}"
    assert isinstance(event, Backup)
    node = event.node
    text = f"at {_who(tree, node)}, {tree.name(event.child)} gives {f(event.child_value)}"
    if event.negated:
        text += f", negated to {f(event.received)}"
    if tree.kind[node] == "chance":
        p = tree.probability[event.child]
        text += f" with probability {p:g}; the weighted sum so far is {f(event.value)}"
    elif event.improved:
        text += f"; best so far is {f(event.value)}"
    else:
        text += f"; no better than {f(event.value)}"
    if event.bound is not None and event.bound_value is not None:
        verb = "rises" if event.bound == "alpha" else "falls"
        text += f"; {event.bound} {verb} to {f(event.bound_value)}"
    cut = event.cutoff
    if cut is not None:
        source = "the root window" if cut.source < 0 else tree.name(cut.source)
        remaining = "remaining child" if len(cut.pruned) == 1 else "remaining children"
        text += (
            f"; {cut.inequality()} (set {'by' if cut.source < 0 else 'at'} {source}), "
            f"so {tree.name(node)}'s {remaining} {_names(tree, cut.pruned)} "
            f"{'is' if len(cut.pruned) == 1 else 'are'} pruned"
        )
    if negamax and tree.kind[node] == "min":
        text += " (values seen from MIN's side)"
    return text


def narrate(result: TreeResult) -> list[str]:
    """The numbered narration of a search: one line per event, ``Step 1: ...``."""
    return [f"Step {i}: {line}" for i, (_event, line) in enumerate(narrated_events(result), 1)]


def narrated_events(result: TreeResult) -> list[tuple[Event, str]]:
    """The events worth a line of narration, each with its sentence. Entering a leaf
    is left out: evaluating it says the same."""
    tree = result.tree
    negamax = result.options.algorithm == "negamax"
    return [
        (event, narrate_event(tree, event, negamax))
        for event in result.events
        if not (isinstance(event, Enter) and tree.kind[event.node] == "leaf")
    ]
