"""OpenSpiel's games through the game protocol (extra ``plies[openspiel]``).

``get_game("openspiel:go(board_size=5,komi=0.5)")`` loads the game as OpenSpiel's
``pyspiel.load_game`` reads the text after ``openspiel:``, and :class:`OpenSpielGame`
maps it onto :class:`~plies.game.BaseGame`, so that ``analyze``, ``solve``, ``play``
and the engine work on it. It serves the games plies can search: sequential moves,
perfect information, deterministic or with explicit chance nodes, and either two
players and zero-sum or more players (``chinese_checkers(players=3)``,
``pig(players=3)``, ``quoridor(players=4)``; :attr:`~plies.game.BaseGame.num_players`
says how many, for the N-player searches). Any other game (simultaneous moves, hidden
information, two players who are not zero-sum, sampled chance) is refused with the
reason.

States are :class:`SpielState` values wrapping OpenSpiel's mutable states: ``play``
returns a new one (OpenSpiel's ``child``), so the parent never changes. Two states
are equal when their histories (the actions from the start) are; the table key is
OpenSpiel's own text of the position with the player to move, so positions reached by
different move orders share an entry where that text says they are the same (the
conformance suite checks that the search cannot tell such states apart).

Moves are OpenSpiel's action ids; ``format_move`` writes OpenSpiel's action text
(``x(1,1)``, ``a3b4``, ``B d4``) and ``parse_move`` reads it back, as written (case
counts: in chess ``bxc4`` is a pawn's move and ``Bxc4`` a bishop's), or an action id.
A POSITION is the action ids from the start separated by spaces (OpenSpiel's
``serialize`` order), chance outcomes included; ``format_position`` writes it.

OpenSpiel's own errors (a parameter its game refuses only when a state is made, an
action it cannot read) become plies' errors in one line, with OpenSpiel's reason; the
text its C++ code prints to stderr as it raises is kept from the terminal. A game
larger than :data:`MAX_ACTIONS` actions or :data:`MAX_GAME_LENGTH` moves is refused
before a state is made (``connect_four(rows=100000,columns=100000)`` would take the
memory).
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from plies.errors import (
    ArgumentTypeError,
    IllegalMoveError,
    ParseError,
    PliesError,
    UnknownGameError,
)
from plies.game import BaseGame
from plies.games.text import MAX_DIGITS, shown

__all__ = ["MARKOV_TEXT", "MAX_ACTIONS", "MAX_GAME_LENGTH", "OpenSpielGame", "SpielState", "load"]

T = TypeVar("T")

#: The most distinct actions, and the longest game in moves, of a game plies loads:
#: OpenSpiel's largest searchable games have 13,689 actions (shogi) and 72,922 moves
#: (cursor_go); a board of 10**10 cells would be allocated before any search.
MAX_ACTIONS = 1_000_000
MAX_GAME_LENGTH = 1_000_000

#: Games whose OpenSpiel text of a state, with the player to move, says all the rules
#: need (checked by the conformance suite on transpositions). Elsewhere the text can
#: miss what matters: Go's text lacks the earlier boards its superko rule reads, and
#: checkers' the count of moves its draw rule reads; keys are the history there.
MARKOV_TEXT = frozenset({"tic_tac_toe", "connect_four", "breakthrough", "hex", "pig"})


class SpielState:
    """An OpenSpiel state that plies never changes, with its history as identity.

    ``mover`` is the player whose turn a chance event belongs to (the last player to
    decide; 0 before anyone has), and at the end the player after the last mover:
    :meth:`OpenSpielGame.to_move` answers it where OpenSpiel has no current player.
    """

    __slots__ = ("_key", "history", "mover", "state")

    def __init__(self, state: Any, history: tuple[int, ...], mover: int) -> None:
        self.state = state
        self.history = history
        self.mover = mover
        self._key: Hashable | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielState) and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)

    def __repr__(self) -> str:
        return f"SpielState({' '.join(map(str, self.history)) or 'start'})"


class OpenSpielGame(BaseGame[SpielState, int]):
    """An OpenSpiel game loaded from its text, ``go(board_size=5,komi=0.5)``."""

    alternating = False  # passes are moves, and a player may move twice in some games

    def __init__(self, spec: str) -> None:
        pyspiel = _pyspiel()
        failed = f"openspiel: cannot load {shown(spec)}"
        game = _quietly(UnknownGameError, failed, lambda: pyspiel.load_game(spec))
        problem = _quietly(UnknownGameError, failed, lambda: _unsupported(pyspiel, game))
        if problem:
            raise UnknownGameError(f"openspiel:{spec} cannot be searched by plies: {problem}")
        # A parameter may be refused only when the first state is made (go's board_size).
        self._initial = _quietly(UnknownGameError, failed, game.new_initial_state)
        self.spec = spec
        self.name = f"openspiel:{spec}"
        self.game = game
        self.num_players = int(game.num_players())
        self._markov = game.get_type().short_name in MARKOV_TEXT
        self._chance_player = int(pyspiel.PlayerId.CHANCE)
        self.has_chance = (  # type: ignore[misc]  # a class default, set per game
            game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        )

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.spec!r})"

    # -- rules --------------------------------------------------------------------------

    def initial_state(self) -> SpielState:
        """The start of the game (a chance node in games that begin with a roll)."""
        return SpielState(self._initial.clone(), (), 0)

    def to_move(self, state: SpielState) -> int:
        """The player to move; at a chance node the player whose turn it is."""
        player = state.state.current_player()
        return player if 0 <= player < self.num_players else state.mover

    def legal_moves(self, state: SpielState) -> list[int]:
        """OpenSpiel's legal actions (ascending ids); none at the end or at chance."""
        s = state.state
        if s.is_terminal() or s.is_chance_node():
            return []
        return list(s.legal_actions())

    def play(self, state: SpielState, move: int) -> SpielState:
        """The state after ``move`` (a legal action, or a chance outcome at chance)."""
        s = state.state
        if isinstance(move, bool) or not isinstance(move, int):
            raise ArgumentTypeError(
                f"{self.name}: a move is an OpenSpiel action id (int), not {move!r}"
            )
        if s.is_terminal():
            raise IllegalMoveError(f"{self.name}: the game is over; no move {move} is legal")
        if s.is_chance_node():
            legal = [action for action, _ in s.chance_outcomes()]
        else:
            legal = s.legal_actions()
        if move not in legal:
            raise IllegalMoveError(f"{self.name}: action {move} is not legal here")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: SpielState, move: int) -> SpielState:
        """:meth:`play` without the legality check (the engine plays legal moves only)."""
        s = state.state
        player = s.current_player()
        child = s.child(move)
        if 0 <= player < self.num_players:
            mover = player if child.is_chance_node() else (player + 1) % self.num_players
        else:
            mover = state.mover
        return SpielState(child, (*state.history, move), mover)

    def is_terminal(self, state: SpielState) -> bool:
        """Whether the game is over."""
        return bool(state.state.is_terminal())

    def utility(self, state: SpielState, player: int) -> float:
        """OpenSpiel's return for ``player`` at the end."""
        return float(state.state.returns()[player])

    def utilities(self, state: SpielState) -> tuple[float, ...]:
        """OpenSpiel's returns for every player at the end, in player order."""
        return tuple(float(value) for value in state.state.returns())

    def utility_bounds(self) -> tuple[float, float]:
        """OpenSpiel's minimum and maximum utility of the game."""
        return float(self.game.min_utility()), float(self.game.max_utility())

    def key(self, state: SpielState) -> Hashable:
        """OpenSpiel's text of the position with the player to move, in the games of
        :data:`MARKOV_TEXT`; the history in the others (no transpositions then, but
        the table still serves iterative deepening)."""
        if not self._markov:
            return state.history
        if state._key is None:
            state._key = (state.state.current_player(), str(state.state))
        return state._key

    # -- chance ---------------------------------------------------------------------

    def is_chance(self, state: SpielState) -> bool:
        """Whether ``state`` is a chance node."""
        return bool(state.state.is_chance_node())

    def chance_outcomes(self, state: SpielState) -> list[tuple[int, float]]:
        """OpenSpiel's outcomes of a chance node with their probabilities."""
        return [(action, float(p)) for action, p in state.state.chance_outcomes()]

    # -- notation -------------------------------------------------------------------

    def format_move(self, state: SpielState, move: int) -> str:
        """OpenSpiel's text of the action (of the chance player at chance nodes)."""
        s = state.state
        player = s.current_player() if not s.is_chance_node() else self._chance_player
        return str(s.action_to_string(player, move))

    def parse_move(self, state: SpielState, text: str) -> int:
        """An action from OpenSpiel's action text, as written (SAN's ``bxc4`` is not
        ``Bxc4``), or its id; raises ParseError."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"{self.name}: a move is text, not {text!r}")
        if not isinstance(state, SpielState):
            raise ArgumentTypeError(f"{self.name}: a state is a SpielState, not {state!r}")
        return _quietly(
            ParseError,
            f"{self.name}: cannot read move {shown(text)}",
            lambda: self._parse_move(state, text.strip()),
        )

    def _parse_move(self, state: SpielState, wanted: str) -> int:
        """:meth:`parse_move` of stripped text: the one action whose text is exactly
        ``wanted``, else the action id ``wanted``."""
        s = state.state
        if s.is_terminal():
            raise ParseError(f"{self.name}: the game is over; no move is legal")
        actions = (
            [action for action, _ in s.chance_outcomes()]
            if s.is_chance_node()
            else list(s.legal_actions())
        )
        by_text: dict[str, list[int]] = {}
        for action in actions:
            by_text.setdefault(self.format_move(state, action), []).append(int(action))
        found = by_text.get(wanted, [])
        if len(found) == 1:
            return found[0]
        if wanted.isascii() and wanted.isdigit() and len(wanted) <= MAX_DIGITS:
            if int(wanted) in actions:
                return int(wanted)
            raise ParseError(f"{self.name}: action {wanted} is not legal here")
        if found:
            raise ParseError(
                f"{self.name}: {shown(wanted)} names {len(found)} actions here "
                f"({', '.join(map(str, found[:8]))}); give its action id"
            )
        raise ParseError(
            f"{self.name}: {shown(wanted)} is no legal move here{_hint(wanted, by_text)}"
        )

    def parse_position(self, text: str) -> SpielState:
        """The state after the action ids in ``text`` (spaces or commas between)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"{self.name}: a position is text, not {text!r}")
        return _quietly(
            ParseError,
            f"{self.name}: cannot read position {shown(text)}",
            lambda: self._parse_position(text),
        )

    def _parse_position(self, text: str) -> SpielState:
        state = self.initial_state()
        for number, word in enumerate(text.replace(",", " ").split(), start=1):
            if not (word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS):
                raise ParseError(
                    f"{self.name}: position item {number} {shown(word)} is not an action id "
                    "(a POSITION is the action ids from the start, e.g. '4 0 8')"
                )
            try:
                state = self.play(state, int(word))
            except IllegalMoveError as exc:
                raise ParseError(f"{exc} (position item {number})") from None
        return state

    def format_position(self, state: SpielState) -> str:
        """The action ids from the start, separated by spaces."""
        return " ".join(map(str, state.history))

    def render(self, state: SpielState) -> str:
        """OpenSpiel's own text of the state."""
        return str(state.state).rstrip("\n")


def load(spec: str) -> OpenSpielGame:
    """The OpenSpiel game ``spec`` (``go(board_size=5,komi=0.5)``) as a plies game."""
    if not isinstance(spec, str):
        raise ArgumentTypeError(f"an OpenSpiel game is given as text, not {spec!r}")
    if not spec.strip():
        raise UnknownGameError(
            "openspiel needs a game after the colon, e.g. openspiel:tic_tac_toe or "
            "'openspiel:go(board_size=5,komi=0.5)'"
        )
    return OpenSpielGame(spec.strip())


@functools.cache
def _pyspiel() -> Any:
    """The ``pyspiel`` module, or UnknownGameError saying how to install it."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no stubs
    except ImportError:
        raise UnknownGameError(
            "OpenSpiel games need the openspiel extra: pip install 'plies[openspiel]'"
        ) from None
    return pyspiel


#: What OpenSpiel raises: its SpielError (a RuntimeError), and C++ errors as pybind11
#: turns them into Python's (``std::length_error``: ValueError, ``std::bad_alloc``:
#: MemoryError, an argument it cannot convert: TypeError, OverflowError).
_SPIEL_FAILURES = (RuntimeError, ValueError, TypeError, IndexError, OverflowError, MemoryError)


def _quietly(error: type[PliesError], what: str, call: Callable[[], T]) -> T:
    """``call()``, with OpenSpiel's failure raised as ``error`` in one line: ``what``
    and OpenSpiel's reason (plies' own errors pass through). OpenSpiel's C++ code prints
    its errors to the process's stderr before raising (a list of every game for an
    unknown name): that text is kept from the terminal."""
    with tempfile.TemporaryFile() as caught:
        saved = os.dup(2)
        os.dup2(caught.fileno(), 2)
        try:
            return call()
        except PliesError:
            raise
        except _SPIEL_FAILURES as exc:
            reason = _reason(exc)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    raise error(f"{what}: {reason}")


def _reason(exc: BaseException) -> str:
    """OpenSpiel's reason for ``exc``, on one line of 160 characters at most."""
    text = str(exc).strip().removeprefix("OpenSpiel exception:").strip()
    reason = text.splitlines()[0] if text else type(exc).__name__
    if isinstance(exc, MemoryError):
        reason = f"out of memory ({reason})"
    return reason if len(reason) <= 160 else reason[:157] + "..."


def _hint(wanted: str, by_text: dict[str, list[int]]) -> str:
    """The tail of an unknown move's error: the move meant if only its case differs
    (case counts), else some legal moves."""
    same = [text for text in by_text if text.lower() == wanted.lower()]
    if same:
        return f" (moves are case sensitive: did you mean {' or '.join(map(shown, same[:3]))}?)"
    sample = ", ".join(list(by_text)[:8])
    return f" (moves: {sample}{', ...' if len(by_text) > 8 else ''}; or an action id)"


def _unsupported(pyspiel: Any, game: Any) -> str | None:
    """Why plies cannot search ``game`` (a phrase), or None."""
    kind = game.get_type()
    gt = pyspiel.GameType
    actions, length = game.num_distinct_actions(), game.max_game_length()
    if not 0 < actions <= MAX_ACTIONS:
        return f"it has {actions:,} distinct actions (plies takes 1 to {MAX_ACTIONS:,})"
    if not 0 < length <= MAX_GAME_LENGTH:
        return f"a game lasts up to {length:,} moves (plies takes 1 to {MAX_GAME_LENGTH:,})"
    if game.num_players() < 2:
        return f"it has {game.num_players()} player (plies searches games of two or more)"
    if kind.dynamics != gt.Dynamics.SEQUENTIAL:
        return "its players move simultaneously"
    if kind.information != gt.Information.PERFECT_INFORMATION:
        return "it has hidden information"
    if game.num_players() == 2 and kind.utility != gt.Utility.ZERO_SUM:
        return f"it is not zero-sum ({kind.utility.name.lower().replace('_', '-')})"
    if kind.chance_mode not in (gt.ChanceMode.DETERMINISTIC, gt.ChanceMode.EXPLICIT_STOCHASTIC):
        return "its chance events are sampled, not listed with probabilities"
    return None
