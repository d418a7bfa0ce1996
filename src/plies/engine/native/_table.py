"""The native transposition table: two fixed arrays, as in Pons' solver.

``keys`` holds (part of) each position's key and ``values`` one int8 (0: empty; see
Connect Four's Pons solver for the bound encoding and where an entry goes). The home
slot of a key is the key modulo the table's size, a prime. A key word keeps the key's
low bits and :data:`KEY_SPARE_BITS` bits of the solver's own; words are uint32 when
``size * 2**26`` exceeds every key of the board (then the low 26 bits and the home
slot identify a key, by the Chinese remainder theorem: 7 x 6 keys have 49 bits, the
default table 23), else uint64 (a table too small even for 58 bits is refused). NumPy
is imported only when a table is first used.
"""

from __future__ import annotations

import functools
from typing import Any

from plies._arguments import check_memory, need_bool, need_int
from plies.errors import LimitError

__all__ = ["DEFAULT_ENTRIES", "KEY_SPARE_BITS", "SEARCH_ENTRIES", "NativeTable", "next_prime"]

#: Indices into ``control`` (see Connect Four's ``_pons``): the kernel's counters, then the journal
#: of written slots, whose capacity is the slots clear() can empty one by one.
NODES, NODE_LIMIT, STOP, JOURNAL_LENGTH, JOURNAL = 0, 1, 2, 3, 4
#: Bits of a key word that hold no key bits: Connect Four's solver keeps there where an
#: entry sits in its pair of slots (1 bit) and the cost of its search (5 bits).
KEY_SPARE_BITS = 6
_JOURNAL_CAPACITY = 1 << 16

#: Pons' table size: the first prime from 2**23 (8,388,617 entries, 40 MB as uint32
#: keys and int8 values).
DEFAULT_ENTRIES = 1 << 23
#: Entries of the table of the search and solver over other native games (the
#: protocol's kernel) when given none: a prime near 2**20, 33 bytes each, 35 MB.
SEARCH_ENTRIES = 1 << 20
#: Bytes an entry takes: the least (Pons' uint32 keys and int8 values) and in the
#: search's arrays (a uint64 key, an int64 tag, a float64 value, an int64 move, an
#: int8 bound).
LEAST_ENTRY_BYTES = 5
SEARCH_ENTRY_BYTES = 33


@functools.cache
def next_prime(n: int) -> int:
    """The least prime at least ``n`` (``n >= 2``), by trial division."""
    candidate = max(n, 2)
    while any(candidate % d == 0 for d in range(2, int(candidate**0.5) + 1)):
        candidate += 1
    return candidate


class NativeTable:
    """A fixed-size table for the native solver: ``entries`` rounded up to a prime
    (at least 3, so that it is odd). Reuse one between solves of one game; it is not
    for two solves at the same time. :attr:`nbytes` is the memory it takes once used.
    A ``deep`` table serves a search any entry searched at least as deep as it needs,
    from earlier iterations and searches too (as
    :class:`~plies.engine._table.TranspositionTable` says).
    """

    def __init__(self, entries: int = DEFAULT_ENTRIES, *, deep: bool = False) -> None:
        need_int(entries, "a native table's entries", minimum=3, error=LimitError)
        # Before the prime is looked for (trial division up to its square root: 46 s
        # of CPU for 10**18 entries) and before anything is allocated.
        _check_fits(entries * LEAST_ENTRY_BYTES, entries)
        self.size = next_prime(entries)
        #: Whether a search cuts on entries of earlier iterations and searches.
        self.deep = need_bool(deep, "deep")
        #: What the keys of the search's entries mean (the port and the root's
        #: constants that wrote them, see ``_generic``), None before a search.
        self.key_space: Any = None
        self.keys: Any = None
        self.values: Any = None
        self.control: Any = None
        #: The key bits the arrays were last made or shared for (None: not yet).
        self._made_for: int | None = None
        #: The arrays of the search over native games, made on first use.
        self.search: tuple[Any, Any, Any, Any, Any] | None = None
        self.busy = False

    @property
    def key_bits(self) -> int:
        """The bits of a key kept per entry: 32 or 64 (0 before the first use)."""
        return 0 if self.keys is None else 8 * int(self.keys.itemsize)

    @property
    def nbytes(self) -> int:
        """Bytes the arrays take (for 32-bit keys until first used: 5 per entry)."""
        extra = 0 if self.search is None else SEARCH_ENTRY_BYTES * int(self.search[4].size)
        if self.keys is None:
            return extra or 5 * self.size
        return int(self.keys.nbytes + self.values.nbytes) + extra

    def arrays(self, key_bits: int) -> tuple[Any, Any, Any]:
        """``(keys, values, control)`` for keys of ``key_bits`` bits, made (or
        widened) as needed; ``control`` holds the kernel's counters and the journal of
        written slots (see Connect Four's Pons solver)."""
        if key_bits == self._made_for:  # every solve of a board asks again
            return self.keys, self.values, self.control
        import numpy as np

        dtype = self._key_dtype(key_bits)
        if self.keys is None or self.keys.dtype != dtype:
            _check_fits(self.size * (np.dtype(dtype).itemsize + 1), self.size)
            self.keys = np.zeros(self.size, dtype)
            self.values = np.zeros(self.size, np.int8)
            self.control = np.zeros(JOURNAL + _JOURNAL_CAPACITY, np.int64)
        self._made_for = key_bits
        return self.keys, self.values, self.control

    def shared_bytes(self, key_bits: int) -> int:
        """The bytes of a buffer that :meth:`share` can hold the keys and values in."""
        import numpy as np

        return self.size * (int(np.dtype(self._key_dtype(key_bits)).itemsize) + 1)

    def share(self, buffer: Any, key_bits: int) -> None:
        """Keep the keys and values for keys of ``key_bits`` bits in ``buffer``, a
        writable buffer of :meth:`shared_bytes` zero bytes (or of an earlier table of
        the same size and game), such as a memory map other processes map too: their
        solves then share what they learn. Each entry's key is sealed with its value
        (``seal`` in Connect Four's Pons solver), so an entry two processes wrote at
        once is never read as one. The counters and the journal stay this table's own;
        do not :meth:`clear` or :meth:`touch` a table others use."""
        import numpy as np

        dtype = np.dtype(self._key_dtype(key_bits))
        self.keys = np.frombuffer(buffer, dtype, self.size)
        self.values = np.frombuffer(buffer, np.int8, self.size, self.size * dtype.itemsize)
        self.control = np.zeros(JOURNAL + _JOURNAL_CAPACITY, np.int64)
        self._made_for = key_bits

    def _key_dtype(self, key_bits: int) -> Any:
        import numpy as np

        if self.size * 2 ** (32 - KEY_SPARE_BITS) >= 2**key_bits:
            return np.uint32
        if self.size * 2 ** (64 - KEY_SPARE_BITS) < 2**key_bits:
            raise LimitError(
                f"a native table of {self.size} entries is too small for keys of {key_bits}"
                f" bits: give at least {2 ** (key_bits - 64 + KEY_SPARE_BITS)} entries"
            )
        return np.uint64

    def search_arrays(self) -> tuple[Any, Any, Any, Any, Any]:
        """``(keys, tags, values, moves, bounds)`` of the search over native games
        (see :mod:`plies.engine.native._kernel`): 33 bytes an entry, in buckets of
        eight slots, made on first use. ``bounds`` has an item per slot; the other four
        are views of one block of 32 bytes a slot, each starting at its field's place
        in a bucket's 256 bytes (eight keys, then eight tags, values and moves), so
        the kernel finds a slot's fields at one index (``_kernel.entry``)."""
        import numpy as np

        if self.search is None:
            slots = -(-self.size // 8) * 8  # whole buckets of eight slots
            _check_fits(slots * SEARCH_ENTRY_BYTES, self.size)
            block = np.zeros(slots * 4, np.int64)  # zeros: pages mapped when first written
            fields = [block[8 * field :] for field in range(4)]
            self.search = (
                fields[0].view(np.uint64),
                fields[1],
                fields[2].view(np.float64),
                fields[3],
                np.zeros(slots, np.int8),
            )
        return self.search

    def clear(self) -> None:
        """Forget everything: empty the slots the journal lists, or every slot when
        more were written than it holds. (An empty value marks an empty slot.) Fresh
        arrays each time cost ~0.3 ms per easy position in page faults, a full fill
        of the 8 MB of values ~0.5 ms; this, a few microseconds."""
        if self.search is not None:
            self.search[4].fill(0)
        if self.keys is None:
            return
        control = self.control
        length = int(control[JOURNAL_LENGTH])
        if length > _JOURNAL_CAPACITY:
            self.values.fill(0)
        elif length:
            self.values[control[JOURNAL : JOURNAL + length]] = 0
        control[JOURNAL_LENGTH] = 0

    def touch(self) -> None:
        """Clear the arrays made so far by writing every byte, as Pons' reset does
        (a memset of his whole table), so that the memory is mapped now. Made arrays
        are mapped a page at a time by the searches that reach them: the first few
        hundred easy positions of a batch (Test_L3_R1) took 2-3x as long, paying page
        faults. Costs ~15 ms for the default 40 MB; for batches, once."""
        search = () if self.search is None else (self.search[0].base, self.search[4])
        for array in (self.keys, self.values, *search):
            if array is not None:
                array.fill(0)
        if self.control is not None:
            self.control[JOURNAL_LENGTH] = 0

    def __repr__(self) -> str:
        return f"NativeTable(size={self.size}, nbytes={self.nbytes})"


def _check_fits(nbytes: int, entries: int) -> None:
    """Raise :class:`LimitError` when a table of ``entries`` entries taking ``nbytes``
    bytes would not fit in the machine's memory."""
    check_memory(
        nbytes,
        f"a native table of {entries:,} entries",
        advice="give fewer entries (the command line's --table-size)",
    )
