"""The Score type: what an engine number means, its order, text, UCI and JSON forms."""

from __future__ import annotations

import itertools
import json
import pickle
import random

import pytest

from plies.engine import (
    WIN,
    WIN_THRESHOLD,
    Limits,
    Score,
    describe_score,
    score_distance,
    score_outcome,
    search,
    solve,
)
from plies.engine._scores import terminal_score
from plies.errors import ParseError, SearchError
from plies.games import get_game
from plies.lab import SCORE_STYLES, format_score, score_of

SCORES = [
    Score.loss(1),
    Score.loss(4),
    Score.loss(None),
    Score.heuristic(-300),
    Score.heuristic(-2.5),
    Score.draw(),
    Score.heuristic(0),
    Score.heuristic(17),
    Score.expected(0.25),
    Score.win(None),
    Score.win(9),
    Score.win(3),
    Score.win(0),
]


def test_the_engine_encoding_reads_back() -> None:
    for plies in (0, 1, 5, 40, 999_999):
        assert Score.from_value(terminal_score(1, plies)) == Score.win(plies)
        assert Score.from_value(terminal_score(-1, plies)) == Score.loss(plies)
        assert Score.win(plies).value == terminal_score(1, plies)
        assert Score.loss(plies).value == terminal_score(-1, plies)
    assert Score.from_value(WIN_THRESHOLD - 1).kind == "value"
    assert Score.from_value(-WIN_THRESHOLD).kind == "loss"


def test_describe_score_and_friends_agree_with_score() -> None:
    rng = random.Random(5)
    values = [0.0, 1.0, -3.0, 0.125, 123456.0, WIN - 7, -WIN + 12, 2 * WIN - 3]
    values += [rng.uniform(-WIN, WIN) for _ in range(200)]
    for value in values:
        score = Score.from_value(value)
        assert describe_score(value) == str(score)
        assert score_outcome(value) == score.outcome
        assert score_distance(value) == score.plies


def test_order_loss_below_values_below_wins() -> None:
    for low, high in itertools.pairwise(SCORES):
        assert low <= high and high >= low
    assert Score.loss(2) < Score.loss(8) < Score.heuristic(-1e5) < Score.win(40) < Score.win(2)
    assert max(Score.win(11), Score.win(5), Score.heuristic(900)) == Score.win(5)
    assert Score.expected(0.999) < Score.win(1000)  # an expectation proves nothing


def test_text_and_uci() -> None:
    assert [str(s) for s in (Score.win(5), Score.loss(4), Score.win(None))] == [
        "win in 5",
        "loss in 4",
        "win",
    ]
    assert str(Score.draw()) == "draw"
    assert str(Score.heuristic(35)) == "35" and str(Score.heuristic(0.123456)) == "0.1235"
    assert str(Score.expected(0.71759)) == "expected utility +0.718"
    assert str(Score.expected(-0.5)) == "expected utility -0.500"
    assert Score.win(1).uci() == "mate 1" and Score.win(5).uci() == "mate 3"
    assert Score.loss(0).uci() == "mate 0" and Score.loss(4).uci() == "mate -2"
    assert Score.heuristic(-35.4).uci() == "cp -35" and Score.draw().uci() == "cp 0"


def test_every_text_parses_back() -> None:
    for score in SCORES:
        for style in SCORE_STYLES:
            text = format_score(score, style)
            if style == "uci" and score.kind not in ("win", "loss", "draw"):
                continue  # cp N rounds a value
            if style == "uci" and score.plies is None:
                continue
            parsed = Score.parse(text)
            if style == "uci" and score.kind != "draw":
                assert parsed.uci() == text  # mate N is in moves: plies to one of two
            elif style == "uci":
                assert parsed == Score.heuristic(0)
            elif score.kind == "expected":
                assert str(parsed) == str(score)
            else:
                assert parsed == score, (style, text)


def test_json_round_trip() -> None:
    for score in SCORES:
        data = json.loads(json.dumps(score.to_json()))
        back = Score.from_json(data)
        assert back == score and back.value == score.value and back.kind == score.kind
        assert pickle.loads(pickle.dumps(score)) == score
    assert Score.win(5).to_json() == {"kind": "win", "value": WIN - 5, "plies": 5}


@pytest.mark.parametrize(
    "data",
    [None, [], {"kind": "win"}, {"kind": "mate", "value": 1, "plies": None},
     {"kind": "draw", "value": 0, "plies": 3}, {"kind": "win", "value": "x", "plies": 1},
     {"kind": "win", "value": 1.0, "plies": -1}],
)  # fmt: skip
def test_bad_json_is_a_parse_error(data: object) -> None:
    with pytest.raises(ParseError):
        Score.from_json(data)


@pytest.mark.parametrize("text", ["", "win in", "mate", "win in -3", "nan", "1e12", "cp x", 5])
def test_bad_text_is_a_parse_error(text: object) -> None:
    with pytest.raises(ParseError):
        Score.parse(text)  # type: ignore[arg-type]


def test_a_score_is_immutable_and_checked() -> None:
    score = Score.win(3)
    with pytest.raises(AttributeError):
        score.plies = 4  # type: ignore[misc]
    with pytest.raises(SearchError, match="nan"):
        Score.from_value(float("nan"))
    with pytest.raises(SearchError, match="kind"):
        Score("mate", 1.0)  # type: ignore[arg-type]
    assert len({Score.win(3), Score.parse("win 3"), Score.parse("win:3")}) == 1


def test_results_carry_their_score() -> None:
    game = get_game("tictactoe")
    state = game.parse_position("1 2 5 9")
    result = search(game, state, limits=Limits(depth=3))
    assert result.score == Score.win(3) and result.score_text == "win in 3"
    assert (result.outcome, result.distance) == ("win", 3)
    solved = solve(game, game.initial_state())
    assert solved.score == Score.draw() and format_score(solved.score, "token") == "draw"
    weak = solve(game, state, weak=True)
    assert weak.score == Score.win(None) and str(weak.score) == "win"


def test_an_expected_utility_is_no_win() -> None:
    # The drift of issue 25: describe_score read Pig's expected utility as "win in 407407".
    pig = get_game("pig")
    state = pig.parse_position("scores 18,18 total 0 player 1")
    result = search(pig, state, limits=Limits(depth=4))
    assert result.value >= WIN_THRESHOLD
    score = score_of(pig, result)
    assert score.kind == "expected" and score.outcome is None and score.plies is None
    assert score.utility == pytest.approx(result.value / WIN)
    assert str(score) == "expected utility +0.718"
    assert format_score(score, "token") == "expected:+0.718"
    assert Score.parse("expected:+0.718") == Score.parse("expected utility +0.718")


def test_a_chance_games_result_knows_its_score_alone() -> None:
    # Without score_of: the engine marks results of games with chance nodes.
    pig = get_game("pig")
    state = pig.parse_position("scores 18,18 total 0 player 1")
    result = search(pig, state, limits=Limits(depth=4))
    assert result.chance and result.score.kind == "expected"
    assert result.outcome is None and result.distance is None
    assert result.score == score_of(pig, result)
    over = pig.parse_position("scores 100,18 total 0 player 1")
    assert search(pig, over, limits=Limits(depth=2)).score.kind in ("win", "loss")  # over: proven
