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


def _question(quiz: ET.Element, kind: str, title: str, text: str, exercise: Exercise) -> ET.Element:
    """A question's common part: name, text with the drawing, grade."""
    question = ET.SubElement(quiz, "question", {"type": kind})
    _text(question, "name", title)
    name = picture_name(exercise)
    image = (
        f'<p><img src="@@PLUGINFILE@@/{name}" alt="the tree of exercise {exercise.number}"/></p>'
    )
    body = _text(question, "questiontext", text + image, format="html")
    attached = ET.SubElement(body, "file", {"name": name, "path": "/", "encoding": "base64"})
    attached.text = base64.b64encode(picture(exercise)).decode("ascii")
    _text(question, "generalfeedback", "", format="html")
    _simple(question, "defaultgrade", "1")
    _simple(question, "penalty", "0.3333333")
    _simple(question, "hidden", "0")
    return question


def _numerical(quiz: ET.Element, asked: NumberQuestion, exercise: Exercise) -> None:
    question = _question(quiz, "numerical", asked.title, asked.text, exercise)
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


def _multiple(quiz: ET.Element, asked: LeavesQuestion, exercise: Exercise) -> None:
    question = _question(quiz, "multichoice", asked.title, asked.text, exercise)
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
        for asked in questions(sheet, exercise):
            if isinstance(asked, NumberQuestion):
                _numerical(quiz, asked, exercise)
            else:
                _multiple(quiz, asked, exercise)
    return xml_bytes(quiz)
