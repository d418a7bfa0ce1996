"""The players of a match (``plies match``): a spec ``ALGORITHM[:key=value,...]`` read
into a :class:`PlayerSpec`, and the :class:`Mover` that picks the player's moves.

* the engine's searches (``pvs``, ``negamax``, ``mtdf``, ``alphabeta``, ``minimax``,
  ``expectiminimax``) with ``depth``, ``nodes`` and ``time`` (seconds), as the game
  room's engine plays (:func:`plies.lab.engine_move`);
* ``mcts`` with ``time``, ``nodes`` or ``iterations``, seeded by the match;
* for these two and ``maxn``, ``paranoid``, ``brs``, ``backend=native`` or
  ``backend=python`` too: where the search (or MCTS's playouts) runs, as
  ``plies analyze --backend`` says (default: native where it runs; for MCTS, native
  only for runs of a second or 10,000 iterations and more, so a fast match between
  MCTS and alpha-beta names it: ``mcts:time=0.05,backend=native``);
* for ``pvs``, ``negamax`` and ``mtdf``, ``hash=MB`` too: the table the player keeps
  from move to move of a game, as a UCI engine keeps its ``Hash`` (default: the size a
  search takes when given none, 2**20 entries; ``hash=0``: a fresh table each move);
* ``random``: a legal move drawn by the match's seed;
* ``uci:COMMAND[:NAME=VALUE,...]``, chess only: any UCI engine run as ``COMMAND``
  (split as a shell would, without one), driven by python-chess's
  :mod:`chess.engine`. ``depth``, ``nodes`` and ``time`` are the search's limit
  (at least one is needed); every other pair is a UCI option sent with
  ``setoption`` before the first move (``uci:stockfish:UCI_LimitStrength=true,
  UCI_Elo=1500,time=0.1``). The engine is started for each game and killed at its
  end; one that does not answer within its time limit plus the match's ``timeout``
  is killed and forfeits the game.

On a match's clock (``plies match --tc 60+0.6``, :class:`plies.lab.TimeControl`) a
player needs no limit of its own and may not set ``time``: plies' searches spend
:func:`plies.lab.move_budget` of their time on each move (iterative deepening starts
no depth past it; one started may finish, up to :func:`plies.lab.move_limit`), and
the N-player searches stop at the budget; a UCI engine is given both
clocks (``go wtime btime winc binc``) and spends them as it likes. ``depth`` and
``nodes`` may still cap a player's search.

>>> spec = parse_player("pvs:depth=4")
>>> spec.algorithm, spec.depth, spec.name
('pvs', 4, 'pvs:depth=4')
>>> parse_player("uci:stockfish:UCI_Elo=1500,time=0.1").uci_options
(('UCI_Elo', '1500'),)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import os
import random
import shlex
import signal
from dataclasses import dataclass
from typing import Any

from plies.engine import ALGORITHMS as SEARCH_ALGORITHMS
from plies.engine import BACKENDS, MULTI_ALGORITHMS, Limits, multi_search
from plies.engine.native import SEARCH_ENTRIES
from plies.errors import PliesError
from plies.lab._analyze import (
    SearchOptions,
    SearchTable,
    analyze_once,
    prepare_table,
    search_table,
    table_entries,
)
from plies.lab._clock import ClockReading
from plies.lab._play import engine_move
from plies.lab._room import Room

__all__ = [
    "NPLAYER_ALGORITHMS",
    "PLAYER_ALGORITHMS",
    "Forfeit",
    "MatchError",
    "Mover",
    "PlayerSpec",
    "mover_of",
    "parse_player",
]

#: The searches of games of more than two players (two work too): max^n, paranoid and
#: Best-Reply Search (:func:`plies.engine.multi_search`).
NPLAYER_ALGORITHMS: tuple[str, ...] = MULTI_ALGORITHMS
#: The algorithms a player can be: the engine's searches, MCTS, the N-player searches,
#: random moves and UCI.
PLAYER_ALGORITHMS: tuple[str, ...] = (
    *SEARCH_ALGORITHMS,
    "mcts",
    *NPLAYER_ALGORITHMS,
    "random",
    "uci",
)
#: The limits a player's spec may set, and what each is.
LIMIT_KEYS = ("depth", "nodes", "time", "iterations")
#: The searches that keep a table from move to move (the textbook ones search none).
TABLE_ALGORITHMS = ("pvs", "negamax", "mtdf")
#: The largest table a player may keep, in MB (every game of a match has its own).
MAX_HASH_MB = 4096
#: The longest spec read.
MAX_SPEC = 500


class MatchError(PliesError):
    """A match that cannot be played as asked (a bad player, too few games, ...)."""


class Forfeit(Exception):
    """A player lost the game by misbehaving: ``reason`` says how (crashed, timed out,
    played an illegal move)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PlayerSpec:
    """A player of a match as its spec says: ``name`` (the spec's text), the
    ``algorithm`` (one of :data:`PLAYER_ALGORITHMS`), its limits, and for ``uci`` the
    ``command`` (its words) and the ``uci_options`` (name, value) to set."""

    name: str
    algorithm: str
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    iterations: int | None = None
    backend: str | None = None
    hash: int | None = None
    command: tuple[str, ...] = ()
    uci_options: tuple[tuple[str, str], ...] = ()

    def search_options(self, seed: int) -> SearchOptions:
        """The search of an engine player, seeded by ``seed`` (MCTS's playouts)."""
        return SearchOptions(
            depth=self.depth,
            nodes=self.nodes,
            time=self.time,
            algorithm=self.algorithm,
            iterations=self.iterations,
            seed=seed if self.algorithm == "mcts" else None,
            backend=self.backend,
        )

    @property
    def timed(self) -> bool:
        """Whether the player's moves depend on the clock (a time limit)."""
        return self.time is not None


def _number(spec: str, key: str, text: str) -> int | float:
    try:
        value: int | float = float(text) if key == "time" else int(text)
    except ValueError:
        raise MatchError(f"player {spec!r}: {key} is a number, not {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise MatchError(f"player {spec!r}: {key} must be above 0, not {text!r}")
    return value


def _megabytes(spec: str, text: str) -> int:
    """A ``hash`` size in MB: 0 (no table kept) up to :data:`MAX_HASH_MB`."""
    try:
        value = int(text)
    except ValueError:
        raise MatchError(f"player {spec!r}: hash is a whole number of MB, not {text!r}") from None
    if not 0 <= value <= MAX_HASH_MB:
        raise MatchError(f"player {spec!r}: hash must be 0 to {MAX_HASH_MB} MB, not {text!r}")
    return value


def _pairs(spec: str, text: str) -> list[tuple[str, str]]:
    """The ``key=value`` pairs of ``text`` (comma-separated)."""
    pairs = []
    for part in text.split(","):
        key, equals, value = part.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise MatchError(f"player {spec!r}: expected key=value, not {part!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


def parse_player(text: str, *, clock: bool = False) -> PlayerSpec:
    """The player ``text`` names (see the module); :class:`MatchError` saying what is
    wrong with a bad one. On a ``clock`` a player needs no limit and sets no time."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_SPEC:
        raise MatchError(f"a player is ALGORITHM[:key=value,...], not {text!r:.60}")
    spec = text.strip()
    algorithm, _, rest = spec.partition(":")
    if algorithm == "uci":
        return _uci_player(spec, rest, clock)
    if algorithm not in PLAYER_ALGORITHMS:
        raise MatchError(
            f"player {spec!r}: the algorithm is one of {', '.join(PLAYER_ALGORITHMS)}, "
            f"not {algorithm!r}"
        )
    limits: dict[str, Any] = {}
    for key, value in _pairs(spec, rest) if rest else []:
        if key == "backend" and algorithm in (*SEARCH_ALGORITHMS, "mcts", *NPLAYER_ALGORITHMS):
            if value not in BACKENDS:
                raise MatchError(
                    f"player {spec!r}: backend is {' or '.join(BACKENDS)}, not {value!r}"
                )
            limits[key] = value
            continue
        if key == "hash" and algorithm in TABLE_ALGORITHMS:
            limits[key] = _megabytes(spec, value)
            continue
        if key not in LIMIT_KEYS:
            raise MatchError(
                f"player {spec!r}: unknown key {key!r} (one of {', '.join(_keys(algorithm))})"
            )
        limits[key] = _number(spec, key, value)
    player = PlayerSpec(spec, algorithm, **limits)
    _check_limits(player, clock)
    return player


def _keys(algorithm: str) -> tuple[str, ...]:
    """The keys a spec of ``algorithm`` may set."""
    if algorithm == "random":
        return LIMIT_KEYS
    keys = (*LIMIT_KEYS, "backend")
    return (*keys, "hash") if algorithm in TABLE_ALGORITHMS else keys


def _check_limits(player: PlayerSpec, clock: bool) -> None:
    spec, algorithm = player.name, player.algorithm
    given = [k for k in LIMIT_KEYS if getattr(player, k) is not None]
    if algorithm == "random":
        if given:
            raise MatchError(f"player {spec!r}: random takes no limit, not {given[0]}")
        return
    if clock and player.time is not None:
        raise MatchError(_CLOCK_AND_TIME.format(spec=spec))
    if not given and not clock:
        raise MatchError(f"player {spec!r}: {algorithm} needs a limit: {_limit_names(algorithm)}")
    if algorithm in NPLAYER_ALGORITHMS:
        if player.iterations is not None:
            raise MatchError(f"player {spec!r}: iterations are a limit of mcts only")
        return
    try:
        player.search_options(0)
    except PliesError as exc:
        raise MatchError(f"player {spec!r}: {exc}") from None


#: A player that sets a time of its own in a match on a clock.
_CLOCK_AND_TIME = (
    "player {spec!r}: the match's clock (--tc) times every move: give no time= "
    "(depth= and nodes= may still cap the search)"
)


def _limit_names(algorithm: str) -> str:
    if algorithm == "mcts":
        return "time=S, iterations=N or nodes=N"
    return "depth=N, time=S or nodes=N"


def _uci_player(spec: str, rest: str, clock: bool) -> PlayerSpec:
    """``uci:COMMAND[:NAME=VALUE,...]``: the command, its limits and UCI options."""
    command_text, options_text = rest, ""
    head, colon, tail = rest.rpartition(":")
    if colon and "=" in tail:
        command_text, options_text = head, tail
    try:
        command = tuple(shlex.split(command_text))
    except ValueError as exc:
        raise MatchError(f"player {spec!r}: cannot read the command: {exc}") from None
    if not command:
        raise MatchError(f"player {spec!r}: uci needs a command, e.g. uci:stockfish:time=0.1")
    limits: dict[str, Any] = {}
    options: list[tuple[str, str]] = []
    for key, value in _pairs(spec, options_text) if options_text else []:
        if key in ("depth", "nodes", "time"):
            limits[key] = _number(spec, key, value)
        else:
            options.append((key, value))
    if clock and "time" in limits:
        raise MatchError(_CLOCK_AND_TIME.format(spec=spec))
    if not limits and not clock:
        raise MatchError(f"player {spec!r}: a UCI engine needs a limit: depth=N, time=S or nodes=N")
    return PlayerSpec(spec, "uci", command=command, uci_options=tuple(options), **limits)


# -- movers -------------------------------------------------------------------------------


class Mover:
    """What picks a player's moves in one game: :meth:`start` readies the player before
    the game's clocks run, :meth:`move` gives the move object in the room's position
    (raising :class:`Forfeit` when the player misbehaves), :meth:`close` ends what the
    player started (a UCI engine's process)."""

    def __init__(self, spec: PlayerSpec) -> None:
        self.spec = spec
        self._table: SearchTable | None = None

    def start(self, room: Room) -> None:
        """Ready the player for a game of ``room``'s game, so that its first move's
        clock counts the move alone: a search of plies is loaded (the native one from
        its cache) by a one-ply search of the start, on the table it keeps (made, its
        memory written: :func:`plies.lab.prepare_table`)."""
        spec, game = self.spec, room.game
        if spec.algorithm not in SEARCH_ALGORITHMS:
            return
        try:
            table = self._kept_table(room) if spec.algorithm in TABLE_ALGORITHMS else None
            if table is not None:
                prepare_table(game, table, backend=spec.backend)
            else:
                options = SearchOptions(depth=1, algorithm=spec.algorithm, backend=spec.backend)
                analyze_once(game, room.states[0], options)
        except Exception as exc:  # as a failing move would
            raise Forfeit(f"crashed: {type(exc).__name__}: {exc}") from None

    def move(self, room: Room, seed: int, clock: ClockReading | None = None) -> Any:
        """The player's move in ``room`` (a player moves next), ``seed`` drawing its
        random choices, on the ``clock`` when the match has one."""
        spec = self.spec
        if spec.algorithm == "random":
            return random.Random(seed).choice(list(room.game.legal_moves(room.state)))
        try:
            if spec.algorithm in NPLAYER_ALGORITHMS:
                return self._multi_move(room, None if clock is None else clock.budget)
            table = self._kept_table(room) if spec.algorithm in TABLE_ALGORITHMS else None
            options = spec.search_options(seed)
            return engine_move(room, options, table=table, clock=clock).move
        except Exception as exc:  # any failure of the search forfeits, never ends the match
            raise Forfeit(f"crashed: {type(exc).__name__}: {exc}") from None

    def _kept_table(self, room: Room) -> SearchTable | None:
        """The table this player searches on through the game (made at its first
        move), None with ``hash=0``."""
        spec = self.spec
        if self._table is None and spec.hash != 0:
            game, backend = room.game, spec.backend
            entries = (
                SEARCH_ENTRIES
                if spec.hash is None
                else table_entries(game, spec.hash, backend=backend)
            )
            self._table = search_table(entries, game, backend=backend)
        return self._table

    def _multi_move(self, room: Room, budget: float | None) -> Any:
        """The N-player search's move: its last completed depth's, else the first
        legal move (not one depth finished within the limits, or the ``budget``)."""
        spec = self.spec
        limits = Limits(depth=spec.depth, nodes=spec.nodes, time=budget or spec.time)
        found = multi_search(
            room.game, room.state, algorithm=spec.algorithm, limits=limits, backend=spec.backend
        )
        if found.best_move is None:
            return room.game.legal_moves(room.state)[0]
        return found.best_move

    def close(self) -> None:
        """End what the player started (nothing for a player in this process)."""


def mover_of(spec: PlayerSpec, *, game_name: str, timeout: float, players: int = 2) -> Mover:
    """The mover of ``spec`` in a game of ``game_name`` with ``players`` players; a UCI
    engine waits at most its time limit plus ``timeout`` seconds for each move."""
    if players > 2 and spec.algorithm in SEARCH_ALGORITHMS:
        raise MatchError(
            f"player {spec.name!r}: {spec.algorithm} searches games of two players, and "
            f"{game_name} has {players}: use {', '.join(NPLAYER_ALGORITHMS)}, mcts or random"
        )
    if spec.algorithm == "uci":
        if game_name != "chess":
            raise MatchError(f"player {spec.name!r}: UCI engines play chess, not {game_name}")
        return UciMover(spec, timeout)
    return Mover(spec)


class UciMover(Mover):
    """A UCI engine's moves, through python-chess (started at its first move)."""

    def __init__(self, spec: PlayerSpec, timeout: float) -> None:
        super().__init__(spec)
        self.timeout = timeout
        self._engine: Any = None
        self._healthy = True
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def _call(self, what: str, function: Any, *args: Any, seconds: float | None = None) -> Any:
        """``function(*args)`` on the engine, given at most its ``seconds`` (default: the
        time limit) plus the timeout; a crash or a silence forfeits (and kills the
        engine)."""
        import chess.engine

        if seconds is None:
            seconds = self.spec.time or 0.0
        bound = seconds + self.timeout
        future = self._pool.submit(function, *args)
        try:
            return future.result(timeout=bound)
        except TimeoutError:  # concurrent.futures.TimeoutError too (3.11)
            self._healthy = False
            self.close()
            raise Forfeit(f"timed out: no answer to {what} within {bound:g} s") from None
        except chess.engine.EngineTerminatedError as exc:
            self._healthy = False
            self.close()
            raise Forfeit(f"crashed: the engine ended ({exc})") from None
        except OSError as exc:  # the command cannot be run (missing, not executable)
            self._healthy = False
            self.close()
            command = shlex.join(self.spec.command)
            raise Forfeit(f"cannot start {command}: {exc.strerror or exc}") from None
        except (chess.engine.EngineError, ValueError) as exc:
            self._healthy = False
            self.close()
            raise Forfeit(f"engine error: {exc}") from None

    def _start(self) -> Any:
        import chess.engine

        command = list(self.spec.command)
        engine = self._call(
            "uci", lambda: chess.engine.SimpleEngine.popen_uci(command, timeout=self.timeout)
        )
        self._engine = engine
        if self.spec.uci_options:
            self._call("setoption", engine.configure, dict(self.spec.uci_options))
        return engine

    def start(self, room: Room) -> None:
        """Start the engine and set its options (before the game's clocks run)."""
        if self._engine is None:
            self._start()

    def move(self, room: Room, seed: int, clock: ClockReading | None = None) -> Any:
        """The engine's move in ``room``: it sees the game from its start, every move;
        on a ``clock``, both sides' time (seat 0 is White)."""
        import chess
        import chess.engine

        engine = self._engine or self._start()
        board = chess.Board(room.states[0].board.fen())
        for played in room.moves:
            board.push(played)
        spec, seconds = self.spec, None
        limit = chess.engine.Limit(depth=spec.depth, nodes=spec.nodes, time=spec.time)
        if clock is not None:
            white, black = clock.remaining
            increment, seconds = clock.increment, clock.left
            limit = chess.engine.Limit(
                depth=spec.depth,
                nodes=spec.nodes,
                white_clock=white,
                black_clock=black,
                white_inc=increment,
                black_inc=increment,
            )
        played = self._call("go", engine.play, board, limit, seconds=seconds)
        chosen = played.move
        if chosen is None or chosen not in board.legal_moves:
            self._healthy = False
            shown = "no move" if chosen is None else chosen.uci()
            raise Forfeit(f"illegal move: {shown} in {board.fen()}")
        return chosen

    def close(self) -> None:
        """End the engine: ``quit`` when it has behaved (it is given the timeout to
        exit), else at once by SIGKILL; then python-chess closes its pipes."""
        engine, self._engine = self._engine, None
        if engine is not None:
            if not (self._healthy and self._quit(engine)):
                _kill(engine.transport.get_pid())
            engine.close()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _quit(self, engine: Any) -> bool:
        """Whether the engine quit when asked, within the timeout."""
        try:
            self._pool.submit(engine.quit).result(timeout=self.timeout)
        except Exception:  # any failure to quit: it is killed instead
            return False
        return True


def _kill(pid: int) -> None:
    """Send SIGKILL to the engine's process (gone already: nothing to do)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
