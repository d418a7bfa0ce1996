"""Marking one test: a submission's answer against plies' own search of the tree.

The reference is :func:`plies.trees.alphabeta` under the assignment's tie rule
(:func:`~plies.trees.minimax`, or :func:`~plies.trees.expectiminimax` without
pruning, for the other algorithms). A test has two or three parts of equal weight:
the value (the move, for the ``aima`` form), the leaves evaluated in order, and,
where the form shows them, the windows each node was searched with. Feedback names
the first place the submission leaves the reference, in alpha-beta's terms and the
lab's node names, and a cause when the submission's leaves are exactly those of a
known mistake (:data:`CAUSES`): the same textbook search with that mistake made.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from plies._arguments import need_object
from plies.grade._battery import Case
from plies.trees import Tree, TreeResult, alphabeta, exact_values, expectiminimax, minimax
from plies.trees import format_number as show

__all__ = ["CAUSES", "Marked", "mark", "reference", "textbook_search"]

INF = math.inf


def reference(tree: Tree, algorithm: str, *, strict: bool) -> TreeResult:
    """plies' search of ``tree`` that a submission is graded against."""
    if algorithm == "minimax":
        return minimax(tree)
    if algorithm == "expectimax":
        return expectiminimax(tree, star1=False)
    return alphabeta(tree, strict=strict)


Window = tuple[int, float, float]


def textbook_search(
    tree: Tree,
    *,
    prune: bool = True,
    strict: bool = False,
    reverse: bool = False,
    min_updates_alpha: bool = False,
    pass_bounds: bool = True,
) -> tuple[list[int], list[Window]]:
    """What the textbook recursive alpha-beta does on ``tree``, with or without one
    of the mistakes students make (no pruning, the other tie rule, children right to
    left, a MIN node lowering alpha instead of beta, bounds not passed down): the
    leaves it evaluates (node ids, in order) and the window of every call (``(node,
    alpha, beta)``, in order, MAX's view). Chance nodes average all their children.
    Used to name a cause, never as the reference (the tests check that, without
    mistakes, it does exactly what the reference does)."""
    need_object(tree, Tree, "tree")
    kind, children, value = tree.kind, tree.children, tree.value
    leaves: list[int] = []
    windows: list[Window] = []

    def search(node: int, alpha: float, beta: float) -> float:
        windows.append((node, alpha, beta))
        if kind[node] == "leaf":
            leaves.append(node)
            return float(value[node])  # type: ignore[arg-type]
        kids = children[node][::-1] if reverse else children[node]
        if kind[node] == "chance":
            return sum(float(tree.probability[k] or 0) * search(k, -INF, INF) for k in kids)
        maximizing = kind[node] == "max"
        v = -INF if maximizing else INF
        for k in kids:
            got = search(k, alpha, beta) if pass_bounds else search(k, -INF, INF)
            if maximizing:
                v = max(v, got)
                alpha = max(alpha, v)
            else:
                v = min(v, got)
                if min_updates_alpha:
                    alpha = min(alpha, v)
                else:
                    beta = min(beta, v)
            if prune and (alpha > beta if strict else alpha >= beta):
                break
        return v

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 3 * max(tree.depth) + 100))
    try:
        search(0, -INF, INF)
    finally:
        sys.setrecursionlimit(limit)
    return leaves, windows


#: Mistakes recognised from what a submission does: (cause, textbook_search's keywords,
#: given the assignment's strict rule).
CAUSES: list[tuple[str, Callable[[bool], dict[str, bool]]]] = [
    ("no pruning at all (this is minimax)", lambda strict: {"prune": False}),
    (
        "it prunes only when v > beta (or < alpha): the strict tie rule, but this assignment "
        "prunes on ties too (alpha >= beta)",
        lambda strict: {"strict": not strict},
    ),
    (
        "a MIN node updates alpha instead of beta",
        lambda strict: {"strict": strict, "min_updates_alpha": True},
    ),
    (
        "alpha and beta are not passed down to the children",
        lambda strict: {"strict": strict, "pass_bounds": False},
    ),
    ("it searches the children right to left", lambda strict: {"strict": strict, "reverse": True}),
]


def _cause_text(cause: str, strict: bool) -> str:
    if strict and cause.startswith("it prunes only when"):
        return (
            "it prunes on ties (alpha >= beta): the non-strict rule, but this assignment "
            "prunes only when alpha > beta (never on equality)"
        )
    return cause


@dataclass(frozen=True)
class Marked:
    """A marked test: ``score`` of ``max_score``, the feedback (``output``), the
    ``causes`` recognised (the known mistakes that do what the submission did on
    this tree: when its leaves are right, those that make no difference here), and
    whether the value, the leaves and the windows were right
    (``bounds_right`` None when the form does not show them); ``ran`` is false when
    the code failed (raised, crashed, ran out of time); ``leaves`` are the leaves the
    code evaluated (node ids, in order)."""

    name: str
    score: float
    max_score: float
    output: str
    hidden: bool
    value_right: bool
    leaves_right: bool
    bounds_right: bool | None
    causes: tuple[str, ...]
    ran: bool = True
    leaves: tuple[int, ...] = ()
    #: The test drawn (:func:`plies.grade.compare_svg`'s SVG) when :func:`plies.grade.grade`
    #: keeps drawings (``pictures``); empty otherwise.
    picture: str = ""


def _number(x: Any) -> float | None:
    """A value the submission gave, as a float (None when it is not a number)."""
    if isinstance(x, str) and x in ("inf", "-inf"):
        return INF if x == "inf" else -INF
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    return float(x)


def _same(a: float | None, b: float) -> bool:
    return a is not None and (a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))


class _Names:
    """How the feedback names nodes for this form: the lab's names, with the
    array's index or the protocol's id where that is what the student sees."""

    def __init__(self, tree: Tree, form: str) -> None:
        self.tree, self.form = tree, form

    def node(self, node: int) -> str:
        name, kind = self.tree.name(node), self.tree.kind[node]
        if kind == "leaf":
            return self.leaf(node)
        return f"{name} ({kind.upper()})" + (f" (node {node})" if self.form == "program" else "")

    def leaf(self, node: int) -> str:
        name = self.tree.name(node)
        if self.form == "array":
            return f"values[{self.tree.leaf_index[node]}] (leaf {name})"
        if self.form == "program":
            return f"leaf {name} (node {node})"
        return f"leaf {name}"

    def leaves(self, nodes: list[int]) -> str:
        if not nodes:
            return "none"
        names = ", ".join(self.tree.name(n) for n in nodes)
        if self.form == "array":
            indices = ", ".join(str(self.tree.leaf_index[n]) for n in nodes)
            return f"values[i] for i = {indices}: {names}"
        return names


def mark(case: Case, answer: dict[str, Any], *, form: str, algorithm: str, strict: bool) -> Marked:
    """Mark one ``answer`` of a submission (see :mod:`plies.grade._child`)."""
    tree = case.tree
    result = reference(tree, algorithm, strict=strict)
    names = _Names(tree, form)
    expected = [tree.leaf_ids[k] for k in result.evaluated]
    rule = "strict" if strict else "non-strict"
    if not answer.get("ok"):
        where = f" ({answer['where']})" if answer.get("where") else ""
        failed = [f"Your code failed: {answer.get('error')}{where}", *_printed(answer)]
        shows = form in ("array", "node", "program") and algorithm == "alphabeta"
        return Marked(case.name, 0.0, case.weight, "\n".join(failed), case.hidden, False, False,
                      False if shows else None, (), ran=False)  # fmt: skip
    reads = _collapse([n for n in answer.get("reads", []) if type(n) is int and 0 <= n < len(tree)])
    lines: list[str] = []
    value_right = _value_part(answer, tree, result, form, lines)
    lines.append(
        f"Leaves evaluated: {len(reads)} of {tree.leaf_count} ({names.leaves(reads)}); "
        f"{'alpha-beta' if algorithm == 'alphabeta' else algorithm} evaluates {len(expected)}."
    )
    leaves_right = reads == expected
    edges = _edges(tree)
    calls = _calls(answer, len(tree))
    causes = _causes(tree, reads, calls, edges, algorithm=algorithm, strict=strict)
    if not leaves_right:
        lines.append(_divergence(result, reads, expected, names, rule))
        if len(causes) == 1:
            lines.append(f"Likely cause: {causes[0]}.")
        elif causes:
            lines.append(f"Likely cause (this tree cannot tell them apart): {' or '.join(causes)}.")
    bounds_right = (
        _bounds_part(answer, result, names, edges, lines) if algorithm == "alphabeta" else None
    )
    parts = [value_right, leaves_right] + ([bounds_right] if bounds_right is not None else [])
    passed = sum(1 for p in parts if p)
    if passed == len(parts):
        lines.insert(0, "Correct.")
    lines += _printed(answer)
    score = case.weight * passed / len(parts)
    return Marked(case.name, score, case.weight, "\n".join(lines), case.hidden, value_right,
                  leaves_right, bounds_right, causes, leaves=tuple(reads))  # fmt: skip


def _calls(answer: dict[str, Any], n: int) -> list[Window]:
    """The submission's calls as windows ``(node, alpha, beta)`` (calls of nodes it
    could not name are dropped; any call it cannot show makes the list empty)."""
    calls: list[Window] = []
    for call in answer.get("calls") or []:
        node, alpha, beta = call[0], _number(call[1]), _number(call[2])
        if type(node) is not int or not 0 <= node < n or alpha is None or beta is None:
            return []
        calls.append((node, alpha, beta))
    return calls


def _collapse(reads: list[int]) -> list[int]:
    """Reads of one leaf in a row count once (``if not node.children: return
    node.value`` after testing ``node.value`` is one evaluation)."""
    return [node for node, _ in groupby(reads)]


def _printed(answer: dict[str, Any]) -> list[str]:
    printed = str(answer.get("printed") or "").strip()
    if not printed:
        return []
    lines = printed.splitlines()
    more = f"\n  ... ({len(lines) - 10} more lines)" if len(lines) > 10 else ""
    return ["Your code printed:", *("  " + line for line in lines[:10])] + ([more] if more else [])


def _value_part(
    answer: dict[str, Any], tree: Tree, result: TreeResult, form: str, lines: list[str]
) -> bool:
    if form == "aima":
        move = answer.get("move")
        values = exact_values(tree)
        best = [k for k in tree.children[0] if _same(float(values[k]), float(result.value))]
        chosen = next((k for k in tree.children[0] if tree.name(k) == move), None)
        if chosen is not None and chosen in best:
            lines.append(f"Move: {move}, worth {show(result.value)}, a best move.")
            return True
        if chosen is None:
            lines.append(f"Move: your code returned {move!r}, which is not an action of the root "
                         f"(the best: {', '.join(tree.name(k) for k in best)}).")  # fmt: skip
        else:
            lines.append(
                f"Move: {move} is worth {show(values[chosen])}; the best "
                f"({', '.join(tree.name(k) for k in best)}) are worth {show(result.value)}."
            )
        return False
    got = _number(answer.get("value"))
    if _same(got, float(result.value)):
        lines.append(f"Value: {show(result.value)}, right.")
        return True
    said = show(got) if got is not None else repr(answer.get("value"))
    lines.append(
        f"Value: your code returned {said}; the value of the tree is {show(result.value)}."
    )
    return False


def _divergence(
    result: TreeResult, reads: list[int], expected: list[int], names: _Names, rule: str
) -> str:
    """The first place the leaves read leave the reference's, explained."""
    tree = result.tree
    k = next(
        (i for i, (a, b) in enumerate(zip(reads, expected, strict=False)) if a != b),
        min(len(reads), len(expected)),
    )
    place = f"At the {_ordinal(k + 1)} leaf evaluated"
    if k < len(reads) and reads[k] not in expected:
        extra = reads[k]
        cut_text = _why_pruned(result, extra, names, rule)
        if cut_text:
            return f"{place}: {cut_text}, but your code evaluated {names.leaf(extra)}."
        return f"{place}: your code evaluated {names.leaf(extra)}, which alpha-beta never reaches."
    if k < len(expected):
        missing = expected[k]
        a, b = result.alpha_in[missing], result.beta_in[missing]
        parent = tree.parent[missing]
        if missing in reads[k:]:  # evaluated, but later: the order differs
            return (
                f"{place}: your code evaluated {names.leaf(reads[k])}, but alpha-beta evaluates "
                f"{names.leaf(missing)} first (children are searched left to right)."
            )
        assert a is not None and b is not None  # an evaluated leaf has its window
        why = "alpha < beta, so no cut-off yet" if a < b else "a tie, which prunes nothing"
        did = "stopped" if k >= len(reads) else f"went on to {names.leaf(reads[k])}"
        return (
            f"{place}: your code {did} and never evaluated {names.leaf(missing)}, which "
            f"alpha-beta evaluates next: it reaches {names.node(parent)} with alpha={show(a)}, "
            f"beta={show(b)} ({why} under the {rule} rule)."
        )
    return (
        f"{place}: your code evaluated more leaves than alpha-beta "
        f"({len(reads)} against {len(expected)})."
    )


def _why_pruned(result: TreeResult, leaf: int, names: _Names, rule: str) -> str | None:
    """Why the reference never evaluates ``leaf``: the cut-off above it."""
    tree = result.tree
    node = leaf
    while node > 0:
        if result.reason(node) is not None:
            cut = result.cut_at[tree.parent[node]]
            at = cut.node
            done = [k for k in tree.children[at] if k not in cut.pruned]
            last = done[-1] if done else None
            source = "the root window" if cut.source < 0 else f"set at {tree.name(cut.source)}"
            after = (
                f"after {tree.name(last)} returned {show(cut.value)}" if last is not None else ""
            )
            pruned = ", ".join(tree.name(k) for k in cut.pruned)
            return (
                f"at {names.node(at)}, {after}, {cut.inequality()} ({source}): "
                f"{tree.name(at)}'s remaining children ({pruned}) are pruned under the {rule} rule"
            )
        node = tree.parent[node]
    return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _causes(
    tree: Tree,
    reads: list[int],
    calls: list[Window],
    edges: tuple[float, float],
    *,
    algorithm: str,
    strict: bool,
) -> tuple[str, ...]:
    """The known mistakes that do exactly what the submission did on this tree: the
    same leaves, and the same windows when the submission's calls are seen."""

    def same(**mistakes: bool) -> bool:
        leaves, windows = textbook_search(tree, **mistakes)
        if leaves != reads:
            return False
        return not calls or _windows_equal(calls, windows, edges)

    if algorithm != "alphabeta":
        found = []
        if same(prune=False, reverse=True):
            found.append("it searches the children right to left")
        if algorithm == "minimax" and len(reads) < tree.leaf_count:
            found.append("it prunes, but this assignment is minimax (every leaf is evaluated)")
        return tuple(found)
    return tuple(
        _cause_text(cause, strict) for cause, keywords in CAUSES if same(**keywords(strict))
    )


def _edges(tree: Tree) -> tuple[float, float]:
    """The smallest and largest leaf values: a bound beyond them acts as infinity."""
    values = [float(v) for v in map(tree.value.__getitem__, tree.leaf_ids) if v is not None]
    return min(values), max(values)


def _bound(x: float, edges: tuple[float, float]) -> float:
    """A bound as it acts: -inf below every leaf, inf above every leaf (a student's
    -1000 or 10**9 is an infinity), else itself."""
    low, high = edges
    return -INF if x < low else INF if x > high else x


def _windows_equal(calls: list[Window], windows: list[Window], edges: tuple[float, float]) -> bool:
    if len(calls) != len(windows):
        return False
    return all(
        node == want_node
        and _bound(a, edges) == _bound(wa, edges)
        and _bound(b, edges) == _bound(wb, edges)
        for (node, a, b), (want_node, wa, wb) in zip(calls, windows, strict=True)
    )


def _bounds_part(answer: dict[str, Any], result: TreeResult, names: _Names,
                 edges: tuple[float, float], lines: list[str]) -> bool | None:  # fmt: skip
    """Whether every node was searched with the reference's window (None when the
    submission's calls are not seen)."""
    calls = answer.get("calls") or []
    if not calls:
        return None
    for node, alpha, beta, _ in calls:
        if not isinstance(node, int) or not 0 <= node < len(result.tree):
            continue
        want_a, want_b = result.alpha_in[node], result.beta_in[node]
        if want_a is None or want_b is None:
            continue  # never entered by alpha-beta: the leaves part says so
        got_a, got_b = _number(alpha), _number(beta)
        if (
            got_a is None
            or got_b is None
            or not (
                _bound(got_a, edges) == _bound(float(want_a), edges)
                and _bound(got_b, edges) == _bound(float(want_b), edges)
            )
        ):
            lines.append(
                f"Window: your code searched {names.node(node)} with alpha={_shown(alpha)}, "
                f"beta={_shown(beta)}; alpha-beta searches it with alpha={show(want_a)}, "
                f"beta={show(want_b)}."
            )
            return False
    lines.append("Windows: every node was searched with alpha-beta's alpha and beta.")
    return True


def _shown(x: Any) -> str:
    n = _number(x)
    return show(n) if n is not None else repr(x)
