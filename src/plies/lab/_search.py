"""Reading a tree, searching it as the user asked, and the documents of the result."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies._arguments import need_int, need_object
from plies.errors import ArgumentTypeError, TreeError
from plies.trees import (
    Number,
    SearchOptions,
    Tree,
    TreeResult,
    check_bounds,
    compare,
    json_number,
    knuth_moore_minimum,
    letter_names,
    parse,
    random_tree,
    result_to_json,
    search,
)

__all__ = [
    "EXERCISE_TRIES",
    "ExerciseError",
    "LabOptions",
    "compare_document",
    "exercise",
    "read_tree",
    "run",
    "search_document",
    "with_bounds",
]

INF = math.inf


def read_tree(
    text: str,
    *,
    notation: str = "auto",
    root: str = "max",
    branching: int | None = None,
    bounds: tuple[Number, Number] | None = None,
) -> Tree:
    """The tree ``text`` describes in ``notation`` (detected by default), with known
    leaf ``bounds`` (for Star1) checked against its leaves."""
    return with_bounds(parse(text, notation=notation, root=root, branching=branching), bounds)


def with_bounds(tree: Tree, bounds: tuple[Number, Number] | None) -> Tree:
    """``tree`` with known leaf ``bounds`` (for Star1), checked against its leaves;
    ``None`` leaves it as it is."""
    need_object(tree, Tree, "tree")
    if bounds is not None:
        check_bounds(tree, bounds)
        tree.bounds = bounds
    return tree


def _cli_spelling(name: str) -> str:
    return "--" + name.replace("_", "-")


@dataclass(frozen=True, kw_only=True)
class LabOptions:
    """How the lab searches a tree, as a user gives it: ``None`` means "not given",
    filled from the tree's hints (a CS188 file names its algorithm and tie rule) or
    the defaults (alpha-beta, or expectiminimax for a tree with chance nodes;
    pruning on equality). The fields are those of :class:`plies.trees.SearchOptions`
    under the names of ``plies tree``'s options."""

    algorithm: str | None = None
    strict: bool | None = None
    fail_hard: bool = False
    order: str = "given"
    seed: int | None = None
    depth_limit: int | None = None
    window: tuple[Number, Number] | None = None
    star1: bool = True

    def __post_init__(self) -> None:
        for name in ("fail_hard", "star1"):
            if not isinstance(getattr(self, name), bool):
                raise ArgumentTypeError(
                    f"{name} must be True or False, not {getattr(self, name)!r}"
                )
        if self.strict is not None and not isinstance(self.strict, bool):
            raise ArgumentTypeError(f"strict must be True, False or None, not {self.strict!r}")

    def search_options(self, tree: Tree, *, trace: bool = True) -> SearchOptions:
        """The :class:`SearchOptions` for ``tree``: gaps filled from its hints."""
        need_object(tree, Tree, "tree")
        algorithm = self.algorithm
        if algorithm is None:
            hinted = tree.hints.get("algorithm")
            algorithm = (
                hinted
                if isinstance(hinted, str)
                else ("expectiminimax" if tree.has_chance else "alphabeta")
            )
        strict = self.strict
        if strict is None:
            strict = bool(tree.hints.get("strict", False))
        return SearchOptions(
            algorithm=algorithm,
            fail_soft=not self.fail_hard,
            strict=strict,
            order=self.order,
            seed=0 if self.seed is None else self.seed,
            depth=self.depth_limit,
            window=self.window if self.window is not None else (-INF, INF),
            star1=self.star1,
            trace=trace,
        )

    def notes(self, tree: Tree, *, spell: Callable[[str], str] = _cli_spelling) -> list[str]:
        """Why each option given has no effect on searching ``tree``, one sentence each
        (an option silently ignored looks like one that worked), after the tree's own
        ``note`` hint if it has one (what the reader ignored: a CS188 file's
        ``win_states`` naming states the test does not have). ``spell`` writes an
        option's name as the shell shows it (``--fail-hard`` by default)."""
        options = self.search_options(tree, trace=False)
        algorithm = options.algorithm
        star1 = algorithm == "expectiminimax" and self.star1 and tree.bounds is not None
        tree_note = tree.hints.get("note")
        notes: list[str] = [tree_note] if isinstance(tree_note, str) else []
        if not (algorithm in ("alphabeta", "negamax") or star1):
            why = f"{algorithm} does not prune here"
            if self.strict:
                notes.append(f"{spell('strict')} has no effect: {why}")
            if self.fail_hard:
                notes.append(f"{spell('fail_hard')} has no effect: {why}")
            if self.window is not None and algorithm == "minimax":
                notes.append(f"{spell('window')} has no effect on minimax: it does not prune")
        elif self.fail_hard and tree.has_chance:
            notes.append(f"{spell('fail_hard')} applies to MAX and MIN nodes, not chance nodes")
        if self.order == "static" and not any(s is not None for s in tree.static):
            notes.append(f"{spell('order')} static has no effect: the tree gives no static values")
        if self.seed is not None and self.order != "random":
            notes.append(f"{spell('seed')} has no effect on the search without order random")
        if not self.star1 and algorithm != "expectiminimax":
            notes.append(f"{spell('no_star1')} has no effect: Star1 prunes expectiminimax only")
        if tree.bounds is not None and algorithm != "expectiminimax":
            notes.append(
                f"{spell('bounds')} has no effect: leaf bounds serve Star1 in expectiminimax"
            )
        return notes


def run(tree: Tree, options: LabOptions, *, trace: bool = True) -> TreeResult:
    """Search ``tree`` as ``options`` say (``trace``: record every step)."""
    need_object(options, LabOptions, "options")
    return search(tree, options.search_options(tree, trace=trace))


def search_document(
    result: TreeResult, options: LabOptions, *, spell: Callable[[str], str] = _cli_spelling
) -> dict[str, Any]:
    """The strict JSON document of a search (``plies tree --json``, the web's
    ``/api/search``): :func:`plies.trees.result_to_json` and the ``notes`` on options
    given that had no effect (option names as ``spell`` writes them: the command
    line's ``--fail-hard`` by default)."""
    need_object(result, TreeResult, "result")
    need_object(options, LabOptions, "options")
    doc = result_to_json(result)
    doc["notes"] = options.notes(result.tree, spell=spell)
    return doc


def compare_document(tree: Tree, options: LabOptions) -> dict[str, Any]:
    """Every algorithm x ordering x tie rule on ``tree`` (seed, depth limit and fail
    rule from ``options``), with the Knuth-Moore minimum for uniform trees, as the
    strict JSON that ``plies tree --compare --json`` prints."""
    need_object(options, LabOptions, "options")
    rows = compare(
        tree,
        seed=0 if options.seed is None else options.seed,
        depth=options.depth_limit,
        fail_soft=not options.fail_hard,
    )
    shape = tree.uniform_shape()
    minimum = knuth_moore_minimum(*shape) if shape is not None and not tree.has_chance else None
    return {
        "leaf_count": tree.leaf_count,
        "node_count": len(tree),
        "shape": list(shape) if shape is not None else None,
        "knuth_moore_minimum": minimum,
        "rows": [
            {
                "algorithm": r.algorithm,
                "order": r.order,
                "strict": r.strict,
                "value": json_number(r.value),
                "evaluated": r.evaluated,
                "nodes_visited": r.nodes_visited,
                "cutoffs": r.cutoffs,
            }
            for r in rows
        ],
    }


class ExerciseError(TreeError):
    """An exercise that cannot be made: the difficulty asked for is impossible on the
    shape asked for, or no tree of that shape met it in :data:`EXERCISE_TRIES` tries."""


#: How many random trees :func:`exercise` draws before it gives up on a difficulty.
EXERCISE_TRIES = 400

#: The fewest leaves of an exercise: fewer leave nothing to think about.
MIN_EXERCISE_LEAVES = 4


@dataclass(frozen=True)
class _Difficulty:
    """What an exercise must ask of the student (see :func:`exercise`)."""

    cutoffs: int
    deep: bool
    ties: bool
    strict: bool

    def met_by(self, tree: Tree) -> bool:
        """Whether the search of ``tree`` under the chosen rule has it all."""
        if tree.height < 2 or tree.leaf_count < MIN_EXERCISE_LEAVES:
            return False
        if not (self.cutoffs or self.deep or self.ties):
            return True
        result = search(tree, SearchOptions(strict=self.strict, trace=False))
        cuts = result.cut_at.values()
        if len(cuts) < self.cutoffs:
            return False
        depth = tree.depth
        if self.deep and not any(
            c.source >= 0 and depth[c.node] - depth[c.source] >= 2 for c in cuts
        ):
            return False
        if self.ties:  # a cut-off that fires under one tie rule and not the other
            other = search(tree, SearchOptions(strict=not self.strict, trace=False))
            return other.evaluated != result.evaluated
        return True


def _impossible(difficulty: _Difficulty, branching: int, depth: int, chance: bool) -> str | None:
    """Why no tree of this shape can have ``difficulty``, if that is plain at once."""
    if chance and (difficulty.cutoffs or difficulty.deep or difficulty.ties):
        return "a tree with chance nodes is searched by expectiminimax, which does not prune here"
    if depth < 2 or branching < 2:
        return (
            f"a tree of branching {branching} and depth {depth} is too small to practise "
            "on: give branching and depth 2 or more"
        )
    cutters = 0  # inner nodes below the root, counted as far as the cut-offs asked for
    for level in range(1, depth):  # (a sum over every level hung on a depth of 10**30)
        cutters += branching**level
        if cutters >= difficulty.cutoffs:
            break
    if difficulty.cutoffs > cutters:
        return (
            f"a tree of branching {branching} and depth {depth} has at most {cutters} "
            f"cut-offs, not {difficulty.cutoffs}"
        )
    if difficulty.deep and depth < 4:
        # MAX and MIN alternate, so a bound comes from an odd number of levels up:
        # deep is three, from the root to a node at depth 3 pruning depth 4.
        return "a deep cut-off (its bound set two or more levels up) needs depth 4 or more"
    return None


def exercise(
    *,
    branching: int = 2,
    depth: int = 3,
    seed: int = 0,
    ragged: bool = False,
    chance: bool = False,
    root: str = "max",
    low: int = -9,
    high: int = 9,
    cutoffs: int | None = None,
    deep: bool = False,
    ties: bool = False,
    strict: bool = False,
) -> Tree:
    """A practice tree worth doing, the same for the same arguments.

    A :func:`plies.trees.random_tree` of the shape asked for (``ragged``: at most
    ``branching`` children and ``depth`` levels), never trivial (two levels or more,
    :data:`MIN_EXERCISE_LEAVES` leaves or more), whose alpha-beta search under the tie
    rule ``strict`` has at least ``cutoffs`` cut-offs (by default 1, or 0 for a tree
    with chance nodes), a deep one with ``deep`` (its bound set two or more levels up)
    and with ``ties`` a cut-off that fires under one tie rule and not under the other.
    Trees are drawn from seeds derived from ``seed`` until one qualifies; a difficulty
    impossible on the shape, or not met in :data:`EXERCISE_TRIES` tries, raises
    :class:`ExerciseError`. Inner nodes are labelled ``A``, ``B``, ... in preorder as
    textbooks draw them (their names, :meth:`plies.trees.Tree.name`).
    """
    need_int(seed, "seed")
    need_int(branching, "branching")
    need_int(depth, "depth")
    if cutoffs is None:
        cutoffs = 0 if chance else 1
    need_int(cutoffs, "cutoffs")
    for name, flag in (("deep", deep), ("ties", ties), ("strict", strict)):
        need_object(flag, bool, name)
    difficulty = _Difficulty(cutoffs=max(cutoffs, 0), deep=deep, ties=ties, strict=strict)
    why = _impossible(difficulty, branching, depth, chance)
    if why is not None:
        raise ExerciseError(f"no exercise: {why}")
    seeds = random.Random(seed)
    for attempt in range(EXERCISE_TRIES):
        tree = random_tree(
            branching=branching,
            depth=depth,
            seed=seed if attempt == 0 else seeds.getrandbits(63),
            ragged=ragged,
            chance=chance,
            root=root,
            low=low,
            high=high,
        )
        if difficulty.met_by(tree):
            inner = (node for node in range(len(tree)) if tree.kind[node] != "leaf")
            for node, name in zip(inner, letter_names(), strict=False):
                tree.label[node] = name
            return tree
    raise ExerciseError(
        f"no exercise of this shape with {_asked(difficulty)} in {EXERCISE_TRIES} tries "
        f"from seed {seed}: ask for less, or a bigger tree"
    )


def _asked(difficulty: _Difficulty) -> str:
    """The difficulty in words, for an error message."""
    parts = [f"{difficulty.cutoffs} cut-off{'' if difficulty.cutoffs == 1 else 's'} or more"]
    if difficulty.deep:
        parts.append("a deep cut-off")
    if difficulty.ties:
        parts.append(f"a tie that the {'strict' if difficulty.strict else 'loose'} rule decides")
    return ", ".join(parts)
