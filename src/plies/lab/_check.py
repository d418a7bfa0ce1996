"""Checking a student's answer against the real search, with feedback that says what
is wrong and why, read from the search's own records (windows, cut-offs).

An answer gives any of: the root ``value``; the leaves ``evaluated`` (leaf numbers as
in ``plies tree --json``: 0-based, left to right in the input); backed-up ``values``,
``alpha`` and ``beta`` by node path (dotted 0-based child indices, the root ``""``);
and the roots of the ``pruned`` subtrees (paths). Each part given is checked item by
item; pruning too much is caught as surely as pruning too little.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from plies.errors import PliesError
from plies.lab._search import need
from plies.trees import Number, Tree, TreeResult, format_number, parse_number

__all__ = ["AnswerError", "CheckResult", "Feedback", "check_answer", "node_name"]

#: Values closer than this count as equal (expectations are sums of products).
TOLERANCE = 1e-9

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


class AnswerError(PliesError):
    """An answer that cannot be checked: the message names the part that is wrong."""


@dataclass(frozen=True)
class Feedback:
    """One mistake: the node it is about (path of child indices) and why it is wrong."""

    path: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class CheckResult:
    """The verdict: ``correct`` when every item checked is right; ``score`` is the
    share of items right (1.0 when nothing was checked is not possible: an empty
    answer is an :class:`AnswerError`)."""

    right: int
    checked: int
    feedback: list[Feedback] = field(default_factory=list)

    @property
    def correct(self) -> bool:
        """Whether every item checked was right."""
        return self.right == self.checked

    @property
    def score(self) -> float:
        """The share of items right, from 0 to 1."""
        return self.right / self.checked

    def to_json(self) -> dict[str, Any]:
        """``{"correct", "score", "right", "checked", "feedback": [{"path", "message"}]}``."""
        return {
            "correct": self.correct,
            "score": round(self.score, 4),
            "right": self.right,
            "checked": self.checked,
            "feedback": [{"path": list(f.path), "message": f.message} for f in self.feedback],
        }


def _nice(x: Number | None) -> str:
    return "?" if x is None else format_number(x)


def _number(value: Any, what: str) -> Number:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise AnswerError(f"{what} must be a number, not {value!r}"[:200])
    if isinstance(value, str):
        try:
            return parse_number(value)
        except ValueError:
            raise AnswerError(f"{what} must be a number, not {value!r}"[:200]) from None
    if isinstance(value, float) and math.isnan(value):
        raise AnswerError(f"{what} must be a number, not NaN")
    return value


def _node(tree: Tree, path_text: Any, part: str) -> int:
    if not isinstance(path_text, str):
        raise AnswerError(f"{part}: a node path is text like '0.1' ('' for the root)")
    try:
        path = [int(step) for step in path_text.split(".")] if path_text.strip() else []
    except ValueError:
        raise AnswerError(f"{part}: {path_text[:40]!r} is not a path like '0.1'") from None
    try:
        return tree.node_at(path)
    except PliesError:
        raise AnswerError(f"{part}: there is no node at path {path_text[:40]!r}") from None


def _same(a: Number | None, b: Number) -> bool:
    if a is None:
        return False
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def node_name(tree: Tree, node: int) -> str:
    """A node named the way a student reads the drawing: its label, ``the root``, or
    its place under its parent (``D's second leaf``, ``the root's first child``)."""
    need(tree, Tree, "tree")
    need(node, int, "node")
    if not 0 <= node < len(tree):
        raise AnswerError(f"node {node} is not in the tree (ids 0 to {len(tree) - 1})")
    label = tree.label[node]
    if label is not None:
        return label
    if node == 0:
        return "the root"
    parent = tree.parent[node]
    index = tree.child_index[node]
    ordinal = _ORDINALS[index] if index < len(_ORDINALS) else f"#{index + 1}"
    owner = tree.label[parent] or ("the root" if parent == 0 else tree.name(parent))
    what = "leaf" if tree.kind[node] == "leaf" else "child"
    return f"{owner}'s {ordinal} {what}"


class _Checker:
    def __init__(self, result: TreeResult) -> None:
        self.result = result
        self.tree = result.tree
        self.right = 0
        self.checked = 0
        self.feedback: list[Feedback] = []

    def name(self, node: int) -> str:
        return node_name(self.tree, node)

    def verdict(self, ok: bool, node: int, message: str) -> None:
        self.checked += 1
        if ok:
            self.right += 1
        else:
            self.feedback.append(Feedback(tuple(self.tree.path(node)), message))

    # Why a node was or was not searched -----------------------------------------------

    def pruned_root(self, node: int) -> int:
        """The root of the pruned subtree holding ``node``."""
        status, parent = self.result.status, self.tree.parent
        while node > 0 and status[parent[node]] == "pruned":
            node = parent[node]
        return node

    def why_pruned(self, node: int) -> str:
        top = self.pruned_root(node)
        parent = self.tree.parent[top]
        cut = self.result.cut_at.get(parent)
        if cut is None:  # beyond a depth limit, or under a node scored statically
            return f"{self.name(node)} is never searched"
        source = "the root window" if cut.source < 0 else self.name(cut.source)
        whose = "" if top == node else f" (it lies under {self.name(top)}, which is)"
        return (
            f"{self.name(node)} is pruned{whose}: at {self.name(parent)}, "
            f"{cut.inequality()} (the bound comes from {source}), so its remaining "
            "children are skipped"
        )

    def why_searched(self, node: int) -> str:
        r = self.result
        alpha, beta = r.alpha_in[node], r.beta_in[node]
        rule = "alpha < beta" if not r.options.strict else "no value is strictly beyond a bound"
        return (
            f"{self.name(node)} is searched, not pruned: when the search reached it, "
            f"alpha={_nice(alpha)} and beta={_nice(beta)}, and no cut-off had fired ({rule})"
        )

    # The parts of an answer -------------------------------------------------------------

    def value(self, given: Any) -> None:
        v = _number(given, "value")
        true = self.result.value
        self.verdict(_same(v, true), 0, f"the root's value is {_nice(true)}, not {_nice(v)}")

    def evaluated(self, given: Any) -> None:
        if not isinstance(given, list):
            raise AnswerError("evaluated must be a list of leaf numbers")
        tree, leaves = self.tree, self.tree.leaf_count
        claimed: set[int] = set()
        for k in given:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < leaves:
                raise AnswerError(f"evaluated: {k!r} is not a leaf number 0..{leaves - 1}"[:200])
            claimed.add(k)
        truly = set(self.result.evaluated)
        for k in range(leaves):
            node = tree.leaf_ids[k]
            if k in claimed and k not in truly:
                self.verdict(False, node, self.why_pruned(node))
            elif k in truly and k not in claimed:
                self.verdict(False, node, self.why_searched(node))
            else:
                self.verdict(True, node, "")

    def values(self, given: Any, part: str, records: list[Number | None]) -> None:
        if not isinstance(given, Mapping):
            raise AnswerError(f"{part} must map node paths to numbers")
        status = self.result.status
        what = {"values": "value", "alpha": "alpha", "beta": "beta"}[part]
        for path_text, raw in given.items():
            node = _node(self.tree, path_text, part)
            v = _number(raw, f"{part}[{path_text!r}]")
            if status[node] in ("pruned", "beyond-depth"):
                self.verdict(False, node, f"{self.why_pruned(node)}; it has no {what}")
                continue
            true = records[node]
            self.verdict(
                _same(v, true) if true is not None else False,
                node,
                f"{self.name(node)}'s {what} is {_nice(true)}, not {_nice(v)}",
            )

    def pruned(self, given: Any) -> None:
        if not isinstance(given, list):
            raise AnswerError("pruned must be a list of node paths")
        status, parent = self.result.status, self.tree.parent
        claimed = {_node(self.tree, p, "pruned") for p in given}
        truly = {
            n
            for n in range(1, len(self.tree))
            if status[n] == "pruned" and status[parent[n]] != "pruned"
        }
        for node in sorted(claimed | truly):
            if node in claimed and node not in truly:
                message = (
                    self.why_searched(node)
                    if status[node] != "pruned"
                    else f"{self.name(node)} is pruned, but as part of "
                    f"{self.name(self.pruned_root(node))}: mark that one"
                )
                self.verdict(False, node, message)
            elif node in truly and node not in claimed:
                self.verdict(False, node, self.why_pruned(node))
            else:
                self.verdict(True, node, "")


def check_answer(result: TreeResult, answer: Mapping[str, Any]) -> CheckResult:
    """Check ``answer`` (see the module's docstring) against ``result``, the search of
    the exercise with the options it asks for. Raises :class:`AnswerError` for an
    answer that is not of that form."""
    need(result, TreeResult, "result")
    if not isinstance(answer, Mapping):
        raise AnswerError("the answer must be an object with value, evaluated, values, ...")
    known = {"value", "evaluated", "values", "alpha", "beta", "pruned"}
    unknown = sorted(str(k) for k in answer if k not in known)
    if unknown:
        raise AnswerError(
            f"unknown part {unknown[0]!r} in the answer (known: {', '.join(sorted(known))})"[:200]
        )
    if not any(answer.get(k) is not None for k in known):
        raise AnswerError("the answer is empty: give value, evaluated, values or pruned")
    checker = _Checker(result)
    if answer.get("value") is not None:
        checker.value(answer["value"])
    if answer.get("evaluated") is not None:
        checker.evaluated(answer["evaluated"])
    for part, records in (
        ("values", result.values),
        ("alpha", result.alpha_out),
        ("beta", result.beta_out),
    ):
        if answer.get(part) is not None:
            checker.values(answer[part], part, records)
    if answer.get("pruned") is not None:
        checker.pruned(answer["pruned"])
    return CheckResult(checker.right, checker.checked, checker.feedback)
