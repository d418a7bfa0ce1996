"""What a running search shows and how Ctrl-C stops it, shared by ``analyze``,
``solve``, ``book``, ``match`` and the batches: a light module (rich is imported only
when a status line is shown), so that a command imports neither another command's
module nor what that one needs."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Progress", "stop_on_interrupt"]


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """An Event set by Ctrl-C (SIGINT) while the block runs (main thread only)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class Progress:
    """A live status line on stderr (rich), shown only when stdout is a terminal."""

    def __init__(self, label: str) -> None:
        self.enabled = sys.stdout.isatty() and sys.stderr.isatty()
        self.label = label
        self.detail = ""
        self.started = time.perf_counter()
        self._last = 0.0
        self._status: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            from rich.console import Console

            self._status = Console(stderr=True).status(self.label)
            self._status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.__exit__(None, None, None)

    def nodes(self, count: int) -> None:
        """Progress hook for the engine: refresh at most ten times a second."""
        if self._status is None:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.started
        self._status.update(
            f"{self.label}{self.detail}  nodes {count:,}  {count / elapsed:,.0f} n/s  "
            f"{elapsed:.1f} s  (Ctrl-C stops)"
        )
