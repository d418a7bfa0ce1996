"""Engine scores: utilities scaled by :data:`~plies.game.WIN` and shifted by distance.

A terminal state with utility ``u`` for the side to move, reached ``ply`` plies from
the root, scores ``u * WIN - ply`` when ``u > 0`` (a win: sooner is higher) and
``u * WIN + ply`` when ``u < 0`` (a loss: later is higher). Heuristic evaluations stay
below :data:`WIN_THRESHOLD` in magnitude, so any score beyond it is a proven result.

Scores in the transposition table are stored relative to the node (a win's distance
counted from it) and turned back into root-relative scores where they are read, so a win
found through one path keeps the right distance when reached through another. In
games with chance nodes an expected value mixes wins and losses, and no shift can be
right for all of them: there the distance term is left out (``ply_weight`` 0), values
are plain expectations and the table needs no shift.

:class:`Score` reads such a number back as what it means (a heuristic value, a win or
a loss in N plies, a draw, an expected utility), with its own text, order and JSON
form; every shell prints scores through it.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from plies._arguments import need_int, need_number, shown
from plies.errors import ParseError, PliesError, SearchError
from plies.game import WIN

__all__ = [
    "SCORE_KINDS",
    "WIN",
    "WIN_THRESHOLD",
    "Score",
    "ScoreKind",
    "describe_score",
    "score_distance",
    "score_outcome",
    "terminal_score",
]

#: Scores at least this large in magnitude are proven wins or losses.
WIN_THRESHOLD = WIN / 1000.0


def terminal_score(outcome: float, ply: int, ply_weight: int = 1) -> float:
    """The score of a terminal state with utility ``outcome`` for the side to move,
    ``ply`` plies from the root: sooner wins and later losses score higher.
    ``ply_weight`` is 0 in games with chance (no distance term, see above).

    The node functions inline this rule where it runs once per node (a call there
    costs a few per cent of the speed); everywhere else calls it.
    """
    if outcome > 0:
        return outcome * WIN - ply * ply_weight
    if outcome < 0:
        return outcome * WIN + ply * ply_weight
    return 0.0


def score_outcome(score: float) -> str | None:
    """``"win"`` or ``"loss"`` for a proven score, None for a heuristic one."""
    need_number(score, "score", error=SearchError)
    if score >= WIN_THRESHOLD:
        return "win"
    if score <= -WIN_THRESHOLD:
        return "loss"
    return None


def score_distance(score: float) -> int | None:
    """Plies from the root to the end of the game for a proven win/loss score, else None.

    Exact when utilities are multiples of 0.001 and the distance is below one million.
    """
    need_number(score, "score", error=SearchError)
    magnitude = abs(score)
    if magnitude < WIN_THRESHOLD:
        return None
    # |score| = |u| * WIN - distance with |u| a multiple of 1/1000: round |u| up.
    utility_steps = -(-magnitude // WIN_THRESHOLD)
    return round(utility_steps * WIN_THRESHOLD - magnitude)


def describe_score(score: float) -> str:
    """Short text for a score: ``win in 5``, ``loss in 4`` or the number itself
    (``str`` of :meth:`Score.from_value`)."""
    return str(Score.from_value(score))


#: What a :class:`Score` says: a heuristic ``value``, a proven ``win`` or ``loss``, a
#: proven ``draw``, an ``expected`` utility (games with chance nodes), or the mean value
#: of Monte-Carlo ``playouts`` (MCTS in a game without chance: not the game's value).
ScoreKind = Literal["value", "win", "loss", "draw", "expected", "playouts"]
SCORE_KINDS: tuple[ScoreKind, ...] = ("value", "win", "loss", "draw", "expected", "playouts")

#: ``win in 5``, ``win 5``, ``win:5``, ``win`` (and the same for loss).
_OUTCOME_TEXT = re.compile(r"(win|loss)(?:(?: in |:| )(\d+))?")
#: ``expected utility +0.718`` (also ``expected +0.718`` and ``expected:+0.718``).
_EXPECTED_TEXT = re.compile(r"expected(?: utility | |:)([-+]?\d+(?:\.\d+)?)")
#: ``playouts +0.035`` (also ``playouts:+0.035``).
_PLAYOUTS_TEXT = re.compile(r"playouts[ :]([-+]?\d+(?:\.\d+)?)")
#: UCI's ``mate N`` / ``mate -N`` (moves) and ``cp N``.
_UCI_TEXT = re.compile(r"(mate|cp) ([-+]?\d+)")


class Score:
    """What an engine score means, for the side to move: immutable and ordered.

    In the spirit of python-chess's ``Cp``/``Mate``: ``kind`` is one of
    :data:`SCORE_KINDS`. A ``"value"`` is a heuristic evaluation (``value``), a
    ``"win"``/``"loss"`` a proven result ``plies`` plies from the position (None when
    only the result is known: a weak solve), a ``"draw"`` a proven draw, and an
    ``"expected"`` score an expected utility (``utility``) of a game with chance
    nodes: it mixes wins and losses and proves neither. A ``"playouts"`` score is the
    mean utility (``utility``) of a Monte-Carlo search's random playouts in a game
    without chance: an estimate of how the position plays out at random, not the
    game's value. ``value`` is always the
    engine's number it stands for (:func:`terminal_score`'s encoding).

    Order: any loss < any value, draw, expectation or playouts (by ``value``) < any win; a
    later loss is higher than a sooner one, a sooner win higher than a later one.

    >>> Score.from_value(WIN - 5)
    Score.win(5)
    >>> str(Score.from_value(WIN - 5)), Score.from_value(WIN - 5).uci()
    ('win in 5', 'mate 3')
    >>> str(Score.from_value(0.71759 * WIN, chance=True))
    'expected utility +0.718'
    >>> Score.loss(2) < Score.heuristic(-300) < Score.draw() < Score.win(9) < Score.win(3)
    True
    >>> Score.from_json(Score.win(5).to_json()) == Score.parse("win in 5") == Score.win(5)
    True
    """

    __slots__ = ("_kind", "_plies", "_value")

    _kind: ScoreKind
    _plies: int | None
    _value: float

    def __init__(self, kind: ScoreKind, value: float, plies: int | None = None) -> None:
        if kind not in SCORE_KINDS:
            raise SearchError(f"unknown score kind {shown(kind)} (known: {', '.join(SCORE_KINDS)})")
        value = need_number(value, "value", error=SearchError)
        if plies is not None:
            need_int(plies, "plies", minimum=0, error=SearchError)
            if kind not in ("win", "loss"):
                raise SearchError(f"only a win or a loss has plies, not a {kind} ({plies})")
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_value", value + 0.0)  # + 0.0 turns -0.0 into 0.0
        object.__setattr__(self, "_plies", plies)

    # -- making one -------------------------------------------------------------------

    @classmethod
    def heuristic(cls, value: float) -> Score:
        """A heuristic evaluation ``value`` (below :data:`WIN_THRESHOLD` in magnitude)."""
        return cls("value", value)

    @classmethod
    def win(cls, plies: int | None, utility: float = 1.0) -> Score:
        """A proven win ``plies`` plies away (None: distance unknown), of ``utility``."""
        distance = 0 if plies is None else plies
        return cls("win", terminal_score(abs(utility), distance), plies)

    @classmethod
    def loss(cls, plies: int | None, utility: float = -1.0) -> Score:
        """A proven loss ``plies`` plies away (None: distance unknown), of ``utility``."""
        distance = 0 if plies is None else plies
        return cls("loss", terminal_score(-abs(utility), distance), plies)

    @classmethod
    def draw(cls) -> Score:
        """A proven draw."""
        return cls("draw", 0.0)

    @classmethod
    def expected(cls, utility: float) -> Score:
        """An expected utility of a game with chance nodes (not a proven result)."""
        return cls("expected", need_number(utility, "utility", error=SearchError) * WIN)

    @classmethod
    def playouts(cls, utility: float) -> Score:
        """The mean utility of Monte-Carlo playouts in a game without chance (an
        estimate, not a proven result nor the game's value)."""
        return cls("playouts", need_number(utility, "utility", error=SearchError) * WIN)

    @classmethod
    def from_value(cls, value: float, *, chance: bool = False) -> Score:
        """The meaning of engine score ``value``. ``chance``: the game has chance nodes
        (:attr:`~plies.game.BaseGame.has_chance`), so a value beyond
        :data:`WIN_THRESHOLD` is an expected utility, not a proven result."""
        need_number(value, "score", error=SearchError)
        if abs(value) < WIN_THRESHOLD:
            return cls("value", value)
        if chance:
            return cls("expected", value)
        kind: ScoreKind = "win" if value > 0 else "loss"
        return cls(kind, value, score_distance(value))

    @classmethod
    def solved(cls, result: str, distance: int | None, value: float) -> Score:
        """The score of a solve: ``result`` ``"win"``, ``"draw"`` or ``"loss"``,
        ``distance`` in plies (None for a weak solve) and the engine ``value``."""
        if result == "draw":
            return cls.draw()
        if result not in ("win", "loss"):
            raise SearchError(f"unknown result {shown(result)} (known: win, draw, loss)")
        return cls(result, value, distance)  # type: ignore[arg-type]

    # -- what it holds ----------------------------------------------------------------

    @property
    def kind(self) -> ScoreKind:
        """One of :data:`SCORE_KINDS`."""
        return self._kind

    @property
    def value(self) -> float:
        """The engine's number for this score."""
        return self._value

    @property
    def plies(self) -> int | None:
        """Plies to the end of the game of a proven win or loss (None if unknown or
        not proven)."""
        return self._plies

    @property
    def outcome(self) -> str | None:
        """``"win"``, ``"draw"`` or ``"loss"`` when proven, else None."""
        return self._kind if self._kind in ("win", "loss", "draw") else None

    @property
    def is_proven(self) -> bool:
        """Whether the score is a game-theoretic result (a win, loss or draw)."""
        return self.outcome is not None

    @property
    def utility(self) -> float | None:
        """The mean utility of an ``"expected"`` or ``"playouts"`` score (``value /
        WIN``), else None."""
        return self._value / WIN if self._kind in ("expected", "playouts") else None

    # -- order ------------------------------------------------------------------------

    def _rank(self) -> tuple[int, float]:
        if self._kind == "loss":
            return (0, math.inf if self._plies is None else self._plies)
        if self._kind == "win":
            return (2, -math.inf if self._plies is None else -self._plies)
        return (1, self._value)

    def _identity(self) -> tuple[str, float | None]:
        if self._kind in ("win", "loss"):
            return (self._kind, self._plies)
        return (self._kind, self._value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __lt__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() < other._rank()

    def __le__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() <= other._rank()

    def __gt__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() > other._rank()

    def __ge__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() >= other._rank()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Score is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[type[Score], tuple[ScoreKind, float, int | None]]:
        return (Score, (self._kind, self._value, self._plies))

    # -- text and JSON ----------------------------------------------------------------

    def __str__(self) -> str:
        """``win in 5``, ``loss in 4``, ``win`` (distance unknown), ``draw``,
        ``expected utility +0.718``, ``playouts +0.035`` or the heuristic value (an integer as one,
        else four significant digits)."""
        if self._kind in ("win", "loss"):
            return self._kind if self._plies is None else f"{self._kind} in {self._plies}"
        if self._kind == "draw":
            return "draw"
        if self._kind == "expected":
            return f"expected utility {self._value / WIN:+.3f}"
        if self._kind == "playouts":
            return f"playouts {self._value / WIN:+.3f}"
        value = self._value
        return str(int(value)) if value == int(value) else f"{value:.4g}"

    def __repr__(self) -> str:
        if self._kind in ("win", "loss"):
            return f"Score.{self._kind}({self._plies})"
        if self._kind == "draw":
            return "Score.draw()"
        if self._kind == "expected":
            return f"Score.expected({self._value / WIN!r})"
        if self._kind == "playouts":
            return f"Score.playouts({self._value / WIN!r})"
        return f"Score.heuristic({self._value!r})"

    def uci(self) -> str:
        """The UCI form: ``mate N`` in moves (negative when the side to move is
        mated; ``mate 0`` when mated already), else ``cp`` and the rounded value."""
        if self._kind == "win" and self._plies is not None:
            return f"mate {(self._plies + 1) // 2}"
        if self._kind == "loss" and self._plies is not None:
            return f"mate {-(self._plies // 2)}"
        return f"cp {round(self._value)}"

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "value", "plies"}`` (:meth:`from_json` reads it back)."""
        return {"kind": self._kind, "value": self._value, "plies": self._plies}

    @classmethod
    def from_json(cls, data: object) -> Score:
        """The score of :meth:`to_json`'s object; anything else raises ParseError."""
        if not isinstance(data, dict) or set(data) != {"kind", "value", "plies"}:
            raise ParseError(f"a score is {{'kind', 'value', 'plies'}}, not {shown(data)}")
        try:
            return cls(data["kind"], data["value"], data["plies"])
        except PliesError as exc:  # a SearchError, or an ArgumentTypeError
            raise ParseError(f"not a score: {shown(data)} ({exc})") from None

    @classmethod
    def parse(cls, text: str) -> Score:
        """The score of a text as plies prints it anywhere: :func:`str`'s forms, the
        CLI's ``win 5`` and ``win:5``, UCI's ``mate N`` and ``cp N``, or a number."""
        if not isinstance(text, str):
            raise ParseError(f"a score is text, not {shown(text)}")
        words = " ".join(text.split())
        if words == "draw":
            return cls.draw()
        if found := _OUTCOME_TEXT.fullmatch(words):
            plies = None if found[2] is None else int(found[2])
            return cls.win(plies) if found[1] == "win" else cls.loss(plies)
        if found := _EXPECTED_TEXT.fullmatch(words):
            return cls.expected(float(found[1]))
        if found := _PLAYOUTS_TEXT.fullmatch(words):
            return cls.playouts(float(found[1]))
        if found := _UCI_TEXT.fullmatch(words):
            number = int(found[2])
            if found[1] == "cp":
                return cls.heuristic(number)
            return cls.win(2 * number - 1) if number > 0 else cls.loss(-2 * number)
        try:
            value = float(words)
        except ValueError:
            raise ParseError(f"not a score: {shown(text)}") from None
        if not math.isfinite(value) or abs(value) >= WIN_THRESHOLD:
            raise ParseError(f"not a heuristic value: {shown(text)}")
        return cls.heuristic(value)
