"""Matches: who wins, seats and openings, the same games however often they are played,
the SPRT's stop, records, and forfeits of players that crash."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest

from plies.lab import (
    GameRecord,
    MatchError,
    MatchOptions,
    TimeControl,
    load_game,
    match_record,
    parse_player,
    play_move,
    read_openings,
    room_of,
    run_match,
)
from plies.lab._match import game_pgn, opening_items, play_game, seats_of
from plies.lab._players import mover_of


def test_pvs_at_depth_4_beats_random_moves_at_connect_four() -> None:
    result = run_match(MatchOptions("connect4", ("random", "pvs:depth=4"), games=4, random_plies=2))
    assert result.points == (0.0, 4.0)
    assert result.pentanomial is not None and result.pentanomial.counts == (2, 0, 0, 0, 0)
    record = match_record(result)
    assert (record["games"], record["wins"], record["draws"], record["losses"]) == (4, 0, 0, 4)
    assert record["elo"] is None and record["elo_ci"] == [None, None]  # minus infinity
    assert record["sprt"] is None


def test_mcts_with_native_playouts_plays_a_match() -> None:
    spec = parse_player("mcts:iterations=200,backend=native")
    assert (spec.backend, spec.search_options(1).backend) == ("native", "native")
    result = run_match(MatchOptions("connect4", ("random", spec.name), games=2, random_plies=1))
    assert result.points == (0.0, 2.0)  # and no forfeit: the kernel played


def test_perfect_tictactoe_is_a_draw_from_both_seats() -> None:
    result = run_match(MatchOptions("tictactoe", ("pvs:depth=9", "alphabeta:depth=9"), games=2))
    assert [game.result for game in result.games] == ["1/2-1/2", "1/2-1/2"]
    assert result.elo is not None and result.elo.elo == 0.0
    assert result.pentanomial is not None and result.pentanomial.counts == (0, 0, 1, 0, 0)


def test_each_opening_is_played_from_both_seats() -> None:
    options = MatchOptions(
        "connect4", ("pvs:depth=2", "random"), games=6, openings=read_openings("44\n# x\n\n3 3\n")
    )
    result = run_match(options)
    assert [game.opening for game in result.games] == ["44", "44", "3 3", "3 3", "44", "44"]
    assert [game.seats for game in result.games] == [(0, 1), (1, 0)] * 3


def test_seats_rotate_in_rounds_of_every_player() -> None:
    assert [seats_of(n, 3) for n in (1, 2, 3, 4)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 2)]


def test_random_openings_follow_the_seed() -> None:
    from plies.games import parse_game_spec

    game = parse_game_spec("connect4")

    def openings(seed: int) -> list[str]:
        options = MatchOptions("connect4", ("random", "random"), games=8, random_plies=4, seed=seed)
        return [text for _, text in opening_items(options, game)]

    assert openings(1) == openings(1)
    assert openings(1) != openings(2)
    assert openings(1)[0] == openings(1)[1] and len(set(openings(1))) > 1


def test_a_match_is_the_same_every_time() -> None:
    options = MatchOptions(
        "connect4", ("mcts:iterations=60", "random"), games=4, random_plies=2, seed=7
    )
    first, second = run_match(options), run_match(options)
    assert first.games == second.games
    other_seed = run_match(MatchOptions(**{**options.__dict__, "seed": 8}))
    assert [g.moves for g in other_seed.games] != [g.moves for g in first.games]


def test_the_sprt_stops_the_match_at_its_verdict() -> None:
    options = MatchOptions("tictactoe", ("pvs:depth=9", "random"), games=40, sprt=(0, 100))
    result = run_match(options)
    assert result.sprt is not None and result.sprt.verdict == "H1"
    assert len(result.games) < 40 and len(result.games) % 2 == 0
    assert result.sprt.llr >= result.sprt.upper and not result.stopped
    assert match_record(result)["sprt"]["verdict"] == "H1"


def test_a_game_past_its_plies_is_a_draw() -> None:
    record = play_game(MatchOptions("connect4", ("random", "random"), games=2, max_plies=5), 1, "")
    assert len(record.moves) == 5 and record.result == "1/2-1/2"
    assert record.reason == "adjudicated a draw after 5 plies"


def test_a_crashing_search_forfeits(monkeypatch: pytest.MonkeyPatch) -> None:
    import plies.lab._players

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("out of cheese")

    monkeypatch.setattr(plies.lab._players, "engine_move", broken)
    result = run_match(MatchOptions("connect4", ("random", "pvs:depth=3"), games=2))
    assert result.points == (2.0, 0.0)
    assert [g.forfeit for g in result.games] == [1, 1]
    assert result.games[0].reason == ("pvs:depth=3 forfeits: crashed: RuntimeError: out of cheese")
    assert result.totals[1].forfeits == 2


def test_chess_games_are_real_pgn() -> None:
    chess_pgn = pytest.importorskip("chess.pgn")
    options = MatchOptions("chess", ("random", "random"), games=2, max_plies=12, seed=3)
    record = play_game(options, 2, "e4 e5")
    game = chess_pgn.read_game(io.StringIO(record.record))
    assert game is not None and not game.errors
    headers = game.headers
    assert (headers["White"], headers["Black"], headers["Round"]) == ("random #2", "random #1", "2")
    assert headers["Result"] == "1/2-1/2" and headers["Termination"] == record.reason
    assert headers["FEN"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    moves = list(game.mainline_moves())
    assert game.board().san(moves[0]) == record.moves[0]
    assert len(moves) == len(record.moves) == 12


def test_other_games_get_a_pgn_like_record() -> None:
    record = play_game(MatchOptions("tictactoe", ("pvs:depth=9", "random"), games=2), 1, "5")
    assert record.record.splitlines() == [
        '[Event "plies match"]',
        '[Game "tictactoe"]',
        '[Round "1"]',
        '[X "pvs:depth=9"]',
        '[O "random"]',
        '[Opening ".../.x./..."]',
        f'[Result "{record.result}"]',
        f'[Termination "{record.reason}"]',
        "",
        _numbered(record.moves, record.result),
    ]


def _numbered(moves: tuple[str, ...], result: str) -> str:
    """O moves first after the opening "5": ``1... a 2. b c 3. d ...``."""
    words = ["1...", moves[0]]
    for index, move in enumerate(moves[1:]):
        if index % 2 == 0:
            words.append(f"{index // 2 + 2}.")
        words.append(move)
    return " ".join([*words, result])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("minimax", "needs a limit"),
        ("pvs:depth=x", "depth is a number"),
        ("pvs:depth=0", "above 0"),
        ("pvs:deep=3", "unknown key 'deep'"),
        ("mcts:time=1,backend=gpu", "backend is python or native"),
        ("random:backend=native", "unknown key 'backend'"),
        ("pvs:depth=3,hash=x", "hash is a whole number of MB"),
        ("pvs:depth=3,hash=-1", "hash must be 0 to 4096 MB"),
        ("minimax:depth=3,hash=16", "unknown key 'hash'"),
        (
            "mcts:time=1,hash=16",
            r"unknown key 'hash' \(one of depth, nodes, time, iterations, backend\)",
        ),
        ("random:depth=2", "random takes no limit"),
        ("mcts:depth=3", "mcts has no depth limit"),
        ("maxn:iterations=3", "iterations are a limit of mcts only"),
        ("uci:", "uci needs a command"),
        ("uci:stockfish", "needs a limit"),
        ("telepathy", "the algorithm is one of"),
    ],
)
def test_bad_players_are_named(text: str, message: str) -> None:
    with pytest.raises(MatchError, match=message):
        parse_player(text)


def test_a_uci_spec_splits_its_command_limits_and_options() -> None:
    spec = parse_player("uci:python3 engine.py --fast:Hash=16,UCI_Elo=1500,time=0.5,depth=3")
    assert spec.command == ("python3", "engine.py", "--fast")
    assert spec.uci_options == (("Hash", "16"), ("UCI_Elo", "1500"))
    assert (spec.time, spec.depth) == (0.5, 3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (MatchOptions("connect4", ("random",), games=2), "game of 2 players: give 2"),
        (MatchOptions("connect4", ("random", "random"), games=3), "multiple of 2"),
        (MatchOptions("connect4", ("random", "random"), games=2, openings=("9",)), "opening 1"),
        (MatchOptions("tictactoe", ("random", "uci:x:time=1"), games=2), "UCI engines play chess"),
    ],
)
def test_matches_that_cannot_be_played_say_why(options: MatchOptions, message: str) -> None:
    with pytest.raises(MatchError, match=message):
        run_match(options)


def test_openings_and_random_plies_exclude_each_other() -> None:
    with pytest.raises(MatchError, match="not both"):
        MatchOptions("connect4", ("random", "random"), games=2, openings=("4",), random_plies=2)
    with pytest.raises(MatchError, match="no opening"):
        read_openings("# nothing\n\n")


def test_game_pgn_quotes_tag_values() -> None:
    from plies.games import parse_game_spec
    from plies.lab import room_of

    game = parse_game_spec("nim")
    room = room_of(game, game.initial_state())
    text = game_pgn(room, names=['a "b"', "c"], number=1, result="*", reason="r")
    assert '[Seat1 "a \\"b\\""]' in text


def test_the_sprt_is_checked_before_any_game() -> None:
    with pytest.raises(MatchError, match="elo0 < elo1, not 5, 0"):
        MatchOptions("connect4", ("random", "random"), games=2, sprt=(5, 0))
    with pytest.raises(MatchError, match="sprt_model"):
        MatchOptions("connect4", ("random", "random"), games=2, sprt=(0, 5), sprt_model="bayes")
    with pytest.raises(MatchError, match="two players, not 3"):
        MatchOptions("connect4", ("random",) * 3, games=3, sprt=(0, 5))


def test_the_games_of_a_pair_roll_the_same_dice() -> None:
    options = MatchOptions("pig", ("random", "pvs:depth=2"), games=4, max_plies=40)

    def dice(number: int) -> list[str]:
        return [move for move in play_game(options, number, "").moves if move.isdigit()]

    first, second, third = dice(1), dice(2), dice(3)
    shared = min(len(first), len(second))
    assert shared > 5 and first[:shared] == second[:shared]
    assert first[: min(shared, len(third))] != third[: min(shared, len(third))]


def test_an_engine_player_keeps_its_table_from_move_to_move() -> None:
    room = room_of(*load_game("connect4"))
    kept, fresh = (
        mover_of(parse_player(f"pvs:depth=6,hash={mb}"), game_name="connect4", timeout=1)
        for mb in (4, 0)
    )
    first = kept.move(room, seed=0)
    table = kept._table
    assert table is not None and table.deep
    room = play_move(room, room.game.format_move(room.state, first))
    room = play_move(room, room.game.format_move(room.state, fresh.move(room, seed=0)))
    assert kept.move(room, seed=0) in room.game.legal_moves(room.state)
    assert kept._table is table and fresh._table is None  # searched on the kept table


# -- on a clock ---------------------------------------------------------------------------


def test_on_a_clock_players_need_no_limit_and_set_no_time() -> None:
    control = TimeControl(5, 0.1)
    options = MatchOptions("tictactoe", ("pvs", "random"), games=2, time_control=control)
    result = run_match(options)
    assert result.points == (2.0, 0.0) and all(g.forfeit is None for g in result.games)
    first = result.games[0]
    assert first.turns == (3, 2) and len(first.moves) == 5  # pvs wins in its third move
    assert first.seconds[1] == 0.0 < first.seconds[0] < 5  # random takes no time
    pvs = result.totals[0]
    assert pvs.turns == sum(g.turns[0] for g in result.games)
    assert pvs.seconds_a_move == pytest.approx(pvs.seconds / pvs.turns)
    assert '[TimeControl "5+0.1"]' in first.record
    record = match_record(result)
    assert record["time_control"] == "5+0.1"
    assert record["players"][0]["turns"] == pvs.turns
    assert record["game_list"][0]["seconds"] == list(first.seconds)
    with pytest.raises(MatchError, match=r"clock .* give no time="):
        run_match(replace(options, players=("pvs:time=1", "random")))
    with pytest.raises(MatchError, match="pvs needs a limit"):
        run_match(replace(options, time_control=None))
    with pytest.raises(MatchError, match="time_control must be a TimeControl"):
        MatchOptions("tictactoe", ("pvs", "random"), games=2, time_control="5+0.1")  # type: ignore[arg-type]


def test_a_player_whose_time_runs_out_loses_on_time() -> None:
    # A millisecond for the game: a search stops at its least budget, 10 ms. Connect
    # Four, whose depth 9 takes longer than that (tictactoe's, solved, may not).
    options = MatchOptions(
        "connect4", ("pvs:depth=9", "random"), games=2, time_control=TimeControl(0.001)
    )
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [0, 0] and result.points == (0.0, 2.0)
    assert [g.out_of_time for g in result.games] == [0, 0]
    assert all(
        g.reason.startswith("pvs:depth=9 loses on time: its move took 0.0") for g in result.games
    )
    assert result.totals[0].forfeits == 2


def test_time_running_out_draws_when_no_other_player_can_win() -> None:
    # White has a queen, black a bare king. pvs runs out of time in both games: with
    # white's queen it is a draw (black cannot mate), with black's bare king a loss.
    options = MatchOptions(
        "chess",
        ("pvs:depth=9", "random"),
        games=2,
        openings=("4k3/8/8/8/8/8/8/3QK3 w - - 0 1",),
        time_control=TimeControl(0.001),
    )
    first, second = run_match(options).games
    assert (first.result, first.forfeit) == ("1/2-1/2", None)
    assert (second.result, second.forfeit) == ("1-0", 0)
    assert first.out_of_time == second.out_of_time == 0
    assert first.reason.startswith("pvs:depth=9 is out of time (its move took 0.0")
    assert first.reason.endswith("s left): a draw, as no other player can win")
    assert '[Termination "pvs:depth=9 is out of time' in first.record
    assert second.reason.startswith("pvs:depth=9 loses on time")


def test_records_without_clock_fields_still_read() -> None:
    record = play_game(MatchOptions("tictactoe", ("random", "random"), games=2), 1, "")
    data = json.loads(record.to_json())
    del data["seconds"], data["turns"], data["out_of_time"]
    old = GameRecord.from_json(json.dumps(data))
    assert (old.seconds, old.turns, old.moves) == ((), (), record.moves)
    assert old.out_of_time is None
