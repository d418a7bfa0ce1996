"""QTI 1.2 in an IMS content package: the worksheet's questions for Canvas
(Settings > Import course content > QTI .zip file).

The zip holds ``imsmanifest.xml`` (IMS Content Packaging 1.1), one assessment
``worksheet/worksheet.xml`` (IMS QTI ASI 1.2, with Canvas's ``question_type`` item
metadata: ``numerical_question`` and ``multiple_answers_question``) and each exercise's
drawing under ``images/``, which the questions show through Canvas's
``$IMS-CC-FILEBASE$`` prefix. Entries carry a fixed date, so the same worksheet gives
the same bytes.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

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

__all__ = ["ASSESSMENT", "QTI_NAMESPACE", "qti_zip"]

QTI_NAMESPACE = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CP_NAMESPACE = "http://www.imsglobal.org/xsd/imscp_v1p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
#: The assessment's path in the package.
ASSESSMENT = "worksheet/worksheet.xml"
#: Where the drawings go in the package, and how a Canvas question points at them.
IMAGES = "images"
FILEBASE = "$IMS-CC-FILEBASE$"
#: The date of every zip entry (zip's earliest).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _field(parent: ET.Element, label: str, entry: str) -> None:
    field = ET.SubElement(parent, "qtimetadatafield")
    ET.SubElement(field, "fieldlabel").text = label
    ET.SubElement(field, "fieldentry").text = entry


def _item(section: ET.Element, ident: str, title: str, kind: str) -> ET.Element:
    item = ET.SubElement(section, "item", {"ident": ident, "title": title})
    metadata = ET.SubElement(ET.SubElement(item, "itemmetadata"), "qtimetadata")
    _field(metadata, "question_type", kind)
    _field(metadata, "points_possible", "1.0")
    return item


def _material(parent: ET.Element, text: str, texttype: str = "text/html") -> None:
    ET.SubElement(ET.SubElement(parent, "material"), "mattext", {"texttype": texttype}).text = text


def _with_picture(text: str, exercise: Exercise) -> str:
    src = f"{FILEBASE}/{IMAGES}/{picture_name(exercise)}"
    return f'{text}<p><img src="{src}" alt="the tree of exercise {exercise.number}"/></p>'


def _scoring(item: ET.Element) -> tuple[ET.Element, ET.Element]:
    """The item's response processing: its SCORE outcome, and one condition that
    sets it to 100 (returned with its ``conditionvar`` to fill)."""
    processing = ET.SubElement(item, "resprocessing")
    outcomes = ET.SubElement(processing, "outcomes")
    ET.SubElement(
        outcomes,
        "decvar",
        {"maxvalue": "100", "minvalue": "0", "varname": "SCORE", "vartype": "Decimal"},
    )
    condition = ET.SubElement(processing, "respcondition", {"continue": "No"})
    test = ET.SubElement(condition, "conditionvar")
    ET.SubElement(condition, "setvar", {"action": "Set", "varname": "SCORE"}).text = "100"
    return condition, test


def _numerical(section: ET.Element, ident: str, asked: NumberQuestion, exercise: Exercise) -> None:
    item = _item(section, ident, asked.title, "numerical_question")
    presentation = ET.SubElement(item, "presentation")
    _material(presentation, _with_picture(asked.text, exercise))
    response = ET.SubElement(
        presentation, "response_str", {"ident": "response1", "rcardinality": "Single"}
    )
    fib = ET.SubElement(response, "render_fib", {"fibtype": "Decimal"})
    ET.SubElement(fib, "response_label", {"ident": "answer1"})
    _, test = _scoring(item)
    low = format_number(asked.answer - asked.tolerance)
    high = format_number(asked.answer + asked.tolerance)
    either = ET.SubElement(test, "or")
    exact = ET.SubElement(either, "varequal", {"respident": "response1"})
    exact.text = format_number(asked.answer)
    within = ET.SubElement(either, "and")
    ET.SubElement(within, "vargte", {"respident": "response1"}).text = low
    ET.SubElement(within, "varlte", {"respident": "response1"}).text = high


def _multiple(section: ET.Element, ident: str, asked: LeavesQuestion, exercise: Exercise) -> None:
    item = _item(section, ident, asked.title, "multiple_answers_question")
    presentation = ET.SubElement(item, "presentation")
    _material(presentation, _with_picture(asked.text, exercise))
    response = ET.SubElement(
        presentation, "response_lid", {"ident": "response1", "rcardinality": "Multiple"}
    )
    render = ET.SubElement(response, "render_choice")
    for i, choice in enumerate(asked.choices):
        label = ET.SubElement(render, "response_label", {"ident": f"{ident}_c{i}"})
        _material(label, choice, "text/plain")
    _, test = _scoring(item)
    every = ET.SubElement(test, "and")
    for i in range(len(asked.choices)):
        parent = every if i in asked.correct else ET.SubElement(every, "not")
        ET.SubElement(parent, "varequal", {"respident": "response1"}).text = f"{ident}_c{i}"


def assessment_xml(sheet: Worksheet) -> bytes:
    """The QTI 1.2 assessment of every exercise's questions."""
    root = ET.Element(
        "questestinterop",
        {
            "xmlns": QTI_NAMESPACE,
            "xmlns:xsi": XSI,
            "xsi:schemaLocation": f"{QTI_NAMESPACE} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd",
        },
    )
    title = f"plies worksheet {sheet.seed}"
    assessment = ET.SubElement(
        root, "assessment", {"ident": f"worksheet_{sheet.seed}", "title": title}
    )
    metadata = ET.SubElement(assessment, "qtimetadata")
    _field(metadata, "cc_maxattempts", "1")
    section = ET.SubElement(assessment, "section", {"ident": "root_section"})
    for exercise in sheet.exercises:
        for n, asked in enumerate(questions(sheet, exercise), start=1):
            ident = f"e{exercise.number}_q{n}"
            if isinstance(asked, NumberQuestion):
                _numerical(section, ident, asked, exercise)
            else:
                _multiple(section, ident, asked, exercise)
    return xml_bytes(root)


def manifest_xml(sheet: Worksheet) -> bytes:
    """The package's ``imsmanifest.xml``: the assessment and the drawings."""
    root = ET.Element(
        "manifest",
        {
            "identifier": f"plies_worksheet_{sheet.seed}",
            "xmlns": CP_NAMESPACE,
            "xmlns:xsi": XSI,
            "xsi:schemaLocation": f"{CP_NAMESPACE} http://www.imsglobal.org/xsd/imscp_v1p1.xsd",
        },
    )
    metadata = ET.SubElement(root, "metadata")
    ET.SubElement(metadata, "schema").text = "IMS Content"
    ET.SubElement(metadata, "schemaversion").text = "1.1.3"
    ET.SubElement(root, "organizations")
    resources = ET.SubElement(root, "resources")
    quiz = ET.SubElement(
        resources,
        "resource",
        {"identifier": "worksheet", "type": "imsqti_xmlv1p2", "href": ASSESSMENT},
    )
    ET.SubElement(quiz, "file", {"href": ASSESSMENT})
    for exercise in sheet.exercises:
        path = f"{IMAGES}/{picture_name(exercise)}"
        image = ET.SubElement(
            resources,
            "resource",
            {"identifier": f"image_{exercise.number}", "type": "webcontent", "href": path},
        )
        ET.SubElement(image, "file", {"href": path})
    return xml_bytes(root)


def qti_zip(sheet: Worksheet) -> bytes:
    """The content package as zip bytes."""
    entries = [
        ("imsmanifest.xml", manifest_xml(sheet)),
        (ASSESSMENT, assessment_xml(sheet)),
        *((f"{IMAGES}/{picture_name(ex)}", picture(ex)) for ex in sheet.exercises),
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            package.writestr(info, data)
    return buffer.getvalue()
