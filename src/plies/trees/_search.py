"""Searching explicit trees: minimax, alpha-beta, negamax and expectiminimax.

Two loops, each written once and without recursion:

* :func:`_negamax_form` searches trees of MAX and MIN nodes: minimax (no pruning),
  alpha-beta and negamax (fail-soft or fail-hard, either tie rule). Every node
  maximises from its own player's view and values are negated where the player
  changes; the trace it keeps is turned into MAX's view for minimax and alpha-beta.
* :func:`_maxmin` is the textbook form with MAX, MIN and chance nodes, for
  expectiminimax (with or without Star1 pruning).

Both keep an explicit stack of frames, one per open inner node, so a chain 100,000
nodes deep is no problem. Neither allocates anything per node of the tree: they log
what they do at the nodes they visit (:class:`~plies.trees._result.SearchLog`), and
the result builds per-node lists, statuses and events from that log when asked.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from operator import ge, gt, le, lt
from typing import Any

from plies.errors import ArgumentTypeError, SearchError
from plies.trees._model import Number, Tree, no_gc
from plies.trees._result import (
    ALPHA_IN,
    BEST,
    BESTC,
    BETA_IN,
    CUT,
    KIDS,
    NATIVE_MIN_NODES,
    NEXT,
    NODE,
    SEEN,
    T_BACKUP,
    T_BOTTOM,
    T_ENTER,
    T_EVALUATE,
    T_EXIT,
    T_STATIC,
    VALUE,
    Backup,
    Cutoff,
    Enter,
    Evaluate,
    Exit,
    SearchLog,
    SearchOptions,
    Static,
    TreeResult,
)

__all__ = ["alphabeta", "exact_values", "expectiminimax", "minimax", "negamax", "search"]

INF = math.inf
#: Whether alpha-beta searches a node whose children are all leaves in one go, without
#: a loop step per leaf (the tests turn it off to compare with the general path).
_FAST_BOTTOMS = True
_OPTION_NAMES = tuple(SearchOptions.__dataclass_fields__)


# Values ---------------------------------------------------------------------------------


def exact_values(tree: Tree, depth: int | None = None) -> list[Number]:
    """Every node's exact value (minimax, or expectiminimax with chance nodes), in
    MAX's view, computed bottom-up without recursion. With ``depth``, inner nodes at
    that depth count with their static value (nodes below it get ``nan``).

    >>> from plies.trees import parse
    >>> exact_values(parse("[[3,12],[2,4]]"))[0]
    3
    """
    _check_tree(tree)
    if depth is not None:
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise ArgumentTypeError(f"depth must be an int or None, not {depth!r}")
        if depth < 0:
            raise SearchError(f"the depth limit must be 0 or more, not {depth}")
    n = len(tree)
    values: list[Number] = [math.nan] * n
    kind, children, tree_depth = tree.kind, tree.children, tree.depth
    for node in range(n - 1, -1, -1):
        if depth is not None and tree_depth[node] > depth:
            continue
        k = kind[node]
        if k == "leaf":
            values[node] = _leaf_value(tree, node)
        elif depth is not None and tree_depth[node] == depth:
            values[node] = _static(tree, node, depth)
        elif k == "max":
            values[node] = max(values[c] for c in children[node])
        elif k == "min":
            values[node] = min(values[c] for c in children[node])
        else:
            values[node] = _expectation(tree, node, [values[c] for c in children[node]])
    return values


def _is_uniform(tree: Tree, node: int) -> bool:
    """Whether the children of chance node ``node`` are equally likely (the parser
    stores 1/n when no probabilities are given)."""
    kids = tree.children[node]
    p = 1.0 / len(kids)
    return all(tree.probability[c] == p for c in kids)


def _expectation(tree: Tree, node: int, child_values: list[Number]) -> Number:
    """The expected value at chance node ``node``. Equally likely children are
    averaged as ``fsum(values) / n``, so equal expectations are exactly equal
    (summing 0.1 * v ten times is not)."""
    if _is_uniform(tree, node):
        return math.fsum(child_values) / len(child_values)
    total = 0.0
    for c, v in zip(tree.children[node], child_values, strict=True):
        p = tree.probability[c]
        assert p is not None
        if p:  # a zero-probability child adds nothing, even when its value is infinite
            total += p * v
    return total


def _leaf_value(tree: Tree, node: int) -> Number:
    v = tree.value[node]
    if v is None:
        raise SearchError(f"leaf {tree.name(node)} has no value, and the search reached it")
    return v


def _called(tree: Tree, node: int) -> str:
    """A node as a message names it: ``node B`` (:meth:`Tree.name`), ``the root``
    (unlabelled)."""
    if node == 0 and tree.label[0] is None:
        return "the root"
    return f"node {tree.name(node)}"


def _static(tree: Tree, node: int, depth: int) -> Number:
    v = tree.static[node]
    if v is None:
        raise SearchError(
            f"{_called(tree, node)} at depth {depth} has no static value; a depth limit of "
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


# The negamax-form loop: MAX and MIN nodes ----------------------------------------------


def _negamax_form(tree: Tree, options: SearchOptions, log: SearchLog) -> Number:
    """Minimax, alpha-beta or negamax on a tree without chance nodes.

    Values, alpha and beta are from the view of the player at each node (colour
    ``c`` is +1 at MAX nodes, -1 at MIN nodes); leaves are scored from the view of
    the player choosing them. Leaves are evaluated inside their parent's loop, with
    no frame and no log entry of their own: which leaves were evaluated, and with
    what window, follows from the frames (see ``TreeResult._leaf_visits``).
    """
    kind = tree.kind
    alpha0, beta0 = options.window
    trace = log.trace
    if kind[0] == "leaf":
        v0 = _leaf_value(tree, 0)
        log.leaves.append(0)
        log.leaf_windows += (alpha0, beta0)
        if trace is not None:
            trace += ((T_ENTER, 0, alpha0, beta0, 1), (T_EVALUATE, 0))
        return v0
    c = 1 if kind[0] == "max" else -1
    alpha, beta = (alpha0, beta0) if c > 0 else (-beta0, -alpha0)
    if trace is not None:
        trace.append((T_ENTER, 0, alpha, beta, c))
    if options.depth == 0:
        v0 = _static(tree, 0, 0)
        log.statics.append((0, alpha, beta, v0, c))
        if trace is not None:
            trace.append((T_STATIC, 0, v0))
        return v0
    return _negamax_loop(tree, options, log, window=(alpha, beta), c=c)


def _negamax_loop(
    tree: Tree, options: SearchOptions, log: SearchLog, *, window: tuple[Number, Number], c: int
) -> Number:
    """The loop of :func:`_negamax_form` from an inner root; returns the root's value
    in MAX's view."""
    kind, value_of, depth_of, children = tree.kind, tree.value, tree.depth, tree.children
    order = _orderer(tree, options)
    prune = log.prune
    strict, soft, limit = options.strict, options.fail_soft, options.depth
    trace = log.trace
    frame_done = log.frames.append
    alpha, beta = window
    given = options.order == "given"
    # Whether a value reaches beta (cross) or, in MAX's view at a MIN node, -beta.
    cross, cross_low = (gt, lt) if strict else (ge, le)
    bottoms = prune and _FAST_BOTTOMS
    # Minimax without a trace takes a frame whose children are all leaves in one go
    # through builtins: 0.35 s -> 0.2 s on the 10^6-leaf tree (benchmarks/trees.py).
    whole = not prune and trace is None
    is_inner, leaf_values = children.__getitem__, value_of.__getitem__
    # A frame: node, children in search order, next child, alpha, beta, where alpha
    # and beta were set, best value, best child, colour, alpha and beta on entry,
    # value on exit, first pruned child (see the slot names in _result).
    f: list[Any] = [0, order(0), 0, alpha, beta, -1, -1, -INF, -1, c, alpha, beta, None, 0]
    stack: list[list[Any]] = []
    v: Number | None = None  # a child's value, from f's view, waiting to be backed up
    child = -1
    leaf_alpha: Number | None = None  # with a trace: alpha on entering a leaf child
    try:
        while True:
            node, kids, i, alpha, beta, asrc, bsrc, best, bestc, c, _, _, _, _ = f
            end = len(kids)
            pushed = False
            if whole and i == 0 and not any(map(is_inner, kids)):
                found: list[Number] = list(map(leaf_values, kids))  # type: ignore[arg-type]
                best = c * (max(found) if c > 0 else min(found))
                bestc, i = kids[found.index(c * best)], end
            while True:
                if v is None:  # take the next child
                    if i == end:
                        break
                    child = kids[i]
                    i += 1
                    lv = value_of[child]
                    if lv is not None:  # a leaf (inner nodes have no value)
                        v = c * lv
                        leaf_alpha = alpha  # a trace gives the leaf's entry with its backup
                    elif not (below := children[child]):
                        v = _leaf_value(tree, child)  # a leaf without a value: raises
                    else:
                        cc = 1 if kind[child] == "max" else -1
                        if cc == c:
                            ca, cb, casrc, cbsrc = alpha, beta, asrc, bsrc
                        else:
                            ca, cb, casrc, cbsrc = -beta, -alpha, bsrc, asrc
                        if trace is not None:
                            trace.append((T_ENTER, child, ca, cb, cc))
                            leaf_alpha = None
                        if limit is not None and depth_of[child] == limit:
                            sv = _static(tree, child, limit)  # in MAX's view
                            log.statics.append((child, ca, cb, sv, cc))
                            if trace is not None:
                                trace.append((T_STATIC, child, sv))
                            v = c * sv
                        else:
                            grandchildren = below if given else order(child)
                            # A bottom node (its children all leaves: in preorder, ids
                            # child+1 .. child+len) is searched in one go, with no frame
                            # pushed, no backup step and no trace entry per leaf. The
                            # general loop would take the leaves until one reaches
                            # beta: the best is then that leaf's value (all before it
                            # were below beta), or the first largest value if none
                            # does. So a bare scan finds the first leaf to reach beta,
                            # max/min the first best when none does, and the frame's
                            # count of children searched lets TreeResult rebuild the
                            # leaves, windows and events (a T_BOTTOM trace entry).
                            # In given order the ids are read directly: a value at id
                            # child+1 means a leaf first child, and a None met before
                            # the cut (an inner child, or a leaf without a value)
                            # fails to compare and sends the node to the general path.
                            # On the 10^6-leaf tree (6,018 of the 7,222 inner nodes
                            # visited are bottom nodes): 12.1 -> 10.9 ms CPU without a
                            # trace, 20.8 -> 14.2 ms with it (best of 40, interleaved in
                            # one process; the memory stalls of a 1.1M-node tree, not
                            # the loop, are most of what is left).
                            last = child + len(below)
                            if bottoms and (
                                below[-1] == last if not given else value_of[child + 1] is not None
                            ):
                                ids = range(child + 1, last + 1) if given else grandchildren
                                cut = 0
                                top: Any  # None (a leaf without a value) fails to compare
                                try:
                                    bound = cb if cc > 0 else -cb
                                    reaches = cross if cc > 0 else cross_low
                                    # Leaves after the first to reach beta are not read
                                    # (a lazy map, not a slice: about 0.7 ms less, A/B).
                                    for k, top in enumerate(map(leaf_values, ids)):
                                        if reaches(top, bound):
                                            cut = k + 1
                                            break
                                    else:  # none reaches beta: the first best leaf
                                        values: list[Any] = (
                                            value_of[child + 1 : last + 1]
                                            if given
                                            else list(map(leaf_values, ids))
                                        )
                                        top = max(values) if cc > 0 else min(values)
                                        k = values.index(top)
                                    if cc < 0:
                                        top = -top
                                except TypeError:  # a leaf without a value: the general path
                                    pass
                                else:
                                    n = len(below)
                                    if cut == n:
                                        cut = 0
                                    elif cut:
                                        log.cutoffs += 1
                                    value = top if soft else min(max(top, ca), cb)
                                    raised = top > ca  # alpha moves to the best value
                                    bf = [
                                        child,
                                        grandchildren,
                                        n,
                                        top if raised else ca,
                                        cb,
                                        child if raised else casrc,
                                        cbsrc,
                                        top,
                                        child + 1 + k if given else grandchildren[k],
                                        cc,
                                        ca,
                                        cb,
                                        value,
                                        cut,
                                    ]
                                    frame_done(bf)
                                    if trace is not None:
                                        trace.append((T_BOTTOM, bf))
                                    v = value if cc == c else -value
                                    continue
                            if whole and not any(map(is_inner, grandchildren)):
                                # Minimax, all leaves below: the child's frame is done at
                                # once, with no push (0.20 s -> 0.15 s on 10^6 leaves).
                                found = list(map(leaf_values, grandchildren))  # type: ignore[arg-type]
                                top = cc * (max(found) if cc > 0 else min(found))
                                value = top if soft else min(max(top, ca), cb)
                                frame_done(
                                    [
                                        child,
                                        grandchildren,
                                        len(grandchildren),
                                        ca,
                                        cb,
                                        casrc,
                                        cbsrc,
                                        top,
                                        grandchildren[found.index(cc * top)],
                                        cc,
                                        ca,
                                        cb,
                                        value,
                                        0,
                                    ]
                                )
                                v = value if cc == c else -value
                                continue
                            f[2:9] = i, alpha, beta, asrc, bsrc, best, bestc
                            stack.append(f)
                            f = [
                                child,
                                grandchildren,
                                0,
                                ca,
                                cb,
                                casrc,
                                cbsrc,
                                -INF,
                                -1,
                                cc,
                                ca,
                                cb,
                            ]
                            f += (None, 0)
                            pushed = True
                            break
                # Back up ``v``, the value of ``child``: the best so far, alpha, a cut-off.
                if v > best or bestc < 0:
                    best, bestc = v, child
                    if prune and best > alpha:
                        alpha, asrc = best, node
                cut = prune and (best > beta if strict else best >= beta) and i < end
                if trace is not None:
                    # One small entry per step (whether the best improved, whether alpha
                    # moved, who negated what follow from the entries before it): the
                    # events are built when first read. With 14 fields per entry the
                    # trace cost 2.4x the search without it; with 7, 2x.
                    trace.append((T_BACKUP, node, child, v, best, alpha, cut, leaf_alpha))
                v = None
                if cut:
                    f[CUT] = i
                    log.cutoffs += 1
                    i = end
            if pushed:
                continue
            # All children done (or cut): the node's value goes to its parent.
            value = best if soft else min(max(best, f[ALPHA_IN]), f[BETA_IN])
            f[2:9] = i, alpha, beta, asrc, bsrc, best, bestc
            f[VALUE] = value
            frame_done(f)
            if trace is not None:
                trace.append((T_EXIT, node, value, c))
            if not stack:
                root_value: Number = value if c > 0 else -value
                return root_value
            child, leaf_alpha = node, None
            f = stack.pop()
            v = -value if f[9] != c else value
    except TypeError:
        # Only a leaf without a value (None) makes the loop's arithmetic fail.
        for leaf in (child, *f[KIDS], *children[child]):
            if not children[leaf]:
                _leaf_value(tree, leaf)
        raise


# The MAX/MIN/chance loop ----------------------------------------------------------------

_BOUND_NAME = {3: "alpha", 4: "beta"}  # frame slots ALPHA and BETA
#: The inequality that cuts, by (sign of the mover, strict rule).
_CUT_OP = {(1, False): ">=", (1, True): ">", (-1, False): "<=", (-1, True): "<"}
#: Extra frame slots of a chance node: its child values and their running sum, when
#: the children are equally likely (None otherwise).
_VALUES, _SUM = 15, 16


def _maxmin(tree: Tree, options: SearchOptions, log: SearchLog) -> Number:
    """Expectiminimax in the textbook form; alpha-beta at MAX/MIN nodes and Star1 at
    chance nodes when pruning (known leaf bounds and ``star1``)."""
    kind, depth_of, prob = tree.kind, tree.depth, tree.probability
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
    events = log.events
    trace = events is not None
    _ALPHA, _BETA, _ASRC, _I = 3, 4, 5, NEXT

    def enter(node: int, alpha: Number, beta: Number) -> Number | None:
        """Log entry; return the value at once for leaves and depth-limit nodes."""
        if trace:
            events.append(Enter(node, alpha, beta))  # type: ignore[union-attr]
        if kind[node] == "leaf":
            v = _leaf_value(tree, node)
            log.leaves.append(node)
            log.leaf_windows += (alpha, beta)
            if trace:
                number = len(log.leaves)
                events.append(Evaluate(node, leaf_index[node], v, number))  # type: ignore[union-attr]
            return v
        if limit is not None and depth_of[node] == limit:
            v = _static(tree, node, limit)
            log.statics.append((node, alpha, beta, v, 1))
            if trace:
                events.append(Static(node, v))  # type: ignore[union-attr]
            return v
        return None

    def push(node: int, alpha: Number, beta: Number, asrc: int, bsrc: int) -> list[Any]:
        k = kind[node]
        best: Number = -INF if k == "max" else (INF if k == "min" else 0.0)
        kids = order(node)
        uniform = k == "chance" and _is_uniform(tree, node)
        f = [node, kids, 0, alpha, beta, asrc, bsrc, best, -1, 1, alpha, beta, None, None, 0.0]
        return f + ([[], 0] if uniform else [None, 0])

    alpha0, beta0 = options.window
    root_value = enter(0, alpha0, beta0)
    stack: list[list[Any]] = []
    if root_value is None:
        stack.append(push(0, alpha0, beta0, -1, -1))
    while stack:
        f = stack[-1]
        node = f[NODE]
        kids = f[KIDS]
        i = f[_I]
        if i < len(kids):
            child = kids[i]
            f[_I] = i + 1
            alpha, beta = f[_ALPHA], f[_BETA]
            asrc, bsrc = f[_ASRC], f[_ASRC + 1]
            if kind[node] == "chance":
                if star1:
                    p = prob[child]
                    assert p is not None
                    rest = 1.0 - f[SEEN] - p
                    if p > 0:
                        alpha = max(low, (alpha - f[BEST] - high * rest) / p)
                        beta = min(high, (beta - f[BEST] - low * rest) / p)
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
            v = f[BEST]
            k = kind[node]
            if k == "chance" and f[_VALUES] is not None and f[CUT] is None:
                v = math.fsum(f[_VALUES]) / len(kids)  # exact: equal averages tie
            elif not soft and k != "chance":
                v = min(max(v, f[ALPHA_IN]), f[BETA_IN])
            f[VALUE] = v
            log.frames.append(f)
            if trace:
                events.append(Exit(node, v))  # type: ignore[union-attr]
            if not stack:
                root_value = v
                break
            child = node
            f = stack[-1]
            node = f[NODE]
            kids = f[KIDS]
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
            if f[BESTC] < 0 or sign * v > sign * f[BEST]:
                f[BEST], f[BESTC], improved = v, child, True
            if prune:
                own, other = (_ALPHA, _BETA) if sign > 0 else (_BETA, _ALPHA)
                if sign * f[BEST] > sign * f[own]:
                    f[own], f[own + 2] = f[BEST], node  # the bound and where it was set
                    bound, bound_value = _BOUND_NAME[own], f[own]
                mine, theirs = sign * f[BEST], sign * f[other]
                if f[_I] < len(kids) and (mine > theirs if strict else mine >= theirs):
                    cutoff = Cutoff(
                        node,
                        f[BEST],
                        _CUT_OP[sign, strict],
                        _BOUND_NAME[other],
                        f[other],
                        f[other + 2],
                        tuple(kids[f[_I] :]),
                    )
        else:  # chance: f[BEST] is the probability-weighted sum so far
            p = prob[child]
            assert p is not None
            if f[_VALUES] is not None:  # equally likely: the plain sum over n
                f[_VALUES].append(v)
                f[_SUM] += v
                f[BEST] = f[_SUM] / len(kids)
            elif p:
                f[BEST] += p * v
            f[SEEN] += p
            improved = True
            shown = f[BEST]  # the weighted sum, before a cut-off replaces it by a bound
            if star1 and f[_I] < len(kids):
                rest = 1.0 - f[SEEN]
                upper = f[BEST] + high * rest
                lower = f[BEST] + low * rest
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
                        f[BEST] = edge
                        break
        if k != "chance":
            shown = f[BEST]
        if cutoff is not None:
            f[CUT] = cutoff
            log.cutoffs += 1
            f[_I] = len(kids)
        if trace:
            events.append(  # type: ignore[union-attr]
                Backup(node, child, v, v, False, shown, improved, bound, bound_value, cutoff)
            )
    assert root_value is not None
    return root_value


# Public entry points --------------------------------------------------------------------


def _check_tree(tree: object) -> None:
    if not isinstance(tree, Tree):
        raise ArgumentTypeError(
            f"tree must be a plies.trees.Tree (from parse, from_leaves or random_tree), "
            f"not {type(tree).__name__} {_short(tree)}"
        )


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _check(tree: Tree, options: SearchOptions) -> None:
    if tree.has_chance and options.algorithm != "expectiminimax":
        node = tree.kind.index("chance")
        raise SearchError(
            f"{options.algorithm} cannot search chance nodes ({_called(tree, node)} is one); "
            "use expectiminimax"
        )


def _options(
    options: object, kwargs: dict[str, Any], algorithm: str | None = None
) -> SearchOptions:
    """The :class:`SearchOptions` for a search: ``options`` or keywords, never both;
    ``algorithm`` is fixed by the entry point (``alphabeta``, ...) when given."""
    valid = [n for n in _OPTION_NAMES if algorithm is None or n != "algorithm"]
    unknown = sorted(set(kwargs) - set(valid))
    if unknown:
        raise ArgumentTypeError(
            f"unknown search option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
            f"(valid options: {', '.join(valid)})"
        )
    if algorithm is not None:
        return SearchOptions(algorithm=algorithm, **kwargs)
    if options is None:
        return SearchOptions(**kwargs)
    if not isinstance(options, SearchOptions):
        raise ArgumentTypeError(
            f"options must be a SearchOptions or None, not {type(options).__name__}"
        )
    if kwargs:
        raise ArgumentTypeError(
            f"give either options or keywords ({', '.join(sorted(kwargs))}), not both"
        )
    return options


def search(tree: Tree, options: SearchOptions | None = None, **kwargs: Any) -> TreeResult:
    """Search ``tree`` as ``options`` (or the same fields as keywords) say.

    Time and memory grow with the nodes the search visits, not with the tree: the
    per-node lists of the result are built when first read.

    >>> from plies.trees import parse
    >>> search(parse("[[3,12,8],[2,4,6],[14,5,2]]")).value
    3
    """
    _check_tree(tree)
    options = _options(options, kwargs)
    _check(tree, options)
    textbook = tree.has_chance
    # Minimax never prunes; expectiminimax prunes only with Star1, which needs bounds.
    prune = options.algorithm != "minimax" and (
        options.algorithm != "expectiminimax" or (options.star1 and tree.bounds is not None)
    )
    native = _native(tree, options)
    if native is not None:
        value, log = native.search_native(
            tree,
            native.flat_tree(tree),  # built and checked by _native
            prune=prune,
            strict=options.strict,
            soft=options.fail_soft,
            window=options.window,
        )
    else:
        log = SearchLog(colour=not textbook, trace=options.trace, prune=prune)
        with no_gc():
            value = _maxmin(tree, options, log) if textbook else _negamax_form(tree, options, log)
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
        log=log,
    )


def _native(tree: Tree, options: SearchOptions) -> Any:
    """The native module if this search runs there (see ``SearchOptions.backend``),
    else None; ``backend="native"`` for a search it cannot run raises SearchError."""
    backend = options.backend
    if backend == "python" or (backend is None and (len(tree) < NATIVE_MIN_NODES or options.trace)):
        return None
    if tree.kind[0] == "leaf":
        return None  # nothing to search: the Python loop answers at once
    problem: str | None
    try:
        from plies.trees import _native as native
    except Exception as exc:  # ImportError, or a broken install (a NumPy version clash)
        problem = f"numba does not import ({exc})"
    else:
        problem = native.native_problem(
            tree,
            algorithm=options.algorithm,
            order=options.order,
            depth=options.depth,
            trace=options.trace,
            window=options.window,
        )
        if problem is None:
            return native
    if backend == "native":
        raise SearchError(problem)
    return None


def minimax(tree: Tree, **options: Any) -> TreeResult:
    """Plain minimax: every leaf is evaluated. Options as :class:`SearchOptions`."""
    _check_tree(tree)
    return search(tree, _options(None, options, "minimax"))


def alphabeta(tree: Tree, **options: Any) -> TreeResult:
    """Alpha-beta pruning (fail-soft unless ``fail_soft=False``; prunes on equality
    unless ``strict=True``). Options as :class:`SearchOptions`."""
    _check_tree(tree)
    return search(tree, _options(None, options, "alphabeta"))


def negamax(tree: Tree, **options: Any) -> TreeResult:
    """Negamax with alpha-beta pruning, showing the sign flips in its events.
    Options as :class:`SearchOptions`."""
    _check_tree(tree)
    return search(tree, _options(None, options, "negamax"))


def expectiminimax(tree: Tree, **options: Any) -> TreeResult:
    """Expectiminimax; with leaf bounds on the tree (``tree.bounds``) and ``star1``
    (the default), Star1 pruning at chance nodes and alpha-beta at MAX/MIN nodes.
    Options as :class:`SearchOptions`."""
    _check_tree(tree)
    return search(tree, _options(None, options, "expectiminimax"))
