"""The game room's application layer: rooms of every built-in game, their states,
moves, undo, dice and the engine's thinking, against the games themselves."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from plies import lab
from plies.engine import Limits, search
from plies.errors import IllegalMoveError, LimitError, PliesError, UnknownGameError
from plies.games import available_games, get_game
from plies.games.mnk import MNKGame
from plies.lab._games import game_tree
from plies.lab._room import MAX_MOVES, MAX_POSITION_TEXT, lab_depth

GAMES = available_games()


def _random_game(spec: str, seed: int, plies: int = 40) -> lab.Room:
    rng = random.Random(seed)
    room = lab.open_room(spec)
    for _ in range(plies):
        state = lab.room_state(room)
        if state["terminal"]:
            break
        room = (
            lab.roll(room, rng)
            if state["chance"]
            else lab.play_move(room, rng.choice(state["legal"])["text"])
        )
    return room


@pytest.mark.parametrize("spec", GAMES)
def test_every_game_replays_from_its_texts(spec: str) -> None:
    room = _random_game(spec, seed=7)
    game = room.game
    state = lab.room_state(room)
    again = lab.open_room(spec, state["start"], state["moves"])
    assert game.format_position(again.state) == state["position"]
    assert game.format_position(game.parse_position(state["position"])) == state["position"]
    assert state["text"] == game.render(room.state)
    assert len(state["movers"]) == len(state["moves"]) == state["ply"]
    if not state["terminal"] and not state["chance"]:
        legal = game.legal_moves(room.state)
        assert [m["text"] for m in state["legal"]] == [
            game.format_move(room.state, m) for m in legal
        ]
        assert state["to_move"] == game.to_move(room.state)


@pytest.mark.parametrize("spec", GAMES)
def test_undo_gives_back_the_earlier_positions(spec: str) -> None:
    room = _random_game(spec, seed=3, plies=12)
    positions = [room.game.format_position(s) for s in room.states]
    for back in range(1, len(room.moves) + 1):
        earlier = lab.undo(room, back)
        assert lab.room_state(earlier)["position"] == positions[-1 - back]
    with pytest.raises(PliesError, match="cannot undo"):
        lab.undo(room, len(room.moves) + 1)
    with pytest.raises(PliesError, match="no move to undo"):
        lab.undo(lab.open_room(spec))


def test_a_finished_game_names_its_result() -> None:
    won = lab.room_state(lab.open_room("tictactoe", "", ["1", "4", "2", "5", "3"]))
    assert (won["terminal"], won["result"], won["winner"], won["legal"]) == (True, "X wins", 0, [])
    drawn = lab.open_room("tictactoe", "", ["5", "1", "9", "3", "2", "8", "7", "4", "6"])
    assert lab.room_state(drawn)["result"] == "draw"
    lost = lab.room_state(lab.open_room("connect4", "", list("1212121")))
    assert lost["result"] == "X (red) wins"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        lab.play_move(drawn, "5")


def test_illegal_moves_are_refused_with_the_games_reason() -> None:
    room = lab.open_room("tictactoe", "", ["5"])
    with pytest.raises(IllegalMoveError, match="cannot play 5: the cell is taken"):
        lab.play_move(room, "5")
    with pytest.raises(IllegalMoveError, match=r"move 3: .*cell is taken"):
        lab.open_room("tictactoe", "", ["5", "1", "1"])
    with pytest.raises(IllegalMoveError, match="column"):
        lab.play_move(lab.open_room("connect4", "", list("444444")), "4")
    with pytest.raises(PliesError):
        lab.play_move(room, "")


@pytest.mark.parametrize(
    ("spec", "position", "moves", "message"),
    [
        ("openspiel:tic_tac_toe", "", [], "not OpenSpiel's"),
        ("", "", [], "needs a game"),
        ("chess960", "", [], "unknown game"),
        ("tictactoe", "x" * (MAX_POSITION_TEXT + 1), [], "more than"),
        ("nim", "", ["1:1"] * (MAX_MOVES + 1), "more than"),
        ("tictactoe", "", "5", "list of texts"),
        ("tictactoe", "", [5], "text, not int"),
        ("tictactoe", 5, [], "text, not int"),
    ],
)
def test_bad_rooms_are_refused(spec: Any, position: Any, moves: Any, message: str) -> None:
    with pytest.raises((PliesError, UnknownGameError, LimitError), match=message):
        lab.open_room(spec, position, moves)


def test_grid_cells_stand_for_the_moves() -> None:
    room = lab.open_room("mnk:m=4,n=3,k=3", "", ["1", "12"])
    state = lab.room_state(room)
    rows = state["board"]["rows"]
    assert rows == ["x...", "....", "...o"]
    for move in state["legal"]:
        ((r, c),) = move["cells"]
        assert rows[r][c] == "." and int(move["text"]) == r * 4 + c + 1
    assert state["last"] == [[2, 3]]
    connect4 = lab.room_state(lab.open_room("connect4", "", ["4", "4"]))
    assert connect4["last"] == [[4, 3]]  # the disc dropped, not the whole column
    for move in connect4["legal"]:
        assert {c for _, c in move["cells"]} == {int(move["text"]) - 1}
        assert len(move["cells"]) == 6
    othello = lab.room_state(lab.open_room("othello"))
    assert othello["board"]["rows"][3:5] == ["...ox...", "...xo..."]
    for move in othello["legal"]:
        ((r, c),) = move["cells"]
        assert move["text"] == "abcdefgh"[c] + str(r + 1)
    assert lab.room_state(lab.open_room("nim"))["board"] is None
    # Boards larger than the tree lab draws under a node are boards here too.
    big = lab.room_state(lab.open_room("connect4:width=12,height=10", "", ["12"]))
    assert big["board"]["rows"][-1] == "...........x" and len(big["board"]["rows"]) == 10
    wide = lab.room_state(lab.open_room("mnk:m=16,n=16,k=5", "", ["256"]))
    assert wide["board"]["rows"][-1] == "." * 15 + "x" and wide["last"] == [[15, 15]]


def test_dice_are_rolled_by_their_probabilities() -> None:
    room = lab.play_move(lab.open_room("pig"), "roll")
    state = lab.room_state(room)
    assert state["chance"] and [m["text"] for m in state["legal"]] == list("123456")
    faces = {lab.roll(room, random.Random(seed)).texts[-1] for seed in range(60)}
    assert faces == set("123456")
    assert lab.room_state(lab.play_move(room, "6"))["moves"] == ["roll", "6"]
    with pytest.raises(PliesError, match="nothing to roll"):
        lab.roll(lab.open_room("pig"))
    with pytest.raises(PliesError, match="chance event is due"):
        lab.think(room, depth=2)


def test_the_engine_reports_each_depth_and_its_choice() -> None:
    room = lab.open_room("tictactoe", "", ["1", "5", "9"])
    items = list(lab.think(room, depth=9))
    infos, best = items[:-1], items[-1]
    assert [i["depth"] for i in infos] == list(range(1, len(infos) + 1))
    assert all(i["kind"] == "info" and i["pv"] and i["nodes"] > 0 for i in infos)
    reference = search(room.game, room.state, limits=Limits(depth=9))
    assert best["kind"] == "best" and not best["stopped"]
    assert best["text"] == room.game.format_move(room.state, reference.best_move)
    assert best["score"] == reference.score_text == "0"
    assert infos[-1]["pv"][0] == best["text"]
    assert lab.room_state(room)["legal"][best["index"]]["text"] == best["text"]


def test_the_engine_never_loses_tictactoe() -> None:
    rng = random.Random(1)
    for engine_side in (0, 1):
        room = lab.open_room("tictactoe")
        while not (state := lab.room_state(room))["terminal"]:
            if state["to_move"] == engine_side:
                text = list(lab.think(room, depth=9))[-1]["text"]
            else:
                text = rng.choice(state["legal"])["text"]
            room = lab.play_move(room, text)
        assert state["winner"] in (engine_side, None)


def test_a_stop_request_ends_the_search_with_a_move() -> None:
    room = lab.open_room("othello")
    stop = threading.Event()
    items = lab.think(room, seconds=30, stop=stop)
    first = next(items)
    assert first["kind"] == "info"
    stop.set()
    started = time.monotonic()
    rest = list(items)
    assert time.monotonic() - started < 5  # generous: the engine looks every few ms
    assert rest[-1]["kind"] == "best" and rest[-1]["stopped"]
    stopped_at_once = list(lab.think(room, depth=5, stop=lambda: True))
    assert len(stopped_at_once) == 1 and stopped_at_once[0]["stopped"]
    assert stopped_at_once[0]["text"] in {"d3", "c4", "f5", "e6"}


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({}, "a depth or a number of seconds"),
        ({"depth": 0}, "depth is a whole number"),
        ({"depth": 65}, "depth is a whole number"),
        ({"depth": True}, "depth is a whole number"),
        ({"seconds": 0}, "time is a number"),
        ({"seconds": 61}, "time is a number"),
        ({"seconds": "1"}, "time is a number"),
    ],
)
def test_bad_limits_are_refused(limits: dict[str, Any], message: str) -> None:
    with pytest.raises(PliesError, match=message):
        lab.think(lab.open_room("nim"), **limits)


def test_the_lab_depth_is_the_deepest_tree_that_fits() -> None:
    game = get_game("tictactoe")
    for moves in ([], ["5"], ["5", "1", "9"], ["5", "1", "9", "3", "2", "8"]):
        room = lab.open_room("tictactoe", "", moves)
        depth = lab_depth(game, room.state, 2_000)
        assert depth is not None
        assert len(game_tree(game, room.state, depth=depth)) <= 2_000
        fits = len(game_tree(game, room.state, depth=depth))
        bigger = len(game_tree(game, room.state, depth=depth + 1, max_nodes=10**6))
        assert bigger > 2_000 or bigger == fits  # too big, or the whole game fitted
    assert lab.room_state(lab.open_room("tictactoe"))["lab_depth"] == 3  # 1+9+72+504 nodes
    finished = lab.open_room("tictactoe", "", ["1", "4", "2", "5", "3"])
    assert lab.room_state(finished)["lab_depth"] is None


def test_a_game_with_its_own_export_is_exported_by_it() -> None:
    class Recorded(MNKGame):
        def export_game(self, start: Any, moves: list[Any]) -> str:
            return f"[{len(moves)} moves from {self.format_position(start)}]"

    game = Recorded()
    room = lab.Room(game, (game.initial_state(),), (), ())
    room = lab.play_move(lab.play_move(room, "5"), "1")
    assert lab.room_state(room)["export"] == "[2 moves from .../.../...]"
    plain = lab.open_room("connect4", "", ["4", "4", "3"])
    assert lab.room_state(plain)["export"] == "4 4 3"
