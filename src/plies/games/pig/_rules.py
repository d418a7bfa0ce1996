"""Pig, the dice game: a small two-player game with chance nodes.

On your turn you roll a die as often as you like. A 1 ends the turn and loses the
points rolled in it (the *turn total*); any other face adds to the turn total. Instead
of rolling you may *hold*: the turn total is added to your score and the turn passes.
A turn starts with a roll (holding with a turn total of 0 is not a move, so every
hold gains points). The first player whose score reaches the target wins. The default
target is 20 (the classic game plays to 100) so that expectiminimax can search it.

Moves are ``roll`` and ``hold``. After a roll the state is a chance node whose
outcomes are the die faces 1 to 6 (each 1/6), applied with :meth:`Pig.play` like moves.

A POSITION is either

* the events from the start, separated by spaces or commas: ``roll 4 roll 6 hold
  roll 1`` (every ``roll`` is followed by the face it showed), or
* a state: ``scores 12,7 total 5 player 2`` (the scores of players 1 and 2, the turn
  total and the player to move), with ``rolling`` appended when the die is in the
  air (a chance node). :meth:`Pig.format_position` writes this form.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame
from plies.games.text import check_player, clip, read_int, shown, whole

__all__ = ["HOLD", "ROLL", "Pig", "PigMove", "PigState"]

#: The two decisions; chance outcomes are die faces (ints).
ROLL = "roll"
HOLD = "hold"

PigMove = str | int
"""A decision (:data:`ROLL` or :data:`HOLD`) or a die face 1..faces."""

#: The largest score or turn total a state holds (what POSITION text can give).
_MOST = 10**18 - 1

_STATE = re.compile(
    r"scores\s+(\d+)\s*,\s*(\d+)\s+total\s+(\d+)\s+player\s+([12])(\s+rolling)?",
    re.IGNORECASE,
)


class PigState(NamedTuple):
    """Scores of both players, the turn total, the player whose turn it is, and
    whether the die is in the air (``rolling``: a chance node)."""

    scores: tuple[int, int]
    total: int
    player: int
    rolling: bool


class Pig(BaseGame[PigState, PigMove]):
    """Pig played to ``target`` points (default 20) with a die of ``faces`` faces (6)."""

    name = "pig"
    has_chance = True
    state_type = PigState

    def __init__(self, target: int = 20, faces: int = 6) -> None:
        for label, value, low, high in (("target", target, 1, 1000), ("faces", faces, 2, 100)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentTypeError(f"pig {label} must be an integer, got {value!r}")
            if not low <= value <= high:
                raise PliesError(f"pig {label} must be between {low} and {high}, got {value}")
        self.target = target
        self.faces = faces
        probability = 1.0 / faces
        self._outcomes: tuple[tuple[PigMove, float], ...] = tuple(
            (face, probability) for face in range(1, faces + 1)
        )

    def __repr__(self) -> str:
        return f"Pig(target={self.target}, faces={self.faces})"

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`PigState` of this game: two scores and
        a turn total from 0 (scores below the target but for a finished game's
        winner), the player 0 or 1 and ``rolling`` a bool."""
        super().check_state(state)
        assert isinstance(state, PigState)
        scores, total, player, rolling = state
        if not (
            isinstance(scores, tuple)
            and len(scores) == 2
            and all(whole(score) for score in scores)
            and whole(total)
            and whole(player)
            and isinstance(rolling, bool)
        ):
            problem = "its fields are not a pair of ints, two ints and a bool"
        elif min(*scores, total) < 0 or min(scores) >= self.target or player not in (0, 1):
            problem = f"scores {scores}, turn total {total}, player {player}"
        elif max(scores) >= self.target and (total or rolling):
            problem = "a turn under way after the end of the game"
        elif max(*scores, total) > _MOST:
            problem = f"numbers above {_MOST:,}"
        else:
            return
        raise PliesError(f"pig: {shown(repr(state))} is not a position ({problem})")

    @staticmethod
    def _check_move(move: object) -> PigMove:
        """``move``, a str or an int (a die face)."""
        if type(move) is not str and type(move) is not int:
            raise ArgumentTypeError(
                f"pig: a move is 'roll', 'hold' or a die face (int), got {clip(repr(move))} "
                f"of type {type(move).__name__}"
            )
        return move

    # -- rules ------------------------------------------------------------------------

    def initial_state(self) -> PigState:
        """Both scores 0, player 0 to roll."""
        return PigState((0, 0), 0, 0, False)

    def to_move(self, state: PigState) -> int:
        """The player whose turn it is."""
        if type(state) is not PigState:
            self.check_state(state)
        return state.player

    def legal_moves(self, state: PigState) -> list[PigMove]:
        """``roll``, plus ``hold`` once the turn total is positive; none at the end.

        At a chance node the decisions are not available: see :meth:`chance_outcomes`.
        """
        if type(state) is not PigState:
            self.check_state(state)
        if state.rolling or self.is_terminal(state):
            return []
        return [ROLL, HOLD] if state.total else [ROLL]

    def play(self, state: PigState, move: PigMove) -> PigState:
        """Apply a decision (``roll``/``hold``) or, at a chance node, a die face.

        Raises :class:`ArgumentTypeError` for a move that is neither a str nor an int
        and :class:`IllegalMoveError` for one not allowed now (see :meth:`parse_move`).
        """
        self.check_state(state)
        self._check_move(move)
        if self.is_terminal(state):
            raise IllegalMoveError(f"pig: illegal move {clip(repr(move))}: the game is over")
        if state.rolling:
            if type(move) is not int or not 1 <= move <= self.faces:
                raise IllegalMoveError(
                    f"pig: illegal move {clip(repr(move))}: the die is rolling, the outcome "
                    f"is a face 1-{self.faces}"
                )
        elif move not in self.legal_moves(state):
            reason = (
                "the turn total is 0, a turn starts with a roll"
                if move == HOLD
                else "a move is 'roll' or 'hold', a die face only after a roll"
            )
            raise IllegalMoveError(f"pig: illegal move {clip(repr(move))}: {reason}")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: PigState, move: PigMove) -> PigState:
        """:meth:`play` for a legal move or outcome, without the checks."""
        try:  # no cost unless raised: a value that is no state, refused by its check
            scores, total, player, _ = state
            if move == ROLL:
                return PigState(scores, total, player, True)
            if move == HOLD:
                banked = (
                    (scores[0] + total, scores[1])
                    if player == 0
                    else (scores[0], scores[1] + total)
                )
                return PigState(banked, 0, 1 - player, False)
            if move == 1:
                return PigState(scores, 0, 1 - player, False)
            assert isinstance(move, int)
            return PigState(scores, total + move, player, False)
        except (AttributeError, TypeError, ValueError):
            self.check_state(state)
            raise

    def is_terminal(self, state: PigState) -> bool:
        """Whether a player has reached the target."""
        if type(state) is not PigState:
            self.check_state(state)
        return max(state.scores) >= self.target

    def utility(self, state: PigState, player: int) -> float:
        """+1 if ``player`` reached the target, -1 if the opponent did."""
        self.check_state(state)
        check_player(player)
        return 1.0 if state.scores[player] >= self.target else -1.0

    def is_chance(self, state: PigState) -> bool:
        """Whether the die is in the air."""
        if type(state) is not PigState:
            self.check_state(state)
        return state.rolling

    def chance_outcomes(self, state: PigState) -> tuple[tuple[PigMove, float], ...]:
        """The die faces 1..faces, each with probability ``1 / faces``."""
        if type(state) is not PigState:
            self.check_state(state)
        return self._outcomes

    def key(self, state: PigState) -> PigState:
        """The state itself (the default key), once it is known to be one."""
        if type(state) is not PigState:
            self.check_state(state)
        return state

    def utility_bounds(self) -> tuple[float, float]:
        """Utilities are -1 and +1."""
        return (-1.0, 1.0)

    # -- evaluation -------------------------------------------------------------------

    def evaluate(self, state: PigState, player: int) -> float:
        """A win-probability estimate for ``player``, scaled to -1000..1000.

        A race approximation: with ``a`` and ``b`` the points each side still needs
        (the player on turn counting half its turn total as banked, since it is at
        risk), the player on turn wins with probability about ``b / (a + b)``. When
        holding reaches the target it is 1, or ``1 - 1/faces`` with the die rolling.
        """
        if type(state) is not PigState:
            self.check_state(state)
        scores, total, on_turn, rolling = state
        need_other = self.target - scores[1 - on_turn]  # at least 1: the game is on
        if scores[on_turn] + total >= self.target:
            # Holding wins now; with the die in the air, unless it shows a 1.
            probability = 1.0 - 1.0 / self.faces if rolling else 1.0
        else:
            # Positive: the turn total is less than the points still needed.
            need_on_turn = self.target - scores[on_turn] - total / 2
            probability = need_other / (need_on_turn + need_other)
        value = 1000.0 * (2.0 * probability - 1.0)
        return value if player == on_turn else -value

    # -- notation ---------------------------------------------------------------------

    def format_move(self, state: PigState, move: PigMove) -> str:
        """``roll``, ``hold`` or a die face as its number."""
        self.check_state(state)
        return str(self._check_move(move))

    def parse_move(self, state: PigState, text: str) -> PigMove:
        """Read ``roll``/``hold`` (or ``r``/``h``) at a decision, a face at a chance node.

        Raises :class:`ParseError` for unknown words and :class:`IllegalMoveError`
        for a move that is not allowed now (``hold`` with a turn total of 0, a
        decision while the die rolls, anything after the game is over).
        """
        word = need_text(text, "a move's text").strip().lower()
        self.check_state(state)
        move: PigMove
        if word in ("roll", "r"):
            move = ROLL
        elif word in ("hold", "h"):
            move = HOLD
        elif word.isascii() and word.isdigit():
            move = read_int(word, what="a die face", game="pig")
            if not 1 <= move <= self.faces:
                raise ParseError(f"pig: a die shows 1 to {self.faces}, got {shown(text.strip())}")
        else:
            raise ParseError(f"pig: a move is 'roll' or 'hold' (or a die face), got {shown(text)}")
        if self.is_terminal(state):
            raise IllegalMoveError(f"pig: {move}: the game is over")
        if state.rolling and isinstance(move, str):
            raise IllegalMoveError(f"pig: {move}: the die is rolling, give the face it shows")
        if not state.rolling and isinstance(move, int):
            raise IllegalMoveError(f"pig: die face {move} without a roll")
        if move == HOLD and not state.total:
            raise IllegalMoveError("pig: hold: the turn total is 0, a turn starts with a roll")
        return move

    def parse_position(self, text: str) -> PigState:
        """Read events from the start or a ``scores A,B total T player P`` state.

        See the module documentation. Raises :class:`ParseError` or
        :class:`IllegalMoveError` naming the bad part.
        """
        stripped = need_text(text, "a position's text").strip()
        if stripped.lower().startswith("scores"):
            match = _STATE.fullmatch(stripped)
            if match is None:
                raise ParseError(
                    "pig: a state reads 'scores A,B total T player P' (P is 1 or 2), "
                    f"optionally followed by 'rolling'; got {shown(stripped)}"
                )
            first, second, total = (
                read_int(match[i], what=what, game="pig")
                for i, what in ((1, "a score"), (2, "a score"), (3, "the turn total"))
            )
            if max(first, second) >= self.target and (total or match[5]):
                raise ParseError(
                    f"pig: the game is over, no turn can be under way: {shown(stripped)}"
                )
            if min(first, second) >= self.target:
                raise ParseError(f"pig: both players cannot have reached {self.target}")
            return PigState((first, second), total, int(match[4]) - 1, bool(match[5]))
        state = self.initial_state()
        for index, token in enumerate(stripped.replace(",", " ").split(), start=1):
            try:
                move = self.parse_move(state, token)
            except PliesError as exc:
                raise type(exc)(f"{exc} (event {index} of the POSITION)") from None
            state = self.play_unchecked(state, move)
        return state

    def format_position(self, state: PigState) -> str:
        """``scores A,B total T player P`` (P is 1 or 2), plus ``rolling`` at a chance node."""
        self.check_state(state)
        first, second = state.scores
        text = f"scores {first},{second} total {state.total} player {state.player + 1}"
        return f"{text} rolling" if state.rolling else text

    def render(self, state: PigState) -> str:
        """Scores, target, turn total and what happens next, on two lines."""
        self.check_state(state)
        first, second = state.scores
        lines = [f"player 1: {first}   player 2: {second}   (target {self.target})"]
        if self.is_terminal(state):
            winner = 1 if first >= self.target else 2
            lines.append(f"player {winner} wins")
        elif state.rolling:
            lines.append(f"player {state.player + 1} rolls the die (turn total {state.total})")
        else:
            lines.append(f"player {state.player + 1} to move, turn total {state.total}")
        return "\n".join(lines)
