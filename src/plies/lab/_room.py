"""The game room's application layer: a game played move by move, as plain data.

A :class:`Room` is a game, its start position and the moves played since, each as the
game's own text; :func:`open_room` builds one from text (what a web request carries),
:func:`play_move`, :func:`undo` and :func:`roll` make the next one, and
:func:`room_state` turns one into a JSON-able document: the board, the legal moves,
whose turn it is, the result, the position in the game's own notation (chess and
checkers: each legal move's squares, so that a page plays them by clicking a piece and
where it goes without knowing the rules), the game exported. :func:`think`
runs the engine on the current position and yields what it found at each depth as it
comes, then its choice; a stop request ends it within a few milliseconds.

Everything a request can make large is bounded here (text lengths, the move list, the
depth and time of a search), so every shell of the room is safe to put online.
OpenSpiel's games are refused: OpenSpiel builds a game before any bound can apply.

>>> room = open_room("tictactoe", "", ["5", "1"])
>>> room_state(room)["position"]
'o../.x./...'
>>> room_state(play_move(room, "9"))["moves"]
['5', '1', '9']
"""

from __future__ import annotations

import inspect
import random
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from plies._arguments import need_int, need_object
from plies.engine import MctsTree, StopRequest
from plies.errors import IllegalMoveError, LimitError, PliesError
from plies.game import BaseGame, Board
from plies.games import OPENSPIEL, parse_game_spec
from plies.lab._analyze import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    Analysis,
    SearchOptions,
    SearchTable,
    analyze,
    analyze_once,
    run_mcts,
)
from plies.lab._games import MAX_GAME_TREE_NODES, picture
from plies.lab._text import format_score

__all__ = [
    "MAX_MOVES",
    "MAX_POSITION_TEXT",
    "MAX_ROOM_DEPTH",
    "MAX_ROOM_SECONDS",
    "PLAYERS",
    "Outcome",
    "Room",
    "RoomError",
    "export_game",
    "format_winners",
    "lab_depth",
    "open_room",
    "outcome",
    "play_move",
    "player_names",
    "roll",
    "room_algorithms",
    "room_of",
    "room_state",
    "think",
    "undo",
]

#: The longest game spec, position text and move text a room reads.
MAX_SPEC = 200
MAX_POSITION_TEXT = 10_000
MAX_MOVE_TEXT = 100
#: The most moves a room's history holds.
MAX_MOVES = 2_000
#: The most legal moves a room state lists (Nim's heaps can offer millions; the
#: others can still be typed).
MAX_LISTED_MOVES = 500
#: The deepest and longest engine search a room runs.
MAX_ROOM_DEPTH = 64
MAX_ROOM_SECONDS = 60.0
#: The most Monte-Carlo iterations the room's engine runs for one move.
MAX_ROOM_ITERATIONS = 1_000_000
#: The deepest game tree the room offers to open in the tree lab.
MAX_LAB_DEPTH = 12


class RoomError(PliesError):
    """A request the game room cannot serve; the message says why in one line."""


@dataclass(frozen=True)
class Room:
    """A game in progress: ``states[0]`` is the start, ``states[i + 1]`` the position
    after ``moves[i]`` (the game's move objects), ``texts[i]`` that move as text.
    A ``bounded`` room (one opened from a request) takes at most :data:`MAX_MOVES`
    moves, each typed in at most :data:`MAX_MOVE_TEXT` characters."""

    game: BaseGame[Any, Any]
    states: tuple[Any, ...]
    moves: tuple[Any, ...]
    texts: tuple[str, ...]
    bounded: bool = True

    @property
    def state(self) -> Any:
        """The current position."""
        return self.states[-1]

    def is_chance(self) -> bool:
        """Whether the current position waits for a chance event (a die roll)."""
        return self.game.has_chance and self.game.is_chance(self.state)


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise RoomError(f"the {what} is text, not {type(value).__name__}")
    if len(value) > limit:
        raise LimitError(f"the {what} has {len(value):,} characters, more than {limit:,}")
    return value


def open_room(spec: str, position: str = "", moves: Sequence[str] = ()) -> Room:
    """The room of game ``spec`` (``NAME[:key=value,...]``) from ``position`` (the
    game's POSITION text; empty: the start) after ``moves`` (texts, played in order).

    Raises :class:`RoomError` or :class:`~plies.errors.LimitError` for text that is
    too long or of the wrong type, the game's own error for a bad spec, position or
    move (an illegal move's message names the move number).
    """
    spec = _text(spec, "game", MAX_SPEC).strip()
    if not spec:
        raise RoomError("the room needs a game, e.g. tictactoe or connect4:width=6,height=5")
    if spec.partition(":")[0] == OPENSPIEL:
        raise RoomError("the game room plays the built-in games, not OpenSpiel's")
    position = _text(position, "position", MAX_POSITION_TEXT)
    if not isinstance(moves, list | tuple):
        raise RoomError("the moves are a list of texts")
    if len(moves) > MAX_MOVES:
        raise LimitError(f"the game has {len(moves):,} moves, more than {MAX_MOVES:,}")
    game = parse_game_spec(spec)
    room = Room(game, (game.parse_position(position),), (), ())
    for number, text in enumerate(moves, 1):
        try:
            room = play_move(room, text)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number}: {exc}") from None
    return room


def room_of(game: BaseGame[Any, Any], state: Any, *, bounded: bool = True) -> Room:
    """The room of a game and position a shell has already read (any game, OpenSpiel's
    too); ``bounded=False`` lifts the room's limits on moves (see :class:`Room`) for a
    game at the keyboard, where nothing comes from the network.

    >>> from plies.lab import load_game
    >>> room = room_of(*load_game("tictactoe", "1 4 2 5"), bounded=False)
    >>> room_state(play_move(room, "3"))["result"]
    'X wins'
    """
    need_object(game, BaseGame, "game")
    game.check_state(state)
    need_object(bounded, bool, "bounded")
    return Room(game, (state,), (), (), bounded)


def _need_room(room: object) -> None:
    """Check that ``room`` is a :class:`Room` (:class:`ArgumentTypeError` if not)."""
    need_object(room, Room, "room")


def need_player_to_move(room: Room) -> None:
    """Check that a player, not chance, moves next in ``room`` (:class:`RoomError`:
    the game is over, or a chance event is due first): what an engine's search asks."""
    game = room.game
    if game.is_terminal(room.state):
        raise RoomError(f"{game.name}: the game is over, there is nothing to search")
    if room.is_chance():
        raise RoomError(f"{game.name}: a chance event is due first (roll)")


def play_move(room: Room, text: str) -> Room:
    """``room`` after the move (or, at a chance node, the outcome) typed as ``text``.

    Raises the game's :class:`~plies.errors.IllegalMoveError` with its reason.
    """
    _need_room(room)
    text = _text(text, "move", MAX_MOVE_TEXT if room.bounded else sys.maxsize).strip()
    if not text:
        raise IllegalMoveError(f"{room.game.name}: a move is needed, not empty text")
    if room.bounded and len(room.moves) >= MAX_MOVES:
        raise LimitError(f"the game has {MAX_MOVES:,} moves, the room's most")
    game, state = room.game, room.state
    if game.is_terminal(state):
        raise IllegalMoveError(f"{game.name}: cannot play {text!r}: the game is over")
    move = game.parse_move(state, text)
    return _after(room, move)


def _after(room: Room, move: Any) -> Room:
    game, state = room.game, room.state
    child = game.play(state, move)
    return Room(
        game,
        (*room.states, child),
        (*room.moves, move),
        (*room.texts, game.format_move(state, move)),
        room.bounded,
    )


def undo(room: Room, count: int = 1) -> Room:
    """``room`` with its last ``count`` moves taken back."""
    _need_room(room)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RoomError(f"undo takes back a whole number of moves >= 1, not {count!r}")
    if count > len(room.moves):
        if not room.moves:
            raise RoomError("there is no move to undo")
        raise RoomError(f"cannot undo {count} moves: the game has {len(room.moves)}")
    keep = len(room.moves) - count
    return Room(
        room.game, room.states[: keep + 1], room.moves[:keep], room.texts[:keep], room.bounded
    )


def roll(room: Room, rng: random.Random | None = None) -> Room:
    """``room`` after a chance event drawn by its probability (``rng``: a fresh
    system-seeded generator unless given)."""
    _need_room(room)
    if rng is not None:
        need_object(rng, random.Random, "rng")
    if not room.is_chance():
        raise RoomError(f"{room.game.name}: no chance event is due, so there is nothing to roll")
    outcomes = list(room.game.chance_outcomes(room.state))
    rng = rng or random.Random()
    (move,) = rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes])
    return _after(room, move)


# -- the board ------------------------------------------------------------------------

#: What a room calls the sides of a two-player game that names none
#: (:meth:`BaseGame.player_names`); a game of N players has ``player 1`` to ``player N``.
PLAYERS = ("player 1", "player 2")
#: The room's cell letters of a board found in the position text.
_CELLS = str.maketrans("XO-", "xo.")


def _board(game: BaseGame[Any, Any], state: Any) -> Board | None:
    """The board the game draws (:meth:`BaseGame.board`: with the cells or the path each
    move stands for), else a small board found in its position text by
    :func:`plies.lab._games.picture` (without moves), else None."""
    board = game.board(state)
    if board is not None:
        return board
    rows = picture(game, state)
    return None if rows is None else Board([row.translate(_CELLS) for row in rows])


def _board_json(board: Board) -> dict[str, Any]:
    """The board as JSON: its rows, style and labels; ``pieces`` when a move is played
    by picking a piece up and putting it down (see :class:`~plies.game.Board`)."""
    return {
        "rows": list(board.rows),
        "style": board.kind,
        "columns": list(board.columns),
        "row_labels": list(board.row_labels),
        "pieces": board.detail_of is not None,
        "numbers": None if board.numbers is None else [list(row) for row in board.numbers],
        "check": None if board.check is None else list(board.check),
    }


def player_names(game: BaseGame[Any, Any]) -> tuple[str, ...]:
    """What the room calls the players, one name each in turn order: the game's own
    names, else ``player 1`` to ``player N`` (:data:`PLAYERS` for two)."""
    return game.player_names() or tuple(f"player {i + 1}" for i in range(game.num_players))


def format_winners(names: Sequence[str], winners: Sequence[int]) -> str:
    """The result in words: ``Red wins``, ``Red and Blue share the win``
    (``A, B and C`` for three), or ``draw`` when nobody stands above the others."""
    if not winners:
        return "draw"
    if len(winners) == 1:
        return f"{names[winners[0]]} wins"
    listed = [names[player] for player in winners]
    return f"{', '.join(listed[:-1])} and {listed[-1]} share the win"


#: The engine algorithms the room offers, the default first: alpha-beta (PVS) and MCTS
#: for two players; for more, Best-Reply Search (the quickest to play well here:
#: depth 4 of a Rolit opening in 0.014 s, max^n's 0.027 s; in three-player Chinese
#: Checkers 0.07 s against max^n's 0.58 s), paranoid, max^n and MCTS.
TWO_PLAYER_ALGORITHMS = (DEFAULT_ALGORITHM, "mcts")
MULTI_PLAYER_ALGORITHMS = ("brs", "paranoid", "maxn", "mcts")


def room_algorithms(game: BaseGame[Any, Any]) -> tuple[str, ...]:
    """The engine algorithms the room offers for ``game``, its default first."""
    return TWO_PLAYER_ALGORITHMS if game.num_players == 2 else MULTI_PLAYER_ALGORITHMS


def lab_depth(
    game: BaseGame[Any, Any], state: Any, max_nodes: int, max_depth: int = MAX_LAB_DEPTH
) -> int | None:
    """The deepest tree of ``state`` (at most ``max_depth``) with at most ``max_nodes``
    nodes, counted level by level; None when even one ply is too many (or the game is
    over): the depth to open the position at in the tree lab.

    A level's moves are counted before any is played, so the level that does not fit
    costs move lists, not positions: 40 states of a random chess game took 3.1 s
    instead of 5.9 s (PGN export included, on a loaded machine)."""
    level, total = [state], 1
    for depth in range(1, max_depth + 1):
        expanded: list[tuple[Any, list[Any]]] = []
        count = 0
        for position in level:
            if game.is_terminal(position):
                continue
            if game.has_chance and game.is_chance(position):
                moves = [m for m, _ in game.chance_outcomes(position)]
            else:
                moves = list(islice(game.legal_moves(position), max_nodes + 1))
            count += len(moves)
            if total + count > max_nodes:
                return depth - 1 or None
            expanded.append((position, moves))
        if not count:
            return depth - 1 or None
        total += count
        level = [game.play(position, m) for position, moves in expanded for m in moves]
    return max_depth


#: What a room calls its games in an export's header.
EVENT = "plies game room"
#: The longest name of a player a room takes.
MAX_NAME = 60


#: How the room's messages write a number of players.
_COUNTS = {2: "two", 3: "three", 4: "four", 6: "six"}


def _names(names: Any, count: int) -> tuple[str, ...] | None:
    """The ``count`` players' names of a request (None: not given), checked."""
    if names is None:
        return None
    if (
        not isinstance(names, list | tuple)
        or len(names) != count
        or not all(isinstance(n, str) and len(n) <= MAX_NAME for n in names)
    ):
        how_many = _COUNTS.get(count, str(count))
        raise RoomError(f"the names are {how_many} texts of at most {MAX_NAME} characters")
    return tuple(names)


def export_game(room: Room, names: Sequence[str] | None = None) -> str:
    """The game as text: the game's own ``export_game(start, moves)`` when it has
    one (PGN for chess, PDN for checkers), else the moves' texts separated by spaces.

    A hook that takes ``headers`` gets the room's: ``Event`` and, given ``names``
    (the players', in the game's order), one header per side named as the room
    names the side (``White``, ``Black``)."""
    checked = _names(names, room.game.num_players)
    exporter = getattr(room.game, "export_game", None)
    if not callable(exporter):
        return " ".join(room.texts)
    start, moves = room.states[0], list(room.moves)
    if "headers" not in inspect.signature(exporter).parameters:
        return str(exporter(start, moves))
    headers = {"Event": EVENT}
    if checked is not None:
        headers.update(zip(player_names(room.game), checked, strict=True))
    return str(exporter(start, moves, headers=headers))


def room_state(
    room: Room, *, lab_nodes: int = 2_000, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The room as a JSON-able document: the game, the position (the game's own
    notation, also of the start), the moves played, whose turn it is, the legal moves
    (``index`` into the game's list, ``text`` and the board ``cells`` each stands
    for, or on a board played with pieces the move's ``path`` and details, see
    :class:`~plies.game.Board`; at a chance node the outcomes with their ``probability``), the
    result once the game is over (with the reason when the game names one), who made
    each move (``movers``: 0, 1 or None for a chance event), the board (grid games)
    and the game's own picture, the game exported (with the players' ``names`` where
    the export has a header for them), and the depth to open the position at in the
    tree lab (``lab_depth``, trees of at most ``lab_nodes`` nodes, from 1 to
    :data:`~plies.lab._games.MAX_GAME_TREE_NODES`)."""
    _need_room(room)
    need_int(lab_nodes, "lab_nodes")
    if not 1 <= lab_nodes <= MAX_GAME_TREE_NODES:
        raise LimitError(f"lab_nodes must be from 1 to {MAX_GAME_TREE_NODES:,}, not {lab_nodes:,}")
    game, state = room.game, room.state
    board = _board(game, state)
    players = player_names(game)
    terminal = game.is_terminal(state)
    chance = room.is_chance()
    legal: list[dict[str, Any]] = []
    count = 0
    if chance:
        outcomes = game.chance_outcomes(state)
        count = len(outcomes)
        for index, (move, p) in enumerate(islice(outcomes, MAX_LISTED_MOVES)):
            legal.append({"index": index, "text": game.format_move(state, move), "probability": p})
    elif not terminal:
        moves = game.legal_moves(state)
        count = len(moves)
        for index, move in enumerate(islice(moves, MAX_LISTED_MOVES)):
            text = game.format_move(state, move)
            cells = board.cells_of(text) if board else []
            entry = {"index": index, "text": text, "cells": [list(c) for c in cells]}
            if board is not None and board.detail_of is not None:
                entry.update(board.detail_of(move))
            legal.append(entry)
    over = outcome(room)
    result = winner = None
    winners: list[int] = []
    if over is not None:
        winner, winners = over.winner, list(over.winners)
        result = format_winners(players, winners)
        if over.reason:
            result += f" ({over.reason})"
    to_move = game.to_move(state)
    return {
        "game": game.name,
        "position": game.format_position(state),
        "start": game.format_position(room.states[0]),
        "moves": list(room.texts),
        "movers": [
            None if game.has_chance and game.is_chance(before) else game.to_move(before)
            for before in room.states[:-1]
        ],
        "ply": len(room.moves),
        "players": list(players),
        "to_move": to_move,
        "player": players[to_move],
        "terminal": terminal,
        "result": result,
        "winner": winner,
        "winners": winners,
        "algorithms": list(room_algorithms(game)),
        "chance": chance,
        "legal": legal,
        "legal_count": count,
        "board": _board_json(board) if board else None,
        "last": _last_cells(room, board),
        "text": game.render(state),
        "export": export_game(room, names),
        "lab_depth": lab_depth(game, state, lab_nodes),
    }


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the ``winner`` (the one player with the highest
    utility; None: a draw or a shared win), where the game names one the ``reason``
    (chess's ``checkmate``, checkers' draw rule), and the ``winners``: every player
    with the highest utility, in player order, or none when all players share it (a
    draw). So two or more of four Rolit players tied for the most discs share the win,
    and a Chinese Checkers game that reached its turn limit is a draw."""

    winner: int | None
    reason: str | None
    winners: tuple[int, ...] = ()


def outcome(room: Room) -> Outcome | None:
    """How the room's game ended (from the players' utilities), None while it goes
    on."""
    _need_room(room)
    game, state = room.game, room.state
    if not game.is_terminal(state):
        return None
    utilities = game.utilities(state)
    best = max(utilities)
    winners = tuple(player for player, value in enumerate(utilities) if value == best)
    if len(winners) == len(utilities):
        winners = ()
    winner = winners[0] if len(winners) == 1 else None
    return Outcome(winner, _reason(game, state), winners)


def _reason(game: BaseGame[Any, Any], state: Any) -> str | None:
    """Why a finished game ended, where the game says (chess's ``outcome``, checkers'
    draw rule)."""
    outcome = getattr(game, "outcome", None)
    if callable(outcome):
        return str(outcome(state) or "") or None
    is_draw_by_rule = getattr(game, "is_draw_by_rule", None)
    if callable(is_draw_by_rule) and is_draw_by_rule(state):
        return "the draw rule"
    return None


def _last_cells(room: Room, board: Board | None) -> list[list[int]]:
    """The cells the last move changed: its path on a board played with pieces, its
    own square where it names one, else the cells that differ from the position
    before (the disc a Connect Four move drops)."""
    if board is None or not room.moves:
        return []
    if board.detail_of is not None:
        return [list(cell) for cell in board.detail_of(room.moves[-1])["path"]]
    before = _board(room.game, room.states[-2])
    own = before.cells_of(room.texts[-1]) if before else []
    if len(own) == 1:
        return [list(own[0])]
    if before is None or len(before.rows) != len(board.rows):
        return []
    return [
        [r, c]
        for r, (old, new) in enumerate(zip(before.rows, board.rows, strict=True))
        for c, (a, b) in enumerate(zip(old, new, strict=False))
        if a != b
    ]


# -- the engine -----------------------------------------------------------------------


def _limits(
    depth: int | None, seconds: float | None, algorithm: str, iterations: int | None = None
) -> SearchOptions:
    if algorithm not in ALGORITHMS:
        raise RoomError(f"the algorithm is one of {', '.join(ALGORITHMS)}, not {algorithm!r:.40}")
    if algorithm == "mcts" and (depth is not None or seconds is None):
        raise RoomError(f"mcts searches within a number of seconds, not a depth (got {depth!r})")
    if depth is None and seconds is None:
        raise RoomError("the engine needs a depth or a number of seconds")
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_ROOM_DEPTH
    ):
        raise RoomError(f"the depth is a whole number from 1 to {MAX_ROOM_DEPTH}, not {depth!r}")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= MAX_ROOM_SECONDS
    ):
        raise RoomError(
            f"the time is a number of seconds above 0 and at most {MAX_ROOM_SECONDS:g}, "
            f"not {seconds!r}"
        )
    if iterations is not None and (
        algorithm != "mcts"
        or isinstance(iterations, bool)
        or not isinstance(iterations, int)
        or not 1 <= iterations <= MAX_ROOM_ITERATIONS
    ):
        raise RoomError(
            f"iterations are a whole number from 1 to {MAX_ROOM_ITERATIONS:,} for mcts only, "
            f"not {iterations!r:.40} with {algorithm}"
        )
    if algorithm == "mcts":
        return SearchOptions(time=seconds, algorithm=algorithm, iterations=iterations)
    return SearchOptions(depth=depth or MAX_ROOM_DEPTH, time=seconds, algorithm=algorithm)


def think(
    room: Room,
    *,
    depth: int | None = None,
    seconds: float | None = None,
    algorithm: str | None = None,
    stop: StopRequest | None = None,
    iterations: int | None = None,
) -> Iterator[dict[str, Any]]:
    """The engine on the current position: one ``{"kind": "info", ...}`` per completed
    depth (``depth``, ``score`` for the side to move as text, ``pv`` as move texts,
    ``nodes``, ``nps``, ``time``), then ``{"kind": "best", "index", "text",
    "depth", "score", "stopped"}``: the move it would play (``stopped``: a limit or
    ``stop`` cut the last depth short, or no depth finished and the move is the
    first of the game's ordering). ``algorithm`` is one of :data:`plies.lab.ALGORITHMS`
    (None: the game's default in :func:`room_algorithms`, alpha-beta for two players,
    Best-Reply Search for more); ``"mcts"`` searches within ``seconds`` (no depth),
    and ``iterations`` when given (at most :data:`MAX_ROOM_ITERATIONS`), gives one
    ``info``, and searches on from the tree kept from the engine's last MCTS move in
    this game when it holds the position.

    The limits are checked before anything runs (:class:`RoomError`); the first item
    comes only after the position was checked to be one where a player moves.
    """
    _need_room(room)
    if stop is not None and not isinstance(stop, threading.Event) and not callable(stop):
        raise RoomError(f"stop must be a threading.Event, a callable or None, not {stop!r:.40}")
    if algorithm is None:
        algorithm = room_algorithms(room.game)[0]
    options = _limits(depth, seconds, algorithm, iterations)
    need_player_to_move(room)
    return _thinking(room, options, stop)


def _deepen(
    room: Room,
    options: SearchOptions,
    stop: StopRequest | None,
    table: SearchTable | None = None,
    soft: float | None = None,
) -> Iterator[tuple[Analysis, bool | None]]:
    """The engine choosing its move in the room's position (a player moves next): each completed
    depth as ``(analysis, None)``, then the analysis whose move it plays and whether a
    limit or ``stop`` cut the search short: the last completed depth, or a one-ply
    search when no depth finished. The web room streams it (:func:`think`) and ``plies
    play`` plays its move (:func:`plies.lab.engine_move`). A ``table`` (not for MCTS)
    is kept between the searches of a game, as a match's players keep one. No depth
    starts once ``soft`` seconds have passed (a clock's move: :mod:`plies.lab._clock`)."""
    started = time.monotonic()
    game, state = room.game, room.state
    stop = stop if stop is not None else threading.Event()
    last = None
    searches = (
        iter([_kept_tree_mcts(room, options, stop)])
        if options.algorithm == "mcts"
        else analyze(game, state, options, stop=stop, table=table)
    )
    for found in searches:
        last = found
        yield found, None
        if soft is not None and time.monotonic() - started > soft:
            break  # the next depth would cost several times this one's time
    stopped = last is None or (last.result.depth < (options.depth or 0) and not last.result.exact)
    if last is None or last.result.best_move is None:
        # Not one depth finished: the one-ply search is fast and never stops early.
        last = analyze_once(game, state, SearchOptions(depth=1, time=0.5))
    yield last, stopped


#: The trees of the last MCTS moves in this process (``plies play``, the web room, a
#: match's players), by the game (its name with its settings) and the position searched,
#: the last used last: the engine's next move, two plies later, searches on from the
#: tree kept for the position two plies back (the engine's move and the reply are in
#: it), as :func:`plies.engine.mcts`'s ``reuse``. So two games of one kind (two rooms
#: on a server, the two MCTS players of a match) each find their own tree. A search
#: takes its tree out while it runs, so two searches never share one.
_KEPT_TREES: OrderedDict[tuple[str, Hashable], MctsTree] = OrderedDict()
_KEPT_LOCK = threading.Lock()
#: At most this many trees are kept, and no tree of more nodes (about 0.5 KB a node: a
#: second of native search grows some 30,000).
MAX_KEPT_TREES = 8
MAX_KEPT_NODES = 200_000


def _kept_tree_mcts(room: Room, options: SearchOptions, stop: StopRequest | None) -> Analysis:
    """The engine's MCTS move in the room's position within ``options``, searched on
    from the tree kept from the search two plies back, whose tree is then kept in turn."""
    game, state = room.game, room.state
    kept = None
    if len(room.states) >= 3:
        with _KEPT_LOCK:
            kept = _KEPT_TREES.pop((game.name, game.key(room.states[-3])), None)
    found = run_mcts(game, state, options, stop, reuse=kept)
    if found.tree is not None and found.tree_nodes <= MAX_KEPT_NODES:
        with _KEPT_LOCK:
            _KEPT_TREES[game.name, game.key(state)] = found.tree
            while len(_KEPT_TREES) > MAX_KEPT_TREES:
                _KEPT_TREES.popitem(last=False)
    return Analysis(game, state, found.as_search_result())


def _thinking(
    room: Room, options: SearchOptions, stop: StopRequest | None
) -> Iterator[dict[str, Any]]:
    game, state = room.game, room.state
    for found, stopped in _deepen(room, options, stop):
        result = found.result
        if stopped is None:
            yield {
                "kind": "info",
                "depth": result.depth,
                "score": format_score(found.score),
                "pv": list(found.line),
                "nodes": result.stats.nodes,
                "nps": round(result.stats.nps),
                "time": round(result.stats.time, 3),
                "exact": result.exact,
            }
            continue
        best_move = result.best_move
        index = next(i for i, m in enumerate(game.legal_moves(state)) if m == best_move)
        yield {
            "kind": "best",
            "index": index,
            "text": game.format_move(state, best_move),
            "depth": result.depth,
            "score": format_score(found.score),
            "stopped": stopped,
        }
