"""Checking a student's answer against the real search, with feedback that says what
is wrong and why, read from the search's own records (windows, cut-offs).

An answer is an object with any of these parts. Nodes are named by their path, the
child indices from the root counting from 0, spelled dotted (``"1.0"``, the root
``""``) or as the array ``plies tree --json`` writes (``[1, 0]``, the root ``[]``; as
an object key in JSON, its text ``"[1, 0]"``); leaves by their leaf number, counting
from 0 left to right in the input, as in ``--json``'s ``evaluated``. A path or leaf
number from any of plies' outputs can be given back as it is (the numbering is
described once, in :mod:`plies.trees`):

* ``value``: the root's value;
* ``values``, ``alpha``, ``beta``: the backed-up value, and alpha and beta when the
  node returns, by node path (``{"0": 3, "1.0": 2}``);
* the leaves, spelled either way or both: ``evaluated``, the leaves the search
  evaluates (every other leaf is pruned), and ``pruned``, the roots of pruned subtrees
  (every leaf under one is pruned; a leaf under none is evaluated);
* ``grade``: the parts to grade, among ``value``, ``values``, ``alpha``, ``beta`` and
  ``leaves`` (optional, see below).

Scoring: the answer is graded item by item, and ``right`` of ``checked`` items are
right. Without ``grade``, the root's ``value`` is always graded (left out, it is
wrong: "the root's value is not answered") and so is every other part the answer
gives, each *in full*, never only the entries typed:

* ``value``: one item;
* ``values``: one item per inner node below the root. A searched node must have its
  value (a blank, left out or ``""``, is unanswered, so wrong); a pruned node must be
  left blank: no value, alpha or beta;
* ``alpha`` and ``beta``: one item per searched inner node, the root included (a
  bound typed at a pruned node is a mistake of the ``values`` part when that is
  graded, else one more wrong item of its own part);
* ``leaves``: one item per leaf, evaluated or pruned, however the pruning is marked:
  marking the leaves of a subtree and marking the edge above it score the same.

With ``grade``, exactly the parts it names are graded, in full (a part named but not
given is all unanswered); other parts given are read but not graded. Each mistake is
reported once: leaves wrongly marked under one marked edge, or wrongly left unmarked
under one pruned subtree, share one message, at that node.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from plies._arguments import need_int, need_object
from plies.errors import PliesError
from plies.trees import Number, Tree, TreeResult, format_number, parse_number

__all__ = ["PARTS", "AnswerError", "CheckResult", "Feedback", "check_answer", "node_name"]

#: Values closer than this count as equal (expectations are sums of products).
TOLERANCE = 1e-9

#: The parts an answer is graded by, in the order feedback lists them.
PARTS: tuple[str, ...] = ("value", "values", "alpha", "beta", "leaves")

_KEYS = ("value", "values", "alpha", "beta", "evaluated", "pruned", "grade")
_BOUNDS = ("alpha", "beta")


class AnswerError(PliesError):
    """An answer that cannot be checked: the message names the part that is wrong."""


@dataclass(frozen=True)
class Feedback:
    """One mistake: the node it is about (path of child indices) and why it is wrong."""

    path: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class CheckResult:
    """The verdict: ``correct`` when every item graded is right; ``score`` is the
    share of items right; ``graded`` names the parts graded (see the module)."""

    right: int
    checked: int
    feedback: list[Feedback] = field(default_factory=list)
    graded: tuple[str, ...] = ()

    @property
    def correct(self) -> bool:
        """Whether every item graded was right."""
        return self.right == self.checked

    @property
    def score(self) -> float:
        """The share of items right, from 0 to 1."""
        return self.right / self.checked

    def to_json(self) -> dict[str, Any]:
        """``{"correct", "score", "right", "checked", "graded", "feedback": [{"path",
        "message"}]}``."""
        return {
            "correct": self.correct,
            "score": round(self.score, 4),
            "right": self.right,
            "checked": self.checked,
            "graded": list(self.graded),
            "feedback": [{"path": list(f.path), "message": f.message} for f in self.feedback],
        }


def node_name(tree: Tree, node: int) -> str:
    """The name of ``node`` in feedback, as the drawing shows it: :meth:`Tree.name`
    (its label, else ``A``, ``B``, ... for inner nodes and ``B1``, ``B2``, ... for
    leaves)."""
    need_object(tree, Tree, "tree")
    need_int(node, "node")
    if not 0 <= node < len(tree):
        raise AnswerError(f"node {node} is not in the tree (ids 0 to {len(tree) - 1})")
    return tree.name(node)


# Reading an answer --------------------------------------------------------------------


def _nice(x: Number | None) -> str:
    return "?" if x is None else format_number(x)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


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


_PATH_FORMS = "'0.1' or [0, 1] ('' or [] for the root)"
_STEP = re.compile(r"[0-9]{1,18}")


def _path_steps(path: Any, part: str) -> list[int]:
    """The child indices of a node path in any of its spellings (see the module):
    dotted text ``"0.1"``, a list or tuple ``[0, 1]``, or that list as JSON text
    ``"[0, 1]"`` (an object key in JSON is text)."""
    steps: Any = path
    if isinstance(path, str):
        text = path.strip()
        if not text:
            return []
        if text.startswith("["):
            try:
                steps = json.loads(text)
            except (ValueError, RecursionError):
                steps = None
        else:
            words = [word.strip() for word in text.split(".")]
            if all(_STEP.fullmatch(word) for word in words):
                return [int(word) for word in words]
    if not isinstance(steps, list | tuple) or not all(
        isinstance(step, int) and not isinstance(step, bool) and step >= 0 for step in steps
    ):
        raise AnswerError(f"{part}: {_shown(path)} is not a path {_PATH_FORMS}")
    return list(steps)


def _shown(path: Any) -> str:
    """A path as the answer gave it, cut short for a message (``reprlib``: a huge or
    deeply nested object is not written out whole first)."""
    shown = reprlib.repr(path)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _node(tree: Tree, path: Any, part: str) -> int:
    """The node at ``path`` (any spelling), or an :class:`AnswerError` naming ``part``."""
    steps = _path_steps(path, part)
    try:
        return tree.node_at(steps)
    except PliesError:
        raise AnswerError(f"{part}: there is no node at path {_shown(path)}") from None


@dataclass
class _Answer:
    """An answer read and checked for form: numbers by node id, blanks left out;
    ``None`` for a part not given."""

    value: Number | None
    values: dict[int, Number] | None
    bounds: dict[str, dict[int, Number] | None]
    claimed_pruned: dict[int, int] | None  # leaf id -> the node whose marking prunes it
    grade: tuple[str, ...]


def _by_node(tree: Tree, given: Any, part: str) -> dict[int, Number] | None:
    """A ``values``/``alpha``/``beta`` part by node id, its blanks left out."""
    if given is None:
        return None
    if not isinstance(given, Mapping):
        raise AnswerError(f"{part} must map node paths to numbers")
    numbers: dict[int, Number] = {}
    for path, raw in given.items():
        node = _node(tree, path, part)
        if tree.kind[node] == "leaf":
            raise AnswerError(
                f"{part}: {_shown(path)} is the leaf {tree.name(node)}; give inner nodes"
            )
        if node in numbers:
            raise AnswerError(f"{part}: {tree.name(node)} is given twice")
        if not _blank(raw):
            numbers[node] = _number(raw, f"{part}[{_shown(path)}]")
    return numbers


def _leaf_claims(tree: Tree, evaluated: Any, pruned: Any) -> dict[int, int] | None:
    """The leaves the answer says are pruned, each with the node whose marking says
    so (a marked subtree's root, or the leaf itself); ``None`` if neither spelling is
    given."""
    if evaluated is None and pruned is None:
        return None
    claims: dict[int, int] = {}
    if pruned is not None:
        if not isinstance(pruned, list):
            raise AnswerError("pruned must be a list of node paths")
        for top in sorted({_node(tree, p, "pruned") for p in pruned}):
            for leaf in _leaves_under(tree, top):
                claims.setdefault(leaf, top)  # in preorder: the outermost mark first
    if evaluated is not None:
        if not isinstance(evaluated, list):
            raise AnswerError("evaluated must be a list of leaf numbers")
        leaves = tree.leaf_count
        listed: set[int] = set()
        for k in evaluated:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < leaves:
                raise AnswerError(f"evaluated: {k!r} is not a leaf number 0..{leaves - 1}"[:200])
            listed.add(tree.leaf_ids[k])
        for node in listed & claims.keys():
            raise AnswerError(
                f"leaf {tree.name(node)} is both evaluated and under {tree.name(claims[node])}, "
                "marked pruned"
            )
        for node in tree.leaf_ids:
            if node not in listed:
                claims.setdefault(node, node)
    return claims


def _leaves_under(tree: Tree, node: int) -> list[int]:
    """The leaves of ``node``'s subtree, left to right."""
    return [n for n in range(node, _subtree_end(tree, node)) if not tree.children[n]]


def _subtree_end(tree: Tree, node: int) -> int:
    """One past the last id of ``node``'s subtree (subtrees are contiguous in preorder)."""
    while tree.children[node]:
        node = tree.children[node][-1]
    return node + 1


def _grade(answer: Mapping[str, Any], given: dict[str, bool]) -> tuple[str, ...]:
    """The parts to grade: ``grade`` if the answer names them, else the root's value
    and every part given."""
    grade = answer.get("grade")
    if grade is None:
        return tuple(p for p in PARTS if p == "value" or given[p])
    if isinstance(grade, str):
        grade = [grade]
    if not isinstance(grade, list) or not grade:
        raise AnswerError(f"grade must be a list of parts among {', '.join(PARTS)}")
    for part in grade:
        if part not in PARTS:
            raise AnswerError(
                f"grade: unknown part {part!r} (parts: {', '.join(PARTS)}; evaluated and "
                "pruned are graded together as leaves)"[:200]
            )
    return tuple(p for p in PARTS if p in grade)


def _read(tree: Tree, answer: Mapping[str, Any]) -> _Answer:
    if not isinstance(answer, Mapping):
        raise AnswerError("the answer must be an object with value, values, evaluated, ...")
    unknown = sorted(str(k) for k in answer if k not in _KEYS)
    if unknown:
        raise AnswerError(
            f"unknown part {unknown[0]!r} in the answer (known: {', '.join(_KEYS)})"[:200]
        )
    value = None if _blank(answer.get("value")) else _number(answer["value"], "value")
    values = _by_node(tree, answer.get("values"), "values")
    if values is not None and 0 in values:  # the root's value given among the others
        if value is not None and not _same(value, values[0]):
            raise AnswerError("value and values[''] both give the root's value, differently")
        value = values.pop(0)
    bounds = {part: _by_node(tree, answer.get(part), part) for part in _BOUNDS}
    claims = _leaf_claims(tree, answer.get("evaluated"), answer.get("pruned"))
    given = {
        "value": value is not None,
        "values": values is not None,
        "alpha": bounds["alpha"] is not None,
        "beta": bounds["beta"] is not None,
        "leaves": claims is not None,
    }
    return _Answer(value, values, bounds, claims, _grade(answer, given))


def _same(a: Number | None, b: Number) -> bool:
    if a is None:
        return False
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# Grading --------------------------------------------------------------------------------


class _Checker:
    def __init__(self, result: TreeResult) -> None:
        self.result = result
        self.tree = result.tree
        self.status = result.status
        self.right = 0
        self.checked = 0
        self.feedback: list[Feedback] = []

    def name(self, node: int) -> str:
        return self.tree.name(node)

    def searched(self, node: int) -> bool:
        return self.status[node] not in ("pruned", "beyond-depth")

    def verdicts(self, items: int, wrong: int, node: int, message: str) -> None:
        """``items`` graded, ``wrong`` of them wrong, explained once by ``message``."""
        self.checked += items
        self.right += items - wrong
        if wrong:
            self.feedback.append(Feedback(tuple(self.tree.path(node)), message))

    # Why a node was or was not searched -----------------------------------------------

    def pruned_root(self, node: int) -> int:
        """The root of the pruned subtree holding ``node``."""
        status, parent = self.status, self.tree.parent
        while node > 0 and status[parent[node]] == "pruned":
            node = parent[node]
        return node

    def why_pruned(self, node: int, leaves: list[int] | None = None) -> str:
        """Why ``node`` is never reached; with ``leaves`` (pruned leaves under one
        pruned subtree) the sentence is about them."""
        subject = self.name(node) if leaves is None else _listed(list(map(self.name, leaves)))
        verb = "is" if leaves is None or len(leaves) == 1 else "are"
        top = self.pruned_root(node)
        parent = self.tree.parent[top]
        cut = self.result.cut_at.get(parent)
        if cut is None:  # beyond a depth limit, or under a node scored statically
            return f"{subject} {verb} never searched"
        source = "the root window" if cut.source < 0 else self.name(cut.source)
        lie = "it lies" if verb == "is" else "they lie"
        whose = "" if top == node else f" ({lie} under {self.name(top)}, which is)"
        return (
            f"{subject} {verb} pruned{whose}: at {self.name(parent)}, "
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

    # The parts ------------------------------------------------------------------------

    def value(self, given: Number | None) -> None:
        true = self.result.value
        if given is None:
            self.verdicts(1, 1, 0, "the root's value is not answered")
        else:
            ok = _same(given, true)
            self.verdicts(
                1, 0 if ok else 1, 0, f"the root's value is {_nice(true)}, not {_nice(given)}"
            )

    def values(self, answer: _Answer) -> None:
        given = answer.values or {}
        for node in range(1, len(self.tree)):
            if self.tree.kind[node] == "leaf":
                continue
            if self.searched(node):
                self.one_number(node, given.get(node), "value", self.result.values[node])
                continue
            typed = [
                p
                for p, numbers in (("value", given), *answer.bounds.items())
                if numbers and node in numbers
            ]
            self.verdicts(
                1,
                1 if typed else 0,
                node,
                f"{self.why_pruned(node)}; it has no {_listed(typed or ['value'])}",
            )

    def bound(self, answer: _Answer, part: str) -> None:
        given = answer.bounds[part] or {}
        records = self.result.alpha_out if part == "alpha" else self.result.beta_out
        for node in range(len(self.tree)):
            if self.tree.kind[node] == "leaf":
                continue
            if self.searched(node):
                if records[node] is not None:
                    self.one_number(node, given.get(node), part, records[node])
            elif node in given and "values" not in answer.grade:
                self.verdicts(1, 1, node, f"{self.why_pruned(node)}; it has no {part}")

    def one_number(self, node: int, given: Number | None, what: str, true: Number | None) -> None:
        name = self.name(node)
        if given is None:
            self.verdicts(1, 1, node, f"{name}'s {what} is not answered")
        else:
            ok = true is not None and _same(given, true)
            self.verdicts(
                1, 0 if ok else 1, node, f"{name}'s {what} is {_nice(true)}, not {_nice(given)}"
            )

    def leaves(self, claims: dict[int, int] | None) -> None:
        tree = self.tree
        if claims is None:
            self.verdicts(
                tree.leaf_count,
                tree.leaf_count,
                0,
                "the leaves are not answered: mark the pruned ones (or list the evaluated ones)",
            )
            return
        truly = {tree.leaf_ids[k] for k in self.result.evaluated}
        missed: dict[int, list[int]] = {}  # pruned root -> its leaves claimed evaluated
        wrong_cut: dict[int, list[int]] = {}  # marked node -> evaluated leaves under it
        for leaf in tree.leaf_ids:
            if leaf in claims and leaf in truly:
                wrong_cut.setdefault(claims[leaf], []).append(leaf)
            elif leaf not in claims and leaf not in truly:
                missed.setdefault(self.pruned_root(leaf), []).append(leaf)
        right = tree.leaf_count - sum(map(len, missed.values())) - sum(map(len, wrong_cut.values()))
        self.checked += right
        self.right += right
        for node in sorted(missed.keys() | wrong_cut.keys()):
            if node in missed:
                self.missed_pruning(node, missed[node])
            if node in wrong_cut:
                self.wrong_pruning(node, wrong_cut[node])

    def missed_pruning(self, top: int, leaves: list[int]) -> None:
        """Pruned leaves under ``top`` marked as evaluated: one message."""
        if leaves == [top]:
            message = self.why_pruned(top)
        elif leaves == _leaves_under(self.tree, top):
            names = _listed(list(map(self.name, leaves)))
            message = f"{self.why_pruned(top)}; its leaves {names} are never evaluated"
        else:
            message = self.why_pruned(leaves[0], leaves)
        self.verdicts(len(leaves), len(leaves), top, message)

    def wrong_pruning(self, marked: int, leaves: list[int]) -> None:
        """Evaluated leaves marked pruned by marking ``marked``: one message."""
        message = self.why_searched(marked)
        if leaves != [marked]:
            names = _listed([self.name(n) for n in leaves])
            message += f"; {names} {'is' if len(leaves) == 1 else 'are'} evaluated"
        self.verdicts(len(leaves), len(leaves), marked, message)


def check_answer(result: TreeResult, answer: Mapping[str, Any]) -> CheckResult:
    """Grade ``answer`` (see the module's docstring for its form and the scoring)
    against ``result``, the search of the exercise with the options it asks for.
    Raises :class:`AnswerError` for an answer that is not of that form."""
    need_object(result, TreeResult, "result")
    read = _read(result.tree, answer)
    checker = _Checker(result)
    for part in read.grade:
        if part == "value":
            checker.value(read.value)
        elif part == "values":
            checker.values(read)
        elif part == "leaves":
            checker.leaves(read.claimed_pruned)
        else:
            checker.bound(read, part)
    if checker.checked == 0:
        raise AnswerError(
            f"nothing to grade: this tree has no items for {_listed(list(read.grade))}"
        )
    return CheckResult(checker.right, checker.checked, checker.feedback, read.grade)
