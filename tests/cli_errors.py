"""Shared checks of the CLI's script contract: a run's output, and one-line errors."""

from __future__ import annotations

import pytest

from plies.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``plies ARGV`` in process: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """``plies ARGV`` exits 1 with one ``error:`` line on stderr, nothing on stdout."""
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    out, err = capsys.readouterr()
    assert exit_info.value.code == 1
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err
    assert "Traceback" not in err
