"""Writing trees and results out: a notation that reads back in, strict JSON for
programs and graders, and the numbered plain-English narration of a search."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from plies._arguments import need_bool, need_object
from plies.errors import ArgumentTypeError, TreeError
from plies.trees._model import Number, Tree, format_number, no_gc
from plies.trees._parse import is_label_word
from plies.trees._result import Backup, Enter, Evaluate, Event, Exit, Static, TreeResult

__all__ = [
    "format_tree",
    "json_number",
    "narrate",
    "narrate_event",
    "narrated_events",
    "node_name",
    "result_to_json",
    "tree_to_json",
    "write_result_json",
]


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
    if tree.pictures:
        return True
    if any(tree.value[leaf] is None for leaf in tree.leaf_ids):
        return True  # a leaf without a value (CS188: no evaluation line) is JSON's null
    for label in tree.label:
        if label is not None and not is_label_word(label):
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
    need_object(tree, Tree, "tree")
    if notation == "auto":
        notation = "json" if _needs_json(tree) else "brackets"
    if notation == "json":
        return json.dumps(tree_to_json(tree), separators=(",", ":"))
    if notation != "brackets":
        raise ArgumentTypeError(
            f"notation must be 'auto', 'brackets' or 'json', not {notation!r}"[:200]
        )
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
            if v is None:
                raise TreeError(
                    f"leaf {tree.name(item)} has no value, which brackets cannot write; "
                    "use notation='json'"
                )
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
    need_object(tree, Tree, "tree")
    objects: list[dict[str, Any]] = []
    for node in range(len(tree)):
        obj: dict[str, Any] = {}
        if tree.label[node] is not None:
            obj["label"] = tree.label[node]
        if tree.move[node] is not None:
            obj["move"] = tree.move[node]
        if node in tree.pictures:
            obj["picture"] = tree.pictures[node]
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
    """The result as a JSON-ready dict, for programs and graders.

    ``value``, ``bound``, ``path`` (the principal variation's child indices from the
    root, counting from 0, as every node's ``path`` and as
    :func:`plies.lab.check_answer` takes them back), ``path_names`` (the names of the
    nodes along the principal variation, :meth:`Tree.name`), ``path_labels`` and
    ``path_moves`` (their labels and move names, ``null`` where none), ``action``
    (the move name of the root's chosen child, as in CS188 ``successors:`` lines or a
    JSON tree's ``"move"``; ``null`` when that edge has no name or the root is a
    leaf: ``path[0]`` is always its child index), ``leaf_count``,
    ``evaluated`` (leaf numbers, counting from 0 left to right, in evaluation order;
    the drawings' ``#k`` is the place in this list, from 1), statistics and the options.
    With ``nodes``, one entry per node with its id, parent, path, name, label, move, kind,
    alpha/beta in and out, value, status and reason. Linear in the size of the tree.
    """
    need_object(result, TreeResult, "result")
    need_bool(nodes, "nodes")
    with no_gc():  # a dict per node: collections while they pile up made it quadratic
        return _result_document(result, nodes=nodes)


def _result_document(result: TreeResult, *, nodes: bool) -> dict[str, Any]:
    tree = result.tree
    opts = result.options
    pv = result.pv
    doc: dict[str, Any] = {
        "value": json_number(result.value),
        "bound": result.bound,
        "action": tree.move[pv[1]] if len(pv) > 1 else None,
        "path": result.path,
        "path_labels": [tree.label[n] for n in pv[1:]],
        "path_names": [tree.name(n) for n in pv[1:]],
        "path_moves": [tree.move[n] for n in pv[1:]],
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
        doc["nodes"] = list(_node_entries(result, doc))
    return doc


#: Node entries :func:`write_result_json` writes at a time.
ENTRIES_PER_WRITE = 1_000


def write_result_json(
    result: TreeResult, stream: TextIO, *, extra: Mapping[str, Any] | None = None
) -> None:
    """Write :func:`result_to_json` of ``result``, with the keys of ``extra`` added, to
    ``stream`` as one line of strict JSON (RFC 8259), its node entries last.

    The same document, written as it is made: the node entries
    :data:`ENTRIES_PER_WRITE` at a time, so that it takes the memory of a few entries,
    not of a dict per node and the whole text (5 million nodes: 5 GB more than the
    search took, and a MemoryError under a 4 GB cap).
    """
    doc = result_to_json(result, nodes=False)
    entries = _node_entries(result, doc)
    doc.update(extra or {})
    stream.write(_STRICT.encode(doc)[:-1] + ',"nodes":[')
    separator = ""
    while chunk := list(itertools.islice(entries, ENTRIES_PER_WRITE)):
        stream.write(separator + _STRICT.encode(chunk)[1:-1])  # the entries, no brackets
        separator = ","
    stream.write("]}\n")


#: Compact strict JSON (no NaN or infinity), one encoder for every chunk.
_STRICT = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def _node_entries(result: TreeResult, doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The node entries of :func:`result_to_json`, one at a time; says in ``doc`` at
    once when the paths are left out."""
    tree = result.tree
    paths = tree.paths()
    if paths is None:
        doc["paths_omitted"] = "the tree is too deep to list every node's path"
    alpha_in, beta_in = result.alpha_in, result.beta_in
    alpha_out, beta_out = result.alpha_out, result.beta_out
    values, status = result.values, result.status
    name = tree.name
    return (
        {
            "id": n,
            "parent": tree.parent[n],
            "path": None if paths is None else list(paths[n]),
            "name": name(n),
            "label": tree.label[n],
            "move": tree.move[n],
            "kind": tree.kind[n],
            "alpha_in": json_number(alpha_in[n]),
            "beta_in": json_number(beta_in[n]),
            "alpha_out": json_number(alpha_out[n]),
            "beta_out": json_number(beta_out[n]),
            "value": json_number(values[n]),
            "status": status[n],
            "reason": result._reason(n),  # n is a node id: skip the argument check
        }
        for n in range(len(tree))
    )


# Narration ------------------------------------------------------------------------------


def node_name(tree: Tree, node: int) -> str:
    """The name narration gives a node: :meth:`Tree.name`, the one name drawings,
    feedback and JSON give it too (its label, else ``A``, ``B``, ... for inner nodes
    in preorder and ``B1``, ``B2``, ... for leaves)."""
    return tree.name(node)


def _who(tree: Tree, node: int) -> str:
    kind = tree.kind[node]
    if kind == "leaf":
        return f"leaf {node_name(tree, node)}"
    return f"{node_name(tree, node)} ({kind.upper()})"


def _child(tree: Tree, node: int) -> str:
    """A child as named in a backup: with the move name on its edge, if any."""
    move = tree.move[node]
    name = node_name(tree, node)
    return name if move is None else f"{name} (move {move})"


def _names(tree: Tree, nodes: tuple[int, ...]) -> str:
    names = [node_name(tree, n) for n in nodes]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def narrate_event(tree: Tree, event: Event, negamax: bool = False) -> str:
    """One plain-English sentence for one event.

    Values are in MAX's view, as the tree and the drawings show them, except in
    negamax at MIN nodes, where the search works in MIN's view: those sentences say so
    and give MAX's view beside. An evaluated leaf's place in the evaluation order is
    written ``#k`` (from 1), as the drawings write it, beside its leaf number (from 0,
    left to right in the input, as JSON's ``evaluated``; see :mod:`plies.trees`).
    """
    f = format_number
    min_view = negamax and tree.kind[event.node] == "min"
    if isinstance(event, Enter):
        window = f"alpha={f(event.alpha)}, beta={f(event.beta)}"
        if tree.kind[event.node] == "leaf":
            return f"visit {_who(tree, event.node)}"
        if min_view:
            window += f" in MIN's view (for MAX: alpha={f(-event.beta)}, beta={f(-event.alpha)})"
        return f"enter {_who(tree, event.node)} with {window}"
    if isinstance(event, Evaluate):
        place = f"leaf number {event.leaf}"
        if event.number:
            place = f"#{event.number} evaluated, {place}"
        return f"evaluate leaf {node_name(tree, event.node)} = {f(event.value)} ({place})"
    if isinstance(event, Static):
        return (
            f"{_who(tree, event.node)} is at the depth limit: "
            f"use its static value e = {f(event.value)}"
        )
    if isinstance(event, Exit):
        value = f(event.value)
        if min_view:
            value += f" in MIN's view ({f(-event.value)} for MAX)"
        return f"{_who(tree, event.node)} is done: its value is {value}"
    assert isinstance(event, Backup)
    child_min_view = negamax and tree.kind[event.child] == "min"
    return _narrate_backup(tree, event, min_view=min_view, child_min_view=child_min_view)


def _narrate_backup(tree: Tree, event: Backup, *, min_view: bool, child_min_view: bool) -> str:
    f = format_number
    node = event.node
    text = f"at {_who(tree, node)}, {_child(tree, event.child)} gives {f(event.child_value)}"
    if child_min_view and not min_view:
        text += " in MIN's view"
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
        source = "the root window" if cut.source < 0 else node_name(tree, cut.source)
        remaining = "remaining child" if len(cut.pruned) == 1 else "remaining children"
        text += (
            f"; {cut.inequality()} (set {'by' if cut.source < 0 else 'at'} {source}), "
            f"so {node_name(tree, node)}'s {remaining} {_names(tree, cut.pruned)} "
            f"{'is' if len(cut.pruned) == 1 else 'are'} pruned"
        )
    if min_view:
        text += " (values in MIN's view)"
    return text


def narrate(result: TreeResult) -> list[str]:
    """The numbered narration of a search: one line per event, ``Step 1: ...``."""
    need_object(result, TreeResult, "result")
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
