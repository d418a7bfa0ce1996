"""The explicit game tree: nodes in preorder, held in parallel lists.

A tree of a million leaves or a chain 100,000 nodes deep must be cheap to build and
walk without recursion, so a :class:`Tree` stores its nodes as integer ids ``0..n-1``
in preorder (a node, then its children's subtrees left to right) with one list per
attribute. Every walk in plies is a loop over ids or an explicit stack. :class:`Node`
is a light read-only view for callers who prefer objects.

Invariants (checked by :meth:`TreeBuilder.build`):

* ``parent[0] == -1`` and ``parent[i] < i`` for every other node;
* a node's subtree is a contiguous id range starting at the node;
* leaves have ``kind == "leaf"`` and a value; inner nodes have one of
  ``"max"``, ``"min"``, ``"chance"`` and at least one child;
* children of a chance node carry probabilities summing to 1.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from plies.errors import TreeError

__all__ = [
    "KINDS",
    "Kind",
    "Node",
    "Number",
    "Tree",
    "TreeBuilder",
    "format_number",
    "no_gc",
]

Number = int | float
Kind = Literal["max", "min", "chance", "leaf"]
KINDS: tuple[str, ...] = ("max", "min", "chance")

#: Probabilities at a chance node may miss 1 by this much (decimal input like 0.1 * 10).
PROBABILITY_TOLERANCE = 1e-9


@contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building millions of small objects.

    The objects made here hold no reference cycles, yet each collection of the oldest
    generation walks all of them: a million-leaf tree took 5.7 s to build with the
    collector on and 1.2 s with it paused (benchmarks/trees.py).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def format_number(x: Number) -> str:
    """Format a value the way people write it: ``3``, ``2.5``, ``inf``, ``-inf``."""
    if isinstance(x, float):
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x.is_integer() and abs(x) < 1e15:
            return str(int(x))
        return format(x, ".10g")  # 0.9 * 1 + 0.1 * 20 shows as 2.9, not 2.8999999999999995
    return str(x)


class Tree:
    """A game tree with nodes numbered in preorder; searches never change it.

    Build one with a parser (:func:`plies.trees.parse`), :func:`plies.trees.from_leaves`,
    :func:`plies.trees.random_tree` or a :class:`TreeBuilder`. ``bounds`` are optional
    known bounds ``(low, high)`` on every leaf value, used by Star1 pruning; they may
    be set after building, once :func:`check_bounds` accepts them.
    """

    __slots__ = (
        "_has_chance",
        "_leaf_ids",
        "bounds",
        "child_index",
        "children",
        "depth",
        "hints",
        "kind",
        "label",
        "leaf_index",
        "move",
        "parent",
        "probability",
        "static",
        "value",
    )

    def __init__(
        self,
        *,
        parent: list[int],
        kind: list[Kind],
        value: list[Number | None],
        label: list[str | None],
        static: list[Number | None],
        probability: list[float | None],
        move: list[str | None],
        bounds: tuple[Number, Number] | None = None,
    ) -> None:
        n = len(parent)
        self.parent = parent
        self.kind = kind
        self.value = value
        self.label = label
        self.static = static
        self.probability = probability
        self.move = move
        self.bounds = bounds
        #: Defaults the input asked for, e.g. ``{"algorithm": "alphabeta", "strict": True}``
        #: from a CS188 test file. Callers apply them unless the user says otherwise.
        self.hints: dict[str, str | bool] = {}
        children: list[list[int]] = [[] for _ in range(n)]
        depth = [0] * n
        child_index = [0] * n
        for i in range(1, n):
            p = parent[i]
            child_index[i] = len(children[p])
            children[p].append(i)
            depth[i] = depth[p] + 1
        #: Position of each node among its parent's children (0 for the root).
        self.child_index = child_index
        leaf_ids = [i for i in range(n) if not children[i]]
        leaf_index = [-1] * n
        for k, i in enumerate(leaf_ids):
            leaf_index[i] = k
        self.children = children
        self.depth = depth
        self._has_chance = "chance" in kind
        self.leaf_index = leaf_index
        self._leaf_ids = leaf_ids

    # Sizes and shapes -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.parent)

    @property
    def leaf_count(self) -> int:
        """Number of leaves."""
        return len(self._leaf_ids)

    @property
    def leaf_ids(self) -> Sequence[int]:
        """Node ids of the leaves, left to right (leaf index ``k`` is ``leaf_ids[k]``)."""
        return self._leaf_ids

    @property
    def height(self) -> int:
        """Length of the longest root-to-leaf path, in edges."""
        return max(self.depth)

    @property
    def has_chance(self) -> bool:
        """Whether any node is a chance node."""
        return self._has_chance

    @property
    def has_labels(self) -> bool:
        """Whether any node carries a label."""
        return any(x is not None for x in self.label)

    def uniform_shape(self) -> tuple[int, int] | None:
        """``(branching, depth)`` if every inner node has the same number of children
        and every leaf is at the same depth, else ``None``."""
        branching = len(self.children[0])
        if branching == 0:
            return None
        leaf_depth = self.depth[self._leaf_ids[0]]
        for i, kids in enumerate(self.children):
            if kids:
                if len(kids) != branching:
                    return None
            elif self.depth[i] != leaf_depth:
                return None
        return branching, leaf_depth

    # Node access ------------------------------------------------------------------

    def path(self, node: int) -> list[int]:
        """Child indices from the root down to ``node`` (``[]`` for the root)."""
        steps: list[int] = []
        parent, child_index = self.parent, self.child_index
        while node > 0:
            steps.append(child_index[node])
            node = parent[node]
        steps.reverse()
        return steps

    def paths(self, limit: int = 20_000_000) -> list[tuple[int, ...]] | None:
        """Every node's path, in one pass; ``None`` if together they would hold more
        than ``limit`` steps (a chain 100,000 deep has five billion)."""
        if sum(self.depth) > limit:
            return None
        paths: list[tuple[int, ...]] = [()] * len(self.parent)
        for i in range(1, len(self.parent)):
            paths[i] = (*paths[self.parent[i]], self.child_index[i])
        return paths

    def node_at(self, path: Sequence[int]) -> int:
        """The node id reached by following child indices from the root."""
        node = 0
        for step in path:
            kids = self.children[node]
            if not 0 <= step < len(kids):
                raise TreeError(f"path {list(path)} leaves the tree at child index {step}")
            node = kids[step]
        return node

    def name(self, node: int) -> str:
        """A short human name: the label, else ``root`` or the path, ``node 0.2.1``."""
        label = self.label[node]
        if label is not None:
            return label
        if node == 0:
            return "root"
        if self.depth[node] > 12:  # a long path says little; keep names short and cheap
            return f"node #{node} (depth {self.depth[node]})"
        return "node " + ".".join(str(s) for s in self.path(node))

    def node(self, node: int) -> Node:
        """A read-only :class:`Node` view of node ``node``."""
        return Node(self, node)

    def nodes(self) -> Iterator[Node]:
        """Every node as a :class:`Node`, in preorder."""
        for i in range(len(self.parent)):
            yield Node(self, i)

    @property
    def root(self) -> Node:
        """The root node."""
        return Node(self, 0)

    def __repr__(self) -> str:
        return f"<Tree {len(self)} nodes, {self.leaf_count} leaves, height {self.height}>"

    def _repr_svg_(self) -> str:
        """Jupyter: the tree drawn as SVG (see :mod:`plies.draw`)."""
        from plies.draw import repr_svg

        return repr_svg(self)


@dataclass(frozen=True, slots=True)
class Node:
    """A read-only view of one node of a :class:`Tree`."""

    tree: Tree
    id: int

    @property
    def kind(self) -> Kind:
        """``"max"``, ``"min"``, ``"chance"`` or ``"leaf"``."""
        return self.tree.kind[self.id]

    @property
    def label(self) -> str | None:
        """The label given in the input, if any."""
        return self.tree.label[self.id]

    @property
    def value(self) -> Number | None:
        """The leaf's value (``None`` for inner nodes)."""
        return self.tree.value[self.id]

    @property
    def static(self) -> Number | None:
        """The inner node's static evaluation e(n), if given."""
        return self.tree.static[self.id]

    @property
    def probability(self) -> float | None:
        """Probability of the edge from a chance parent, if any."""
        return self.tree.probability[self.id]

    @property
    def children(self) -> list[Node]:
        """The children, in the order given."""
        return [Node(self.tree, c) for c in self.tree.children[self.id]]

    @property
    def path(self) -> list[int]:
        """Child indices from the root."""
        return self.tree.path(self.id)

    @property
    def is_leaf(self) -> bool:
        """Whether the node has no children."""
        return not self.tree.children[self.id]


class TreeBuilder:
    """Builds a :class:`Tree` node by node in preorder.

    Call :meth:`add` for each node, parents before children and each subtree
    complete before its next sibling; :meth:`add` returns the new id. Kinds default
    to alternating MAX and MIN by depth from ``root``, passing through chance nodes.
    Parsers of large inputs may append to :attr:`parent`, :attr:`value` and
    :attr:`label` directly (all three, once per node); the rare attributes live in
    dicts keyed by node id.
    """

    def __init__(self, *, root: str = "max") -> None:
        if root not in ("max", "min"):
            raise TreeError(f"root must be 'max' or 'min', not {root!r}")
        self.root_kind: Kind = "max" if root == "max" else "min"
        self.parent: list[int] = []
        self.value: list[Number | None] = []
        self.label: list[str | None] = []
        self.kinds: dict[int, Kind] = {}
        self.statics: dict[int, Number] = {}
        self.probabilities: dict[int, float] = {}
        self.moves: dict[int, str] = {}

    def add(
        self,
        parent: int,
        *,
        value: Number | None = None,
        kind: str | None = None,
        label: str | None = None,
        static: Number | None = None,
        probability: float | None = None,
        move: str | None = None,
    ) -> int:
        """Append a node under ``parent`` (-1 for the root) and return its id.

        ``kind`` may be left out for inner nodes (it alternates by depth) and is
        ignored for nodes that end up as leaves.
        """
        node = len(self.parent)
        self.parent.append(parent)
        self.value.append(value)
        self.label.append(label)
        if kind is not None:
            if kind not in KINDS:
                raise TreeError(f"unknown node kind {kind!r} (expected max, min or chance)")
            self.kinds[node] = kind  # type: ignore[assignment]
        if static is not None:
            self.statics[node] = static
        if probability is not None:
            self.probabilities[node] = probability
        if move is not None:
            self.moves[node] = move
        return node

    def build(self, *, bounds: tuple[Number, Number] | None = None) -> Tree:
        """Check the invariants and return the finished :class:`Tree`."""
        n = len(self.parent)
        if n == 0:
            raise TreeError("the tree is empty")
        parent, value = self.parent, self.value
        has_child = [False] * n
        for i in range(1, n):
            has_child[parent[i]] = True
        # The player to move at each node: explicit kinds win, chance nodes pass the
        # turn through, otherwise MAX and MIN alternate.
        explicit = self.kinds
        player: list[Kind] = [self.root_kind] * n
        kinds: list[Kind] = ["leaf"] * n
        for i in range(n):
            if i:
                p = parent[i]
                above = player[p]
                player[i] = above if kinds[p] == "chance" else ("min" if above == "max" else "max")
            k = explicit.get(i)
            if k is not None and k != "chance":
                player[i] = k
            if has_child[i]:
                if value[i] is not None:
                    raise TreeError(f"node {self._name(i)} has both a value and children")
                kinds[i] = player[i] if k is None else k
            elif value[i] is None:
                raise TreeError(f"leaf {self._name(i)} has no value")
        probability: list[float | None] = [None] * n
        for i, prob in self.probabilities.items():
            probability[i] = prob
        self._check_probabilities(kinds, probability)
        static: list[Number | None] = [None] * n
        for i, sv in self.statics.items():
            static[i] = sv
        move: list[str | None] = [None] * n
        for i, mv in self.moves.items():
            move[i] = mv
        tree = Tree(
            parent=parent,
            kind=kinds,
            value=value,
            label=self.label,
            static=static,
            probability=probability,
            move=move,
            bounds=bounds,
        )
        if bounds is not None:
            check_bounds(tree, bounds)
        return tree

    def _check_probabilities(self, kinds: list[Kind], probability: list[float | None]) -> None:
        n = len(self.parent)
        total = [0.0] * n
        given = [0] * n
        count = [0] * n
        for i in range(1, n):
            p = self.parent[i]
            count[p] += 1
            prob = probability[i]
            if prob is None:
                continue
            if kinds[p] != "chance":
                raise TreeError(
                    f"node {self._name(i)} has a probability but its parent "
                    f"{self._name(p)} is a {kinds[p].upper()} node, not a chance node"
                )
            if not 0.0 <= prob <= 1.0:
                raise TreeError(f"probability {prob} of node {self._name(i)} is not in [0, 1]")
            total[p] += prob
            given[p] += 1
        for i in range(1, n):  # no probabilities given: outcomes are equally likely
            p = self.parent[i]
            if kinds[p] == "chance" and given[p] == 0:
                probability[i] = 1.0 / count[p]
        for i in range(n):
            if kinds[i] != "chance" or given[i] == 0:
                continue
            if given[i] != count[i]:
                raise TreeError(
                    f"chance node {self._name(i)} gives probabilities for {given[i]} of its "
                    f"{count[i]} children; give all or none"
                )
            if abs(total[i] - 1.0) > PROBABILITY_TOLERANCE:
                raise TreeError(
                    f"probabilities at chance node {self._name(i)} sum to {total[i]:g}, not 1"
                )

    def _name(self, i: int) -> str:
        label = self.label[i]
        if label is not None:
            return label
        steps: list[int] = []
        node = i
        while node > 0:
            p = self.parent[node]
            steps.append(sum(1 for j in range(p + 1, node + 1) if self.parent[j] == p) - 1)
            node = p
        return "root" if not steps else "at path " + ".".join(str(s) for s in reversed(steps))


def check_bounds(tree: Tree, bounds: tuple[Number, Number]) -> None:
    """Check that ``bounds = (low, high)`` is a finite range holding every leaf value."""
    low, high = bounds
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise TreeError(f"leaf bounds must be finite with low < high, not [{low}, {high}]")
    for node in tree.leaf_ids:
        v = tree.value[node]
        assert v is not None
        if not low <= v <= high:
            raise TreeError(
                f"leaf {tree.name(node)} = {format_number(v)} is outside the bounds "
                f"[{format_number(low)}, {format_number(high)}]"
            )
