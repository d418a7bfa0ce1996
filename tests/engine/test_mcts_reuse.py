"""MCTS between moves: the tree of the move played (and the reply) is kept and searched
on, its visits carried over, and forced wins are still found and proven."""

from __future__ import annotations

import pytest

from plies.engine import MctsOptions, MctsTree, Score, mcts, solve
from plies.errors import ArgumentTypeError
from plies.games import get_game, parse_game_spec
from plies.lab import (
    SearchOptions,
    _room,
    engine_move,
    load_game,
    play_engine_move,
    play_move,
    room_of,
)

CONNECT4 = get_game("connect4")


def test_the_kept_subtree_of_the_move_and_reply_is_the_next_root() -> None:
    state = CONNECT4.parse_position("4453")
    first = mcts(CONNECT4, state, iterations=3000)
    assert first.tree is not None and first.tree.state == state
    assert first.tree.visits == first.iterations == 3000  # one playout or end an iteration
    move, reply = first.pv[0], first.pv[1]
    after = CONNECT4.play(CONNECT4.play(state, move), reply)
    kept = first.tree.node_of(CONNECT4, after)
    assert kept is not None
    kept_visits, kept_nodes = kept.visits, sum(1 for _ in _walk(kept))
    assert kept_visits > 0
    second = mcts(CONNECT4, after, iterations=500, reuse=first.tree)
    assert second.reused == kept_visits
    assert second.tree is not None and second.tree.visits == kept_visits + 500
    assert second.tree_nodes == kept_nodes + 500  # one node a new iteration
    # every visit went through a root move but the kept node's own, from when it was a leaf
    assert sum(child.visits for child in second.moves) == kept_visits + 500 - 1
    fresh = mcts(CONNECT4, after, iterations=500)
    assert fresh.reused == 0 and fresh.tree_nodes == 501


def _walk(node):  # type: ignore[no-untyped-def]
    yield node
    for child in node.children:
        yield from _walk(child)


def test_a_position_not_in_the_tree_grows_a_new_one() -> None:
    state = CONNECT4.parse_position("4453")
    first = mcts(CONNECT4, state, iterations=200)
    far = CONNECT4.parse_position("44531122")  # four plies on: beyond the kept plies
    found = mcts(CONNECT4, far, iterations=100, reuse=first.tree)
    assert found.reused == 0 and found.tree_nodes == 101
    other = parse_game_spec("connect4:width=6,height=5")
    assert first.tree is not None and first.tree.node_of(other, state) is None
    again = parse_game_spec("connect4")  # another parse of the same game
    assert again is not CONNECT4 and first.tree.node_of(again, state) is not None


def test_a_reused_search_still_finds_and_proves_a_forced_win() -> None:
    tictactoe = get_game("tictactoe")
    state = tictactoe.parse_position("1 2")  # x wins from here (in 5 plies)
    first = mcts(tictactoe, state, iterations=2000, options=MctsOptions(seed=3))
    tree = first.tree
    while not tictactoe.is_terminal(state):
        found = mcts(tictactoe, state, iterations=20_000, reuse=tree, options=MctsOptions(seed=3))
        exact = solve(tictactoe, state)
        if tictactoe.to_move(state) == 0:
            assert found.exact and found.score.kind == "win" == exact.result
            move = found.best_move
        else:
            move = exact.best_move  # the defence
        tree = found.tree
        state = tictactoe.play(state, move)
    assert tictactoe.utility(state, 0) == 1
    assert found.score == Score.win(1) or found.exact


def test_reuse_must_be_a_tree() -> None:
    with pytest.raises(ArgumentTypeError, match="reuse"):
        mcts(CONNECT4, CONNECT4.initial_state(), iterations=10, reuse="tree")  # type: ignore[arg-type]
    assert isinstance(mcts(CONNECT4, CONNECT4.initial_state(), iterations=10).tree, MctsTree)


def test_the_lab_keeps_the_engines_tree_between_its_moves() -> None:
    _room._KEPT_TREES.clear()
    room = room_of(*load_game("connect4", "4453"))
    options = SearchOptions(algorithm="mcts", iterations=600)
    first = engine_move(room, options)
    assert first.search is not None and len(first.search.pv) >= 2
    tree = _room._KEPT_TREES["connect4", room.game.key(room.state)]
    room = play_engine_move(room, first)
    reply = first.search.pv[1]
    room = play_move(room, room.game.format_move(room.state, reply))
    kept = tree.node_of(room.game, room.state)
    assert kept is not None and kept.visits > 1
    kept_visits = kept.visits
    engine_move(room, options)
    again = _room._KEPT_TREES["connect4", room.game.key(room.state)]
    assert again.state == room.state and again.visits == kept_visits + 600
    assert len(_room._KEPT_TREES) == 1  # the tree searched on was taken out


def test_two_games_of_one_kind_keep_their_own_trees() -> None:
    """Two rooms of Connect Four, moves interleaved: each searches on from its own tree
    (a tree kept by the game's name alone was the other room's, and lost)."""
    _room._KEPT_TREES.clear()
    options = SearchOptions(algorithm="mcts", iterations=300)
    rooms = [room_of(*load_game("connect4", start)) for start in ("4453", "1122")]
    firsts = [engine_move(room, options) for room in rooms]
    for i, first in enumerate(firsts):
        assert first.search is not None and len(first.search.pv) >= 2
        rooms[i] = play_engine_move(rooms[i], first)
        reply = first.search.pv[1]
        rooms[i] = play_move(rooms[i], rooms[i].game.format_move(rooms[i].state, reply))
    for room in rooms:
        kept = _room._KEPT_TREES.get(("connect4", room.game.key(room.states[-3])))
        assert kept is not None
        node = kept.node_of(room.game, room.state)
        assert node is not None and node.visits > 1
        visits = node.visits
        engine_move(room, options)
        again = _room._KEPT_TREES["connect4", room.game.key(room.state)]
        assert again.state == room.state and again.visits == visits + 300
