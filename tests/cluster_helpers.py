"""Helpers of the cluster tests (tests/cluster): Pons' test sets, random positions and
what a solve must answer whatever the workers, a subprocess environment that imports
this checkout's plies, and Python code run in one."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import plies
from plies.games import parse_game_spec

# Beside the checkout (/work/shared for /work/main), found from a worktree too.
TESTSETS = next(
    (
        parent / "shared" / "connect4-testsets"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "connect4-testsets").is_dir()
    ),
    Path("shared") / "connect4-testsets",
)


def pons_lines(name: str, count: int | None = None) -> list[str]:
    """The first ``count`` lines of one of Pons' test sets (skip when it is absent)."""
    path = TESTSETS / name
    if not path.is_file():
        pytest.skip(f"Pons' test set not found at {path} (shared data is not checked in)")
    return path.read_text().splitlines()[:count]


def plies_env() -> dict[str, str]:
    """The environment for a subprocess that must import this checkout's plies."""
    source = str(Path(plies.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    return env


def run_python(code: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in a new process importing this checkout's plies, its output
    captured as text (a test of what a fresh process loads, or of a command's exit)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env=plies_env(),
        timeout=timeout,
    )


def random_position(spec: str, plies: int, seed: int) -> tuple[Any, Any]:
    """A position ``plies`` random moves into ``spec`` (fewer if the game ends)."""
    game = parse_game_spec(spec)
    state = game.initial_state()
    chooser = random.Random(seed)
    for _ in range(plies):
        if game.terminal_value(state) is not None:
            break
        state = game.play(state, chooser.choice(list(game.legal_moves(state))))
    return game, state


def answer(solved: Any) -> tuple[Any, ...]:
    """What must not depend on the workers or the schedule."""
    return (
        solved.result,
        solved.distance,
        solved.utility,
        solved.value,
        solved.best_moves,
        solved.pv,
        solved.weak,
    )


def stop_processes(started: list[subprocess.Popen[Any]]) -> None:
    """End processes each started in a session of its own (a ``dask scheduler`` or
    ``dask worker`` and its children): SIGTERM to every group, last started first,
    then SIGKILL to a group still there after 15 s."""
    for process in reversed(started):
        os.killpg(process.pid, signal.SIGTERM)
    for process in started:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines())
        except (OSError, ValueError):
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found
