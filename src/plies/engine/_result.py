"""What a search returns: named, frozen result objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plies.engine._scores import Score

__all__ = ["SearchResult", "SearchStats", "SolveResult"]


@dataclass(frozen=True)
class SearchStats:
    """Counters of one search (all iterations so far), and the time it took.

    ``nodes`` counts every state the search entered, ``leaves`` those scored without
    looking further (terminal, or evaluated at the horizon), ``cutoffs`` the nodes
    that stopped early because a move was good enough (beta cut-offs), of which
    ``first_move_cutoffs`` did so on the first move tried. ``tt_probes`` and
    ``tt_hits`` count transposition-table look-ups and those that found the state.
    ``ebf`` is the effective branching factor of the last iteration: its node count
    divided by the previous iteration's (``nodes ** (1 / depth)`` for the first).
    ``seldepth`` is the deepest ply from the root a quiescence search reached (0 for
    games without one): the selective depth chess engines report.
    """

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    time: float = 0.0
    ebf: float = 0.0
    seldepth: int = 0

    @property
    def first_move_cutoff_rate(self) -> float:
        """Share of cut-offs made by the first move tried (move-ordering quality)."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0

    @property
    def tt_hit_rate(self) -> float:
        """Share of table look-ups that found the state."""
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.nodes / self.time if self.time > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The counters and derived rates as a plain dict (for JSON)."""
        return {
            "nodes": self.nodes,
            "leaves": self.leaves,
            "cutoffs": self.cutoffs,
            "first_move_cutoff_rate": round(self.first_move_cutoff_rate, 4),
            "tt_probes": self.tt_probes,
            "tt_hits": self.tt_hits,
            "ebf": round(self.ebf, 3),
            "nps": round(self.nps),
            "time": round(self.time, 6),
        }


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search (or of one iteration of it).

    ``value`` is the engine score from the side to move's view (see
    :mod:`plies.engine._scores`: a proven win is near ``WIN``) and ``score`` what it
    means (a :class:`~plies.engine.Score`: a heuristic value, a win or loss in N
    plies, or in a game with chance nodes, ``chance`` True, an expected utility),
    ``best_move`` the
    move to play (None only at a terminal state), ``pv`` the principal variation
    starting with ``best_move``, ``depth`` the depth of the last completed iteration
    and ``completed`` False when a limit or a stop request cut the search short (the
    result is then that of the last completed iteration). ``exact`` is True when every
    line was searched to the end of the game, so ``value`` is the game-theoretic value.
    """

    value: float
    best_move: Any
    pv: tuple[Any, ...]
    depth: int
    completed: bool
    exact: bool
    algorithm: str
    stats: SearchStats
    chance: bool = False

    @property
    def score(self) -> Score:
        """What ``value`` means (:meth:`Score.from_value`; in a game with chance
        nodes a value beyond the threshold is an expected utility, never a win)."""
        return Score.from_value(self.value, chance=self.chance)

    @property
    def outcome(self) -> str | None:
        """``"win"`` or ``"loss"`` when the value is a proven result, else None."""
        return self.score.outcome

    @property
    def distance(self) -> int | None:
        """Plies to the end of the game when the value is a proven win or loss."""
        return self.score.plies

    @property
    def score_text(self) -> str:
        """The score as short text (``str`` of :attr:`score`): ``win in 5``,
        ``loss in 4``, ``expected utility +0.718`` or a number."""
        return str(self.score)


@dataclass(frozen=True)
class SolveResult:
    """The game-theoretic value of a position, for the side to move.

    ``result`` is ``"win"``, ``"draw"`` or ``"loss"`` and ``distance`` the number of
    plies to the end of the game under perfect play: the winner wins as fast as it
    can and the loser holds out as long as it can; for a draw, the length of the
    principal variation found (where many equally drawn lines may exist); None for a
    weak solve, which decides only the result. ``utility`` is the final payoff for
    the side to move, ``value`` the engine score (for a weak solve ``WIN``, 0 or
    ``-WIN`` times the utility's sign), ``best_move`` an optimal move (None at a
    terminal state), ``best_moves`` every optimal move when asked for (else just
    ``best_move``), ``pv`` the line to the end of the game when asked for (else just
    ``best_move``), ``weak`` whether only the result was decided and ``backend`` the
    solver that ran (``"python"`` or ``"native"``). ``score`` is the result as a
    :class:`~plies.engine.Score`.
    """

    result: str
    distance: int | None
    utility: float
    value: float
    best_move: Any
    pv: tuple[Any, ...]
    stats: SearchStats
    best_moves: tuple[Any, ...] = ()
    weak: bool = False
    backend: str = "python"

    @property
    def score(self) -> Score:
        """The result as a :class:`~plies.engine.Score` (a win, loss or draw; a weak
        solve's without a distance)."""
        return Score.solved(self.result, None if self.weak else self.distance, self.value)
