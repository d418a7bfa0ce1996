"""A set of exercises made from a seed, and the facts of their answer key.

The exercises are the web practice room's (:func:`plies.lab.exercise`, the same shape
and difficulty arguments); each one is searched once by :func:`plies.lab.run` with the
exercise's tie rule, and every document of the classroom (the PDFs, ``answers.json``,
Moodle XML, QTI) is written from that one search, so they cannot disagree.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from plies import lab
from plies._arguments import need_int
from plies.errors import PliesError
from plies.trees import Number, Tree, TreeResult, format_number, format_tree

__all__ = [
    "MAX_COUNT",
    "MAX_LEAVES",
    "Cut",
    "Exercise",
    "NodeRow",
    "ShapeError",
    "Worksheet",
    "make_worksheet",
]

#: The most exercises one sheet holds.
MAX_COUNT = 200

#: The most leaves one exercise may have: a tree that still reads on half a page.
MAX_LEAVES = 81

#: The shape arguments of :func:`plies.lab.exercise` a worksheet passes on.
SHAPE_FIELDS = (
    "branching",
    "depth",
    "ragged",
    "chance",
    "root",
    "low",
    "high",
    "cutoffs",
    "deep",
    "ties",
    "strict",
)


class ShapeError(PliesError):
    """A worksheet that cannot be made: a count or a shape out of range."""


@dataclass(frozen=True)
class NodeRow:
    """One inner node of the key: its window on entry (``alpha_in``, ``beta_in``),
    the value the search returned (``None``: pruned, never searched) and alpha and
    beta when it left, all from MAX's point of view as the lab draws them (the
    search's ``alpha_out`` and ``beta_out``)."""

    node: int
    name: str
    kind: str
    alpha_in: Number | None
    beta_in: Number | None
    value: Number | None
    alpha: Number | None
    beta: Number | None


@dataclass(frozen=True)
class Cut:
    """A cut-off: at ``node`` (its name ``name``), after the child ``after``, the
    inequality ``reason`` held (its bound set at ``source``, ``None`` for the root
    window) and the children ``pruned`` (names) were never searched."""

    node: int
    name: str
    after: str
    reason: str
    source: str | None
    pruned: tuple[str, ...]


@dataclass(frozen=True)
class Exercise:
    """Exercise ``number`` (from 1): its seed, tree and search."""

    number: int
    seed: int
    tree: Tree
    result: TreeResult
    options: lab.LabOptions

    @property
    def text(self) -> str:
        """The tree as text, as ``plies tree`` reads it."""
        return format_tree(self.tree)

    def document(self) -> dict[str, Any]:
        """What ``plies tree --json`` prints for this tree and rule."""
        return lab.search_document(self.result, self.options)

    def rows(self) -> list[NodeRow]:
        """Every inner node, in preorder."""
        tree, result = self.tree, self.result
        return [
            NodeRow(
                node=node,
                name=tree.name(node),
                kind=tree.kind[node],
                alpha_in=result.alpha_in[node],
                beta_in=result.beta_in[node],
                value=result.values[node],
                alpha=result.alpha_out[node],
                beta=result.beta_out[node],
            )
            for node in range(len(tree))
            if tree.kind[node] != "leaf"
        ]

    def cuts(self) -> list[Cut]:
        """Every cut-off, in the order the search made them."""
        tree = self.tree
        cuts = []
        for node, cutoff in self.result.cut_at.items():
            kids = tree.children[node]
            after = kids[kids.index(cutoff.pruned[0]) - 1] if cutoff.pruned else kids[-1]
            cuts.append(
                Cut(
                    node=node,
                    name=tree.name(node),
                    after=tree.name(after),
                    reason=cutoff.inequality(),
                    source=tree.name(cutoff.source) if cutoff.source >= 0 else None,
                    pruned=tuple(tree.name(child) for child in cutoff.pruned),
                )
            )
        return cuts

    def evaluated(self) -> list[int]:
        """The leaves' node ids in the order the search evaluated them."""
        ids = self.tree.leaf_ids
        return [ids[leaf] for leaf in self.result.evaluated]

    def never_evaluated(self) -> list[int]:
        """The leaves' node ids the search never evaluated, left to right."""
        seen = set(self.result.evaluated)
        return [node for leaf, node in enumerate(self.tree.leaf_ids) if leaf not in seen]

    def key(self) -> dict[str, Any]:
        """The answer key as plain data (names, numbers as ``plies tree`` writes them)."""
        tree = self.tree
        return {
            "value": format_number(self.result.value),
            "rule": "strict" if self.result.options.strict else "loose",
            "nodes": [
                {
                    "name": row.name,
                    "kind": row.kind,
                    "window": [_number(row.alpha_in), _number(row.beta_in)],
                    "value": _number(row.value),
                    "alpha": _number(row.alpha),
                    "beta": _number(row.beta),
                }
                for row in self.rows()
            ],
            "cuts": [
                {
                    "at": cut.name,
                    "after": cut.after,
                    "reason": cut.reason,
                    "bound_from": cut.source,
                    "pruned": list(cut.pruned),
                }
                for cut in self.cuts()
            ],
            "evaluated": [tree.name(node) for node in self.evaluated()],
            "never_evaluated": [tree.name(node) for node in self.never_evaluated()],
        }


def _number(value: Number | None) -> str | None:
    return None if value is None else format_number(value)


@dataclass(frozen=True)
class Worksheet:
    """``count`` exercises from ``seed`` in one shape (the keyword arguments of
    :func:`plies.lab.exercise` but its seed)."""

    seed: int
    shape: dict[str, Any]
    exercises: tuple[Exercise, ...]

    def to_json(self) -> dict[str, Any]:
        """``answers.json``: the sheet's seed and shape, and for each exercise its
        tree text, the ``plies tree --json`` document and the key."""
        return {
            "seed": self.seed,
            "shape": self.shape,
            "exercises": [
                {
                    "number": ex.number,
                    "seed": ex.seed,
                    "tree": ex.text,
                    "search": ex.document(),
                    "key": ex.key(),
                }
                for ex in self.exercises
            ],
        }


def make_worksheet(*, count: int, seed: int, **shape: Any) -> Worksheet:
    """``count`` exercises of ``shape`` (see :data:`SHAPE_FIELDS`), the same for the
    same arguments: exercise ``i`` is :func:`plies.lab.exercise` with the ``i``-th
    seed drawn from ``seed``, searched with alpha-beta under the shape's tie rule
    (expectiminimax for a tree with chance nodes). A count or shape out of range
    raises :class:`ShapeError`; a difficulty the shape cannot meet,
    :class:`plies.lab.ExerciseError`."""
    need_int(count, "count", minimum=1, maximum=MAX_COUNT, error=ShapeError)
    need_int(seed, "seed", minimum=0, error=ShapeError)
    unknown = sorted(set(shape) - set(SHAPE_FIELDS))
    if unknown:
        raise ShapeError(f"unknown shape field {unknown[0]!r} (known: {', '.join(SHAPE_FIELDS)})")
    _check_size(shape.get("branching", 2), shape.get("depth", 3))
    strict = bool(shape.get("strict", False))
    options = lab.LabOptions(strict=strict)
    seeds = random.Random(seed)
    exercises = []
    for number in range(1, count + 1):
        own_seed = seeds.getrandbits(31)
        tree = lab.exercise(seed=own_seed, **shape)
        exercises.append(Exercise(number, own_seed, tree, lab.run(tree, options), options))
    return Worksheet(seed=seed, shape=dict(shape), exercises=tuple(exercises))


def _check_size(branching: object, depth: object) -> None:
    """Refuse a shape whose trees would not read on half a page."""
    branching = need_int(branching, "branching", minimum=2, maximum=MAX_LEAVES, error=ShapeError)
    depth = need_int(
        depth, "depth", minimum=2, maximum=int(math.log2(MAX_LEAVES)), error=ShapeError
    )
    if branching**depth > MAX_LEAVES:
        raise ShapeError(
            f"an exercise of branching {branching} and depth {depth} has up to "
            f"{branching**depth} leaves, more than a worksheet draws ({MAX_LEAVES}: "
            "branching 3 and depth 4)"
        )
