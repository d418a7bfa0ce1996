"""Pascal Pons' Connect Four test sets (shared data, not checked in), for the tests
of the Python solver and of the native kernel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["TESTSETS", "pons_set"]

# Beside the checkout (/work/shared for /work/main), found from a worktree too.
TESTSETS = next(
    (
        parent / "shared" / "connect4-testsets"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "connect4-testsets").is_dir()
    ),
    Path("shared") / "connect4-testsets",
)


def pons_set(name: str, every: int = 1) -> Iterator[tuple[str, int]]:
    """Lines ``(moves, score)`` of one of Pons' test sets, every ``every``-th line."""
    path = TESTSETS / name
    if not path.is_file():
        pytest.skip(f"Pons' test set not found at {path} (shared data is not checked in)")
    for line in path.read_text().splitlines()[::every]:
        moves, score = line.split()
        yield moves, int(score)
