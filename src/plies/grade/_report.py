"""A graded submission, and the forms it is written in: text for a student at a
terminal, plies' JSON, Gradescope's ``results.json`` and PrairieLearn's external
grader results.

The two autograders' forms follow their published specifications:

* Gradescope's "Autograder Specifications" (``results.json``: a top-level ``score``,
  ``execution_time`` in seconds, ``output`` and its ``output_format``, ``visibility``,
  ``stdout_visibility``, ``extra_data``, and per test ``score``, ``max_score``,
  ``status``, ``name``, ``number``, ``output``, ``output_format``, ``tags``,
  ``visibility``, ``extra_data``). Every text is sent as ``"text"``: the feedback
  holds ``<=`` and ``>=``, which the default top-level format (``simple_format``, a
  kind of HTML) would take for markup.
* PrairieLearn's "External Grading" results (``gradable``, ``score`` as a fraction
  0..1, ``message``, and per test ``name``, ``description``, ``points``,
  ``max_points``, ``message``, ``output``, and ``images``: the drawing of a visible test
  not fully right, when the report keeps them, as a ``data:`` URL).

A hidden test (``# hidden`` in a teacher's trees file) must not show itself before its
time: on Gradescope it is ``after_published`` (shown once the teacher publishes the
marks); PrairieLearn has no such moment, so there a hidden test shows its name and
points but not its feedback. In both, the summary a student sees speaks of the
visible tests only.
"""

from __future__ import annotations

import base64
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plies._arguments import need_choice, need_object
from plies.grade._mark import Marked

__all__ = ["FORMATS", "Report", "write_report"]

FORMATS: tuple[str, ...] = ("text", "json", "gradescope", "prairielearn")

#: Gradescope's visibility of a hidden test: shown once the marks are published.
GRADESCOPE_HIDDEN = "after_published"


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
        """The marks given: the sum of the tests' marks, rounded to 4 places (each
        test's marks are written rounded to 4 places too, so a total may differ from
        the sum of its tests as written by a few ten-thousandths: 9 tests of 2/3 are
        6, not 9 x 0.6667)."""
        return _total(self.tests)

    @property
    def max_score(self) -> float:
        """The marks there are."""
        return round(sum(t.max_score for t in self.tests), 4)

    def summary(self) -> str:
        """Two or three lines: the score, and the causes seen most often (every
        test, hidden ones too: this is the teacher's summary)."""
        return "\n".join(_summary(self.tests, self._grading()) + self.notes)

    def to_text(self) -> str:
        """The report for a student at a terminal: each test, then the summary."""
        out = []
        for t in self.tests:
            mark = "PASS" if _full(t) else "FAIL"
            hidden = " (hidden)" if t.hidden else ""
            out.append(f"{mark}  {t.name}{hidden}: {_num(t.score)} / {_num(t.max_score)}")
            out += ["      " + line for line in t.output.splitlines()]
        out.append("")
        out.append(self.summary())
        return "\n".join(out) + "\n"

    def to_json(self) -> dict[str, Any]:
        """plies' JSON: ``score``, ``max_score`` and per test ``name``, ``score``,
        ``max_score``, ``output`` (and ``hidden``, and the ``causes`` recognised)."""
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
                    "score": _points(t),
                    "max_score": t.max_score,
                    "output": t.output,
                    "hidden": t.hidden,
                    "causes": list(_mistakes(t)),
                }
                for t in self.tests
            ],
        }

    def to_gradescope(self) -> dict[str, Any]:
        """Gradescope's ``results.json``: the total, the summary of the visible tests,
        and each test numbered in order with its marks, feedback, pass or fail,
        ``tags`` naming what was wrong and its ``visibility`` (a hidden test is shown
        once the marks are published)."""
        return {
            "score": self.score,
            "execution_time": math.ceil(self.seconds),
            "output": self._students_summary("shown once the marks are published"),
            "output_format": "text",
            "test_output_format": "text",
            "test_name_format": "text",
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "extra_data": self._grading_data(),
            "tests": [_gradescope_test(t, number) for number, t in enumerate(self.tests, 1)],
        }

    def to_prairielearn(self) -> dict[str, Any]:
        """PrairieLearn's external grader results: ``gradable``, ``score`` (the
        fraction of the marks), ``message`` (the summary of the visible tests) and
        per test ``name``, ``description``, ``points``, ``max_points``, ``message``
        (the verdict) and ``output`` (the feedback; withheld for a hidden test)."""
        fraction = self.score / self.max_score if self.max_score else 0.0
        return {
            "gradable": True,
            "score": round(min(1.0, max(0.0, fraction)), 6),
            "message": self._students_summary("not shown here"),
            "extra_data": self._grading_data(),
            "tests": _with_images([_prairielearn_test(t) for t in self.tests], self.tests),
        }

    def _grading(self) -> str:
        return f"{self.form} form, {self.algorithm}, {self.rule} rule"

    def _grading_data(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "algorithm": self.algorithm,
            "rule": self.rule,
            "max_score": self.max_score,
        }

    def _students_summary(self, hidden_shown: str) -> str:
        """The summary a student may see: the visible tests' score and causes, and
        how many tests are hidden and when they are shown."""
        visible = [t for t in self.tests if not t.hidden]
        hidden = len(self.tests) - len(visible)
        if not hidden:
            return self.summary()
        lines = _summary(visible, self._grading(), label="Visible tests") if visible else []
        their = "its results are" if hidden == 1 else "their results are"
        lines.append(f"{hidden} hidden test{'s' if hidden > 1 else ''}: {their} {hidden_shown}.")
        return "\n".join(lines + self.notes)


def write_report(report: Report, form: str) -> str:
    """The report in one of :data:`FORMATS`, as text to print or save (the JSON
    forms are strict JSON: no NaN or Infinity)."""
    need_object(report, Report, "report")
    need_choice(form, "form", FORMATS)
    if form == "text":
        return report.to_text()
    document = {
        "json": report.to_json,
        "gradescope": report.to_gradescope,
        "prairielearn": report.to_prairielearn,
    }[form]()
    return json.dumps(document, indent=2, allow_nan=False) + "\n"


def _gradescope_test(t: Marked, number: int) -> dict[str, Any]:
    """One test of Gradescope's ``results.json``."""
    return {
        "score": _points(t),
        "max_score": t.max_score,
        "status": "passed" if _full(t) else "failed",
        "name": t.name,
        "name_format": "text",
        "number": str(number),
        "output": t.output,
        "output_format": "text",
        "tags": _wrong_parts(t),
        "visibility": GRADESCOPE_HIDDEN if t.hidden else "visible",
        "extra_data": {"causes": list(_mistakes(t))},
    }


def _prairielearn_test(t: Marked) -> dict[str, Any]:
    """One test of PrairieLearn's results: a hidden test keeps its feedback back."""
    if t.hidden:
        description, message, output = "A hidden test: its feedback is not shown.", "", ""
    else:
        description, message, output = "", _verdict(t), t.output
    return {
        "name": t.name,
        "description": description,
        "points": _points(t),
        "max_points": t.max_score,
        "message": message,
        "output": output,
    }


#: Base64 bytes of drawings PrairieLearn's results may carry (its limit for the whole
#: file is 1 MB): drawings beyond it are left out, the first tests' kept.
MAX_IMAGE_BYTES = 700_000


def _with_images(entries: list[dict[str, Any]], tests: Sequence[Marked]) -> list[dict[str, Any]]:
    """PrairieLearn's test entries with each kept drawing (:attr:`Marked.picture`) as an
    SVG data URL in ``images``, while they fit in :data:`MAX_IMAGE_BYTES`."""
    budget = MAX_IMAGE_BYTES
    for entry, t in zip(entries, tests, strict=True):
        if not t.picture or t.hidden:
            continue
        data = base64.b64encode(t.picture.encode("utf-8")).decode("ascii")
        if len(data) > budget:
            break
        budget -= len(data)
        entry["images"] = [
            {"label": "Your search against plies'", "url": f"data:image/svg+xml;base64,{data}"}
        ]
    return entries


def _wrong_parts(t: Marked) -> list[str]:
    """What a test got wrong, as short tags: ``did not finish`` (raised, crashed,
    ran out of time), ``wrong value``, ``wrong leaves``, ``wrong windows``."""
    if not t.ran:
        return ["did not finish"]
    parts = [("wrong value", t.value_right), ("wrong leaves", t.leaves_right),
             ("wrong windows", t.bounds_right is not False)]  # fmt: skip
    return [tag for tag, right in parts if not right]


def _verdict(t: Marked) -> str:
    """One line on a test: correct, what was wrong, or why the code did not finish."""
    if not t.ran:
        return t.output.splitlines()[0] if t.output else "Your code did not finish."
    wrong = [tag.removeprefix("wrong ") for tag in _wrong_parts(t)]
    if not wrong:
        return "Correct."
    named = {"value": "the value", "leaves": "the leaves evaluated", "windows": "the windows"}
    parts = [named[w] for w in wrong]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Wrong: {listed}."


def _summary(tests: Sequence[Marked], grading: str, *, label: str = "Score") -> list[str]:
    """The score line of ``tests`` and the mistake their wrong leaves show."""
    full = sum(1 for t in tests if _full(t))
    max_score = round(sum(t.max_score for t in tests), 4)
    lines = [
        f"{label}: {_num(_total(tests))} / {_num(max_score)} ({full} of {len(tests)} tests "
        f"right; {grading})"
    ]
    return lines + _unfinished(tests) + _causes(tests)


def _unfinished(tests: Sequence[Marked]) -> list[str]:
    """A line on the tests the code did not finish (raised, crashed, ran out of
    time), with the first one's reason."""
    failed = [t for t in tests if not t.ran]
    if not failed:
        return []
    lines = failed[0].output.splitlines()
    reason = lines[0].removeprefix("Your code failed: ") if lines else "no reason given"
    count = "every test" if len(failed) == len(tests) else f"{len(failed)} of {len(tests)} tests"
    return [f"Your code failed in {count}, first with: {reason}"]


def _causes(tests: Sequence[Marked]) -> list[str]:
    """The known mistake behind wrong leaves. A test lists the mistakes that do what
    the submission did on its tree, so the mistakes listed by every test that ran
    (right ones too) explain the whole submission: those, all of them when the trees
    cannot tell them apart; else the one seen in most tests with wrong leaves."""
    wrong = [t for t in tests if _mistakes(t)]
    if not any(t.ran and not t.leaves_right for t in tests):
        return []
    ran = [t for t in tests if t.ran]
    everywhere = [c for c in ran[0].causes if all(c in t.causes for t in ran)]
    if len(everywhere) == 1:
        return [f"On every tree it ran on, your code does exactly what this mistake does: "
                f"{everywhere[0]}."]  # fmt: skip
    if everywhere:
        return [
            "On every tree it ran on, your code does exactly what each of these mistakes does "
            f"(these trees cannot tell them apart): {'; or '.join(everywhere)}."
        ]
    seen = Counter(c for t in wrong for c in t.causes)
    if not seen:
        return []
    cause, times = seen.most_common(1)[0]
    return [f"Seen in {times} test{'s' if times > 1 else ''} with wrong leaves: {cause}."]


def _mistakes(t: Marked) -> tuple[str, ...]:
    """The known mistakes a test shows: those whose leaves are the submission's, on a
    test whose leaves were wrong (on a right one, a mistake that happens to evaluate
    the same leaves says nothing)."""
    return t.causes if t.ran and not t.leaves_right else ()


def _points(t: Marked) -> float:
    """A test's marks as every report writes them."""
    return round(t.score, 4)


def _total(tests: Sequence[Marked]) -> float:
    return round(sum(t.score for t in tests), 4)


def _full(t: Marked) -> bool:
    """Whether a test got all its marks."""
    return t.score >= t.max_score - 1e-9


def _num(x: float) -> str:
    x = round(x, 2)
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
