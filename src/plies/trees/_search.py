"""Searching explicit trees: minimax, alpha-beta, negamax and expectiminimax.

Two loops, each written once and without recursion:

* :func:`_maxmin` is the textbook form with MAX and MIN (and chance) nodes. Minimax,
  alpha-beta (fail-soft or fail-hard, either tie rule) and expectiminimax (with or
  without Star1) are this one loop with pruning on or off.
* :func:`_negamax` is negamax with alpha-beta pruning: every node maximises from its
  own player's view, and values are negated where the player changes.

Both keep an explicit stack of frames, one per open inner node, so a chain 100,000
nodes deep is no problem. Alpha, beta and values are recorded per node in MAX's view,
so results of the two loops can be compared node by node.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from plies.errors import SearchError
from plies.trees._model import Number, Tree, format_number, no_gc
from plies.trees._result import (
    ALGORITHMS,
    ORDERS,
    Backup,
    Cutoff,
    Enter,
    Evaluate,
    Event,
    Exit,
    SearchOptions,
    Static,
    Status,
    TreeResult,
)

__all__ = ["alphabeta", "exact_values", "expectiminimax", "minimax", "negamax", "search"]

INF = math.inf


class _Recorder:
    """Per-node records and the event trace of one search."""

    def __init__(self, n: int, trace: bool) -> None:
        self.alpha_in: list[Number | None] = [None] * n
        self.beta_in: list[Number | None] = [None] * n
        self.alpha_out: list[Number | None] = [None] * n
        self.beta_out: list[Number | None] = [None] * n
        self.values: list[Number | None] = [None] * n
        self.cut_at: dict[int, Cutoff] = {}
        self.evaluated: list[int] = []
        self.static_used: list[int] = []
        self.visited_nodes: list[int] = []
        self.events: list[Event] = []
        self.trace = trace


# Orderings ------------------------------------------------------------------------------


def exact_values(tree: Tree, depth: int | None = None) -> list[Number]:
    """Every node's exact value (minimax, or expectiminimax with chance nodes), in
    MAX's view, computed bottom-up without recursion. With ``depth``, inner nodes at
    that depth count with their static value (nodes below it get ``nan``)."""
    n = len(tree)
    values: list[Number] = [math.nan] * n
    kind, children, tree_depth = tree.kind, tree.children, tree.depth
    for node in range(n - 1, -1, -1):
        if depth is not None and tree_depth[node] > depth:
            continue
        k = kind[node]
        if k == "leaf":
            v = tree.value[node]
            assert v is not None
            values[node] = v
        elif depth is not None and tree_depth[node] == depth:
            values[node] = _static(tree, node, depth)
        elif k == "max":
            values[node] = max(values[c] for c in children[node])
        elif k == "min":
            values[node] = min(values[c] for c in children[node])
        else:
            values[node] = _expectation(tree, node, [values[c] for c in children[node]])
    return values


def _expectation(tree: Tree, node: int, child_values: list[Number]) -> Number:
    total = 0.0
    for c, v in zip(tree.children[node], child_values, strict=True):
        p = tree.probability[c]
        assert p is not None
        if p:
            total += p * v
    return total


def _static(tree: Tree, node: int, depth: int) -> Number:
    v = tree.static[node]
    if v is None:
        raise SearchError(
            f"node {tree.name(node)} at depth {depth} has no static value; a depth limit of "
            f"{depth} needs one on every inner node at that depth"
        )
    return v


def _orderer(tree: Tree, options: SearchOptions) -> Callable[[int], list[int]]:
    """A function giving the children of a node in search order."""
    children, kind = tree.children, tree.kind
    order = options.order
    if order == "given":
        return children.__getitem__
    if order == "random":
        rng = random.Random(options.seed)
        return lambda node: rng.sample(children[node], len(children[node]))
    if order in ("best", "worst"):
        values = exact_values(tree, options.depth)
        worst = order == "worst"

        def by_value(node: int) -> list[int]:
            k = kind[node]
            if k == "chance":
                return children[node]
            descending = (k == "max") != worst
            return sorted(children[node], key=lambda c: -values[c] if descending else values[c])

        return by_value
    # static: children with a static value (or leaves, whose value is their static
    # value only if given) first, best first for the mover; the rest keep their order.
    static = tree.static

    def by_static(node: int) -> list[int]:
        k = kind[node]
        if k == "chance":
            return children[node]
        sign = -1 if k == "max" else 1

        def key(c: int) -> tuple[int, Number]:
            s = static[c]
            return (1, 0) if s is None else (0, sign * s)

        return sorted(children[node], key=key)

    return by_static


# The MAX/MIN/chance loop ----------------------------------------------------------------

_BOUND_NAME = {3: "alpha", 4: "beta"}  # frame slots _ALPHA and _BETA
#: The inequality that cuts, by (sign of the mover, strict rule).
_CUT_OP = {(1, False): ">=", (1, True): ">", (-1, False): "<=", (-1, True): "<"}


def _maxmin(tree: Tree, options: SearchOptions, rec: _Recorder) -> tuple[Number, list[int]]:
    kind, value_of, depth_of, prob = tree.kind, tree.value, tree.depth, tree.probability
    leaf_index = tree.leaf_index
    order = _orderer(tree, options)
    bounds = tree.bounds
    # Expectiminimax prunes only with Star1, which needs known leaf bounds.
    star1 = options.algorithm == "expectiminimax" and options.star1 and bounds is not None
    prune = options.algorithm == "alphabeta" or star1
    strict = options.strict
    soft = options.fail_soft
    limit = options.depth
    low, high = bounds if bounds is not None else (-INF, INF)
    trace = rec.trace
    events = rec.events
    best_child: dict[int, int] = {}
    # A frame is a list mutated in place, one per open inner node; its slots are named
    # by these locals (LOAD_FAST rather than LOAD_GLOBAL in the loop below).
    _NODE, _KIDS, _I, _ALPHA, _BETA, _ASRC, _BSRC, _BEST, _BESTC, _SEEN = range(10)

    # Bound methods and lists held in locals: this closure runs once per node, and the
    # attribute lookups it saves were a fifth of alpha-beta's time on a 10^6-leaf tree.
    visit, evaluated = rec.visited_nodes.append, rec.evaluated.append
    alpha_in, beta_in, alpha_out, beta_out = rec.alpha_in, rec.beta_in, rec.alpha_out, rec.beta_out
    values = rec.values

    def enter(node: int, alpha: Number, beta: Number) -> Number | None:
        """Record entry; return the value at once for leaves and depth-limit nodes."""
        visit(node)
        alpha_in[node] = alpha
        beta_in[node] = beta
        if trace:
            events.append(Enter(node, alpha, beta))
        if kind[node] == "leaf":
            v = value_of[node]
            assert v is not None
            evaluated(leaf_index[node])
            if trace:
                events.append(Evaluate(node, leaf_index[node], v))
        elif limit is not None and depth_of[node] == limit:
            v = _static(tree, node, limit)
            rec.static_used.append(node)
            if trace:
                events.append(Static(node, v))
        else:
            return None
        alpha_out[node] = alpha
        beta_out[node] = beta
        values[node] = v
        return v

    def push(node: int, alpha: Number, beta: Number, asrc: int, bsrc: int) -> list[Any]:
        k = kind[node]
        best: Number = -INF if k == "max" else (INF if k == "min" else 0.0)
        return [node, order(node), 0, alpha, beta, asrc, bsrc, best, -1, 0.0]

    alpha0, beta0 = options.window
    root_value = enter(0, alpha0, beta0)
    stack: list[list[Any]] = []
    if root_value is None:
        stack.append(push(0, alpha0, beta0, -1, -1))
    while stack:
        f = stack[-1]
        node = f[_NODE]
        kids = f[_KIDS]
        i = f[_I]
        if i < len(kids):
            child = kids[i]
            f[_I] = i + 1
            alpha, beta = f[_ALPHA], f[_BETA]
            asrc, bsrc = f[_ASRC], f[_BSRC]
            if kind[node] == "chance":
                if star1:
                    p = prob[child]
                    assert p is not None
                    rest = 1.0 - f[_SEEN] - p
                    if p > 0:
                        alpha = max(low, (alpha - f[_BEST] - high * rest) / p)
                        beta = min(high, (beta - f[_BEST] - low * rest) / p)
                    else:
                        alpha, beta = low, high
                    asrc = bsrc = node
                else:
                    alpha, beta, asrc, bsrc = -INF, INF, -1, -1
            v = enter(child, alpha, beta)
            if v is None:
                stack.append(push(child, alpha, beta, asrc, bsrc))
                continue
        else:
            # All children done (or cut): the node's value goes to its parent.
            stack.pop()
            v = f[_BEST]
            k = kind[node]
            if not soft and k != "chance":
                v = min(max(v, rec.alpha_in[node]), rec.beta_in[node])
            rec.values[node] = v
            rec.alpha_out[node] = f[_ALPHA]
            rec.beta_out[node] = f[_BETA]
            if f[_BESTC] >= 0:
                best_child[node] = f[_BESTC]
            if trace:
                events.append(Exit(node, v))
            if not stack:
                root_value = v
                break
            child = node
            f = stack[-1]
            node = f[_NODE]
            kids = f[_KIDS]
        # Step: the parent frame ``f`` takes the value ``v`` of its child ``child``.
        k = kind[node]
        cutoff: Cutoff | None = None
        bound: str | None = None
        bound_value: Number | None = None
        improved = False
        if k != "chance":
            # MAX and MIN mirror each other: compare through the sign, so MAX raises
            # alpha and is cut by beta, MIN lowers beta and is cut by alpha.
            sign = 1 if k == "max" else -1
            if f[_BESTC] < 0 or sign * v > sign * f[_BEST]:
                f[_BEST], f[_BESTC], improved = v, child, True
            if prune:
                own, other = (_ALPHA, _BETA) if sign > 0 else (_BETA, _ALPHA)
                if sign * f[_BEST] > sign * f[own]:
                    f[own], f[own + 2] = f[_BEST], node  # the bound and where it was set
                    bound, bound_value = _BOUND_NAME[own], f[own]
                mine, theirs = sign * f[_BEST], sign * f[other]
                if f[_I] < len(kids) and (mine > theirs if strict else mine >= theirs):
                    cutoff = Cutoff(
                        node,
                        f[_BEST],
                        _CUT_OP[sign, strict],
                        _BOUND_NAME[other],
                        f[other],
                        f[other + 2],
                        tuple(kids[f[_I] :]),
                    )
        else:  # chance: f[_BEST] is the probability-weighted sum so far
            p = prob[child]
            assert p is not None
            if p:
                f[_BEST] += p * v
            f[_SEEN] += p
            improved = True
            shown = f[_BEST]  # the weighted sum, before a cut-off replaces it by a bound
            if star1 and f[_I] < len(kids):
                rest = 1.0 - f[_SEEN]
                upper = f[_BEST] + high * rest
                lower = f[_BEST] + low * rest
                # Fail low when even the best case is at most alpha, fail high when
                # even the worst case is at least beta (the same test as MAX/MIN).
                for sign, edge in ((-1, upper), (1, lower)):
                    other = _BETA if sign > 0 else _ALPHA
                    mine, theirs = sign * edge, sign * f[other]
                    if mine > theirs if strict else mine >= theirs:
                        cutoff = Cutoff(
                            node,
                            edge,
                            _CUT_OP[sign, strict],
                            _BOUND_NAME[other],
                            f[other],
                            f[other + 2],
                            tuple(kids[f[_I] :]),
                            star1=True,
                        )
                        f[_BEST] = edge
                        break
        if k != "chance":
            shown = f[_BEST]
        if cutoff is not None:
            rec.cut_at[node] = cutoff
            f[_I] = len(kids)
        if trace:
            events.append(
                Backup(node, child, v, v, False, shown, improved, bound, bound_value, cutoff)
            )
    assert root_value is not None
    pv = [0]
    while pv[-1] in best_child:
        pv.append(best_child[pv[-1]])
    return root_value, pv


# Negamax --------------------------------------------------------------------------------


def _negamax(tree: Tree, options: SearchOptions, rec: _Recorder) -> tuple[Number, list[int]]:
    """Negamax with alpha-beta: values from the view of the player at each node."""
    kind, value_of, depth_of = tree.kind, tree.value, tree.depth
    leaf_index = tree.leaf_index
    order = _orderer(tree, options)
    strict = options.strict
    soft = options.fail_soft
    limit = options.depth
    trace = rec.trace
    events = rec.events
    best_child: dict[int, int] = {}

    def color(node: int) -> int:
        return 1 if kind[node] == "max" else -1

    def record_in(node: int, alpha: Number, beta: Number, c: int) -> None:
        # Stored in MAX's view: a MIN node's window (a, b) is (-b, -a) for MAX.
        rec.visited_nodes.append(node)
        rec.alpha_in[node], rec.beta_in[node] = (alpha, beta) if c > 0 else (-beta, -alpha)
        if trace:
            events.append(Enter(node, alpha, beta))

    def record_out(node: int, alpha: Number, beta: Number, v: Number, c: int) -> None:
        rec.alpha_out[node], rec.beta_out[node] = (alpha, beta) if c > 0 else (-beta, -alpha)
        rec.values[node] = v if c > 0 else -v

    alpha0, beta0 = options.window
    root_color = color(0) if kind[0] != "leaf" else 1
    a0, b0 = (alpha0, beta0) if root_color > 0 else (-beta0, -alpha0)
    if kind[0] == "leaf":
        record_in(0, a0, b0, 1)
        v0 = value_of[0]
        assert v0 is not None
        rec.evaluated.append(0)
        if trace:
            events.append(Evaluate(0, 0, v0))
        record_out(0, a0, b0, v0, 1)
        return v0, [0]
    record_in(0, a0, b0, root_color)
    if limit == 0:
        v0 = _static(tree, 0, 0)
        if trace:
            events.append(Static(0, v0))
        record_out(0, a0, b0, root_color * v0, root_color)
        return v0, [0]
    # frame: node, kids, i, alpha, beta, asrc, bsrc, best, best child, colour
    stack: list[list[Any]] = [[0, order(0), 0, a0, b0, -1, -1, -INF, -1, root_color]]
    root_value: Number | None = None
    while stack:
        f = stack[-1]
        node, kids, i = f[0], f[1], f[2]
        c = f[9]
        if i < len(kids):
            child = kids[i]
            f[2] = i + 1
            k = kind[child]
            if k == "leaf":
                # A leaf's value is scored from the view of the player choosing it.
                lv = value_of[child]
                assert lv is not None
                record_in(child, f[3], f[4], c)
                rec.evaluated.append(leaf_index[child])
                if trace:
                    events.append(Evaluate(child, leaf_index[child], lv))
                v = c * lv
                record_out(child, f[3], f[4], v, c)
                returned, negated = lv, c < 0
            else:
                cc = color(child)
                same = cc == c
                alpha, beta = (f[3], f[4]) if same else (-f[4], -f[3])
                asrc, bsrc = (f[5], f[6]) if same else (f[6], f[5])
                record_in(child, alpha, beta, cc)
                if limit is not None and depth_of[child] == limit:
                    sv = _static(tree, child, limit)  # in MAX's view
                    rec.static_used.append(child)
                    if trace:
                        events.append(Static(child, sv))
                    record_out(child, alpha, beta, cc * sv, cc)
                    returned, negated = cc * sv, not same
                    v = returned if same else -returned
                else:
                    stack.append([child, order(child), 0, alpha, beta, asrc, bsrc, -INF, -1, cc])
                    continue
        else:
            stack.pop()
            v = f[7]
            if not soft:
                ain, bin_ = (rec.alpha_in[node], rec.beta_in[node])
                a, b = (ain, bin_) if c > 0 else (-bin_, -ain)
                v = min(max(v, a), b)
            record_out(node, f[3], f[4], v, c)
            if f[8] >= 0:
                best_child[node] = f[8]
            if trace:
                events.append(Exit(node, v))
            if not stack:
                root_value = v if c > 0 else -v
                break
            child = node
            f = stack[-1]
            node, kids = f[0], f[1]
            same = f[9] == c
            returned, negated = v, not same
            v = v if same else -v
        # Step: the parent frame ``f`` takes ``v`` (already in its own view).
        cutoff: Cutoff | None = None
        bound: str | None = None
        bound_value: Number | None = None
        improved = False
        if f[8] < 0 or v > f[7]:
            f[7], f[8], improved = v, child, True
        if f[7] > f[3]:
            f[3], f[5] = f[7], node
            bound, bound_value = "alpha", f[3]
        if f[2] < len(kids) and (f[7] > f[4] if strict else f[7] >= f[4]):
            cutoff = Cutoff(
                node, f[7], ">" if strict else ">=", "beta", f[4], f[6], tuple(kids[f[2] :])
            )
            rec.cut_at[node] = cutoff
            f[2] = len(kids)
        if trace:
            events.append(
                Backup(
                    node, child, returned, v, negated, f[7], improved, bound, bound_value, cutoff
                )
            )
    assert root_value is not None
    pv = [0]
    while pv[-1] in best_child:
        pv.append(best_child[pv[-1]])
    return root_value, pv


# Public entry points --------------------------------------------------------------------


def _statuses(tree: Tree, rec: _Recorder, limit: int | None) -> list[Status]:
    """Each node's status. Unvisited nodes are pruned, or beyond the depth limit."""
    n = len(tree)
    status: list[Status] = ["pruned"] * n
    kind, values = tree.kind, rec.values
    static_used = set(rec.static_used)
    for node in rec.visited_nodes:
        if kind[node] == "leaf":
            status[node] = "evaluated"
        elif node in static_used:
            status[node] = "static"
        elif node in rec.cut_at:
            status[node] = "cutoff"
        elif values[node] is not None:
            status[node] = "visited"
    if static_used:  # parents come before children in preorder
        parent = tree.parent
        for node in range(1, n):
            if values[node] is None and status[parent[node]] in ("static", "beyond-depth"):
                status[node] = "beyond-depth"
    return status


def _check(tree: Tree, options: SearchOptions) -> None:
    if options.algorithm not in ALGORITHMS:
        raise SearchError(
            f"unknown algorithm {options.algorithm!r} (expected one of {', '.join(ALGORITHMS)})"
        )
    if options.order not in ORDERS:
        raise SearchError(
            f"unknown move ordering {options.order!r} (expected one of {', '.join(ORDERS)})"
        )
    if options.depth is not None and options.depth < 0:
        raise SearchError(f"the depth limit must be 0 or more, not {options.depth}")
    alpha, beta = options.window
    if math.isnan(alpha) or math.isnan(beta) or not alpha < beta:
        raise SearchError(
            f"the root window needs alpha < beta, not "
            f"({format_number(alpha)}, {format_number(beta)})"
        )
    if tree.has_chance and options.algorithm != "expectiminimax":
        node = tree.kind.index("chance")
        raise SearchError(
            f"{options.algorithm} cannot search chance nodes (node {tree.name(node)} is one); "
            "use expectiminimax"
        )


def search(tree: Tree, options: SearchOptions | None = None, **kwargs: Any) -> TreeResult:
    """Search ``tree`` as ``options`` (or the same fields as keywords) say.

    >>> from plies.trees import parse
    >>> search(parse("[[3,12,8],[2,4,6],[14,5,2]]")).value
    3
    """
    if options is None:
        options = SearchOptions(**kwargs)
    elif kwargs:
        raise TypeError("give either options or keywords, not both")
    _check(tree, options)
    rec = _Recorder(len(tree), options.trace)
    with no_gc():
        if options.algorithm == "negamax":
            value, pv = _negamax(tree, options, rec)
        else:
            value, pv = _maxmin(tree, options, rec)
    alpha0, beta0 = options.window
    bound = "exact"
    if value <= alpha0 and alpha0 > -INF:
        bound = "upper"  # failed low: the true value is at most this
    elif value >= beta0 and beta0 < INF:
        bound = "lower"  # failed high: the true value is at least this
    return TreeResult(
        tree=tree,
        options=options,
        value=value,
        bound=bound,  # type: ignore[arg-type]
        pv=pv,
        evaluated=rec.evaluated,
        nodes_visited=len(rec.visited_nodes),
        cutoffs=len(rec.cut_at),
        events=rec.events,
        alpha_in=rec.alpha_in,
        beta_in=rec.beta_in,
        alpha_out=rec.alpha_out,
        beta_out=rec.beta_out,
        values=rec.values,
        status=_statuses(tree, rec, options.depth),
        cut_at=rec.cut_at,
    )


def minimax(tree: Tree, **options: Any) -> TreeResult:
    """Plain minimax: every leaf is evaluated. Options as :class:`SearchOptions`."""
    return search(tree, SearchOptions(algorithm="minimax", **options))


def alphabeta(tree: Tree, **options: Any) -> TreeResult:
    """Alpha-beta pruning (fail-soft unless ``fail_soft=False``; prunes on equality
    unless ``strict=True``). Options as :class:`SearchOptions`."""
    return search(tree, SearchOptions(algorithm="alphabeta", **options))


def negamax(tree: Tree, **options: Any) -> TreeResult:
    """Negamax with alpha-beta pruning, showing the sign flips in its events.
    Options as :class:`SearchOptions`."""
    return search(tree, SearchOptions(algorithm="negamax", **options))


def expectiminimax(tree: Tree, **options: Any) -> TreeResult:
    """Expectiminimax; with leaf bounds on the tree (``tree.bounds``) and ``star1``
    (the default), Star1 pruning at chance nodes and alpha-beta at MAX/MIN nodes.
    Options as :class:`SearchOptions`."""
    return search(tree, SearchOptions(algorithm="expectiminimax", **options))
