"""The search loop over explicit trees, written once for every algorithm.

Minimax, alpha-beta, negamax and expectiminimax (with or without Star1) are one loop in
the negamax form: each MAX or MIN node is searched in the view of its player (its
colour +1 or -1; a child of the other player gets the window negated and swapped, and
hands its value back negated), so one comparison serves both players. A chance node
is searched in MAX's view (colour +1) and averages its children. Minimax is the loop
without pruning, alpha-beta and negamax the same loop with it: they differ only in
the view their events are written in (MAX's, or the player's at each node for
negamax), which :class:`Trace` chooses as it makes them.

The loop keeps the MAX or MIN node it searches in local variables and the nodes above
it on an explicit stack (their locals, or a chance node's open frame), so a chain
100,000 nodes deep is no problem; leaves are searched in their parent's loop over its
children (with the trace off, a run of leaf children in a tight loop of its own). A
finished inner node is logged as a named frame (:class:`~plies.trees._log.Frame`),
written once (its fields kept, the frame made when first read). When tracing, each
event's values are recorded as the search goes, and made into events when first read
(nothing is searched again). The Numba kernel (:mod:`plies.trees._kernel`) is the
same loop compiled, for the given order without depth limit or chance nodes; it
records the same trace in arrays, made into the same events by :class:`Trace`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from plies.errors import SearchError
from plies.trees._log import CUT_OP, ChanceFrame, Frame, Scored, SearchLog, frame_cutoff
from plies.trees._model import Number, Tree
from plies.trees._result import Backup, Cutoff, Enter, Evaluate, Exit, SearchOptions, Static, maker

__all__ = ["ENTER", "EXIT", "Trace", "run"]

INF = math.inf


def leaf_value(tree: Tree, node: int) -> Number:
    """The value of leaf ``node``; SearchError if it has none."""
    v = tree.value[node]
    if v is None:
        raise SearchError(f"leaf {tree.name(node)} has no value, and the search reached it")
    return v


def called(tree: Tree, node: int) -> str:
    """A node as a message names it: ``node B`` (:meth:`Tree.name`), ``the root``
    (unlabelled)."""
    if node == 0 and tree.label[0] is None:
        return "the root"
    return f"node {tree.name(node)}"


def static_value(tree: Tree, node: int, depth: int) -> Number:
    """The static value of inner ``node`` at the depth limit ``depth``; SearchError if
    it has none."""
    v = tree.static[node]
    if v is None:
        raise SearchError(
            f"{called(tree, node)} at depth {depth} has no static value; a depth limit of "
            f"{depth} needs one on every inner node at that depth"
        )
    return v


def is_uniform(tree: Tree, node: int) -> bool:
    """Whether the children of chance node ``node`` are equally likely (the parser
    stores 1/n when no probabilities are given)."""
    kids = tree.children[node]
    p = 1.0 / len(kids)
    return all(tree.probability[c] == p for c in kids)


# The trace -------------------------------------------------------------------------------

# What a trace record starts with, unless it is a back-up at a MAX or MIN node (it then
# starts with the node, an int) or an event made at once (Static, and a chance node's
# Backup); and each record's length.
ENTER, LEAF, EXIT = "enter", "leaf", "exit"
_LENGTH = {ENTER: 5, LEAF: 5, EXIT: 4, int: 9}
# The events, made without their __init__ (see maker): reading the events of a traced
# search took 30-40% less time.
_make_enter, _make_evaluate, _make_static = maker(Enter), maker(Evaluate), maker(Static)
_make_backup, _make_exit = maker(Backup), maker(Exit)


class Trace:
    """The events of one search, kept as they happen as records (the values each
    event needs, as the search holds them, one after the other in one flat list) and
    made into events on first read: in the view of the player at each node
    (``movers``, negamax) or in MAX's view. For a leaf the player is its parent's.

    Nothing is searched again to make the events: each record holds its event's
    values, only turned into the view asked for. A record costs a tenth of an event
    object (a frozen dataclass's fields are set one by one), and values added to one
    list cost half as much as as many tuples kept: on the 10^6-leaf tree alpha-beta
    with the trace took 132 ms when it made its events as it went, 24 ms with a tuple
    per record, and 15-16 ms now (10-11 ms without the trace; on 321ec48, whose fast
    paths kept one record per node whose children are all leaves: 11 and 9.4 ms).

    The native backend (:mod:`plies.trees._native`) keeps the same records in arrays
    and gives them as ``unread``, a function returning the records, called on first
    read of the events.
    """

    __slots__ = ("log", "movers", "records", "strict", "tree", "unread")

    def __init__(
        self,
        tree: Tree,
        log: SearchLog,
        *,
        movers: bool,
        strict: bool,
        unread: Callable[[], list[Any]] | None = None,
    ) -> None:
        self.tree, self.log, self.movers, self.strict = tree, log, movers, strict
        self.records: list[Any] = []
        self.unread = unread

    def enter(self, node: int, alpha: Number, beta: Number, c: int) -> None:
        """The search enters ``node`` with a window in the view of colour ``c``."""
        self.records += (ENTER, node, alpha, beta, c)

    def leaf(self, node: int, alpha: Number, beta: Number, c: int) -> None:
        """Leaf ``node`` is entered with the window of its parent (colour ``c``) and
        evaluated."""
        self.records += (LEAF, node, alpha, beta, c)

    def static(self, node: int, value: Number) -> None:
        """Inner ``node`` is scored by its static value (MAX's view)."""
        self.records.append(_make_static(node, value))

    def exit(self, node: int, value: Number, c: int) -> None:
        """The search leaves ``node`` (colour ``c``) with ``value`` in its view."""
        self.records += (EXIT, node, value, c)

    def chance_backup(self, f: ChanceFrame, child: int, v: Number, shown: Number) -> None:
        """``v`` reaches chance node ``f``, whose weighted sum is now ``shown``."""
        event = _make_backup(f.node, child, v, v, False, shown, True, None, None, f.cutoff)
        self.records.append(event)

    # A back-up at a MAX or MIN node is recorded by the loop itself (see _loop), as
    # node, child, v, best, alpha, improved, moved, cut, entered; the node's frame,
    # made when it finished, is found from the node.

    def events(self) -> list[Any]:
        """The events, made from the records."""
        if self.unread is not None:
            self.records, self.unread = self.unread(), None
        events: list[Any] = []
        evaluated, records, at = 0, self.records, 0
        frame_of = {f.node: f for f in self.log.frames}
        while at < len(records):
            head = records[at]
            length = _LENGTH.get(head if type(head) is str else type(head), 1)
            record, at = records[at : at + length], at + length
            if length == 1:  # an event made at once
                events.append(head)
            elif head is LEAF or head is ENTER:
                events.append(self._enter(*record[1:]))
                if head is LEAF:
                    evaluated += 1
                    events.append(self._evaluate(record[1], evaluated))
            elif head is EXIT:
                _, node, value, c = record
                events.append(_make_exit(node, value if self.movers or c > 0 else -value))
            else:
                f, child, entered = frame_of[head], record[1], record[8]
                if entered is not None:  # a leaf: its entry and evaluation come first
                    evaluated += 1
                    events.append(self._enter(child, entered, f.beta, f.colour))
                    events.append(self._evaluate(child, evaluated))
                events.append(self._backup(f, record))
        return events

    def _enter(self, node: int, alpha: Number, beta: Number, c: int) -> Enter:
        """The search enters ``node`` with a window in the view of colour ``c``."""
        if self.movers or c > 0:
            return _make_enter(node, alpha, beta)
        return _make_enter(node, -beta, -alpha)

    def _evaluate(self, node: int, number: int) -> Evaluate:
        """Leaf ``node`` is the ``number``-th leaf evaluated."""
        value = self.tree.value[node]
        assert value is not None
        return _make_evaluate(node, self.tree.leaf_index[node], value, number)

    def _backup(self, f: Frame, record: list[Any]) -> Backup:
        """The back-up of a record ``node, child, v, best, alpha, improved, moved, cut``
        at the frame ``f`` of ``node``: ``v``, the value of ``child`` in the view of
        ``f``, reached ``f``, whose best and alpha became ``best`` and ``alpha``; the
        best improved, alpha moved, a cut-off."""
        _, child, v, best, alpha, improved, moved, cut = record[:8]
        c, tree = f.colour, self.tree
        negated = c < 0 if not tree.children[child] else (tree.kind[child] == "max") != (c > 0)
        cutoff = frame_cutoff(f, movers_view=self.movers, strict=self.strict) if cut else None
        if self.movers:
            returned = -v if negated else v
            bound, bound_value = ("alpha", alpha) if moved else (None, None)
            return _make_backup(f.node, child, returned, v, negated, best, improved, bound,
                                bound_value, cutoff)  # fmt: skip
        # In MAX's view a MIN node's values are negated and its alpha is MAX's beta.
        seen, best, alpha = (v, best, alpha) if c > 0 else (-v, -best, -alpha)
        bound = ("alpha" if c > 0 else "beta") if moved else None
        return _make_backup(f.node, child, seen, seen, False, best, improved, bound,
                            alpha if moved else None, cutoff)  # fmt: skip


# The search context ----------------------------------------------------------------------


class _Search:
    """What every step of one search reads: the tree's lists, the options, the log and
    the trace (None when off)."""

    __slots__ = (
        "children", "depth", "high", "kind", "limit", "log", "low", "order",
        "probability", "prune", "soft", "star1", "strict", "trace", "tree", "value",
    )  # fmt: skip

    def __init__(
        self,
        tree: Tree,
        options: SearchOptions,
        log: SearchLog,
        order: Callable[[int], list[int]],
    ) -> None:
        self.tree, self.log, self.order = tree, log, order
        self.kind, self.value, self.children = tree.kind, tree.value, tree.children
        self.depth, self.probability = tree.depth, tree.probability
        self.limit, self.strict, self.soft = options.depth, options.strict, options.fail_soft
        self.prune = log.prune
        bounds = tree.bounds
        self.star1 = options.algorithm == "expectiminimax" and options.star1 and bounds is not None
        self.low, self.high = bounds if bounds is not None else (-INF, INF)
        self.trace: Trace | None = None
        if options.trace:
            movers = options.algorithm == "negamax"
            self.trace = log.trace = Trace(tree, log, movers=movers, strict=options.strict)


# The loop --------------------------------------------------------------------------------


class _Opening(NamedTuple):
    """A MAX or MIN node to search next: its colour and the window (and where its
    bounds were set) it is entered with, in its view."""

    node: int
    colour: int
    alpha: Number
    beta: Number
    alpha_source: int
    beta_source: int


def run(
    tree: Tree, options: SearchOptions, log: SearchLog, order: Callable[[int], list[int]]
) -> Number:
    """Search ``tree`` as ``options`` say, children in the order ``order`` gives,
    logging into ``log``; the root's value in MAX's view."""
    s = _Search(tree, options, log, order)
    alpha, beta = options.window
    if s.kind[0] == "leaf":
        v = leaf_value(tree, 0)
        log.root_leaf = options.window
        if s.trace is not None:
            s.trace.leaf(0, alpha, beta, 1)
        return v
    # Entered as the child of a MAX node: a MIN root gets the window in its view.
    below = _inner_child(s, 0, 1, (alpha, beta), (-1, -1))
    if type(below) is ChanceFrame or type(below) is _Opening:
        return _loop(s, below)
    return below  # type: ignore[return-value]  # scored at the depth limit, MAX's view


def _loop(s: _Search, root: _Opening | ChanceFrame) -> Number:
    """Search from the inner ``root``; its value in MAX's view.

    The MAX or MIN node being searched is kept in locals: its node, children, colour,
    window (alpha moves, beta does not), where the bounds were set, alpha on entry,
    the next child, the best value and child. Its leaves are searched in its loop over
    its children; an inner child is searched next, the node's locals kept on
    ``stack`` until the child hands its value ``v`` back, and a finished node makes
    its frame. A chance node (kept open in its frame, ``chance``) takes its steps in
    :func:`_chance_step`. No call per step (15% less time), and no frame written per
    child taken or read back after one: on the 10^6-leaf tree alpha-beta took 13.3 ->
    10.2 ms, minimax 239 -> 206 ms, and on 2^17 leaves in a binary tree 172 -> 132 ms.
    """
    value_of, kind, order, depth_of = s.value, s.kind, s.order, s.depth
    prune, strict, soft, limit = s.prune, s.strict, s.soft, s.limit
    records, finished = None if s.trace is None else s.trace.records, s.log.finished
    stack: list[Any] = []  # above: a MAX or MIN node's locals (a tuple), or a chance frame
    chance = root if type(root) is ChanceFrame else None
    node, c, alpha, beta, asrc, bsrc = root if chance is None else (0, 1, -INF, INF, -1, -1)
    kids = order(node) if chance is None else []
    alpha_in, i, best, bestc, cut = alpha, 0, -INF, -1, 0
    v: Any = None  # a value waiting to be backed up at the node, from its view
    child, entered = -1, None  # entered: the alpha a leaf child was entered with
    while True:
        if chance is None:  # a MAX or MIN node
            end = len(kids)
            while True:
                if v is None:  # take the next child
                    if i == end:
                        break
                    child = kids[i]
                    i += 1
                    if (lv := value_of[child]) is not None and records is None:
                        # A run of leaves, trace off: backed up here, one after the other
                        while True:
                            v = c * lv
                            if v > best or bestc < 0:
                                best, bestc = v, child
                                if prune:
                                    if v > alpha:
                                        alpha, asrc = v, node
                                    if i < end and (v > beta if strict else v >= beta):
                                        cut, i = i, end
                                        s.log.cutoffs += 1
                                        break
                            if i == end:
                                break
                            child = kids[i]  # (an inner child is taken again above)
                            if (lv := value_of[child]) is None:
                                break
                            i += 1
                        v = None
                        continue
                    if lv is not None:  # a leaf (inner nodes have none)
                        v, entered = c * lv, alpha
                    elif (k := kind[child]) in ("max", "min") and depth_of[child] != limit:
                        # search it next (with no limit, None is no depth)
                        stack.append((node, kids, c, alpha, beta, asrc, bsrc, alpha_in, i, best,
                                      bestc))  # fmt: skip
                        if (k == "max") != (c > 0):
                            c, alpha, beta, asrc, bsrc = -c, -beta, -alpha, bsrc, asrc
                        node, kids, alpha_in, i = child, order(child), alpha, 0
                        best, bestc, end = -INF, -1, len(kids)
                        if records is not None:
                            records += (ENTER, node, alpha, beta, c)
                        continue
                    else:  # a chance child, or one at the depth limit: its frame or value
                        v, entered = _inner_child(s, child, c, (alpha, beta), (asrc, bsrc)), None
                        if type(v) is ChanceFrame:
                            stack.append((node, kids, c, alpha, beta, asrc, bsrc, alpha_in, i,
                                          best, bestc))  # fmt: skip
                            chance, v = v, None
                            break
                # Back up v: the best so far, alpha, a cut-off (only when the best improved).
                if v > best or bestc < 0:
                    best, bestc = v, child
                    moved = prune and v > alpha
                    if moved:
                        alpha, asrc = v, node
                    cuts = prune and i < end and (v > beta if strict else v >= beta)
                    if records is not None:
                        records += (node, child, v, best, alpha, True, moved, cuts, entered)
                    if cuts:
                        cut, i = i, end
                        s.log.cutoffs += 1
                elif records is not None:  # (a branch of its own: minimax 5% faster)
                    records += (node, child, v, best, alpha, False, False, False, entered)
                v = None
            if chance is not None:  # a chance child to search next
                continue
            # The node is finished: its value, clamped to its window when fail-hard
            v = best
            if not soft and c > 0:
                v = min(max(best, alpha_in), beta)
            elif not soft:  # MAX's view's clamp, negated: it differs when Star1's rounding
                v = max(min(best, beta), alpha_in)  # inverted the window (alpha > beta)
            finished.append((node, kids, c, alpha_in, beta, asrc, bsrc, i, alpha, best, bestc,
                             v, cut))  # fmt: skip  # Frame's fields, made a Frame when read
            if records is not None:
                records += (EXIT, node, v, c)
            done, colour, cut = node, c, 0
        else:
            below = _chance_step(s, chance, v)
            v = None
            if below is not None:  # a child to search next
                stack.append(chance)
                if type(below) is ChanceFrame:
                    chance = below
                    continue
                chance = None
                node, c, alpha, beta, asrc, bsrc = below
                kids, alpha_in, i, best, bestc = order(node), alpha, 0, -INF, -1
                continue
            v, done, colour = _close_chance(s, chance), chance.node, 1
        # The finished node ``done`` (of ``colour``) hands its value v to the node above.
        if not stack:
            return v if colour > 0 else -v  # type: ignore[no-any-return]
        above = stack.pop()
        if type(above) is ChanceFrame:
            chance = above
            v = v if colour > 0 else -v
        else:
            chance = None
            node, kids, c, alpha, beta, asrc, bsrc, alpha_in, i, best, bestc = above
            v, child, entered = v if c == colour else -v, done, None


def _score(s: _Search, node: int, window: tuple[Number, Number], c: int) -> Number:
    """Score inner ``node`` (colour ``c``, entered with ``window`` in its view) by its
    static value at the depth limit; the value in its view."""
    assert s.limit is not None
    v = static_value(s.tree, node, s.limit)
    s.log.statics.append(Scored(node, *window, v, c))
    if s.trace is not None:
        s.trace.static(node, v)
    return c * v


def _inner_child(
    s: _Search, child: int, c: int, window: tuple[Number, Number], sources: tuple[int, int]
) -> Number | ChanceFrame | _Opening:
    """Enter inner ``child`` of a node of colour ``c`` with ``window`` (and where its
    bounds were set) in that node's view: the child's value in that view if it is
    scored at the depth limit, else what to search next, its frame if it is a chance
    node. A leaf without a value raises SearchError."""
    kind = s.kind[child]
    if kind == "leaf":
        return leaf_value(s.tree, child)  # raises: leaves with values never get here
    cc = -1 if kind == "min" else 1
    if cc != c:
        window, sources = (-window[1], -window[0]), (sources[1], sources[0])
    if s.trace is not None:
        s.trace.enter(child, *window, cc)
    if s.limit is not None and s.depth[child] == s.limit:
        v = _score(s, child, window, cc)
        return v if cc == c else -v
    if kind == "chance":
        uniform = is_uniform(s.tree, child)
        return ChanceFrame(child, s.order(child), window, sources, uniform=uniform)
    return _Opening(child, cc, *window, *sources)


def _close_chance(s: _Search, f: ChanceFrame) -> Number:
    """Finish chance frame ``f``: its value (the exact average of equally likely
    children, unless cut), logged."""
    best = f.best
    if f.values is not None and not f.cut:
        best = math.fsum(f.values) / len(f.kids)  # exact: equal averages tie
    f.value = best
    s.log.finished.append(f)
    if s.trace is not None:
        s.trace.exit(f.node, best, f.colour)
    return best


# Chance nodes ----------------------------------------------------------------------------


def _chance_step(s: _Search, f: ChanceFrame, v: Number | None) -> ChanceFrame | _Opening | None:
    """The step of :func:`_loop` at a chance node, given the value ``v`` of the child
    searched last (None when there is none): the next inner child to search, or None
    when the node is finished. The children's values are averaged, and with Star1 each
    child is searched with the window that can still change the result."""
    if v is not None:
        _chance_backup(s, f, f.kids[f.taken - 1], v)
    while f.taken < len(f.kids) and not f.cut:
        child = f.kids[f.taken]
        f.taken += 1
        window, sources = _chance_window(s, f, child)
        f.windows.append(window)
        if (lv := s.value[child]) is not None:  # a leaf (inner nodes have no value)
            if s.trace is not None:
                s.trace.leaf(child, *window, 1)
            below: Number | ChanceFrame | _Opening = lv
        else:
            below = _inner_child(s, child, 1, window, sources)
        if type(below) is ChanceFrame or type(below) is _Opening:
            return below
        _chance_backup(s, f, child, below)  # type: ignore[arg-type]  # a number
    return None


def _chance_window(
    s: _Search, f: ChanceFrame, child: int
) -> tuple[tuple[Number, Number], tuple[int, int]]:
    """The window (MAX's view) to search ``child`` of chance node ``f`` with, and where
    its bounds were set: with Star1, the values of the child that could still move the
    average out of f's window, given the leaf bounds; else (-inf, inf)."""
    if not s.star1:
        return (-INF, INF), (-1, -1)
    p = s.probability[child]
    assert p is not None
    if not p > 0:
        return (s.low, s.high), (f.node, f.node)
    rest = 1.0 - f.seen - p
    alpha = max(s.low, (f.alpha - f.best - s.high * rest) / p)
    beta = min(s.high, (f.beta - f.best - s.low * rest) / p)
    return (alpha, beta), (f.node, f.node)


def _chance_backup(s: _Search, f: ChanceFrame, child: int, v: Number) -> None:
    """``v`` (MAX's view) reaches chance node ``f``: the weighted sum, and with Star1 a
    cut-off when even the best case is at most alpha or the worst at least beta."""
    p = s.probability[child]
    assert p is not None
    if f.values is not None:  # equally likely: the plain sum over n
        f.values.append(v)
        f.total += v
        f.best = f.total / len(f.kids)
    elif p:  # a zero-probability child adds nothing, even when its value is infinite
        f.best += p * v
    f.seen += p
    shown = f.best  # the weighted sum, before a cut-off replaces it by a bound
    if s.star1 and f.taken < len(f.kids):
        _star1_cut(s, f)
    if s.trace is not None:
        s.trace.chance_backup(f, child, v, shown)


def _star1_cut(s: _Search, f: ChanceFrame) -> None:
    """Cut ``f``'s remaining children if its value is already known to fall outside
    its window: fail low when even the best case is at most alpha, fail high when even
    the worst case is at least beta (the same test as at MAX and MIN nodes)."""
    rest = 1.0 - f.seen
    for sign, edge in ((-1, f.best + s.high * rest), (1, f.best + s.low * rest)):
        bound, value, source = (
            ("beta", f.beta, f.beta_source) if sign > 0 else ("alpha", f.alpha, f.alpha_source)
        )
        if sign * edge > sign * value if s.strict else sign * edge >= sign * value:
            pruned = tuple(f.kids[f.taken :])
            f.cutoff = Cutoff(
                f.node, edge, CUT_OP[sign, s.strict], bound, value, source, pruned, star1=True
            )
            f.best, f.cut = edge, f.taken
            s.log.cutoffs += 1
            return
