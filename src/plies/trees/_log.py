"""What one search of an explicit tree keeps: a named frame per inner node it searched.

A :class:`Frame` records what the search did at an inner node, made when it leaves
the node (a chance node's is open while its children are searched); the frames stay
in :attr:`SearchLog.frames`, in the order the nodes finished. Frames are kept in the
view of the player at their node (``colour`` +1 at MAX and chance nodes, -1 at MIN
nodes: alpha, beta, best and value are then negated, and alpha is MIN's bound).
Leaves get no record of their own: which leaves were evaluated, and with what window,
follows from the frames (:func:`evaluated_leaves`). The search records its events as
it goes (:mod:`plies.trees._loop`); nothing here rebuilds them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, NamedTuple

from plies.trees._model import Number, Tree

__all__ = [
    "CUT_OP",
    "ChanceFrame",
    "Frame",
    "Scored",
    "SearchLog",
    "evaluated_leaves",
    "frame_cutoff",
]

INF = math.inf
#: The inequality that cuts, by (sign of the mover in the view shown, strict rule).
CUT_OP = {(1, False): ">=", (1, True): ">", (-1, False): "<=", (-1, True): "<"}


class Frame:
    """One inner node the search entered, in its player's view (see the module).

    ``kids`` are the children in search order and ``taken`` how many were taken;
    ``alpha_source``/``beta_source`` the node where each bound was set (-1: the root
    window); ``best_child`` the child whose value is ``best`` (-1 before the first);
    ``alpha_in``/``beta_in`` the window on entry (beta never moves: ``beta`` is
    ``beta_in``) and ``value`` what the node returned; ``cut`` the index in ``kids``
    of the first child a cut-off pruned (0: none).

    The search makes a MAX or MIN node's frame when the node is finished, from the
    values it kept while searching it: a frame is written once, not once per child
    (see :func:`plies.trees._loop._loop`); a chance node's is kept open
    (:class:`ChanceFrame`).
    """

    __slots__ = (
        "alpha",
        "alpha_in",
        "alpha_source",
        "best",
        "best_child",
        "beta",
        "beta_in",
        "beta_source",
        "colour",
        "cut",
        "kids",
        "node",
        "taken",
        "value",
    )
    node: int
    kids: list[int]
    taken: int
    alpha: Number
    beta: Number
    alpha_source: int
    beta_source: int
    best: Number
    best_child: int
    colour: int
    alpha_in: Number
    beta_in: Number
    value: Number | None
    cut: int

    def __init__(  # noqa: PLR0917  # one per inner node: every field, in one call
        self,
        node: int,
        kids: list[int],
        colour: int,
        alpha_in: Number,
        beta: Number,
        alpha_source: int,
        beta_source: int,
        taken: int,
        alpha: Number,
        best: Number,
        best_child: int,
        value: Number | None,
        cut: int,
    ) -> None:
        # One field a statement, numbers not pairs: 3-4% less time for a search
        self.node = node
        self.kids = kids
        self.colour = colour
        self.alpha_in = alpha_in
        self.beta = self.beta_in = beta
        self.alpha_source = alpha_source
        self.beta_source = beta_source
        self.taken = taken
        self.alpha = alpha
        self.best = best
        self.best_child = best_child
        self.value = value
        self.cut = cut

    def __iter__(self) -> Iterator[Any]:
        """The fields in the order of ``__slots__`` (to compare frames, or print one)."""
        return (getattr(self, name) for name in _fields(type(self)))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # a chance node's is open while searched

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in _fields(type(self)))
        return f"{type(self).__name__}({fields})"


class ChanceFrame(Frame):
    """A chance node's frame (always in MAX's view), open while the node is searched.
    ``best`` is the probability-weighted sum of the values so far; ``seen`` the
    probability of the children taken; ``windows`` the window each child was searched
    with; ``values`` the children's values when they are equally likely (their average
    is then ``fsum(values) / n``, exact), else None; ``cutoff`` the Star1 cut-off, if
    any."""

    __slots__ = ("cutoff", "seen", "total", "values", "windows")
    seen: float
    windows: list[tuple[Number, Number]]
    values: list[Number] | None
    total: Number
    cutoff: Any  # a plies.trees._result.Cutoff

    def __init__(
        self,
        node: int,
        kids: list[int],
        window: tuple[Number, Number],
        sources: tuple[int, int],
        *,
        uniform: bool,
    ) -> None:
        alpha, beta = window
        super().__init__(node, kids, 1, alpha, beta, *sources, 0, alpha, 0.0, -1, None, 0)
        self.seen, self.windows, self.total, self.cutoff = 0.0, [], 0, None
        self.values = [] if uniform else None


def _fields(cls: type) -> tuple[str, ...]:
    """Every slot of a frame class, the base class's first."""
    if cls is Frame:
        return Frame.__slots__
    return Frame.__slots__ + ChanceFrame.__slots__


class Scored(NamedTuple):
    """A node at the depth limit, scored by its static ``value`` (MAX's view); entered
    with the window (``alpha``, ``beta``) in the view of ``colour``."""

    node: int
    alpha: Number
    beta: Number
    value: Number
    colour: int


class SearchLog:
    """What one search did, kept per visited inner node only (never per tree node).

    ``finished``: what the search keeps of each node it finished (read it as
    ``frames``, the finished frames); ``statics``: nodes scored at the depth limit;
    ``prune``: whether bounds moved and cut-offs could fire; ``trace``: the events
    the search recorded (its trace, with a method ``events()``; None with tracing
    off); ``root_leaf``: the window a leaf root was evaluated with
    (the one search without a frame).
    """

    __slots__ = ("_frames", "cutoffs", "finished", "prune", "root_leaf", "statics", "trace")

    def __init__(self, *, prune: bool) -> None:
        self.prune = prune
        self.finished: list[Any] = []
        self._frames: list[Frame] | None = None
        self.statics: list[Scored] = []
        self.cutoffs = 0
        self.trace: Any = None  # the search sets its trace here
        self.root_leaf: tuple[Number, Number] | None = None

    @property
    def frames(self) -> list[Frame]:
        """The frames of the finished search, in the order its nodes finished, made on
        first read from :attr:`finished`: there the search puts a chance node's frame,
        and a MAX or MIN node's fields in the order :class:`Frame` takes them (so a
        search whose frames nobody reads makes none: alpha-beta on the 10^6-leaf tree
        finishes 7,222 frames, 1.2 ms of its 10 ms when made at once)."""
        if self._frames is None:
            self._frames = [f if type(f) is ChanceFrame else Frame(*f) for f in self.finished]
            self.finished = []  # (not kept twice)
        return self._frames

    @property
    def nodes_visited(self) -> int:
        """How many nodes the search entered: the root, and every child each frame
        searched (up to its cut-off, if any)."""
        return 1 + sum(f.cut or f.taken for f in self.frames)

    @property
    def leaf_count(self) -> int:
        """How many leaves the search evaluated."""
        return self.nodes_visited - len(self.frames) - len(self.statics)

    def principal_variation(self) -> list[int]:
        """Node ids along the principal variation: each node's best child, from the
        root down to a leaf (or a chance node, or the depth limit)."""
        best = {f.node: f.best_child for f in self.frames if f.best_child >= 0}
        pv = [0]
        while pv[-1] in best:
            pv.append(best[pv[-1]])
        return pv


def frame_cutoff(frame: Frame, *, movers_view: bool, strict: bool) -> Any:
    """The :class:`~plies.trees._result.Cutoff` of a frame whose ``cut`` is set: in
    its player's view (``movers_view``, negamax's), else in MAX's."""
    from plies.trees._result import Cutoff

    if isinstance(frame, ChanceFrame):
        return frame.cutoff
    f = frame
    pruned = tuple(f.kids[f.cut :])
    if movers_view or f.colour > 0:
        return Cutoff(f.node, f.best, CUT_OP[1, strict], "beta", f.beta, f.beta_source, pruned)
    # A MIN node, in MAX's view: its value fell to alpha.
    return Cutoff(f.node, -f.best, CUT_OP[-1, strict], "alpha", -f.beta, f.beta_source, pruned)


def evaluated_leaves(log: SearchLog, tree: Tree) -> tuple[list[int], list[Number]]:
    """The evaluated leaves in order, and their windows (flat: alpha, beta, ...) in
    their parent's view.

    Walking the frames in search order finds them. Under a MAX or MIN node a leaf's
    window is its parent's, whose alpha is the largest of alpha on entry and the
    values of the children before (beta does not move); under a chance node the frame
    keeps each child's window. Linear in the nodes visited.
    """
    if log.root_leaf is not None:
        return [0], list(log.root_leaf)
    frame_of = {f.node: f for f in log.frames}
    if 0 not in frame_of:
        return [], []  # the root was scored at the depth limit
    walk = _LeafWalk(log, tree, frame_of)
    walk.run(frame_of[0])
    return walk.leaves, walk.windows


class _LeafWalk:
    """The walk of :func:`evaluated_leaves`, with an explicit stack."""

    def __init__(self, log: SearchLog, tree: Tree, frame_of: dict[int, Frame]) -> None:
        self.prune, self.tree, self.frame_of = log.prune, tree, frame_of
        self.static_of = {s.node: s.value for s in log.statics}
        self.leaves: list[int] = []
        self.windows: list[Number] = []

    def run(self, root: Frame) -> None:
        """Walk the frames from ``root``, in the order the search took them. The frame
        walked is kept in locals (its frame, next child, alpha so far, and what is
        read of it per child), the frames above it on a stack; a leaf, or a node
        scored at the depth limit, is taken in the walk's loop. (A call per leaf made
        reading the statuses of alpha-beta on 10^6 leaves 25% slower; an object per
        frame on the stack, and a dict look-up per leaf, 20% slower than this.)"""
        prune, frame_of, static_of = self.prune, self.frame_of, self.static_of
        leaf_value, leaves, windows = self.tree.value, self.leaves, self.windows
        stack: list[tuple[Frame, int, Number]] = []
        f, j, alpha = root, 0, root.alpha_in
        kids, end, c, beta = f.kids, f.cut or f.taken, f.colour, f.beta_in
        chance = type(f) is ChanceFrame
        while True:
            if j == end:  # f is done: its value goes up
                if not stack:
                    return
                value, colour = f.value, c
                assert value is not None  # a finished frame
                f, j, alpha = stack.pop()
                kids, end, c, beta = f.kids, f.cut or f.taken, f.colour, f.beta_in
                chance = type(f) is ChanceFrame
                if prune:  # alpha-beta's rule: the parent's alpha rises to it
                    alpha = max(alpha, value if c == colour else -value)
                continue
            child = kids[j]
            j += 1
            if (lv := leaf_value[child]) is not None:  # a leaf (inner nodes have none)
                leaves.append(child)
                if chance:
                    windows += f.windows[j - 1]  # type: ignore[attr-defined]
                else:
                    windows += (alpha, beta)
                v = c * lv
            elif (below := frame_of.get(child)) is not None:
                stack.append((f, j, alpha))
                f, j, alpha = below, 0, below.alpha_in
                kids, end, c, beta = f.kids, f.cut or f.taken, f.colour, f.beta_in
                chance = type(f) is ChanceFrame
                continue
            else:  # scored by its static value (in MAX's view)
                v = c * static_of[child]
            if prune and v > alpha:  # (a chance frame's alpha is never read)
                alpha = v
