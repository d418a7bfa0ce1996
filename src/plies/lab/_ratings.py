"""Elo from a match's results: the score, the Elo difference with its 95% interval and
the sequential probability ratio test (SPRT), over *game pairs* as fastchess reports them.

A match plays every opening twice, the seats swapped, so its unit is the pair: each
pair scores 0, 1/2, 1, 3/2 or 2 points for the first player (loss-loss, loss-draw,
win-loss or draw-draw, win-draw, win-win), five counts called the *pentanomial*
(:class:`Pentanomial`). The two games of a pair share an opening, so their results are
correlated; the variance measured over pairs keeps that correlation, where one
computed over single games (the trinomial) overstates the error of a match with
balanced openings.

The formulas (written here from their published statements, not copied):

* score ``s`` per game = mean pair score / 2; Elo = ``-400 log10(1/s - 1)``;
* the 95% interval: ``s +- 1.96 sqrt(var / pairs)`` where ``var`` is the variance of
  the pair score (halved to a game's scale), each end turned into Elo (fastchess's
  ``EloPentanomial``; its "+/-" is half the interval's width);
* normalized Elo ``(s - 1/2) / sqrt(2 var) * 800 / ln 10`` (fastchess's ``nElo``);
* the generalized SPRT of Michel Van den Bergh ("Comments on Normalized Elo",
  https://www.cantate.be/Fishtest/normalized_elo_practical.pdf): for each hypothesis
  the distribution over the five outcomes closest to the observed one (maximum
  likelihood) under the hypothesis' constraint, and ``LLR = N sum p^_i log(p1_i / p0_i)``.
  Two models: ``logistic`` (the constraint is the expected score of the logistic
  Elo, proposition 1.1 of the paper) and ``normalized`` (fastchess's default: the
  normalized Elo ``t = (mu - 1/2) / sigma``, section 4.1). An empty outcome counts
  as 0.001 of a pair, as fastchess does, so the logarithms stay finite. The bounds
  are Wald's ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.

>>> round(score_to_elo(0.75), 2)
190.85
>>> penta = Pentanomial(0, 0, 1, 8, 1)
>>> estimate = penta.elo()
>>> round(estimate.elo, 2), round(estimate.error, 2), round(estimate.nelo, 2)
(190.85, 65.54, 549.34)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from plies._arguments import need_int, need_number
from plies.errors import PliesError

__all__ = [
    "SPRT_MODELS",
    "EloEstimate",
    "Pentanomial",
    "RatingError",
    "Sprt",
    "elo_to_score",
    "score_to_elo",
    "sprt",
    "sprt_bounds",
]

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: ``800 / ln 10``: normalized Elo per unit of ``(s - 1/2) / sigma`` (see the module).
NELO_SCALE = 800 / math.log(10)
#: The pair scores of the five outcomes, on a game's scale (points of the pair / 2).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: What an outcome that never happened counts as in the SPRT (fastchess's choice).
EMPTY_OUTCOME = 1e-3
#: The models of :func:`sprt`.
SPRT_MODELS = ("normalized", "logistic")


class RatingError(PliesError):
    """Results or a test that cannot be rated (no games, bounds in the wrong order)."""


def score_to_elo(score: float) -> float:
    """The logistic Elo difference whose expected score is ``score`` (0 to 1; the ends
    are minus and plus infinity)."""
    need_number(score, "score")
    if not 0 <= score <= 1:
        raise RatingError(f"a score is from 0 to 1, not {score!r}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: an even score is 0.0, not -0.0


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic)."""
    need_number(elo, "elo")
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class EloEstimate:
    """What a match's pairs say of the first player against the second: the ``score``
    per game (0 to 1) and its interval, the ``elo`` difference and its 95% interval
    (``low``, ``high``; infinite at a score of 0 or 1), ``error`` (half the interval's
    width, fastchess's "+/-"; NaN when an end is infinite), normalized Elo ``nelo`` and
    its ``nelo_error``, and ``los``, the likelihood of superiority (the chance that the
    first player is the stronger)."""

    score: float
    score_low: float
    score_high: float
    elo: float
    low: float
    high: float
    error: float
    nelo: float
    nelo_error: float
    los: float


@dataclass(frozen=True)
class Pentanomial:
    """The pairs of a match by the first player's points in the pair: ``ll`` (0),
    ``ld`` (1/2), ``even`` (1: a win and a loss, or two draws), ``wd`` (3/2), ``ww`` (2)."""

    ll: int = 0
    ld: int = 0
    even: int = 0
    wd: int = 0
    ww: int = 0

    def __post_init__(self) -> None:
        for name, count in zip(("ll", "ld", "even", "wd", "ww"), self.counts, strict=True):
            need_int(count, name, minimum=0)

    @classmethod
    def of_pairs(cls, pairs: Sequence[tuple[float, float]]) -> Pentanomial:
        """The pentanomial of ``pairs``, each the first player's two scores (1, 1/2 or 0)."""
        counts = [0] * 5
        for first, second in pairs:
            points = 2 * (first + second)  # 0 to 4 half points
            if points not in (0, 1, 2, 3, 4):
                raise RatingError(f"a pair's scores are 0, 0.5 or 1 each, not {first}, {second}")
            counts[int(points)] += 1
        return cls(*counts)

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The five counts, from two losses to two wins."""
        return (self.ll, self.ld, self.even, self.wd, self.ww)

    @property
    def pairs(self) -> int:
        """The number of pairs."""
        return sum(self.counts)

    def _frequencies(self) -> tuple[float, ...]:
        if not self.pairs:
            raise RatingError("no game pair was played: there is nothing to rate")
        return tuple(count / self.pairs for count in self.counts)

    def mean_and_variance(self) -> tuple[float, float]:
        """The mean pair score on a game's scale and its variance (per pair)."""
        frequencies = self._frequencies()
        return _mean_and_variance(PAIR_SCORES, frequencies)

    def elo(self) -> EloEstimate:
        """The Elo difference of the first player, with its 95% interval."""
        score, variance = self.mean_and_variance()
        spread = Z95 * math.sqrt(variance / self.pairs)
        low, high = max(0.0, score - spread), min(1.0, score + spread)
        elo_low, elo_high = score_to_elo(low), score_to_elo(high)
        # Normalized Elo is linear in the score: its interval is not cut at 0 and 1.
        nelo_low, nelo_high = _nelo(score - spread, variance), _nelo(score + spread, variance)
        return EloEstimate(
            score=score,
            score_low=low,
            score_high=high,
            elo=score_to_elo(score),
            low=elo_low,
            high=elo_high,
            error=(elo_high - elo_low) / 2 if math.isfinite(elo_high - elo_low) else math.nan,
            nelo=_nelo(score, variance),
            nelo_error=(nelo_high - nelo_low) / 2,
            los=_los(score, variance / self.pairs),
        )


def _mean_and_variance(values: Sequence[float], weights: Sequence[float]) -> tuple[float, float]:
    mean = sum(v * w for v, w in zip(values, weights, strict=True))
    variance = sum(w * (v - mean) ** 2 for v, w in zip(values, weights, strict=True))
    return mean, variance


def _nelo(score: float, variance: float) -> float:
    """Normalized Elo of ``score`` with pair variance ``variance`` (NaN without spread)."""
    if variance == 0:
        return math.nan
    return (score - 0.5) / math.sqrt(2 * variance) * NELO_SCALE


def _los(score: float, variance_of_mean: float) -> float:
    """The likelihood of superiority: P(true score > 1/2), normal approximation."""
    if variance_of_mean == 0:
        return 0.5 if score == 0.5 else float(score > 0.5)
    return (1 + math.erf((score - 0.5) / math.sqrt(2 * variance_of_mean))) / 2


# -- the SPRT ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test's state: the log-likelihood ratio ``llr`` of
    H1 (``elo1``) against H0 (``elo0``), Wald's ``lower`` and ``upper`` bounds and the
    ``verdict``: ``"H1"`` (llr >= upper: the gain is at least elo1), ``"H0"`` (llr <=
    lower: it is at most elo0) or ``"continue"``."""

    llr: float
    lower: float
    upper: float
    verdict: str
    elo0: float
    elo1: float
    model: str

    def as_dict(self) -> dict[str, float | str]:
        """The JSON object of the test."""
        return {
            "llr": self.llr,
            "lower": self.lower,
            "upper": self.upper,
            "verdict": self.verdict,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "model": self.model,
        }


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds of the LLR for error rates ``alpha`` (accepting H1 wrongly) and
    ``beta`` (accepting H0 wrongly)."""
    need_number(alpha, "alpha")
    need_number(beta, "beta")
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise RatingError(f"alpha and beta are above 0 with a sum below 1, not {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(
    pentanomial: Pentanomial,
    elo0: float,
    elo1: float,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: str = "normalized",
) -> Sprt:
    """The SPRT of H0 ``elo0`` against H1 ``elo1`` (``elo0 < elo1``) on the pairs of
    ``pentanomial``, in ``model`` (``normalized``, fastchess's default, or ``logistic``;
    see the module)."""
    need_number(elo0, "elo0")
    need_number(elo1, "elo1")
    if not elo0 < elo1:
        raise RatingError(f"the SPRT needs elo0 < elo1, not {elo0:g}, {elo1:g}")
    if model not in SPRT_MODELS:
        raise RatingError(f"the SPRT model is one of {', '.join(SPRT_MODELS)}, not {model!r}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = pentanomial_llr(pentanomial, elo0, elo1, model=model)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return Sprt(llr, lower, upper, verdict, float(elo0), float(elo1), model)


def pentanomial_llr(
    pentanomial: Pentanomial, elo0: float, elo1: float, *, model: str = "normalized"
) -> float:
    """The generalized log-likelihood ratio of H1 ``elo1`` against H0 ``elo0``."""
    counts = [count or EMPTY_OUTCOME for count in pentanomial.counts]
    total = sum(counts)
    observed = [count / total for count in counts]
    if model == "logistic":
        fit0 = _fit_mean(observed, elo_to_score(elo0))
        fit1 = _fit_mean(observed, elo_to_score(elo1))
    else:
        # A pair's sigma is sqrt(2) times smaller than a game's, its t sqrt(2) larger.
        fit0 = _fit_normalized(observed, math.sqrt(2) * elo0 / NELO_SCALE)
        fit1 = _fit_normalized(observed, math.sqrt(2) * elo1 / NELO_SCALE)
    return total * sum(
        p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(observed, fit0, fit1, strict=True)
    )


def _root(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of ``f``, decreasing on the open interval (low, high), by bisection."""
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _tilted(observed: Sequence[float], phi: Sequence[float]) -> list[float]:
    """The distribution ``p_i = p^_i / (1 + theta phi_i)`` closest to ``observed`` with
    ``sum p_i phi_i = 0``: theta solves ``sum p^_i phi_i / (1 + theta phi_i) = 0``
    (decreasing in theta between ``-1 / max phi`` and ``-1 / min phi``)."""
    if min(phi) >= 0 or max(phi) <= 0:  # the constraint cannot be met: pull to the edge
        raise RatingError("the SPRT's hypothesis lies outside the possible scores")

    def slope(theta: float) -> float:
        return sum(p * f / (1 + theta * f) for p, f in zip(observed, phi, strict=True))

    theta = _root(slope, -1 / max(phi), -1 / min(phi))
    return [p / (1 + theta * f) for p, f in zip(observed, phi, strict=True)]


def _fit_mean(observed: Sequence[float], score: float) -> list[float]:
    """The most likely distribution over :data:`PAIR_SCORES` with mean ``score``."""
    return _tilted(observed, [a - score for a in PAIR_SCORES])


def _fit_normalized(observed: Sequence[float], t: float) -> list[float]:
    """The most likely distribution over :data:`PAIR_SCORES` with ``(mu - 1/2) / sigma
    = t``, by the fixed-point iteration of the paper's section 4.1 (from the uniform)."""
    fitted = [1 / len(PAIR_SCORES)] * len(PAIR_SCORES)
    for _ in range(1000):
        mean, variance = _mean_and_variance(PAIR_SCORES, fitted)
        sigma = math.sqrt(variance)
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mean) / sigma) ** 2) for a in PAIR_SCORES]
        new = _tilted(observed, phi)
        change = max(abs(x - y) for x, y in zip(new, fitted, strict=True))
        fitted = new
        if change < 1e-10:
            break
    return fitted
