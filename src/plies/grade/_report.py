"""A graded submission, and the forms it is written in: text for a student at a
terminal, plies' JSON, Gradescope's ``results.json`` and PrairieLearn's external
grader results."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from plies.grade._mark import Marked

__all__ = ["FORMATS", "Report", "write_report"]

FORMATS: tuple[str, ...] = ("text", "json", "gradescope", "prairielearn")


@dataclass(frozen=True)
class Report:
    """The marks of one submission: each test's :class:`Marked`, the total, and
    what the grading was (form, algorithm, rule), for the summary."""

    tests: list[Marked]
    form: str
    algorithm: str
    rule: str
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        """The marks given, summed over the tests."""
        return round(sum(t.score for t in self.tests), 4)

    @property
    def max_score(self) -> float:
        """The marks there are."""
        return round(sum(t.max_score for t in self.tests), 4)

    def summary(self) -> str:
        """Two or three lines: the score, and the causes seen most often."""
        full = sum(1 for t in self.tests if t.score == t.max_score)
        lines = [
            f"Score: {_num(self.score)} / {_num(self.max_score)} ({full} of {len(self.tests)} "
            f"tests right; {self.form} form, {self.algorithm}, {self.rule} rule)"
        ]
        wrong = [t for t in self.tests if t.ran and not t.leaves_right]
        common = set.intersection(*(set(t.causes) for t in wrong)) if wrong else set()
        if common:
            cause = next(c for c in wrong[0].causes if c in common)
            lines.append(
                f"In every test whose leaves were wrong, they are those of this mistake: {cause}."
            )
        else:
            causes = Counter(c for t in self.tests for c in t.causes)
            if causes:
                cause, times = causes.most_common(1)[0]
                lines.append(f"Seen in {times} test{'s' if times > 1 else ''}: {cause}.")
        lines += self.notes
        return "\n".join(lines)

    def to_text(self) -> str:
        """The report for a student at a terminal: each test, then the summary."""
        out = []
        for t in self.tests:
            mark = "PASS" if t.score == t.max_score else "FAIL"
            hidden = " (hidden)" if t.hidden else ""
            out.append(f"{mark}  {t.name}{hidden}: {_num(t.score)} / {_num(t.max_score)}")
            out += ["      " + line for line in t.output.splitlines()]
        out.append("")
        out.append(self.summary())
        return "\n".join(out) + "\n"

    def to_json(self) -> dict[str, Any]:
        """plies' JSON: ``score``, ``max_score`` and per test ``name``, ``score``,
        ``max_score``, ``output`` (and ``hidden``, and the ``cause`` recognised)."""
        return {
            "score": self.score,
            "max_score": self.max_score,
            "form": self.form,
            "algorithm": self.algorithm,
            "rule": self.rule,
            "summary": self.summary(),
            "tests": [
                {
                    "name": t.name,
                    "score": round(t.score, 4),
                    "max_score": t.max_score,
                    "output": t.output,
                    "hidden": t.hidden,
                    "causes": list(t.causes),
                }
                for t in self.tests
            ],
        }

    def to_gradescope(self) -> dict[str, Any]:
        """Gradescope's ``results.json``: ``score``, ``output`` and per test ``name``,
        ``score``, ``max_score``, ``output`` and ``visibility`` (a hidden test is
        shown once the marks are published)."""
        return {
            "score": self.score,
            "execution_time": round(self.seconds, 3),
            "output": self.summary(),
            "visibility": "visible",
            "tests": [
                {
                    "name": t.name,
                    "score": round(t.score, 4),
                    "max_score": t.max_score,
                    "output": t.output,
                    "visibility": "after_published" if t.hidden else "visible",
                }
                for t in self.tests
            ],
        }

    def to_prairielearn(self) -> dict[str, Any]:
        """PrairieLearn's external grader results: ``gradable``, ``score`` (a
        fraction), ``message``, ``output`` and per test ``name``, ``points``,
        ``max_points``, ``message``, ``output``."""
        return {
            "gradable": True,
            "score": round(self.score / self.max_score, 6) if self.max_score else 0.0,
            "message": self.summary(),
            "output": self.to_text(),
            "tests": [
                {
                    "name": t.name,
                    "description": "hidden test" if t.hidden else "",
                    "points": round(t.score, 4),
                    "max_points": t.max_score,
                    "message": t.output.splitlines()[0] if t.output else "",
                    "output": t.output,
                }
                for t in self.tests
            ],
        }


def write_report(report: Report, form: str) -> str:
    """The report in one of :data:`FORMATS`, as text to print or save."""
    if form == "text":
        return report.to_text()
    document = {
        "json": report.to_json,
        "gradescope": report.to_gradescope,
        "prairielearn": report.to_prairielearn,
    }[form]()
    return json.dumps(document, indent=2) + "\n"


def _num(x: float) -> str:
    x = round(x, 2)
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
