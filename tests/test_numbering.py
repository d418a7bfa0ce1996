"""One numbering in every output (see :mod:`plies.trees`): node paths are child indices
from 0, leaf numbers count leaves from 0, ``#k`` is the k-th leaf evaluated. What one
output prints, another takes back: ``plies tree --json`` paths and leaf numbers go
straight into ``check_answer``, and the text output's ``leaf n`` are JSON's numbers."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from plies.cli import main
from plies.lab import AnswerError, LabOptions, check_answer, read_tree, run
from plies.trees import Evaluate, alphabeta, narrate, parse
from plies.trees._render import plain_tree_lines

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
#: Two cut-offs, one of them two levels up: pruned subtrees with leaves below.
DEEP = "[[[3,5],[6,9]],[[1,2],[0,-1]],[[8,9],[7,4]]]"


def search_json(capsys: pytest.CaptureFixture[str], tree: str) -> dict[str, Any]:
    assert main(["tree", tree, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def dotted(path: list[int]) -> str:
    return ".".join(map(str, path))


@pytest.mark.parametrize("tree", [AIMA, DEEP])
def test_a_json_document_read_back_as_an_answer_is_all_right(
    capsys: pytest.CaptureFixture[str], tree: str
) -> None:
    doc = search_json(capsys, tree)
    nodes = doc["nodes"]
    searched = [n for n in nodes if n["kind"] != "leaf" and n["status"] != "pruned"]
    pruned_tops = [
        n["path"]
        for n in nodes
        if n["status"] == "pruned" and nodes[n["parent"]]["status"] != "pruned"
    ]
    result = run(read_tree(tree), LabOptions())
    # Paths as JSON arrays (in lists) and as their text (as object keys), as JSON gives them.
    answer = {
        "value": doc["value"],
        "values": {json.dumps(n["path"]): n["value"] for n in searched},
        "alpha": {json.dumps(n["path"]): n["alpha_out"] for n in searched},
        "pruned": pruned_tops,
    }
    verdict = check_answer(result, answer)
    assert verdict.correct and verdict.checked > 5, verdict.feedback
    # The same answer in dotted paths, and with the leaf numbers of "evaluated".
    answer["values"] = {dotted(n["path"]): n["value"] for n in searched}
    answer["pruned"] = [dotted(p) for p in pruned_tops]
    assert check_answer(result, answer).correct
    del answer["pruned"]
    answer["evaluated"] = doc["evaluated"]
    assert check_answer(result, answer).correct


def test_the_principal_variation_path_names_the_node_it_reaches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = search_json(capsys, DEEP)
    result = run(read_tree(DEEP), LabOptions())
    pv_inner = doc["path"][:-1]  # the last step reaches a leaf, which has no value to answer
    for key in (tuple(pv_inner), dotted(pv_inner), json.dumps(pv_inner)):
        verdict = check_answer(result, {"values": {key: doc["value"]}, "grade": ["values"]})
        assert all(f.path != tuple(pv_inner) for f in verdict.feedback), (key, verdict)


def test_feedback_paths_are_json_paths(capsys: pytest.CaptureFixture[str]) -> None:
    doc = search_json(capsys, AIMA)
    result = run(read_tree(AIMA), LabOptions())
    verdict = check_answer(result, {"value": 3, "evaluated": list(range(9))})
    paths = [f["path"] for f in verdict.to_json()["feedback"]]
    assert paths == [[1, 1], [1, 2]]  # C2 and C3 are pruned, not evaluated
    assert [n["name"] for n in doc["nodes"] if n["path"] in paths] == ["C2", "C3"]


def test_the_text_output_numbers_leaves_as_json_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = search_json(capsys, DEEP)
    assert main(["tree", DEEP, "--show-tree", "--narrate"]) == 0
    out = capsys.readouterr().out
    listed = out.split("Leaves in evaluation order: ")[1].splitlines()[0]
    assert [int(k) for k in re.findall(r"\(leaf (\d+)\)", listed)] == doc["evaluated"]
    narrated = [int(k) for k in re.findall(r"leaf number (\d+)\)", out)]
    assert narrated == doc["evaluated"]
    assert "#k is the k-th leaf evaluated, not a leaf number" in out
    # In the drawing after the search, each leaf shows its own number; #k its order.
    drawn = out.split("After the search")[1].split("Value:")[0]
    numbered = [re.search(r"(?:#(\d+)  )?\(leaf (\d+)\)", line) for line in drawn.splitlines()]
    leaves = [m for m in numbered if m is not None]
    assert [int(m[2]) for m in leaves] == list(range(doc["leaf_count"]))
    order = {int(m[2]): int(m[1]) for m in leaves if m[1] is not None}
    assert order == {leaf: k for k, leaf in enumerate(doc["evaluated"], 1)}


def test_narration_and_events_agree_on_leaf_numbers() -> None:
    result = alphabeta(parse(AIMA))
    events = [e for e in result.events if isinstance(e, Evaluate)]
    assert [e.leaf for e in events] == result.evaluated == [0, 1, 2, 3, 6, 7, 8]
    assert [e.number for e in events] == list(range(1, 8))
    line = next(line for line in narrate(result) if "D1" in line and "evaluate" in line)
    assert line.endswith("evaluate leaf D1 = 14 (#5 evaluated, leaf number 6)")
    drawn = "\n".join(plain_tree_lines(result.tree, result))
    assert "D1: 14  #5  (leaf 6)" in drawn


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("0.x", "values: '0.x' is not a path '0.1' or [0, 1] ('' or [] for the root)"),
        ("0..1", "values: '0..1' is not a path"),
        ("-1", "values: '-1' is not a path"),
        ("[0, true]", "values: '[0, true]' is not a path"),
        ("[0, 1", "values: '[0, 1' is not a path"),
        ("[0.5]", "values: '[0.5]' is not a path"),
        ("[" * 100_000, "is not a path"),
        ("9" * 5000, "is not a path"),
        ("7.0", "values: there is no node at path '7.0'"),
        ("[0, 0]", "values: '[0, 0]' is the leaf B1; give inner nodes"),
        ((True,), "values: (True,) is not a path"),
        ((0, -1), "values: (0, -1) is not a path"),
        (3, "values: 3 is not a path"),
    ],
)
def test_bad_paths_are_one_clear_error(path: Any, message: str) -> None:
    result = run(read_tree(AIMA), LabOptions())
    with pytest.raises(AnswerError, match=re.escape(message)):
        check_answer(result, {"values": {path: 3}})


def test_bad_pruned_paths_are_one_clear_error() -> None:
    result = run(read_tree(AIMA), LabOptions())
    with pytest.raises(AnswerError, match=re.escape("pruned: there is no node at path [1, 9]")):
        check_answer(result, {"pruned": [[1, 9]]})  # an array is a path: no child 9
    with pytest.raises(AnswerError, match=re.escape("pruned: [1.5] is not a path")):
        check_answer(result, {"pruned": [[1.5]]})
    assert check_answer(result, {"value": 3, "pruned": [[1, 1], "1.2"]}).correct
    assert check_answer(result, {"value": 3, "pruned": [(1, 1), "[1, 2]"]}).correct
