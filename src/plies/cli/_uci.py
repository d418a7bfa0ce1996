"""``plies uci``: the chess engine on standard input and output, for chess GUIs.

The protocol lives in :mod:`plies.uci`; this shell only reads lines, hands them over
and prints the answers (one lock, since the search thread prints too). End of input
ends the session like ``quit``; Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

__all__ = ["register"]


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


def run_uci(args: argparse.Namespace) -> int:
    """Handle ``plies uci`` until ``quit`` or the end of input."""
    from plies.uci import UciEngine

    lock = threading.Lock()

    def send(line: str) -> None:
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    engine = UciEngine(send)
    try:
        for line in sys.stdin:
            if not engine.handle(line):
                return 0
    finally:
        engine.stop()
    return 0
