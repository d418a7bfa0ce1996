"""Arguments, argument types and notes shared by the commands, in one light module (importing a
command's own module would load what that command needs, at every start)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from plies.game import BaseGame
from plies.lab import MAX_DIGITS, load_game, shown

__all__ = [
    "add_game_arguments",
    "add_request_limits",
    "load_position",
    "note",
    "position_text",
    "seconds",
    "whole_number",
]


def whole_number(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number (of at least ``minimum``, at most ``maximum``),
    its length checked before ``int()`` (which refuses more than 4,300 digits) and long
    input quoted short: "expected a number of at least N, not X" in every command."""

    def convert(text: str) -> int:
        digits = text.strip().removeprefix("-").removeprefix("+")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number, not {shown(text)}")
        if len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of at most {MAX_DIGITS} digits, "
                f"not one of {len(digits):,} digits"
            )
        value = int(text)
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(
                f"expected a number of at least {minimum}, not {value}"
            )
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"expected a number of at most {maximum}, not {value}")
        return value

    return convert


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, not {shown(text)}"
        ) from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {shown(text)}")
    return value


def add_request_limits(parser: argparse.ArgumentParser, *, stopped: str) -> None:
    """``--max-body``, ``--max-nodes``, ``--max-step-nodes``, ``--max-mcts-iterations``
    and ``--max-seconds``: the limits of one request to the web lab, shared by
    ``serve`` and ``site``; ``stopped`` says what happens to a request past its time."""
    parser.add_argument(
        "--max-body",
        type=whole_number(1024),
        default=1_000_000,
        metavar="BYTES",
        help="largest request body (default 1000000)",
    )
    parser.add_argument(
        "--max-nodes",
        type=whole_number(1),
        default=200_000,
        metavar="N",
        help="largest tree searched per request (default 200000 nodes)",
    )
    parser.add_argument(
        "--max-step-nodes",
        type=whole_number(1),
        default=2_000,
        metavar="N",
        help="largest tree drawn or stepped through (default 2000 nodes)",
    )
    parser.add_argument(
        "--max-mcts-iterations",
        type=whole_number(1),
        default=100_000,
        metavar="N",
        help="most iterations of one Monte-Carlo tree search in the lab (default 100000)",
    )
    parser.add_argument(
        "--max-seconds",
        type=seconds,
        default=10.0,
        metavar="S",
        help=f"longest a request may take; {stopped} (default 10 s)",
    )


def note(message: str) -> None:
    """One ``note:`` line on stderr: an option given has no effect here."""
    print(f"note: {message}", file=sys.stderr)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """GAME and the optional POSITION, shared by ``analyze``, ``solve`` and ``play``.

    POSITION is a list of words (joined with spaces), possibly none; ``main`` hands
    over words that start with '-' too (an Othello board ``---...X``), before or
    after ``--``.
    """
    parser.add_argument(
        "game", metavar="GAME", help="game name, with parameters as NAME:key=value,... "
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="*",
        default=[],  # with a default argparse no longer calls POSITION required
        help="the position in the game's notation (omitted: the start); "
        "several words are joined with spaces; one starting with '-' may follow '--'",
    )


def position_text(args: argparse.Namespace) -> str:
    """POSITION as typed: its words joined with spaces."""
    return " ".join(args.position)


def load_position(args: argparse.Namespace) -> tuple[BaseGame[Any, Any], Any]:
    """The game and state named by ``args.game`` and ``args.position``."""
    return load_game(args.game, position_text(args))
