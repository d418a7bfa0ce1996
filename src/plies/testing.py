"""The game conformance suite: does a game keep the promises the engine relies on?

Every built-in game passes it, and it is meant for your own games too::

    from plies.testing import check_game
    check_game(MyGame(), playouts=50, seed=1)

:func:`check_game` plays seeded random games (chance outcomes drawn with their
probabilities) and, at every state it meets, checks that:

* playing a move or outcome never changes the parent state (nor its key);
* ``num_players`` is an int of at least 2; a decision state has legal moves exactly
  when it is not terminal, without duplicates, in the same order when asked twice,
  and ``to_move`` is a player, 0 to ``num_players - 1``;
* a chance state is not terminal and has distinct outcomes whose probabilities are
  positive and sum to 1;
* terminal states have utilities that are finite, within ``utility_bounds()`` and at
  most 1000 in size, one per player in ``utilities()`` (equal to ``utility``), and
  zero-sum in a two-player game (``u(s, 0) == -u(s, 1)``); ``terminal_value`` agrees
  with them and is None before the end;
* ``evaluate`` is finite and below ``WIN / 1000`` in size, at every state met and every
  child of one (chance nodes included), one per player in ``evaluations()`` (equal to
  ``evaluate``), and zero-sum in a two-player game;
* ``winning_move`` (when it names one) is legal and wins at once, ``forced_moves``
  (where no move wins at once) is exactly the moves after which the opponent cannot
  win with its next move, ``order_moves`` is a permutation of the moves;
* ``remaining_plies`` (if known) is at least 1 before the end and falls by at least
  one per move; under ``last_mover_wins`` a move that ends the game wins it for its
  player (utility 1) or draws (0);
* ``with_turn`` (where the game has it) gives each player the turn in the same
  position: the player asked for is to move (unless the passes ended the game, as a
  draw rule counting them may), and giving the turn to the player already to move
  changes nothing (the key stays);
* in a game of more than two players the checks that assume one opponent and
  zero-sum wins are skipped: ``winning_move``, ``forced_moves`` and
  ``last_mover_wins`` (only the two-player searches and solver ask them; the N-player
  searches read :meth:`~plies.game.BaseGame.utilities` and
  :meth:`~plies.game.BaseGame.evaluations` alone) and the zero-sum checks;
* every move survives ``parse_move(format_move(...))`` and every state survives
  ``parse_position(format_position(...))`` up to its key (unless the game keeps the
  default ``repr`` notation), and ``parse_position("")`` is the start;
* keys are equal for equal states, including states reached by different move orders
  (the suite swaps the first and third of three moves where it can), and different
  states share a key only if the search cannot tell them apart two plies deep (same
  terminal values, numbers of moves and evaluations: a key may merge symmetries);
* ``play`` refuses an illegal move with :class:`~plies.errors.IllegalMoveError` (or
  :class:`~plies.errors.ArgumentTypeError` for a value of the wrong type): moves
  legal elsewhere in the playouts but not here, any move once the game is over,
  decisions at a chance node, and values that are no move at all (None, an object);
* every playout ends within ``max_plies`` plies;
* a game with a native port (``native()``, see :mod:`plies.engine.native`) agrees
  with it on random playouts: the same legal moves in the same order, terminal values,
  evaluations, winning and forced moves, children, and keys equal exactly when the
  Python keys are equal.

A failure raises :class:`ConformanceError` (an :class:`AssertionError`) naming the
check, the game and the moves that led to the offending state.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.errors import ArgumentTypeError, IllegalMoveError
from plies.game import WIN, BaseGame

__all__ = ["ConformanceError", "ConformanceReport", "check_game"]

#: Probabilities of one chance node must sum to 1 within this tolerance.
PROBABILITY_TOLERANCE = 1e-9

#: Moves (and outcomes) met in the playouts kept to try where they are illegal, and
#: how many of them are tried per state.
MOVE_POOL = 64
ILLEGAL_TRIES = 4


class _NoMove:
    """A value that is no game's move (its repr says so in failure messages)."""

    def __repr__(self) -> str:
        return "<not a move>"


class ConformanceError(AssertionError):
    """A game broke one of the protocol's promises; the message says which and where."""


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_game` looked at (it raises on the first failure instead)."""

    #: Random games played to the end.
    playouts: int
    #: Distinct states checked (by key).
    states: int
    #: Terminal states reached.
    terminals: int
    #: Plies (moves and chance outcomes) of the longest playout.
    longest: int
    #: Pairs of move orders tried for transpositions.
    transpositions: int
    #: States at which the game's native port was compared with its Python rules (0:
    #: no native port, or Numba missing).
    native_states: int = 0


class _Checker:
    """The state of one :func:`check_game` run: the game, the RNG and what was seen."""

    def __init__(self, game: BaseGame[Any, Any], rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.name = getattr(game, "name", type(game).__name__)
        self.by_key: dict[Hashable, Any] = {}
        self.key_of: dict[Any, Hashable] = {}
        self.terminals = 0
        self.transpositions = 0
        base = BaseGame.format_position
        self.positions = getattr(type(game), "format_position", base) is not base
        #: Players of the game; the checks that assume one opponent (zero-sum
        #: utilities and evaluations, winning and forced moves, last_mover_wins) run
        #: only when there are two.
        self.players = game.num_players
        self.two_players = self.players == 2
        self.has_forced_moves = (
            self.two_players and type(game).forced_moves is not BaseGame.forced_moves
        )
        self.has_with_turn = type(game).with_turn is not BaseGame.with_turn
        #: Moves and outcomes met so far, tried where they are not legal.
        self.pool: list[Any] = []

    def fail(self, check: str, path: Sequence[str], detail: str) -> ConformanceError:
        """A :class:`ConformanceError` naming the check, the game and the path."""
        where = " ".join(path) if path else "(the start)"
        return ConformanceError(f"{self.name}: {check}: {detail} [after moves: {where}]")

    def is_chance(self, state: Any) -> bool:
        """Whether ``state`` is a chance node (only asked of games that declare chance)."""
        return bool(self.game.has_chance and self.game.is_chance(state))

    def label(self, state: Any, move: Any) -> str:
        """``move`` as text for failure messages (never raises)."""
        try:
            return str(self.game.format_move(state, move))
        except Exception:  # a broken format_move must not hide the real failure
            return repr(move)

    # -- per-state checks -------------------------------------------------------------

    def check_state(self, state: Any, path: list[str]) -> list[tuple[Any, float]]:
        """Check one state; return its successors as (move or outcome, weight)."""
        game = self.game
        self.check_key(state, path)
        if game.is_terminal(state):
            self.check_terminal(state, path)
            self.check_illegal(state, [], path)
            return []
        value = game.terminal_value(state)
        if value is not None:
            raise self.fail("terminal_value", path, f"{value!r} for a non-terminal state")
        if self.is_chance(state):
            successors = self.check_chance(state, path)
        else:
            successors = [(move, 1.0) for move in self.check_decision(state, path)]
        self.check_illegal(state, [move for move, _ in successors], path)
        self.check_children(state, [move for move, _ in successors], path)
        if self.positions:
            self.check_position_text(state, path)
        return successors

    def check_key(self, state: Any, path: list[str]) -> None:
        """Keys are hashable, stable, and equal exactly when states are equal."""
        game = self.game
        key = game.key(state)
        try:
            hash(key)
        except TypeError as exc:
            raise self.fail("key", path, f"key {key!r} is not hashable") from exc
        if game.key(state) != key:
            raise self.fail("key", path, "two calls gave different keys")
        known = self.key_of.setdefault(state, key)
        if known != key:
            raise self.fail("key", path, f"equal states have keys {known!r} and {key!r}")
        seen = self.by_key.get(key)
        if seen is None:
            self.by_key[key] = state
        elif seen != state:
            self.check_merge(seen, state, path, f"share key {key!r}")

    def check_merge(self, first: Any, second: Any, path: list[str], why: str) -> None:
        """Two different states one key stands for must look the same to the search.

        A key may merge states the game treats as symmetric (Nim's ignores heap order
        and the player's name). The search then reuses one's result for the other, so
        both must agree on what it reads from the side to move's point of view:
        terminal or not, chance or not, terminal value, number of moves, evaluation,
        here and (as multisets) at the children and grandchildren.
        """
        game = self.game

        def view(state: Any, depth: int = 2) -> tuple[object, ...]:
            # What the search sees here and, sorted, at the children (two plies deep).
            if game.is_terminal(state):
                if not self.two_players:  # every player's payoff, not the mover's
                    return ("terminal", game.to_move(state), game.utilities(state))
                return ("terminal", game.terminal_value(state))
            if self.is_chance(state):
                moves = [outcome for outcome, _ in game.chance_outcomes(state)]
                here: tuple[object, ...] = ("chance", len(moves))
            else:
                moves = list(game.legal_moves(state))
                mover = game.to_move(state)
                seen: object = (
                    game.evaluate(state, mover)
                    if self.two_players
                    else (mover, game.evaluations(state))
                )
                here = ("decision", len(moves), seen)
            if depth == 0:
                return here
            below = sorted(repr(view(game.play(state, move), depth - 1)) for move in moves)
            return (*here, tuple(below))

        if view(first) != view(second):
            raise self.fail(
                "key",
                path,
                f"states {first!r} and {second!r} {why} but differ for the search "
                f"({view(first)!r} != {view(second)!r})",
            )

    def check_terminal(self, state: Any, path: list[str]) -> None:
        """Utilities of a terminal state: one per player, finite, bounded, zero-sum
        between two players; no moves left."""
        game = self.game
        self.terminals += 1
        if not self.is_chance(state) and list(game.legal_moves(state)):
            raise self.fail("legal_moves", path, "a terminal state has legal moves")
        low, high = game.utility_bounds()
        payoffs = [game.utility(state, player) for player in range(self.players)]
        for value in payoffs:
            if not (math.isfinite(value) and abs(value) <= 1000):
                raise self.fail("utility", path, f"{value!r} is not a finite number <= 1000")
            if not low <= value <= high:
                raise self.fail("utility", path, f"{value!r} outside utility_bounds {low, high}")
        vector = tuple(game.utilities(state))
        if vector != tuple(payoffs):
            raise self.fail("utilities", path, f"{vector!r}, utility says {tuple(payoffs)!r}")
        if self.two_players and payoffs[0] != -payoffs[1]:
            raise self.fail("utility", path, f"not zero-sum: {payoffs[0]!r} and {payoffs[1]!r}")
        terminal = game.terminal_value(state)
        if not self.is_chance(state):
            expected = game.utility(state, game.to_move(state))
            if terminal != expected:
                raise self.fail("terminal_value", path, f"{terminal!r}, utility says {expected!r}")
        elif terminal is None:
            raise self.fail("terminal_value", path, "None for a terminal state")

    def check_chance(self, state: Any, path: list[str]) -> list[tuple[Any, float]]:
        """Outcomes of a chance node: present, distinct, positive, summing to 1."""
        outcomes = list(self.game.chance_outcomes(state))
        if not outcomes:
            raise self.fail("chance_outcomes", path, "a chance node without outcomes")
        total = 0.0
        for outcome, probability in outcomes:
            if not (0.0 < probability <= 1.0):
                raise self.fail(
                    "chance_outcomes", path, f"outcome {outcome!r} has probability {probability!r}"
                )
            total += probability
        if abs(total - 1.0) > PROBABILITY_TOLERANCE:
            raise self.fail("chance_outcomes", path, f"probabilities sum to {total!r}, not 1")
        if len({outcome for outcome, _ in outcomes}) != len(outcomes):
            raise self.fail("chance_outcomes", path, "an outcome is listed twice")
        self.check_evaluate(state, path)  # searches evaluate chance nodes at the horizon
        return outcomes

    def check_decision(self, state: Any, path: list[str]) -> list[Any]:
        """Moves of a decision state and the hooks that depend on them."""
        game = self.game
        player = game.to_move(state)
        if isinstance(player, bool) or player not in range(self.players):
            raise self.fail(
                "to_move", path, f"{player!r} is not a player (0 to {self.players - 1})"
            )
        moves = list(game.legal_moves(state))
        if not moves:
            raise self.fail("legal_moves", path, "no legal moves in a non-terminal state")
        if list(game.legal_moves(state)) != moves:
            raise self.fail("legal_moves", path, "two calls gave different moves or orders")
        if len(set(moves)) != len(moves):
            raise self.fail("legal_moves", path, f"a move is listed twice in {moves!r}")
        ordered = list(game.order_moves(state, moves))
        if sorted(map(repr, ordered)) != sorted(map(repr, moves)):
            raise self.fail("order_moves", path, f"{ordered!r} is not a permutation of the moves")
        winning = game.winning_move(state) if self.two_players else None
        if winning is not None:
            after = game.play(state, winning)
            if winning not in moves or not game.is_terminal(after):
                raise self.fail("winning_move", path, f"{winning!r} does not end the game")
            if game.utility(after, player) <= 0:
                raise self.fail("winning_move", path, f"{winning!r} does not win")
        elif self.has_forced_moves:
            self.check_forced_moves(state, moves, player, path)
        self.check_solver_hooks(state, moves, player, path)
        self.check_evaluate(state, path)
        if self.has_with_turn:
            self.check_with_turn(state, player, path)
        for move in moves:
            text = game.format_move(state, move)
            parsed = game.parse_move(state, text)
            if parsed != move:
                raise self.fail("parse_move", path, f"{text!r} reads back as {parsed!r}")
        return moves

    def check_forced_moves(
        self, state: Any, moves: list[Any], player: int, path: list[str]
    ) -> None:
        """``forced_moves`` (asked when ``winning_move`` found no win) is exactly the
        moves after which the opponent cannot win with its next move."""
        game = self.game
        if any(self.wins_at_once(state, move, player) for move in moves):
            return  # the hook is never asked here
        forced = game.forced_moves(state)
        if forced is None:
            return
        safe = [move for move in moves if not self.loses_at_once(state, move, player)]
        if set(forced) != set(safe) or len(list(forced)) != len(safe):
            raise self.fail(
                "forced_moves",
                path,
                f"{list(forced)!r}, but the moves that do not lose at once are {safe!r}",
            )

    def wins_at_once(self, state: Any, move: Any, player: int) -> bool:
        """Whether ``move`` ends the game with a win for ``player``."""
        child = self.game.play(state, move)
        return self.game.is_terminal(child) and self.game.utility(child, player) > 0

    def loses_at_once(self, state: Any, move: Any, player: int) -> bool:
        """Whether after ``move`` the opponent has a move that ends the game won."""
        game = self.game
        child = game.play(state, move)
        if game.is_terminal(child) or self.is_chance(child) or game.to_move(child) == player:
            return False
        return any(
            game.is_terminal(after := game.play(child, reply)) and game.utility(after, player) < 0
            for reply in game.legal_moves(child)
        )

    def check_solver_hooks(
        self, state: Any, moves: list[Any], player: int, path: list[str]
    ) -> None:
        """``remaining_plies`` bounds the game's length; ``last_mover_wins`` holds."""
        game = self.game
        left = game.remaining_plies(state)
        if left is not None and left < 1:
            raise self.fail("remaining_plies", path, f"{left!r} in a state with moves left")
        for move in moves:
            child = game.play(state, move)
            if left is not None and not self.is_chance(child):
                after = game.remaining_plies(child)
                if after is None or after > left - 1:
                    raise self.fail(
                        "remaining_plies",
                        path,
                        f"{after!r} after {self.label(state, move)}, {left!r} before",
                    )
            if game.last_mover_wins and self.two_players and game.is_terminal(child):
                utility = game.utility(child, player)
                if utility not in (0.0, 1.0):
                    raise self.fail(
                        "last_mover_wins",
                        path,
                        f"the move {self.label(state, move)} ends the game with utility "
                        f"{utility!r} for its player (0 or 1 expected)",
                    )

    def check_with_turn(self, state: Any, player: int, path: list[str]) -> None:
        """``with_turn`` (Best-Reply Search's passes) gives each player the turn in the
        same position; the player already to move keeps the state as it is."""
        game = self.game
        for other in range(self.players):
            turned = game.with_turn(state, other)
            if turned is None:
                continue  # the game cannot say here
            if not game.is_terminal(turned) and game.to_move(turned) != other:
                raise self.fail(
                    "with_turn",
                    path,
                    f"player {other}'s turn gave {game.to_move(turned)!r} to move",
                )
            if other == player and game.key(turned) != game.key(state):
                raise self.fail(
                    "with_turn", path, f"the turn of {player}, already to move, changed the key"
                )

    def check_evaluate(self, state: Any, path: list[str]) -> None:
        """``evaluate`` of a non-terminal state: finite, below WIN / 1000, one per
        player in ``evaluations()``, zero-sum between two players."""
        game = self.game
        try:
            values = [game.evaluate(state, player) for player in range(self.players)]
            vector = tuple(game.evaluations(state))
        except ArithmeticError as exc:
            raise self.fail("evaluate", path, f"raised {exc!r}") from exc
        for value in values:
            if not (math.isfinite(value) and abs(value) < WIN / 1000):
                raise self.fail("evaluate", path, f"{value!r} is not finite and below WIN / 1000")
        if vector != tuple(values):
            raise self.fail("evaluations", path, f"{vector!r}, evaluate says {tuple(values)!r}")
        if self.two_players and values[0] != -values[1]:
            raise self.fail("evaluate", path, f"not zero-sum: {values[0]!r} and {values[1]!r}")

    def check_illegal(self, state: Any, legal: list[Any], path: list[str]) -> None:
        """``play`` refuses moves that are not legal in ``state`` with IllegalMoveError
        (or ArgumentTypeError for what is no move at all), never another exception
        and never a state. ``legal`` are the moves or outcomes of ``state``."""
        foreign = [move for move in self.pool if move not in legal]
        tries = [*self.rng.sample(foreign, min(ILLEGAL_TRIES, len(foreign))), None, _NoMove()]
        for move in tries:
            try:
                child = self.game.play(state, move)
            except (IllegalMoveError, ArgumentTypeError):
                continue
            except Exception as exc:  # the promise is one error type, say what came
                raise self.fail(
                    "play",
                    path,
                    f"illegal move {move!r} raised {type(exc).__name__}: {exc} "
                    "(IllegalMoveError expected)",
                ) from exc
            raise self.fail("play", path, f"illegal move {move!r} was played (gave {child!r})")
        for move in legal:
            if len(self.pool) < MOVE_POOL and move not in self.pool:
                self.pool.append(move)

    def check_children(self, state: Any, moves: list[Any], path: list[str]) -> None:
        """Playing any move or outcome leaves the parent (and its key) unchanged."""
        game = self.game
        snapshot = copy.deepcopy(state)
        key = game.key(state)
        for move in moves:
            child = game.play(state, move)
            if state != snapshot or game.key(state) != key:
                label = self.label(snapshot, move)
                raise self.fail("play", path, f"playing {label} changed the parent state")
            if not game.is_terminal(child):  # the search evaluates children at its horizon
                self.check_evaluate(child, [*path, self.label(state, move)])

    def check_position_text(self, state: Any, path: list[str]) -> None:
        """``parse_position(format_position(state))`` gives back an equal state."""
        game = self.game
        text = game.format_position(state)
        back = game.parse_position(text)
        if game.key(back) != game.key(state):
            raise self.fail("format_position", path, f"{text!r} reads back as {back!r}")
        if back != state:  # allowed only for states the key merges anyway
            self.check_merge(state, back, path, f"(the second read back from {text!r})")

    # -- playouts ---------------------------------------------------------------------

    def playout(self, max_plies: int) -> int:
        """Play one random game to the end, checking every state; return its length."""
        game = self.game
        state = game.initial_state()
        path: list[str] = []
        while True:
            successors = self.check_state(state, path)
            if not successors:
                return len(path)
            if len(path) >= max_plies:
                raise self.fail("playout", path[-10:], f"no end after {max_plies} plies")
            if len(path) % 3 == 0:
                self.try_transposition(state, path)
            moves = [move for move, _ in successors]
            weights = [weight for _, weight in successors]
            move = self.rng.choices(moves, weights)[0]
            path.append(self.label(state, move))
            state = game.play(state, move)

    def options(self, state: Any) -> list[Any]:
        """The moves of a decision state or the outcomes of a chance node."""
        if self.is_chance(state):
            return [outcome for outcome, _ in self.game.chance_outcomes(state)]
        return list(self.game.legal_moves(state))

    def try_transposition(self, state: Any, path: list[str]) -> None:
        """Reach a grandchild by ``a b c`` and by ``c b a`` and check both keys.

        ``a`` and ``c`` are two moves (or two chance outcomes) of ``state``, ``b`` the
        first option after ``a`` or ``c``: in Connect Four the same stones in another
        order, in Pig two dice in the other order.
        """
        game = self.game
        choices = self.options(state)
        if len(choices) < 2:
            return
        first, third = self.rng.sample(choices, 2)
        ends = []
        for a, c in ((first, third), (third, first)):
            line = [self.label(state, a)]
            current = game.play(state, a)
            middle = [] if game.is_terminal(current) else self.options(current)
            if not middle:
                return
            b = middle[0]
            line.append(self.label(current, b))
            current = game.play(current, b)
            if game.is_terminal(current) or c not in self.options(current):
                return
            line.append(self.label(current, c))
            current = game.play(current, c)
            self.check_key(current, path + line)
            ends.append(current)
        self.transpositions += 1
        if ends[0] == ends[1] and game.key(ends[0]) != game.key(ends[1]):
            raise self.fail("key", path, "equal states reached by two move orders differ in key")


def check_game(
    game: BaseGame[Any, Any],
    *,
    playouts: int = 20,
    seed: int = 0,
    max_plies: int = 10_000,
) -> ConformanceReport:
    """Run the conformance suite on ``game``; raise :class:`ConformanceError` on a failure.

    ``playouts`` random games are played to the end with a :class:`random.Random`
    seeded by ``seed`` (so a failure can be replayed), each allowed at most
    ``max_plies`` moves and chance outcomes. Returns a :class:`ConformanceReport`
    saying how much was checked. The checks are listed in the module documentation.
    """
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    players = game.num_players
    if not isinstance(players, int) or isinstance(players, bool) or players < 2:
        raise ConformanceError(f"{game.name}: num_players: {players!r} is not an int >= 2")
    checker = _Checker(game, random.Random(seed))
    start = game.initial_state()
    if checker.positions:
        parsed = game.parse_position("")
        if parsed != start:
            raise checker.fail("parse_position", [], f"'' reads as {parsed!r}, not the start")
    longest = max(checker.playout(max_plies) for _ in range(playouts))
    return ConformanceReport(
        playouts=playouts,
        states=len(checker.by_key),
        terminals=checker.terminals,
        longest=longest,
        transpositions=checker.transpositions,
        native_states=_check_native(game, playouts, random.Random(seed), max_plies),
    )


def _check_native(
    game: BaseGame[Any, Any], playouts: int, rng: random.Random, max_plies: int
) -> int:
    """Compare the game's native port with its rules on random playouts; return how
    many states were compared (0 when there is no port to search with)."""
    from plies.engine.native import native_port, numba_missing

    if getattr(game, "native", None) is None or numba_missing():
        return 0
    port = native_port(game)
    # A port is compared whatever kernel tasks it takes (a game of more than two
    # players takes none), as long as it takes the start.
    if port is None or port.problem(game.initial_state()):
        return 0
    checker = _NativeChecker(game, port)
    for _ in range(playouts):
        checker.playout(rng, max_plies)
    return checker.states


class _NativeChecker:
    """The native rules of one game side by side with its Python rules."""

    def __init__(self, game: BaseGame[Any, Any], port: Any) -> None:
        import numpy as np

        from plies.engine import native

        self.game, self.port, self.native, self.np = game, port, native, np
        self.prepared = port.prepare(game.initial_state())
        self.rules = port.rules()
        self.has_order, self.has_win, self.has_forced = port.hooks()
        size = max(self.prepared.max_moves, 1)
        self.moves = np.zeros(size, np.int64)
        self.forced = np.zeros(size, np.int64)
        self.numbers = np.zeros(5, np.float64)
        self.keys: dict[Any, Any] = {}  # native key -> Python key
        self.python_keys: dict[Any, Any] = {}  # Python key -> native key
        self.states = 0
        #: Each player's utility or evaluation, as the N-player rules write them.
        self.values = np.zeros(max(port.players, 2), np.float64)

    def fail(self, check: str, path: list[str], detail: str) -> ConformanceError:
        where = " ".join(path[-10:]) or "the start"
        return ConformanceError(f"{self.game.name}: native {check}: after {where}: {detail}")

    def playout(self, rng: random.Random, max_plies: int) -> None:
        """One random game, every state compared (moves, values, keys, children)."""
        game, port, prepared = self.game, self.port, self.prepared
        state = game.initial_state()
        path: list[str] = []
        while len(path) <= max_plies:
            encoded = port.encode(prepared, state)
            moves = self.check_state(state, encoded, path)
            if not moves:
                return
            move = rng.choice(moves)
            child = game.play(state, move)
            played = self.np.zeros_like(encoded)
            self.native.play_move(
                self.rules, prepared.consts, encoded, port.encode_move(prepared, move), played
            )
            if not self.np.array_equal(played, port.encode(prepared, child)):
                raise self.fail("play", path, f"{game.format_move(state, move)} gives {played}")
            path.append(game.format_move(state, move))
            state = child

    def check_state(self, state: Any, encoded: Any, path: list[str]) -> list[Any]:
        """Compare one state; return its legal moves."""
        game, port, prepared, numbers = self.game, self.port, self.prepared, self.numbers
        self.states += 1
        key = self.native.describe_state(
            self.rules, prepared.consts, encoded, self.moves, self.forced, numbers
        )
        count = int(numbers[0])
        native = [port.decode_move(prepared, int(m)) for m in self.moves[:count]]
        legal = list(game.legal_moves(state))
        if native != legal:
            raise self.fail("legal_moves", path, f"{native[:8]} instead of {legal[:8]}")
        outcome = game.terminal_value(state)
        terminal = None if math.isnan(numbers[1]) else float(numbers[1])
        if terminal != outcome:
            raise self.fail("terminal_value", path, f"{terminal} instead of {outcome}")
        if outcome is None and numbers[2] != game.evaluate(state, game.to_move(state)):
            raise self.fail("evaluate", path, f"{numbers[2]} differs from the Python evaluate")
        self.check_hooks(state, path)
        if port.players > 2:
            self.check_players(state, encoded, path)
        python_key = game.key(state)
        if self.keys.setdefault(key, python_key) != python_key:
            raise self.fail("key", path, "two states of different Python keys share a key")
        if self.python_keys.setdefault(python_key, key) != key:
            raise self.fail("key", path, "two states of one Python key differ in key")
        return legal

    def check_hooks(self, state: Any, path: list[str]) -> None:
        """The winning and forced moves the port has, as the Python game names them."""
        game, port, prepared, numbers = self.game, self.port, self.prepared, self.numbers
        if not self.has_win:
            return
        winning = int(numbers[3])
        native_win = port.decode_move(prepared, winning) if winning >= 0 else None
        if native_win != game.winning_move(state):
            raise self.fail("winning_move", path, f"{native_win} instead of the Python one")
        if self.has_forced and native_win is None and not game.is_terminal(state):
            kept = int(numbers[4])
            python = game.forced_moves(state)
            native = (
                None
                if kept < 0
                else {port.decode_move(prepared, int(m)) for m in self.forced[:kept]}
            )
            if native != (None if python is None else set(python)):
                raise self.fail("forced_moves", path, f"{native} instead of {python}")

    def call_values(self, rule: Any, encoded: Any) -> tuple[int, list[float]]:
        """Call the N-player rule ``rule`` (``utilities`` or ``evaluations``) on
        ``encoded`` through its C entry point: what it returns and the values it wrote."""
        import ctypes

        longs, doubles = ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_double)
        self.values[:] = self.np.nan
        given = rule.ctypes(
            self.prepared.consts.ctypes.data_as(longs),
            encoded.ctypes.data_as(longs),
            self.values.ctypes.data_as(doubles),
        )
        return int(given), [float(v) for v in self.values[: self.port.players]]

    def check_players(self, state: Any, encoded: Any, path: list[str]) -> None:
        """A port of more than two players: ``to_move``, ``utilities`` (at the end) and
        ``evaluations`` (before it) equal the Python game's."""
        import ctypes

        game, port = self.game, self.port
        longs = ctypes.POINTER(ctypes.c_int64)
        consts = self.prepared.consts.ctypes.data_as(longs)
        turn = int(port.to_move.ctypes(consts, encoded.ctypes.data_as(longs)))
        if turn != game.to_move(state):
            raise self.fail("to_move", path, f"{turn} instead of {game.to_move(state)}")
        over, utilities = self.call_values(port.utilities, encoded)
        if over != int(game.is_terminal(state)):
            raise self.fail(
                "utilities", path, f"returns {over} (game over: {game.is_terminal(state)})"
            )
        if over and utilities != list(game.utilities(state)):
            raise self.fail("utilities", path, f"{utilities} instead of {game.utilities(state)}")
        if over:
            return
        given, evaluations = self.call_values(port.evaluations, encoded)
        if given != 1 or evaluations != list(game.evaluations(state)):
            raise self.fail(
                "evaluations", path, f"{evaluations} instead of {game.evaluations(state)}"
            )
