"""The kernel's null move, extension and late-move-reduction steps follow the Python
engine's node for node: an m,n,k game given all three hooks, in Python and as native
rules, searched on both backends (values, moves, lines and every counter equal)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.test_native_games import random_position, searches_agree
from plies.engine import Limits, choose_backend, search
from plies.games.mnk import MNKGame, MNKState

pytest.importorskip("numba")

# After the skip: the port needs Numba.
from plies.engine.native import rule
from plies.games.mnk._native import MNKNative


def _may_pass(ply: int, won: bool, size: int) -> bool:
    """The toy's rule for a pass: an even number of plies, no win, a cell to spare."""
    return ply % 2 == 0 and not won and ply < size - 1


class HookedMNK(MNKGame):
    """m,n,k with made-up hooks the search must call at the same nodes on both
    backends: a pass on even plies, an extension every third ply, even cells quiet."""

    def null_move(self, state: MNKState) -> MNKState | None:
        """The turn passed (a ply without a mark) where :func:`_may_pass` allows it."""
        if not _may_pass(state.ply, state.won, self.size):
            return None
        return MNKState(state.x, state.o, state.ply + 1, False)

    def extension(self, state: MNKState) -> int:
        """One ply more on every third ply."""
        return 1 if state.ply % 3 == 1 else 0

    def is_quiet(self, state: MNKState, move: int) -> bool:
        """Even cells may be reduced."""
        return move % 2 == 0

    def native(self) -> HookedNative:
        """The port with the three hooks as rules."""
        return HookedNative(self)


@rule("null_move")
def _null_move(consts: Any, state: Any, child: Any) -> int:
    if state[2] % 2 != 0 or state[3] != 0 or state[2] >= consts[0] - 1:
        return 0
    child[0], child[1], child[2], child[3] = state[0], state[1], state[2] + 1, 0
    return 1


@rule("extension")
def _extension(consts: Any, state: Any) -> int:
    return 1 if state[2] % 3 == 1 else 0


@rule("is_quiet")
def _is_quiet(consts: Any, state: Any, move: int) -> int:
    return 1 if move % 2 == 0 else 0


class HookedNative(MNKNative):
    """:class:`MNKNative` with the toy's three hooks."""

    null_move = _null_move
    extension = _extension
    is_quiet = _is_quiet


BOARDS = [(4, 4, 3), (5, 4, 4), (4, 4, 4)]


def test_the_port_is_chosen_and_has_the_hooks() -> None:
    game = HookedMNK(4, 4, 3)
    assert game.native().pruning_hooks() == (True, True, True)
    assert choose_backend(game, None, task="search", state=game.initial_state()) == "native"


@settings(max_examples=30, deadline=None)
@given(
    board=st.sampled_from(BOARDS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 6),
    depth=st.integers(1, 6),
    algorithm=st.sampled_from(["pvs", "negamax"]),
    use_table=st.booleans(),
)
def test_hooked_search_agrees_node_for_node(  # noqa: PLR0917  # hypothesis passes them
    board: tuple[int, int, int],
    seed: int,
    plies: int,
    depth: int,
    algorithm: str,
    use_table: bool,
) -> None:
    game = HookedMNK(*board)
    state = random_position(game, seed, plies)
    searches_agree(game, state, limits=Limits(depth=depth), algorithm=algorithm,
                   use_table=use_table)  # fmt: skip


def test_the_hooks_change_the_search() -> None:
    """The same position with and without the hooks: other node counts (the steps run)."""
    state = MNKGame(4, 4, 4).initial_state()
    hooked, _ = searches_agree(HookedMNK(4, 4, 4), state, limits=Limits(depth=5), algorithm="pvs")
    plain, _ = searches_agree(MNKGame(4, 4, 4), state, limits=Limits(depth=5), algorithm="pvs")
    assert hooked.stats.nodes != plain.stats.nodes


class ShortRows(MNKNative):
    """A port that sizes its buffers for two plies whatever the search asks."""

    def prepare(self, state: MNKState) -> Any:
        prepared = super().prepare(state)
        prepared.max_plies = 2
        return prepared


class ShortMNK(MNKGame):
    def native(self) -> ShortRows:
        return ShortRows(self)


def test_a_line_past_the_buffers_stops_at_the_evaluation() -> None:
    """The kernel never writes past its rows: a node with no row for a child scores
    the static evaluation (a port that under-sizes its buffers gets a shallower
    search, not a corrupted one)."""
    game = ShortMNK(4, 4, 3)
    state = game.initial_state()
    found = search(game, state, limits=Limits(depth=6), backend="native")
    assert found.best_move in game.legal_moves(state)
    full = search(game, state, limits=Limits(depth=6), backend="python")
    assert found.stats.nodes < full.stats.nodes


def test_the_kernel_reduces_late_moves_as_the_engine_does() -> None:
    from plies.engine._negamax import LATE_REDUCTIONS
    from plies.engine.native._kernel import LMR_TABLE

    assert LMR_TABLE.tolist() == [list(row) for row in LATE_REDUCTIONS]
    assert LATE_REDUCTIONS[3][3] == 1 and LATE_REDUCTIONS[8][20] == 3  # deeper, later: more
