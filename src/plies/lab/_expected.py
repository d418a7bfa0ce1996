"""A batch line's expected score: ``<position> [<score>]``, the form of Pascal Pons'
test sets, as ``solve --batch`` and ``analyze --batch`` read it (light: the shells read
batches before any line job is loaded).

>>> split_expected("4453 -2", scored=True)
('4453', -2)
"""

from __future__ import annotations

import re
from typing import Any

from plies.game import BaseGame

__all__ = ["keeps_score", "split_expected"]

#: An expected score at the end of a batch line, as in Pons' test sets (``4453 -2``).
_SCORE_WORD = re.compile(r"[+-]?[0-9]{1,9}")


def keeps_score(game: BaseGame[Any, Any]) -> bool:
    """Whether ``game`` has a score of its own (Connect Four's, Pons'), so that a batch
    line may end with the score it expects (:func:`split_expected`)."""
    return type(game).exact_score is not BaseGame.exact_score


def split_expected(text: str, *, scored: bool) -> tuple[str, int | None]:
    """``(position, expected score or None)`` of a batch line ``<position> [<score>]``,
    the form of Pons' test sets, as ``solve --batch`` and ``analyze --batch`` read it.

    Only for a game that keeps a score (``scored``, see :func:`keeps_score`) is a last
    word that is a whole number the expected score; elsewhere such a word belongs to
    the position (a FEN's move number, Nim's last heap, an OpenSpiel action id).
    """
    words = text.split()
    if scored and len(words) >= 2 and _SCORE_WORD.fullmatch(words[-1]):
        return " ".join(words[:-1]), int(words[-1])
    return text.strip(), None
