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
import numbers
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import compress, count, product
from operator import lt, ne, not_
from string import ascii_uppercase
from typing import Any, Literal

from plies.errors import ArgumentTypeError, TreeError

__all__ = [
    "KINDS",
    "Kind",
    "Labels",
    "Node",
    "Number",
    "Tree",
    "TreeBuilder",
    "check_bounds",
    "check_number",
    "control_character",
    "format_number",
    "letter_names",
    "no_gc",
]

Number = int | float
Kind = Literal["max", "min", "chance", "leaf"]
KINDS: tuple[str, ...] = ("max", "min", "chance")

#: Probabilities at a chance node may miss 1 by this much (decimal input like 0.1 * 10).
PROBABILITY_TOLERANCE = 1e-9

#: Whole numbers may have at most this many digits. Values meet floats everywhere
#: (expectiminimax averages, bounds, drawings) and a float holds at most about 1.8e308,
#: so ``0.5 * 10**400`` is an OverflowError; 300 digits is far beyond any game score and
#: keeps ``int()`` well inside Python's 4,300-digit limit on reading integers.
MAX_DIGITS = 300
_INT_LIMIT = 10**MAX_DIGITS

# Characters refused in labels and move names: C0 and C1 controls and DEL (an escape
# sequence retitles a terminal or breaks a Graphviz file), and the bidirectional
# overrides that make text display in another order than it reads.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def control_character(text: str) -> int | None:
    """The offset of the first control character in ``text``, or ``None``."""
    m = _CONTROL.search(text)
    return None if m is None else m.start()


def describe_character(ch: str) -> str:
    """``U+001B`` for a character that must not be printed as it is."""
    return f"U+{ord(ch):04X}"


def check_number(value: object, what: str) -> Number:
    """``value`` as a leaf value, static value or bound: an int or float that is not NaN
    and, if whole, has at most :data:`MAX_DIGITS` digits (``inf`` and ``-inf`` are fine).

    Raises :class:`ArgumentTypeError` for a non-number (``True`` included) and
    :class:`TreeError` for NaN or a number out of range; ``what`` names the input.
    """
    if type(value) is int:  # the common cases first: 5x faster than the checks below
        if -_INT_LIMIT < value < _INT_LIMIT:
            return value
    elif type(value) is float and not math.isnan(value):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{what} must be a number, not {_show(value)}")
    if not isinstance(value, int | float):  # numpy scalars, fractions: plain Python numbers
        try:
            value = int(value) if isinstance(value, numbers.Integral) else float(value)
        except OverflowError:  # a Fraction or Decimal beyond the float range
            raise TreeError(f"{what} is out of the range of numbers plies reads") from None
    if isinstance(value, float):
        if math.isnan(value):
            raise TreeError(f"{what} is NaN (not a number); give a number or inf/-inf")
    elif not -_INT_LIMIT < value < _INT_LIMIT:
        raise TreeError(
            f"{what} has {_digits(value)} digits; plies reads whole numbers of at most "
            f"{MAX_DIGITS} digits"
        )
    return value


def _plain_number(value: object) -> bool:
    """Whether ``value`` is an int or float that :func:`check_number` accepts as it is
    (a quick test that spares building the message of a check that passes)."""
    if type(value) is int:
        return bool(-_INT_LIMIT < value < _INT_LIMIT)
    return type(value) is float and not math.isnan(value)


def _digits(value: int) -> str:
    """How many digits ``value`` has (str() itself refuses more than 4,300)."""
    bits = abs(value).bit_length()
    if bits < 14_000:
        return f"{len(str(abs(value))):,}"
    return f"about {int(bits * math.log10(2)):,}"


def _show(value: object) -> str:
    """A short, printable description of a bad argument for an error message."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({type(value).__name__})"


def _check_text(text: object, what: str) -> str:
    """A label or move name: a string without control characters."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be a string, not {_show(text)}")
    bad = control_character(text)
    if bad is not None:
        raise TreeError(
            f"{what} {text[:bad]!r}... has the control character "
            f"{describe_character(text[bad])} at position {bad + 1}"
        )
    return text


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


def letter_names() -> Iterator[str]:
    """``A``, ``B``, ..., ``Z``, ``AA``, ``AB``, ...: the names textbooks give the
    inner nodes of a tree, in preorder (spreadsheet columns)."""
    for width in count(1):
        for letters in product(ascii_uppercase, repeat=width):
            yield "".join(letters)


class Labels(list[str | None]):
    """A tree's labels, one per node: a list that counts the changes made to it, so
    that the names derived from it (:meth:`Tree.name`) follow a label set after the
    tree is built (``tree.label[3] = "D"``)."""

    __slots__ = ("changes",)

    def __init__(self, labels: Iterable[str | None] = ()) -> None:
        super().__init__(labels)
        self.changes = 0

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        self.changes += 1

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        self.changes += 1


def _leaf_name(parent: str, position: int, taken: set[str | None]) -> str:
    """An unlabelled leaf's name: its parent's name and its 1-based ``position``
    (``B2``; ``S1.2`` when the parent's name ends in a digit), kept clear of
    the labels in ``taken``."""
    name = f"{parent}.{position}" if parent[-1:].isdigit() else f"{parent}{position}"
    if name in taken:
        name = f"{parent}.{position}"
    while name in taken:
        name += "'"
    return name


class Links:
    """The shape of a tree, derived from its preorder ``parent`` list in one pass.

    ``children``, ``depth``, ``leaf_ids``, ``leaf_index`` and ``is_leaf`` (per node).
    ``parent`` must satisfy the invariants in the module docstring.
    """

    __slots__ = ("children", "depth", "is_leaf", "leaf_ids", "leaf_index")

    def __init__(self, parent: list[int]) -> None:
        n = len(parent)
        if n == 0:
            raise TreeError("the tree is empty")
        if parent[0] != -1 or (
            n > 1 and (min(parent[1:]) < 0 or not all(map(lt, parent[1:], range(1, n))))
        ):
            raise TreeError(
                "the parent list is not in preorder: parent[0] must be -1 and "
                "0 <= parent[i] < i for every other node"
            )
        # In preorder a node's first child directly follows it, so node i is a leaf
        # exactly when parent[i + 1] != i: one C-level pass instead of a Python loop.
        after = parent[1:]
        after.append(-1)
        is_leaf = list(map(ne, after, range(n)))
        empty: list[int] = []
        children = [empty if leaf else [] for leaf in is_leaf]
        depth = [0] * n
        for i in range(1, n):
            p = parent[i]
            children[p].append(i)
            depth[i] = depth[p] + 1
        if empty:  # a node's first child did not follow it: not preorder
            raise TreeError(
                f"the parent list is not in preorder: node {empty[0]} is not next to its parent"
            )
        leaf_ids = list(compress(range(n), is_leaf))
        leaf_index = [-1] * n
        for k, i in enumerate(leaf_ids):
            leaf_index[i] = k
        self.children = children
        self.depth = depth
        self.is_leaf = is_leaf
        self.leaf_ids = leaf_ids
        self.leaf_index = leaf_index


class Tree:
    """A game tree with nodes numbered in preorder; searches never change it.

    Build one with a parser (:func:`plies.trees.parse`), :func:`plies.trees.from_leaves`,
    :func:`plies.trees.random_tree` or a :class:`TreeBuilder`. ``bounds`` are optional
    known bounds ``(low, high)`` on every leaf value, used by Star1 pruning; they may
    be set after building, once :func:`check_bounds` accepts them.
    """

    __slots__ = (
        "_child_index",
        "_has_chance",
        "_label",
        "_leaf_ids",
        "_names",
        "_names_at",
        "bounds",
        "children",
        "depth",
        "hints",
        "kind",
        "leaf_index",
        "move",
        "native",
        "parent",
        "pictures",
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
        links: Links | None = None,
    ) -> None:
        self.parent = parent
        self.kind = kind
        #: Leaf values; ``None`` for inner nodes, and for the leaves of a tree built with
        #: ``TreeBuilder.build(allow_missing=True)`` that have no value (a search that
        #: reaches one raises :class:`~plies.errors.SearchError`).
        self.value = value
        self._names: list[str] | None = None
        self._names_at = 0
        self.label = label
        self.static = static
        self.probability = probability
        self.move = move
        self.bounds = bounds
        #: Defaults the input asked for, e.g. ``{"algorithm": "alphabeta", "strict": True}``
        #: from a CS188 test file. Callers apply them unless the user says otherwise.
        self.hints: dict[str, str | bool] = {}
        #: Small text pictures of nodes by id (a game's board, one string a row), drawn
        #: under the node by plies' own SVG, the HTML stepper and the web lab.
        self.pictures: dict[int, list[str]] = {}
        if links is None:
            links = Links(parent)
        #: The children of each node, in order. All leaves of one tree share one empty
        #: list (a million leaves would otherwise hold 56 MB of empty lists): never
        #: change these lists.
        self.children = links.children
        #: Distance from the root, in edges.
        self.depth = links.depth
        #: Leaf number of each leaf, left to right (-1 for inner nodes).
        self.leaf_index = links.leaf_index
        self._leaf_ids = links.leaf_ids
        self._child_index: list[int] | None = None
        self._has_chance = "chance" in kind
        #: The native backend's arrays of this tree (built on its first native search
        #: and kept: trees never change), or False if it cannot have them.
        self.native: Any = None

    @property
    def label(self) -> Labels:
        """The label of each node given in the input, or ``None``. Set labels in
        place (``tree.label[3] = "D"``) or replace the whole list; names follow."""
        return self._label

    @label.setter
    def label(self, labels: list[str | None]) -> None:
        self._label = labels if isinstance(labels, Labels) else Labels(labels)
        self._names = None

    @property
    def child_index(self) -> list[int]:
        """Position of each node among its parent's children (0 for the root).

        Computed on first use: searches never need it, and it costs a pass over the
        nodes (about 0.1 s per million)."""
        if self._child_index is None:
            child_index = [0] * len(self.parent)
            for kids in self.children:
                for k, c in enumerate(kids):
                    child_index[c] = k
            self._child_index = child_index
        return self._child_index

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

    def check_node(self, node: object) -> int:
        """``node``, which must be a node id of this tree (an int from 0 to the number
        of nodes less one): :class:`ArgumentTypeError` or :class:`TreeError` if not."""
        if isinstance(node, bool) or not isinstance(node, int):
            raise ArgumentTypeError(f"node must be a node id (an int), not {_show(node)}")
        if not 0 <= node < len(self.parent):
            raise TreeError(f"no node {_show(node)}: node ids run from 0 to {len(self.parent) - 1}")
        return node

    def path(self, node: int) -> list[int]:
        """Child indices from the root down to ``node`` (``[]`` for the root)."""
        self.check_node(node)
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
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise ArgumentTypeError(f"limit must be a whole number, not {_show(limit)}")
        if sum(self.depth) > limit:
            return None
        paths: list[tuple[int, ...]] = [()] * len(self.parent)
        for i in range(1, len(self.parent)):
            paths[i] = (*paths[self.parent[i]], self.child_index[i])
        return paths

    def node_at(self, path: Sequence[int]) -> int:
        """The node id reached by following child indices from the root."""
        if not isinstance(path, list | tuple) or not all(
            isinstance(step, int) and not isinstance(step, bool) for step in path
        ):
            raise ArgumentTypeError(f"path must be a list of child indices, not {_show(path)}")
        node = 0
        for step in path:
            kids = self.children[node]
            if not 0 <= step < len(kids):
                raise TreeError(f"path {list(path)} leaves the tree at child index {step}")
            node = kids[step]
        return node

    def name(self, node: int) -> str:
        """The one name of ``node`` that narration, feedback, JSON and drawings use.

        Its label when the input gives one. Otherwise an inner node (or the root) is
        named by letters in preorder as textbooks draw them, ``A`` for the root, then
        ``B``, ``C``, ... ``Z``, ``AA``, ``AB``, ... (a letter that is another node's
        label is skipped), and a leaf by its parent's name and its 1-based place
        among the parent's children (``B2``; ``S1.2`` when the parent's name ends in
        a digit). Names are unique when labels are. The names of all nodes are made
        on the first call (about 0.1 s per 100,000 nodes) and kept until a label
        changes.
        """
        self.check_node(node)
        names = self._names
        if names is None or self._names_at != self._label.changes:
            names = self._names = self._all_names()
            self._names_at = self._label.changes
        return names[node]

    def _all_names(self) -> list[str]:
        """Every node's name (see :meth:`name`), in one pass in preorder."""
        labels, children = self._label, self.children
        taken: set[str | None] = set(labels)
        letters = (name for name in letter_names() if name not in taken)
        if None not in labels:
            return list(labels)  # type: ignore[arg-type]  # every node is labelled
        parent, child_index = self.parent, self.child_index
        names: list[str] = []
        append = names.append
        for node, label in enumerate(labels):
            if label is not None:
                append(label)
            elif node == 0 or children[node]:
                append(next(letters))
            else:
                append(_leaf_name(names[parent[node]], child_index[node] + 1, taken))
        return names

    def node(self, node: int) -> Node:
        """A read-only :class:`Node` view of node ``node``."""
        return Node(self, self.check_node(node))

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
    :attr:`label` directly (all three, once per node, checked values only, and never
    mixed with :meth:`add`); the rare attributes live in dicts keyed by node id.
    """

    def __init__(self, *, root: str = "max") -> None:
        if root not in ("max", "min"):
            raise TreeError(f"root must be 'max' or 'min', not {_show(root)}")
        self.root_kind: Kind = "max" if root == "max" else "min"
        self.parent: list[int] = []
        self.value: list[Number | None] = []
        self.label: list[str | None] = []
        self.kinds: dict[int, Kind] = {}
        self.statics: dict[int, Number] = {}
        self.probabilities: dict[int, float] = {}
        self.moves: dict[int, str] = {}
        # The path from the root to the last node added: a new node's parent must be
        # on it, which keeps every subtree a contiguous range of ids.
        self._open: list[int] = []
        self._added = 0  # nodes added by add(), as opposed to appended directly

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
        ignored for nodes that end up as leaves. Values must be numbers (not NaN),
        labels and moves strings without control characters: anything else raises
        :class:`TreeError` (or :class:`ArgumentTypeError` for a wrong type).
        """
        node = len(self.parent)
        self._check_parent(node, parent)
        if value is not None and not _plain_number(value):
            value = check_number(value, f"the value of node {node}")
        if label is not None:
            label = _check_text(label, f"the label of node {node}")
        if move is not None:
            move = _check_text(move, f"the move to node {node}")
        if kind is not None and kind not in KINDS:
            raise TreeError(f"unknown node kind {_show(kind)} (expected max, min or chance)")
        if static is not None:
            static = check_number(static, f"the static value of node {node}")
        if probability is not None:
            probability = float(check_number(probability, f"the probability of node {node}"))
            if not 0.0 <= probability <= 1.0:
                raise TreeError(
                    f"probability {probability:g} of node {label or node} is not in [0, 1]"
                )
        self.parent.append(parent)
        self.value.append(value)
        self.label.append(label)
        self._open.append(node)
        self._added += 1
        if kind is not None:
            self.kinds[node] = kind  # type: ignore[assignment]
        if static is not None:
            self.statics[node] = static
        if probability is not None:
            self.probabilities[node] = probability
        if move is not None:
            self.moves[node] = move
        return node

    def _check_parent(self, node: int, parent: object) -> None:
        if isinstance(parent, bool) or not isinstance(parent, int):
            raise ArgumentTypeError(f"parent must be a node id (an int), not {_show(parent)}")
        if node == 0:
            if parent != -1:
                raise TreeError(f"the first node is the root: its parent must be -1, not {parent}")
            return
        if self._added != node:
            raise TreeError("add() cannot follow nodes appended to the builder's lists directly")
        open_path = self._open
        while open_path and open_path[-1] != parent:
            open_path.pop()
        if not open_path:
            raise TreeError(
                f"parent {parent} of node {node} is not the last node added or one of its "
                "ancestors (nodes go in preorder: each subtree complete before the next)"
            )

    def build(
        self, *, bounds: tuple[Number, Number] | None = None, allow_missing: bool = False
    ) -> Tree:
        """Check the invariants and return the finished :class:`Tree`.

        With ``allow_missing``, leaves without a value are kept with value ``None``
        (a CS188 state that no search needs to evaluate); searching such a tree raises
        :class:`~plies.errors.SearchError` when it reaches one.
        """
        n = len(self.parent)
        if n == 0:
            raise TreeError("the tree is empty")
        if not len(self.value) == len(self.label) == n:
            raise TreeError(
                f"the builder's lists differ in length: {n} parents, {len(self.value)} "
                f"values, {len(self.label)} labels"
            )
        links = Links(self.parent)
        self._check_values(links, allow_missing=allow_missing)
        if not self.kinds:
            kinds = self._alternating_kinds(links)
        else:
            kinds = self._given_kinds(links) or self._kinds(links)
        probability: list[float | None] = [None] * n
        if self.probabilities or "chance" in self.kinds.values():
            for i, prob in self.probabilities.items():
                probability[i] = prob
            self._check_probabilities(kinds, probability)
        tree = Tree(
            parent=self.parent,
            kind=kinds,
            value=self.value,
            label=self.label,
            static=_spread(self.statics, n),
            probability=probability,
            move=_spread(self.moves, n),
            bounds=bounds,
            links=links,
        )
        if bounds is not None:
            check_bounds(tree, bounds)
        return tree

    def _check_values(self, links: Links, *, allow_missing: bool) -> None:
        """Inner nodes have no value; leaves have one unless ``allow_missing``."""
        value = self.value
        for i in compress(range(len(value)), map(not_, links.is_leaf)):
            if value[i] is not None:
                raise TreeError(f"node {self._name(i)} has both a value and children")
        if not allow_missing and None in map(value.__getitem__, links.leaf_ids):
            missing = next(i for i in links.leaf_ids if value[i] is None)
            raise TreeError(f"leaf {self._name(missing)} has no value")

    def _alternating_kinds(self, links: Links) -> list[Kind]:
        """Kinds when none is given: MAX and MIN alternate by depth."""
        other: Kind = "min" if self.root_kind == "max" else "max"
        by_parity: tuple[Kind, Kind] = (self.root_kind, other)
        pairs = zip(links.depth, links.is_leaf, strict=True)
        return ["leaf" if leaf else by_parity[d & 1] for d, leaf in pairs]

    def _given_kinds(self, links: Links) -> list[Kind] | None:
        """Kinds when every inner node has one given (CS188 files, random trees), with
        nothing to infer; ``None`` otherwise. Twice as fast as :meth:`_kinds`."""
        n = len(self.parent)
        if len(self.kinds) != n - len(links.leaf_ids):
            return None
        kinds: list[Kind] = ["leaf"] * n
        is_leaf = links.is_leaf
        for i, k in self.kinds.items():
            if is_leaf[i]:
                return None
            kinds[i] = k
        return kinds

    def _kinds(self, links: Links) -> list[Kind]:
        """Kinds with some given: explicit kinds win, chance nodes pass the turn
        through, otherwise MAX and MIN alternate."""
        n = len(self.parent)
        parent, explicit, is_leaf = self.parent, self.kinds, links.is_leaf
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
            if not is_leaf[i]:
                kinds[i] = player[i] if k is None else k
        return kinds

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
                    f"probabilities at chance node {self._name(i)} sum to "
                    f"{_sum_text(total[i])}, not 1"
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


def _spread(values: dict[int, Any], n: int) -> list[Any]:
    """A list of ``n`` entries, ``None`` except where ``values`` has one."""
    spread: list[Any] = [None] * n
    for i, v in values.items():
        spread[i] = v
    return spread


def _sum_text(total: float) -> str:
    """A sum of probabilities as text that never reads "1" when it is not 1: as many
    digits as it takes to show the difference (0.9999999, not 1)."""
    for digits in range(6, 18):
        text = f"{total:.{digits}g}"
        if float(text) != 1.0:
            return text
    return repr(total)


def check_bounds(tree: Tree, bounds: object) -> None:
    """Check that ``bounds = (low, high)`` is a finite range holding every leaf value
    (leaves without a value are skipped)."""
    if not isinstance(bounds, tuple | list) or len(bounds) != 2:
        raise ArgumentTypeError(f"bounds must be a pair (low, high), not {_show(bounds)}")
    low = check_number(bounds[0], "the low bound")
    high = check_number(bounds[1], "the high bound")
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise TreeError(
            f"leaf bounds must be finite with low < high, not "
            f"[{format_number(low)}, {format_number(high)}]"
        )
    for node in tree.leaf_ids:
        v = tree.value[node]
        if v is not None and not low <= v <= high:
            raise TreeError(
                f"leaf {tree.name(node)} = {format_number(v)} is outside the bounds "
                f"[{format_number(low)}, {format_number(high)}]"
            )
