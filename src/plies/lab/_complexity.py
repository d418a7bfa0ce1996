"""The complexity picture the slides draw: how many leaves and nodes minimax and
alpha-beta visit as a uniform tree deepens, under four move orderings, beside b^d, the
Knuth-Moore minimum and b^(3d/4).

For each depth of the range and each seed, one random uniform tree of the given
branching is made whose leaves are ``1 .. b^d`` in a random order (distinct values,
so ties never decide a cut-off), and it is searched by minimax and alpha-beta
(fail-soft, pruning on ``alpha >= beta``), each under these orderings (minimax never
prunes, so one search of it counts for all four):

* ``best``: every node's children searched best move first for the node's player, by
  their minimax values (the perfect ordering of Knuth and Moore);
* ``worst``: worst move first;
* ``random``: the tree as generated (its leaves are a random permutation);
* ``static``: by a noisy static evaluation, each node's minimax value plus Gaussian
  noise of standard deviation ``noise`` times the range of the leaf values (noise 0 is
  the best ordering; a large noise comes close to random).

The counts are averaged over the seeds, with their minimum, maximum and population
standard deviation. The same options always give the same numbers.

>>> options = ComplexityOptions.of(branching=2, depths="1-4", seeds=3)
>>> result = measure_complexity(options)
>>> [result.row("alphabeta", "best", d).leaves for d in options.depths]
[2.0, 3.0, 5.0, 7.0]
"""

from __future__ import annotations

import csv
import io
import math
import random
import re
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from plies.draw import CHART_WIDTH, Panel, Series, chart_png, chart_svg
from plies.errors import LimitError, PliesError
from plies.trees import Tree, TreeBuilder, exact_values, knuth_moore_minimum, random_tree, search

__all__ = [
    "COMPLEXITY_ALGORITHMS",
    "COMPLEXITY_ORDERS",
    "COMPLEXITY_REFERENCES",
    "DEFAULT_NOISE",
    "MAX_COMPLEXITY_LEAVES",
    "MAX_COMPLEXITY_SEEDS",
    "MAX_COMPLEXITY_WORK",
    "Complexity",
    "ComplexityError",
    "ComplexityOptions",
    "Measurement",
    "complexity_png",
    "complexity_svg",
    "measure_complexity",
    "measured_tree",
    "parse_depths",
    "plot_complexity",
]

#: The algorithms measured.
COMPLEXITY_ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta")
#: The move orderings measured (see the module's docstring).
COMPLEXITY_ORDERS: tuple[str, ...] = ("best", "static", "random", "worst")
#: The static evaluation's noise, as a fraction of the leaf values' range.
DEFAULT_NOISE = 0.1
#: The most leaves of the deepest tree (b^d). A tree of 100,000 leaves takes about a
#: second per seed for its five searches in Python; more teaches nothing new.
MAX_COMPLEXITY_LEAVES = 100_000
#: The most seeds averaged over.
MAX_COMPLEXITY_SEEDS = 1_000
#: The most leaves searched in all: seeds x the sum of b^d over the depths.
MAX_COMPLEXITY_WORK = 2_000_000

#: How each order is asked of plies.trees.search.
_SEARCH_ORDER = {"best": "best", "worst": "worst", "random": "given", "static": "static"}
#: The reference curves, by key: their names in the chart and the table.
COMPLEXITY_REFERENCES: dict[str, str] = {
    "b_pow_d": "b^d",
    "knuth_moore": "b^⌈d/2⌉ + b^⌊d/2⌋ − 1",
    "b_pow_3d_4": "b^(3d/4)",
}


class ComplexityError(PliesError):
    """Options of a complexity measurement that make no sense (a branching below 2,
    depths that run backwards, a noise below 0), the offending input named."""


def parse_depths(text: str) -> tuple[int, int]:
    """The first and last depth of ``text``: ``"1-6"``, or ``"4"`` for one depth.

    >>> parse_depths("1-6"), parse_depths(" 4 ")
    ((1, 6), (4, 4))
    """
    if not isinstance(text, str):
        raise ComplexityError(f"depths must be text such as '1-6', not {type(text).__name__}")
    match = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", text)
    if match is None:
        raise ComplexityError(
            f"depths must be FIRST-LAST such as '1-6', or one depth, not {text!r}"
        )
    first = int(match[1])
    last = int(match[2]) if match[2] is not None else first
    if first > last:
        raise ComplexityError(
            f"depths {text.strip()!r} run backwards: give the shallower first ({last}-{first})"
        )
    return first, last


@dataclass(frozen=True, slots=True)
class ComplexityOptions:
    """What to measure: uniform trees of ``branching`` at each depth from
    ``first_depth`` to ``last_depth``, ``seeds`` trees per depth (seeds ``seed``,
    ``seed + 1``, ...), the static ordering's ``noise`` (see the module's docstring).

    Checked when made: a branching below 2, a depth below 1, depths that run
    backwards, no seeds or a negative noise raise :class:`ComplexityError`; more than
    :data:`MAX_COMPLEXITY_LEAVES` leaves in the deepest tree, more than
    :data:`MAX_COMPLEXITY_SEEDS` seeds or more than :data:`MAX_COMPLEXITY_WORK` leaves
    in all raise :class:`~plies.errors.LimitError`, the cap named.
    """

    branching: int = 3
    first_depth: int = 1
    last_depth: int = 6
    seeds: int = 10
    seed: int = 0
    noise: float = DEFAULT_NOISE

    def __post_init__(self) -> None:
        for name in ("branching", "first_depth", "last_depth", "seeds", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ComplexityError(f"{name} must be a whole number, not {value!r}")
        _need_at_least(self.branching, 2, "the branching")
        _need_at_least(self.first_depth, 1, "the first depth")
        if self.first_depth > self.last_depth:
            raise ComplexityError(
                f"depths {self.first_depth}-{self.last_depth} run backwards: give the "
                f"shallower first ({self.last_depth}-{self.first_depth})"
            )
        _need_at_least(self.seeds, 1, "the number of seeds")
        self._check_noise()
        self._check_size()

    def _check_noise(self) -> None:
        noise = self.noise
        if isinstance(noise, bool) or not isinstance(noise, int | float):
            raise ComplexityError(f"noise must be a number, not {noise!r}")
        if not 0 <= noise < math.inf:
            raise ComplexityError(f"noise must be 0 or more (and finite), not {noise}")

    def _check_size(self) -> None:
        b, d = self.branching, self.last_depth
        if d * math.log10(b) > math.log10(MAX_COMPLEXITY_LEAVES) + 1e-12:
            raise LimitError(
                f"a tree of branching {b} and depth {d} has {_leaves_text(b, d)} leaves, over "
                f"the cap of {MAX_COMPLEXITY_LEAVES:,}: lower the branching or the last depth"
            )
        if self.seeds > MAX_COMPLEXITY_SEEDS:
            raise LimitError(
                f"{self.seeds:,} seeds is over the cap of {MAX_COMPLEXITY_SEEDS:,}: give fewer"
            )
        leaves = sum(b**depth for depth in self.depths)
        work = self.seeds * leaves
        if work > MAX_COMPLEXITY_WORK:
            raise LimitError(
                f"{self.seeds:,} seeds x {leaves:,} leaves is "
                f"{work:,} leaves to search, over the cap of {MAX_COMPLEXITY_WORK:,}: give "
                "fewer seeds or a smaller last depth"
            )

    @classmethod
    def of(
        cls,
        *,
        branching: int = 3,
        depths: str = "1-6",
        seeds: int = 10,
        seed: int = 0,
        noise: float = DEFAULT_NOISE,
    ) -> ComplexityOptions:
        """The options with ``depths`` as a shell gives them (``"1-6"``: :func:`parse_depths`)."""
        first, last = parse_depths(depths)
        return cls(branching, first, last, seeds, seed, noise)

    @property
    def depths(self) -> range:
        """The depths measured, shallowest first."""
        return range(self.first_depth, self.last_depth + 1)


def _need_at_least(value: int, least: int, what: str) -> None:
    if value < least:
        raise ComplexityError(f"{what} must be at least {least}, not {value}")


def _leaves_text(branching: int, depth: int) -> str:
    if depth * math.log10(branching) > 15:
        return f"{branching}^{depth} (about 10^{depth * math.log10(branching):.0f})"
    return f"{branching**depth:,}"


@dataclass(frozen=True, slots=True)
class Measurement:
    """One algorithm under one ordering at one depth, over the seeds: the mean of
    leaves evaluated and of nodes visited, with their minimum, maximum and population
    standard deviation, and the references of the depth (keys of :data:`COMPLEXITY_REFERENCES`)."""

    algorithm: str
    order: str
    depth: int
    leaves: float
    nodes: float
    leaves_min: int
    leaves_max: int
    leaves_std: float
    nodes_min: int
    nodes_max: int
    nodes_std: float
    seeds: int
    b_pow_d: int
    knuth_moore: int
    b_pow_3d_4: float

    @property
    def effective_branching(self) -> float:
        """The effective branching factor: the mean leaves to the power ``1/depth``."""
        return float(self.leaves ** (1 / self.depth))

    def record(self) -> dict[str, Any]:
        """The row as JSON: ``algorithm``, ``order``, ``depth``, ``leaves``, ``nodes``
        (means), the spread, ``seeds``, the references and ``ebf``."""
        record = {f.name: getattr(self, f.name) for f in fields(self)}
        record["b_pow_3d_4"] = round(self.b_pow_3d_4, 3)
        record["leaves_std"] = round(self.leaves_std, 3)
        record["nodes_std"] = round(self.nodes_std, 3)
        record["ebf"] = round(self.effective_branching, 4)
        return record


@dataclass(frozen=True, slots=True)
class Complexity:
    """What :func:`measure_complexity` measured: its options and one
    :class:`Measurement` per algorithm, ordering and depth (in that nesting)."""

    options: ComplexityOptions
    rows: tuple[Measurement, ...]

    def row(self, algorithm: str, order: str, depth: int) -> Measurement:
        """The measurement of ``algorithm`` under ``order`` at ``depth``."""
        for row in self.rows:
            if (row.algorithm, row.order, row.depth) == (algorithm, order, depth):
                return row
        raise ComplexityError(f"no measurement of {algorithm} under {order} order at depth {depth}")

    def records(self) -> list[dict[str, Any]]:
        """Every row as JSON (:meth:`Measurement.record`)."""
        return [row.record() for row in self.rows]

    def csv(self) -> str:
        """The table as CSV, one row per measurement, a header first."""
        records = self.records()
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue()


def measure_complexity(options: ComplexityOptions | None = None) -> Complexity:
    """Measure leaves evaluated and nodes visited as ``options`` say (see the module's
    docstring for the trees and the orderings)."""
    options = options or ComplexityOptions()
    counts: defaultdict[tuple[str, str, int], list[tuple[int, int]]] = defaultdict(list)
    for depth in options.depths:
        for k in range(options.seeds):
            tree = measured_tree(options.branching, depth, options.seed + k, options.noise)
            # Minimax never prunes: it visits every node under any ordering, so one
            # search a tree counts for all four (the tests check that it does).
            minimax = search(tree, algorithm="minimax", trace=False)
            for order in COMPLEXITY_ORDERS:
                alphabeta = search(
                    tree, algorithm="alphabeta", order=_SEARCH_ORDER[order], trace=False
                )
                for algorithm, result in (("minimax", minimax), ("alphabeta", alphabeta)):
                    cell = counts[algorithm, order, depth]
                    cell.append((result.evaluated_count, result.nodes_visited))
    rows = [
        _measurement(algorithm, order, depth, counts[algorithm, order, depth], options.branching)
        for algorithm in COMPLEXITY_ALGORITHMS
        for order in COMPLEXITY_ORDERS
        for depth in options.depths
    ]
    return Complexity(options, tuple(rows))


def measured_tree(branching: int, depth: int, seed: int, noise: float) -> Tree:
    """The tree measured for one seed: uniform, leaves ``1 .. b^d`` in a random order,
    every node but the root with a static value (its minimax value plus Gaussian noise
    of standard deviation ``noise`` times ``b^d - 1``, drawn from its own seeded
    generator)."""
    leaves = branching**depth
    tree = random_tree(
        branching=branching, depth=depth, seed=seed, low=1, high=leaves, distinct=True
    )
    values = exact_values(tree)
    rng = random.Random(f"static-{seed}")
    sigma = noise * (leaves - 1)
    builder = TreeBuilder(root="max")
    builder.parent.extend(tree.parent)
    builder.value.extend(tree.value)
    builder.label.extend([None] * len(tree.parent))
    builder.statics.update({n: values[n] + rng.gauss(0.0, sigma) for n in range(1, len(values))})
    return builder.build()


def _measurement(
    algorithm: str, order: str, depth: int, counts: Sequence[tuple[int, int]], branching: int
) -> Measurement:
    leaves = [c[0] for c in counts]
    nodes = [c[1] for c in counts]
    return Measurement(
        algorithm=algorithm,
        order=order,
        depth=depth,
        leaves=statistics.fmean(leaves),
        nodes=statistics.fmean(nodes),
        leaves_min=min(leaves),
        leaves_max=max(leaves),
        leaves_std=statistics.pstdev(leaves),
        nodes_min=min(nodes),
        nodes_max=max(nodes),
        nodes_std=statistics.pstdev(nodes),
        seeds=len(counts),
        b_pow_d=branching**depth,
        knuth_moore=knuth_moore_minimum(branching, depth),
        b_pow_3d_4=float(branching ** (3 * depth / 4)),
    )


# -- the chart ---------------------------------------------------------------------------

#: Colours (Okabe-Ito, told apart with any colour vision) and dashes of the lines.
_LOOK: dict[str, tuple[str, str | None]] = {
    "minimax": ("#000000", None),
    "best": ("#009e73", None),
    "static": ("#0072b2", None),
    "random": ("#e69f00", None),
    "worst": ("#d55e00", None),
    "b_pow_d": ("#777777", "7 4"),
    "knuth_moore": ("#222222", "2 4"),
    "b_pow_3d_4": ("#cc79a7", "9 3 2 3"),
}


def _measured_series(result: Complexity, what: str, unit: str) -> list[Series]:
    """The lines of ``what`` (``leaves``, ``nodes`` or ``ebf``): minimax once (it never
    prunes, so every ordering gives it the same numbers), then alpha-beta under each
    ordering."""
    depths = tuple(float(d) for d in result.options.depths)
    ys, lows, highs = _values(result, "minimax", "random", what)
    color = _LOOK["minimax"][0]
    lines = [Series("minimax (every order)", depths, ys, lows, highs, color=color, unit=unit)]
    for order in COMPLEXITY_ORDERS:
        ys, lows, highs = _values(result, "alphabeta", order, what)
        color = _LOOK[order][0]
        lines.append(
            Series(f"alpha-beta, {order}", depths, ys, lows, highs, color=color, unit=unit)
        )
    return lines


def _values(
    result: Complexity, algorithm: str, order: str, what: str
) -> tuple[tuple[float, ...], tuple[float, ...] | None, tuple[float, ...] | None]:
    rows = [result.row(algorithm, order, d) for d in result.options.depths]
    if what == "ebf":
        return tuple(r.effective_branching for r in rows), None, None
    ys = tuple(float(getattr(r, what)) for r in rows)
    lows = tuple(float(getattr(r, f"{what}_min")) for r in rows)
    highs = tuple(float(getattr(r, f"{what}_max")) for r in rows)
    return ys, lows, highs


def _reference_series(result: Complexity, *, per_depth: bool) -> list[Series]:
    """b^d, the Knuth-Moore minimum and b^(3d/4) at each depth, or (``per_depth``
    False) their effective branching factors."""
    options = result.options
    depths = tuple(float(d) for d in options.depths)
    rows = [result.row("minimax", "random", d) for d in options.depths]
    lines = []
    for key, name in COMPLEXITY_REFERENCES.items():
        values = [float(getattr(r, key)) for r in rows]
        if not per_depth:
            values = [v ** (1 / r.depth) for v, r in zip(values, rows, strict=True)]
        color, dash = _LOOK[key]
        lines.append(Series(name, depths, tuple(values), color=color, dash=dash, markers=False))
    return lines


def _panels(result: Complexity) -> list[Panel]:
    leaves = _measured_series(result, "leaves", "leaves")
    nodes = _measured_series(result, "nodes", "nodes")
    ebf = _measured_series(result, "ebf", "")
    return [
        Panel(
            "Leaves evaluated (log scale)",
            "depth d",
            "leaves",
            tuple(leaves + _reference_series(result, per_depth=True)),
        ),
        Panel("Nodes visited (log scale)", "depth d", "nodes", tuple(nodes)),
        Panel(
            "Effective branching factor, leaves^(1/d)",
            "depth d",
            "leaves^(1/d)",
            tuple(ebf + _reference_series(result, per_depth=False)),
            log_y=False,
        ),
    ]


def _titles(result: Complexity) -> tuple[str, str]:
    o = result.options
    seeds = f"seed {o.seed}" if o.seeds == 1 else f"seeds {o.seed}-{o.seed + o.seeds - 1}"
    title = f"Minimax and alpha-beta, branching b = {o.branching}"
    subtitle = f"mean of {o.seeds} random trees a depth ({seeds}); bars: min to max"
    return title, subtitle


def complexity_svg(result: Complexity, *, width: int = CHART_WIDTH) -> str:
    """The chart of ``result`` as SVG: leaves (with b^d, the Knuth-Moore minimum and
    b^(3d/4)) and nodes on log scales, then the effective branching factors. Every
    measured point carries its numbers (``data-y``, ``data-low``, ``data-high`` and a
    hover title)."""
    title, subtitle = _titles(result)
    return chart_svg(_panels(result), title=title, subtitle=subtitle, width=width)


def complexity_png(result: Complexity, *, dpi: int = 192, width: int = CHART_WIDTH) -> bytes:
    """The chart of :func:`complexity_svg` as PNG at ``dpi`` (needs ``plies[draw]``)."""
    title, subtitle = _titles(result)
    return chart_png(_panels(result), title=title, subtitle=subtitle, width=width, dpi=dpi)


def plot_complexity(
    *,
    branching: int = 3,
    depths: str = "1-6",
    seeds: int = 10,
    seed: int = 0,
    noise: float = DEFAULT_NOISE,
) -> str:
    """Measure and draw in one call, as a web page asks: the options as
    :meth:`ComplexityOptions.of` takes them, the chart's SVG out.

    >>> plot_complexity(branching=2, depths="1-3", seeds=2).startswith("<svg")
    True
    """
    options = ComplexityOptions.of(
        branching=branching, depths=depths, seeds=seeds, seed=seed, noise=noise
    )
    return complexity_svg(measure_complexity(options))
