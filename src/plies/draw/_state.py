"""What a drawing shows at each node: one :class:`Snapshot` per picture.

Every format (DOT, SVG, TikZ, Mermaid, the HTML stepper) draws a tree from a
snapshot, so all of them agree on what a node shows. A snapshot is either the end of a
search (:func:`final_snapshot`, read from the result's per-node records, so it works
with tracing off) or the state after some step of the narration (:func:`replay`, which
plays the event trace back). Values and windows are in MAX's view, also for negamax.

:func:`replay` keeps one mutable snapshot and changes it in place, step after step,
naming the nodes each step changed: memory stays proportional to nodes + steps (a copy
per step made it nodes x steps: 2.85 GB for the trace table of 10,000 leaves).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from plies.trees import (
    Backup,
    Cutoff,
    Enter,
    Evaluate,
    Event,
    Exit,
    Number,
    Static,
    Tree,
    TreeResult,
    format_number,
    narrate_event,
)

__all__ = ["Snapshot", "final_snapshot", "narrated_step_count", "nice", "reason_text", "replay"]

#: Node statuses a drawing knows. ``unseen``: not reached yet; ``open``: entered and
#: not finished (on the current path); ``done``: finished without a cut-off.
STATUSES = ("unseen", "open", "done", "evaluated", "static", "cutoff", "pruned", "beyond-depth")

_OPS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">"}


def nice(x: Number | None) -> str:
    """A value as printed in a drawing: ``3``, ``2.5``, ``∞``, ``-∞`` (empty for None);
    a float with more than three decimals is shown to three (a chance node's 22/3 is
    ``7.333``, which fits in its node; the JSON and the narration keep every digit)."""
    if x is None:
        return ""
    if isinstance(x, float):
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        x = round(x, 3)
    return format_number(x)


def reason_text(cut: Cutoff, *, min_view: bool = False) -> str:
    """The inequality that pruned, for an edge: ``v=1 ≤ α=3``. With ``min_view``
    (negamax at a MIN node, whose values are negated) it says so."""
    name = "v"
    if cut.star1:
        name = "upper" if cut.op.startswith("<") else "lower"
    bound = "α" if cut.bound == "alpha" else "β"
    text = f"{name}={nice(cut.value)} {_OPS.get(cut.op, cut.op)} {bound}={nice(cut.bound_value)}"
    return text + " (MIN's view)" if min_view else text


@dataclass
class Snapshot:
    """The annotations of every node at one moment (lists indexed by node id).

    ``order[i]`` is the evaluation number (1-based) of leaf ``i``, 0 if not evaluated.
    ``reason[i]`` is the inequality on the edge into ``i`` when ``i`` is the last
    child a cut-off pruned (once per cut-off: at wide fan-outs repeating it on every
    pruned edge made the labels collide; on the last, outermost edge of the pruned
    fan no other dashed edge crosses it). ``current`` is the node the last step was
    about (-1: none), ``pv`` the principal variation (only at the end) and ``line``
    the narration of the step.
    """

    status: list[str]
    value: list[Number | None]
    alpha: list[Number | None]
    beta: list[Number | None]
    order: list[int]
    reason: list[str | None]
    current: int = -1
    pv: set[int] = field(default_factory=set)
    step: int = 0
    line: str = ""
    #: Nodes whose annotations changed in this step (None: unknown, assume all).
    changed: set[int] | None = None
    event: Event | None = None

    @classmethod
    def empty(cls, n: int) -> Snapshot:
        """Every node unseen."""
        return cls(
            status=["unseen"] * n,
            value=[None] * n,
            alpha=[None] * n,
            beta=[None] * n,
            order=[0] * n,
            reason=[None] * n,
        )

    def copy(self) -> Snapshot:
        """An independent copy."""
        return Snapshot(
            status=self.status[:],
            value=self.value[:],
            alpha=self.alpha[:],
            beta=self.beta[:],
            order=self.order[:],
            reason=self.reason[:],
            current=self.current,
            pv=set(self.pv),
            step=self.step,
            line=self.line,
            changed=None if self.changed is None else set(self.changed),
            event=self.event,
        )


def final_snapshot(result: TreeResult) -> Snapshot:
    """The annotations at the end of the search: value, window on exit, status, the
    evaluation order of leaves, the reasons of pruned subtrees and the PV."""
    tree = result.tree
    n = len(tree)
    snap = Snapshot.empty(n)
    for i in range(n):
        status = result.status[i]
        snap.status[i] = "done" if status == "visited" else status
        snap.value[i] = result.values[i]
        snap.alpha[i] = result.alpha_out[i]
        snap.beta[i] = result.beta_out[i]
    for number, leaf in enumerate(result.evaluated, 1):
        snap.order[tree.leaf_ids[leaf]] = number
    negamax = result.options.algorithm == "negamax"
    for cut in result.cut_at.values():
        snap.reason[cut.pruned[-1]] = reason_text(cut, min_view=_view(tree, cut.node, negamax) < 0)
    snap.pv = set(result.pv)
    return snap


def _view(tree: Tree, node: int, negamax: bool) -> int:
    """+1 when values at ``node`` are in MAX's view already, -1 when negated."""
    return -1 if negamax and tree.kind[node] == "min" else 1


def _neg(x: Number | None, sign: int) -> Number | None:
    return x if x is None or sign > 0 else -x


def narrated_step_count(result: TreeResult) -> int:
    """How many steps the narration has (every event but entering a leaf): the frames
    of a search are this many plus two (before and done). Cheap: no drawing."""
    kind = result.tree.kind
    return sum(
        1
        for event in result.events
        if not (isinstance(event, Enter) and kind[event.node] == "leaf")
    )


def replay(result: TreeResult) -> Iterator[Snapshot]:
    """The snapshot before the search (step 0), then the one after each narrated step
    (the steps of :func:`plies.trees._format.narrate`), then the end. Needs the event
    trace.

    Every step yields the same :class:`Snapshot`, changed in place; its ``changed``
    names the nodes the step touched (None at step 0: all of them). Use each one
    before asking for the next, or keep a :meth:`Snapshot.copy`."""
    tree = result.tree
    negamax = result.options.algorithm == "negamax"
    ends = subtree_ends(tree)
    snap = Snapshot.empty(len(tree))
    snap.line = "Before the search"
    yield snap
    step = 0
    evaluated = 0
    snap.changed = set()
    for event in result.events:
        node = event.node
        snap.changed.add(node)
        evaluated += _apply(tree, ends, snap, event, negamax=negamax, number=evaluated + 1)
        if isinstance(event, Enter) and tree.kind[node] == "leaf":
            continue  # not narrated: evaluating the leaf next says the same
        step += 1
        snap.step = step
        snap.current = node
        snap.event = event
        snap.line = f"Step {step}: {narrate_event(tree, event, negamax)}"
        yield snap
        snap.changed = set()
    snap.changed = set(result.pv)
    snap.pv = set(result.pv)
    snap.current = -1
    snap.event = None
    snap.line = f"Done: value {nice(result.value)}; {result.summary()}"
    snap.step = step + 1
    yield snap


def _apply(
    tree: Tree, ends: list[int], snap: Snapshot, event: Event, *, negamax: bool, number: int
) -> int:
    """Change ``snap`` by one event; returns 1 when a leaf was evaluated (it got the
    evaluation number ``number``), else 0."""
    node = event.node
    sign = _view(tree, node, negamax)
    if isinstance(event, Enter):
        a, b = _neg(event.alpha, sign), _neg(event.beta, sign)
        snap.alpha[node], snap.beta[node] = (a, b) if sign > 0 else (b, a)
        snap.status[node] = "open"
    elif isinstance(event, Evaluate):
        snap.value[node] = event.value
        snap.order[node] = number
        snap.status[node] = "evaluated"
        return 1
    elif isinstance(event, Static):
        snap.value[node] = _neg(event.value, sign)
        snap.status[node] = "static"
    elif isinstance(event, Exit):
        snap.value[node] = _neg(event.value, sign)
        if snap.status[node] == "open":
            snap.status[node] = "done"
    else:
        assert isinstance(event, Backup)
        snap.value[node] = _neg(event.value, sign)
        if event.bound is not None and event.bound_value is not None:
            if (sign > 0) == (event.bound == "alpha"):
                snap.alpha[node] = _neg(event.bound_value, sign)
            else:
                snap.beta[node] = _neg(event.bound_value, sign)
        if event.cutoff is not None:
            _mark_pruned(ends, snap, event.cutoff, min_view=sign < 0)
    return 0


def subtree_ends(tree: Tree) -> list[int]:
    """One past the last id of each node's subtree (subtrees are id ranges in preorder)."""
    n = len(tree)
    size = [1] * n
    parent = tree.parent
    for i in range(n - 1, 0, -1):
        size[parent[i]] += size[i]
    return [i + size[i] for i in range(n)]


def _mark_pruned(ends: list[int], snap: Snapshot, cut: Cutoff, *, min_view: bool) -> None:
    snap.status[cut.node] = "cutoff"
    snap.reason[cut.pruned[-1]] = reason_text(cut, min_view=min_view)
    changed = snap.changed if snap.changed is not None else set()
    for child in cut.pruned:
        for i in range(child, ends[child]):
            snap.status[i] = "pruned"
            changed.add(i)
