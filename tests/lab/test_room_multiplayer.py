"""The game room with more than two players (:mod:`plies.lab._room`): a name per
player, the engine's N-player searches (Best-Reply Search by default), whole games
engine against engine that end with a result naming the winner(s) from the game's
utilities, and a shared top score read as a shared win."""

from __future__ import annotations

from typing import Any

import pytest

from plies import lab
from plies.errors import PliesError
from plies.lab._room import export_game, format_winners, room_algorithms

#: A Rolit board with Red and Yellow tied at 30 discs, Green and Blue 2 each: full.
TIED = "R" * 30 + "Y" * 30 + "GGBB" + " R"


def best(room: lab.Room, **strength: Any) -> str:
    """The move the room's engine plays (the last item of its search)."""
    *_, chosen = lab.think(room, **strength)
    assert chosen["kind"] == "best"
    return str(chosen["text"])


def play_out(room: lab.Room, **strength: Any) -> lab.Room:
    """The room after its engine played every seat to the end of the game."""
    while not lab.room_state(room)["terminal"]:
        room = lab.play_move(room, best(room, **strength))
    return room


def test_players_have_the_game_s_names_or_one_number_each() -> None:
    state = lab.room_state(lab.open_room("rolit", "", ["f4"]))
    assert state["players"] == ["Red", "Yellow", "Green", "Blue"]
    assert (state["to_move"], state["player"]) == (1, "Yellow")
    assert state["movers"] == [0]
    three = lab.open_room("chinese-checkers:players=3")
    assert lab.player_names(three.game) == ("player 1", "player 2", "player 3")
    assert lab.player_names(lab.open_room("chinese-checkers").game) == ("player 1", "player 2")


def test_the_engine_menu_depends_on_the_number_of_players() -> None:
    assert lab.room_state(lab.open_room("rolit"))["algorithms"] == [
        "brs",
        "paranoid",
        "maxn",
        "mcts",
    ]
    assert room_algorithms(lab.open_room("chinese-checkers").game) == ("pvs", "mcts")


@pytest.mark.parametrize("algorithm", [None, "brs", "paranoid", "maxn"])
def test_the_n_player_searches_choose_a_legal_move(algorithm: str | None) -> None:
    room = lab.open_room("rolit", "f4 c3")
    items = list(lab.think(room, depth=2, algorithm=algorithm))
    assert [item["kind"] for item in items] == ["info", "info", "best"]
    legal = [move["text"] for move in lab.room_state(room)["legal"]]
    assert items[-1]["text"] in legal


def test_a_two_player_search_is_refused_for_four() -> None:
    with pytest.raises(PliesError, match="rolit has 4 players: pvs is a two-player search"):
        list(lab.think(lab.open_room("rolit"), depth=2, algorithm="pvs"))


def test_engines_play_rolit_to_the_end_and_the_room_names_the_winner() -> None:
    room = play_out(lab.open_room("rolit"), depth=1)
    state = lab.room_state(room)
    assert state["ply"] == 60 and state["terminal"]
    utilities = room.game.utilities(room.state)
    top = [p for p, u in enumerate(utilities) if u == max(utilities)]
    assert state["winners"] == top
    assert state["result"] == format_winners(state["players"], top)
    assert ("wins" if len(top) == 1 else "share the win") in state["result"]


def test_engines_play_three_player_chinese_checkers_to_its_end() -> None:
    room = play_out(lab.open_room("chinese-checkers:players=3"), depth=1)
    state = lab.room_state(room)
    over = lab.outcome(room)
    assert over is not None and over.winner is not None and state["terminal"]
    assert room.game.utilities(room.state)[over.winner] == 1.0
    assert state["result"] == f"player {over.winner + 1} wins"
    assert state["winners"] == [over.winner]


def test_a_turn_limit_reached_is_a_draw() -> None:
    room = play_out(lab.open_room("chinese-checkers:players=3,turns=12"), depth=2)
    state = lab.room_state(room)
    assert (state["result"], state["winners"], state["winner"]) == ("draw", [], None)
    assert set(room.game.utilities(room.state)) == {0.0}


def test_a_shared_top_score_is_a_shared_win() -> None:
    room = lab.open_room("rolit", TIED)
    over = lab.outcome(room)
    assert over is not None and (over.winner, over.winners) == (None, (0, 1))
    assert lab.room_state(room)["result"] == "Red and Yellow share the win"


def test_the_words_for_the_winners() -> None:
    names = ["Red", "Yellow", "Green", "Blue"]
    assert format_winners(names, [2]) == "Green wins"
    assert format_winners(names, [0, 1, 3]) == "Red, Yellow and Blue share the win"
    assert format_winners(names, []) == "draw"


def test_names_for_the_export_count_every_player() -> None:
    room = lab.open_room("rolit", "", ["f4"])
    assert export_game(room, ["a", "b", "c", "d"]) == "f4"
    with pytest.raises(lab.RoomError, match="the names are four texts"):
        export_game(room, ["a", "b"])
