"""PDFs from LaTeX sources, with ``pdflatex``, the same bytes for the same source.

The sources already ask pdfTeX to leave out the dates and the trailer's ID
(``\\pdfinfoomitdate``, ``\\pdftrailerid{}``); ``SOURCE_DATE_EPOCH`` and
``FORCE_SOURCE_DATE`` pin whatever else would read the clock. Each build runs in a
fresh temporary folder, so no auxiliary file of an earlier run changes it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from plies.errors import PliesError

__all__ = ["LATEX_PACKAGES", "LatexError", "LatexMissingError", "build_pdf", "find_pdflatex"]

#: The Debian packages that give pdflatex and TikZ.
LATEX_PACKAGES = "texlive-latex-base texlive-pictures"

#: How long one pdflatex run may take (seconds).
LATEX_SECONDS = 300


class LatexMissingError(PliesError):
    """``pdflatex`` is not installed."""


class LatexError(PliesError):
    """``pdflatex`` failed on a source; the message quotes its first error."""


def find_pdflatex() -> str:
    """The path of ``pdflatex``; :class:`LatexMissingError` names the packages when
    it is missing."""
    found = shutil.which("pdflatex")
    if found is None:
        raise LatexMissingError(
            "pdflatex not found: the PDFs need a LaTeX engine with TikZ (Debian/Ubuntu: "
            f"sudo apt-get install {LATEX_PACKAGES}); --format moodle or qti needs none"
        )
    return found


def build_pdf(source: str, pdf: Path) -> Path:
    """Compile the LaTeX ``source`` with pdflatex into ``pdf`` (replaced)."""
    engine = find_pdflatex()
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    with tempfile.TemporaryDirectory(prefix="plies-latex-") as work:
        folder = Path(work)
        (folder / "sheet.tex").write_text(source, encoding="utf-8")
        try:
            run = subprocess.run(
                [engine, "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=LATEX_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise LatexError(f"pdflatex took more than {LATEX_SECONDS} s on {pdf.name}") from None
        built = folder / "sheet.pdf"
        if run.returncode != 0 or not built.exists():
            raise LatexError(f"pdflatex failed on {pdf.name}: {_first_error(run.stdout)}")
        shutil.copyfile(built, pdf)
    return pdf


def _first_error(log: bytes) -> str:
    """The first ``!`` line of a TeX log, and the line after it."""
    lines = log.decode("utf-8", "replace").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            return " ".join(part.strip() for part in lines[i : i + 2])
    return "no error line in its log (exit status or no PDF)"
