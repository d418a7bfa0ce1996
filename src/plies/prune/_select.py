"""Selection by prune-and-search: the k-th smallest of n numbers in O(n).

Each round picks a pivot, splits the numbers into those smaller than it, equal to it
and larger, keeps the one part that holds the k-th smallest and throws the others
away. How the pivot is picked decides how much each round discards:

* ``medians`` (Blum, Floyd, Pratt, Rivest and Tarjan's median of medians): the
  median of the medians of groups of 5, itself found by this selection. It is at
  least as large as 3 numbers in each of half the groups, and at most as large as 3
  in each of the other half, so every round discards at least about 3n/10 numbers,
  whatever the input: T(n) <= T(n/5) + T(7n/10) + O(n), which is O(n).
* ``random`` (Hoare's quickselect with a random pivot, seeded): the pivot's rank is
  uniform, so a round keeps about 3/4 of the numbers in expectation; a bad round is
  possible but rare, and the expected time is O(n).

Every round is recorded (:class:`SelectRound`): its input, the pivot and how it was
chosen, the sizes of the three parts, the part kept, the fraction discarded and why.

>>> result = select([9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 11, 10], 4)
>>> result.value
Fraction(3, 1)
>>> [(r.size, r.kept) for r in result.rounds]
[(12, 'smaller'), (7, 'larger'), (6, 'equal')]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from plies.errors import PliesError
from plies.prune._numbers import format_exact as _text
from plies.prune._numbers import ordinal

__all__ = [
    "GROUP",
    "METHODS",
    "Number",
    "SelectResult",
    "SelectRound",
    "SelectionError",
    "exact",
    "select",
]

#: How the pivot is chosen: median of medians, or at random.
METHODS: tuple[str, ...] = ("medians", "random")
#: The group size of the median of medians.
GROUP = 5

Number = Fraction | int | float | Decimal
Part = Literal["smaller", "equal", "larger"]


class SelectionError(PliesError):
    """A selection that cannot be made: no numbers, a rank out of range, not a number."""


@dataclass(frozen=True)
class SelectRound:
    """One round: ``values`` (this round's input, ``size`` of them), the ``rank``
    sought among them (1-based), the ``pivot`` and ``how`` it was chosen (with the
    group ``medians`` for the median of medians), the sizes of the three parts, the
    part ``kept`` and ``why``."""

    values: tuple[Fraction, ...]
    rank: int
    pivot: Fraction
    how: str
    medians: tuple[Fraction, ...]
    smaller: int
    equal: int
    larger: int
    kept: Part
    why: str

    @property
    def size(self) -> int:
        """How many numbers this round started with."""
        return len(self.values)

    @property
    def kept_size(self) -> int:
        """How many numbers the kept part holds."""
        return {"smaller": self.smaller, "equal": self.equal, "larger": self.larger}[self.kept]

    @property
    def kept_fraction(self) -> float:
        """The fraction of this round's input kept for the next."""
        return self.kept_size / self.size

    @property
    def discarded_fraction(self) -> float:
        """The fraction of this round's input thrown away."""
        return 1 - self.kept_fraction

    @property
    def is_last(self) -> bool:
        """Whether this round found the answer (it is the pivot): no round follows."""
        return self.kept == "equal"


@dataclass(frozen=True)
class SelectResult:
    """The ``k``-th smallest (``value``) of ``n`` numbers found by ``method`` (with
    ``seed`` for ``random``), the ``rounds`` and how the search ``finished``: the
    answer was a pivot, or the last few numbers were sorted. ``left`` holds the numbers
    the search finished with, sorted (the last round's, or the few sorted at the end),
    the answer being the ``left_rank``-th of them."""

    value: Fraction
    k: int
    n: int
    method: str
    seed: int | None
    rounds: tuple[SelectRound, ...]
    finished: str
    left: tuple[Fraction, ...]
    left_rank: int

    @property
    def kept_fractions(self) -> tuple[float, ...]:
        """The fraction kept by each round that a further round (or the final sort)
        follows: the measured ``a`` of T(n) = T(a n) + O(n), round by round."""
        return tuple(r.kept_fraction for r in self.rounds if not r.is_last)


def exact(value: object, name: str = "number") -> Fraction:
    """``value`` (an int, a Fraction, a finite float or Decimal) as an exact Fraction."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int | float | Decimal):
        raise SelectionError(f"{name} must be a number, not {value!r}")
    if isinstance(value, float | Decimal) and not math.isfinite(value):
        raise SelectionError(f"{name} must be a finite number, not {value}")
    return Fraction(value)


def select(
    values: Iterable[Number], k: int, *, method: str = "medians", seed: int = 0
) -> SelectResult:
    """The ``k``-th smallest (1-based, duplicates counted) of ``values``, found by
    prune-and-search with ``method`` (``medians`` or ``random``, seeded by ``seed``),
    every round recorded."""
    numbers = [exact(v) for v in values]
    if method not in METHODS:
        raise SelectionError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    if not numbers:
        raise SelectionError("no numbers to select from")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(numbers):
        raise SelectionError(f"k must be between 1 and {len(numbers)} (the count), not {k}")
    if method == "random":
        rule, used_seed = _random_pivot(random.Random(seed)), seed
    else:
        rule, used_seed = _median_of_medians, None
    found = _search(numbers, k, rule, True)
    return SelectResult(
        found.value, k, len(numbers), method, used_seed, tuple(found.rounds), found.finished,
        tuple(sorted(found.left)), found.rank,
    )  # fmt: skip


# A pivot rule: the numbers -> the pivot, how it was chosen, the group medians.
PivotRule = Callable[[Sequence[Fraction]], tuple[Fraction, str, tuple[Fraction, ...]]]


@dataclass
class _Found:
    """What :func:`_search` found: its rounds, the value, how it finished, the numbers
    it finished with and the answer's rank among them."""

    rounds: list[SelectRound]
    value: Fraction
    finished: str
    left: list[Fraction]
    rank: int


def _search(numbers: list[Fraction], k: int, pivot_rule: PivotRule, recorded: bool) -> _Found:
    """The rounds (when ``recorded``) and the ``k``-th smallest of ``numbers``."""
    rounds: list[SelectRound] = []
    is_medians = pivot_rule is _median_of_medians
    while True:
        if is_medians and len(numbers) <= GROUP:
            ordered = sorted(numbers)
            finished = (
                f"{len(numbers)} numbers left, at most {GROUP}: sorted "
                f"({', '.join(_text(v) for v in ordered)}), the {ordinal(k)} of them is "
                f"{_text(ordered[k - 1])}"
            )
            return _Found(rounds, ordered[k - 1], finished, ordered, k)
        pivot, how, medians = pivot_rule(numbers)
        smaller = [v for v in numbers if v < pivot]
        larger = [v for v in numbers if v > pivot]
        equal = len(numbers) - len(smaller) - len(larger)
        kept, why, rest, rank = _keep(k, pivot, equal, smaller, larger)
        if recorded:
            rounds.append(
                SelectRound(
                    tuple(numbers), k, pivot, how, medians, len(smaller), equal,
                    len(larger), kept, why + _guarantee(is_medians, len(numbers)),
                )
            )  # fmt: skip
        if kept == "equal":
            finished = (
                f"the answer is the last round's pivot, {_text(pivot)} "
                f"(the {ordinal(k)} of its {len(numbers)} numbers)"
            )
            return _Found(rounds, pivot, finished, numbers, k)
        numbers, k = rest, rank


def _keep(
    k: int, pivot: Fraction, equal: int, smaller: list[Fraction], larger: list[Fraction]
) -> tuple[Part, str, list[Fraction], int]:
    """Which part holds the ``k``-th smallest, why, and that part with the rank in it."""
    below = len(smaller)
    if k <= below:
        why = f"k = {k} <= {below} smaller: the answer is among the smaller numbers"
        return "smaller", why, smaller, k
    if k <= below + equal:
        why = f"{below} < k = {k} <= {below} + {equal}: the answer is the pivot {_text(pivot)}"
        return "equal", why, [], k
    rank = k - below - equal
    why = (
        f"k = {k} > {below} + {equal}: the answer is among the larger numbers, "
        f"the {ordinal(rank)} smallest of them"
    )
    return "larger", why, larger, rank


def _guarantee(is_medians: bool, size: int) -> str:
    """Why this pivot rule discards much, whatever the input."""
    if is_medians:
        groups = -(-size // GROUP)
        least = 3 * (-(-groups // 2) - 2)
        if least <= 0:
            return (
                f"; with only {groups} group medians the pivot's guarantee (about 3n/10 "
                "numbers on each side) does not bite yet"
            )
        return (
            f"; the pivot is the median of {groups} group medians, so at least "
            f"3(ceil({groups}/2) - 2) = {least} numbers are >= it and {least} <= it "
            f"(about 3n/10): at most {size - least} of {size} can be kept"
        )
    return "; a random pivot has a uniform rank: 3/4 of the numbers are kept on average"


def _median_of_medians(numbers: Sequence[Fraction]) -> tuple[Fraction, str, tuple[Fraction, ...]]:
    """The median of the medians of groups of :data:`GROUP` (the lower median of an
    even count), found by this same selection."""
    groups = (sorted(numbers[i : i + GROUP]) for i in range(0, len(numbers), GROUP))
    medians = tuple(group[(len(group) - 1) // 2] for group in groups)
    middle = (len(medians) + 1) // 2
    pivot = _search(list(medians), middle, _median_of_medians, False).value
    how = (
        f"the median of the medians of {len(medians)} groups of {GROUP} "
        f"(the {ordinal(middle)} of {len(medians)}, found by a selection of its own)"
    )
    return pivot, how, medians


def _random_pivot(rng: random.Random) -> PivotRule:
    """A pivot rule picking a number uniformly at random with ``rng``."""

    def pick(numbers: Sequence[Fraction]) -> tuple[Fraction, str, tuple[Fraction, ...]]:
        place = rng.randrange(len(numbers))
        return numbers[place], f"picked at random: number {place + 1} of {len(numbers)}", ()

    return pick
