"""Shared by the static-site tests: the Pyodide runtime they build ``plies site`` with
(the npm package that scripts/test.sh installs into tests/pyodide, pinned by its lock),
and a real ``python -m http.server`` serving a folder, its request log kept."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: The pyodide npm package, unpacked (tests/pyodide/node_modules/pyodide).
RUNTIME = Path(__file__).parent / "pyodide" / "node_modules" / "pyodide"

#: The version tests/pyodide/package-lock.json pins.
LOCKED = json.loads((Path(__file__).parent / "pyodide" / "package-lock.json").read_text())[
    "packages"
]["node_modules/pyodide"]["version"]

#: Set by scripts/test.sh: a missing runtime fails the tests instead of skipping them.
REQUIRED = os.environ.get("PLIES_REQUIRE_PYODIDE") == "1"


def runtime() -> Path:
    """The runtime's folder; the test is skipped (failed under scripts/test.sh) without it."""
    if not (RUNTIME / "pyodide.asm.wasm").is_file():
        message = "no Pyodide runtime: npm ci --prefix tests/pyodide"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return RUNTIME


_LOGGED = re.compile(r'"([A-Z]+) (\S+) HTTP/[\d.]+" (\d{3})')


class StaticServer:
    """``python -m http.server`` on a free loopback port, serving ``folder``; its
    ``requests()`` are every (method, path, status) its log shows so far."""

    def __init__(self, folder: Path, log: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
             "--directory", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "http.server did not start"
                time.sleep(0.05)
        self.origin = f"http://127.0.0.1:{self.port}"

    def requests(self) -> list[tuple[str, str, int]]:
        """Every request logged: method, path (with its query) and status."""
        found = _LOGGED.findall(self.log.read_text())
        return [(method, path, int(status)) for method, path, status in found]

    def stop(self) -> None:
        """Stop the server."""
        self.process.terminate()
        self.process.wait(timeout=10)
