"""Output to a pipe that its reader closed early (``plies games | head -1``)."""

from __future__ import annotations

import io

import pytest

from plies.cli import main


class _ClosedPipe(io.StringIO):
    """Standard output whose reader has gone: every write fails."""

    def write(self, _text: str) -> int:
        raise BrokenPipeError


@pytest.mark.parametrize(
    "argv",
    [["games"], ["tree", "[[3,5],[2,9]]"]],
    ids=["games", "tree"],
)
def test_a_closed_pipe_ends_the_command_with_status_0(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert main(argv) == 0
