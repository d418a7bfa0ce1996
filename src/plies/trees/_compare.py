"""Compare algorithms, move orderings and tie rules on one tree."""

from __future__ import annotations

import math
from dataclasses import dataclass

from plies.errors import ArgumentTypeError, LimitError, SearchError
from plies.trees._model import Number, Tree
from plies.trees._result import SearchOptions
from plies.trees._search import _check_tree, search

__all__ = ["Comparison", "compare", "knuth_moore_minimum"]


def knuth_moore_minimum(branching: int, depth: int) -> int:
    """Leaves alpha-beta evaluates on a perfectly ordered uniform tree:
    ``b^ceil(d/2) + b^floor(d/2) - 1`` (Knuth and Moore, 1975).

    >>> knuth_moore_minimum(3, 2)
    5
    """
    for name, x in (("branching", branching), ("depth", depth)):
        if not isinstance(x, int) or isinstance(x, bool):
            raise ArgumentTypeError(f"{name} must be an int, not {x!r}")
        if x < 0:
            raise SearchError(f"{name} must be 0 or more, not {x}")
    if branching > 1 and (depth + 1) // 2 * math.log10(branching) > MAX_COUNT_DIGITS:
        raise LimitError(
            f"knuth_moore_minimum({branching}, {depth}) has more than {MAX_COUNT_DIGITS:,} "
            "digits: lower the branching or the depth"
        )
    return int(branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1)


#: The most digits :func:`knuth_moore_minimum` computes (Python prints ints of up to
#: 4,300 digits; a depth of 10**30 took for ever).
MAX_COUNT_DIGITS = 4_000


@dataclass(frozen=True, slots=True)
class Comparison:
    """One row of :func:`compare`."""

    algorithm: str
    order: str
    strict: bool
    value: Number
    evaluated: int
    nodes_visited: int
    cutoffs: int


def compare(
    tree: Tree,
    *,
    seed: int = 0,
    depth: int | None = None,
    fail_soft: bool = True,
) -> list[Comparison]:
    """Search ``tree`` with every algorithm x ordering x tie rule that applies.

    Trees with chance nodes compare expectiminimax with and without Star1 (when leaf
    bounds are known); others compare minimax, alpha-beta and negamax. ``static``
    ordering is included when the tree has static values. Minimax does not prune, so
    it appears once per ordering.
    """
    _check_tree(tree)
    # Refuse bad options before the first search, naming them (SearchOptions checks).
    SearchOptions(seed=seed, depth=depth, fail_soft=fail_soft)
    if tree.has_chance:
        algorithms = [("expectiminimax", False)]
        if tree.bounds is not None:
            algorithms.append(("expectiminimax", True))
    else:
        algorithms = [("minimax", False), ("alphabeta", True), ("negamax", True)]
    orders = ["given", "best", "worst", "random"]
    if any(s is not None for s in tree.static):
        orders.append("static")
    rows: list[Comparison] = []
    for algorithm, prunes in algorithms:
        for order in orders:
            for strict in (False, True) if prunes else (False,):
                result = search(
                    tree,
                    SearchOptions(
                        algorithm=algorithm,
                        order=order,
                        strict=strict,
                        seed=seed,
                        depth=depth,
                        star1=prunes,
                        fail_soft=fail_soft,
                        trace=False,
                    ),
                )
                name = algorithm + (" + Star1" if algorithm == "expectiminimax" and prunes else "")
                rows.append(
                    Comparison(
                        name,
                        order,
                        strict,
                        result.value,
                        result.evaluated_count,
                        result.nodes_visited,
                        result.cutoffs,
                    )
                )
    return rows
