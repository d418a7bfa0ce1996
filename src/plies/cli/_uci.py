"""``plies uci``: the chess engine on standard input and output, for chess GUIs.

The protocol lives in :mod:`plies.uci`; this shell only reads lines, hands them over
and prints the answers (one lock, since the search thread prints too). Input is read
as bytes, a line at a time and never more than :data:`~plies.uci.MAX_LINE_CHARS`
bytes of one (a longer line is refused whole with an ``info string``), and decoded
as UTF-8 with undecodable bytes replaced. End of input ends the session like
``quit``; so does a closed output (the GUI is gone); Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterator
from typing import Any, BinaryIO

__all__ = ["read_lines", "register"]


def register(subparsers: Any) -> None:
    """Add the ``uci`` subcommand."""
    uci = subparsers.add_parser(
        "uci",
        help="play chess through the UCI protocol (for chess GUIs; needs plies[chess])",
        description="Speak UCI on standard input and output: add 'plies uci' as an "
        "engine to a chess GUI (Arena, Cute Chess, BanksiaGUI...) or drive it with "
        "python-chess's chess.engine. Needs the plies[chess] extra.",
    )
    uci.set_defaults(handler=run_uci)


def read_lines(stream: BinaryIO, limit: int) -> Iterator[str | None]:
    """The lines of ``stream`` decoded (bad bytes replaced); None for a line longer
    than ``limit`` bytes, which is read past in pieces, never held whole."""
    while raw := stream.readline(limit + 1):
        if len(raw) > limit and not raw.endswith(b"\n"):
            while (rest := stream.readline(limit + 1)) and not rest.endswith(b"\n"):
                pass
            yield None
            continue
        yield raw.decode("utf-8", errors="replace")


def run_uci(args: argparse.Namespace) -> int:
    """Handle ``plies uci`` until ``quit``, the end of input or a closed output."""
    from plies.uci import MAX_LINE_CHARS, UciEngine

    lock = threading.Lock()
    gone = threading.Event()

    def send(line: str) -> None:
        if gone.is_set():
            return
        with lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):  # the GUI closed our output
                gone.set()

    engine = UciEngine(send)
    binary = getattr(sys.stdin, "buffer", None)  # None: a text stream put in its place
    lines = read_lines(binary, MAX_LINE_CHARS) if binary is not None else iter(sys.stdin)
    try:
        for line in lines:
            if line is None:
                engine.say(f"a line longer than {MAX_LINE_CHARS:,} bytes ignored")
            elif not engine.handle(line):
                return 0
            if gone.is_set():
                return 0
    finally:
        engine.stop()
    return 0
