"""Game positions as explicit trees: the lab's searches agree with the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_errors import assert_one_line_error, run
from plies.engine import solve
from plies.errors import LimitError, PliesError
from plies.games import parse_game_spec
from plies.lab import game_tree, read_game_tree
from plies.lab._games import split_game_position
from plies.trees import alphabeta, minimax


@pytest.mark.parametrize(
    ("text", "spec", "position"),
    [
        ("tictactoe", "tictactoe", ""),
        ("tictactoe:5 1 9", "tictactoe", "5 1 9"),
        ("connect4:width=6,height=5:4453", "connect4:width=6,height=5", "4453"),
        ("mnk:m=4,n=4,k=3", "mnk:m=4,n=4,k=3", ""),
        ("nim:3,4,5", "nim", "3,4,5"),
    ],
)
def test_game_and_position_are_told_apart(text: str, spec: str, position: str) -> None:
    assert split_game_position(text) == (spec, position)


@settings(max_examples=25)
@given(st.permutations(range(1, 10)), st.integers(3, 6))
def test_tictactoe_trees_agree_with_the_exact_solver(cells: list[int], played: int) -> None:
    game = parse_game_spec("tictactoe")
    state = game.initial_state()
    for cell in cells[:played]:
        if game.is_terminal(state):
            break
        state = game.play(state, game.parse_move(state, str(cell)))
    tree = game_tree(game, state, depth=9)
    solved = solve(game, state)
    expected = {"win": 1, "draw": 0, "loss": -1}[solved.result]
    assert minimax(tree).value == expected
    assert alphabeta(tree).value == expected


def test_moves_label_the_nodes() -> None:
    game = parse_game_spec("tictactoe")
    state = game.parse_position("5 1 9 2")
    tree = game_tree(game, state, depth=1)
    moves = [game.format_move(state, m) for m in game.legal_moves(state)]
    assert sorted(moves) == ["3", "4", "6", "7", "8"]
    assert [tree.label[c] for c in tree.children[0]] == moves
    assert [tree.move[c] for c in tree.children[0]] == moves


def test_chance_games_make_chance_nodes() -> None:
    tree = read_game_tree("pig", depth=2)
    assert "chance" in tree.kind
    assert abs(sum(tree.probability[c] or 0 for c in tree.children[1]) - 1) < 1e-9


def test_a_tree_too_large_is_refused_before_it_is_built() -> None:
    with pytest.raises(LimitError, match="smaller depth"):
        read_game_tree("connect4", depth=12, max_nodes=10_000)


@pytest.mark.parametrize("depth", [-1, 1.5, True])
def test_the_depth_is_a_whole_number(depth: object) -> None:
    with pytest.raises(PliesError):
        read_game_tree("tictactoe", depth=depth)  # type: ignore[arg-type]


def test_plies_tree_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", "--game", "tictactoe:5 1 9 2", "--depth", "1", "--json")
    assert status == 0
    assert '"path_labels":["3"]' in out


@pytest.mark.parametrize(
    "argv",
    [
        ["tree", "--game", "shogi"],
        ["tree", "--game", "tictactoe:5 5"],
        ["tree", "--game", "connect4", "--depth", "30"],
        ["tree", "--game", "tictactoe", "[1,2]"],
    ],
)
def test_bad_game_trees_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, argv)


def test_boards_are_drawn_under_their_nodes() -> None:
    from xml.etree import ElementTree as ET

    from plies import draw

    tree = read_game_tree("tictactoe:5 1 9 2", depth=1)
    assert tree.pictures[0] == ["oo.", ".x.", "..x"]
    svg = ET.fromstring(draw.to_svg(alphabeta(tree)))
    ns = {"s": "http://www.w3.org/2000/svg"}
    rows = [t.text for t in svg.iterfind(".//s:g[@id='n0']/s:text[@class='pic']/s:tspan", ns)]
    assert rows == ["oo.", ".x.", "..x"]
    # Every edge leaves its parent below the parent's board.
    root_board = svg.find(".//s:g[@id='n0']/s:text[@class='pic']", ns)
    assert root_board is not None
    last_row_y = max(float(t.get("y", 0)) for t in root_board)
    for edge in svg.iterfind(".//s:g[@class='edge']/s:line", ns):
        assert float(edge.get("y1", 0)) > last_row_y


def test_games_without_a_board_have_no_pictures() -> None:
    assert read_game_tree("nim:2,2", depth=2).pictures == {}
    board = read_game_tree("connect4:44", depth=1).pictures[1]  # 4 4, then 4 again
    assert (len(board), board[-3:]) == (6, ["...X...", "...O...", "...X..."])


def test_boards_go_into_graphviz_drawings_too() -> None:
    from plies import draw

    tree = read_game_tree("tictactoe:5 1 9 2", depth=1)
    dot = draw.to_dot(alphabeta(tree))
    assert 'xlabel=<<FONT FACE="DejaVu Sans Mono" POINT-SIZE="8">oo.<BR/>.x.<BR/>..x</FONT>>' in dot
    assert "n0.center) {oo.\\\\.x.\\\\..x};" in draw.to_tikz(alphabeta(tree))


def test_tree_sizes_are_estimated_before_building() -> None:
    from plies.games import get_game
    from plies.lab._games import estimated_nodes, game_tree

    game = get_game("tictactoe")
    start = game.initial_state()
    # Uniform down to depth 4 (nobody has three in a row yet): the estimate is exact.
    assert estimated_nodes(game, start, depth=4) == len(game_tree(game, start, depth=4))
    # Ragged (games end): near the truth.
    exact = len(game_tree(game, game.parse_position("5 1"), depth=7))
    assert 0.5 < estimated_nodes(game, game.parse_position("5 1"), depth=7) / exact < 2
    connect4 = get_game("connect4")
    assert estimated_nodes(connect4, connect4.initial_state(), depth=30) > 1e20
