"""What a native search's first call costs: the search table's layout (a slot's fields
in one bucket block, so a store maps one page) and the mapping of a fresh table while
the kernel loads, with the same results as on a reused table."""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine import Limits, search
from plies.engine.native import NativeTable, _generic, _kernel, native_port
from plies.engine.native._table import SEARCH_ENTRY_BYTES
from plies.games import get_game


def field_addresses(table: NativeTable, slot: int) -> list[int]:
    """The addresses of ``slot``'s key, tag, value and move."""
    at = int(_kernel.entry(slot))
    return [int(array.ctypes.data) + 8 * at for array in table.search_arrays()[:4]]


def test_a_slots_fields_sit_in_its_buckets_block() -> None:
    table = NativeTable(1000)
    keys, tags, values, moves, bounds = table.search_arrays()
    slots = bounds.size
    assert slots % _kernel.WAYS == 0 and slots >= table.size
    block = keys.base
    assert all(array.base is block for array in (tags, values, moves))
    start = int(block.ctypes.data)
    bucket_bytes = _kernel.FIELDS * _kernel.WAYS * 8
    seen = set()
    for slot in range(slots):
        addresses = field_addresses(table, slot)
        bucket = slot // _kernel.WAYS
        # key, tag, value and move a bucket's 64 bytes apart, in the slot's own bucket
        assert [a - addresses[0] for a in addresses] == [0, 64, 128, 192]
        assert start + bucket * bucket_bytes <= addresses[0] < start + (bucket + 1) * bucket_bytes
        seen.update(addresses)
    assert len(seen) == 4 * slots  # no two fields share a word
    assert max(seen) + 8 == start + block.nbytes
    assert table.nbytes == SEARCH_ENTRY_BYTES * slots


def test_a_store_then_a_probe_finds_every_field() -> None:
    table = NativeTable(100)
    keys, tags, values, moves, bounds = table.search_arrays()
    slot = 13
    at = int(_kernel.entry(slot))
    keys[at], tags[at], values[at], moves[at], bounds[slot] = 99, 7, -2.5, 4, _kernel.EXACT
    # the neighbours in the block are other slots' fields, untouched
    assert keys[at - 1] == 0 and keys[at + 1] == 0
    assert (tags[at], values[at], moves[at]) == (7, -2.5, 4)
    table.touch()
    assert not bounds.any() and not keys.base.any()


class Unloaded:
    """A kernel function not loaded yet (no compiled signature)."""

    signatures: tuple[str, ...] = ()


class Loaded:
    """A kernel function loaded already."""

    signatures = ("int64()",)


def work_on(table: NativeTable) -> Any:
    """The buffers of a tic-tac-toe search on ``table``."""
    game = get_game("tictactoe")
    state = game.initial_state()
    port = native_port(game)
    return _generic._Work(
        port, port.prepare(state), plies=9, table=table, limits=Limits(), stop=None,
        progress=None,
    )  # fmt: skip


def test_a_fresh_table_is_mapped_while_the_kernel_loads() -> None:
    table = NativeTable(1000)
    work = work_on(table)
    assert work.fresh_table
    table.search_arrays()[4][5] = 1  # a mark the mapping empties
    mapper = _generic._mapping(work, [(Loaded(), ()), (Unloaded(), ())])
    assert mapper is not None
    mapper.join()
    assert not table.search_arrays()[4].any()


def test_nothing_is_mapped_when_nothing_loads_or_the_table_is_not_fresh() -> None:
    table = NativeTable(1000)
    assert _generic._mapping(work_on(table), [(Loaded(), ())]) is None
    assert not work_on(table).fresh_table  # its arrays exist now
    assert _generic._mapping(work_on(table), [(Unloaded(), ())]) is None


def test_a_fresh_table_gives_the_reused_tables_search() -> None:
    game = get_game("othello")
    state = game.initial_state()
    limits = Limits(depth=5)
    reused = search(game, state, limits=limits, backend="native")
    again = search(game, state, limits=limits, backend="native")
    fresh = search(game, state, limits=limits, backend="native", table=NativeTable())
    for result in (again, fresh):
        assert (result.value, result.best_move, result.pv, result.stats.nodes) == (
            reused.value,
            reused.best_move,
            reused.pv,
            reused.stats.nodes,
        )
    assert np.isfinite(reused.value) and reused.stats.nodes > 100
