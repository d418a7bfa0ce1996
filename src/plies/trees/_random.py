"""Random trees to practise on, reproducible from a seed."""

from __future__ import annotations

import random

from plies.errors import TreeError
from plies.trees._model import Tree, TreeBuilder

__all__ = ["random_tree"]


def random_tree(
    *,
    branching: int = 2,
    depth: int = 3,
    seed: int | None = None,
    ragged: bool = False,
    low: int = -9,
    high: int = 9,
    distinct: bool = False,
    chance: bool = False,
    root: str = "max",
) -> Tree:
    """A random tree with integer leaves in ``[low, high]``.

    Uniform by default (every inner node has ``branching`` children, every leaf at
    ``depth``). ``ragged`` gives each inner node 1 to ``branching`` children and lets
    branches end early. ``distinct`` draws leaf values without repeats (the range must
    be large enough). ``chance`` makes every MIN level a chance level with equally
    likely outcomes, for expectiminimax. The same arguments always give the same tree.
    """
    if branching < 1 or depth < 0:
        raise TreeError("a random tree needs branching >= 1 and depth >= 0")
    if low > high:
        raise TreeError(f"the value range is empty: low {low} > high {high}")
    if branching**depth > 5_000_000:
        raise TreeError(f"a random tree of {branching}^{depth} leaves is too large to make")
    rng = random.Random(seed)
    pool: list[int] | None = None
    if distinct:
        leaves_max = branching**depth
        if high - low + 1 < leaves_max:
            raise TreeError(f"cannot draw {leaves_max} distinct values from [{low}, {high}]")
        pool = rng.sample(range(low, high + 1), k=min(high - low + 1, leaves_max))
    builder = TreeBuilder(root=root)
    # Explicit stack of (parent, depth, is_max_level), children pushed right to left.
    stack: list[tuple[int, int, bool]] = [(-1, 0, root == "max")]
    while stack:
        parent, d, is_max = stack.pop()
        early_leaf = ragged and parent >= 0 and rng.random() < 0.2
        if d == depth or early_leaf:
            value = pool.pop() if pool is not None else rng.randint(low, high)
            builder.add(parent, value=value)
            continue
        kind = "max" if is_max else ("chance" if chance else "min")
        node = builder.add(parent, kind=kind)
        count = rng.randint(1, branching) if ragged else branching
        stack.extend((node, d + 1, not is_max) for _ in range(count))
    return builder.build()
