"""The native port of chess: perft on the shared suite through the compiled move
generator and ``play``, every rule and hook against the Python game on positions of
random games (from the start and from the suites' FENs: moves in python-chess's order,
values, evaluations, keys, children, ordering, quiescence, null moves, extensions and
late-move reductions), repetitions, the search node for node against the Python
engine, the conformance suite, and the CLI's ``--backend native``."""

from __future__ import annotations

import ctypes
import random
from pathlib import Path
from typing import Any

import pytest

chess = pytest.importorskip("chess")
pytest.importorskip("numba")

import numpy as np  # noqa: E402  # after the skips: NumPy comes with Numba

from cli_errors import run  # noqa: E402
from engine.test_native_games import searches_agree  # noqa: E402
from plies.engine import Limits, choose_backend, fallback_reason, iterate  # noqa: E402
from plies.engine.native import _kernel  # noqa: E402
from plies.games.chess import Chess, ChessState  # noqa: E402
from plies.games.chess import _native as port_module  # noqa: E402
from plies.games.chess._eval import SEE_VALUE, exchange_value  # noqa: E402
from plies.testing import check_game  # noqa: E402

GAME = Chess()
PORT = GAME.native()
SUITES = next(
    (
        parent / "shared" / "chess-testsuites"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "chess-testsuites").is_dir()
    ),
    Path("shared") / "chess-testsuites",
)
POINTER = ctypes.POINTER(ctypes.c_int64)


def perft_rows() -> list[tuple[str, dict[int, int]]]:
    path = SUITES / "perftsuite-126.epd"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    rows = []
    for line in path.read_text().splitlines():
        fen, *fields = line.split(" ;")
        rows.append((fen, {int(f.split()[0][1:]): int(f.split()[1]) for f in fields}))
    return rows


def suite_fens(name: str) -> list[str]:
    path = SUITES / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    if name.startswith("perft"):
        return [line.split(" ;")[0] for line in path.read_text().splitlines()]
    # EPD: the first four fields are the position.
    return [" ".join(line.split()[:4]) for line in path.read_text().splitlines() if line.strip()]


def native_perft(state: ChessState, depth: int) -> int:
    prepared = PORT.prepare(state)
    states = np.zeros((depth + 1, prepared.state.size), np.int64)
    states[0] = prepared.state
    moves = np.zeros((depth + 1, prepared.max_moves), np.int64)
    return int(port_module.perft(PORT.rules(), prepared.consts, states, moves, 0, depth))


def test_perft_suite_to_depth_4() -> None:
    """Every count of the 126 positions to depth 4 (at most 5 million leaves each)."""
    checked = 0
    for fen, counts in perft_rows():
        state = GAME.parse_position(fen)
        for depth in range(1, 5):
            if counts.get(depth, 10**9) <= 5_000_000:
                assert native_perft(state, depth) == counts[depth], (fen, depth)
                checked += 1
    assert checked > 480


def test_perft_suite_deeper() -> None:
    """Depths 5 and 6 where the count is at most 40 million (slow-listed)."""
    checked = 0
    for fen, counts in perft_rows():
        state = GAME.parse_position(fen)
        for depth in (5, 6):
            if counts.get(depth, 10**12) <= 40_000_000:
                assert native_perft(state, depth) == counts[depth], (fen, depth)
                checked += 1
    assert checked > 100


class Rules:
    """The port's rules called one by one on encoded states (through ctypes)."""

    def __init__(self, game: Chess) -> None:
        self.game = game
        self.port = game.native()
        self.prepared = self.port.prepare(game.initial_state())
        self.rules = self.port.rules()
        self.consts = self.prepared.consts
        self.moves = np.zeros(port_module.MAX_MOVES, np.int64)
        self.kept = np.zeros(port_module.MAX_MOVES, np.int64)
        self.numbers = np.zeros(5)

    def decode(self, moves: Any) -> list[chess.Move]:
        return [self.port.decode_move(self.prepared, int(m)) for m in moves]

    def call(self, name: str, *args: Any) -> Any:
        converted = [
            a.ctypes.data_as(POINTER) if isinstance(a, np.ndarray) else a
            for a in (self.consts, *args)
        ]
        return getattr(self.port, name).ctypes(*converted)

    def check(self, state: ChessState) -> list[chess.Move]:
        """Every rule against the Python game at ``state``; its legal moves."""
        game, port = self.game, self.port
        encoded = port.encode(self.prepared, state)
        _kernel.describe(self.rules, self.consts, encoded, self.moves, self.kept, self.numbers)
        count = int(self.numbers[0])
        legal = list(game.legal_moves(state))
        assert self.decode(self.moves[:count]) == legal, state.board.fen()
        if legal:
            assert legal == list(state.board.legal_moves)
        outcome = game.terminal_value(state)
        assert (None if np.isnan(self.numbers[1]) else self.numbers[1]) == outcome
        assert self.numbers[2] == game.evaluate(state, game.to_move(state))
        ordered = self.moves[:count].copy()
        self.call("order_moves", encoded, ordered, count)
        assert self.decode(ordered) == game.order_moves(state, legal)
        if outcome is None:
            noisy = np.zeros(port_module.MAX_MOVES, np.int64)
            found = self.call("quiescence_moves", encoded, noisy)
            assert self.decode(noisy[:found]) == game.quiescence_moves(state)
        assert self.call("extension", encoded) == game.extension(state)
        child = np.zeros_like(encoded)
        passed = game.null_move(state)
        assert self.call("null_move", encoded, child) == (passed is not None)
        if passed is not None:
            assert list(child) == list(port.encode(self.prepared, passed))
        for move in legal:
            move_id = port.encode_move(self.prepared, move)
            assert port.decode_move(self.prepared, move_id) == move
            assert 0 <= move_id < self.prepared.move_space
            assert self.call("is_quiet", encoded, move_id) == game.is_quiet(state, move)
            child = np.zeros_like(encoded)  # the history's unused part stays 0
            _kernel.play_move(self.rules, self.consts, encoded, move_id, child)
            assert list(child) == list(port.encode(self.prepared, game.play(state, move)))
        return legal


#: What the random games reached (asserted on: the rules met these cases).
REACHED = {
    "repeated": 0,
    "check": 0,
    "passed": 0,
    "exchange won": 0,
    "exchange lost": 0,
    "quiet check": 0,
    "discovered check": 0,
}


def count_checks(state: ChessState) -> None:
    """Count the quiet moves (``is_quiet`` asks the native ``gives_check``) that give
    check, and those whose check is discovered (the moved piece is not a checker)."""
    board = state.board
    for move in board.legal_moves:
        if board.is_capture(move) or move.promotion or not board.gives_check(move):
            continue
        REACHED["quiet check"] += 1
        board.push(move)
        REACHED["discovered check"] += move.to_square not in board.checkers()
        board.pop()


def count_exchanges(state: ChessState) -> None:
    """Count the captures of a lesser piece on a defended square that the exchange
    evaluation keeps in the quiescence search, and those it drops."""
    board = state.board
    if state.in_check():
        return
    for move in board.generate_legal_captures():
        victim = board.piece_type_at(move.to_square) or chess.PAWN
        attacker = board.piece_type_at(move.from_square) or chess.PAWN
        lesser = SEE_VALUE[victim] < SEE_VALUE[attacker] and not move.promotion
        if lesser and board.is_attacked_by(not board.turn, move.to_square):
            won = exchange_value(board, move) >= 0
            REACHED["exchange won" if won else "exchange lost"] += 1


def random_game(rules: Rules, start: ChessState, rng: random.Random, plies: int) -> int:
    """Play up to ``plies`` random moves from ``start``, every state checked; knight
    and king moves back and forth half the time, so that positions repeat."""
    state = start
    keys: dict[int, Any] = {}
    python_keys: dict[Any, int] = {}
    for _ in range(plies):
        legal = rules.check(state)
        native_key = int(
            _kernel.describe(
                rules.rules,
                rules.consts,
                rules.port.encode(rules.prepared, state),
                rules.moves,
                rules.kept,
                rules.numbers,
            )
        )
        assert keys.setdefault(native_key, state.key()) == state.key()
        assert python_keys.setdefault(state.key(), native_key) == native_key
        REACHED["repeated"] += bool(state.repeated())
        REACHED["check"] += state.in_check()
        REACHED["passed"] += rules.game.null_move(state) is not None
        count_exchanges(state)
        count_checks(state)
        if not legal:
            break
        quiet = [
            m
            for m in legal
            if state.board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING)
            and not state.board.is_capture(m)
        ]
        state = GAME.play(state, rng.choice(quiet if quiet and rng.random() < 0.5 else legal))
    return len(keys)


@pytest.mark.parametrize("options", [{}, {"null_move": 0, "reductions": 1}])
def test_rules_agree_along_random_games(options: dict[str, int]) -> None:
    rules = Rules(Chess(**options))
    rng = random.Random(7)
    seen = 0
    REACHED.update(dict.fromkeys(REACHED, 0))
    for _ in range(6):
        seen += random_game(rules, rules.game.initial_state(), rng, 120)
    assert seen > 300
    assert REACHED["repeated"] > 5 and REACHED["check"] > 5, REACHED
    assert (REACHED["passed"] > 5) == rules.game.use_null_move, REACHED
    assert REACHED["repeated"] > 5 and REACHED["check"] > 5, REACHED
    assert (REACHED["passed"] > 5) == rules.game.use_null_move, REACHED


@pytest.mark.parametrize("suite", ["perftsuite-126.epd", "wac-300.epd"])
def test_rules_agree_from_the_suites(suite: str) -> None:
    rules = Rules(Chess(reductions=1))
    rng = random.Random(11)
    fens = suite_fens(suite)
    REACHED.update(dict.fromkeys(REACHED, 0))
    for fen in rng.sample(fens, 40):
        random_game(rules, GAME.parse_position(fen), rng, 12)
    # Quiescence kept and dropped captures of defended lesser pieces, both engines.
    assert REACHED["exchange won"] > 2 and REACHED["exchange lost"] > 2, REACHED
    # Quiet checks, discovered ones among them, met both engines' is_quiet.
    assert REACHED["quiet check"] > 20 and REACHED["discovered check"] > 2, REACHED


def test_repetitions_and_the_fifty_move_rule() -> None:
    rules = Rules(GAME)
    shuffle = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
    state = GAME.parse_position(shuffle)
    assert GAME.terminal_value(state) == 0.0
    for plies in range(len(shuffle.split()) + 1):
        line = GAME.parse_position(" ".join(shuffle.split()[:plies]))
        rules.check(line)
    # A FEN with its past: the repeated set is the Python key's.
    twice = GAME.parse_position("8/8/4k3/8/8/4K3/8/R7 w - - 90 80 moves Kd3 Kd6 Ke3 Ke6 Kd3")
    rules.check(twice)
    for fen in ("8/8/4k3/8/8/4K3/8/R7 w - - 99 80", "7k/8/6Q1/8/8/8/8/K7 w - - 99 80"):
        random_game(rules, GAME.parse_position(fen), random.Random(3), 3)


def test_en_passant_only_counts_when_legal() -> None:
    rules = Rules(GAME)
    for text in (
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",  # dxe3 legal
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",  # bxc6 would expose the king
        "8/8/3k4/8/2pP4/8/B7/4K3 b - d3 0 1",  # in check by the pawn: cxd3 evades
    ):
        state = GAME.parse_position(text)
        rules.check(state)


def test_move_ids_are_a_bijection() -> None:
    prepared = PORT.prepare(GAME.initial_state())
    ids = set()
    for origin in range(64):
        for target in range(64):
            for promotion in (None, 2, 3, 4, 5):
                move = chess.Move(origin, target, promotion)
                move_id = PORT.encode_move(prepared, move)
                assert PORT.decode_move(prepared, move_id) == move
                ids.add(move_id)
    assert len(ids) == 64 * 64 * 5 and max(ids) < prepared.move_space


def test_positions_the_port_refuses() -> None:
    board = chess.Board(chess960=True)
    assert "Chess960" in (PORT.problem(GAME.state_of(board)) or "")
    state = GAME.parse_position("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
    assert "restricted" in (PORT.problem(GAME.unclaimed(state)) or "")
    start = GAME.initial_state()
    some = GAME.restricted(start, [chess.Move.from_uci("e2e4")])
    assert "restricted" in (PORT.problem(some) or "")
    assert PORT.problem(start) is None
    assert choose_backend(GAME, task="search", state=start) == "native"
    # Solving chess exactly is out of reach on either backend: the port searches only.
    assert choose_backend(GAME, task="solve", state=start) == "python"
    assert fallback_reason(GAME, some, "search") is not None


def wac_positions(count: int) -> list[ChessState]:
    return [GAME.parse_position(fen) for fen in suite_fens("wac-300.epd")[:count]]


@pytest.mark.parametrize("options", [{"null_move": 0, "reductions": 0}, {}, {"reductions": 1}])
def test_search_agrees_node_for_node_on_wac(options: dict[str, int]) -> None:
    game = Chess(**options)
    for state in wac_positions(6):
        searches_agree(game, state, limits=Limits(depth=3))


@pytest.mark.parametrize("options", [{}, {"reductions": 1}])
def test_search_agrees_deeper_on_wac(options: dict[str, int]) -> None:
    """Depth 5 on 20 positions: null moves, checks extended and (with reductions)
    late moves reduced as the Python engine does them (slow-listed)."""
    game = Chess(**options)
    for state in wac_positions(20)[::2]:
        searches_agree(game, state, limits=Limits(depth=5))


# (WAC number, iteration, its move, the iteration before's): the best move changes
# at that iteration (native, measured).
CHANGES = [(3, 2, "Rg3", "Re4"), (7, 4, "Ne3", "Nxe5")]


@pytest.mark.parametrize(("number", "depth", "move", "before"), CHANGES)
def test_a_stopped_iteration_plays_the_move_it_proved(
    number: int, depth: int, move: str, before: str
) -> None:
    """Stopped one node before the iteration ends, both engines play the root move
    the unfinished iteration proved better (its depth, cut short), not the last
    completed iteration's."""
    state = wac_positions(number)[-1]
    full = iterate(GAME, state, limits=Limits(depth=depth), backend="native")
    *_, previous, last = full
    assert GAME.format_move(state, previous.best_move) == before
    assert GAME.format_move(state, last.best_move) == move
    native, _ = searches_agree(GAME, state, limits=Limits(nodes=last.stats.nodes - 1))
    assert GAME.format_move(state, native.best_move) == move
    assert (native.depth, native.completed) == (depth, False)
    assert native.pv[0] == native.best_move


def test_search_agrees_along_random_games() -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = GAME.initial_state()
        for _ in range(rng.randint(0, 60)):
            if GAME.is_terminal(state):
                break
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        if not GAME.is_terminal(state):
            searches_agree(GAME, state, limits=Limits(depth=2 + seed % 2))


def test_conformance_compares_the_port() -> None:
    report = check_game(GAME, playouts=1, seed=3)
    assert report.native_states > 100


def test_cli_backend_native(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {}
    for backend in ("native", "python"):
        status, out, _ = run(
            capsys, "analyze", "chess", "e4 e5 Nf3", "--depth", "3", "--backend", backend
        )
        assert status == 0, out
        outputs[backend] = [line.split(" pv ")[1] for line in out.splitlines() if " pv " in line]
    assert outputs["native"] == outputs["python"] and outputs["native"]
