"""Search limits: how deep, how many nodes, how long."""

from __future__ import annotations

import math
from dataclasses import dataclass

from plies.errors import SearchError

__all__ = ["MAX_PLY", "Limits"]

#: The longest line (in plies) a search follows before giving up with SearchError.
MAX_PLY = 100_000


@dataclass(frozen=True)
class Limits:
    """When to stop searching; None means "no limit of this kind".

    ``depth`` is the deepest iteration in plies, ``nodes`` the most nodes to visit,
    ``time`` the most seconds to spend (a deadline read every few hundred nodes, or
    more often when nodes are slow, so it is honoured within a few milliseconds as
    long as a single node takes less; see :data:`~plies.engine.CHECK_GAP`). Reaching
    a limit is not an error: the search returns the last completed iteration and says
    it was cut short. With no limit at all, iterative deepening runs until the value
    is exact (every line searched to its end), which only suits small games.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        for label, value in (("depth", self.depth), ("nodes", self.nodes)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise SearchError(f"{label} limit must be a positive integer, got {value!r}")
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, int | float)
            or not math.isfinite(self.time)
            or self.time <= 0
        ):
            raise SearchError(f"time limit must be a positive number of seconds, got {self.time!r}")
