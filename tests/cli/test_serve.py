"""``plies serve``: a real server from the command line, and a clear word without the
web extra."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import pytest

from cli_errors import assert_one_line_error


def test_serve_prints_its_url_serves_the_lab_and_stops_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("plies web lab at http://127.0.0.1:"), line
        url = line.split()[4]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert 'data-testid="value"' in page.read().decode("utf-8")
        request = urllib.request.Request(
            url + "api/search",
            data=json.dumps({"tree": "[[3,12,8],[2,4,6],[14,5,2]]"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.loads(answer.read())["value"] == 3
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    assert process.returncode in (0, 130)


def test_without_the_web_extra_serve_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    assert_one_line_error(capsys, ["serve"])


def test_serving_beyond_this_machine_warns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    # Do not listen; say the server is stopping, so nothing waits for it to start.
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: setattr(self, "should_exit", True))
    from plies.cli import main

    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    assert "warning: serving on 0.0.0.0" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--port", "99999"], ["--host", "256.1.1.1", "--port", "0"]])
def test_an_address_it_cannot_serve_on_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, ["serve", *argv])


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert_one_line_error(capsys, ["serve", "--port", port])
