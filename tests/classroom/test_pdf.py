"""The PDFs, built by pdflatex: the same bytes from two builds, and the text a reader
of them sees is the key's. (Slow: four pdflatex runs, shared by the module.)"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from plies.classroom import LatexMissingError, make_worksheet, write_worksheet

pytestmark = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="needs pdflatex (scripts/test.sh installs it)"
)

SHAPE = {"count": 2, "seed": 8, "branching": 2, "depth": 4, "cutoffs": 2}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same worksheet written twice, into two folders."""
    folders = []
    for name in ("first", "second"):
        folder = tmp_path_factory.mktemp(name)
        write_worksheet(make_worksheet(**SHAPE), folder)
        folders.append(folder)
    return folders[0], folders[1]


def _text(pdf: Path) -> str:
    """The PDF's text, whitespace removed (line breaks fall where TeX put them)."""
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in PdfReader(pdf).pages))


def _symbols(text: str) -> str:
    return (
        text.replace(">=", "≥").replace("<=", "≤").replace("alpha", "α").replace("beta", "β")
    ).replace("inf", "∞")


def test_two_builds_give_the_same_bytes(built: tuple[Path, Path]) -> None:
    first, second = built
    for name in ("worksheet.pdf", "answers.pdf", "worksheet.tex", "answers.tex", "answers.json"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    reader = PdfReader(first / "answers.pdf")
    assert "/CreationDate" not in (reader.metadata or {})
    assert "/ID" not in reader.trailer


def test_the_answer_key_says_what_the_search_did(built: tuple[Path, Path]) -> None:
    text = _text(built[0] / "answers.pdf")
    for exercise in make_worksheet(**SHAPE).exercises:
        key = exercise.key()
        tree = exercise.tree
        assert f"Exercise{exercise.number}:answer" in text
        assert f"Valueoftheroot:{key['value']}." in text
        evaluated = ",".join(
            f"{tree.name(node)}={tree.value[node]}" for node in exercise.evaluated()
        )
        assert f"Leavesevaluated,inorder:{evaluated}." in text
        assert f"Leavesneverevaluated:{','.join(key['never_evaluated'])}." in text
        for cut in key["cuts"]:
            reason = _symbols(cut["reason"]).replace(" ", "")
            assert f"Cut-offat{cut['at']}after{cut['after']}:{reason}" in text
        for node in key["nodes"]:  # a pruned node: "pruned", and a dash for each bound
            value = "pruned" if node["value"] is None else node["value"]
            cells = [*node["window"], value, node["alpha"], node["beta"]]
            row = [node["name"], node["kind"].upper(), *("–" if c is None else c for c in cells)]
            assert _symbols("".join(row)) in text, node


def test_the_worksheet_shows_the_trees_and_none_of_the_answers(built: tuple[Path, Path]) -> None:
    pdf = built[0] / "worksheet.pdf"
    text = _text(pdf)
    assert len(PdfReader(pdf).pages) == 1  # two exercises a page
    for exercise in make_worksheet(**SHAPE).exercises:
        tree = exercise.tree
        shown = (
            tree.name(n) + (str(tree.value[n]) if n in tree.leaf_ids else "")
            for n in range(len(tree))
        )
        assert "".join(shown) in text  # every node's name in preorder, each leaf's value
    assert "Leavesevaluated" not in text
    assert "α=" not in text


def test_a_missing_pdflatex_names_the_debian_packages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LatexMissingError, match="texlive-latex-base texlive-pictures"):
        write_worksheet(make_worksheet(count=1, seed=1), tmp_path / "out")
    assert not (tmp_path / "out").exists()  # refused before anything is written
