"""plies against the Python game-search libraries people use: easyAI, aima3, OpenSpiel.

    python benchmarks/peers.py [--depths 6 8 10] [--timeout 120] [--keep]

Creates a throwaway virtual environment in a temporary folder, installs ``easyai``,
``aima3`` and ``open-spiel`` from PyPI into it (a package that does not install is
reported and left out), and runs the same tasks side by side in one run:

(a) solve tic-tac-toe from the empty board (a full-depth search for the best move);
(b) Connect Four 7x6 from the empty board at depths 6, 8 and 10, every engine with the
    same centre-weighted evaluation: the sum, over the side's stones, of the number of
    four-in-a-row lines through each stone's cell (the 3 4 5 7 5 4 3 table), minus the
    same for the opponent; a won game scores beyond any such sum.

Every peer runs in its own process (the throwaway environment's Python with a small
driver script written next to it); plies runs in this process. Nodes are the states
each engine visits: the root plus every state it creates by playing a move (counted by
wrapping the engine's move function; plies counts them itself). Times are wall-clock
seconds of the search call alone. Ratios are peer / plies (above 1: plies better).

Every engine is warmed first: it runs the task once, untimed, then again, timed (the
nodes and seconds of the tables are the second run's). The first run's extra time is
the engine's *load*, reported in its own column: importing what the search calls
first, and for plies loading its compiled kernel (a fresh process's first native
search; the first run on a machine compiles it). ``import`` is the seconds a peer's
driver spent importing its engine before its first run (plies' engine was imported
with this script). The machine's load average is printed at the start and the end:
on a shared machine, compare runs made under the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plies.engine import Limits, search, solve
from plies.game import BaseGame
from plies.games.connect4 import Connect4, Connect4State
from plies.games.mnk import MNKGame

PACKAGES = ("easyai", "aima3", "open-spiel")

#: Four-in-a-row lines through each cell of the 7x6 board (row 0 = bottom).
WEIGHTS = (
    (3, 4, 5, 7, 5, 4, 3),
    (4, 6, 8, 10, 8, 6, 4),
    (5, 8, 11, 13, 11, 8, 5),
    (5, 8, 11, 13, 11, 8, 5),
    (4, 6, 8, 10, 8, 6, 4),
    (3, 4, 5, 7, 5, 4, 3),
)


class CentreWeightedConnect4(Connect4):
    """plies' bitboard Connect Four with the benchmark's evaluation (WEIGHTS)."""

    def __init__(self) -> None:
        super().__init__(7, 6)
        # Split the weights into binary digits: one mask per digit, so the weighted
        # stone count is a few popcounts (the same trick as Connect4.heuristic).
        masks = []
        for bit in range(4):
            mask = 0
            for row in range(6):
                for col in range(7):
                    if WEIGHTS[row][col] >> bit & 1:
                        mask |= 1 << (col * 7 + row)
            masks.append(mask)
        self._m0, self._m1, self._m2, self._m3 = masks

    def evaluate(self, state: Connect4State, player: int) -> float:
        """Weighted stones of ``player`` minus the opponent's.

        Unrolled, and ``own - other`` as ``2 * own - all``: 0.66 us instead of 1.5 us
        for the loop over the masks (the same value).
        """
        own = state.position
        both = state.mask
        m0, m1, m2, m3 = self._m0, self._m1, self._m2, self._m3
        score = (
            (own & m0).bit_count() * 2
            - (both & m0).bit_count()
            + (((own & m1).bit_count() * 2 - (both & m1).bit_count()) << 1)
            + (((own & m2).bit_count() * 2 - (both & m2).bit_count()) << 2)
            + (((own & m3).bit_count() * 2 - (both & m3).bit_count()) << 3)
        )
        return float(score if state.ply & 1 == player else -score)


DRIVER = textwrap.dedent(
    """
    import json, sys, time

    WEIGHTS = %(weights)r
    started_driver = time.perf_counter()
    task, engine, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    nodes = [1]
    ROOT = 1  # the root, counted by the engines whose move function is wrapped


    def report(run):
        # Run twice (warm-up, then timed); print the timed run with the first
        # run's extra seconds (the load) and the import seconds.
        imported = time.perf_counter() - started_driver
        timings = []
        for _ in range(2):
            nodes[0] = ROOT
            started = time.perf_counter()
            move = run()
            timings.append(time.perf_counter() - started)
        first, seconds = timings
        print(json.dumps({"nodes": nodes[0], "seconds": seconds, "move": str(move),
                          "load": max(first - seconds, 0.0), "import": imported}))


    if engine.startswith("easyai"):
        from easyAI import Negamax
        from easyAI.AI import TranspositionTable
        from easyAI.games import ConnectFour, TicTacToe

        base = TicTacToe if task == "tictactoe" else ConnectFour

        import numpy as np

        class Counted(base):
            def make_move(self, move):
                nodes[0] += 1
                return super().make_move(move)

            def ttentry(self):  # the key easyAI's transposition table asks for
                return (str(self.board), self.current_player)

        weights = np.array(WEIGHTS)

        def c4_score(game):
            if game.lose():
                return -1000
            board = game.board  # numpy, row 0 = bottom; players 1 and 2
            mine = int((weights * (board == game.current_player)).sum())
            return mine - int((weights * (board == game.opponent_index)).sum())

        scoring = (lambda g: -100 if g.lose() else 0) if task == "tictactoe" else c4_score

        def run():
            table = TranspositionTable() if engine == "easyai-tt" else None
            return Negamax(depth, scoring, tt=table)(Counted([None, None]))

        report(run)

    elif engine.startswith("aima3"):
        from aima3 import games

        base = games.TicTacToe if task == "tictactoe" else games.ConnectFour

        class Counted(base):
            def result(self, state, move):
                nodes[0] += 1
                return super().result(state, move)

        def run():
            game = Counted()
            state = game.initial
            if task == "tictactoe" and engine == "aima3-minimax":
                return games.minimax_decision(state, game)
            if task == "tictactoe":
                return games.alphabeta_search(state, game)
            player = game.to_move(state)

            def evaluation(s):
                if s.utility != 0:  # utility is +1 if X won, -1 if O won
                    return 1000 * s.utility * (1 if player == "X" else -1)
                score = 0
                for (x, y), mark in s.board.items():
                    weight = WEIGHTS[y - 1][x - 1]
                    score += weight if mark == player else -weight
                return score

            # Its depth counts from 1 at the root's children and evaluates past d.
            return games.alphabeta_cutoff_search(state, game, d=depth - 1, eval_fn=evaluation)

        report(run)

    elif engine.startswith("open_spiel"):
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import minimax

        original = minimax._alpha_beta

        def counted(state, *args, **kwargs):
            nodes[0] += 1
            return original(state, *args, **kwargs)

        minimax._alpha_beta = counted
        ROOT = 0  # the wrapper counts the root too
        weights = np.array(WEIGHTS, dtype=float)
        game = pyspiel.load_game("tic_tac_toe" if task == "tictactoe" else "connect_four")

        def evaluation(state):
            # Terminal returns are +-1 here, so scale the weights below 1.
            planes = np.array(state.observation_tensor(0)).reshape(3, 6, 7)
            return float((planes[0] * weights).sum() - (planes[1] * weights).sum()) / 1000

        def run():
            if task == "tictactoe":
                return minimax.alpha_beta_search(game, maximum_depth=9)[1]
            return minimax.alpha_beta_search(
                game, value_function=evaluation, maximum_depth=depth, maximizing_player_id=0
            )[1]

        report(run)
    """
)

#: (task, engine) pairs run in the throwaway environment, with the package they need.
PEER_RUNS = {
    "tictactoe": (
        ("easyai", "easyai"),
        ("easyai-tt", "easyai"),
        ("aima3-alphabeta", "aima3"),
        ("aima3-minimax", "aima3"),
        ("open_spiel", "open-spiel"),
    ),
    "connect4": (
        ("easyai", "easyai"),
        ("easyai-tt", "easyai"),
        ("aima3", "aima3"),
        ("open_spiel", "open-spiel"),
    ),
}


def make_environment(folder: Path) -> tuple[Path, list[str]]:
    """Create the throwaway venv; install each package; return python and the installed."""
    print(f"creating a throwaway environment in {folder} ...", flush=True)
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    installed = []
    for package in PACKAGES:
        started = time.perf_counter()
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", package],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
        if done.returncode == 0:
            installed.append(package)
            print(f"  installed {package} ({seconds:.0f} s)", flush=True)
        else:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"  {package} did NOT install, left out: {last}", flush=True)
    return python, installed


def run_peer(
    python: Path, driver: Path, task: str, engine: str, *, depth: int, timeout: float
) -> dict[str, Any] | str:
    """Run one peer search in its own process; a dict, or the reason it has none."""
    try:
        done = subprocess.run(
            [str(python), str(driver), task, engine, str(depth)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"over {timeout:g} s"
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def warmed(run: Callable[[], tuple[int, str]]) -> dict[str, Any]:
    """Time ``run`` (returning its nodes and move) twice, as the peers' driver does:
    the second run's nodes and seconds, and the first run's extra seconds as ``load``."""
    timings = []
    for _ in range(2):
        started = time.perf_counter()
        nodes, move = run()
        timings.append(time.perf_counter() - started)
    first, seconds = timings
    return {"nodes": nodes, "seconds": seconds, "move": move, "load": max(first - seconds, 0.0)}


def plies_tictactoe() -> dict[str, Any]:
    """plies solving tic-tac-toe from the empty board."""
    game = MNKGame()

    def run() -> tuple[int, str]:
        solved = solve(game, game.initial_state())
        return solved.stats.nodes, str(solved.best_move + 1)

    return warmed(run)


class CentreWeightedConnect4NoHooks(CentreWeightedConnect4):
    """The same without the solver hooks (immediate wins, forced moves): fewer calls
    per node, more nodes: the engine's raw speed."""

    winning_move = BaseGame.winning_move
    forced_moves = BaseGame.forced_moves


def plies_connect4(depth: int, *, hooks: bool = True) -> dict[str, Any]:
    """plies (PVS, default options) on the empty Connect Four board at ``depth``."""
    game = CentreWeightedConnect4() if hooks else CentreWeightedConnect4NoHooks()

    def run() -> tuple[int, str]:
        result = search(game, game.initial_state(), limits=Limits(depth=depth))
        return result.stats.nodes, str(result.best_move)

    return warmed(run)


def print_rows(title: str, rows: list[tuple[str, dict[str, Any] | str]]) -> None:
    """One table: engine, nodes, seconds (warm), nodes/s and ratios against plies,
    then the first run's extra seconds (load) and a peer's import seconds."""
    print(f"\n{title}")
    print(
        f"  {'engine':<18}{'nodes':>10}{'seconds':>10}{'nodes/s':>10}{'x nodes':>9}"
        f"{'x time':>9}{'load':>8}{'import':>8}"
    )
    plies_row = rows[0][1]
    assert isinstance(plies_row, dict)
    for engine, row in rows:
        if isinstance(row, str):
            print(f"  {engine:<18}{row}")
            continue
        nps = row["nodes"] / row["seconds"] if row["seconds"] else 0.0
        node_ratio = row["nodes"] / plies_row["nodes"]
        time_ratio = row["seconds"] / plies_row["seconds"]
        imported = f"{row['import']:>8.3f}" if "import" in row else f"{'-':>8}"
        print(
            f"  {engine:<18}{row['nodes']:>10}{row['seconds']:>10.3f}{nps:>10,.0f}"
            f"{node_ratio:>9.2f}{time_ratio:>9.2f}{row['load']:>8.3f}{imported}"
            f"   move {row['move']}"
        )


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, with its core count."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def best_peer(rows: list[tuple[str, dict[str, Any] | str]], field: str) -> float | None:
    """The smallest ``field`` among the peers that finished."""
    values = [
        row[field]
        for engine, row in rows[1:]
        if isinstance(row, dict) and not engine.startswith("plies")
    ]
    return min(values) if values else None


def main() -> int:
    """Install the peers, run the tasks, print the tables and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per peer run")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway folder")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="plies-peers-"))
    try:
        python, installed = make_environment(folder)
        driver = folder / "driver.py"
        driver.write_text(DRIVER % {"weights": WEIGHTS})
        print(f"python {sys.version.split()[0]}; each peer run in its own process")
        print(f"load average at the start: {load_average()}")

        rows: list[tuple[str, dict[str, Any] | str]] = [("plies (solve)", plies_tictactoe())]
        for engine, package in PEER_RUNS["tictactoe"]:
            if package in installed:
                peer = run_peer(python, driver, "tictactoe", engine, depth=9, timeout=args.timeout)
                rows.append((engine, peer))
        print_rows("(a) tic-tac-toe from the empty board, full depth", rows)
        ttt_nodes, ttt_time = best_peer(rows, "nodes"), best_peer(rows, "seconds")
        plies_ttt = rows[0][1]
        assert isinstance(plies_ttt, dict)

        summary = []
        if ttt_nodes is not None and ttt_time is not None:
            summary.append(
                f"tic-tac-toe: plies {plies_ttt['nodes']} nodes vs fewest peer {ttt_nodes} "
                f"(target: fewer) -> {'met' if plies_ttt['nodes'] < ttt_nodes else 'MISSED'}; "
                f"{ttt_time / plies_ttt['seconds']:.1f}x faster than the fastest peer "
                f"(target 3x) -> {'met' if ttt_time >= 3 * plies_ttt['seconds'] else 'MISSED'}"
            )
        for depth in args.depths:
            rows = [
                ("plies (pvs)", plies_connect4(depth)),
                ("plies (no hooks)", plies_connect4(depth, hooks=False)),
            ]
            for engine, package in PEER_RUNS["connect4"]:
                if package in installed:
                    peer = run_peer(
                        python, driver, "connect4", engine, depth=depth, timeout=args.timeout
                    )
                    rows.append((engine, peer))
            print_rows(f"(b) Connect Four 7x6 from the empty board, depth {depth}", rows)
            plies_row, raw_row = rows[0][1], rows[1][1]
            assert isinstance(plies_row, dict) and isinstance(raw_row, dict)
            fastest = best_peer(rows, "seconds")
            nps = plies_row["nodes"] / plies_row["seconds"]
            raw_nps = raw_row["nodes"] / raw_row["seconds"]
            line = (
                f"connect4 depth {depth}: plies {nps:,.0f} nodes/s ({raw_nps:,.0f} without "
                "the hooks; target 200,000)"
            )
            if fastest is not None:
                line += f", {fastest / plies_row['seconds']:.1f}x faster than the fastest peer"
                if depth == 8:
                    met = fastest >= 5 * plies_row["seconds"]
                    line += f" (target 5x) -> {'met' if met else 'MISSED'}"
            summary.append(line)
        print("\nsummary")
        for line in summary:
            print(f"  {line}")
        print(f"  load average at the end: {load_average()}")
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
