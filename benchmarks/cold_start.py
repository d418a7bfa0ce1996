"""Benchmark: what one native search or solve costs in a fresh ``plies`` process.

    python benchmarks/cold_start.py [--rounds 5] [--repeat 5] [--numba]

Runs each command below as a new process, the commands interleaved round after round
(a shared machine's speed drifts), and keeps each command's best wall time and least
peak memory (the child's ``ru_maxrss``). Beside them: the search's own time and nodes
as its ``--json`` reports them, the start-up (wall time less the search's time: the
interpreter, the imports, Numba loading the compiled code, the table), and the ratio
of that one call's nodes per second to the warm figure, measured here as
``benchmarks/native_games.py`` does: the same search in this process, after a
warm-up, best of ``--repeat`` runs or of as many as fit in half a second, on the
thread's reused table.

With ``--numba``, each command also runs with plies' object cache off
(``PLIES_OBJECT_CACHE=0``: Numba loads the kernel, as before the cache), labelled
``[numba]``, interleaved with the others. The object cache must exist for the first
figures (any earlier native search or solve of the game on this machine wrote it);
its rows then load no Numba (see ``plies.engine.native._objload``): Connect Four's
solve maps Pons' kernel, the searches map the generic kernel
(``plies.engine.native._mapped``) and the port's rules (Othello, m,n,k, Connect
Four, Rolit, Chinese Checkers, Nim; chess and checkers still import Numba).

The targets printed are issue 30's: at most 0.15 s of start-up beyond the search, a
process that solves one easy position under 80 MB, and a single call reaching at least
half the warm nodes per second on searches of 50,000 nodes or more.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from plies.engine import Limits, search, solve
from plies.games import parse_game_spec

#: Seconds of warm runs each command's warm figure gets at least.
MIN_SECONDS = 0.5
#: Start-up beyond the search a fresh process may cost (issue 30).
START_UP_TARGET = 0.15
#: Peak memory of a process that solves one easy position (issue 30), in MB.
MEMORY_TARGET_MB = 80
#: A single call reaches at least this share of the warm nodes per second...
SPEED_TARGET = 0.5
#: ... on searches of at least this many nodes.
SPEED_TARGET_NODES = 50_000


class Command(NamedTuple):
    """One command: the ``plies`` arguments, and the same call made in this process."""

    label: str
    arguments: tuple[str, ...]
    game: str
    position: str
    depth: int | None  # None: a solve


COMMANDS = (
    Command(
        "solve connect4 32164625",
        ("solve", "connect4", "32164625", "--json"),
        "connect4",
        "32164625",
        None,
    ),
    Command(
        "analyze othello depth 10",
        ("analyze", "othello", "--depth", "10", "--backend", "native", "--json"),
        "othello",
        "",
        10,
    ),
    Command(
        "analyze connect4 depth 12",
        ("analyze", "connect4", "--depth", "12", "--backend", "native", "--json"),
        "connect4",
        "",
        12,
    ),
    Command(
        "analyze mnk 5,5,4 depth 8",
        ("analyze", "mnk:m=5,n=5,k=4", "--depth", "8", "--backend", "native", "--json"),
        "mnk:m=5,n=5,k=4",
        "",
        8,
    ),
)


class Fresh(NamedTuple):
    """One fresh process: its wall seconds, peak memory (MB), and the last JSON line's
    nodes and seconds (the search's own)."""

    wall: float
    peak_mb: float
    nodes: int
    seconds: float


def plies_executable() -> str:
    """The ``plies`` next to this Python (a virtual environment's), else on the PATH."""
    beside = Path(sys.executable).with_name("plies")
    if beside.exists():
        return str(beside)
    found = shutil.which("plies")
    if found is None:
        raise SystemExit("no plies command found next to this Python or on the PATH")
    return found


def last_record(output: str) -> dict[str, Any]:
    """The last JSON object of a command's output (``analyze`` prints one per depth)."""
    lines = [line for line in output.splitlines() if line.startswith("{")]
    if not lines:
        raise ValueError(f"no JSON line in the output: {output[:200]!r}")
    record: dict[str, Any] = json.loads(lines[-1])
    return record


def run_fresh(executable: str, arguments: tuple[str, ...], *, numba: bool = False) -> Fresh:
    """Run ``plies arguments`` as a new process: its wall time, peak RSS, and search
    (``numba``: with plies' object cache off)."""
    env = {**os.environ, "PLIES_OBJECT_CACHE": "0"} if numba else None
    started = time.perf_counter()
    child = subprocess.Popen(
        [executable, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"plies {' '.join(arguments)} exited {child.returncode}")
    record = last_record(output)
    return Fresh(wall, usage.ru_maxrss / 1024, int(record["nodes"]), float(record["time"]))


def best_of(runs: list[Fresh]) -> Fresh:
    """The best wall time, the least peak memory, and the search of the fastest search
    (each the least of the rounds: the others measure the machine's load)."""
    fastest = min(runs, key=lambda run: run.seconds)
    return Fresh(
        min(run.wall for run in runs),
        min(run.peak_mb for run in runs),
        fastest.nodes,
        fastest.seconds,
    )


def warm_nps(command: Command, repeat: int) -> tuple[int, float]:
    """``(nodes, nodes per second)`` of the command's call in this process, warm: after
    one untimed call, the best of at least ``repeat`` calls (and of as many more as fit
    in :data:`MIN_SECONDS`)."""
    game = parse_game_spec(command.game)
    state = game.parse_position(command.position)

    def once() -> Any:
        if command.depth is None:
            return solve(game, state, backend="native", moves="all")  # the command's default
        return search(game, state, limits=Limits(depth=command.depth), backend="native")

    once()
    best = None
    runs = 0
    started = time.perf_counter()
    while runs < repeat or time.perf_counter() - started < MIN_SECONDS:
        result = once()
        if best is None or result.stats.time < best.stats.time:
            best = result
        runs += 1
    assert best is not None
    return best.stats.nodes, best.stats.nodes / best.stats.time


def verdicts(command: Command, fresh: Fresh, warm: float) -> list[str]:
    """The targets this command's figures meet or miss, one line each."""
    start_up = fresh.wall - fresh.seconds
    lines = [
        f"start-up {start_up:.3f} s beyond the search (target {START_UP_TARGET} s) -> "
        + ("met" if start_up <= START_UP_TARGET else "MISSED")
    ]
    if command.depth is None:
        lines.append(
            f"peak {fresh.peak_mb:.0f} MB solving one position (target under "
            f"{MEMORY_TARGET_MB} MB) -> "
            + ("met" if fresh.peak_mb < MEMORY_TARGET_MB else "MISSED")
        )
    if fresh.nodes >= SPEED_TARGET_NODES:
        ratio = fresh.nodes / fresh.seconds / warm
        lines.append(
            f"one call at {ratio:.2f} of the warm nodes/s (target {SPEED_TARGET}) -> "
            + ("met" if ratio >= SPEED_TARGET else "MISSED")
        )
    return lines


def main() -> int:
    """Time the commands in fresh processes, then warm here; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per command")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per command, at least")
    parser.add_argument(
        "--numba", action="store_true", help="each command also with the object cache off"
    )
    args = parser.parse_args()
    executable = plies_executable()
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    commands = [*COMMANDS]
    if args.numba:
        commands += [c._replace(label=f"{c.label} [numba]") for c in COMMANDS]
    runs: dict[str, list[Fresh]] = {command.label: [] for command in commands}
    for _ in range(args.rounds):
        for command in commands:
            numba = command.label.endswith("[numba]")
            runs[command.label].append(run_fresh(executable, command.arguments, numba=numba))
    print(
        f"{'command':<28}{'wall':>7}{'peak MB':>9}{'search':>8}{'start-up':>9}"
        f"{'nodes':>9}{'call n/s':>11}{'warm n/s':>11}{'ratio':>7}"
    )
    notes = []
    for command in commands:
        fresh = best_of(runs[command.label])
        warm_nodes, warm = warm_nps(command, args.repeat)
        call = fresh.nodes / fresh.seconds if fresh.seconds else 0.0
        print(
            f"{command.label:<28}{fresh.wall:>7.3f}{fresh.peak_mb:>9.0f}{fresh.seconds:>8.3f}"
            f"{fresh.wall - fresh.seconds:>9.3f}{fresh.nodes:>9,}{call:>11,.0f}{warm:>11,.0f}"
            f"{call / warm:>7.2f}"
        )
        if warm_nodes != fresh.nodes:
            notes.append(
                f"{command.label}: the warm call searched {warm_nodes:,} nodes (the command's "
                "search is watched for Ctrl-C: an iteration past the inline budget starts "
                "again in a thread, on the table it filled)"
            )
        notes.extend(f"{command.label}: {line}" for line in verdicts(command, fresh, warm))
    print(f"best of {args.rounds} fresh processes each (interleaved)")
    for note in notes:
        print(f"  {note}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
