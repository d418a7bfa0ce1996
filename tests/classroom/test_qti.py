"""QTI for Canvas, checked by two libraries others wrote (both from PyPI):

* ``qti_package_maker``'s package checker for Canvas QTI 1.2 zips
  (:func:`check_package`): every manifest ``href`` resolves, every scored choice is one
  the item declares, every ``<img src>`` (``$IMS-CC-FILEBASE$``) is in the zip;
* ``pyslet``, an implementation of IMS QTI 1.2.1 and IMS Content Packaging: it reads
  the manifest as a content package and every element of every item as the QTI class of
  that name (an element it does not know it drops, so the counts would differ), and the
  right answers are read through its objects.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pyslet.imscpv1p2 as content_packaging
import pytest
from lxml import etree
from pyslet.qtiv1 import common, item
from pyslet.qtiv1.xml import QTIDocument
from pyslet.xml.structures import Element
from qti_package_maker.common.package_integrity import check_package

from plies.classroom import make_worksheet, qti_zip
from plies.classroom._questions import NONE_CHOICE
from plies.trees import format_number

pytestmark = pytest.mark.filterwarnings("ignore:pyslet.qtiv1.core.ParseYesNo is deprecated")

SHAPE = {"count": 3, "seed": 9, "branching": 3, "depth": 3, "cutoffs": 2, "ties": True}
NS = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The worksheet's QTI zip, and beside it its files unpacked."""
    folder = tmp_path_factory.mktemp("qti")
    data = qti_zip(make_worksheet(**SHAPE))
    (folder / "qti.zip").write_bytes(data)
    zipfile.ZipFile(io.BytesIO(data)).extractall(folder / "unpacked")
    return folder


def test_the_canvas_package_checker_finds_nothing_wrong(package: Path) -> None:
    assert check_package(str(package / "qti.zip")) == []


def test_the_checker_would_see_a_scored_choice_no_item_declares(package: Path) -> None:
    with zipfile.ZipFile(package / "qti.zip") as good:
        entries = {name: good.read(name) for name in good.namelist()}
    text = entries["worksheet/worksheet.xml"].decode()
    scored = re.search(r">(e1_q\d+)_c(\d+)</varequal>", text)
    assert scored is not None
    wrong = f"{scored[1]}_x{scored[2]}"
    entries["worksheet/worksheet.xml"] = text.replace(scored[0], f">{wrong}</varequal>").encode()
    broken = package / "broken.zip"
    with zipfile.ZipFile(broken, "w") as out:
        for name, data in entries.items():
            out.writestr(name, data)
    assert any(wrong in problem for problem in check_package(str(broken)))


def _items(package: Path) -> list[item.Item]:
    document = QTIDocument(baseURI=str(package / "unpacked/worksheet/worksheet.xml"))
    document.read()
    sections = document.root.Assessment.SectionMixin
    return [one for section in sections for one in section.SectionItemMixin]


def test_pyslet_reads_the_manifest_as_a_content_package(package: Path) -> None:
    manifest = content_packaging.ContentPackage(str(package / "unpacked")).manifest.root
    resources = {r.id: (r.type, [str(f.href) for f in r.File]) for r in manifest.Resources.Resource}
    assert resources.pop("worksheet") == ("imsqti_xmlv1p2", ["worksheet/worksheet.xml"])
    assert sorted(resources) == [f"image_{n}" for n in range(1, SHAPE["count"] + 1)]
    for kind, files in resources.values():
        assert kind == "webcontent"
        assert (package / "unpacked" / files[0]).is_file()


def test_pyslet_knows_every_element_of_every_item(package: Path) -> None:
    items = _items(package)
    tree = etree.parse(str(package / "unpacked/worksheet/worksheet.xml"))
    written = tree.findall(f".//{NS}item")
    assert len(items) == len(written) > 0
    for parsed, raw in zip(items, written, strict=True):
        known = list(parsed.find_children_depth_first(Element))
        assert len(known) == sum(1 for _ in raw.iter()) - 1
        assert all(type(e).__module__.startswith("pyslet.qtiv1") for e in known)


def test_the_answers_pyslet_reads_are_plies_search(package: Path) -> None:
    expected: list[object] = []
    for exercise in make_worksheet(**SHAPE).exercises:
        expected += [format_number(r.value) for r in exercise.rows() if r.value is not None]
        tree = exercise.tree
        never = [
            f"{tree.name(n)} ({format_number(tree.value[n])})" for n in exercise.never_evaluated()
        ]
        expected.append(never or [NONE_CHOICE])
    found: list[object] = []
    for one in _items(package):
        fields = {
            f.FieldLabel.get_value(): f.FieldEntry.get_value()
            for f in one.find_children_depth_first(common.QTIMetadataField)
        }
        tests = list(one.find_children_depth_first(common.VarEqual))
        if fields["question_type"] == "numerical_question":
            found.append(tests[0].get_value())
            continue
        assert fields["question_type"] == "multiple_answers_question"
        labels = {
            label.ident: next(label.find_children_depth_first(common.MatText)).get_value()
            for label in one.find_children_depth_first(item.ResponseLabel)
        }
        right = [t.get_value() for t in tests if isinstance(t.parent, common.And)]
        assert len(right) + sum(isinstance(t.parent, common.Not) for t in tests) == len(labels)
        found.append([labels[ident] for ident in right])
    assert found == expected


def test_the_same_sheet_gives_the_same_zip() -> None:
    assert qti_zip(make_worksheet(**SHAPE)) == qti_zip(make_worksheet(**SHAPE))
