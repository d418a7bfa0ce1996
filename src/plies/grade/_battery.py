"""The trees a submission is graded on: a default battery per form, and a teacher's own.

The default battery holds the textbook tree (AIMA Figure 5.2), trees whose ties are
decided by the tie rule (at alpha and at beta), negative and float values, a MIN
root, an unbalanced tree with single-child nodes, a deep chain, and random trees
from a seed. The ``array`` form has complete trees of the assignment's branching
and depth only: the lab reports' tree, ties, floats, both orderings and random ones.
With ``algorithm="expectimax"`` the battery is trees with chance nodes.

A teacher's file (``--trees FILE``) holds trees in any notation plies reads,
separated by lines of ``---``; comment lines at the top of a tree set its name,
weight and visibility::

    # name: the exam's tree
    # weight: 2
    # hidden
    [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from plies._arguments import need_choice, need_int, need_path
from plies.errors import PliesError
from plies.trees import Tree, alphabeta, from_leaves, parse, random_tree

__all__ = ["ALGORITHMS", "FORMS", "Case", "default_battery", "read_cases"]

#: The forms a submission takes, and the algorithms it may be asked for.
FORMS: tuple[str, ...] = ("array", "node", "aima", "program")
ALGORITHMS: tuple[str, ...] = ("alphabeta", "minimax", "expectimax")


@dataclass(frozen=True)
class Case:
    """One test of the battery: a ``tree``, its ``name``, its ``weight`` in the
    marks, and whether students see it (``hidden`` tests are shown once the marks
    are published)."""

    name: str
    tree: Tree
    weight: float = 1.0
    hidden: bool = False


#: The values of the lab reports' array tree (branching 2, depth 3; its value is 5).
LAB_VALUES = (3, 5, 6, 9, 1, 2, 0, -1)

_TREE_CASES = (
    ("AIMA Figure 5.2", "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", "max"),
    ("A tie at alpha: C's first leaf equals A's alpha", "[[3, 5], [3, 1], [2, 9]]", "max"),
    (
        "A tie at beta: a MAX node's leaf equals its beta",
        "[[[2, 4], [4, 7]], [[1, 9], [3, 5]]]",
        "max",
    ),
    ("Negative and float values", "[[-1.5, 2.25, -0.5], [-3, 0.75], [1.5, -2, 0.25]]", "max"),
    ("A MIN root", "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", "min"),
    ("Unbalanced, with single children", "[[[7]], [4, [2, [9, 1]]], [[[8]]], 5]", "max"),
    ("Three plies", "[[[3, 17], [2, 12]], [[15], [25, 0]], [[2, 5], [3]], [[2, 14]]]", "max"),
)

_CHANCE_CASES = (
    (
        "Expectimax: two chance nodes",
        '{"tree": {"kind": "max", "children": [{"kind": "chance", "children": [8, 2]},'
        ' {"kind": "chance", "children": [{"p": 0.25, "value": 12},'
        ' {"p": 0.75, "value": 1}]}]}}',
    ),
    (
        "Expectimax: MIN under chance",
        '{"tree": {"kind": "max", "children": [{"kind": "chance", "children": ['
        '{"kind": "min", "children": [3, 7]}, {"kind": "min", "children": [5, 1]}]},'
        ' {"kind": "chance", "children": [{"kind": "min", "children": [4, 6]}, 2]}]}}',
    ),
)


def _chain(length: int) -> Tree:
    """A chain of ``length`` single-child nodes above a small choice."""
    text = "[" * length + "[2, 7], [5, 1]" + "]" * length
    return parse(f"[{text}, 4]")


def default_battery(
    form: str,
    *,
    algorithm: str = "alphabeta",
    branching: int = 2,
    depth: int = 3,
    seed: int = 0,
    count: int = 4,
) -> list[Case]:
    """The default tests for ``form`` (``array``: complete trees of ``branching``
    and ``depth``), with ``count`` random trees drawn from ``seed``."""
    need_choice(form, "form", FORMS)
    need_choice(algorithm, "algorithm", ALGORITHMS)
    need_int(branching, "branching", minimum=2, maximum=10)
    need_int(depth, "depth", minimum=1, maximum=12)
    need_int(seed, "seed")
    need_int(count, "count", minimum=0, maximum=100)
    rng = random.Random(seed)
    if form == "array":
        return _array_battery(branching, depth, rng, count)
    if algorithm == "expectimax":
        cases = [Case(name, parse(text)) for name, text in _CHANCE_CASES]
        cases += [
            Case(
                f"Random tree with chance nodes {k + 1} (seed {seed})",
                random_tree(branching=2 + k % 2, depth=3, seed=rng.randrange(1 << 30), chance=True),
            )
            for k in range(count)
        ]
        return cases
    cases = [Case(name, parse(text, root=root)) for name, text, root in _TREE_CASES]
    if form != "aima":  # aima's games hand the root to MAX
        cases.append(Case("A deep chain (30 single children)", _chain(30)))
    else:
        cases = [c for c in cases if c.tree.kind[0] == "max"]
        cases.append(Case("A deep chain (30 single children)", _chain(30)))
    for k in range(count):
        ragged = k % 2 == 1
        tree = random_tree(
            branching=3, depth=3 + k % 2, seed=rng.randrange(1 << 30), ragged=ragged, low=-9, high=9
        )
        kind = "ragged " if ragged else ""
        cases.append(Case(f"Random {kind}tree {k + 1} (seed {seed})", tree))
    return cases


def _array_battery(branching: int, depth: int, rng: random.Random, count: int) -> list[Case]:
    n = branching**depth
    spread: list[int | float] = [
        LAB_VALUES[k % len(LAB_VALUES)] + 10 * (k // len(LAB_VALUES)) for k in range(n)
    ]
    floats = [round(v * 0.75 - 1.5, 2) for v in spread]
    ties: list[int | float] = [(k * 7) % 3 for k in range(n)]
    lists: list[tuple[str, list[int | float]]] = [
        (
            "The lab reports' tree" if n == len(LAB_VALUES) else "The lab reports' values, spread",
            spread,
        ),
        ("Ties everywhere (values 0, 1 and 2)", ties),
    ]
    for kind, name in (("min", "A tie at alpha"), ("max", "A tie at beta")):
        tie = _tie(branching, depth, kind)
        if tie is not None:
            lists.append((f"{name}: the tie rule decides a cut-off", tie))
    lists += [
        ("Negative and float values", floats),
        ("Leaves in increasing order", sorted(spread)),
        ("Leaves in decreasing order", sorted(spread, reverse=True)),
    ]
    for k in range(count):
        drawn: list[int | float] = [rng.randint(-20, 20) for _ in range(n)]
        lists.append((f"Random values {k + 1}", drawn))
    return [Case(name, from_leaves(values, branching=branching)) for name, values in lists]


def _tie(branching: int, depth: int, kind: str) -> list[int | float] | None:
    """Leaf values (the first of a fixed series of candidates) on which the
    non-strict rule cuts off where the strict rule does not, at ``kind`` nodes only,
    or None when the shape has no such tie (depth 1)."""
    rng = random.Random(f"tie {branching} {depth} {kind}")
    for _ in range(2000):
        values: list[int | float] = [rng.randint(0, 3) for _ in range(branching**depth)]
        tree = from_leaves(values, branching=branching)
        loose, strict = alphabeta(tree, trace=False), alphabeta(tree, strict=True, trace=False)
        only = set(loose.cut_at) - set(strict.cut_at)
        if only and all(tree.kind[node] == kind for node in only):
            return values
    return None


def read_cases(path: str | Path, *, form: str, branching: int, depth: int) -> list[Case]:
    """A teacher's tests from ``path`` (see the module); for the ``array`` form each
    tree must be complete with ``branching`` and ``depth``."""
    path = need_path(path, "path")
    need_choice(form, "form", FORMS)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PliesError(f"trees file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PliesError(f"cannot read trees file {path}: {exc}") from None
    cases = []
    chunks = [c for c in _chunks(text) if c.strip()]
    if not chunks:
        raise PliesError(f"trees file {path} holds no tree")
    for number, chunk in enumerate(chunks, start=1):
        name, weight, hidden, root = f"{path.name} tree {number}", 1.0, False, "max"
        body: list[str] = []
        for line in chunk.splitlines():
            word = line.strip()
            if word.startswith("#") and not body:
                key, _, value = word.lstrip("#").strip().partition(":")
                key, value = key.strip().lower(), value.strip()
                if key == "name" and value:
                    name = value
                elif key == "weight":
                    weight = _weight(value, path, number)
                elif key == "hidden":
                    hidden = True
                elif key == "root" and value in ("max", "min"):
                    root = value
                continue
            body.append(line)
        try:
            tree = parse("\n".join(body), root=root)
        except PliesError as exc:
            raise PliesError(f"trees file {path}, tree {number}: {exc}") from None
        if form == "array":
            _need_complete(tree, branching, depth, f"trees file {path}, tree {number}")
        cases.append(Case(name, tree, weight, hidden))
    return cases


def _chunks(text: str) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip() == "---":
            chunks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    chunks.append("\n".join(current))
    return chunks


def _weight(value: str, path: Path, number: int) -> float:
    try:
        weight = float(value)
    except ValueError:
        weight = -1.0
    if not weight > 0 or weight == float("inf"):
        raise PliesError(
            f"trees file {path}, tree {number}: the weight must be a number above 0, not {value!r}"
        )
    return weight


def _need_complete(tree: Tree, branching: int, depth: int, where: str) -> None:
    for node in range(len(tree)):
        kids = tree.children[node]
        d = tree.depth[node]
        if (
            (d < depth and len(kids) != branching)
            or (d == depth and kids)
            or tree.kind[node] == "chance"
        ):
            raise PliesError(
                f"{where}: the array form needs a complete tree of branching {branching} and "
                f"depth {depth}, and node {tree.name(node)} does not fit it"
            )
