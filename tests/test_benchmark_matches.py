"""The arithmetic of benchmarks/multiplayer.py and benchmarks/mcts_vs_alphabeta.py: the
seat arrangements of BRS and its opponent, the points each arrangement gives BRS, the
win rate's Wilson interval, and the options of both scripts; and how
benchmarks/match_ladder.py pools the games its runs kept."""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from plies.lab import GameRecord
from plies.lab._match import seats_of

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


multiplayer = _load("multiplayer")
mcts_vs_alphabeta = _load("mcts_vs_alphabeta")
match_ladder = _load("match_ladder")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_line_ups_turn_into_every_mix_exactly_once(players: int) -> None:
    mixes = {a for a in itertools.product((True, False), repeat=players) if any(a) and not all(a)}
    reached = [multiplayer.rotations(lineup) for lineup in multiplayer.lineups(players)]
    assert set().union(*reached) == mixes
    assert sum(map(len, reached)) == len(mixes) == 2**players - 2  # no mix twice


def test_the_paper_s_line_ups_and_cycles() -> None:
    b, o = True, False
    assert multiplayer.lineups(3) == [(b, o, o), (b, b, o)]
    assert multiplayer.lineups(4) == [(b, o, o, o), (b, b, o, o), (b, o, b, o), (b, b, b, o)]
    assert multiplayer.cycle_games(3) == 6
    assert multiplayer.cycle_games(4) == 16
    assert multiplayer.cycles_for(1, 4) == 1
    assert multiplayer.cycles_for(17, 4) == 2
    assert multiplayer.cycles_for(12, 3) == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_round_of_the_harness_seats_a_line_up_as_the_rotations_say(players: int) -> None:
    for lineup in multiplayer.lineups(players):
        for first in (1, players + 1):  # the first two rounds
            numbers = range(first, first + players)
            seen = {tuple(lineup[p] for p in seats_of(n, players)) for n in numbers}
            assert seen == multiplayer.rotations(lineup)


def _record(number: int, seats: tuple[int, ...], scores: tuple[float, ...]) -> GameRecord:
    return GameRecord(number, seats, "", (), scores, "", "", None, "")


def test_an_arrangement_played_twice_in_a_round_counts_once_as_its_mean() -> None:
    lineup = (True, False, True, False)  # players 0 and 2 are BRS
    games = [
        _record(1, (0, 1, 2, 3), (1, 0, 0, 0)),  # BOBO: BRS wins
        _record(2, (1, 2, 3, 0), (0, 1, 0, 0)),  # OBOB: the opponent wins
        _record(3, (2, 3, 0, 1), (0, 0.5, 0, 0.5)),  # BOBO again: the opponents share
        _record(4, (3, 0, 1, 2), (0.25, 0.25, 0.25, 0.25)),  # OBOB again: a draw
        _record(5, (0, 1, 2, 3), (0, 0, 1, 0)),  # the next round's BOBO
    ]
    points = multiplayer.arrangement_points(lineup, games)
    assert points == {
        (0, (True, False, True, False)): 0.5,
        (0, (False, True, False, True)): 0.25,
        (1, (True, False, True, False)): 1.0,
    }


def test_wilson_s_interval_matches_its_known_values() -> None:
    low, high = multiplayer.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = multiplayer.wilson(0, 10)
    assert round(low, 12) == 0 and round(high, 4) == 0.2775
    low, high = multiplayer.wilson(10, 10)
    assert round(low, 4) == 0.7225 and round(high, 12) == 1
    with pytest.raises(ValueError, match="at least one trial"):
        multiplayer.wilson(0, 0)
    with pytest.raises(ValueError, match="successes must be 0 to 4"):
        multiplayer.wilson(5, 4)


def test_a_pairing_s_rate_interval_and_verdict() -> None:
    strong = multiplayer.Pairing("rolit", "maxn", 160, 140, 100.0, 0, 8000, 1.0)
    assert math.isclose(strong.rate, 100 / 140)
    assert strong.verdict() == "BRS stronger"
    even = multiplayer.Pairing("rolit", "paranoid", 16, 14, 7.0, 0, 900, 1.0)
    assert even.verdict() == "no difference shown"
    weak = multiplayer.Pairing("rolit", "paranoid", 160, 140, 40.0, 0, 900, 1.0)
    assert weak.verdict() == "BRS weaker"


def test_the_presets_fill_only_what_is_not_given() -> None:
    quick = multiplayer.parse_args([])
    assert (quick.games, quick.time, quick.workers) == (1, 0.05, None)
    full = multiplayer.parse_args(["--full", "--time", "0.5"])
    assert (full.games, full.time, full.workers) == (800, 0.5, 2)
    assert multiplayer.random_plies("rolit", quick) == 4
    assert multiplayer.random_plies("rolit", multiplayer.parse_args(["--random-plies", "0"])) == 0
    full = mcts_vs_alphabeta.parse_args(["--full"])
    assert (full.games, full.time, full.workers) == (200, 0.2, 2)
    with pytest.raises(SystemExit):
        mcts_vs_alphabeta.parse_args(["--games", "3"])


def test_elo_is_printed_signed_and_infinite_at_the_ends() -> None:
    assert mcts_vs_alphabeta.format_elo(35.4) == "+35"
    assert mcts_vs_alphabeta.format_elo(-120.6) == "-121"
    assert mcts_vs_alphabeta.format_elo(math.inf) == "+inf"
    assert mcts_vs_alphabeta.format_elo(-math.inf) == "-inf"


def _ladder_game(number: int, level: int, result: str) -> str:
    """A kept game of the ladder: plies has white in odd games, as the harness seats it."""
    stockfish = f"uci:/usr/games/stockfish:UCI_LimitStrength=true,UCI_Elo={level}"
    white, black = ("pvs", stockfish) if number % 2 else (stockfish, "pvs")
    return (
        f'[Event "plies match"]\n[Round "{number}"]\n[White "{white}"]\n'
        f'[Black "{black}"]\n[Result "{result}"]\n\n{result}\n\n'
    )


def test_the_ladder_pools_its_runs_by_the_pairs_complete_within_each(tmp_path: Path) -> None:
    first = tmp_path / "first.pgn"
    # A run stopped after three games, then another appended to the same file.
    games = [(1, "1-0"), (2, "1-0"), (3, "1/2-1/2"), (1, "0-1"), (2, "1/2-1/2")]
    first.write_text("".join(_ladder_game(n, 2100, r) for n, r in games))
    second = tmp_path / "second.pgn"
    second.write_text(_ladder_game(1, 2300, "0-1") + _ladder_game(2, 2300, "1-0"))
    levels = match_ladder.kept_levels([str(first), str(second)])
    assert sorted(levels) == [2100, 2300]
    # plies' scores: white wins, stockfish's white win, a draw; a loss, a draw.
    assert levels[2100].scores == [1.0, 0.0, 0.5, 0.0, 0.5]
    assert levels[2100].pairs == [(1.0, 0.0), (0.0, 0.5)]  # game 3 has no partner
    assert levels[2300].pairs == [(0.0, 0.0)]
    line = match_ladder.line(
        2100,
        5,
        (1, 2, 2),
        match_ladder.Pentanomial.of_pairs(levels[2100].pairs),
        forfeits="-",
        pace="",
    )
    assert line.split()[:4] == ["2100", "5", "40.0%", "1/"]
    assert "[0, 1, 1, 0, 0]" in line


def test_the_ladder_refuses_a_file_it_did_not_write(tmp_path: Path) -> None:
    other = tmp_path / "other.pgn"
    other.write_text('[Event "?"]\n[Round "?"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n*\n')
    with pytest.raises(SystemExit, match="game \\? is not a ladder's"):
        match_ladder.kept_levels([str(other)])
    with pytest.raises(SystemExit, match="No such file"):
        match_ladder.kept_levels([str(tmp_path / "missing.pgn")])


def test_the_ladder_refuses_a_level_stockfish_does_not_have() -> None:
    stockfish = match_ladder.stockfish_path(None)
    match_ladder.check_levels(stockfish, [2000])  # in range: no error
    with pytest.raises(SystemExit, match=r"--levels 100: Stockfish's UCI_Elo is \d+ to \d+"):
        match_ladder.check_levels(stockfish, [2000, 100])
