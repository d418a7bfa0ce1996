"""A match's Elo, interval and SPRT reproduce the numbers fastchess publishes.

The reports below are fastchess's own output, quoted in public match logs: the
pentanomial ``Ptnml(0-2)`` of a match, its ``Elo: x +/- e``, ``nElo: x +/- e``,
``LOS`` and ``LLR: l (lower, upper) [elo0, elo1]`` (fastchess's default SPRT model,
normalized Elo). Sources: Toudonou/zeno's docs/testing.md (SPRT results of each
feature) and heofthetea/dhbw's semester-5/thunfisch/SPRT.md; the formulas are those of
fastchess's app/src/matchmaking/elo/elo_pentanomial.cpp and sprt/sprt.cpp, after
Michel Van den Bergh's "Comments on Normalized Elo".
"""

from __future__ import annotations

import math

import pytest

from plies.lab import Pentanomial, RatingError, elo_to_score, score_to_elo, sprt
from plies.lab._ratings import pentanomial_llr, sprt_bounds

# (pentanomial, elo, +/-, nelo, +/-, LOS %, (elo0, elo1), (alpha, beta), LLR)
FASTCHESS_REPORTS = [
    ((200, 557, 1005, 643, 249), 12.05, 7.02, 16.07, 9.35, 99.96, (0, 5), (0.05, 0.05), 2.97),
    ((82, 297, 528, 321, 154), 21.14, 9.71, 28.28, 12.95, 100.0, (0, 5), (0.05, 0.05), 2.95),
    ((224, 309, 874, 347, 246), 7.12, 8.57, 8.95, 10.77, 94.84, (0, 2), (0.05, 0.10), 0.53),
    ((120, 246, 645, 386, 302), 51.92, 9.55, 64.48, 11.68, 100.0, (40, 45), (0.05, 0.05), 2.95),
    ((352, 579, 1264, 743, 464), 19.83, 6.77, 24.25, 8.26, 100.0, (9, 16), (0.01, 0.01), 4.60),
    ((0, 0, 1, 8, 1), 190.85, 65.54, 549.34, 152.27, 100.0, (0, 50), (0.05, 0.05), 1.24),
]


def test_a_score_of_three_quarters_is_190_85_elo() -> None:
    assert score_to_elo(0.75) == pytest.approx(190.848, abs=1e-3)
    assert score_to_elo(0.5) == 0.0 and math.copysign(1, score_to_elo(0.5)) == 1
    assert elo_to_score(score_to_elo(0.3)) == pytest.approx(0.3)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


@pytest.mark.parametrize("report", FASTCHESS_REPORTS, ids=lambda r: str(r[0]))
def test_elo_interval_and_llr_are_fastchess_s(report: tuple) -> None:  # type: ignore[type-arg]
    counts, elo, error, nelo, nelo_error, los, bounds, (alpha, beta), llr = report
    estimate = Pentanomial(*counts).elo()
    assert round(estimate.elo, 2) == elo
    assert round(estimate.error, 2) == error
    assert round(estimate.nelo, 2) == nelo
    assert round(estimate.nelo_error, 2) == nelo_error
    assert round(100 * estimate.los, 2) == los
    assert round(sprt(Pentanomial(*counts), *bounds, alpha=alpha, beta=beta).llr, 2) == llr


def test_the_interval_holds_the_estimate_and_is_asymmetric_in_elo() -> None:
    estimate = Pentanomial(0, 0, 1, 8, 1).elo()
    assert estimate.low < estimate.elo < estimate.high
    assert estimate.high - estimate.elo > estimate.elo - estimate.low  # the logistic bends
    assert (estimate.high - estimate.low) / 2 == pytest.approx(estimate.error)


def test_a_one_sided_match_has_an_infinite_elo_and_no_error() -> None:
    # fastchess: "Elo: 631.91 +/- nan, nElo: 1056.68 +/- 77.10", LLR 2.96 [0, 20]
    estimate = Pentanomial(0, 0, 2, 0, 37).elo()
    assert round(estimate.elo, 2) == 631.91 and math.isnan(estimate.error)
    assert estimate.high == math.inf
    assert round(estimate.nelo_error, 2) == 77.10
    assert round(pentanomial_llr(Pentanomial(0, 0, 2, 0, 37), 0, 20), 2) == 2.96
    assert Pentanomial(0, 0, 0, 0, 3).elo().elo == math.inf


def test_wald_bounds() -> None:
    assert sprt_bounds() == pytest.approx((-2.944, 2.944), abs=1e-3)
    assert sprt_bounds(0.05, 0.10) == pytest.approx((math.log(0.1 / 0.95), math.log(18)))
    with pytest.raises(RatingError, match="alpha and beta"):
        sprt_bounds(0.6, 0.5)


def test_the_verdicts() -> None:
    assert sprt(Pentanomial(200, 557, 1005, 643, 249), 0, 5).verdict == "H1"
    assert sprt(Pentanomial(249, 643, 1005, 557, 200), 0, 5).verdict == "H0"  # mirrored
    assert sprt(Pentanomial(1, 1, 1, 1, 1), 0, 5).verdict == "continue"


def test_the_logistic_llr_is_the_likelihood_ratio_of_the_constrained_fits() -> None:
    """Independently: scipy maximizes the likelihood of the pentanomial under each
    hypothesis' expected score (H0 and H1 in logistic Elo), and the LLR is N times the
    difference of the mean log-likelihoods."""
    optimize = pytest.importorskip("scipy.optimize")
    counts = (30, 60, 120, 70, 40)
    total = sum(counts)
    observed = [c / total for c in counts]
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)

    def fit(score: float) -> list[float]:
        found = optimize.minimize(
            lambda p: -sum(o * math.log(max(q, 1e-300)) for o, q in zip(observed, p, strict=True)),
            observed,
            method="SLSQP",
            bounds=[(1e-12, 1)] * 5,
            constraints=[
                {"type": "eq", "fun": lambda p: sum(p) - 1},
                {
                    "type": "eq",
                    "fun": lambda p: sum(a * q for a, q in zip(scores, p, strict=True)) - score,
                },
            ],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        return list(found.x)

    p0, p1 = fit(elo_to_score(0)), fit(elo_to_score(20))
    expected = total * sum(o * math.log(b / a) for o, a, b in zip(observed, p0, p1, strict=True))
    found = pentanomial_llr(Pentanomial(*counts), 0, 20, model="logistic")
    assert found == pytest.approx(expected, abs=1e-4)


def test_at_the_observed_score_the_h1_fit_is_the_observation() -> None:
    # Pairs 10/20/40/20/10 score exactly 1/2: against H1 = 0 Elo the LLR is N times the
    # Kullback-Leibler divergence of the observation from H0's fit, so it is positive.
    llr_zero = pentanomial_llr(Pentanomial(10, 20, 40, 20, 10), -10, 0, model="logistic")
    assert llr_zero > 0
    assert pentanomial_llr(Pentanomial(10, 20, 40, 20, 10), 0, 10, model="logistic") == (
        pytest.approx(-llr_zero)
    )  # the mirror hypothesis, by symmetry of the pentanomial


def test_pairs_are_counted_by_the_first_player_s_points() -> None:
    pairs = [(1, 1), (1, 0.5), (1, 0), (0.5, 0.5), (0, 0.5), (0, 0)]
    assert Pentanomial.of_pairs(pairs).counts == (1, 1, 2, 1, 1)
    with pytest.raises(RatingError, match=r"0, 0\.5 or 1"):
        Pentanomial.of_pairs([(0.3, 1)])
    with pytest.raises(RatingError, match="no game pair"):
        Pentanomial().elo()
    with pytest.raises(RatingError, match="elo0 < elo1"):
        sprt(Pentanomial(1, 1, 1, 1, 1), 5, 0)
