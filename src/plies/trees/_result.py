"""What a search of an explicit tree returns: the result, its per-node records and the
trace of typed events that the narration, the renderers and graders read."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from plies.trees._model import Number, Tree, format_number

__all__ = [
    "Backup",
    "Cutoff",
    "Enter",
    "Evaluate",
    "Event",
    "Exit",
    "NodeRecord",
    "SearchOptions",
    "Static",
    "Status",
    "TreeResult",
]

INF = math.inf

Status = Literal["evaluated", "static", "visited", "cutoff", "pruned", "beyond-depth"]
ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "negamax", "expectiminimax")
ORDERS: tuple[str, ...] = ("given", "best", "worst", "random", "static")


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How to search a tree.

    ``algorithm``: ``minimax``, ``alphabeta``, ``negamax`` (negamax with alpha-beta
    pruning) or ``expectiminimax`` (Star1 pruning when ``star1`` and leaf bounds are
    known). ``fail_soft``: return the best value found even outside the window (else
    clamp to it, fail-hard). ``strict``: prune only when a value is strictly beyond
    the bound (CS188's rule) instead of on equality; with fail-hard, whose clamped
    values never pass a bound strictly, that prunes less than with fail-soft.
    ``order``: ``given``, ``best``, ``worst``, ``random`` (with ``seed``) or
    ``static`` (by inner static values).
    ``depth``: search only that many plies, scoring inner nodes there by their static
    value. ``window``: the root's (alpha, beta). ``trace``: record the event list.
    """

    algorithm: str = "alphabeta"
    fail_soft: bool = True
    strict: bool = False
    order: str = "given"
    seed: int | None = None
    depth: int | None = None
    window: tuple[Number, Number] = (-INF, INF)
    star1: bool = True
    trace: bool = True


# Events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enter:
    """The search enters ``node`` with the window (``alpha``, ``beta``).

    For negamax the window is from the point of view of the player at ``node``."""

    node: int
    alpha: Number
    beta: Number


@dataclass(frozen=True, slots=True)
class Evaluate:
    """Leaf ``node`` (leaf number ``leaf``, 0-based left to right) is evaluated."""

    node: int
    leaf: int
    value: Number


@dataclass(frozen=True, slots=True)
class Static:
    """Inner ``node`` sits at the depth limit and is scored by its static value."""

    node: int
    value: Number


@dataclass(frozen=True, slots=True)
class Cutoff:
    """Why the remaining children of a node were pruned.

    The node's value ``value`` compared with ``op`` against the bound ``bound``
    (``"alpha"`` or ``"beta"``) of value ``bound_value`` fired; the bound was set at
    node ``source`` (-1 when it comes from the root window). For Star1 at a chance
    node, ``value`` is the node's upper (fail low) or lower (fail high) bound.
    ``pruned`` lists the children cut off, in input order.
    """

    node: int
    value: Number
    op: str
    bound: str
    bound_value: Number
    source: int
    pruned: tuple[int, ...]
    star1: bool = False

    def inequality(self) -> str:
        """The inequality that fired, e.g. ``v=2 <= alpha=3``."""
        name = (
            "upper" if self.star1 and self.op.startswith("<") else ("lower" if self.star1 else "v")
        )
        return (
            f"{name}={format_number(self.value)} {self.op} "
            f"{self.bound}={format_number(self.bound_value)}"
        )


@dataclass(frozen=True, slots=True)
class Backup:
    """A child's value reaches its parent ``node``.

    ``child_value`` is what the child returned; ``received`` is the value the parent
    uses (its negation in negamax when the players differ, ``negated`` then true).
    ``value`` is the node's value after the update (the probability-weighted sum so
    far at a chance node) and ``improved`` whether it changed; ``bound`` names the
    bound that moved (``"alpha"``/``"beta"``) to ``bound_value``, if any; ``cutoff``
    is set when the update pruned the remaining children.
    """

    node: int
    child: int
    child_value: Number
    received: Number
    negated: bool
    value: Number
    improved: bool
    bound: str | None
    bound_value: Number | None
    cutoff: Cutoff | None


@dataclass(frozen=True, slots=True)
class Exit:
    """The search leaves ``node`` returning ``value`` (node's own view in negamax)."""

    node: int
    value: Number


Event = Enter | Evaluate | Static | Backup | Exit


# Results --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeRecord:
    """What the search did at one node (alpha, beta and value in MAX's view).

    ``status`` is ``evaluated`` (a leaf that was evaluated), ``static`` (scored by its
    static value at the depth limit), ``visited`` (searched, no cut-off), ``cutoff``
    (searched, and a cut-off pruned some children), ``pruned`` (never visited because
    an ancestor's cut-off pruned it) or ``beyond-depth``. ``reason`` explains a pruned
    subtree's root, e.g. ``pruned: v=2 <= alpha=3 (set at A)``.
    """

    id: int
    path: tuple[int, ...]
    label: str | None
    kind: str
    alpha_in: Number | None
    beta_in: Number | None
    alpha_out: Number | None
    beta_out: Number | None
    value: Number | None
    status: Status
    reason: str | None = None


@dataclass(eq=False)
class TreeResult:
    """The outcome of searching a tree, with everything needed to explain it.

    ``value`` is the root's value from MAX's point of view; ``bound`` says whether it
    is ``exact`` or only an ``upper``/``lower`` bound (a root window other than
    (-inf, inf) can make it one). ``pv`` lists node ids along the principal variation
    (it stops at a chance node); ``path`` gives the same as child indices in the input
    tree. ``evaluated`` lists leaf numbers (0-based, left to right in the input) in
    evaluation order. ``events`` is the trace (empty when tracing was off).
    """

    tree: Tree
    options: SearchOptions
    value: Number
    bound: Literal["exact", "lower", "upper"]
    pv: list[int]
    evaluated: list[int]
    nodes_visited: int
    cutoffs: int
    events: list[Event]
    alpha_in: list[Number | None] = field(repr=False)
    beta_in: list[Number | None] = field(repr=False)
    alpha_out: list[Number | None] = field(repr=False)
    beta_out: list[Number | None] = field(repr=False)
    values: list[Number | None] = field(repr=False)
    status: list[Status] = field(repr=False)
    cut_at: dict[int, Cutoff] = field(repr=False)

    @property
    def path(self) -> list[int]:
        """Child indices from the root along the principal variation."""
        return self.tree.path(self.pv[-1]) if self.pv else []

    @property
    def leaf_count(self) -> int:
        """Number of leaves in the tree."""
        return self.tree.leaf_count

    @property
    def best_child(self) -> int | None:
        """Index of the root's best child (the move to play), if the root has children."""
        path = self.path
        return path[0] if path else None

    def reason(self, node: int) -> str | None:
        """Why ``node`` was pruned, if it is the root of a pruned subtree."""
        if self.status[node] != "pruned" or node == 0:
            return None
        parent = self.tree.parent[node]
        cut = self.cut_at.get(parent)
        if cut is None or node not in cut.pruned:
            return None
        source = "the root window" if cut.source < 0 else self.tree.name(cut.source)
        where = f"set by {source}" if cut.source < 0 else f"set at {source}"
        return f"pruned: {cut.inequality()} ({where})"

    def record(self, node: int) -> NodeRecord:
        """The :class:`NodeRecord` of one node."""
        tree = self.tree
        return NodeRecord(
            id=node,
            path=tuple(tree.path(node)),
            label=tree.label[node],
            kind=tree.kind[node],
            alpha_in=self.alpha_in[node],
            beta_in=self.beta_in[node],
            alpha_out=self.alpha_out[node],
            beta_out=self.beta_out[node],
            value=self.values[node],
            status=self.status[node],
            reason=self.reason(node),
        )

    def records(self) -> list[NodeRecord]:
        """Every node's :class:`NodeRecord`, in preorder."""
        return [self.record(i) for i in range(len(self.tree))]

    @property
    def evaluated_count(self) -> int:
        """How many leaves were evaluated."""
        return len(self.evaluated)

    def _repr_svg_(self) -> str:
        """Jupyter: the annotated drawing as SVG (see :mod:`plies.draw`)."""
        from plies.draw import repr_svg

        return repr_svg(self)

    def _repr_html_(self) -> str:
        """Jupyter: the annotated drawing with its summary (see :mod:`plies.draw`)."""
        from plies.draw import repr_html

        return repr_html(self)

    def summary(self) -> str:
        """One line: ``evaluated 7 of 9 leaves, 11 nodes visited, 2 cut-offs``."""
        return (
            f"evaluated {self.evaluated_count} of {self.leaf_count} leaves, "
            f"{self.nodes_visited} nodes visited, {self.cutoffs} cut-off"
            f"{'' if self.cutoffs == 1 else 's'}"
        )
