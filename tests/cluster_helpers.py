"""Helpers of the cluster tests (tests/cluster): Pons' test sets, a subprocess
environment that imports this checkout's plies, and Python code run in one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import plies

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
