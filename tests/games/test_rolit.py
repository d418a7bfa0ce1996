"""Rolit: the rules on positions checked by hand, notation, conformance, searches."""

from __future__ import annotations

import pytest

from plies.engine import WIN, Limits, best_reply, maxn, paranoid
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.games.rolit import Rolit, RolitState, format_square, parse_square
from plies.testing import check_game

GAME = Rolit()


def squares(state: RolitState) -> list[str]:
    return [format_square(move) for move in GAME.legal_moves(state)]


def board(rows: list[str], player: str) -> RolitState:
    return GAME.parse_position("/".join(rows) + " " + player)


def test_the_start_has_one_disc_each_in_the_centre() -> None:
    start = GAME.initial_state()
    assert GAME.format_position(start) == "-" * 27 + "RY" + "-" * 6 + "BG" + "-" * 27 + " R"
    assert GAME.to_move(start) == 0 and GAME.num_players == 4
    assert GAME.disc_counts(start) == (1, 1, 1, 1)
    # Red captures Yellow (f4), Blue (d6) or Green (f6): it must capture.
    assert squares(start) == ["f4", "d6", "f6"]


def test_a_capture_turns_the_outflanked_discs() -> None:
    after = GAME.parse_position("f4")
    assert GAME.render(after).splitlines()[4] == "4 . . . R R R . ."
    assert GAME.disc_counts(after) == (3, 0, 1, 1)
    assert GAME.to_move(after) == 1


def test_without_a_capture_any_square_next_to_a_disc() -> None:
    # Yellow has no disc left after f4: 14 squares touch a disc (the example of the
    # rules as the Maastricht papers and the game's own rules give it).
    after = GAME.parse_position("f4")
    assert len(squares(after)) == 14
    assert squares(after)[:5] == ["c3", "d3", "e3", "f3", "g3"]
    assert "h8" not in squares(after) and "e6" in squares(after)


def test_a_line_of_mixed_colours_is_captured_whole() -> None:
    # Green on e5, Red d4 and Yellow c3 between it and b2: all turn green.
    state = board(
        [
            "--------",
            "--------",
            "--Y-----",
            "---R----",
            "----G---",
            "--------",
            "--------",
            "--------",
        ],
        "G",
    )
    assert "b2" in squares(state)
    after = GAME.play(state, parse_square("b2"))
    assert GAME.disc_counts(after) == (0, 0, 4, 0)
    assert GAME.to_move(after) == 3


def test_a_capture_must_be_taken_when_there_is_one() -> None:
    after = GAME.parse_position("f4")  # Red to move again only after three others
    with pytest.raises(IllegalMoveError, match="capture is possible"):
        GAME.play(GAME.initial_state(), parse_square("c3"))
    with pytest.raises(IllegalMoveError, match="occupied"):
        GAME.play(after, parse_square("d4"))
    with pytest.raises(IllegalMoveError, match="next to no disc"):
        GAME.play(after, parse_square("a1"))


def test_the_game_ends_when_the_board_is_full() -> None:
    state = GAME.initial_state()
    plies = 0
    while not GAME.is_terminal(state):
        state = GAME.play(state, GAME.legal_moves(state)[-1])
        plies += 1
    assert plies == 60 and sum(GAME.disc_counts(state)) == 64
    assert GAME.legal_moves(state) == []
    payoffs = GAME.utilities(state)
    assert sum(payoffs) == pytest.approx(1.0)


def test_the_most_discs_share_the_payoff() -> None:
    # 32 red, 32 yellow: the two share; green and blue get nothing.
    tied = board(["RRRRRRRR"] * 4 + ["YYYYYYYY"] * 4, "B")
    assert GAME.is_terminal(tied)
    assert GAME.utilities(tied) == (0.5, 0.5, 0.0, 0.0)
    alone = board(["RRRRRRRR"] * 5 + ["YYYYYYYY", "GGGGGGGG", "BBBBBBBB"], "R")
    assert GAME.utilities(alone) == (1.0, 0.0, 0.0, 0.0)
    assert GAME.utility(alone, 3) == 0.0


def test_evaluation_counts_discs_and_corners() -> None:
    state = board(
        ["R-------"] + ["--------"] * 2 + ["---RY---", "---BG---"] + ["--------"] * 3, "Y"
    )
    assert GAME.evaluations(state) == (2.0 + 4, 1.0, 1.0, 1.0)


def test_with_turn_keeps_the_discs() -> None:
    start = GAME.initial_state()
    turned = GAME.with_turn(start, 2)
    assert turned.discs == start.discs and GAME.to_move(turned) == 2
    # Green's captures from e5: over Red's d4, Yellow's e4 and Blue's d5.
    assert squares(turned) == ["c3", "e3", "c5"]


def test_positions_read_back() -> None:
    state = GAME.parse_position("f4, c3 B2")
    assert GAME.parse_position(GAME.format_position(state)) == state
    assert GAME.parse_position("") == GAME.initial_state()


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("z9", ParseError, "a square a1-h8"),
        ("f4 f4", IllegalMoveError, "move 2 of the POSITION"),
        ("R" * 10 + " R", ParseError, "64 characters"),
        ("-" * 64 + " R", ParseError, "at least one disc"),
    ],
)
def test_bad_positions_are_refused(text: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        GAME.parse_position(text)


def test_bad_states_moves_and_players_are_refused() -> None:
    with pytest.raises(ArgumentTypeError):
        GAME.legal_moves(None)  # type: ignore[arg-type]
    with pytest.raises(PliesError, match="on one another"):
        GAME.play(RolitState((1, 1, 0, 0), 0), 9)
    with pytest.raises(ArgumentTypeError):
        GAME.play(GAME.initial_state(), "f4")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="0-63"):
        GAME.play(GAME.initial_state(), 64)
    with pytest.raises(PliesError, match="0 to 3"):
        GAME.evaluate(GAME.initial_state(), 4)


def test_rolit_conforms() -> None:
    report = check_game(GAME, playouts=6, seed=3)
    assert report.terminals == 6 and report.longest == 60


def test_depth_limited_searches_play() -> None:
    start = GAME.initial_state()
    for search in (maxn, paranoid, best_reply):
        result = search(GAME, start, limits=Limits(depth=3))
        assert result.depth == 3 and result.best_move in GAME.legal_moves(start)
        assert 0 < result.value < WIN / 1000  # an evaluation: discs


def test_the_last_moves_are_searched_to_the_end() -> None:
    # Two empty squares left: every search sees the end and the payoffs.
    state = GAME.parse_position(
        "RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/GGGGGGGG/GGGGGGGG/BBBBBBBB/BBBBBB-- B"
    )
    result = maxn(GAME, state)
    assert result.exact and result.values is not None
    assert all(value in (0.0, WIN / 4, WIN / 3, WIN / 2, WIN) for value in result.values)
    assert sum(result.values) == pytest.approx(WIN)


def test_the_native_rules_agree_with_the_python_rules() -> None:
    pytest.importorskip("numba")
    report = check_game(GAME, playouts=4, seed=11)
    assert report.native_states > 200  # every state of the playouts, compared


def test_the_native_port_takes_no_two_player_task() -> None:
    pytest.importorskip("numba")
    from plies.engine import fallback_reason, solve

    assert GAME.native().tasks == ()
    assert fallback_reason(GAME, GAME.initial_state(), "search") == (
        "rolit's native port does not search"
    )
    with pytest.raises(PliesError, match="4 players"):
        solve(GAME, GAME.initial_state(), backend="native")
