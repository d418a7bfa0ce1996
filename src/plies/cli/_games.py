"""``plies games`` lists the built-in games; ``plies play`` plays one.

``plies play GAME [POSITION]`` is a game between people at the keyboard and the
search engine, on either side or both, through the game room of :mod:`plies.lab`
(the web app's too). Moves typed by a person are read one per line from standard
input; a malformed or illegal move is refused with the reason and asked again.
'quit' ends the game (exit 0), end of input abandons it (exit 1), Ctrl-C too (exit
130, with the position reached).
Chance outcomes (dice) are drawn by a random generator seeded with ``--seed``, so a
game can be replayed exactly.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from plies.cli._args import add_game_arguments, load_position, note, seconds, whole_number
from plies.cli._book import add_book_argument, book_summary, open_book
from plies.cli._console import output_console
from plies.errors import PliesError
from plies.game import BaseGame
from plies.lab import (
    ALGORITHMS,
    BACKENDS,
    DEFAULT_ALGORITHM,
    GAMES,
    Book,
    Outcome,
    Room,
    RoomError,
    SearchOptions,
    check_backend,
    engine_move,
    format_winners,
    outcome,
    play_engine_move,
    play_move,
    player_names,
    roll,
    room_algorithms,
    room_of,
)

__all__ = ["register"]

#: Seconds per engine move when neither ``--depth`` nor ``--time`` is given.
DEFAULT_TIME = 1.0
#: Who the people at the keyboard play, by ``--human``; a number (``--human 3``) is
#: that seat of a game of more players, and ``both`` or ``all`` is every seat.
HUMAN_SIDES = {"first": (0,), "second": (1,), "both": (0, 1), "all": (0, 1), "none": ()}
#: The most players a game has (Chinese Checkers' six): the seats ``--human`` takes.
MAX_SEATS = 6
#: Words that abandon the game at a move prompt (exit status 0: the user chose to).
QUIT_WORDS = ("quit", "exit", "resign")
#: What the prompt returns for one of them.
_QUIT = object()

PLAY_EPILOG = """\
examples:
  plies play connect4                      you play first against 1 s per engine move
  plies play connect4 4453 --depth 8       from a position, engine searches 8 plies
  plies play othello --human second        the engine opens with black
  plies play pig --human none --seed 3     engine against engine, dice seeded
  plies play connect4:width=6,height=5     parameters after the name
  plies play rolit --human 3 --depth 4     you play Green; three engines (BRS) play the rest

At the prompt type a move in the game's notation ('plies games' lists them), or
'quit' (exit status 0). End of input (Ctrl-D) abandons the game with exit status 1;
Ctrl-C with 130, printing the command that goes on from the position reached.
"""


def register(subparsers: Any) -> None:
    """Add the ``games`` and ``play`` subcommands."""
    games = subparsers.add_parser(
        "games",
        help="list the built-in games and their notation",
        description="List the built-in games, their parameters and how to write moves "
        "and positions (the POSITION of 'plies play').",
    )
    games.set_defaults(handler=run_games)

    play = subparsers.add_parser(
        "play",
        help="play a game against the engine (or watch the engine play itself)",
        description="Play GAME from POSITION (default: the start). People type moves on "
        "standard input; the engine answers with plies' search.",
        epilog=PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(play)
    play.add_argument(
        "--human",
        choices=(*HUMAN_SIDES, *map(str, range(1, MAX_SEATS + 1))),
        default="first",
        help="which side people play: first (default), second, both, or none (engine "
        "against engine); in a game of more players a seat 1-N, or all",
    )
    play.add_argument(
        "--depth",
        type=whole_number(1),
        metavar="N",
        help="engine searches N plies per move",
    )
    play.add_argument(
        "--time",
        type=seconds,
        metavar="S",
        help=f"engine thinks at most S seconds per move (default {DEFAULT_TIME:g} when "
        "--depth is not given; both may be given)",
    )
    play.add_argument(
        "--iterations",
        type=whole_number(1),
        metavar="N",
        help="with --algorithm mcts: engine runs at most N Monte-Carlo iterations per move",
    )
    play.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help=f"engine search algorithm (default {DEFAULT_ALGORITHM}; brs for games of more "
        "than two players)",
    )
    play.add_argument(
        "--backend",
        choices=BACKENDS,
        help="engine search: compiled (native: Connect Four, m,n,k, Nim, Othello, "
        "checkers; needs numba) or python; "
        "default native where it runs",
    )
    play.add_argument(
        "--seed",
        type=whole_number(0),
        metavar="N",
        help="seed of the dice for games with chance (default: a random seed, printed "
        "so the game can be replayed)",
    )
    add_book_argument(play)
    play.set_defaults(handler=run_play)


def run_games(_args: argparse.Namespace) -> int:
    """Handler of ``plies games``: one entry per game with its notation."""
    console = output_console()
    for entry in GAMES:
        console.print(f"[bold]{entry.name}[/bold]  {entry.summary}", markup=True)
        defaults = entry.parameter_defaults()
        if defaults:
            listed = ",".join(f"{key}={value}" for key, value in defaults.items())
            console.print(f"    parameters: {entry.name}:{listed}", markup=False)
        console.print(f"    notation: {entry.notation}", markup=False)
    console.print(
        "[bold]openspiel:GAME[/bold]  any OpenSpiel game with two players taking turns, "
        "perfect information and zero-sum payoffs, chance nodes allowed "
        "(extra plies[openspiel]), e.g. 'openspiel:go(board_size=5,komi=0.5)'",
        markup=True,
    )
    console.print(
        "    notation: OpenSpiel's action text or action id; POSITION = action ids from "
        "the start, '4 0 8'",
        markup=False,
    )
    return 0


class _Players:
    """Names for the seats, as shown in messages, and who sits there: ``player 1
    (you)``; in games of more players the game's own names where it has them (Rolit's
    ``Green (you)``: which colour is yours matters among four). Two-player games keep
    the numbers: their own names (``X (red)``) already show in the board's line."""

    def __init__(self, names: tuple[str, ...], humans: tuple[int, ...]) -> None:
        self.names = names
        self.humans = humans

    def name(self, player: int) -> str:
        """``NAME (you|human|engine)``; "human" when people play more than one seat."""
        if player not in self.humans:
            role = "engine"
        else:
            role = "you" if len(self.humans) == 1 else "human"
        return f"{self.names[player]} ({role})"


def _play_notes(game: BaseGame[Any, Any], args: argparse.Namespace) -> None:
    """A ``note:`` for each option given that cannot change this game."""
    if args.seed is not None and not game.has_chance:
        note(f"--seed has no effect: {game.name} has no dice")
    if len(args.humans) == game.num_players:
        given = [
            option
            for option, value in (
                ("--depth", args.depth),
                ("--time", args.time),
                ("--iterations", args.iterations),
            )
            if value is not None
        ]
        if args.algorithm != _algorithm(game, DEFAULT_ALGORITHM):
            given.append("--algorithm")
        if given:
            verb = "has" if len(given) == 1 else "have"
            note(
                f"{', '.join(given)} {verb} no effect with --human {args.human}: the engine "
                "never moves"
            )


def _seats(game: BaseGame[Any, Any], human: str) -> tuple[int, ...]:
    """The seats people play by ``--human``: a number is one seat of the game's."""
    if human in ("both", "all"):
        return tuple(range(game.num_players))
    if human in HUMAN_SIDES:
        return HUMAN_SIDES[human]
    seat = int(human) - 1
    if seat >= game.num_players:
        raise RoomError(
            f"--human {human}: {game.name} has {game.num_players} players (seats 1 to "
            f"{game.num_players})"
        )
    return (seat,)


def _algorithm(game: BaseGame[Any, Any], asked: str) -> str:
    """The engine's search: the one asked for, but for a game of more than two players
    where none was asked for the room's N-player default (Best-Reply Search)."""
    if game.num_players == 2 or asked != DEFAULT_ALGORITHM:
        return asked
    return room_algorithms(game)[0]


def run_play(args: argparse.Namespace) -> int:
    """Handler of ``plies play``: the game loop. Exit 0 at the end of the game or on
    'quit', 1 at the end of input, 130 on Ctrl-C (the position reached printed)."""
    game, state = load_position(args)
    args.humans = _seats(game, args.human)
    args.algorithm = _algorithm(game, args.algorithm)
    _play_notes(game, args)
    # An impossible --backend native is an error now, not at the engine's first move.
    check_backend(game, args.backend, state=state, algorithm=args.algorithm)
    book = open_book(args.book, game)
    reached = [room_of(game, state, bounded=False)]
    try:
        return _play_game(reached, args, book)
    except KeyboardInterrupt:
        print(
            f"error: interrupted; to go on from here: plies play {shlex.quote(args.game)} "
            f"{shlex.quote(game.format_position(reached[0].state))}",
            file=sys.stderr,
        )
        return 130
    finally:
        book_summary(book, "engine moves")


def _play_game(reached: list[Room], args: argparse.Namespace, book: Book | None = None) -> int:
    """The game loop of :func:`run_play` on the room ``reached[0]``, which it keeps up
    to date with the game (for the message after Ctrl-C); the moves are the room's
    (:mod:`plies.lab`), as in the web app's game room."""
    room = reached[0]
    game = room.game
    limited = args.time is not None or args.depth is not None or args.iterations is not None
    options = SearchOptions(
        depth=args.depth,
        time=args.time if limited else DEFAULT_TIME,
        iterations=args.iterations,
        algorithm=args.algorithm,
        backend=args.backend,
    )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    dice = random.Random(seed)
    numbered = tuple(f"player {seat + 1}" for seat in range(game.num_players))
    players = _Players(player_names(game) if game.num_players > 2 else numbered, args.humans)
    console = output_console()
    seats = ", ".join(players.name(p) for p in range(game.num_players))
    console.print(f"{game!r}: {seats}", markup=False)
    if game.has_chance:
        console.print(f"dice seed {seed} (replay with --seed {seed})", markup=False)
    while True:
        _show_board(console, game, room.state)
        over = outcome(room)
        if over is not None:
            console.print(_result_text(over, players), markup=False)
            return 0
        if room.is_chance():
            room = reached[0] = roll(room, dice)
            console.print(f"chance: {room.texts[-1]}", markup=False)
            continue
        player = game.to_move(room.state)
        if player in players.humans:
            after = _ask_move(console, room, players.name(player), sys.stdin)
            if after is _QUIT:
                return 0
            if after is None:
                return 1
            room = reached[0] = after
            continue
        chosen = engine_move(room, options, book=book)
        console.print(f"{players.name(player)} plays {chosen.text}  [{chosen.note}]", markup=False)
        room = reached[0] = play_engine_move(room, chosen)


def _show_board(console: Console, game: BaseGame[Any, Any], state: Any) -> None:
    """The board: in a rich panel with coloured X and O (R, Y, G and B for more
    players) on a terminal, else plain."""
    picture = game.render(state)
    if not console.is_terminal:
        console.print(picture, markup=False)
        return
    text = Text(picture)
    text.highlight_regex(r"\bX\b", "bold red")
    text.highlight_regex(r"\bO\b", "bold yellow")
    if game.num_players > 2:  # Rolit's colours, by their letters
        for letter, colour in (("R", "red"), ("Y", "yellow"), ("G", "green"), ("B", "blue")):
            text.highlight_regex(rf"\b{letter}\b", f"bold {colour}")
    console.print(Panel.fit(text, title=game.name))


def _ask_move(console: Console, room: Room, who: str, stream: TextIO) -> Any:
    """Read moves from ``stream`` until one is legal: the room after it; None at end
    of input, _QUIT for 'quit'."""
    game, state = room.game, room.state
    legal = " ".join(game.format_move(state, m) for m in game.legal_moves(state))
    while True:
        console.print(f"{who} to move (legal: {legal}): ", end="", markup=False)
        console.file.flush()
        line = stream.readline()
        if not line:
            console.print()
            print("error: end of input, game abandoned", file=sys.stderr)
            return None
        text = line.strip()
        if not stream.isatty():  # echo piped input so the transcript reads well
            console.print(text, markup=False)
        if text.lower() in QUIT_WORDS:
            print(f"game abandoned ({text})", file=sys.stderr)
            return _QUIT
        if not text:
            continue
        try:
            return play_move(room, text)
        except PliesError as exc:
            console.print(f"not a legal move: {exc}", markup=False)


def _result_text(over: Outcome, players: _Players) -> str:
    """Who won (:func:`plies.lab.outcome`: one player, several sharing the top, or a
    draw), with the names of ``plies play``."""
    winners = over.winners if over.winner is None else (over.winner,)
    names = [players.name(p) for p in range(max(winners, default=0) + 1)]
    return f"game over: {format_winners(names, winners)}"
