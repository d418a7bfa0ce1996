"""plies grade's reports as course autograders read them.

Gradescope's ``results.json`` and PrairieLearn's external grader results are checked
against schemas written from the two formats' specifications (``data/README.md`` says
where from), against what Gradescope's own ``gradescope-utils`` writes, and for what
they must say: totals that are the sum of their tests, hidden tests kept hidden from
students, a fraction for PrairieLearn. The reports come from grading submissions
written here (the lab reports' GeeksforGeeks-style ``minimax``, right and broken) and,
for the summaries' logic, from marks made by hand.
"""

from __future__ import annotations

import base64
import io
import json
import unittest
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import jsonschema
import pytest
from gradescope_utils.autograder_utils.decorators import (
    number,
    partial_credit,
    tags,
    visibility,
    weight,
)
from gradescope_utils.autograder_utils.json_test_runner import JSONTestRunner

from plies.grade import Marked, Report, grade, write_report

DATA = Path(__file__).parent / "data"
GRADESCOPE = json.loads((DATA / "gradescope-results.schema.json").read_text())
PRAIRIELEARN = json.loads((DATA / "prairielearn-results.schema.json").read_text())

#: The lab reports' array-form alpha-beta, as GeeksforGeeks prints it: full marks.
RIGHT = (Path(__file__).parent / "submissions" / "array_gfg.py").read_text()

#: The same with a MIN node lowering alpha instead of beta.
BROKEN = RIGHT.replace("beta = min(beta, best)", "alpha = min(alpha, best)")
MIN_CAUSE = "a MIN node updates alpha instead of beta"

#: A teacher's test: worth 2, hidden until the marks are published.
EXAM = "# name: the exam's tree\n# weight: 2\n# hidden\n[[[3, 5], [6, 9]], [[1, 2], [0, -1]]]\n"

STRICT = "it prunes only when v > beta (or < alpha)"
NO_PRUNING = "no pruning at all (this is minimax)"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    """The right and the broken submission graded on the default battery and the
    teacher's hidden test."""
    folder = tmp_path_factory.mktemp("submissions")
    exam = folder / "exam.txt"
    exam.write_text(EXAM)
    graded = {}
    for name, code in (("right", RIGHT), ("broken", BROKEN)):
        path = folder / f"{name}.py"
        path.write_text(code)
        graded[name] = grade(path, form="array", function="minimax", trees=[exam])
    return graded


def validate(document: dict[str, Any], schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema).validate(document)


def json_type(value: object) -> str:
    """The JSON type ``value`` is written as."""
    for python, name in ((bool, "boolean"), (int | float, "number"), (str, "string"),
                         (list | tuple, "array"), (dict, "object")):  # fmt: skip
        if isinstance(value, python):
            return name
    return "null" if value is None else type(value).__name__


def marked(
    name: str,
    score: float,
    *,
    hidden: bool = False,
    leaves: bool = True,
    causes: tuple[str, ...] = (),
    ran: bool = True,
    output: str = "Correct.",
) -> Marked:
    """A test's marks made by hand (out of 1)."""
    return Marked(name=name, score=score, max_score=1.0, output=output, hidden=hidden,
                  value_right=ran, leaves_right=leaves and ran,
                  bounds_right=leaves if ran else False, causes=causes, ran=ran)  # fmt: skip


# The formats against their specifications ---------------------------------------------------


def test_the_schemas_are_json_schemas() -> None:
    for schema in (GRADESCOPE, PRAIRIELEARN):
        jsonschema.Draft202012Validator.check_schema(schema)
    # and they refuse what the specifications refuse
    with pytest.raises(jsonschema.ValidationError):
        validate({"score": 1, "tests": [{"score": 1, "visibility": "soon"}]}, GRADESCOPE)
    with pytest.raises(jsonschema.ValidationError):
        validate({"tests": [{"max_score": 1}]}, GRADESCOPE)  # no score anywhere
    with pytest.raises(jsonschema.ValidationError):
        validate({"gradable": True, "score": 11}, PRAIRIELEARN)  # not a fraction
    with pytest.raises(jsonschema.ValidationError):
        validate({"score": 0.5, "tests": [{"name": "t", "max_score": 1}]}, PRAIRIELEARN)


@pytest.mark.parametrize("name", ["right", "broken"])
def test_the_autograders_forms_pass_their_schemas(reports: dict[str, Report], name: str) -> None:
    report = reports[name]
    validate(json.loads(write_report(report, "gradescope")), GRADESCOPE)
    validate(json.loads(write_report(report, "prairielearn")), PRAIRIELEARN)


def gradescope_utils_results() -> dict[str, Any]:
    """What Gradescope's gradescope-utils writes for three unittest tests: a passed
    one (weight 2, hidden until published, tagged), a partly passed one, a failed one."""

    class Reference(unittest.TestCase):
        @weight(2)
        @number("1")
        @tags("wrong leaves")
        @visibility("after_published")
        def test_passes(self) -> None:
            """The lab reports' tree"""
            print("Correct.")

        @partial_credit(3)
        @number("2")
        def test_partly(self, set_score: Any = None) -> None:
            """A tie at alpha"""
            print("Value: 2, right.")
            set_score(2.0)

        @weight(1)
        @number("3")
        @visibility("visible")
        def test_fails(self) -> None:
            """A MIN root"""
            self.fail("your code evaluated leaf G1")

    stream = io.StringIO()
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Reference)
    JSONTestRunner(stream=stream, visibility="visible", stdout_visibility="hidden").run(suite)
    return dict(json.loads(stream.getvalue()))


def test_the_gradescope_schema_accepts_what_gradescope_utils_writes() -> None:
    reference = gradescope_utils_results()
    validate(reference, GRADESCOPE)
    assert {t["status"] for t in reference["tests"]} == {"passed", "failed"}


def test_gradescope_tests_have_every_key_gradescope_utils_writes_with_its_type(
    reports: dict[str, Report],
) -> None:
    reference = gradescope_utils_results()
    ours = reports["broken"].to_gradescope()
    for key, value in reference.items():
        if key == "leaderboard":  # plies has no leaderboard
            continue
        assert key in ours, key
        if key != "execution_time":  # a number in the specification, a string there
            assert json_type(ours[key]) == json_type(value), key
    for theirs in reference["tests"]:
        for test in ours["tests"]:
            for key, value in theirs.items():
                assert json_type(test[key]) == json_type(value), (key, test[key], value)


# What the forms say -------------------------------------------------------------------------


def test_totals_are_the_sums_of_the_tests(reports: dict[str, Report]) -> None:
    for report in reports.values():
        # each test's marks are written to 4 places, the total is the exact sum's
        rounding = 5e-5 * len(report.tests)
        assert report.score == round(sum(t.score for t in report.tests), 4)
        gradescope = report.to_gradescope()
        assert gradescope["score"] == report.score
        assert gradescope["score"] == pytest.approx(
            sum(t["score"] for t in gradescope["tests"]), abs=rounding
        )
        assert gradescope["extra_data"]["max_score"] == sum(
            t["max_score"] for t in gradescope["tests"]
        )
        plain = report.to_json()
        assert plain["score"] == pytest.approx(
            sum(t["score"] for t in plain["tests"]), abs=rounding
        )
        assert plain["max_score"] == sum(t["max_score"] for t in plain["tests"])
        prairielearn = report.to_prairielearn()
        points = sum(t["points"] for t in prairielearn["tests"])
        max_points = sum(t["max_points"] for t in prairielearn["tests"])
        assert prairielearn["score"] == pytest.approx(points / max_points, abs=rounding)
        assert prairielearn["score"] == pytest.approx(report.score / report.max_score, abs=1e-6)
        assert 0 <= prairielearn["score"] <= 1


def test_a_right_submission_gets_full_marks_everywhere(reports: dict[str, Report]) -> None:
    report = reports["right"]
    assert report.score == report.max_score == len(report.tests) + 1  # the exam's tree is 2
    gradescope = report.to_gradescope()
    assert {t["status"] for t in gradescope["tests"]} == {"passed"}
    assert all(t["tags"] == [] and t["score"] == t["max_score"] for t in gradescope["tests"])
    prairielearn = report.to_prairielearn()
    assert prairielearn["score"] == 1.0
    assert {t["message"] for t in prairielearn["tests"] if t["output"]} == {"Correct."}


def test_a_broken_submission_loses_marks_and_is_told_why(reports: dict[str, Report]) -> None:
    report = reports["broken"]
    assert 0 < report.score < report.max_score
    gradescope = report.to_gradescope()
    failed = [t for t in gradescope["tests"] if t["status"] == "failed"]
    assert failed
    parts = {"wrong value", "wrong leaves", "wrong windows"}
    assert all(t["score"] < t["max_score"] and t["tags"] and set(t["tags"]) <= parts
               for t in failed)  # fmt: skip
    leaves = [t for t in failed if "wrong leaves" in t["tags"]]
    assert leaves and all(MIN_CAUSE in t["extra_data"]["causes"] for t in leaves)
    # a MIN node that lowers alpha passes its MAX children the wrong window, even where
    # that costs no leaf: the windows part alone
    assert any(t["tags"] == ["wrong windows"] for t in failed)
    assert MIN_CAUSE in gradescope["output"]
    prairielearn = report.to_prairielearn()
    assert prairielearn["score"] < 1
    assert MIN_CAUSE in prairielearn["message"]
    shown = [t for t in prairielearn["tests"] if t["output"]]
    assert any(t["message"].startswith("Wrong: ") and "the leaves evaluated" in t["message"]
               for t in shown)  # fmt: skip


def test_gradescope_numbers_the_tests_and_sends_every_text_as_text(
    reports: dict[str, Report],
) -> None:
    gradescope = reports["broken"].to_gradescope()
    assert [t["number"] for t in gradescope["tests"]] == [
        str(n) for n in range(1, len(gradescope["tests"]) + 1)
    ]
    # the feedback holds "<=": Gradescope's default top-level simple_format is HTML
    assert "<=" in "".join(t["output"] for t in gradescope["tests"])
    assert gradescope["output_format"] == gradescope["test_output_format"] == "text"
    assert {t["output_format"] for t in gradescope["tests"]} == {"text"}
    assert isinstance(gradescope["execution_time"], int) and gradescope["execution_time"] >= 1


def test_hidden_tests_count_but_stay_hidden(reports: dict[str, Report]) -> None:
    report = reports["right"]
    gradescope = report.to_gradescope()
    exam = next(t for t in gradescope["tests"] if t["name"] == "the exam's tree")
    assert (exam["visibility"], exam["max_score"]) == ("after_published", 2.0)
    assert {t["visibility"] for t in gradescope["tests"] if t is not exam} == {"visible"}
    assert gradescope["score"] == report.max_score  # the hidden marks are in the total
    visible = len(report.tests) - 1
    assert gradescope["output"] == (
        f"Visible tests: {visible} / {visible} ({visible} of {visible} tests right; "
        "array form, alphabeta, nonstrict rule)\n"
        "1 hidden test: its results are shown once the marks are published."
    )
    pl_exam = next(t for t in report.to_prairielearn()["tests"] if t["name"] == "the exam's tree")
    assert (pl_exam["points"], pl_exam["max_points"]) == (2.0, 2.0)
    assert pl_exam["output"] == pl_exam["message"] == ""
    assert "hidden" in pl_exam["description"]


def test_what_only_a_hidden_test_shows_is_in_no_students_summary() -> None:
    report = Report(
        [marked("visible", 1.0, causes=(STRICT,)),
         marked("secret", 0.0, hidden=True, leaves=False, causes=(NO_PRUNING,),
                output="At C (MIN) ... your code evaluated leaf C2")],
        "node", "alphabeta", "nonstrict",
    )  # fmt: skip
    assert NO_PRUNING in report.summary()  # the teacher's summary
    gradescope = report.to_gradescope()
    prairielearn = report.to_prairielearn()
    for student in (gradescope["output"], prairielearn["message"]):
        assert NO_PRUNING not in student and "C2" not in student
        assert student.startswith("Visible tests: 1 / 1 (1 of 1 tests right;")
    assert prairielearn["message"].endswith("1 hidden test: its results are not shown here.")
    assert "C2" not in json.dumps(prairielearn)
    assert "C2" in json.dumps(gradescope)  # Gradescope holds it back until published
    assert gradescope["score"] == 1.0 and prairielearn["score"] == 0.5


def test_the_json_form_keeps_its_contract(reports: dict[str, Report]) -> None:
    plain = json.loads(write_report(reports["broken"], "json"))
    assert {"score", "max_score", "tests"} <= plain.keys()
    for test in plain["tests"]:
        assert {"name", "score", "max_score", "output"} <= test.keys()
        assert json_type(test["score"]) == json_type(test["max_score"]) == "number"


def test_the_json_forms_are_strict_json(reports: dict[str, Report]) -> None:
    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    for form in ("json", "gradescope", "prairielearn"):
        json.loads(write_report(reports["broken"], form), parse_constant=refuse)


# The summaries' reasoning --------------------------------------------------------------------


def test_a_mistake_another_tree_rules_out_is_not_named() -> None:
    # On the ties, no pruning and the strict rule evaluate the same leaves; the first
    # tree, graded right, does what the strict rule does and not what minimax does.
    report = Report(
        [marked("lab", 1.0, causes=(STRICT,)),
         marked("tie at alpha", 2 / 3, leaves=False, causes=(NO_PRUNING, STRICT)),
         marked("tie at beta", 2 / 3, leaves=False, causes=(NO_PRUNING, STRICT))],
        "array", "alphabeta", "nonstrict",
    )  # fmt: skip
    summary = report.summary()
    assert f"your code does exactly what this mistake does: {STRICT}" in summary
    assert NO_PRUNING not in summary
    tied = Report(report.tests[1:], "array", "alphabeta", "nonstrict").summary()
    assert "what each of these mistakes does (these trees cannot tell them apart)" in tied
    assert NO_PRUNING in tied and STRICT in tied


def test_a_right_submission_is_told_of_no_mistake() -> None:
    # a right tree lists the mistakes that happen to do the same: none is a cause
    report = Report([marked("lab", 1.0, causes=(STRICT,))], "array", "alphabeta", "nonstrict")
    assert (
        report.summary()
        == "Score: 1 / 1 (1 of 1 tests right; array form, alphabeta, nonstrict rule)"
    )
    assert report.to_json()["tests"][0]["causes"] == []
    assert report.to_gradescope()["tests"][0]["extra_data"] == {"causes": []}


def test_code_that_did_not_finish_is_said_so() -> None:
    failed = "Your code failed: it ran past the 2 s limit (an endless loop or recursion?)"
    report = Report(
        [marked("lab", 1.0), marked("loop", 0.0, ran=False, output=failed)],
        "array", "alphabeta", "nonstrict",
    )  # fmt: skip
    assert report.summary().splitlines()[1] == (
        "Your code failed in 1 of 2 tests, first with: it ran past the 2 s limit "
        "(an endless loop or recursion?)"
    )
    assert report.to_gradescope()["tests"][1]["tags"] == ["did not finish"]
    assert report.to_prairielearn()["tests"][1]["message"] == failed


def test_a_total_is_the_exact_sum_not_the_sum_of_rounded_marks() -> None:
    report = Report([marked(f"t{n}", 2 / 3, leaves=False) for n in range(9)], "array",
                    "alphabeta", "nonstrict")  # fmt: skip
    gradescope = report.to_gradescope()
    assert [t["score"] for t in gradescope["tests"]] == [0.6667] * 9
    assert gradescope["score"] == report.score == 6.0
    assert report.to_prairielearn()["score"] == round(6 / 9, 6)
    assert {t["status"] for t in gradescope["tests"]} == {"failed"}


def test_prairielearn_shows_the_drawings_of_the_visible_tests_not_right(tmp_path: Path) -> None:
    """With pictures kept, each visible test the broken code got wrong carries its
    drawing as an SVG data URL; right and hidden tests carry none."""
    exam = tmp_path / "exam.txt"
    exam.write_text(EXAM)
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    report = grade(path, form="array", function="minimax", trees=[exam], pictures=True)
    document = json.loads(write_report(report, "prairielearn"))
    validate(document, PRAIRIELEARN)
    drawn = 0
    for entry, t in zip(document["tests"], report.tests, strict=True):
        if t.hidden or t.score == t.max_score:
            assert "images" not in entry
            continue
        [image] = entry["images"]
        prefix = "data:image/svg+xml;base64,"
        assert image["url"].startswith(prefix)
        svg = base64.b64decode(image["url"][len(prefix) :]).decode("utf-8")
        assert ElementTree.fromstring(svg).tag.endswith("svg")
        drawn += 1
    assert drawn >= 1
    assert any(t.hidden and t.score < t.max_score for t in report.tests)  # withheld
    plain = grade(path, form="array", function="minimax", trees=[exam])
    assert all(not t.picture for t in plain.tests)


def test_prairielearns_drawings_stop_at_the_size_limit() -> None:
    big = "<svg>" + "x" * 200_000 + "</svg>"
    tests = [replace(marked(f"t{i}", 0.0), picture=big) for i in range(6)]
    document = Report(tests, "array", "alphabeta", "nonstrict", 0.1).to_prairielearn()
    with_images = [entry for entry in document["tests"] if "images" in entry]
    assert 1 <= len(with_images) < len(tests)
    assert len(json.dumps(document)) < 1_000_000
