"""Moodle XML, read by a reader others wrote: amc2moodle's moodle2amc (PyPI
``amc2moodle``), which turns a Moodle XML question bank into Auto Multiple Choice
questions. Every question goes through it, its embedded drawing is decoded by it, and
the answers it reads are plies' search.

Its numerical reader takes the logarithm of the right answer's size (``log10(0)``
fails), so the sheet read here has leaf values 1 to 9, and no answer is 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from amc2moodle import moodle2amc
from lxml import etree

from plies.classroom import make_worksheet, moodle_xml
from plies.classroom._questions import NONE_CHOICE
from plies.draw import to_svg
from plies.trees import format_number

SHAPE = {"count": 3, "seed": 5, "low": 1, "high": 9, "cutoffs": 2, "root": "min"}


@pytest.fixture(scope="module")
def read() -> list[etree._Element]:
    """The worksheet's Moodle XML as amc2moodle reads it: one AMC question each."""
    xml = moodle_xml(make_worksheet(**SHAPE))
    root = etree.fromstring(xml, etree.XMLParser(strip_cdata=False))
    return root.findall("question")


def _amc(questions: list[etree._Element], folder: Path) -> list[etree._Element]:
    moodle2amc.Question.figpath = str(folder)
    category = "moodle"
    out = []
    for question in questions:
        if question.get("type") == "category":
            category = question.findtext("category/text")
            continue
        out.append(moodle2amc.CreateQuestion(question.get("type"), question).transform(category))
    return out


def test_every_question_reads_and_its_answer_is_plies_search(read, tmp_path: Path) -> None:
    converted = _amc(read, tmp_path)
    expected: list[tuple[str, object]] = []
    for exercise in make_worksheet(**SHAPE).exercises:
        expected += [
            ("questionmultx", format_number(row.value))
            for row in exercise.rows()
            if row.value is not None
        ]
        tree = exercise.tree
        never = [
            f"{tree.name(n)} ({format_number(tree.value[n])})" for n in exercise.never_evaluated()
        ]
        expected.append(("questionmult", never or [NONE_CHOICE]))
    found: list[tuple[str, object]] = []
    for question in converted:
        kind = question.get("amctype")
        if kind == "questionmultx":
            found.append((kind, question.find("AMCnumericChoices").get("target")))
        else:
            right = [c.findtext("text") for c in question.find("choices").findall("correctchoice")]
            found.append((kind, right))
    assert found == expected
    assert sum(kind == "questionmult" for kind, _ in found) == SHAPE["count"]


def test_the_drawing_is_embedded_and_decodes_to_plies_svg(read, tmp_path: Path) -> None:
    _amc(read, tmp_path)  # amc2moodle writes each <file> it finds into its figure folder
    for exercise in make_worksheet(**SHAPE).exercises:
        drawn = (tmp_path / f"exercise-{exercise.number}.svg").read_text(encoding="utf-8")
        assert drawn == to_svg(exercise.tree)


def test_the_same_sheet_gives_the_same_bytes() -> None:
    assert moodle_xml(make_worksheet(**SHAPE)) == moodle_xml(make_worksheet(**SHAPE))


def test_several_right_leaves_share_the_grade_and_wrong_ones_take_it_back() -> None:
    sheet = make_worksheet(count=1, seed=2, branching=3, depth=3, cutoffs=3)
    root = etree.fromstring(moodle_xml(sheet))
    choices = root.find("question[@type='multichoice']").findall("answer")
    right = [float(a.get("fraction")) for a in choices if float(a.get("fraction")) > 0]
    wrong = {float(a.get("fraction")) for a in choices if float(a.get("fraction")) <= 0}
    assert len(right) == len(sheet.exercises[0].never_evaluated()) > 1
    assert sum(right) == pytest.approx(100, abs=1e-4)
    assert wrong == {-right[0]}


def test_a_chance_tree_asks_only_for_values() -> None:
    sheet = make_worksheet(count=1, seed=4, chance=True)
    root = etree.fromstring(moodle_xml(sheet))
    kinds = [q.get("type") for q in root.findall("question")]
    assert kinds[0] == "category"
    assert set(kinds[1:]) == {"numerical"}
    answers = [float(q.findtext("answer/text")) for q in root.findall("question")[1:]]
    values = [row.value for row in sheet.exercises[0].rows() if row.value is not None]
    assert answers == pytest.approx(values)
