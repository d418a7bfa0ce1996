"""Matches between players (``plies match``): games played in pairs of swapped seats,
here or on a Dask cluster, and what their results say (:mod:`plies.lab._ratings`).

A match of ``k`` players (the game's number of players) plays its games in *rounds*
of ``k``: the games of a round start from the same opening and each player takes every
seat once (two players: a game pair, the seats swapped). Round ``r``'s opening is line
``r`` of the openings (cycled), or ``random_plies`` random moves drawn from the match's
seed. Every game is a pure function of the match's options and its number (the
players' random choices and MCTS's playouts are seeded by both), so the games may run
anywhere, in any order: :func:`run_match` runs them as a batch's lines
(:func:`plies.cluster.run_lines`), serially or on ``workers`` processes or the Dask
scheduler at ``scheduler``, with the same results (players with a time limit aside).

In a game with chance (Pig), the games of a round roll the same dice in the same order.
A player that crashes, plays an illegal move or (a UCI engine) does not answer in time
forfeits the game: it scores 0, the others share its point, and the game's record
says why. A game longer than ``max_plies`` is adjudicated a draw.

On a clock (``time_control``, :class:`plies.lab.TimeControl`: ``60+0.6``) each
player starts with the base time and gets the increment back after each move; a
move's time is measured here, around the player's whole move, and a player whose
time runs out loses the game (a forfeit: "loses on time"), unless no other player
could win by any series of moves (chess: a bare king, :meth:`BaseGame.can_win`), and
the game is drawn. Players are readied (a UCI engine started, a table made) before the
clocks run.

>>> options = MatchOptions("tictactoe", ("pvs:depth=9", "random"), games=2)
>>> result = run_match(options)
>>> [game.result for game in result.games], result.points
(['1-0', '0-1'], (2.0, 0.0))
"""

from __future__ import annotations

import json
import math
import random
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from plies._arguments import need_choice, need_int, need_number
from plies.cluster import LineResult, run_lines
from plies.errors import PliesError
from plies.game import BaseGame
from plies.games import parse_game_spec
from plies.lab._clock import ClockReading, TimeControl
from plies.lab._players import Forfeit, MatchError, PlayerSpec, mover_of, parse_player
from plies.lab._ratings import SPRT_MODELS, EloEstimate, Pentanomial, Sprt, sprt
from plies.lab._room import Room, roll, room_of

__all__ = [
    "GameRecord",
    "MatchGames",
    "MatchOptions",
    "MatchResult",
    "game_pgn",
    "match_record",
    "read_openings",
    "run_match",
]

#: The most games a match plays.
MAX_GAMES = 100_000
#: The most random plies of an opening.
MAX_RANDOM_PLIES = 200
#: The most openings read from a file.
MAX_OPENINGS = 100_000
#: What a match's games are called in their records.
EVENT = "plies match"


@dataclass(frozen=True)
class MatchOptions:
    """A match: the ``game`` spec, the ``players`` (specs, one per seat of the game:
    see :func:`plies.lab._players.parse_player`), the number of ``games`` (a multiple
    of the number of players), the ``openings`` (position texts, cycled over the
    rounds) or ``random_plies`` random moves from the start, the ``seed``, the longest
    game (``max_plies``, then a draw), ``timeout`` (seconds a UCI engine may take past
    its time limit, or on a clock past its remaining time), ``sprt`` (``(elo0,
    elo1)``: stop once the test decides, two players only) with its ``sprt_model``,
    and the ``time_control`` (None: each player's own limits)."""

    game: str
    players: tuple[str, ...]
    games: int
    openings: tuple[str, ...] = ()
    random_plies: int = 0
    seed: int = 0
    max_plies: int = 1000
    timeout: float = 10.0
    sprt: tuple[float, float] | None = None
    sprt_model: str = "normalized"
    time_control: TimeControl | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "openings", tuple(self.openings))
        need_int(self.games, "games", minimum=1, maximum=MAX_GAMES, error=MatchError)
        need_int(
            self.random_plies, "random_plies", minimum=0, maximum=MAX_RANDOM_PLIES, error=MatchError
        )
        need_int(self.seed, "seed")
        need_int(self.max_plies, "max_plies", minimum=1, error=MatchError)
        need_number(self.timeout, "timeout", above=0, error=MatchError)
        if self.openings and self.random_plies:
            raise MatchError("give openings or random plies, not both")
        if self.time_control is not None and not isinstance(self.time_control, TimeControl):
            raise MatchError(
                f"time_control must be a TimeControl or None, not {self.time_control!r:.40}"
            )
        if self.sprt is not None:
            self._check_sprt()

    def _check_sprt(self) -> None:
        """The SPRT's bounds and model, checked before any game is played."""
        if len(self.players) != 2:
            raise MatchError(f"the SPRT compares two players, not {len(self.players)}")
        if not (isinstance(self.sprt, tuple) and len(self.sprt) == 2):
            raise MatchError(f"the SPRT's bounds are (elo0, elo1), not {self.sprt!r:.40}")
        elo0, elo1 = self.sprt
        need_number(elo0, "elo0", error=MatchError)
        need_number(elo1, "elo1", error=MatchError)
        if not elo0 < elo1:
            raise MatchError(f"the SPRT needs elo0 < elo1, not {elo0:g}, {elo1:g}")
        need_choice(self.sprt_model, "sprt_model", SPRT_MODELS, error=MatchError)

    def specs(self) -> tuple[PlayerSpec, ...]:
        """The players, read (on the match's clock, if it has one)."""
        clock = self.time_control is not None
        return tuple(parse_player(text, clock=clock) for text in self.players)


def check_match(options: MatchOptions) -> BaseGame[Any, Any]:
    """The match's game, after checking that the match can be played: a player per
    seat, games in whole rounds, openings that are positions of the game, UCI engines
    in chess only. Raises :class:`MatchError` (or the game's error) saying what is not."""
    game = parse_game_spec(options.game)
    seats = game.num_players
    specs = options.specs()
    if len(specs) != seats:
        raise MatchError(
            f"{game.name} is a game of {seats} players: give {seats} players, not {len(specs)}"
        )
    if options.games % seats:
        raise MatchError(
            f"every opening is played from each seat: the games ({options.games}) must be a "
            f"multiple of {seats}"
        )
    for spec in specs:
        mover_of(spec, game_name=game.name, timeout=options.timeout, players=seats).close()
    for number, text in enumerate(options.openings, 1):
        try:
            state = game.parse_position(text)
        except PliesError as exc:
            raise MatchError(f"opening {number}: {exc}") from None
        if game.is_terminal(state):
            raise MatchError(f"opening {number}: the game is over there: {text!r:.60}")
    return game


def read_openings(text: str) -> tuple[str, ...]:
    """The openings of a file's ``text``: one position (or move list) a line, blank
    lines and ``#`` comments skipped."""
    lines = [line.strip() for line in text.splitlines()]
    openings = tuple(line for line in lines if line and not line.startswith("#"))
    if not openings:
        raise MatchError("the openings file has no opening (one position or move list a line)")
    if len(openings) > MAX_OPENINGS:
        raise MatchError(
            f"the openings file has {len(openings):,} openings, more than {MAX_OPENINGS:,}"
        )
    return openings


# -- one game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game of a match: its ``number`` (from 1), ``seats`` (the player index in
    each seat, seat 0 moving first), the ``opening`` (position text; '' the start),
    the ``moves`` played after it (texts), each player's ``scores`` (1, 1/2, 0; in
    player order), the ``result`` in seat order (``1-0``, ``0-1``, ``1/2-1/2``;
    ``1-0-0``... for more seats), the ``reason`` it ended, the player that
    ``forfeit`` it (or None), the game's ``record`` (PGN for chess, see
    :func:`game_pgn`), each player's ``seconds`` on its moves and ``turns`` (the
    moves it made), in player order, and the player whose clock ran out
    (``out_of_time``, or None; it lost on time, and ``forfeit`` names it too, or the
    game was drawn as no other player could win). Records compare without their
    seconds: the same game played twice is the same game."""

    number: int
    seats: tuple[int, ...]
    opening: str
    moves: tuple[str, ...]
    scores: tuple[float, ...]
    result: str
    reason: str
    forfeit: int | None
    record: str
    seconds: tuple[float, ...] = field(default=(), compare=False)  # not the game's own
    turns: tuple[int, ...] = ()
    out_of_time: int | None = None

    def to_json(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """The record :meth:`to_json` wrote."""
        data = json.loads(text)
        for key in ("seats", "moves", "scores", "seconds", "turns"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)


def _seed(*parts: object) -> int:
    """A seed made of ``parts`` (stable across processes, unlike ``hash``)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


def random_opening(game: BaseGame[Any, Any], plies: int, seed: int) -> str:
    """``plies`` random moves from the start (fewer where every move would end the
    game), as the game's position text."""
    chooser = random.Random(seed)
    room = room_of(game, game.initial_state(), bounded=False)
    for _ in range(plies):
        if room.is_chance():
            room = roll(room, chooser)
            continue
        moves = [
            m
            for m in game.legal_moves(room.state)
            if not game.is_terminal(game.play(room.state, m))
        ]
        if not moves:
            break
        room = _played(room, chooser.choice(moves))
    return game.format_position(room.state)


def _played(room: Room, move: Any) -> Room:
    game, state = room.game, room.state
    return Room(
        game,
        (*room.states, game.play(state, move)),
        (*room.moves, move),
        (*room.texts, game.format_move(state, move)),
        room.bounded,
    )


def _scores_of(game: BaseGame[Any, Any], state: Any) -> tuple[float, ...]:
    """Each player's score of a finished game: the best payoff shares the point."""
    payoffs = game.utilities(state)
    best = max(payoffs)
    winners = [p for p, value in enumerate(payoffs) if value == best]
    if len(winners) == len(payoffs):
        return tuple(1 / len(payoffs) for _ in payoffs)
    return tuple(1 / len(winners) if p in winners else 0.0 for p in range(len(payoffs)))


def _result_text(scores_by_seat: Sequence[float]) -> str:
    if len(scores_by_seat) == 2 and scores_by_seat[0] == scores_by_seat[1]:
        return "1/2-1/2"
    return "-".join(f"{s:g}" if s in (0, 1) else f"{s:.3g}" for s in scores_by_seat)


def _reason(game: BaseGame[Any, Any], state: Any, by_seat: Sequence[float]) -> str:
    """Why a finished game ended: the game's own word (chess's ``checkmate``), else
    who won (the side's name where the game names it) or ``draw``."""
    outcome = getattr(game, "outcome", None)
    found = outcome(state) if callable(outcome) else None
    if found:
        return str(found)
    best = max(by_seat)
    winners = [seat for seat, score in enumerate(by_seat) if score == best]
    if len(winners) > 1:
        return "draw"
    return f"{_sides(game, len(by_seat))[winners[0]]} wins"


def _sides(game: BaseGame[Any, Any], seats: int) -> tuple[str, ...]:
    """What the seats are called in a record: the game's names of its sides where they
    are single words (PGN's tag names), else ``Seat1``, ``Seat2``..."""
    names = game.player_names() or ()
    if len(names) == seats and all(name.isalnum() for name in names):
        return tuple(names)
    return tuple(f"Seat{seat + 1}" for seat in range(seats))


@dataclass(frozen=True)
class MatchGames:
    """The work of one game of a match, as a batch's line job
    (:class:`plies.cluster.LineJob`): item ``(number, opening)`` plays game ``number``
    from ``opening``; the output is the :class:`GameRecord` as JSON. Picklable, so a
    Dask worker plays it as this process would."""

    options: MatchOptions

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Game ``number`` (from 1) from the opening ``text``."""
        record = play_game(self.options, number, text)
        return LineResult(number, output=record.to_json())

    def warm(self) -> None:
        """Nothing to load ahead: each game makes its own players."""

    def threads(self) -> bool:
        """Games do not run on threads of one process (their searches hold the GIL)."""
        return False

    def item_key(self, number: int, text: str) -> str:
        """The game's number."""
        return str(number)

    def output_key(self, output: str) -> str:
        """The game number of a record."""
        return str(json.loads(output)["number"])


def seats_of(number: int, players: int) -> tuple[int, ...]:
    """The player index in each seat of game ``number``: the round's ``i``-th game
    turns the seats ``i`` places (two players: swapped in every second game)."""
    turn = (number - 1) % players
    return tuple((seat + turn) % players for seat in range(players))


def play_game(options: MatchOptions, number: int, opening: str) -> GameRecord:
    """Game ``number`` of the match from the position ``opening``."""
    game = parse_game_spec(options.game)
    specs = options.specs()
    seats = seats_of(number, len(specs))
    movers = [
        mover_of(spec, game_name=game.name, timeout=options.timeout, players=len(specs))
        for spec in specs
    ]
    start = game.parse_position(opening)
    room = room_of(game, start, bounded=False)
    # The games of a round roll the same dice, in order (common random numbers: the
    # luck of the dice cancels out within the round, as the opening's does).
    chance = random.Random(_seed(options.seed, (number - 1) // len(specs), "chance"))
    clocks = _Clocks.of(options.time_control, len(seats))
    seconds, turns = [0.0] * len(specs), [0] * len(specs)  # by player
    forfeit, reason, out_of_time = None, "", None
    try:
        for player, mover in enumerate(movers):
            try:
                mover.start(room)
            except Forfeit as lost:
                forfeit, reason = player, f"{specs[player].name} forfeits: {lost.reason}"
                break
        while (
            forfeit is None
            and not game.is_terminal(room.state)
            and len(room.moves) < options.max_plies
        ):
            if room.is_chance():
                room = roll(room, chance)
                continue
            seat = game.to_move(room.state)
            player = seats[seat]
            seed = _seed(options.seed, number, len(room.moves))
            began = time.monotonic()
            try:
                move = movers[player].move(room, seed, clocks.reading(seat))
            except Forfeit as lost:
                forfeit, reason = player, f"{specs[player].name} forfeits: {lost.reason}"
                break
            took = time.monotonic() - began
            seconds[player] += took
            turns[player] += 1
            late = clocks.charge(seat, took)
            if late:
                out_of_time = player
                if not _others_can_win(game, room.state, seat):
                    name = specs[player].name
                    reason = f"{name} is out of time ({late}): a draw, as no other player can win"
                    break
            wrong = f"loses on time: {late}" if late else _illegal(game, room, move)
            if wrong:
                forfeit, reason = player, f"{specs[player].name} {wrong}"
                break
            room = _played(room, move)
    finally:
        for mover in movers:
            mover.close()
    scores = _final_scores(game, room, len(specs), seats, forfeit)
    by_seat = [scores[player] for player in seats]
    if forfeit is None and game.is_terminal(room.state):
        reason = _reason(game, room.state, by_seat)
    elif forfeit is None and not reason:
        reason = f"adjudicated a draw after {options.max_plies} plies"
    result = _result_text(by_seat)
    unique = unique_names(options.players)
    names = [unique[player] for player in seats]
    record = game_pgn(
        room,
        names=names,
        number=number,
        result=result,
        reason=reason,
        time_control=options.time_control,
    )
    return GameRecord(
        number,
        seats,
        opening,
        room.texts,
        scores,
        result,
        reason,
        forfeit,
        record,
        tuple(round(value, 3) for value in seconds),
        tuple(turns),
        out_of_time,
    )


@dataclass
class _Clocks:
    """The clocks of a game's seats (seconds left), or none (``control`` None)."""

    control: TimeControl | None
    remaining: list[float]

    @classmethod
    def of(cls, control: TimeControl | None, seats: int) -> _Clocks:
        """Each seat's clock at the start of a game on ``control``."""
        return cls(control, [control.base if control else 0.0] * seats)

    def reading(self, seat: int) -> ClockReading | None:
        """The clocks as the player in ``seat`` sees them, to move (None: no clock)."""
        if self.control is None:
            return None
        return ClockReading(tuple(self.remaining), self.control.increment, seat)

    def charge(self, seat: int, took: float) -> str:
        """Take a move of ``took`` seconds off ``seat``'s clock and give the increment
        back; when it ran out, ``"its move took T s with L s left"`` (the clock
        unchanged), else ''."""
        if self.control is None:
            return ""
        left = self.remaining[seat]
        if took > left:
            return f"its move took {took:.3f} s with {left:.3f} s left"
        self.remaining[seat] = left + self.control.increment - took
        return ""


def _others_can_win(game: BaseGame[Any, Any], state: Any, seat: int) -> bool:
    """Whether a player other than the one in ``seat`` could still win from ``state``."""
    return any(game.can_win(state, other) for other in range(game.num_players) if other != seat)


def _illegal(game: BaseGame[Any, Any], room: Room, move: Any) -> str:
    """``"forfeits: illegal move ..."`` when ``move`` is not legal in the room, else ''."""
    if move in game.legal_moves(room.state):
        return ""
    return f"forfeits: illegal move {move!r:.40}"


def _final_scores(
    game: BaseGame[Any, Any], room: Room, players: int, seats: Sequence[int], forfeit: int | None
) -> tuple[float, ...]:
    """Each player's score (player order): a forfeit gives the others its point."""
    if forfeit is not None:
        return tuple(0.0 if p == forfeit else 1 / (players - 1) for p in range(players))
    if not game.is_terminal(room.state):
        return tuple(1 / players for _ in range(players))
    by_seat = _scores_of(game, room.state)
    scores = [0.0] * players
    for seat, player in enumerate(seats):
        scores[player] = by_seat[seat]
    return tuple(scores)


def game_pgn(
    room: Room,
    *,
    names: Sequence[str],
    number: int,
    result: str,
    reason: str,
    time_control: TimeControl | None = None,
) -> str:
    """The game as a record: real PGN where the game writes its own (chess, through
    python-chess; checkers' PDN), with ``Event``, ``Round``, the players, ``Result``,
    ``Termination`` and the ``TimeControl`` of a game on a clock; else a PGN-like
    record: the same tag pairs (the players as ``Seat1``, ``Seat2``...; ``Game`` and
    ``Opening``, the start as the game's position text) and the moves in the game's own
    notation, numbered by rounds of the seats, then the result. The record ends in one
    newline (a file of several games puts a blank line between them, as PGN wants)."""
    game = room.game
    sides = _sides(game, len(names))
    headers = {"Event": EVENT, "Round": str(number)}
    headers.update(zip(sides, names, strict=False))
    headers.update({"Result": result, "Termination": reason})
    if time_control is not None:
        headers["TimeControl"] = str(time_control)
    exporter = getattr(game, "export_game", None)
    if callable(exporter):
        try:
            return str(exporter(room.states[0], list(room.moves), headers=headers)).rstrip() + "\n"
        except TypeError:  # an export without headers: the plain record below
            pass
    tags = {"Event": EVENT, "Game": game.name, "Round": str(number)}
    tags.update(zip(sides, names, strict=False))
    tags.update({"Opening": game.format_position(room.states[0]), "Result": result})
    tags["Termination"] = reason
    if time_control is not None:
        tags["TimeControl"] = str(time_control)
    lines = [f'[{key} "{_tag_value(value)}"]' for key, value in tags.items()]
    start = room.states[0]
    first = 0 if game.is_terminal(start) else game.to_move(start)
    return "\n".join([*lines, "", _movetext(room.texts, len(names), first, result)]) + "\n"


def _tag_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _movetext(moves: Sequence[str], seats: int, first: int, result: str) -> str:
    """The moves numbered by rounds of the seats, as PGN numbers them: ``1. a b 2. c
    d``; ``1... b 2. c d`` when the seat to move first is not the first seat."""
    words = []
    for index, move in enumerate(moves):
        ply = index + first
        if ply % seats == 0:
            words.append(f"{ply // seats + 1}.")
        elif index == 0:
            words.append(f"{ply // seats + 1}...")
        words.append(move)
    words.append(result)
    return " ".join(words)


# -- the match ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTotal:
    """One player's games: its ``name``, ``games``, ``points``, ``wins`` (scored 1),
    ``draws`` (a share of the point), ``losses`` (0) and ``forfeits``; the ``seconds``
    it spent on its ``turns`` (the moves it made)."""

    name: str
    games: int
    points: float
    wins: int
    draws: int
    losses: int
    forfeits: int
    seconds: float = 0.0
    turns: int = 0

    @property
    def seconds_a_move(self) -> float:
        """The seconds it spent on a move, on average (0 before its first move)."""
        return self.seconds / self.turns if self.turns else 0.0

    @property
    def score(self) -> float:
        """The points per game (0 to 1)."""
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True)
class MatchResult:
    """A played match: its ``options``, the ``games`` (in order), each player's total
    (``totals``), and for two players the ``pentanomial`` of the complete pairs, the
    ``elo`` of the first player against the second and the ``sprt`` (when asked)."""

    options: MatchOptions
    games: tuple[GameRecord, ...]
    totals: tuple[PlayerTotal, ...]
    pentanomial: Pentanomial | None = None
    elo: EloEstimate | None = None
    sprt: Sprt | None = None
    stopped: bool = False

    @property
    def points(self) -> tuple[float, ...]:
        """Each player's points."""
        return tuple(total.points for total in self.totals)


def _totals(names: Sequence[str], games: Sequence[GameRecord]) -> tuple[PlayerTotal, ...]:
    totals = []
    for player, name in enumerate(names):
        scores = [g.scores[player] for g in games]
        totals.append(
            PlayerTotal(
                name,
                len(scores),
                sum(scores),
                sum(1 for s in scores if s == 1),
                sum(1 for s in scores if 0 < s < 1),
                sum(1 for s in scores if s == 0),
                sum(1 for g in games if g.forfeit == player),
                sum(g.seconds[player] for g in games if g.seconds),
                sum(g.turns[player] for g in games if g.turns),
            )
        )
    return tuple(totals)


def _pentanomial(games: Sequence[GameRecord]) -> Pentanomial:
    """The first player's complete game pairs."""
    pairs = [
        (games[i].scores[0], games[i + 1].scores[0])
        for i in range(0, len(games) - 1, 2)
        if games[i].number % 2 == 1 and games[i + 1].number == games[i].number + 1
    ]
    return Pentanomial.of_pairs(pairs)


def unique_names(players: Sequence[str]) -> tuple[str, ...]:
    """The players' names, numbered where a spec is given twice (``pvs:depth=4 #2``)."""
    names = []
    for index, text in enumerate(players):
        same = [i for i, other in enumerate(players) if other == text]
        names.append(text if len(same) == 1 else f"{text} #{same.index(index) + 1}")
    return tuple(names)


def summarize(
    options: MatchOptions, games: Sequence[GameRecord], *, stopped: bool = False
) -> MatchResult:
    """The match's result from its ``games``."""
    names = unique_names(options.players)
    totals = _totals(names, games)
    if len(names) != 2:
        return MatchResult(options, tuple(games), totals, stopped=stopped)
    penta = _pentanomial(games)
    elo = penta.elo() if penta.pairs else None
    test = None
    if options.sprt is not None and penta.pairs:
        test = sprt(penta, *options.sprt, model=options.sprt_model)
    return MatchResult(options, tuple(games), totals, penta, elo, test, stopped)


def opening_items(options: MatchOptions, game: BaseGame[Any, Any]) -> list[tuple[int, str]]:
    """The match's games as work items: ``(number, opening)``."""
    seats = game.num_players
    rounds = -(-options.games // seats)
    if options.openings:
        starts = [options.openings[r % len(options.openings)] for r in range(rounds)]
    elif options.random_plies:
        starts = [
            random_opening(game, options.random_plies, _seed(options.seed, r, "opening"))
            for r in range(rounds)
        ]
    else:
        starts = [""] * rounds
    return [(number, starts[(number - 1) // seats]) for number in range(1, options.games + 1)]


def run_match(
    options: MatchOptions,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    stop: threading.Event | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """Play the match (see the module): serially here, or on a local Dask cluster of
    ``workers`` processes, or on the scheduler at ``scheduler``. ``on_game`` sees each
    game in order as it is done; ``stop`` (Ctrl-C) ends the match early, as does the
    SPRT's verdict (after a complete pair). Raises :class:`MatchError` for a match that
    cannot be played, before any game."""
    game = check_match(options)
    items = opening_items(options, game)
    stop = stop if stop is not None else threading.Event()
    games: list[GameRecord] = []
    decided = threading.Event()

    def emit(result: LineResult) -> None:
        if result.output is None:
            raise MatchError(f"game {result.number}: {result.error}")
        record = GameRecord.from_json(result.output)
        games.append(record)
        if on_game is not None:
            on_game(record)
        if options.sprt is not None and record.number % 2 == 0:
            test = summarize(options, games).sprt
            if test is not None and test.verdict != "continue":
                decided.set()
                stop.set()

    run_lines(
        items, MatchGames(options), emit=emit, stop=stop, workers=workers, scheduler=scheduler
    )
    return summarize(options, games, stopped=stop.is_set() and not decided.is_set())


def match_record(result: MatchResult) -> dict[str, Any]:
    """The match as JSON: for two players ``games``, ``wins``, ``draws``, ``losses``
    (the first player's), ``elo`` and ``elo_ci`` ([low, high], null where infinite),
    ``sprt`` (null or ``llr``, ``lower``, ``upper``, ``verdict``...); then for any
    number of players ``players`` (each one's totals), ``pentanomial`` and ``games``
    (each game's number, seats, opening, moves, result, reason, forfeit, each player's
    seconds and turns), and the ``time_control`` (null: none)."""
    totals = result.totals
    control = result.options.time_control
    record: dict[str, Any] = {"games": len(result.games)}
    if len(totals) == 2 and result.elo is not None:
        first, elo = totals[0], result.elo
        record.update(
            wins=first.wins,
            draws=first.draws,
            losses=first.losses,
            score=round(elo.score, 6),
            elo=_finite(elo.elo),
            elo_ci=[_finite(elo.low), _finite(elo.high)],
            elo_error=_finite(elo.error),
            nelo=_finite(elo.nelo),
            los=round(elo.los, 6),
            sprt=None if result.sprt is None else result.sprt.as_dict(),
        )
        if result.pentanomial is not None:
            record["pentanomial"] = list(result.pentanomial.counts)
    record["stopped"] = result.stopped
    record["time_control"] = None if control is None else str(control)
    record["players"] = [
        {
            "name": t.name,
            "games": t.games,
            "points": t.points,
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "forfeits": t.forfeits,
            "seconds": round(t.seconds, 3),
            "turns": t.turns,
        }
        for t in totals
    ]
    record["game_list"] = [
        {
            "number": g.number,
            "seats": list(g.seats),
            "opening": g.opening,
            "moves": list(g.moves),
            "result": g.result,
            "reason": g.reason,
            "forfeit": g.forfeit,
            "out_of_time": g.out_of_time,
            "seconds": list(g.seconds),
            "turns": list(g.turns),
        }
        for g in result.games
    ]
    return record


def _finite(value: float) -> float | None:
    """``value`` rounded, None where it is infinite or NaN (JSON has neither)."""
    return round(value, 2) if math.isfinite(value) else None
