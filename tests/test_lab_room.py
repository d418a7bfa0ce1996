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
from plies.games.chess import MISSING as CHESS_MISSING
from plies.games.mnk import MNKGame
from plies.lab._games import game_tree, read_game_tree
from plies.lab._room import MAX_MOVES, MAX_POSITION_TEXT, export_game, lab_depth

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


# -- chess and checkers on a board ------------------------------------------------------

needs_chess = pytest.mark.skipif(CHESS_MISSING is not None, reason=str(CHESS_MISSING))


def _uci(entry: dict[str, Any]) -> str:
    """A room's chess move as UCI, read from its path and promotion alone."""
    (r1, c1), (r2, c2) = entry["path"]
    squares = [f"{'abcdefgh'[c]}{8 - r}" for r, c in ((r1, c1), (r2, c2))]
    return "".join(squares) + (entry["promotion"] or "")


def _chess_state(fen: str, moves: list[str] | None = None) -> dict[str, Any]:
    return lab.room_state(lab.open_room("chess", fen, moves or []))


@needs_chess
def test_chess_moves_are_listed_with_their_squares() -> None:
    import chess

    state = _chess_state("")
    assert state["board"]["rows"][6:] == ["PPPPPPPP", "RNBQKBNR"] and state["board"]["pieces"]
    assert state["board"]["columns"] == list("abcdefgh") and state["board"]["row_labels"][0] == "8"
    assert state["players"] == ["White", "Black"] and state["legal_count"] == 20
    board = chess.Board()
    for entry in state["legal"]:  # the path alone names the move python-chess means
        assert board.san(chess.Move.from_uci(_uci(entry))) == entry["text"]
        (r, c), _ = entry["path"]
        assert state["board"]["rows"][r][c].isupper() and entry["cells"] == []
    after = _chess_state("", ["e4", "c5", "Nf3"])
    assert after["last"] == [[7, 6], [5, 5]] and after["board"]["rows"][5][5] == "N"


@needs_chess
def test_a_promotion_is_four_moves_on_one_path() -> None:
    state = _chess_state("8/P7/8/8/8/8/8/k6K w - - 0 1")
    promotions = [m for m in state["legal"] if m["path"] == [[1, 0], [0, 0]]]
    assert sorted(m["promotion"] for m in promotions) == ["b", "n", "q", "r"]
    assert {m["text"] for m in promotions} == {"a8=Q+", "a8=R+", "a8=B", "a8=N"}
    knight = lab.room_state(lab.open_room("chess", "8/P7/8/8/8/8/8/k6K w - - 0 1", ["a7a8n"]))
    assert knight["board"]["rows"][0] == "N......." and knight["moves"] == ["a8=N"]


@needs_chess
def test_castling_is_the_kings_two_square_move() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    by_text = {m["text"]: m for m in _chess_state(fen)["legal"]}
    assert by_text["O-O"]["path"] == [[7, 4], [7, 6]]
    assert by_text["O-O-O"]["path"] == [[7, 4], [7, 2]]
    castled = _chess_state(fen, ["O-O"])
    assert castled["board"]["rows"][7] == "R....RK." and castled["last"] == [[7, 4], [7, 6]]
    black = {m["text"]: m["path"] for m in castled["legal"]}
    assert black["O-O-O"] == [[0, 4], [0, 2]]


@needs_chess
def test_en_passant_lands_behind_the_pawn_it_takes() -> None:
    fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    by_text = {m["text"]: m for m in _chess_state(fen)["legal"]}
    assert by_text["exf6"]["path"] == [[3, 4], [2, 5]]
    assert "exd6" not in by_text  # d5 moved two squares long ago: no en passant
    taken = _chess_state(fen, ["exf6"])["board"]["rows"]
    assert taken[2][5] == "P" and taken[3][5] == "." and taken[3][3] == "p"


@needs_chess
def test_a_finished_chess_game_says_why() -> None:
    mated = _chess_state("", ["f3", "e5", "g4", "Qh4#"])
    assert mated["result"] == "Black wins (checkmate)" and mated["winner"] == 1
    stalemate = _chess_state("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate["result"] == "draw (stalemate)"


def _read_pgn(text: str) -> Any:
    """The game python-chess's own PGN reader reads from ``text``, checked to have no errors."""
    import io

    import chess.pgn

    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    return game


@needs_chess
def test_a_chess_game_exports_as_pgn_that_reads_back() -> None:
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "b5", "Bb3", "d5"]
    room = lab.open_room("chess", "", moves)
    game = _read_pgn(export_game(room, ["person", "plies engine (1 s)"]))
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == moves
    headers = game.headers
    assert (headers["Event"], headers["White"], headers["Black"], headers["Result"]) == (
        "plies game room",
        "person",
        "plies engine (1 s)",
        "*",
    )
    assert len(headers["Date"]) == 10 and "FEN" not in headers
    assert lab.room_state(room)["export"].startswith('[Event "plies game room"]')
    mate = _read_pgn(export_game(lab.open_room("chess", "", ["f3", "e5", "g4", "Qh4#"])))
    assert mate.headers["Result"] == "0-1" and mate.end().board().is_checkmate()


@needs_chess
def test_a_chess_game_from_a_fen_exports_its_start() -> None:
    fen = "8/P7/8/8/8/8/8/k6K w - - 0 1"
    room = lab.open_room("chess", fen, ["a8=Q+", "Kb2"])
    game = _read_pgn(export_game(room))
    assert (game.headers["SetUp"], game.headers["FEN"]) == ("1", fen)
    assert [m.uci() for m in game.mainline_moves()] == ["a7a8q", "a1b2"]
    assert game.end().board().fen() == room.game.format_position(room.state)


@needs_chess
def test_bad_names_are_refused() -> None:
    for room in (lab.open_room("chess"), lab.open_room("tictactoe")):
        for names in (["a"], ["a", 1], "ab", ["a", "x" * 61]):
            with pytest.raises(PliesError, match="two texts"):
                lab.room_state(room, names=names)
    assert lab.room_state(lab.open_room("tictactoe", "", ["5"]), names=["a", "b"])["export"] == "5"


def test_checkers_moves_are_listed_with_every_square_landed_on() -> None:
    state = lab.room_state(lab.open_room("checkers"))
    board = state["board"]
    assert board["style"] == "checkers" and board["pieces"]
    assert state["players"] == ["Black", "White"]
    assert board["rows"][:3] == ["-b-b-b-b", "b-b-b-b-", "-b-b-b-b"]
    assert board["rows"][5:] == ["w-w-w-w-", "-w-w-w-w", "w-w-w-w-"]
    assert board["numbers"][0][1] == "1" and board["numbers"][7][6] == "32"
    for entry in state["legal"]:  # the numbers under the path spell the move
        squares = [board["numbers"][r][c] for r, c in entry["path"]]
        assert "-".join(squares) == entry["text"]


def test_a_multiple_jump_lists_its_path_and_captures() -> None:
    state = lab.room_state(lab.open_room("checkers", "B:W14,22,30:B9,1"))
    assert [m["text"] for m in state["legal"]] == ["9x18x25"]  # forced, and the whole way
    (jump,) = state["legal"]
    assert jump["path"] == [[2, 1], [4, 3], [6, 1]]
    assert jump["captured"] == [[3, 2], [5, 2]]
    after = lab.room_state(lab.open_room("checkers", "B:W14,22,30:B9,1", ["9x25"]))
    assert after["last"] == jump["path"] and after["board"]["rows"][3][2] == "."


def test_two_jumps_with_the_same_ends_keep_their_own_paths() -> None:
    state = lab.room_state(lab.open_room("checkers", "B:W26,19,27,18,10,12:B15"))
    paths = {m["text"]: m["path"] for m in state["legal"]}
    assert set(paths) == {"15x22x31", "15x24x31"}
    assert paths["15x22x31"][0] == paths["15x24x31"][0] == [3, 4]
    assert paths["15x22x31"][-1] == paths["15x24x31"][-1] == [7, 4]
    assert paths["15x22x31"][1] != paths["15x24x31"][1]


def test_a_checkers_game_exports_as_pdn_that_reads_back() -> None:
    moves = ["11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8"]
    room = lab.open_room("checkers", "", moves)
    text = export_game(room, ["person", "plies engine (depth 4)"])
    head, _, body = text.partition("\n\n")
    assert '[Black "person"]' in head and '[White "plies engine (depth 4)"]' in head
    assert '[Event "plies game room"]' in head and '[GameType "21"]' in head
    assert body == "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 *\n"
    replayed = room.game.parse_position(body.removesuffix(" *\n"))
    assert replayed == room.state
    fen = "W:W14,22,30:B1,9"
    started = export_game(lab.open_room("checkers", fen, ["14x5"]))
    assert f'[FEN "{fen}"]' in started and started.endswith("1... 14x5 *\n")
    won = export_game(lab.open_room("checkers", "B:W14,22:B9", ["9x25"]))
    assert '[Result "0-1"]' in won and won.endswith("1. 9x18x25 0-1\n")


def test_the_tree_lab_draws_checkers_positions() -> None:
    tree = read_game_tree("checkers:11-15", depth=1)
    assert len(tree.pictures) == len(tree) == 8
    room = lab.room_state(lab.open_room("checkers", "", ["11-15"]))
    assert tree.pictures[0] == room["board"]["rows"]
    assert tree.pictures[0][3] == ".-.-b-.-"  # 15 is the third dark square of row 4
    assert all(len(rows) == 8 and {len(r) for r in rows} == {8} for rows in tree.pictures.values())


@needs_chess
def test_a_king_in_check_is_marked() -> None:
    assert _chess_state("")["board"]["check"] is None
    checked = _chess_state("", ["e4", "f5", "Qh5+"])
    assert checked["board"]["check"] == [0, 4]  # black's king on e8
    assert lab.room_state(lab.open_room("checkers"))["board"]["check"] is None
