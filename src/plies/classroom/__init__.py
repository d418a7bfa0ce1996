"""Material for a course: worksheets and exams with their answer keys, and exercises
for the learning platforms (Moodle XML, QTI for Canvas), made from plies' own search.

A worksheet is ``count`` exercises from a seed and a shape, the web practice room's
(:func:`plies.lab.exercise`): branching, depth, ragged, chance nodes, a MIN root, the
leaf values and the difficulty (at least k cut-offs, a deep one, a tie the rule
decides). Each is searched once by the lab, and every document is written from that
search:

* ``worksheet.pdf`` and its ``worksheet.tex``: the empty trees, one per half page, with
  boxes for the values, alpha and beta, the evaluation order and the cut-offs;
* ``answers.pdf`` and ``answers.tex``: the key (every value, alpha and beta, each
  cut-off and its reason, the leaves in evaluation order);
* ``answers.json``: each exercise's tree text, its ``plies tree --json`` document
  and its key;
* ``moodle.xml`` (Moodle XML) and ``qti.zip`` (QTI 1.2 for Canvas), when asked for.

>>> from plies import classroom
>>> sheet = classroom.make_worksheet(count=2, seed=7, branching=2, depth=3)
>>> [exercise.number for exercise in sheet.exercises]
[1, 2]
>>> sheet.exercises[0].key()["evaluated"][:2]
['C1', 'C2']

The PDFs need ``pdflatex`` with TikZ (Debian: ``texlive-latex-base``,
``texlive-pictures``); the other formats need nothing beyond plies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from plies._arguments import need_path
from plies.classroom._latex import PictureError, answers_tex, worksheet_tex
from plies.classroom._moodle import moodle_xml
from plies.classroom._pdf import (
    LATEX_PACKAGES,
    LatexError,
    LatexMissingError,
    build_pdf,
    find_pdflatex,
)
from plies.classroom._qti import qti_zip
from plies.classroom._sheet import (
    MAX_COUNT,
    MAX_LEAVES,
    SHAPE_FIELDS,
    Cut,
    Exercise,
    NodeRow,
    ShapeError,
    Worksheet,
    make_worksheet,
)
from plies.errors import PliesError

__all__ = [
    "FORMATS",
    "LATEX_PACKAGES",
    "MAX_COUNT",
    "MAX_LEAVES",
    "SHAPE_FIELDS",
    "Cut",
    "Exercise",
    "FormatError",
    "LatexError",
    "LatexMissingError",
    "NodeRow",
    "PictureError",
    "ShapeError",
    "Worksheet",
    "answers_tex",
    "make_worksheet",
    "moodle_xml",
    "qti_zip",
    "worksheet_tex",
    "write_worksheet",
]

#: What a worksheet can be written as.
FORMATS = ("pdf", "moodle", "qti")


class FormatError(PliesError):
    """A worksheet format that is not one of :data:`FORMATS`."""


def write_worksheet(
    sheet: Worksheet, out: Path, *, formats: Iterable[str] = ("pdf",)
) -> list[Path]:
    """Write ``sheet`` into the folder ``out`` (made if missing) in ``formats`` and
    return the paths written: always ``answers.json``; for ``pdf`` the two LaTeX
    sources and their PDFs; ``moodle.xml``; ``qti.zip``. A missing ``pdflatex`` is
    found before anything is written."""
    asked = list(dict.fromkeys(formats))
    unknown = [name for name in asked if name not in FORMATS]
    if unknown:
        raise FormatError(f"unknown format {unknown[0]!r} (known: {', '.join(FORMATS)})")
    folder = need_path(out, "out")
    if "pdf" in asked:
        find_pdflatex()
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "answers.json"]
    written[0].write_text(json.dumps(sheet.to_json(), indent=1) + "\n", encoding="utf-8")
    if "pdf" in asked:
        for name, source in (("worksheet", worksheet_tex(sheet)), ("answers", answers_tex(sheet))):
            tex = folder / f"{name}.tex"
            tex.write_text(source, encoding="utf-8")
            written += [tex, build_pdf(source, folder / f"{name}.pdf")]
    if "moodle" in asked:
        written.append(folder / "moodle.xml")
        written[-1].write_bytes(moodle_xml(sheet))
    if "qti" in asked:
        written.append(folder / "qti.zip")
        written[-1].write_bytes(qti_zip(sheet))
    return written
