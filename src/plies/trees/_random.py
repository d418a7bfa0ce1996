"""Random trees to practise on, reproducible from a seed."""

from __future__ import annotations

import math
import random

from plies.errors import ArgumentTypeError, LimitError, TreeError
from plies.trees._model import Kind, Number, Tree, TreeBuilder, check_number

__all__ = ["MAX_RANDOM_NODES", "random_tree"]

#: The most nodes :func:`random_tree` makes (a uniform tree of branching 10 and depth 6
#: has 1,111,111); larger trees take minutes to make and teach nothing more.
MAX_RANDOM_NODES = 5_000_000


def random_tree(
    *,
    branching: int = 2,
    depth: int = 3,
    seed: int | None = None,
    ragged: bool = False,
    low: Number = -9,
    high: Number = 9,
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

    ``low`` and ``high`` must be whole numbers (``3.0`` is fine, ``2.5`` is refused
    rather than truncated) with ``low < high``. A tree of more than
    :data:`MAX_RANDOM_NODES` nodes raises :class:`~plies.errors.LimitError`.
    """
    branching = _whole(branching, "branching", at_least=1)
    depth = _whole(depth, "depth", at_least=0)
    low, high = _bound(low, "low"), _bound(high, "high")
    if low >= high:
        raise TreeError(f"the value range needs low < high, not low {low} and high {high}")
    for name, flag in (("ragged", ragged), ("distinct", distinct), ("chance", chance)):
        if not isinstance(flag, bool):
            raise ArgumentTypeError(f"{name} must be True or False, not {flag!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str | bytes)):
        raise ArgumentTypeError(f"seed must be a whole number, not {type(seed).__name__}")
    nodes = _uniform_size(branching, depth)
    if nodes > MAX_RANDOM_NODES:
        raise LimitError(
            f"a random tree with branching {branching} and depth {depth} has "
            f"{nodes:,}{'+' if nodes == MAX_RANDOM_NODES + 1 else ''} nodes, more than the "
            f"{MAX_RANDOM_NODES:,} random_tree makes; lower the branching or the depth"
        )
    rng = random.Random(seed)
    pool: list[int] | None = None
    if distinct:
        leaves_max = branching**depth
        if high - low + 1 < leaves_max:
            raise TreeError(f"cannot draw {leaves_max} distinct values from [{low}, {high}]")
        pool = rng.sample(range(low, high + 1), k=leaves_max)
    return _grow(
        rng,
        branching=branching,
        depth=depth,
        ragged=ragged,
        bounds=(low, high),
        pool=pool,
        chance=chance,
        root=root,
    )


def _whole(value: object, name: str, *, at_least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be a whole number, not {value!r}")
    if value < at_least:
        raise TreeError(f"{name} must be at least {at_least}, not {value}")
    return value


def _bound(value: object, name: str) -> int:
    number = check_number(value, name)
    if math.isinf(number):
        raise TreeError(f"{name} must be finite, not {number}")
    if isinstance(number, float):
        if not number.is_integer():
            raise TreeError(
                f"{name} = {number} is not a whole number (random leaves are whole "
                "numbers; a fractional bound would be truncated)"
            )
        return int(number)
    return number


def _uniform_size(branching: int, depth: int) -> int:
    """Nodes of the uniform tree, counted up to ``MAX_RANDOM_NODES + 1``."""
    total = level = 1
    for _ in range(depth):
        level *= branching
        total += level
        if total > MAX_RANDOM_NODES:
            return MAX_RANDOM_NODES + 1
    return total


def _grow(
    rng: random.Random,
    *,
    branching: int,
    depth: int,
    ragged: bool,
    bounds: tuple[int, int],
    pool: list[int] | None,
    chance: bool,
    root: str,
) -> Tree:
    low, high = bounds
    builder = TreeBuilder(root=root)
    # Values, kinds and parents are right by construction, so they go straight into
    # the builder's lists (add() would check each one again).
    parents, values, kinds = builder.parent, builder.value, builder.kinds
    # Explicit stack of (parent, depth, is_max_level), children pushed right to left.
    stack: list[tuple[int, int, bool]] = [(-1, 0, root == "max")]
    while stack:
        parent, d, is_max = stack.pop()
        node = len(parents)
        parents.append(parent)
        early_leaf = ragged and parent >= 0 and rng.random() < 0.2
        if d == depth or early_leaf:
            values.append(pool.pop() if pool is not None else rng.randint(low, high))
            continue
        values.append(None)
        kind: Kind = "max" if is_max else ("chance" if chance else "min")
        kinds[node] = kind
        count = rng.randint(1, branching) if ragged else branching
        stack.extend((node, d + 1, not is_max) for _ in range(count))
    builder.label = [None] * len(parents)
    return builder.build()
