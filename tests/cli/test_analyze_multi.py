"""``plies analyze rolit --algorithm maxn|paranoid|brs``: lines, JSON and refusals."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

import plies.games
from cli_errors import assert_one_line_error, run
from plies.games import GameEntry, available_games


@pytest.fixture(autouse=True)
def rolit_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rolit's registry row, where the registry does not list it yet."""
    if "rolit" not in available_games():
        row = GameEntry("rolit", "plies.games.rolit:Rolit", "Rolit", "moves d3")
        monkeypatch.setattr(plies.games, "GAMES", [*plies.games.GAMES, row])
    yield


def test_maxn_prints_the_vector_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "analyze", "rolit", "--algorithm", "maxn", "--depth", "3")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 4
    for depth, line in enumerate(lines[:3], start=1):
        vector = r"\((\S+, ){3}\S+\)"
        assert re.fullmatch(
            rf"info depth {depth} score {vector} nodes \d+ nps \d+ time \S+ pv( [a-h][1-8])+", line
        ), line
    assert lines[-1] == "bestmove f4"


def test_json_gives_the_value_and_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    for algorithm in ("maxn", "paranoid", "brs"):
        status, out, _ = run(
            capsys, "analyze", "rolit", "f4", "--algorithm", algorithm, "--depth", "2", "--json"
        )
        assert status == 0
        records = [json.loads(line) for line in out.splitlines()]
        assert [record["depth"] for record in records] == [1, 2]
        last = records[-1]
        assert last["algorithm"] == algorithm and last["player"] == 1
        if algorithm == "maxn":
            assert isinstance(last["value"], list) and len(last["value"]) == 4
        else:
            assert isinstance(last["value"], float)
        assert len(last["pv"]) == len(last["pv_players"]) >= 1
        assert last["pv"][0] == last["best_move"]


def test_a_two_player_search_on_rolit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(capsys, ["analyze", "rolit", "--depth", "2"])
    assert_one_line_error(capsys, ["analyze", "rolit", "--algorithm", "alphabeta", "--depth", "2"])


def test_a_seed_with_maxn_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(
        capsys, ["analyze", "rolit", "--algorithm", "maxn", "--depth", "2", "--seed", "3"]
    )


def test_maxn_on_a_two_player_game(capsys: pytest.CaptureFixture[str]) -> None:
    # max^n takes two players too: tic-tac-toe's vector, the win seen to the end.
    status, out, _ = run(capsys, "analyze", "tictactoe", "1 2 5 9", "--algorithm", "maxn", "--json")
    assert status == 0
    last = json.loads(out.splitlines()[-1])
    assert last["exact"] and last["value"] == [1.0, -1.0]
