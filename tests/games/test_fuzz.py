"""Fuzzing every game's notation and ``play``: malformed input is one of plies' errors.

Hypothesis writes text from each game's own alphabet (digits, separators, squares,
words, very long numbers) and from anything at all, and feeds it to
``parse_position``, ``parse_move`` and the command line in process (``plies analyze``
and ``plies solve`` with small limits). Whatever the text, the API answers with a
state or a :class:`~plies.errors.PliesError`, and the command line exits 0 or 1
with no traceback. ``play`` gets arbitrary values: a state or IllegalMoveError /
ArgumentTypeError. (These strategies are about game notation only, so they live
here rather than in ``tests/strategies.py``.)
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.cli import main
from plies.errors import ArgumentTypeError, IllegalMoveError, PliesError
from plies.games import GAMES, get_game

NAMES = [entry.name for entry in GAMES]

#: Pieces of notation of every game, to be glued together in any order.
WORDS = [
    *"0123456789",
    ",",
    " ",
    ":",
    "/",
    "-",
    ".",
    "x",
    "o",
    "X",
    "O",
    "\t",
    "\n",
    "a1",
    "d3",
    "h8",
    "i9",
    "pass",
    "PASS",
    "roll",
    "hold",
    "r",
    "h",
    "scores",
    "total",
    "player",
    "rolling",
    "-1",
    "+3",
    "1e9",
    "0x1f",
    "٣",
    "½",
    "\x00",  # a signed, float, hex, Arabic-Indic digit
    "9" * 30,
    "9" * 5000,  # int() refuses more than 4,300 digits
    "-" * 64 + " X",
    "X" * 64 + " O",
    "x.o/.x./..o",
]

notation = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=12).map("".join),
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=40),
)

#: Values that are moves of some game or of none.
any_move: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-2, max_value=70),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["roll", "hold", "pass"]),
    st.tuples(st.integers(-2, 5), st.integers(-2, 8)),
    st.tuples(st.integers(), st.floats()),
    st.lists(st.integers(0, 3), max_size=3),
)

FUZZ = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])


def _into_the_game(game: Any, moves: int, pick: int) -> Any:
    """The state ``moves`` plies into ``game`` (fewer if it ends), playing the move or
    chance outcome at index ``pick`` each time."""
    state = game.initial_state()
    for _ in range(moves):
        if game.is_terminal(state):
            break
        if game.has_chance and game.is_chance(state):
            state = game.play(state, game.chance_outcomes(state)[pick][0])
        else:
            state = game.play(state, game.legal_moves(state)[pick])
    return state


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(text=notation)
def test_parse_position_gives_a_state_or_a_plies_error(name: str, text: str) -> None:
    game = get_game(name)
    try:
        state = game.parse_position(text)
    except PliesError:
        return
    game.legal_moves(state)  # a state that was read is a state the game can use


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(text=notation, moves=st.integers(0, 6))
def test_parse_move_gives_a_legal_move_or_a_plies_error(name: str, text: str, moves: int) -> None:
    game = get_game(name)
    state = _into_the_game(game, moves, 0)  # the first legal move each time
    try:
        move = game.parse_move(state, text)
    except PliesError:
        return
    assert move in game.legal_moves(state) or (
        game.has_chance and move in [o for o, _ in game.chance_outcomes(state)]
    )


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(move=any_move, moves=st.integers(0, 4))
def test_play_gives_a_state_or_an_illegal_move_error(name: str, move: Any, moves: int) -> None:
    game = get_game(name)
    state = _into_the_game(game, moves, -1)  # the last legal move each time
    try:
        child = game.play(state, move)
    except (IllegalMoveError, ArgumentTypeError):
        return
    # Played: then it was legal (a plain tuple may stand for a Nim move).
    legal = list(game.legal_moves(state))
    if game.has_chance and game.is_chance(state):
        legal = [outcome for outcome, _ in game.chance_outcomes(state)]
    assert move in legal and type(move) is not bool, (move, legal)
    assert child == game.play(state, legal[legal.index(move)])


CLI = settings(
    max_examples=25,
    # capsys is read (and emptied) at every example, so sharing it is safe.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _run_cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """``main(argv)`` exits 0 or 1 with nothing escaping and no traceback."""
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own exit (a usage error): one line, status 1
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert status in (0, 1), (argv, status, err)
    assert "Traceback" not in err and "Traceback" not in out
    if status == 1:
        assert err.startswith("error: ") or "\nerror: " in err, err


#: The commands that read a POSITION, each with small limits: (command, options).
POSITION_COMMANDS = [
    ("analyze", ["--depth", "1", "--nodes", "2000"]),
    ("solve", ["--nodes", "500", "--moves", "best"]),
]


@pytest.mark.parametrize(("command", "options"), POSITION_COMMANDS, ids=["analyze", "solve"])
@pytest.mark.parametrize("name", NAMES)
@CLI
@given(text=notation)
def test_position_commands_never_show_a_traceback(
    capsys: pytest.CaptureFixture[str], command: str, options: list[str], name: str, text: str
) -> None:
    _run_cli(capsys, [command, name, text, *options])


@CLI
@given(spec=st.lists(st.sampled_from([*WORDS, "=", "m", "n", "k", "width", "heaps"]), max_size=8))
def test_game_specs_never_show_a_traceback(
    capsys: pytest.CaptureFixture[str], spec: list[str]
) -> None:
    _run_cli(capsys, ["analyze", "connect4:" + "".join(spec), "--depth", "1"])


@pytest.mark.parametrize("name", NAMES)
@CLI
@given(lines=st.lists(notation.filter(lambda text: "\n" not in text), max_size=6))
def test_play_refuses_any_typed_move_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, lines: list[str]
) -> None:
    # People type anything at the prompt: each line is a move, refused, or the end.
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    _run_cli(capsys, ["play", name, "--human", "both", "--seed", "1"])
