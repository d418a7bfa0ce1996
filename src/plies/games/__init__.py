"""The built-in games, found by name.

Each game has one home, a package ``plies.games.<name>``: its Python rules
(``_rules.py``), its native port where it has one (``_native.py``, built on the
public :mod:`plies.engine.native`; Connect Four adds Pons' solver) and its
``__init__`` naming its public classes. Games share the text helpers of
:mod:`plies.games.text`; the engine imports no game and finds a port only through
the game's ``native()``.

:data:`GAMES` is a plain list of :class:`GameEntry` rows; adding a game is adding a
home and a row (and passing :func:`plies.testing.check_game`). A game's home is
imported only when the game is asked for, so listing the games
stays cheap. Names may carry parameters for the factory: ``get_game("mnk", m=4,
n=4, k=3)``, or as text ``parse_game_spec("mnk:m=4,n=4,k=3")`` (what the command
line accepts as GAME). ``openspiel:`` followed by OpenSpiel's own game text
(``openspiel:go(board_size=5,komi=0.5)``) loads an OpenSpiel game through
:mod:`plies.games.openspiel` (extra ``plies[openspiel]``).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any

from plies.errors import ArgumentTypeError, PliesError, UnknownGameError
from plies.game import BaseGame
from plies.games.text import MAX_DIGITS, shown

__all__ = ["GAMES", "OPENSPIEL", "GameEntry", "available_games", "get_game", "parse_game_spec"]

#: The prefix of OpenSpiel games: ``openspiel:`` and OpenSpiel's text of the game.
OPENSPIEL = "openspiel"


@dataclass(frozen=True)
class GameEntry:
    """One registered game: its name, where its class lives, and one-line help."""

    name: str
    #: ``"module:attribute"`` of the factory (usually the game class).
    factory: str
    #: What the game is, in a few words.
    summary: str
    #: How moves and POSITION text are written, in one line.
    notation: str
    #: Default factory parameters (keyword arguments), given before the user's own.
    defaults: tuple[tuple[str, int], ...] = ()

    def create(self, **params: int) -> BaseGame[Any, Any]:
        """Import the game's module and build the game with ``params``.

        The game is named as asked for: the entry's name, then the parameters given
        (``tictactoe``, ``mnk:m=4,n=4,k=3``), in its messages too (they read
        ``game.name``). Raises :class:`UnknownGameError` naming the parameters that
        exist for an unknown one, and for a value the game refuses (with its range).
        """
        factory = self._factory()
        known = _parameter_names(inspect.signature(factory))
        unknown = [key for key in params if key not in known]
        if unknown:
            listed = ", ".join(known) if known else "none"
            raise UnknownGameError(
                f"{self.name}: unknown parameter {shown(unknown[0])} (parameters: {listed})"
            )
        label = self.name
        if params:
            label += ":" + ",".join(f"{key}={value}" for key, value in params.items())
        try:
            game: BaseGame[Any, Any] = factory(**{**dict(self.defaults), **params})
        except ArgumentTypeError as exc:
            raise ArgumentTypeError(f"{label}: {exc}") from None
        except PliesError as exc:
            raise UnknownGameError(f"{label}: {exc}") from None
        game.name = label
        return game

    def parameters(self) -> list[str]:
        """The names of the parameters the game takes (``NAME:key=value``)."""
        return _parameter_names(inspect.signature(self._factory()))

    def parameter_defaults(self) -> dict[str, int]:
        """The parameters that take a number, with the value used when none is given."""
        signature = inspect.signature(self._factory())
        given = dict(self.defaults)
        found = {}
        for name in _parameter_names(signature):
            value = given.get(name, signature.parameters[name].default)
            if type(value) is int:
                found[name] = value
        return found

    def _factory(self) -> Any:
        module_name, _, attribute = self.factory.partition(":")
        return getattr(importlib.import_module(module_name), attribute)


def _parameter_names(signature: inspect.Signature) -> list[str]:
    """The names of the parameters a factory of this ``signature`` takes by keyword."""
    return [
        name
        for name, parameter in signature.parameters.items()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    ]


#: Every built-in game, in the order ``plies games`` lists them.
GAMES: list[GameEntry] = [
    GameEntry(
        "tictactoe",
        "plies.games.mnk:MNKGame",
        "tic-tac-toe (the 3,3,3 m,n,k-game)",
        "cells 1-9 row by row from the top left; POSITION = moves '5 1 9' or board 'x.o/.x./..o'",
        (("m", 3), ("n", 3), ("k", 3)),
    ),
    GameEntry(
        "mnk",
        "plies.games.mnk:MNKGame",
        "m,n,k-game: k in a row on m columns x n rows (mnk:m=4,n=4,k=3)",
        "cells 1..m*n row by row from the top left; POSITION = moves or board rows joined by /",
        (("m", 3), ("n", 3), ("k", 3)),
    ),
    GameEntry(
        "nim",
        "plies.games.nim:Nim",
        "Nim, normal play: take any number from one heap, taking the last object wins",
        "POSITION = heap sizes '3,4,5' (default 3,4,5); move 'H:N' takes N from heap H (1-based)",
    ),
    GameEntry(
        "connect4",
        "plies.games.connect4:Connect4",
        "Connect Four on bitboards, 7 x 6 by default (connect4:width=6,height=5)",
        "moves are columns 1-7 from the left; POSITION = columns played '4453' (commas past 9)",
        (("width", 7), ("height", 6)),
    ),
    GameEntry(
        "othello",
        "plies.games.othello:Othello",
        "Othello / Reversi 8 x 8 on bitboards, with passes",
        "moves d3 or pass; POSITION = moves 'f5d6c3' or board: 64 X/O/- from a1 then side X/O",
    ),
    GameEntry(
        "checkers",
        "plies.games.checkers:Checkers",
        "English draughts 8 x 8 on bitboards; drawn after 40 moves each without a capture "
        "or a man's move (checkers:draw_moves=20)",
        "squares 1-32, Black on 1-12 moves first; moves 11-15, 22x15, 22x15x24; POSITION = "
        "moves '11-15 23-19' or FEN 'B:W21,...,K30:B1,...[:plies]'",
        (("draw_moves", 40),),
    ),
    GameEntry(
        "pig",
        "plies.games.pig:Pig",
        "Pig, the dice game (chance nodes), to 20 points by default (pig:target=30)",
        "moves roll, hold; POSITION = events 'roll 4 roll 1' or 'scores 12,7 total 5 player 2'",
        (("target", 20),),
    ),
    GameEntry(
        "rolit",
        "plies.games.rolit:Rolit",
        "Rolit, four-player Othello 8 x 8 (Red, Yellow, Green, Blue): capture when you "
        "can, else place next to any disc; the most discs when the board is full wins",
        "moves d3; POSITION = moves 'f4 c3' or board: 64 R/Y/G/B/- from a1 then the player R/Y/G/B",
    ),
    GameEntry(
        "chinese-checkers",
        "plies.games.chinese_checkers:ChineseCheckers",
        "Chinese Checkers on the star, 2/3/4/6 players, 73 holes and 6 pieces each by "
        "default (chinese-checkers:players=3; size=4: 121 holes, 10 pieces; turns=100)",
        "holes numbered from the top; moves 68-61 (step), 71x61x49 (jumps), pass; POSITION = "
        "moves or ROWS PLAYER PLY '1/11/.../222 1 0' (k: player k's piece, .: empty)",
        (("players", 2), ("size", 3), ("turns", 100)),
    ),
    GameEntry(
        "chess",
        "plies.games.chess:Chess",
        "chess on python-chess (the chess extra): every draw rule, mate scores",
        "moves in SAN (Nf3) or UCI (g1f3); POSITION = FEN [moves ...] or moves 'e4 e5 Nf3'",
    ),
]


def available_games() -> list[str]:
    """The names of the registered games, in registry order."""
    return [entry.name for entry in GAMES]


def get_entry(name: str) -> GameEntry:
    """The registry row of ``name``; raises :class:`UnknownGameError` if there is none."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    known = ", ".join(available_games())
    raise UnknownGameError(f"unknown game {shown(name)} (known: {known})")


def get_game(name: str, **params: int) -> BaseGame[Any, Any]:
    """Build the game registered as ``name`` with factory parameters ``params``, or
    the OpenSpiel game ``openspiel:TEXT`` (its parameters inside TEXT)."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"a game name is text, not {name!r}")
    head, colon, rest = name.partition(":")
    if head == OPENSPIEL and colon:
        if params:
            raise UnknownGameError(
                "openspiel: give the parameters inside the game text, "
                "e.g. openspiel:go(board_size=5,komi=0.5)"
            )
        return _openspiel(rest)
    return get_entry(name).create(**params)


def _openspiel(text: str) -> BaseGame[Any, Any]:
    """The OpenSpiel game of ``text`` (imported only when asked for)."""
    from plies.games.openspiel import load

    return load(text)


def parse_game_spec(spec: str) -> BaseGame[Any, Any]:
    """Build a game from text: ``NAME`` or ``NAME:key=value,key=value`` (integers).

    Raises :class:`UnknownGameError` for an unknown name or malformed parameters.
    ``openspiel:TEXT`` is an OpenSpiel game (see :func:`get_game`).
    """
    if not isinstance(spec, str):
        raise ArgumentTypeError(f"a game spec is text such as 'connect4', not {spec!r:.40}")
    name, colon, rest = spec.strip().partition(":")
    if name == OPENSPIEL and colon:
        return _openspiel(rest)
    entry = get_entry(name)
    params: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key.isidentifier():
            raise UnknownGameError(
                f"bad game parameter {shown(item)} in {shown(spec)} (want key=value)"
            )
        digits = value.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):
            raise UnknownGameError(
                f"bad game parameter {shown(item)} in {shown(spec)} (value must be an integer)"
            )
        if len(digits) > MAX_DIGITS:
            raise UnknownGameError(
                f"{name}: parameter {key} has {len(digits):,} digits, more than any game "
                f"allows (at most {MAX_DIGITS})"
            )
        params[key] = int(value)
    return entry.create(**params)
