"""The program form's line protocol, spoken by a scripted program: what the grader
answers each request, and each line it refuses, with the reason it gives."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from plies.grade._protocol import REQUESTS_PER_NODE, converse
from plies.trees import parse


def grade_test(text: str) -> dict[str, Any]:
    """A tree as grade's tests carry it (infinities as "inf" text)."""
    tree = parse(text)

    def plain(x: Any) -> Any:
        return ("inf" if x > 0 else "-inf") if isinstance(x, float) and math.isinf(x) else x

    return {
        "tree": {
            "kind": list(tree.kind),
            "children": [list(k) for k in tree.children],
            "value": [plain(v) for v in tree.value],
            "probability": list(tree.probability),
        }
    }


FIGURE = grade_test("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
CHANCE = grade_test(
    '{"tree": {"kind": "max", "children": [{"kind": "chance", "children": '
    '[{"p": 0.25, "value": 12}, {"p": 0.75, "value": -1.5}]}, 7]}}'
)


class Script:
    """A program that writes ``lines`` in turn and records what the grader sends."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.sent: list[str] = []

    def send(self, line: str) -> None:
        self.sent.append(line)

    def read(self) -> str | None:
        return next(self.lines, None)  # None: its time ran out


def talk(test: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
    script = Script(lines)
    return converse(test, script.send, script.read), script.sent


def test_a_search_of_the_figure_gets_each_answer_and_records_reads_and_windows() -> None:
    answer, sent = talk(
        FIGURE,
        ["kind 0", "children 0", "enter 1 -inf Infinity", "children 1", "kind 2", "value 2",
         "children 2", "", "value 3", "enter 3 -Infinity 3", "result 3.0"],
    )  # fmt: skip
    assert sent == ["search", "max", "3 1 5 9", "3 2 3 4", "leaf", "3", "0", "12"]
    assert answer["ok"] and answer["value"] == 3.0
    assert answer["reads"] == [2, 3]
    assert answer["calls"] == [[1, -math.inf, math.inf, None], [3, -math.inf, 3, None]]


def test_probabilities_floats_and_infinities_are_written_so_any_language_reads_them() -> None:
    _, sent = talk(CHANCE, ["kind 1", "probability 2", "probability 3", "value 3",
                            "probability 4", "result 1.875"])  # fmt: skip
    assert sent == ["search", "chance", "0.25", "0.75", "-1.5", "1"]
    infinite = grade_test("[[1, 2], [3, 4]]")
    infinite["tree"]["value"][2] = "-inf"
    infinite["tree"]["value"][3] = math.inf
    _, sent = talk(infinite, ["value 2", "value 3", "result 0"])
    assert sent == ["search", "-Infinity", "Infinity"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("Evaluating node 3", "not a request of the protocol"),
        ("debug: alpha=3", "not a request of the protocol"),
        ("enter 3 -inf", "the request is written 'enter N ALPHA BETA'"),
        ("value", "the request is written 'value N'"),
        ("result", "the request is written 'result V'"),
        ("children 13", "there is no node 13 (ids 0 to 12)"),
        ("kind -1", "there is no node -1"),
        ("kind B", "a node id is a whole number, not 'B'"),
        ("value 1", "node 1 is not a leaf (it is MIN)"),
        ("result nan", "NaN is not a value"),
        ("result three", "'three' is not a number"),
        ("enter 1 -inf beta", "'beta' is not a number"),
    ],
)
def test_a_line_the_protocol_cannot_take_fails_the_search_and_says_why(line: str, why: str) -> None:
    answer, _ = talk(FIGURE, ["kind 0", line, "result 3"])
    assert not answer["ok"]
    assert answer["error"].startswith(f"the program wrote {line!r}: ")
    assert why in answer["error"]


def test_a_program_that_keeps_asking_is_stopped_after_its_share_of_requests() -> None:
    answer, sent = talk(FIGURE, ["kind 0"] * 10_000)
    assert not answer["ok"]
    assert f"more than {REQUESTS_PER_NODE} requests per node" in answer["error"]
    assert len(sent) == 1 + REQUESTS_PER_NODE * 13 + 10


def test_silence_is_a_timeout() -> None:
    answer, sent = talk(FIGURE, ["kind 0"])
    assert answer == {"timeout": True, "ok": False}
    assert sent == ["search", "max"]
