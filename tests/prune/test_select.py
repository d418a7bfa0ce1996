"""Selection by prune-and-search agrees with sorting, and its rounds say what they did."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.prune import GROUP, SelectionError, select

METHODS = ("medians", "random")


@st.composite
def instances(draw: st.DrawFn) -> tuple[list[int], int]:
    """Numbers (few distinct values when ``spread`` is small: many duplicates) and a rank."""
    spread = draw(st.sampled_from([1, 3, 10, 1000]))
    numbers = draw(st.lists(st.integers(-spread, spread), min_size=1, max_size=80))
    k = draw(st.integers(1, len(numbers)))
    return numbers, k


@settings(max_examples=1500)
@given(instances(), st.sampled_from(METHODS), st.integers(0, 2**32))
def test_the_kth_smallest_is_the_kth_of_the_sorted_numbers(
    instance: tuple[list[int], int], method: str, seed: int
) -> None:
    numbers, k = instance
    result = select(numbers, k, method=method, seed=seed)
    assert result.value == sorted(numbers)[k - 1]


@settings(max_examples=300)
@given(instances(), st.sampled_from(METHODS))
def test_each_round_keeps_the_part_holding_the_answer(
    instance: tuple[list[int], int], method: str
) -> None:
    numbers, k = instance
    result = select(numbers, k, method=method)
    for before, after in zip(result.rounds, result.rounds[1:], strict=False):
        assert after.size == before.kept_size
        assert sorted(after.values)[after.rank - 1] == result.value
        assert before.smaller + before.equal + before.larger == before.size
    for round_ in result.rounds:
        assert round_.smaller == sum(v < round_.pivot for v in round_.values)
        assert round_.larger == sum(v > round_.pivot for v in round_.values)
        assert round_.kept_fraction + round_.discarded_fraction == pytest.approx(1)


@settings(max_examples=300)
@given(st.lists(st.integers(-(10**6), 10**6), min_size=6, max_size=400, unique=True))
def test_median_of_medians_keeps_at_most_seven_tenths_plus_six(numbers: list[int]) -> None:
    result = select(numbers, (len(numbers) + 1) // 2, method="medians")
    for round_ in result.rounds:
        groups = -(-round_.size // GROUP)
        assert round_.kept_size <= round_.size - 3 * (-(-groups // 2) - 2)
        assert round_.kept_size <= 7 * round_.size / 10 + 6


def test_the_pivot_of_the_median_of_medians_is_the_median_of_the_group_medians() -> None:
    numbers = list(range(25, 0, -1))  # groups 25..21, 20..16, ...: medians 23, 18, 13, 8, 3
    first = select(numbers, 1).rounds[0]
    assert first.medians == (23, 18, 13, 8, 3)
    assert first.pivot == 13
    assert (first.smaller, first.equal, first.larger, first.kept) == (12, 1, 12, "smaller")


def test_the_random_pivot_follows_the_seed() -> None:
    numbers = list(range(200))
    runs = [select(numbers, 50, method="random", seed=s) for s in (1, 1, 2)]
    assert [r.pivot for r in runs[0].rounds] == [r.pivot for r in runs[1].rounds]
    assert [r.pivot for r in runs[0].rounds] != [r.pivot for r in runs[2].rounds]


def test_the_answer_found_as_the_pivot_ends_the_rounds() -> None:
    result = select([7] * 12, 5)
    assert [r.kept for r in result.rounds] == ["equal"]
    assert result.kept_fractions == ()
    assert result.finished == "the answer is the last round's pivot, 7 (the 5th of its 12 numbers)"


def test_kept_fractions_are_measured_over_the_rounds_that_recurse() -> None:
    result = select(list(range(100)), 10)
    assert result.kept_fractions == tuple(
        r.kept_size / r.size for r in result.rounds if r.kept != "equal"
    )
    assert all(0 < a <= 0.7 + 6 / 100 for a in result.kept_fractions)


def test_decimals_fractions_and_floats_are_exact() -> None:
    assert select([Decimal("0.1"), Fraction(1, 3), 0.25], 2).value == Fraction(1, 4)
    assert select([Decimal("0.1"), Fraction(1, 3), 0.25], 1).value == Fraction(1, 10)


@pytest.mark.parametrize(
    ("numbers", "k", "message"),
    [
        ([], 1, "no numbers"),
        ([1, 2], 3, "k must be between 1 and 2"),
        ([1, 2], 0, "k must be between 1 and 2"),
        ([1, float("nan")], 1, "finite"),
        ([1, "2"], 1, "must be a number"),
        ([True], 1, "must be a number"),
    ],
)
def test_bad_input_is_refused_with_the_reason(numbers: list[object], k: int, message: str) -> None:
    with pytest.raises(SelectionError, match=message):
        select(numbers, k)  # type: ignore[arg-type]


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(SelectionError, match="unknown method 'fast'"):
        select([1], 1, method="fast")
