"""Engine scores: utilities scaled by :data:`~plies.game.WIN` and shifted by distance.

A terminal state with utility ``u`` for the side to move, reached ``ply`` plies from
the root, scores ``u * WIN - ply`` when ``u > 0`` (a win: sooner is higher) and
``u * WIN + ply`` when ``u < 0`` (a loss: later is higher). Heuristic evaluations stay
below :data:`WIN_THRESHOLD` in magnitude, so any score beyond it is a proven result.

Scores in the transposition table are stored relative to the node (a win's distance
counted from it) and turned back into root-relative scores where they are read, so a win
found through one path keeps the right distance when reached through another. In
games with chance nodes an expected value mixes wins and losses, and no shift can be
right for all of them: there the distance term is left out (``ply_weight`` 0), values
are plain expectations and the table needs no shift.
"""

from __future__ import annotations

from plies._arguments import need_number
from plies.errors import SearchError
from plies.game import WIN

__all__ = [
    "WIN",
    "WIN_THRESHOLD",
    "describe_score",
    "score_distance",
    "score_outcome",
    "terminal_score",
]

#: Scores at least this large in magnitude are proven wins or losses.
WIN_THRESHOLD = WIN / 1000.0


def terminal_score(outcome: float, ply: int, ply_weight: int = 1) -> float:
    """The score of a terminal state with utility ``outcome`` for the side to move,
    ``ply`` plies from the root: sooner wins and later losses score higher.
    ``ply_weight`` is 0 in games with chance (no distance term, see above).

    The node functions inline this rule where it runs once per node (a call there
    costs a few per cent of the speed); everywhere else calls it.
    """
    if outcome > 0:
        return outcome * WIN - ply * ply_weight
    if outcome < 0:
        return outcome * WIN + ply * ply_weight
    return 0.0


def score_outcome(score: float) -> str | None:
    """``"win"`` or ``"loss"`` for a proven score, None for a heuristic one."""
    need_number(score, "score", error=SearchError)
    if score >= WIN_THRESHOLD:
        return "win"
    if score <= -WIN_THRESHOLD:
        return "loss"
    return None


def score_distance(score: float) -> int | None:
    """Plies from the root to the end of the game for a proven win/loss score, else None.

    Exact when utilities are multiples of 0.001 and the distance is below one million.
    """
    need_number(score, "score", error=SearchError)
    magnitude = abs(score)
    if magnitude < WIN_THRESHOLD:
        return None
    # |score| = |u| * WIN - distance with |u| a multiple of 1/1000: round |u| up.
    utility_steps = -(-magnitude // WIN_THRESHOLD)
    return round(utility_steps * WIN_THRESHOLD - magnitude)


def describe_score(score: float) -> str:
    """Short text for a score: ``win in 5``, ``loss in 4`` or the number itself."""
    need_number(score, "score", error=SearchError)
    outcome = score_outcome(score)
    if outcome is not None:
        return f"{outcome} in {score_distance(score)}"
    if score == int(score):
        return str(int(score))
    return f"{score:.4g}"
