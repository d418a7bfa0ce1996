"""Search limits: how deep, how many nodes, how long."""

from __future__ import annotations

from dataclasses import dataclass

from plies._arguments import need_int, need_number
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
        for label, value in (("depth", self.depth), ("node", self.nodes)):
            if value is not None:
                need_int(
                    value, f"{label} limit", minimum=1, maximum=_MOST[label], error=SearchError
                )
        if self.time is not None:
            need_number(self.time, "time limit", above=0, error=SearchError)


#: The largest depth and node limits: a line never goes deeper than MAX_PLY, and node
#: counts are kept in 64-bit integers by the native kernels.
_MOST = {"depth": MAX_PLY, "node": (1 << 62) - 1}
