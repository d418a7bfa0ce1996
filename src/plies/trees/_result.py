"""What a search of an explicit tree returns: the result, its per-node records and the
trace of typed events that the narration, the renderers and graders read."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Literal, TypeVar

from plies.errors import ArgumentTypeError, SearchError, TreeError
from plies.trees._log import SearchLog, evaluated_leaves, frame_cutoff
from plies.trees._model import Number, Tree, format_number, no_gc

__all__ = [
    "Backup",
    "Cutoff",
    "Enter",
    "Evaluate",
    "Event",
    "Exit",
    "NodeRecord",
    "SearchLog",
    "SearchOptions",
    "Static",
    "Status",
    "TreeResult",
]

INF = math.inf

Status = Literal["evaluated", "static", "visited", "cutoff", "pruned", "beyond-depth"]
ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "negamax", "expectiminimax")
ORDERS: tuple[str, ...] = ("given", "best", "worst", "random", "static")
BACKENDS: tuple[str, ...] = ("python", "native")
#: The size from which ``backend=None`` searches a tree natively. Below it the Python
#: loop takes a few ms at most, less than loading the compiled code (about 0.3 s the
#: first time in a process) and building the tree's arrays (about 0.1 s per 10^6 nodes).
NATIVE_MIN_NODES = 100_000


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
    ``backend``: ``"python"``, ``"native"`` (the loop compiled by Numba:
    given order, no chance nodes or depth limit; a search it cannot run raises
    :class:`SearchError` saying why) or None, native for trees of at least
    :data:`NATIVE_MIN_NODES` nodes when the search qualifies, else Python. Both give
    the same result.
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
    backend: str | None = None

    def __post_init__(self) -> None:
        """Refuse options no search could use, naming the option and the value given."""
        _check_name("algorithm", self.algorithm, ALGORITHMS)
        _check_name("move ordering", self.order, ORDERS)
        if self.backend is not None:
            _check_name("backend", self.backend, BACKENDS)
        for name in ("fail_soft", "strict", "star1", "trace"):
            flag = getattr(self, name)
            if type(flag) is not bool:  # 1, "yes" and numpy.bool_ are not accepted
                raise ArgumentTypeError(f"{name} must be True or False, not {flag!r}")
        if self.seed is not None and not _is_int(self.seed):
            raise ArgumentTypeError(f"seed must be an int or None, not {self.seed!r}")
        if self.depth is not None:
            if not _is_int(self.depth):
                raise ArgumentTypeError(f"depth must be an int or None, not {self.depth!r}")
            if self.depth < 0:
                raise SearchError(f"the depth limit must be 0 or more, not {self.depth}")
        object.__setattr__(self, "window", _check_window(self.window))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_real(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _check_name(what: str, name: object, known: tuple[str, ...]) -> None:
    if not isinstance(name, str):
        raise ArgumentTypeError(f"the {what} must be a string, not {name!r}")
    if name not in known:
        raise SearchError(f"unknown {what} {name!r} (expected one of {', '.join(known)})")


def _check_window(window: object) -> tuple[Number, Number]:
    """The root window as a tuple ``(alpha, beta)`` of real numbers with alpha < beta."""
    if not isinstance(window, tuple | list) or len(window) != 2:
        raise ArgumentTypeError(f"window must be a pair (alpha, beta), not {window!r}")
    alpha, beta = window
    if not (_is_real(alpha) and _is_real(beta)):
        raise ArgumentTypeError(f"window must hold two real numbers, not {window!r}")
    if math.isnan(alpha) or math.isnan(beta) or not alpha < beta:
        raise SearchError(
            f"the root window needs alpha < beta, not "
            f"({format_number(alpha)}, {format_number(beta)})"
        )
    return (alpha, beta)


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
    """Leaf ``node`` (leaf number ``leaf``, 0-based left to right in the input) is
    evaluated, the ``number``-th leaf evaluated (1-based; drawings write it ``#k``)."""

    node: int
    leaf: int
    value: Number
    number: int = 0


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

_E = TypeVar("_E")


def maker(cls: type[_E]) -> Callable[..., _E]:
    """A function making a ``cls`` (a frozen dataclass with slots, such as an event)
    from all its fields, in order, as its ``__init__`` does, but storing each field
    through its slot instead of ``object.__setattr__``: an event in half the time.
    The search's trace makes its events with these (on a random tree of 1,365 nodes,
    making the events took three quarters of a traced alpha-beta search). The function is
    generated from the fields, as dataclasses generate ``__init__``.

    >>> maker(Enter)(1, -2, 3) == Enter(1, -2, 3)
    True
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {f"set_{n}": getattr(cls, n).__set__ for n in names}
    scope |= {"new": object.__new__, "cls": cls}
    body = "".join(f"    set_{n}(e, {n})\n" for n in names)
    exec(f"def make({', '.join(names)}):\n    e = new(cls)\n{body}    return e\n", scope)
    made: Callable[..., _E] = scope["make"]
    made.__qualname__ = made.__name__ = f"make_{cls.__name__}"
    return made


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


class TreeResult:
    """The outcome of searching a tree, with everything needed to explain it.

    ``value`` is the root's value from MAX's point of view; ``bound`` says whether it
    is ``exact`` or only an ``upper``/``lower`` bound (a root window other than
    (-inf, inf) can make it one). ``pv`` lists node ids along the principal variation
    (it stops at a chance node); ``path`` gives the same as child indices in the input
    tree. ``evaluated`` lists leaf numbers (0-based, left to right in the input) in
    evaluation order. ``events`` is the trace (empty when tracing was off).

    The per-node lists ``alpha_in``, ``beta_in``, ``alpha_out``, ``beta_out``,
    ``values`` (MAX's view, ``None`` where the search did not go) and ``status`` are
    indexed by node id. The search keeps records of the nodes it visits only; these
    lists, ``cut_at`` and ``events`` are built from them on first access, so a search
    that visits 3% of a tree costs 3% of a full walk until someone asks for them.
    """

    def __init__(
        self,
        *,
        tree: Tree,
        options: SearchOptions,
        value: Number,
        bound: Literal["exact", "lower", "upper"],
        log: SearchLog,
    ) -> None:
        self.tree = tree
        self.options = options
        self.value = value
        self.bound = bound
        self.cutoffs = log.cutoffs
        self._log = log

    @cached_property
    def pv(self) -> list[int]:
        """Node ids along the principal variation, from the root: each node's best
        child, down to a leaf (or a chance node, or the depth limit)."""
        return self._log.principal_variation()

    @cached_property
    def nodes_visited(self) -> int:
        """How many nodes the search entered."""
        return self._log.nodes_visited

    def __repr__(self) -> str:
        return (
            f"TreeResult(value={self.value!r}, bound={self.bound!r}, path={self.path!r}, "
            f"algorithm={self.options.algorithm!r}, {self.summary()})"
        )

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

    @cached_property
    def evaluated(self) -> list[int]:
        """Leaf numbers (0-based, left to right in the input) in evaluation order."""
        leaf_index = self.tree.leaf_index
        return [leaf_index[node] for node in self._leaf_visits[0]]

    @property
    def evaluated_count(self) -> int:
        """How many leaves were evaluated."""
        return self._log.leaf_count

    @cached_property
    def _leaf_visits(self) -> tuple[list[int], list[Number]]:
        """The evaluated leaves in order, and their windows (flat, in the parent's
        view): see :func:`~plies.trees._log.evaluated_leaves`."""
        return evaluated_leaves(self._log, self.tree)

    # Per-node records, built on first access ------------------------------------------

    @cached_property
    def _records(self) -> tuple[list[Number | None], ...]:
        """``(alpha_in, beta_in, alpha_out, beta_out, values)`` for every node."""
        tree, log = self.tree, self._log
        n = len(tree)
        a_in: list[Number | None] = [None] * n
        b_in: list[Number | None] = [None] * n
        a_out: list[Number | None] = [None] * n
        b_out: list[Number | None] = [None] * n
        values: list[Number | None] = [None] * n
        kind, parent, leaf_value = tree.kind, tree.parent, tree.value
        visited, windows = self._leaf_visits
        for k, node in enumerate(visited):
            a, b = windows[2 * k], windows[2 * k + 1]
            if node and kind[parent[node]] == "min":
                a, b = -b, -a
            a_in[node] = a_out[node] = a
            b_in[node] = b_out[node] = b
            values[node] = leaf_value[node]
        for node, a, b, v, c in log.statics:
            if c < 0:
                a, b = -b, -a
            a_in[node], b_in[node], a_out[node], b_out[node], values[node] = a, b, a, b, v
        for f in log.frames:
            node = f.node
            if f.colour > 0:
                a_in[node], b_in[node] = f.alpha_in, f.beta_in
                a_out[node], b_out[node] = f.alpha, f.beta
                values[node] = f.value
            else:
                a_in[node], b_in[node] = -f.beta_in, -f.alpha_in
                a_out[node], b_out[node] = -f.beta, -f.alpha
                values[node] = -f.value  # type: ignore[operator]
        return a_in, b_in, a_out, b_out, values

    @property
    def alpha_in(self) -> list[Number | None]:
        """Alpha when the search entered each node (MAX's view; None if never)."""
        return self._records[0]

    @property
    def beta_in(self) -> list[Number | None]:
        """Beta when the search entered each node (MAX's view; None if never)."""
        return self._records[1]

    @property
    def alpha_out(self) -> list[Number | None]:
        """Alpha when the search left each node (MAX's view; None if never entered)."""
        return self._records[2]

    @property
    def beta_out(self) -> list[Number | None]:
        """Beta when the search left each node (MAX's view; None if never entered)."""
        return self._records[3]

    @property
    def values(self) -> list[Number | None]:
        """Each node's value as the search found it (MAX's view; None if not searched)."""
        return self._records[4]

    @cached_property
    def status(self) -> list[Status]:
        """Each node's status (see :class:`NodeRecord`). Unvisited nodes are
        ``pruned``, or ``beyond-depth`` below a node scored at the depth limit."""
        tree, log = self.tree, self._log
        n = len(tree)
        status: list[Status] = ["pruned"] * n
        for node in self._leaf_visits[0]:
            status[node] = "evaluated"
        for f in log.frames:
            status[f.node] = "cutoff" if f.cut else "visited"
        for static in log.statics:
            status[static.node] = "static"
        if log.statics:  # parents come before children in preorder
            parent, values = tree.parent, self.values
            for node in range(1, n):
                if values[node] is None and status[parent[node]] in ("static", "beyond-depth"):
                    status[node] = "beyond-depth"
        return status

    @cached_property
    def cut_at(self) -> dict[int, Cutoff]:
        """The :class:`Cutoff` of each node where one pruned children, by node id."""
        movers = self.options.algorithm == "negamax"
        strict = self.options.strict
        cuts: dict[int, Cutoff] = {}
        for f in self._log.frames:
            if f.cut:
                cuts[f.node] = frame_cutoff(f, movers_view=movers, strict=strict)
        return cuts

    @cached_property
    def events(self) -> list[Event]:
        """The trace: every step of the search as typed events (empty with ``trace``
        off). Negamax events are from the view of the player at each node; the others
        are in MAX's view."""
        trace = self._log.trace
        if trace is None:
            return []
        with no_gc():  # 240 -> 146 ms for the 113,513 events of alpha-beta on 10^6 leaves
            events: list[Event] = trace.events()
        return events

    # Per-node views ------------------------------------------------------------------

    @cached_property
    def _pruned_by(self) -> dict[int, Cutoff]:
        """The cut-off that pruned each child, by child id (roots of pruned subtrees)."""
        return {child: cut for cut in self.cut_at.values() for child in cut.pruned}

    def _check_node(self, node: object) -> int:
        if not isinstance(node, int) or isinstance(node, bool):
            raise ArgumentTypeError(f"node must be a node id (an int), not {node!r}")
        if not 0 <= node < len(self.tree):
            raise TreeError(f"node {node} is not in the tree (ids 0 to {len(self.tree) - 1})")
        return node

    def reason(self, node: int) -> str | None:
        """Why ``node`` was pruned, if it is the root of a pruned subtree. For negamax at
        a MIN node the inequality is in MIN's view, and says so."""
        return self._reason(self._check_node(node))

    def _reason(self, node: int) -> str | None:
        cut = self._pruned_by.get(node)
        if cut is None:
            return None
        source = "the root window" if cut.source < 0 else self.tree.name(cut.source)
        where = f"set by {source}" if cut.source < 0 else f"set at {source}"
        view = " in MIN's view" if self._min_view(cut.node) else ""
        return f"pruned: {cut.inequality()}{view} ({where})"

    def _min_view(self, node: int) -> bool:
        """Whether the events and cut-off at ``node`` are in MIN's view (negamax)."""
        return self.options.algorithm == "negamax" and self.tree.kind[node] == "min"

    def record(self, node: int) -> NodeRecord:
        """The :class:`NodeRecord` of one node."""
        tree = self.tree
        self._check_node(node)
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
            reason=self._reason(node),
        )

    def records(self) -> list[NodeRecord]:
        """Every node's :class:`NodeRecord`, in preorder."""
        return [self.record(i) for i in range(len(self.tree))]

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
