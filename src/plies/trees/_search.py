"""Searching explicit trees: minimax, alpha-beta, negamax and expectiminimax.

The entry points check the tree and the options and run the search: the Python loop
(:func:`plies.trees._loop.run`, one loop for every algorithm, its events written as
it goes) or, for large trees, the same loop compiled by Numba
(:mod:`plies.trees._native`, its trace too). Either logs what it does at the nodes it visits only
(:class:`~plies.trees._log.SearchLog`); the result builds per-node lists and statuses
from that log when asked. Also here: every node's exact value, and move ordering.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from plies.errors import ArgumentTypeError, SearchError
from plies.trees._log import SearchLog
from plies.trees._loop import called as _called
from plies.trees._loop import is_uniform as _is_uniform
from plies.trees._loop import leaf_value as _leaf_value
from plies.trees._loop import run
from plies.trees._loop import static_value as _static
from plies.trees._model import Number, Tree, no_gc
from plies.trees._result import NATIVE_MIN_NODES, SearchOptions, TreeResult

__all__ = ["alphabeta", "exact_values", "expectiminimax", "minimax", "negamax", "search"]

INF = math.inf
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
    values: list[Number] = [math.nan] * len(tree)
    tree_depth = tree.depth
    for node in range(len(tree) - 1, -1, -1):  # children come after their parent
        if depth is None or tree_depth[node] <= depth:
            values[node] = _exact_value(tree, node, values, depth)
    return values


def _exact_value(tree: Tree, node: int, values: list[Number], depth: int | None) -> Number:
    """The exact value of ``node``, its children's being in ``values``."""
    k = tree.kind[node]
    if k == "leaf":
        return _leaf_value(tree, node)
    if depth is not None and tree.depth[node] == depth:
        return _static(tree, node, depth)
    child_values = [values[c] for c in tree.children[node]]
    if k == "max":
        return max(child_values)
    if k == "min":
        return min(child_values)
    return _expectation(tree, node, child_values)


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
            trace=options.trace,
            movers=options.algorithm == "negamax",
        )
    else:
        log = SearchLog(prune=prune)
        with no_gc():
            value = run(tree, options, log, _orderer(tree, options))
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
    if backend == "python" or (backend is None and len(tree) < NATIVE_MIN_NODES):
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
