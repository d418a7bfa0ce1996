"""Moodle XML: the worksheet's questions for Moodle's question bank import
(Question bank > Import > Moodle XML format).

One category per exercise; numerical questions for the values, multiple-choice
questions with several right answers (``<single>false</single>``) for the leaves never
evaluated. Each question embeds the tree's drawing as a base64 ``<file>`` in its text,
shown by ``@@PLUGINFILE@@``, so the import needs nothing beside the XML.
"""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from plies.classroom._questions import (
    LeavesQuestion,
    NumberQuestion,
    picture,
    picture_name,
    questions,
    xml_bytes,
)
from plies.classroom._sheet import Exercise, Worksheet
from plies.trees import format_number

__all__ = ["moodle_xml"]


def _text(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    """``<tag attrs><text>text</text></tag>`` under ``parent``."""
    element = ET.SubElement(parent, tag, attrs)
    ET.SubElement(element, "text").text = text
    return element


def _simple(parent: ET.Element, tag: str, text: str) -> None:
    ET.SubElement(parent, tag).text = text


@dataclass(frozen=True)
class _Drawing:
    """An exercise's drawing as every one of its questions embeds it: drawn and
    encoded once per exercise, not once per question."""

    name: str
    image: str
    base64: str

    @classmethod
    def of(cls, exercise: Exercise) -> _Drawing:
        """The drawing of ``exercise``."""
        name = picture_name(exercise)
        return cls(
            name=name,
            image=(
                f'<p><img src="@@PLUGINFILE@@/{name}"'
                f' alt="the tree of exercise {exercise.number}"/></p>'
            ),
            base64=base64.b64encode(picture(exercise)).decode("ascii"),
        )


def _question(quiz: ET.Element, kind: str, title: str, text: str, drawing: _Drawing) -> ET.Element:
    """A question's common part: name, text with the drawing, grade."""
    question = ET.SubElement(quiz, "question", {"type": kind})
    _text(question, "name", title)
    body = _text(question, "questiontext", text + drawing.image, format="html")
    attached = ET.SubElement(
        body, "file", {"name": drawing.name, "path": "/", "encoding": "base64"}
    )
    attached.text = drawing.base64
    _text(question, "generalfeedback", "", format="html")
    _simple(question, "defaultgrade", "1")
    _simple(question, "penalty", "0.3333333")
    _simple(question, "hidden", "0")
    return question


def _numerical(quiz: ET.Element, asked: NumberQuestion, drawing: _Drawing) -> None:
    question = _question(quiz, "numerical", asked.title, asked.text, drawing)
    answer = _text(question, "answer", format_number(asked.answer), fraction="100")
    answer.set("format", "moodle_auto_format")
    _simple(answer, "tolerance", format_number(asked.tolerance))
    _text(answer, "feedback", "", format="html")
    for tag, value in (
        ("unitgradingtype", "0"),
        ("unitpenalty", "0.1000000"),
        ("showunits", "3"),
        ("unitsleft", "0"),
    ):
        _simple(question, tag, value)


def _fraction(share: float) -> str:
    """A grade fraction as Moodle writes it (percent, at most 7 decimals)."""
    return f"{share:.7f}".rstrip("0").rstrip(".")


def _multiple(quiz: ET.Element, asked: LeavesQuestion, drawing: _Drawing) -> None:
    question = _question(quiz, "multichoice", asked.title, asked.text, drawing)
    for tag, value in (
        ("single", "false"),
        ("shuffleanswers", "false"),
        ("answernumbering", "none"),
    ):
        _simple(question, tag, value)
    right = _fraction(100 / len(asked.correct))
    wrong = _fraction(-100 / len(asked.correct))
    for i, choice in enumerate(asked.choices):
        fraction = right if i in asked.correct else wrong
        answer = _text(question, "answer", choice, fraction=fraction, format="html")
        _text(answer, "feedback", "", format="html")


def moodle_xml(sheet: Worksheet) -> bytes:
    """The worksheet as a Moodle XML question file (UTF-8)."""
    quiz = ET.Element("quiz")
    for exercise in sheet.exercises:
        category = ET.SubElement(quiz, "question", {"type": "category"})
        path = f"$course$/top/plies worksheet {sheet.seed}/Exercise {exercise.number}"
        _text(category, "category", path)
        drawing = _Drawing.of(exercise)
        for asked in questions(sheet, exercise):
            if isinstance(asked, NumberQuestion):
                _numerical(quiz, asked, drawing)
            else:
                _multiple(quiz, asked, drawing)
    return xml_bytes(quiz)
