"""The program form for real: the worked C++ and Java examples
(``docs/grade/examples``) compiled, graded through :func:`plies.grade.grade` and the
CLI with full marks, and students made from them by small edits of their source (the
other tie rule, no pruning, an endless loop, an exit or an exception in the middle of a
search, a debugging print, output never flushed, memory without end), each losing
marks for the reason named, within the time limit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from plies.grade import CAUSES, Limits, Report, SubmissionError, grade
from plies.grade._protocol import converse
from plies.trees import parse

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "grade" / "examples"
PLIES = Path(sys.prefix) / "bin" / "plies"

NO_PRUNING = CAUSES[0][0]
PRUNES_STRICTLY = CAUSES[1][0]

#: A student: the example with each (old, new, how many times) edit made.
Edits = list[tuple[str, str, int]]

_STRICT: Edits = [("alpha >= beta", "alpha > beta", 2)]
_NO_BREAK: Edits = [("break;", ";", 2)]

CPP_STUDENTS: dict[str, Edits] = {
    "alphabeta": [],
    "strict": _STRICT,
    "no_pruning": _NO_BREAK,
    "loops_at_a_min_root": [
        (
            '    // kind == "min"\n',
            "    if (node == 0) { volatile bool stuck = true; while (stuck) {} }\n",
            1,
        ),
    ],
    "exits_at_14": [
        (
            '    return stod(ask("value " + to_string(node)));',
            '    double value = stod(ask("value " + to_string(node)));\n'
            "    if (value == 14) exit(3);\n    return value;",
            1,
        ),
    ],
    "prints_debugging": [
        (
            '    if (kind == "leaf") {\n',
            '    if (kind == "leaf") {\n        cout << "Evaluating leaf " << node << endl;\n',
            1,
        ),
    ],
    "fast_io_never_flushes": [
        (
            "int main() {\n",
            "int main() {\n    ios::sync_with_stdio(false);\n    cin.tie(nullptr);\n",
            1,
        ),
        ("<< endl;", '<< "\\n";', 3),
    ],
    "one_search_a_run": [
        (
            'cout << "result " << value << endl;',
            'cout << "result " << value << endl;\n        return 0;',
            1,
        ),
    ],
    "hogs_memory_at_14": [
        (
            '    return stod(ask("value " + to_string(node)));',
            '    double value = stod(ask("value " + to_string(node)));\n'
            "    vector<vector<char>> hog;\n"
            "    while (value == 14) hog.emplace_back(1 << 20, 'x');\n    return value;",
            1,
        ),
    ],
}

JAVA_STUDENTS: dict[str, Edits] = {
    "AlphaBeta": [],
    "Strict": _STRICT,
    "NoPruning": _NO_BREAK,
    "LoopsAtAMinRoot": [
        ('        // kind is "min"\n', "        if (node == 0) { while (true) { } }\n", 1),
    ],
    "ThrowsAt14": [
        (
            '        return Double.parseDouble(ask("value " + node));',
            '        double value = Double.parseDouble(ask("value " + node));\n'
            "        int[] none = new int[0];\n"
            "        if (value == 14) none[0] += 1;\n        return value;",
            1,
        ),
    ],
    "DebugsToStderr": [
        (
            '        if (kind.equals("leaf")) {\n',
            '        if (kind.equals("leaf")) {\n'
            '            System.err.println("Evaluating leaf " + node);\n',
            1,
        ),
    ],
}


#: The tests whose trees hold a leaf 14 (the students that fail there).
WITH_14 = {"AIMA Figure 5.2", "A MIN root", "Three plies"}


def edited(source: str, edits: Edits) -> str:
    """``source`` with each edit made exactly as often as it says."""
    for old, new, count in edits:
        assert source.count(old) == count, f"{old!r} is in the example {source.count(old)} times"
        source = source.replace(old, new)
    return source


@pytest.fixture(scope="module")
def cpp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding each C++ student, built with ``g++ -O2 -std=c++17``."""
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed: the C++ example cannot be built")
    folder = tmp_path_factory.mktemp("cpp")
    source = (EXAMPLES / "alphabeta.cpp").read_text()

    def build(name: str) -> subprocess.CompletedProcess[str]:
        (folder / f"{name}.cpp").write_text(edited(source, CPP_STUDENTS[name]))
        command = ["g++", "-O2", "-std=c++17", "-Wall", "-o", name, f"{name}.cpp"]
        return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)

    with ThreadPoolExecutor() as pool:
        for name, built in zip(CPP_STUDENTS, pool.map(build, CPP_STUDENTS), strict=True):
            assert built.returncode == 0, f"{name}: {built.stderr}"
            assert name != "alphabeta" or not built.stderr, built.stderr  # no warnings
    return folder


@pytest.fixture(scope="module")
def java(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose ``build`` holds each Java student's class, from one ``javac``."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("no JDK (javac, java): the Java example cannot be built")
    folder = tmp_path_factory.mktemp("java")
    source = (EXAMPLES / "AlphaBeta.java").read_text()
    for name, edits in JAVA_STUDENTS.items():
        renamed = [*edits, ("public class AlphaBeta {", f"public class {name} {{", 1)]
        (folder / f"{name}.java").write_text(edited(source, renamed if edits else edits))
    sources = [f"{name}.java" for name in JAVA_STUDENTS]
    built = subprocess.run(["javac", "-Xlint:all", "-d", "build", *sources], cwd=folder,
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert built.returncode == 0 and not built.stderr, built.stderr
    return folder


def java_command(name: str) -> str:
    return f"java -Xmx256m -cp build {name}"


def graded(
    folder: Path, command: str, monkeypatch: pytest.MonkeyPatch, **options: object
) -> Report:
    """``command`` graded from ``folder``, as a teacher in that folder would."""
    monkeypatch.chdir(folder)
    return grade(command, form="program", **options)  # type: ignore[arg-type]


def full(report: Report) -> bool:
    return report.score == report.max_score and all(t.score == t.max_score for t in report.tests)


def failed(report: Report) -> dict[str, str]:
    """The tests that lost marks, with their feedback."""
    return {t.name: t.output for t in report.tests if t.score < t.max_score}


# The examples get full marks ----------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["alphabeta", "expectimax"])
@pytest.mark.parametrize("how", ["library", "cli"])
def test_the_cpp_example_gets_full_marks(
    cpp: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str, how: str
) -> None:
    if how == "library":
        report = graded(cpp, "./alphabeta", monkeypatch, algorithm=algorithm)
        assert full(report), failed(report)
        assert all(t.bounds_right for t in report.tests) or algorithm == "expectimax"
        assert len(report.tests) == (12 if algorithm == "alphabeta" else 6)
        return
    done = subprocess.run(
        [str(PLIES), "grade", "./alphabeta", "--form", "program", "--algorithm", algorithm,
         "--format", "json"], cwd=cpp, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    marks = json.loads(done.stdout)
    assert marks["score"] == marks["max_score"] > 0


@pytest.mark.parametrize("algorithm", ["alphabeta", "expectimax"])
def test_the_java_example_gets_full_marks(
    java: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    report = graded(java, java_command("AlphaBeta"), monkeypatch, algorithm=algorithm)
    assert full(report), failed(report)


def test_the_java_example_graded_from_the_cli_as_a_teacher_types_it(java: Path) -> None:
    """``java -cp build AlphaBeta``, relative and without flags: it runs in the
    grader's folder, and a JVM starts under the default memory limit."""
    if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >= 56 << 30:
        pytest.skip(
            "a JVM commits 1/64 of this machine's memory at start, more than the "
            "default limit: on such machines it is given -Xmx (docs/grade-protocol.md)"
        )
    done = subprocess.run(
        [str(PLIES), "grade", "java -cp build AlphaBeta", "--form", "program"],
        cwd=java, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Score: 12 / 12 (12 of 12 tests right" in done.stdout


def test_a_program_that_exits_after_each_search_is_started_again(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = graded(cpp, "./one_search_a_run", monkeypatch)
    assert full(report), failed(report)


# The tie rule, both ways ---------------------------------------------------------------------


def test_pruning_only_when_alpha_exceeds_beta_is_the_strict_rule(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nonstrict = graded(cpp, "./strict", monkeypatch)
    lost = failed(nonstrict)
    assert "A tie at alpha: C's first leaf equals A's alpha" in lost
    assert "AIMA Figure 5.2" not in lost  # no tie there: the rules agree
    assert all(PRUNES_STRICTLY in text for text in lost.values())
    assert full(graded(cpp, "./strict", monkeypatch, rule="strict"))


def test_the_example_prunes_on_ties_so_it_loses_marks_under_the_strict_rule(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = failed(graded(cpp, "./alphabeta", monkeypatch, rule="strict"))
    assert "A tie at alpha: C's first leaf equals A's alpha" in lost
    assert all("the non-strict rule, but this assignment prunes only when alpha > beta" in text
               for text in lost.values())  # fmt: skip


def test_the_strict_java_student_both_ways(java: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lost = failed(graded(java, java_command("Strict"), monkeypatch))
    assert lost and all(PRUNES_STRICTLY in text for text in lost.values())
    assert full(graded(java, java_command("Strict"), monkeypatch, rule="strict"))


# Mistakes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_no_pruning_is_named(
    language: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = request.getfixturevalue(language)
    command = "./no_pruning" if language == "cpp" else java_command("NoPruning")
    report = graded(folder, command, monkeypatch)
    figure = next(t for t in report.tests if t.name == "AIMA Figure 5.2")
    assert figure.value_right and not figure.leaves_right
    assert figure.causes == (NO_PRUNING,)
    assert f"Likely cause: {NO_PRUNING}." in figure.output
    assert report.score < report.max_score


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_an_endless_loop_costs_one_test_within_the_time_limit(
    language: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = request.getfixturevalue(language)
    command = "./loops_at_a_min_root" if language == "cpp" else java_command("LoopsAtAMinRoot")
    started = time.monotonic()
    report = graded(folder, command, monkeypatch, limits=Limits(timeout=1.0))
    assert time.monotonic() - started < 4  # one test's second, and the rest
    lost = failed(report)
    assert list(lost) == ["A MIN root"]  # the program was started again for the next
    assert "it ran past the 1 s limit (an endless loop" in lost["A MIN root"]


def test_an_exit_in_the_middle_of_a_search_costs_that_test(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = failed(graded(cpp, "./exits_at_14", monkeypatch))
    assert set(lost) == WITH_14
    for text in lost.values():
        assert text.startswith(
            "Your code failed: the program ended before it answered: it ended with exit status 3"
        )


def test_an_exception_shows_the_students_own_line(
    java: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = failed(graded(java, java_command("ThrowsAt14"), monkeypatch))
    assert set(lost) == WITH_14
    text = lost["AIMA Figure 5.2"]
    assert "it ended with exit status 1" in text
    assert "java.lang.ArrayIndexOutOfBoundsException" in text
    assert "at ThrowsAt14.evaluateNode(ThrowsAt14.java:" in text


def test_a_debugging_print_on_standard_output_is_not_the_protocol(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = graded(cpp, "./prints_debugging", monkeypatch)
    assert report.score == 0
    for test in report.tests:
        assert "the program wrote 'Evaluating leaf " in test.output
        assert "not a request of the protocol" in test.output
        assert "goes to standard error" in test.output


def test_debugging_output_on_standard_error_is_shown_and_costs_nothing(
    java: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = graded(java, java_command("DebugsToStderr"), monkeypatch)
    assert full(report), failed(report)
    figure = next(t for t in report.tests if t.name == "AIMA Figure 5.2")
    assert figure.output.endswith(
        "Your code printed:\n  Evaluating leaf 2\n  Evaluating leaf 3\n  Evaluating leaf 4\n"
        "  Evaluating leaf 6\n  Evaluating leaf 10\n  Evaluating leaf 11\n  Evaluating leaf 12"
    )


def test_a_program_that_never_flushes_its_output_cannot_be_graded(
    cpp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SubmissionError, match=r"wrote no request within the 0\.5 s limit"):
        graded(cpp, "./fast_io_never_flushes", monkeypatch, limits=Limits(timeout=0.5))


def test_memory_without_end_stops_at_the_limit(cpp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = time.monotonic()
    report = graded(cpp, "./hogs_memory_at_14", monkeypatch, limits=Limits(memory_mb=256))
    assert time.monotonic() - started < 10
    lost = failed(report)
    assert set(lost) == WITH_14
    assert "it was killed by SIGABRT" in lost["AIMA Figure 5.2"]  # new threw std::bad_alloc
    assert "std::bad_alloc" in lost["AIMA Figure 5.2"]


# Commands that cannot be graded --------------------------------------------------------------


def test_a_class_that_is_not_there_is_one_line_and_exit_status_1(java: Path) -> None:
    done = subprocess.run(
        [str(PLIES), "grade", "java -cp build NoSuchClass", "--form", "program"],
        cwd=java, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "error: cannot grade java -cp build NoSuchClass: it ended with exit status 1 before its "
        "first request; its standard error begins: Error: Could not find or load main class "
        "NoSuchClass\n"
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("./alphabeta", "cannot start ./alphabeta: there is no file ./alphabeta in "),
        ("alphabeta.cpp", "cannot start alphabeta.cpp: no program 'alphabeta.cpp' on PATH "
                          "(./alphabeta.cpp for the one in this folder)"),
        ("./alphabeta.cpp", "cannot start ./alphabeta.cpp: ./alphabeta.cpp is not executable"),
        ("'unclosed", "cannot read the command"),
        ("   ", "the program's command is empty"),
    ],
)  # fmt: skip
def test_a_command_that_cannot_start_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, message: str
) -> None:
    shutil.copy(EXAMPLES / "alphabeta.cpp", tmp_path)
    with pytest.raises(
        SubmissionError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
    ):
        graded(tmp_path, command, monkeypatch)


# The transcript in docs/grade-protocol.md -----------------------------------------------------


def transcript(command: list[str], folder: Path, tree_text: str) -> list[str]:
    """Every line of one search of ``tree_text`` by the program ``command``, as
    ``"plies    LINE"`` (the grader's) and ``"program  LINE"`` (the program's)."""
    tree = parse(tree_text)
    test = {"tree": {"kind": list(tree.kind), "children": [list(k) for k in tree.children],
                     "value": list(tree.value), "probability": list(tree.probability)}}  # fmt: skip
    lines: list[str] = []
    with subprocess.Popen(command, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as program:  # fmt: skip
        assert program.stdin is not None and program.stdout is not None
        stdin, stdout = program.stdin, program.stdout

        def send(line: str) -> None:
            lines.append(f"plies    {line}")
            stdin.write(line + "\n")
            stdin.flush()

        def read() -> str:
            line = stdout.readline().rstrip("\n")
            lines.append(f"program  {line}")
            return line

        assert converse(test, send, read)["ok"]
        stdin.close()
    return lines


def test_the_documented_transcript_is_what_the_cpp_example_does(cpp: Path) -> None:
    page = (EXAMPLES.parents[1] / "grade-protocol.md").read_text()
    block = page.split("## One search, line by line", 1)[1].split("```text\n", 1)[1]
    shown = [line.split("  #")[0].rstrip() for line in block.split("```", 1)[0].splitlines()]
    before, after = shown[: shown.index("...")], shown[shown.index("...") + 1 :]
    done = transcript(["./alphabeta"], cpp, "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert done[: len(before)] == before
    assert done[-len(after) :] == after
    values = [line.split()[-1] for line in done if line.startswith("program  value")]
    assert values == ["2", "3", "4", "6", "10", "11", "12"]  # the leaves the page names
