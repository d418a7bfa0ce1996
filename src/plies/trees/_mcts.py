"""Monte-Carlo tree search (UCT) on an explicit tree, one recorded step per iteration.

A teaching version: the tree is explicit, so every iteration can be shown whole (the
selection path with the UCB scores that chose it, the node expanded, the random
simulation down to a leaf, and each node's visits and mean value after the backup),
and the most visited root move can be set beside the minimax move it converges to.

>>> from plies.trees import parse
>>> result = mcts_tree(parse("[[3,12,8],[2,4,6],[14,5,2]]"), iterations=300, seed=1)
>>> result.best_name, result.agrees
('B', True)
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

from plies.errors import SearchError
from plies.trees._model import Number, Tree, format_number
from plies.trees._search import exact_values

__all__ = [
    "MAX_MCTS_ITERATIONS",
    "MctsChild",
    "MctsChoice",
    "MctsResult",
    "MctsStep",
    "convergence_line",
    "mcts_tree",
    "narrate_mcts",
    "narrate_step",
]

#: The most iterations one run may take (each is a walk down the tree in Python).
MAX_MCTS_ITERATIONS = 1_000_000

#: Steps kept by default: the first iterations, which are the ones worth reading.
DEFAULT_KEEP_STEPS = 1000


@dataclass(frozen=True)
class MctsChoice:
    """One move of the selection: at ``node`` the search went to ``child``.

    ``how`` is ``"ucb"`` (the child with the highest UCB score; ``scores`` holds every
    child's, in order), ``"chance"`` (sampled by the children's probabilities) or
    ``"expand"`` (the leftmost child not yet visited)."""

    node: int
    child: int
    how: str
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class MctsStep:
    """One iteration (``iteration`` counts from 1).

    ``selection`` are the choices from the root down; ``expanded`` is the node added
    to the search tree (``None`` when the selection ended on a leaf already in it);
    ``simulation`` the nodes the random playout went through below it, ending at
    ``leaf``, whose value ``reward`` is backed up; ``backup`` gives, for each node
    from the root down, ``(node, visits, mean value)`` after the update."""

    iteration: int
    selection: tuple[MctsChoice, ...]
    expanded: int | None
    simulation: tuple[int, ...]
    leaf: int
    reward: Number
    backup: tuple[tuple[int, int, float], ...]


@dataclass(frozen=True)
class MctsChild:
    """The statistics of one root move after the search: ``index`` among the root's
    children (from 0), ``visits``, ``value`` (the mean of the leaf values backed up
    through it, in the tree's units; ``None`` if never visited) and ``ucb`` (the score
    the root would give it now; ``inf`` if never visited) beside ``exact``, its exact
    (minimax, or expectiminimax) value."""

    node: int
    index: int
    name: str
    move: str | None
    visits: int
    value: float | None
    ucb: float
    exact: Number


@dataclass(frozen=True)
class MctsResult:
    """What :func:`mcts_tree` found.

    ``best`` is the index of the most visited root move (ties to the leftmost),
    ``minimax_best`` the indices of the root moves whose exact (minimax, or
    expectiminimax) value equals the root's, ``agrees`` whether ``best`` is one of
    them; ``steps`` are the first ``keep_steps`` iterations."""

    tree: Tree
    iterations: int
    seed: int
    c: float
    children: tuple[MctsChild, ...]
    best: int
    minimax_best: tuple[int, ...]
    minimax_value: Number
    steps: tuple[MctsStep, ...] = field(repr=False)

    @property
    def agrees(self) -> bool:
        """Whether the most visited move is a minimax-best one."""
        return self.best in self.minimax_best

    @property
    def best_name(self) -> str:
        """The name of the most visited root move (``B``, ``C``...)."""
        return self.children[self.best].name


def _check_arguments(
    tree: Tree, iterations: object, seed: object, c: object, keep_steps: object
) -> None:
    if not isinstance(tree, Tree):
        raise SearchError(f"mcts_tree searches a Tree, not {type(tree).__name__}")
    if not isinstance(iterations, int) or isinstance(iterations, bool):
        raise SearchError(f"iterations must be a whole number, not {iterations!r}")
    if not 1 <= iterations <= MAX_MCTS_ITERATIONS:
        raise SearchError(f"iterations must be 1 to {MAX_MCTS_ITERATIONS:,}, not {iterations}")
    if isinstance(c, bool) or not isinstance(c, int | float) or not (0 <= c < math.inf):
        raise SearchError(f"the exploration constant c must be a finite number >= 0, not {c!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SearchError(f"the seed must be a whole number, not {seed!r}")
    if not isinstance(keep_steps, int) or isinstance(keep_steps, bool) or keep_steps < 0:
        raise SearchError(f"keep_steps must be a whole number >= 0, not {keep_steps!r}")
    if tree.kind[0] not in ("max", "min"):
        raise SearchError(
            f"MCTS chooses a move at a MAX or MIN root, and this root is a {tree.kind[0]} node"
        )


def _leaf_range(tree: Tree) -> tuple[float, float]:
    """The lowest and highest leaf values, refusing missing and infinite ones."""
    values: list[float] = []
    for leaf in tree.leaf_ids:
        v = tree.value[leaf]
        if v is None:
            raise SearchError(f"leaf {tree.name(leaf)} has no value, and MCTS needs every leaf's")
        if math.isinf(v):
            raise SearchError(
                f"leaf {tree.name(leaf)} is {v}: MCTS averages leaf values, so they must be finite"
            )
        values.append(float(v))
    return min(values), max(values)


class _Search:
    """The statistics of one run: visits and summed leaf values per node."""

    def __init__(self, tree: Tree, rng: random.Random, c: float) -> None:
        self.tree = tree
        self.rng = rng
        self.c = c
        self.low, self.high = _leaf_range(tree)
        self.visits = [0] * len(tree)
        self.total = [0.0] * len(tree)
        #: Per chance node sampled, its children's cumulative probabilities.
        self.cumulative: dict[int, list[float]] = {}

    def normalised(self, value: float) -> float:
        """A value in [0, 1] from the leaf range (0.5 when every leaf is equal)."""
        if self.high == self.low:
            return 0.5
        return (value - self.low) / (self.high - self.low)

    def ucb(self, node: int) -> tuple[float, ...]:
        """The UCB scores of the children of MAX or MIN ``node``, in the mover's view
        (``inf`` for an unvisited child); what every child shares is read once."""
        visits, total, c = self.visits, self.total, self.c
        is_max = self.tree.kind[node] == "max"
        log_n = math.log(visits[node]) if visits[node] else 0.0
        scores = []
        for child in self.tree.children[node]:
            n = visits[child]
            if n == 0:
                scores.append(math.inf)
                continue
            mean = self.normalised(total[child] / n)
            exploit = mean if is_max else 1.0 - mean
            scores.append(exploit + c * math.sqrt(log_n / n))
        return tuple(scores)

    def sample(self, node: int) -> int:
        """A child of chance ``node``, drawn by the children's probabilities."""
        children = self.tree.children[node]
        cumulative = self.cumulative.get(node)
        if cumulative is None:  # (as random.choices sums the weights, once per node)
            weights = [self.tree.probability[c] or 0.0 for c in children]
            cumulative = self.cumulative[node] = list(itertools.accumulate(weights))
        return self.rng.choices(children, cum_weights=cumulative)[0]

    def select(self) -> tuple[list[MctsChoice], int | None, int]:
        """Walk down from the root: the choices, the node expanded (or ``None``) and
        the node the walk ended on."""
        tree, node, choices = self.tree, 0, []
        while tree.kind[node] != "leaf":
            children = tree.children[node]
            scores: tuple[float, ...] = ()
            if tree.kind[node] == "chance":
                child, how = self.sample(node), "chance"
            else:
                fresh = [c for c in children if self.visits[c] == 0]
                if fresh:
                    child, how = fresh[0], "expand"
                else:
                    scores = self.ucb(node)
                    child, how = children[scores.index(max(scores))], "ucb"
            choices.append(MctsChoice(node, child, how, scores))
            node = child
            if self.visits[node] == 0:
                return choices, node, node
        return choices, None, node

    def simulate(self, start: int) -> list[int]:
        """A random playout below ``start`` to a leaf (uniform at MAX and MIN nodes,
        by probability at chance nodes): the nodes it went through."""
        tree, node, path = self.tree, start, []
        while tree.kind[node] != "leaf":
            children = tree.children[node]
            if tree.kind[node] == "chance":
                node = self.sample(node)
            else:
                node = children[self.rng.randrange(len(children))]
            path.append(node)
        return path

    def iterate(self, iteration: int, *, keep: bool) -> MctsStep | None:
        """One selection, expansion, simulation and backup; its record if ``keep``."""
        choices, expanded, end = self.select()
        simulation = self.simulate(end)
        leaf = simulation[-1] if simulation else end
        reward = self.tree.value[leaf]
        assert reward is not None
        path = [0, *(choice.child for choice in choices)]
        for node in path:
            self.visits[node] += 1
            self.total[node] += reward
        if not keep:  # (a step nobody reads is not made)
            return None
        backup = [(node, self.visits[node], self.total[node] / self.visits[node]) for node in path]
        return MctsStep(
            iteration, tuple(choices), expanded, tuple(simulation), leaf, reward, tuple(backup)
        )

    def child_stats(self, exact: list[Number]) -> tuple[MctsChild, ...]:
        """The root moves' statistics, with their ``exact`` values."""
        tree = self.tree
        ucb = self.ucb(0)
        return tuple(
            MctsChild(
                node=c,
                index=i,
                name=tree.name(c),
                move=tree.move[c],
                visits=self.visits[c],
                value=self.total[c] / self.visits[c] if self.visits[c] else None,
                ucb=ucb[i],
                exact=exact[c],
            )
            for i, c in enumerate(tree.children[0])
        )


def _minimax_best(tree: Tree, values: list[Number]) -> tuple[int, ...]:
    """The indices of the root moves with the root's exact value."""
    return tuple(i for i, c in enumerate(tree.children[0]) if values[c] == values[0])


def mcts_tree(
    tree: Tree,
    *,
    iterations: int = 1000,
    seed: int = 0,
    c: float = math.sqrt(2),
    keep_steps: int = DEFAULT_KEEP_STEPS,
) -> MctsResult:
    """Monte-Carlo tree search (UCT) at the root of an explicit tree.

    Each iteration selects from the root by UCB (the leftmost unvisited child first;
    chance nodes sampled by their probabilities), expands the first node not yet
    visited, simulates below it by uniformly random choices (chance nodes by their
    probabilities) down to a leaf, and backs that leaf's value up the path. Values
    are normalised to [0, 1] by the tree's leaf range for UCB (MIN scores
    ``1 - mean``) and reported in the tree's own units, in MAX's view. ``seed``
    makes a run repeatable (``random.Random(seed)``); ``c`` is the exploration
    constant; the first ``keep_steps`` iterations are recorded as
    :class:`MctsStep`. Raises :class:`~plies.errors.SearchError` for bad arguments,
    a chance or leaf root, or a missing or infinite leaf value.

    >>> from plies.trees import parse
    >>> r = mcts_tree(parse("[[1,2],[5,6]]"), iterations=50, seed=3)
    >>> [child.visits for child in r.children], r.best, r.minimax_best
    ([6, 44], 1, (1,))
    """
    _check_arguments(tree, iterations, seed, c, keep_steps)
    search = _Search(tree, random.Random(seed), float(c))
    steps = []
    for iteration in range(1, iterations + 1):
        step = search.iterate(iteration, keep=iteration <= keep_steps)
        if step is not None:
            steps.append(step)
    exact = exact_values(tree)
    children = search.child_stats(exact)
    most = max(child.visits for child in children)
    best = next(child.index for child in children if child.visits == most)
    return MctsResult(
        tree=tree,
        iterations=iterations,
        seed=seed,
        c=float(c),
        children=children,
        best=best,
        minimax_best=_minimax_best(tree, exact),
        minimax_value=exact[0],
        steps=tuple(steps),
    )


# Narration ------------------------------------------------------------------------------


def _mean(x: float) -> str:
    """A mean value, to three decimals at most."""
    return format_number(round(x, 3))


def _choice_text(tree: Tree, choice: MctsChoice) -> str:
    to = f"{tree.name(choice.node)} -> {tree.name(choice.child)}"
    if choice.how == "ucb":
        scores = ", ".join(
            f"{tree.name(c)} {s:.3f}"
            for c, s in zip(tree.children[choice.node], choice.scores, strict=True)
        )
        mover = tree.kind[choice.node].upper()
        return f"{to} (highest UCB for {mover}: {scores})"
    if choice.how == "chance":
        return f"{to} (chance, p = {format_number(tree.probability[choice.child] or 0.0)})"
    return f"{to} (its first unvisited child)"


def narrate_step(tree: Tree, step: MctsStep) -> list[str]:
    """The lines telling one iteration: selection, expansion, simulation, backup."""
    lines = [f"Iteration {step.iteration}"]
    selection = "; ".join(_choice_text(tree, choice) for choice in step.selection)
    lines.append(f"  selection: {selection or 'the root'}")
    leaf_text = f"{tree.name(step.leaf)} = {format_number(step.reward)}"
    leaf_text += f" (leaf {tree.leaf_index[step.leaf]})"
    if step.expanded is None:
        lines.append(f"  expansion: none, {leaf_text} is a leaf already in the search tree")
    else:
        lines.append(f"  expansion: {tree.name(step.expanded)} joins the search tree")
        if step.simulation:
            walk = " -> ".join(tree.name(n) for n in (step.expanded, *step.simulation[:-1]))
            lines.append(f"  simulation: {walk} -> {leaf_text}")
        else:
            lines.append(f"  simulation: none, {leaf_text} is a leaf")
    backed = "; ".join(
        f"{tree.name(node)} {visits} visit{'s' if visits != 1 else ''}, mean {_mean(mean)}"
        for node, visits, mean in step.backup
    )
    lines.append(f"  backup {format_number(step.reward)}: {backed}")
    return lines


def narrate_mcts(result: MctsResult, limit: int | None = None) -> list[str]:
    """The narration of the first ``limit`` recorded iterations (all by default)."""
    steps = result.steps if limit is None else result.steps[:limit]
    return [line for step in steps for line in narrate_step(result.tree, step)]


def convergence_line(result: MctsResult) -> str:
    """``after N iterations the most visited move is B, minimax's best move is B``."""
    names = [result.children[i].name for i in result.minimax_best]
    best = " or ".join(names)
    verb = "moves are" if len(names) > 1 else "move is"
    agree = "they agree" if result.agrees else "they differ: more iterations may be needed"
    return (
        f"after {result.iterations} iteration{'s' if result.iterations != 1 else ''} the most "
        f"visited move is {result.best_name}, minimax's best {verb} {best} "
        f"(value {format_number(result.minimax_value)}): {agree}"
    )
