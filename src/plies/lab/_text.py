"""One formatter for scores, moves and lines: what every shell prints of a search.

The CLI (``analyze``, ``solve``, ``play``), the web room and the UCI engine turn
results into text here, so the same result reads the same everywhere. A score is
read off a result by :func:`score_of`, which knows from the game whether its values
are expected utilities (games with chance nodes); :func:`format_score` writes it in
one of a few spellings, all of which :meth:`~plies.engine.Score.parse` reads back:

========  ===========================  ==============================
style     a win 5 plies away           used by
========  ===========================  ==============================
text      ``win in 5``                 ``plies play``, the web room
info      ``win 5``                    ``plies analyze``'s info lines
token     ``win:5``                    ``--batch`` lines (one word)
uci       ``mate 3``                   ``plies uci``
========  ===========================  ==============================

Heuristic values and draws read the same in every style but ``uci`` (``cp N``);
an expected utility is ``expected utility +0.718``, as one word ``expected:+0.718``;
the mean of an unproven Monte-Carlo search's playouts in a game without chance is
``playouts +0.035`` (``playouts:+0.035``), an estimate rather than the game's value.

>>> from plies.engine import Limits, search
>>> from plies.games import get_game
>>> pig = get_game("pig")
>>> state = pig.parse_position("scores 18,18 total 0 player 1")
>>> format_score(score_of(pig, search(pig, state, limits=Limits(depth=4))))
'expected utility +0.718'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from plies._arguments import need_choice, need_object, shown
from plies.engine import Score, SearchResult, SolveResult
from plies.errors import ArgumentTypeError
from plies.game import WIN, BaseGame

__all__ = ["SCORE_STYLES", "ScoreStyle", "format_line", "format_score", "score_of"]

#: The spellings of :func:`format_score`.
ScoreStyle = Literal["text", "info", "token", "uci"]
SCORE_STYLES: tuple[ScoreStyle, ...] = ("text", "info", "token", "uci")


def format_line(game: BaseGame[Any, Any], state: Any, moves: Sequence[Any]) -> list[str]:
    """Moves played one after the other from ``state``, each in the game's notation."""
    need_object(game, BaseGame, "game")
    texts = []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.play(state, move)
    return texts


def score_of(game: BaseGame[Any, Any], result: SearchResult | SolveResult) -> Score:
    """What ``result``'s value means in ``game``: in a game with chance nodes a large
    value is an expected utility, never a proven win (:meth:`Score.from_value`); an
    unproven Monte-Carlo search of a game without chance is the mean of its playouts
    (:meth:`Score.playouts`)."""
    need_object(game, BaseGame, "game")
    if not isinstance(result, SearchResult | SolveResult):
        wanted = "a SearchResult or SolveResult"
        raise ArgumentTypeError(f"result must be {wanted}, not {shown(result)}")
    if isinstance(result, SolveResult):
        return result.score
    if result.algorithm == "mcts" and not result.exact and not game.has_chance:
        return Score.playouts(result.value / WIN)
    return Score.from_value(result.value, chance=game.has_chance or result.chance)


def format_score(score: Score, style: ScoreStyle = "text") -> str:
    """``score`` as text in ``style`` (see the table above)."""
    need_object(score, Score, "score")
    need_choice(style, "score style", SCORE_STYLES)
    if style == "uci":
        return score.uci()
    if style == "token" and score.kind == "expected":
        return str(score).replace("expected utility ", "expected:")
    if style == "token" and score.kind == "playouts":
        return str(score).replace(" ", ":")
    if score.kind not in ("win", "loss") or score.plies is None or style == "text":
        return str(score)
    separator = ":" if style == "token" else " "
    return f"{score.kind}{separator}{score.plies}"
