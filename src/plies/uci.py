"""The UCI protocol: plies' chess engine as any chess GUI drives it.

:class:`UciEngine` reads UCI commands one line at a time (:meth:`UciEngine.handle`)
and answers through a ``send`` callable; ``plies uci`` (:mod:`plies.cli._uci`) wires
it to standard input and output. Commands understood:

* ``uci`` (``id name``, ``id author``, ``option name Hash``, ``uciok``), ``isready``
  (``readyok``, also while searching), ``ucinewgame`` (forgets the table),
  ``setoption name Hash value N`` (megabytes), ``debug``, ``register`` (accepted),
* ``position startpos|fen FEN [moves M1 M2 ...]`` (moves in UCI notation),
* ``go`` with ``depth``, ``nodes``, ``movetime``, ``mate``, ``wtime``/``btime``/
  ``winc``/``binc``/``movestogo``, ``infinite``, ``ponder`` and ``searchmoves``,
* ``stop``, ``ponderhit`` (a ``go ponder`` search goes on as a timed one), ``quit``.

Every ``go`` is answered with ``bestmove``: a legal move whenever the position has
one (also in a position drawn by rule, threefold repetition, the fifty-move rule or
insufficient material, which a GUI may still play on: an ``info string`` says so),
``bestmove (none)`` when it has none (mate, stalemate), and ``bestmove 0000``, UCI's
null move, when there is no position to search (the last ``position`` was rejected:
an ``info string`` says why). Searches with ``infinite`` or ``ponder`` answer once
stopped (or, for ``ponder``, once its timed search after ``ponderhit`` ends), as the
protocol asks; so does a ``go`` with no limit at all. A limit that cannot be read
(``movetime abc``) or is below the least one (``depth 0``) is taken as the least,
so the answer still comes; ``mate N`` searches at most 2N-1 plies deep, stops as soon
as it finds a mate in N or fewer, and within :data:`MATE_SECONDS` when no time is
given (without late-move reductions, which would hide a quiet mating move from a
search of exactly 2N-1 plies, and on a table of its own). ``searchmoves`` restricts
the moves searched at the root.

Input the engine cannot act on is answered with one ``info string`` line (UCI asks
engines to ignore it; a line says what was ignored): unknown commands (words before
a known command are skipped, as the protocol asks: ``joho debug on`` is ``debug
on``), malformed options, unknown ``go`` options.

The search runs in a thread of its own, so ``stop`` and ``isready`` are answered while
it thinks; the engine checks the stop request every few milliseconds. After each
finished iteration it prints ``info depth seldepth score cp|mate nodes nps time pv``,
and at the end ``bestmove`` (with ``ponder`` when the line is longer). A mate score
comes with its whole line: the principal variation ends in the mate announced.

Time management: with a clock the engine spends about ``remaining / moves to go``
(30 moves when the GUI does not say) plus most of the increment, never more than a
fifth of what is left, minus :data:`MOVE_OVERHEAD` for the pipe and the GUI. It starts
no iteration once that budget is spent, and lets one started before run on to three
times the budget (:func:`plies.lab.move_limit`, never past a quarter of the clock): an
unfinished iteration is thrown away, so cutting one short wastes its time. This is
:mod:`plies.lab`'s clock, which ``plies match --tc`` plays by too. ``movetime`` is
the search's limit, exactly.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies import __version__
from plies.errors import PliesError
from plies.lab import (
    MOVE_OVERHEAD,
    Analysis,
    SearchOptions,
    SearchTable,
    analyze,
    format_score,
    get_game,
    move_budget,
    move_limit,
    prepare_table,
    search_table,
    table_entries,
)

__all__ = [
    "DEFAULT_HASH_MB",
    "MATE_SECONDS",
    "MAX_LINE_CHARS",
    "MOVE_OVERHEAD",
    "GoOptions",
    "UciEngine",
    "parse_go",
    "time_budget",
    "time_limit",
]

#: Table size in megabytes when the GUI sets none, and the range ``Hash`` allows.
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
#: The longest a ``go mate N`` searches when the GUI gives no time (seconds): a mate
#: in 5 needs 9 plies, beyond what a Python search reaches in minutes.
MATE_SECONDS = 30.0
#: The longest command line read (characters): a ``position`` of a 10,000-ply game
#: takes 50,000. Longer lines are refused whole (:mod:`plies.cli._uci` never holds
#: more of one in memory).
MAX_LINE_CHARS = 1 << 20
#: Most nodes spent completing one mating line (:meth:`UciEngine._mating_line`).
MATE_LINE_NODES = 50_000

_GO_NUMBERS = ("depth", "nodes", "movetime", "mate", "wtime", "btime", "winc", "binc", "movestogo")
_GO_FLAGS = ("infinite", "ponder")
_GO_WORDS = (*_GO_NUMBERS, *_GO_FLAGS, "searchmoves")
#: The least value of each limit: a smaller or unreadable one is taken as this (so a
#: ``go`` is answered; an unreadable ``movestogo`` is left out).
_LEAST = {
    "depth": 1,
    "nodes": 1,
    "movetime": 1,
    "mate": 1,
    "wtime": 0,
    "btime": 0,
    "winc": 0,
    "binc": 0,
}
#: A whole number as UCI writes one (at most 18 digits: int() never sees more).
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
#: Why a game over position still has legal moves: the draws a GUI may play on.
DRAW_RULES = ("threefold repetition", "fifty moves", "insufficient material")
#: Characters of the GUI's input quoted in an ``info string``.
_QUOTED = 60


def _quoted(text: str) -> str:
    """``text`` quoted for an ``info string`` line: printable, one line, short."""
    if len(text) > _QUOTED:
        return f"{text[:_QUOTED]!r}... ({len(text):,} characters)"
    return repr(text)


@dataclass(frozen=True)
class GoOptions:
    """The arguments of one ``go`` command (times in milliseconds, as UCI sends them).

    ``searchmoves`` holds the moves after ``searchmoves`` as written; ``notes`` what
    :func:`parse_go` ignored or changed, one sentence each (sent as ``info string``).
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    mate: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def waits(self) -> bool:
        """Whether ``bestmove`` waits for ``stop`` (or ``ponderhit``), as UCI asks."""
        return self.infinite or self.ponder

    @property
    def has_limit(self) -> bool:
        """Whether anything ends the search besides ``stop``."""
        return any(
            value is not None
            for value in (self.depth, self.nodes, self.movetime, self.mate, self.wtime, self.btime)
        )


def parse_go(words: list[str]) -> GoOptions:
    """The options of ``go`` from its words (after ``go``); never raises.

    UCI asks engines to ignore what they do not understand, so unknown words are
    skipped and a limit that is no whole number, or less than the least (``depth
    0``), becomes the least (1 ply, node, millisecond, mate move; a clock of 0): a
    ``go`` is always answered. Each such change is one sentence in ``notes``.
    """
    values: dict[str, Any] = {}
    notes: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in _GO_FLAGS:
            values[word] = True
            i += 1
        elif word in _GO_NUMBERS:
            i = _read_number(words, i, values, notes)
        elif word == "searchmoves":
            end = i + 1
            while end < len(words) and words[end] not in _GO_WORDS:
                end += 1
            values["searchmoves"] = tuple(words[i + 1 : end])
            i = end
        else:
            notes.append(f"go: unknown option {_quoted(word)} ignored")
            i += 1
    _clamp(values, notes)
    return GoOptions(**values, notes=tuple(notes))


def _read_number(words: list[str], i: int, values: dict[str, Any], notes: list[str]) -> int:
    """Read the number after ``words[i]`` into ``values``; the index after it.

    A missing or unreadable number is noted and taken as the least (see
    :data:`_LEAST`); a word that is itself an option is left for the loop."""
    name = words[i]
    following = words[i + 1] if i + 1 < len(words) else None
    if following is not None and _INTEGER.fullmatch(following):
        values[name] = int(following)
        return i + 2
    missing = following is None or following in _GO_WORDS
    got = "nothing" if missing else _quoted(following or "")
    least = _LEAST.get(name)
    values[name] = least
    notes.append(
        f"go: {name} needs a whole number, got {got}: "
        + ("ignored" if least is None else f"taken as {least}")
    )
    return i + 1 if missing else i + 2


def _clamp(values: dict[str, Any], notes: list[str]) -> None:
    """Raise limits below the least to it and drop a meaningless ``movestogo`` (noted)."""
    for name, least in _LEAST.items():
        if values.get(name) is not None and values[name] < least:
            notes.append(f"go: {name} {values[name]} taken as {least}")
            values[name] = least
    if values.get("movestogo") is not None and values["movestogo"] < 1:
        notes.append(f"go: movestogo {values['movestogo']} ignored")
        values["movestogo"] = None


def time_budget(options: GoOptions, *, white: bool) -> float | None:
    """Seconds to think on this move, or None (no time limit).

    ``movetime`` less the overhead; a clock: remaining / moves to go plus 80% of the
    increment, at most a fifth of the remaining time, less the overhead; always at
    least 10 ms. Only the side to move's clock counts (the other's when only that one
    is given). ``infinite`` has no time limit; ``mate`` without a time gets
    :data:`MATE_SECONDS`.
    """
    if options.infinite:
        return None
    if options.movetime is not None:
        return max(0.01, options.movetime / 1000 - MOVE_OVERHEAD)
    remaining = _remaining(options, white)
    if remaining is None:
        return MATE_SECONDS if options.mate is not None else None
    increment = (options.winc if white else options.binc) / 1000
    return move_budget(remaining, increment, options.movestogo)


def _remaining(options: GoOptions, white: bool) -> float | None:
    """The seconds on the side to move's clock (the other's when only that one is
    given), None without a clock."""
    remaining = options.wtime if white else options.btime
    if remaining is None:
        remaining = options.btime if white else options.wtime
    return None if remaining is None else remaining / 1000


def time_limit(options: GoOptions, budget: float | None, *, white: bool) -> float | None:
    """Seconds after which the search stops, ``budget`` being :func:`time_budget`'s:
    on a clock :func:`plies.lab.move_limit` (an iteration started within the budget
    may finish), else the budget itself."""
    remaining = _remaining(options, white)
    if budget is None or options.movetime is not None or remaining is None:
        return budget  # no clock: movetime, or go mate's own seconds
    return move_limit(budget, remaining)


class _Go:
    """One ``go``: its options, its clock and how the reading thread ends it.

    ``stop`` is set by ``stop`` (and ``quit``, a new search...); ``released`` by
    ``stop`` or ``ponderhit``, which also starts a pondering search's clock.
    """

    def __init__(self, options: GoOptions, budget: float | None, limit: float | None) -> None:
        self.options = options
        #: The seconds to spend (no iteration starts past them) and to stop at.
        self.budget, self.limit = budget, limit
        self.stop = threading.Event()
        self.released = threading.Event()
        #: When the clock started (None while pondering) and when time is up.
        self.clock_start: float | None = None if options.ponder else time.monotonic()
        self.deadline: float | None = None
        if self.clock_start is not None and limit is not None:
            self.deadline = self.clock_start + limit

    def start_clock(self) -> None:
        """``ponderhit``: the search goes on, now on its clock."""
        if self.clock_start is None:
            self.clock_start = time.monotonic()
            if self.limit is not None:
                self.deadline = self.clock_start + self.limit
        self.released.set()

    def end(self) -> None:
        """``stop``: end the search now."""
        self.stop.set()
        self.released.set()

    def is_over(self) -> bool:
        """Whether the search must end (stopped, or its time is up): its stop request."""
        deadline = self.deadline
        return self.stop.is_set() or (deadline is not None and time.monotonic() >= deadline)

    def elapsed(self) -> float | None:
        """Seconds on the clock so far (None while pondering)."""
        start = self.clock_start
        return None if start is None else time.monotonic() - start


class UciEngine:
    """One UCI session: the position, the table, and the search thread.

    ``send`` is called with each line to print (from the reading thread and from the
    search thread; it must be safe for both, :class:`plies.cli._uci` locks it).
    ``state`` is None after a rejected ``position`` (``go`` then answers
    ``bestmove 0000``), until the next accepted one or ``ucinewgame``.
    """

    def __init__(self, send: Callable[[str], None]) -> None:
        self.send = send
        self.game: Any = get_game("chess")
        #: ``go mate``'s game: every move searched to the full depth (no reductions).
        self.mate_game: Any = get_game("chess", reductions=0)
        self.state: Any | None = self.game.initial_state()
        self.rejected = ""  # why there is no position, when state is None
        self.hash_mb = DEFAULT_HASH_MB
        self.table = self._new_table()
        self._go_now: _Go | None = None
        self._thread: threading.Thread | None = None
        #: The table the last isready prepared (the search loaded, its memory mapped).
        self._prepared: SearchTable | None = None

    def _new_table(self) -> SearchTable:
        return search_table(table_entries(self.game, self.hash_mb), self.game)

    def say(self, text: str) -> None:
        """Send ``text`` as one ``info string`` line."""
        self.send("info string " + " ".join(text.split()))

    # -- commands ---------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line; False once ``quit`` was read (the search is stopped)."""
        if len(line) > MAX_LINE_CHARS:
            self.say(f"a line of {len(line):,} characters ignored (at most {MAX_LINE_CHARS:,})")
            return True
        words = line.split()
        if not words:
            return True
        handlers = self._handlers()
        start = next((i for i, word in enumerate(words) if word in handlers), None)
        if start is None:
            self.say(f"unknown command {_quoted(' '.join(words))} ignored")
            return True
        if start:
            self.say(f"{_quoted(' '.join(words[:start]))} ignored before {words[start]!r}")
        command, rest = words[start], words[start + 1 :]
        if command == "quit":
            self.stop()
            return False
        try:
            handlers[command](rest)
        except PliesError as exc:
            self.say(f"error: {exc}")
        except Exception as exc:  # a GUI gets a line, never a dead engine
            self.say(f"error: {type(exc).__name__}: {exc}")
        return True

    def _ready(self, _: list[str]) -> None:
        """``readyok``; the first time after a new table (``ucinewgame``, ``Hash``), not
        while searching, after loading the native search (0.5-0.7 s from Numba's cache)
        and mapping the table's memory (12-125 ms): the first ``go`` would pay both."""
        if self._prepared is not self.table and self._thread is None:
            self._prepared = self.table
            prepare_table(self.game, self.table)
        self.send("readyok")

    def _handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {
            "uci": self._uci,
            "isready": self._ready,
            "ucinewgame": self._new_game,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": lambda _: self.stop(),
            "ponderhit": self._ponderhit,
            "debug": lambda _: None,
            "register": lambda _: None,
            "quit": lambda _: None,  # handle() acts on it
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
        self.rejected = ""

    def _setoption(self, words: list[str]) -> None:
        text = " ".join(words)
        if not text.startswith("name ") or " value " not in text:
            raise PliesError(f"setoption: expected 'name NAME value VALUE', got {_quoted(text)}")
        name, _, value = text[len("name ") :].partition(" value ")
        if name.strip().lower() != "hash":
            raise PliesError(f"setoption: unknown option {_quoted(name.strip())} (known: Hash)")
        number = value.strip()
        digits = number.lstrip("0")
        if not (
            number.isascii()
            and number.isdigit()
            and len(digits) <= len(str(MAX_HASH_MB))
            and 1 <= int(digits or "0") <= MAX_HASH_MB
        ):
            raise PliesError(f"setoption: Hash is 1-{MAX_HASH_MB} megabytes, got {_quoted(number)}")
        self.stop()
        self.hash_mb = int(digits)
        self.table = self._new_table()

    def _position(self, words: list[str]) -> None:
        """Set the position; a rejected one leaves none (``go`` answers ``0000``)."""
        try:
            state = self._read_position(words)
        except PliesError as exc:
            self.state, self.rejected = None, str(exc)
            raise PliesError(f"{exc}; no position until the next 'position'") from None
        self.state, self.rejected = state, ""

    def _read_position(self, words: list[str]) -> Any:
        if not words or words[0] not in ("startpos", "fen"):
            got = _quoted(words[0]) if words else "nothing"
            raise PliesError(f"position: expected 'startpos' or 'fen FEN', got {got}")
        if words[0] == "startpos" and len(words) > 1 and words[1] != "moves":
            raise PliesError(f"position: unexpected {_quoted(words[1])} after startpos")
        head = ["startpos"] if words[0] == "startpos" else words[1:]
        if "moves" in head:
            head = head[: head.index("moves")]
        moves = words[words.index("moves") + 1 :] if "moves" in words else []
        if words[0] == "fen" and not head:
            raise PliesError("position: 'fen' needs a FEN")
        if any(move == "0000" for move in moves):
            raise PliesError("position: a null move (0000) is no move of the game")
        text = " ".join(head) + (" moves " + " ".join(moves) if moves else "")
        return self.game.parse_position(text)

    def _go(self, words: list[str]) -> None:
        options = parse_go(words)
        for note in options.notes:
            self.say(note)
        self.stop()
        state = self.state
        white = state is None or self.game.to_move(state) == 0
        budget = time_budget(options, white=white)
        go = _Go(options, budget, time_limit(options, budget, white=white))
        if options.waits is False and not options.has_limit:
            self.say("go: no limit given: searching until 'stop'")
        self._go_now = go
        self._thread = threading.Thread(target=self._search, args=(state, go), daemon=True)
        self._thread.start()

    def _ponderhit(self, _: list[str]) -> None:
        go = self._go_now
        if go is not None:
            go.start_clock()

    def stop(self) -> None:
        """Stop a running search and wait for its ``bestmove``."""
        thread, go = self._thread, self._go_now
        if thread is not None and go is not None:
            go.end()
            thread.join()
        self._thread = self._go_now = None

    # -- the search thread ------------------------------------------------------------

    def _search(self, state: Any | None, go: _Go) -> None:
        """Search ``state`` as ``go`` asks and answer ``bestmove``, whatever happens."""
        line: tuple[Any, ...] = ()
        root = state
        try:
            if state is None:
                self.say(f"no position to search: {self.rejected or 'none given'}")
            else:
                root = self._root(state, go.options)
                line = self._think(root, go)
        except Exception as exc:  # a GUI must never wait for bestmove in vain
            self.say(f"error: {type(exc).__name__}: {exc}")
        if not line and root is not None:
            line = self._any_move(root)
        if go.options.infinite:
            go.stop.wait()  # UCI: an infinite search reports only once stopped
        elif go.options.ponder:
            go.released.wait()  # a pondering search: once ponderhit or stop arrives
        self.send(self._bestmove(state, line))

    def _root(self, state: Any, options: GoOptions) -> Any:
        """The state searched: a draw by rule not claimed (a GUI may play on), and
        only the ``searchmoves`` given (each checked; an info string for the rest)."""
        game = self.game
        reason = game.outcome(state)
        if reason in DRAW_RULES:
            self.say(
                f"the position is drawn by {reason} (score 0 if claimed); "
                "searching on for a move, as if no draw were claimed"
            )
            state = game.unclaimed(state)
        if not options.searchmoves:
            return state
        moves = []
        for token in options.searchmoves:
            if token == "0000":  # python-chess's stand-in for an empty list
                continue
            try:
                move = game.parse_move(state, token)
            except PliesError as exc:
                self.say(f"searchmoves: {exc}; ignored")
                continue
            if move not in moves:
                moves.append(move)
        if not moves:
            if game.legal_moves(state):
                self.say("searchmoves: no legal move given; searching every move")
            return state
        return game.restricted(state, moves)

    def _think(self, root: Any, go: _Go) -> tuple[Any, ...]:
        """Iterate deeper, sending ``info`` per depth; the last line found (or ())."""
        game, options = self.game, go.options
        table: SearchTable | None = self.table
        depth = options.depth
        if options.mate is not None:
            mate_depth = 2 * options.mate - 1
            depth = mate_depth if depth is None else min(depth, mate_depth)
            game, table = self.mate_game, None  # the kept table's entries are reduced
        search = SearchOptions(depth=depth, nodes=options.nodes)
        last: Analysis | None = None
        for found in analyze(game, root, search, table=table, stop=go.is_over):
            found = self._mating_line(root, found, go)
            last = found
            self.send(self._info(found))
            if self._enough(found, go):
                break
        if last is None:
            if game.legal_moves(root):
                self.say("no iteration finished within the limits: the first move in order")
            return ()
        if options.mate is not None and not _mates_within(last, options.mate):
            self.say(f"no mate in {options.mate} found (depth {last.result.depth})")
        return last.result.pv

    def _enough(self, found: Analysis, go: _Go) -> bool:
        """Whether to stop iterating after ``found`` (before the limits say so)."""
        options, result = go.options, found.result
        if options.mate is not None and _mates_within(found, options.mate):
            return not options.waits
        elapsed, budget = go.elapsed(), go.budget
        if elapsed is None or budget is None:
            return False
        if options.movetime is None and elapsed > budget:
            return True  # on a clock: the budget is spent, start no iteration
        return result.distance is not None and result.depth >= result.distance

    def _mating_line(self, root: Any, found: Analysis, go: _Go) -> Analysis:
        """``found`` with its whole mating line when its score is a mate.

        The engine follows its table to the mate, but a mate proven beyond the
        horizon (in the quiescence search) is in no table, and an entry may have been
        replaced: the line then stops short. It is finished here: from its last
        position, searches at most as deep as the plies the mate still needs, each
        adding its line, until the mate (at most :data:`MATE_LINE_NODES` nodes, and
        only while the search may go on). The score stays the search's; a line that
        cannot be finished so is left as it was.
        """
        result = found.result
        distance = result.distance
        if distance is None or not result.pv or len(result.pv) >= distance:
            return found
        game = self.mate_game  # the mate's plies, none of them reduced
        line = list(result.pv)
        state = root
        for move in line:
            state = game.play(state, move)
        nodes = 0
        while game.terminal_value(state) is None and len(line) < distance:
            left = distance - len(line)
            if nodes >= MATE_LINE_NODES or go.is_over():
                return found
            ending = None
            search = SearchOptions(depth=left, nodes=MATE_LINE_NODES - nodes)
            # Not the kept table: the search whose line this finishes holds it (a
            # native table serves one search at a time).
            for step in analyze(game, state, search, stop=go.is_over):
                ending = step.result
                if ending.distance is not None and ending.distance <= left and ending.pv:
                    break
            if ending is None or ending.distance is None or ending.distance > left:
                return found
            nodes += ending.stats.nodes
            for move in ending.pv[:left]:
                line.append(move)
                state = game.play(state, move)
        if game.outcome(state) != "checkmate":
            return found
        return found.with_pv(line)

    def _info(self, found: Analysis) -> str:
        result = found.result
        stats = result.stats
        # mate N in moves (mated already: "mate 0", as UCI engines say), else cp N
        score = format_score(found.score, "uci")
        pv = " ".join(move.uci() for move in result.pv)
        seldepth = max(result.depth, stats.seldepth, len(result.pv))
        return (
            f"info depth {result.depth} seldepth {seldepth} score {score} "
            f"nodes {stats.nodes} nps {round(stats.nps)} time {round(stats.time * 1000)} pv {pv}"
        ).rstrip()

    def _any_move(self, root: Any) -> tuple[Any, ...]:
        """The first move in the game's order, or () when there is none."""
        game = self.game
        moves = game.legal_moves(root)
        return (game.order_moves(root, moves)[0],) if moves else ()

    @staticmethod
    def _bestmove(state: Any | None, line: tuple[Any, ...]) -> str:
        if state is None:
            return "bestmove 0000"  # UCI's null move: there is no position
        if not line:
            return "bestmove (none)"  # mate or stalemate: no legal move
        text = f"bestmove {line[0].uci()}"
        if len(line) > 1:
            text += f" ponder {line[1].uci()}"
        return text


def _mates_within(found: Analysis, moves: int) -> bool:
    """Whether ``found`` is a mate for the side to move in at most ``moves`` moves."""
    result = found.result
    return result.outcome == "win" and result.distance is not None and result.distance <= 2 * moves
