"""What a game with ``is_quiet`` (chess) gets from the engine besides late-move
reductions: its noisy moves ordered before the killers and history, killers and
history from quiet moves only, and reverse futility, futility and late-move pruning
near the horizon. The native kernel does the same node for node
(``tests/games/test_chess_native.py``)."""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("chess")

from chess import Move

from plies.engine import (
    Limits,
    TranspositionTable,
    _negamax,
    search,
)
from plies.engine._negamax import make_negamax
from plies.engine.solver import SearchContext
from plies.games.chess import Chess, ChessState

GAME = Chess()
# White: Rxd5 (a capture), b8=Q+ and the other promotions, Re2+ (a check), king moves.
TACTICS = "4k3/1P6/8/3q4/8/8/3R4/4K3 w - - 0 1"
# An Italian game's quiet middlegame (as in test_hooks).
MIDDLEGAME = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 1"


class Recording(Chess):
    """Chess that records the moves played from one state, in the order played."""

    def __init__(self) -> None:
        super().__init__()
        self.watched: ChessState | None = None
        self.played: list[Move] = []

    def play_unchecked(self, state: ChessState, move: Move) -> ChessState:
        if state is self.watched:
            self.played.append(move)
        return super().play_unchecked(state, move)


def context(game: Chess) -> SearchContext:
    return SearchContext(game, limits=Limits(), stop=None, table=TranspositionTable(1 << 14))


def test_noisy_moves_come_before_the_killers_and_the_history() -> None:
    game = Recording()
    root = game.watched = game.parse_position(TACTICS)
    in_order = game.order_moves(root, game.legal_moves(root))
    noisy = []
    for move in in_order:
        if game.is_quiet(root, move):
            break
        noisy.append(move)
    assert game.format_move(root, noisy[0]) == "Rxd5"
    killer = game.parse_move(root, "Kd1")
    favourite = game.parse_move(root, "Kf1")
    ctx = context(game)
    ctx.killers.append([killer, None])
    ctx.history[favourite] = 10**6  # more history than any capture could have
    make_negamax(ctx, pvs=True)(root, 1, -math.inf, math.inf, 0)
    assert game.played[: len(noisy)] == noisy
    assert game.played[len(noisy) : len(noisy) + 2] == [killer, favourite]
    assert sorted(game.played, key=str) == sorted(in_order, key=str)  # each once


class NothingQuiet(Chess):
    """Chess whose every move counts as noisy."""

    def is_quiet(self, state: ChessState, move: Move) -> bool:
        return False


@pytest.mark.parametrize(("game", "learns"), [(Chess(), True), (NothingQuiet(), False)])
def test_killers_and_history_come_from_quiet_moves_only(game: Chess, learns: bool) -> None:
    ctx = context(game)
    node = make_negamax(ctx, pvs=True)
    state = game.parse_position(MIDDLEGAME)
    for depth in (1, 2, 3, 4):
        ctx.root_depth = depth
        node(state, depth, -math.inf, math.inf, 0)
    assert ctx.cutoffs > 100
    remembered = [move for slots in ctx.killers for move in slots if move is not None]
    assert bool(remembered) is learns
    assert bool(ctx.history) is learns


def nodes_and_move(game: Chess, fen: str, depth: int) -> tuple[int, Any]:
    found = search(game, game.parse_position(fen), limits=Limits(depth=depth), backend="python")
    return found.stats.nodes, game.format_move(game.parse_position(fen), found.best_move)


# A rook endgame, white to move (d5 best): the pruning searches 2,272 nodes at 6
# plies, against 5,047 without it (measured, Python engine).
ENDGAME = "2r3k1/pp3ppp/4pn2/8/3P4/2N2P2/PP4PP/3R2K1 w - - 0 1"


def test_futility_pruning_saves_nodes_and_keeps_the_move(monkeypatch: pytest.MonkeyPatch) -> None:
    pruned, move = nodes_and_move(GAME, ENDGAME, 6)
    monkeypatch.setattr(_negamax, "RFP_DEPTH", 0)  # no reverse futility, no futility
    full, full_move = nodes_and_move(GAME, ENDGAME, 6)
    assert pruned < 0.6 * full
    assert move == full_move == "d5"


def test_pruning_keeps_a_mate_behind_quiet_moves() -> None:
    # Mate in 2 by a quiet king move (Kc7, then the rook mates on the a-file).
    fen = "k7/8/2K5/8/8/8/8/1R6 w - - 0 1"
    found = search(GAME, GAME.parse_position(fen), limits=Limits(depth=4), backend="python")
    assert (found.outcome, found.distance) == ("win", 3)
    assert GAME.format_move(GAME.parse_position(fen), found.best_move) == "Kc7"
