"""The UCI protocol: plies' chess engine as any chess GUI drives it.

:class:`UciEngine` reads UCI commands one line at a time (:meth:`UciEngine.handle`)
and answers through a ``send`` callable; ``plies uci`` (:mod:`plies.cli._uci`) wires
it to standard input and output. Commands understood:

* ``uci`` (``id name``, ``id author``, ``option name Hash``, ``uciok``), ``isready``
  (``readyok``, also while searching), ``ucinewgame`` (forgets the table),
  ``setoption name Hash value N`` (megabytes), ``debug``, ``register`` (accepted),
* ``position startpos|fen FEN [moves M1 M2 ...]`` (moves in UCI notation),
* ``go`` with ``depth``, ``nodes``, ``movetime``, ``wtime``/``btime``/``winc``/``binc``/
  ``movestogo``, ``infinite`` (and ``ponder``, searched like ``infinite``),
* ``stop``, ``ponderhit`` (the search ends now), ``quit``.

The search runs in a thread of its own, so ``stop`` and ``isready`` are answered while
it thinks; the engine checks the stop request every few milliseconds. After each
finished iteration it prints ``info depth seldepth score cp|mate nodes nps time pv``,
and at the end ``bestmove`` (with ``ponder`` when the line is longer). Lines that are
not UCI commands, and malformed commands, are ignored as the protocol asks, with an
``info string`` saying why for those that looked like commands.

Time management: with a clock the engine spends about ``remaining / moves to go``
(30 moves when the GUI does not say) plus most of the increment, never more than a
fifth of what is left, minus :data:`MOVE_OVERHEAD` for the pipe and the GUI. It stops
early once another iteration would likely not finish within that budget (an
unfinished iteration is thrown away, so starting one late only wastes the time).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies import __version__
from plies.engine import Limits, SearchResult, TranspositionTable, iterate
from plies.errors import PliesError
from plies.games import get_game

__all__ = ["DEFAULT_HASH_MB", "MOVE_OVERHEAD", "GoOptions", "UciEngine", "parse_go", "time_budget"]

#: Seconds kept in reserve on every timed move (pipe, thread start, GUI latency).
MOVE_OVERHEAD = 0.05
#: Table size in megabytes when the GUI sets none, and the range ``Hash`` allows.
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
#: Bytes one table entry of a chess search takes, roughly (key tuple, entry tuple and
#: the dict slot: 590 bytes measured with tracemalloc after a depth-5 middlegame search).
ENTRY_BYTES = 600
#: Moves still to play when the GUI gives a clock without ``movestogo``.
DEFAULT_MOVES_TO_GO = 30
#: A new iteration starts only while less than this share of the budget is spent:
#: each costs several times the one before.
START_SHARE = 0.4

_GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo")


@dataclass(frozen=True)
class GoOptions:
    """The arguments of one ``go`` command (times in milliseconds, as UCI sends them)."""

    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    infinite: bool = False


def parse_go(words: list[str]) -> GoOptions:
    """The options of ``go`` from its words (after ``go``); PliesError if malformed."""
    values: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("infinite", "ponder"):
            values["infinite"] = True
            i += 1
        elif word in _GO_NUMBERS:
            if i + 1 >= len(words) or not words[i + 1].lstrip("-").isdigit():
                raise PliesError(f"go: {word} needs a whole number")
            values[word] = int(words[i + 1])
            i += 2
        elif word == "searchmoves":  # not supported: the rest are moves
            break
        else:
            raise PliesError(f"go: unknown option {word!r}")
    for name in ("depth", "nodes", "movetime"):
        if name in values and values[name] < 1:
            raise PliesError(f"go: {name} must be at least 1")
    for name in ("winc", "binc"):
        values[name] = max(0, values.get(name, 0))
    if values.get("movestogo") is not None and values["movestogo"] < 1:
        values["movestogo"] = None
    return GoOptions(**values)


def time_budget(options: GoOptions, *, white: bool) -> float | None:
    """Seconds to think on this move, or None (no time limit).

    ``movetime`` less the overhead; a clock: remaining / moves to go plus 80% of the
    increment, at most a fifth of the remaining time, less the overhead; always at
    least 10 ms.
    """
    if options.infinite:
        return None
    if options.movetime is not None:
        return max(0.01, options.movetime / 1000 - MOVE_OVERHEAD)
    remaining = options.wtime if white else options.btime
    if remaining is None:
        return None
    increment = (options.winc if white else options.binc) / 1000
    left = max(0.0, remaining / 1000)
    moves = options.movestogo or DEFAULT_MOVES_TO_GO
    budget = left / moves + 0.8 * increment
    budget = min(budget, left / 5 if moves > 1 else left * 0.8)
    return max(0.01, budget - MOVE_OVERHEAD)


class UciEngine:
    """One UCI session: the position, the table, and the search thread.

    ``send`` is called with each line to print (from the reading thread and from the
    search thread; it must be safe for both, :class:`plies.cli._uci` locks it).
    """

    def __init__(self, send: Callable[[str], None]) -> None:
        self.send = send
        self.game: Any = get_game("chess")
        self.state: Any = self.game.initial_state()
        self.hash_mb = DEFAULT_HASH_MB
        self.table = self._new_table()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _new_table(self) -> TranspositionTable:
        return TranspositionTable(max(16, self.hash_mb * 1024 * 1024 // ENTRY_BYTES))

    # -- commands ---------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line; False once ``quit`` was read (the search is stopped)."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "quit":
            self.stop()
            return False
        handler = self._handlers().get(command)
        if handler is None:
            return True  # not a UCI command: ignored, as the protocol asks
        try:
            handler(rest)
        except PliesError as exc:
            self.send(f"info string error: {exc}")
        return True

    def _handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {
            "uci": self._uci,
            "isready": lambda _: self.send("readyok"),
            "ucinewgame": self._new_game,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": lambda _: self.stop(),
            "ponderhit": lambda _: self.stop(),
            "debug": lambda _: None,
            "register": lambda _: None,
        }

    def _uci(self, _: list[str]) -> None:
        self.send(f"id name plies {__version__}")
        self.send("id author the plies authors")
        self.send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self.send("uciok")

    def _new_game(self, _: list[str]) -> None:
        self.stop()
        self.table = self._new_table()
        self.state = self.game.initial_state()

    def _setoption(self, words: list[str]) -> None:
        text = " ".join(words)
        if not text.startswith("name ") or " value " not in text:
            raise PliesError(f"setoption: expected 'name NAME value VALUE', got {text!r}")
        name, _, value = text[len("name ") :].partition(" value ")
        if name.strip().lower() != "hash":
            raise PliesError(f"setoption: unknown option {name.strip()!r} (known: Hash)")
        if not value.strip().isdigit() or not 1 <= int(value) <= MAX_HASH_MB:
            raise PliesError(f"setoption: Hash is 1-{MAX_HASH_MB} megabytes, got {value.strip()!r}")
        self.stop()
        self.hash_mb = int(value)
        self.table = self._new_table()

    def _position(self, words: list[str]) -> None:
        if not words or words[0] not in ("startpos", "fen"):
            raise PliesError("position: expected 'startpos' or 'fen FEN', then 'moves ...'")
        head = ["startpos"] if words[0] == "startpos" else words[1:]
        if words[0] == "startpos" and len(words) > 1 and words[1] != "moves":
            raise PliesError(f"position: unexpected {words[1]!r} after startpos")
        if "moves" in head:
            head = head[: head.index("moves")]
        moves = words[words.index("moves") + 1 :] if "moves" in words else []
        if words[0] == "fen" and not head:
            raise PliesError("position: 'fen' needs a FEN")
        text = " ".join(head) + (" moves " + " ".join(moves) if moves else "")
        state = self.game.parse_position(text)  # raises PliesError: position unchanged
        self.stop()
        self.state = state

    def _go(self, words: list[str]) -> None:
        options = parse_go(words)
        self.stop()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._search, args=(self.state, options, self._stop), daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop a running search and wait for its ``bestmove``."""
        thread = self._thread
        if thread is not None:
            self._stop.set()
            thread.join()
            self._thread = None

    # -- the search thread ------------------------------------------------------------

    def _search(self, state: Any, options: GoOptions, stop: threading.Event) -> None:
        game = self.game
        budget = time_budget(options, white=game.to_move(state) == 0)
        limits = Limits(depth=options.depth, nodes=options.nodes, time=budget)
        started = time.perf_counter()
        last: SearchResult | None = None
        try:
            for result in iterate(game, state, limits=limits, table=self.table, stop=stop):
                last = result
                self.send(self._info(state, result))
                elapsed = time.perf_counter() - started
                if budget is None:
                    continue
                if options.movetime is None and elapsed > START_SHARE * budget:
                    break  # on a clock: save the time the next iteration would waste
                if result.distance is not None and result.depth >= result.distance:
                    break  # a mate proven within this depth: deeper changes nothing
        except Exception as exc:  # a GUI must never wait for bestmove in vain
            self.send(f"info string error: {type(exc).__name__}: {exc}")
        if options.infinite:
            stop.wait()  # UCI: an infinite search reports only once stopped
        self.send(self._bestmove(state, last))

    def _info(self, state: Any, result: SearchResult) -> str:
        stats = result.stats
        if result.outcome is not None and result.distance is not None:
            plies = result.distance
            moves = (plies + 1) // 2 if result.outcome == "win" else -(plies // 2)
            score = f"mate {moves}"  # mated already: "mate 0", as UCI engines say
        else:
            score = f"cp {round(result.value)}"
        pv = " ".join(move.uci() for move in result.pv)
        seldepth = max(result.depth, stats.seldepth)
        return (
            f"info depth {result.depth} seldepth {seldepth} score {score} "
            f"nodes {stats.nodes} nps {round(stats.nps)} time {round(stats.time * 1000)} pv {pv}"
        ).rstrip()

    def _bestmove(self, state: Any, last: SearchResult | None) -> str:
        game = self.game
        if last is not None and last.pv:
            line = last.pv
        else:
            moves = game.legal_moves(state)
            if not moves:
                return "bestmove (none)"
            line = (game.order_moves(state, moves)[0],)
        text = f"bestmove {line[0].uci()}"
        if len(line) > 1:
            text += f" ponder {line[1].uci()}"
        return text
