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
is full, :meth:`TranspositionTable.make_room` keeps about the deepest half of the
entries, the most expensive to recompute (newer iterations count as deeper), and
drops the rest: a depth-preferred replacement with ageing, paid for in one sweep
every ``capacity / 2`` stores or so instead of on every store.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import islice
from typing import Any

from plies._arguments import check_memory, need_bool, need_int
from plies.errors import LimitError, SearchError

__all__ = ["EXACT", "LOWER", "UPPER", "Entry", "TranspositionTable"]

EXACT = 0
LOWER = 1
UPPER = 2

Entry = tuple[float, int, float, Any]

#: Bytes a full table takes per entry on CPython, at least (a dict slot, its key and
#: its entry): a table that cannot fit in memory even so is refused when made.
LEAST_ENTRY_BYTES = 100


class TranspositionTable:
    """A bounded map from state keys to :data:`Entry` tuples.

    ``capacity`` is the most entries kept (default about a million, roughly 150 MB
    at worst on CPython). The search reads :attr:`entries` directly and calls
    :meth:`make_room` when ``len(entries)`` exceeds :attr:`capacity`.

    A ``deep`` table serves a later search any entry searched at least as deep as it
    needs, from an earlier iteration or an earlier search (as game engines keep their
    table from move to move); otherwise only the entries of the iteration under way
    end a node, and the others give their moves first (the textbook search, each
    depth's value its own).
    """

    def __init__(self, capacity: int = 1 << 20, *, deep: bool = False) -> None:
        need_int(capacity, "transposition table capacity", minimum=16, error=LimitError)
        check_memory(
            capacity * LEAST_ENTRY_BYTES,
            f"a full transposition table of {capacity:,} entries",
            advice="give a smaller capacity (the command line's --table-size)",
        )
        self.capacity = capacity
        #: Whether a search cuts on entries of earlier iterations and searches.
        self.deep = need_bool(deep, "deep")
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
        """Drop about the shallowest half of the entries (older iterations first:
        their tags are smaller), so that at most ``capacity // 2`` remain or little more.

        The depth that splits the table is read off a sample of about a thousand
        entries, then one pass deletes what lies below it, in place. (Sorting every
        entry took 0.87 s on a full table of 2**20, a pause no time limit or Ctrl-C
        could interrupt; this takes about 0.15 s.) When one depth holds most entries,
        the oldest are dropped instead.
        """
        entries = self.entries
        excess = len(entries) - self.capacity // 2
        if excess <= 0:
            return
        step = max(1, len(entries) // 1024)
        sample = sorted(entry[0] for entry in islice(entries.values(), 0, None, step))
        threshold = sample[min(len(sample) - 1, excess * len(sample) // len(entries))]
        doomed = [key for key, entry in entries.items() if entry[0] < threshold]
        if len(doomed) < excess // 2:
            doomed = list(islice(entries, excess))
        for key in doomed:
            del entries[key]
        self.sweeps += 1

    def drop_oldest(self) -> None:
        """Keep the newest ``capacity // 2`` entries (the exact solver's policy: its
        entries carry no depth, and the newest are those of the current search).

        Deleted in place from the front of the dict, which keeps insertion order
        (0.07 s on a full table of 2**20; copying the items and refilling took 0.75 s).
        """
        entries = self.entries
        for key in list(islice(entries, len(entries) - self.capacity // 2)):
            del entries[key]
        self.sweeps += 1
