"""The search hooks extension, null_move and is_quiet: what the engine does with them.

A game that leaves them alone is searched as before (every other engine test); here a
tic-tac-toe that extends everywhere checks the extension arithmetic against plain
searches, and chess checks that each hook changes the search in the way it should.
"""

from __future__ import annotations

import pytest

from plies.engine import Limits, _negamax, search
from plies.game import BaseGame
from plies.games.mnk import MNKGame, MNKState


class AlwaysExtend(MNKGame):
    """Tic-tac-toe that asks for one more ply everywhere."""

    def extension(self, state: MNKState) -> int:
        return 1


@pytest.mark.parametrize("position", ["", "5", "1 5", "1 5 9", "5 1 9 3"])
def test_extensions_stop_at_twice_the_iteration_depth(position: str) -> None:
    # Extended at every ply below 2d, a depth-d search sees every line to ply 3d: the
    # value of a plain search to depth 3d.
    game, plain = AlwaysExtend(), MNKGame()
    state = game.parse_position(position)
    for depth in (1, 2):
        extended = search(game, state, limits=Limits(depth=depth))
        deep = search(plain, state, limits=Limits(depth=3 * depth))
        assert extended.value == deep.value
        assert extended.depth == depth


chess = pytest.importorskip("chess")

from plies.games.chess import Chess  # noqa: E402

GAME = Chess(null_move=1, reductions=1)


def without(*hooks: str) -> Chess:
    """Chess (pruning on) with the named hooks back at their BaseGame defaults."""
    plain = type("Plain", (Chess,), {hook: getattr(BaseGame, hook) for hook in hooks})
    return plain(null_move=1, reductions=1)


# WAC.012 and WAC.084: mates that start with a check, found by a 2-ply search only
# when checks are extended.
@pytest.mark.parametrize(
    ("fen", "move", "plies"),
    [
        ("4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1", "Qxf3+", 3),
        ("r2q1r1k/2p1b1pp/p1n5/1p1Q1bN1/4n3/1BP1B3/PP3PPP/R4RK1 w - - 0 1", "Qg8+", 3),
    ],
)
def test_check_extension_finds_mates_beyond_the_depth(fen: str, move: str, plies: int) -> None:
    state = GAME.parse_position(fen)
    found = search(GAME, state, limits=Limits(depth=2))
    assert GAME.format_move(state, found.best_move) == move
    assert (found.outcome, found.distance) == ("win", plies)
    plain = without("extension")
    assert search(plain, plain.parse_position(fen), limits=Limits(depth=2)).outcome is None


# A quiet middlegame (an Italian game). Null moves save a sixth of the nodes at 6
# plies with reverse futility off (26,589 nodes with them, 31,870 without; with it on
# they overlap: 15,197 and 15,818, and at 8 plies 53,233 and 96,227); is_quiet (the
# late-move reductions, the order of noisy moves and the pruning of quiet ones) saves
# two thirds at 4 (4,298 with it, 12,266 without), its value within 30 centipawns
# (-28 and 0; at 5 plies 9,636 and 87,274 nodes, 0 and 13; measured, Python engine).
MIDDLEGAME = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 1"


def test_null_moves_save_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_negamax, "RFP_DEPTH", 0)
    plain = without("null_move")
    with_hook = search(
        GAME, GAME.parse_position(MIDDLEGAME), limits=Limits(depth=6), backend="python"
    )
    without_hook = search(
        plain, plain.parse_position(MIDDLEGAME), limits=Limits(depth=6), backend="python"
    )
    assert with_hook.stats.nodes < 0.9 * without_hook.stats.nodes
    assert with_hook.best_move == without_hook.best_move
    assert with_hook.value == without_hook.value


def test_quiet_moves_save_nodes() -> None:
    plain = without("is_quiet")
    with_hook = search(GAME, GAME.parse_position(MIDDLEGAME), limits=Limits(depth=4))
    without_hook = search(plain, plain.parse_position(MIDDLEGAME), limits=Limits(depth=4))
    assert with_hook.stats.nodes < 0.5 * without_hook.stats.nodes
    assert abs(with_hook.value - without_hook.value) <= 30


def test_pruning_keeps_mates() -> None:
    fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"  # mate in 2
    for game in (GAME, without("null_move", "is_quiet")):
        result = search(game, game.parse_position(fen), limits=Limits(depth=4))
        assert (result.outcome, result.distance) == ("win", 3)


def test_no_null_move_in_check_after_a_pass_or_with_pawns_only() -> None:
    state = GAME.parse_position("e4 e5 Nf3")
    passed = GAME.null_move(state)
    assert passed is not None
    assert GAME.to_move(passed) == GAME.to_move(state) ^ 1
    assert passed.board.board_fen() == state.board.board_fen()
    assert GAME.null_move(passed) is None  # no two passes in a row
    checked = GAME.parse_position("e4 f5 Qh5+")
    assert GAME.null_move(checked) is None
    pawns = GAME.play(
        GAME.parse_position("4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 1"),
        GAME.parse_move(GAME.parse_position("4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 1"), "Ra2"),
    )
    assert GAME.null_move(pawns) is None  # black has king and pawns only: zugzwang


def test_quiet_moves() -> None:
    state = GAME.parse_position("4k3/1P6/8/3q4/8/8/3R4/4K3 w - - 0 1")
    quiet = {GAME.format_move(state, m) for m in GAME.legal_moves(state) if GAME.is_quiet(state, m)}
    assert "Rxd5" not in quiet  # a capture
    assert "b8=Q+" not in quiet  # a promotion
    assert "Re2+" not in quiet  # a check
    assert "Kf1" in quiet
    checked = GAME.parse_position("e4 f5 Qh5+")
    assert not any(GAME.is_quiet(checked, m) for m in GAME.legal_moves(checked))


def test_null_moves_and_reductions_on_by_default() -> None:
    game = Chess()
    state = game.parse_position("e4 e5 Nf3")
    assert game.null_move(state) is not None
    assert Chess(null_move=0).null_move(state) is None
    assert any(game.is_quiet(state, m) for m in game.legal_moves(state))
    off = Chess(reductions=0)
    assert not any(off.is_quiet(state, m) for m in off.legal_moves(state))
    with pytest.raises(ValueError, match="null_move is 0"):
        Chess(null_move=2)


TREE = {"R": {"a": "A"}, "A": {"x": "X"}, "X": {"e": "E"}, "E": {}}
NOISY = {"A": ["x"], "X": ["e"]}
MOVER = {"R": 0, "A": 1, "X": 0, "E": 1}
VALUE = {"R": 0.0, "A": 0.0, "X": 100.0, "E": -500.0}  # for player 0


class CheckBelowTheHorizon(BaseGame[str, str]):
    """A line into check below the horizon. From the root, player 0's one move
    reaches ``A``, quiet, where player 1 has one noisy move into ``X``: player 0 in
    check (``extension`` 1), evaluated +100 for player 0, whose one evasion reaches
    ``E``, evaluated +500 for player 1."""

    name = "check-below-the-horizon"

    def initial_state(self) -> str:
        return "R"

    def to_move(self, state: str) -> int:
        return MOVER[state]

    def legal_moves(self, state: str) -> list[str]:
        return list(TREE[state])

    def play(self, state: str, move: str) -> str:
        return TREE[state][move]

    def is_terminal(self, state: str) -> bool:
        return False

    def utility(self, state: str, player: int) -> float:
        return 0.0

    def evaluate(self, state: str, player: int) -> float:
        return VALUE[state] if player == 0 else -VALUE[state]

    def quiescence_moves(self, state: str) -> list[str]:
        return NOISY.get(state, [])

    def extension(self, state: str) -> int:
        return 1 if state == "X" else 0


def test_a_side_in_check_below_the_horizon_does_not_stand_pat() -> None:
    # At depth 1, A is searched by quiescence. Standing pat in X (+100) would make x
    # worse for player 1 than A's own 0, and the root worth 0; X's only evasion makes
    # it -500 for player 0, so x is worth +500 to player 1 and the root -500.
    game = CheckBelowTheHorizon()
    found = search(game, "R", limits=Limits(depth=1), backend="python")
    assert found.value == -500.0
