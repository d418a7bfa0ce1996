"""The questions a worksheet becomes on a learning platform, whatever its format.

Each exercise gives one numerical question per inner node the search reached (the
value the search returns there: the exact value, or at a node that cut off the bound
fail-soft alpha-beta returns, as the answer key and ``plies tree`` give it), and one
question with several answers, "which leaves are never evaluated?", whose choices are
every leaf and "none". Every question carries the tree's drawing, plies' own SVG.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from plies.classroom._sheet import Exercise, Worksheet
from plies.draw import to_svg
from plies.trees import Number, format_number

__all__ = [
    "NONE_CHOICE",
    "LeavesQuestion",
    "NumberQuestion",
    "picture_name",
    "questions",
    "xml_bytes",
]

#: The choice that is right when every leaf is evaluated.
NONE_CHOICE = "none: every leaf is evaluated"


@dataclass(frozen=True)
class NumberQuestion:
    """A numerical question: ``answer`` within ``tolerance``."""

    exercise: int
    title: str
    text: str
    answer: Number
    tolerance: float


@dataclass(frozen=True)
class LeavesQuestion:
    """A question with several right answers: the ``choices`` at ``correct``."""

    exercise: int
    title: str
    text: str
    choices: tuple[str, ...]
    correct: frozenset[int]


Question = NumberQuestion | LeavesQuestion


def picture_name(exercise: Exercise) -> str:
    """The file name of an exercise's drawing."""
    return f"exercise-{exercise.number}.svg"


def picture(exercise: Exercise) -> bytes:
    """The exercise's tree drawn before its search (names and leaf values), as SVG."""
    return to_svg(exercise.tree).encode("utf-8")


def _how(sheet: Worksheet, exercise: Exercise) -> str:
    """How the tree is to be searched, in one sentence."""
    if exercise.tree.has_chance:
        return "Search the tree below with expectiminimax, children left to right."
    rule = (
        "pruning only when a value is strictly beyond the bound (alpha &gt; beta)"
        if sheet.shape.get("strict")
        else "pruning when alpha &ge; beta"
    )
    return f"Search the tree below with fail-soft alpha-beta, children left to right, {rule}."


def _leaf_value(value: Number | None) -> str:
    return "?" if value is None else format_number(value)


def _tolerance(value: Number) -> float:
    return 0.0 if float(value).is_integer() else 0.005


def questions(sheet: Worksheet, exercise: Exercise) -> list[Question]:
    """The exercise's questions: a value for each inner node reached, then the
    leaves never evaluated."""
    tree = exercise.tree
    how = _how(sheet, exercise)
    asked: list[Question] = []
    for row in exercise.rows():
        if row.value is None:
            continue
        asked.append(
            NumberQuestion(
                exercise=exercise.number,
                title=f"Exercise {exercise.number}: the value of {row.name}",
                text=(
                    f"<p>{how} What value does the search return at node "
                    f"<b>{html.escape(row.name)}</b> ({row.kind.upper()})?</p>"
                ),
                answer=row.value,
                tolerance=_tolerance(row.value),
            )
        )
    if tree.has_chance:
        return asked
    never = set(exercise.never_evaluated())
    leaves = tree.leaf_ids
    choices = (
        *(f"{tree.name(node)} ({_leaf_value(tree.value[node])})" for node in leaves),
        NONE_CHOICE,
    )
    correct = frozenset(i for i, node in enumerate(leaves) if node in never) or frozenset(
        {len(leaves)}
    )
    asked.append(
        LeavesQuestion(
            exercise=exercise.number,
            title=f"Exercise {exercise.number}: leaves never evaluated",
            text=f"<p>{how} Which leaves are never evaluated? Tick every one.</p>",
            choices=choices,
            correct=correct,
        )
    )
    return asked


def xml_bytes(root: ET.Element) -> bytes:
    """``root`` as an indented UTF-8 document with its declaration."""
    ET.indent(root)
    text: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return text + b"\n"
