"""The transposition table: what the search already knows about a state.

An entry is a tuple ``(depth, bound, value, move)``:

* ``depth``: the remaining depth the value was searched to, tagged with the
  iteration (see :class:`~plies.engine._context.SearchContext`),
* ``bound``: :data:`EXACT` (``value`` is the value), :data:`LOWER` (the value is at
  least ``value``: the search failed high) or :data:`UPPER` (at most ``value``),
* ``value``: the score relative to the node (win distances counted from it),
* ``move``: the best move found, or the one that caused the cut-off (None if none).

Invariant: for an entry with bound LOWER, value <= true value; UPPER, value >= true
value; EXACT, value == true value (true value = the search's value at that depth).

The table is a dict (the fastest look-up CPython has) with a bounded size. When it
is full, :meth:`TranspositionTable.make_room` keeps the deepest half of the entries,
the most expensive to recompute, preferring newer ones among equals, and drops the
rest: a depth-preferred replacement with ageing, paid for in one sweep every
``capacity / 2`` stores instead of on every store.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from plies.errors import SearchError

__all__ = ["EXACT", "LOWER", "UPPER", "Entry", "TranspositionTable"]

EXACT = 0
LOWER = 1
UPPER = 2

Entry = tuple[float, int, float, Any]


class TranspositionTable:
    """A bounded map from state keys to :data:`Entry` tuples.

    ``capacity`` is the most entries kept (default about a million, roughly 150 MB
    at worst on CPython). The search reads :attr:`entries` directly and calls
    :meth:`make_room` when ``len(entries)`` exceeds :attr:`capacity`.
    """

    def __init__(self, capacity: int = 1 << 20) -> None:
        if capacity < 16:
            raise ValueError(f"transposition table capacity must be at least 16, got {capacity}")
        self.capacity = capacity
        #: Key -> :data:`Entry` (an int for the exact solver, see ``engine._exact``).
        self.entries: dict[Hashable, Any] = {}
        #: How many sweeps dropped entries so far.
        self.sweeps = 0
        #: Which kind of search filled the table ("search" or "solve"), None if none.
        self.owner: str | None = None

    def claim(self, owner: str) -> None:
        """Mark the table as used by ``owner``; refuse a table another kind filled.

        :func:`~plies.engine.search` and :func:`~plies.engine.solve` store different
        entries (tuples, and the exact solver's ints), so one table serves one kind.
        """
        if self.owner is not None and self.owner != owner:
            raise SearchError(
                f"this transposition table holds {self.owner}() entries: "
                f"give {owner}() a table of its own"
            )
        self.owner = owner

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: Hashable) -> Any:
        """The entry for ``key``, or None."""
        return self.entries.get(key)

    def clear(self) -> None:
        """Forget everything."""
        self.entries.clear()

    def make_room(self) -> None:
        """Keep the deepest ``capacity // 2`` entries (newest first among equal depth)."""
        items = list(self.entries.items())
        # Stable sort on depth keeps insertion order (newest last) among equals.
        items.sort(key=lambda item: item[1][0])
        self._keep_last_half(items)

    def drop_oldest(self) -> None:
        """Keep the newest ``capacity // 2`` entries (the exact solver's policy: its
        entries carry no depth, and the newest are those of the current search)."""
        self._keep_last_half(list(self.entries.items()))

    def _keep_last_half(self, items: list[tuple[Hashable, Any]]) -> None:
        """Refill the table with the last ``capacity // 2`` of ``items`` (the same dict:
        the search holds a reference to it)."""
        self.entries.clear()
        self.entries.update(items[len(items) - self.capacity // 2 :])
        self.sweeps += 1
