"""The tree lab's N-player trees: reading, the JSON document, drawings and the errors
that point a two-player tree and an N-player one to the searches that read them."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import plies.draw._multi
import plies.lab._multi_tree
from plies import lab
from plies.draw import DrawError
from plies.errors import SearchError, TreeError

SEED5 = lab.random_multi(players=3, branching=2, depth=3, seed=5, values=(0, 9))


def test_doctests() -> None:
    for module in (plies.lab._multi_tree, plies.draw._multi):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0


def test_document_of_paranoid_names_the_cutoff_and_statuses() -> None:
    doc = lab.multi_document(lab.run_multi_tree(SEED5, "paranoid"))
    assert {k: doc[k] for k in ("algorithm", "players", "player", "value", "path")} == {
        "algorithm": "paranoid",
        "players": 3,
        "player": 0,
        "value": 1,
        "path": [0, 1, 1],
    }
    assert doc["path_names"] == ["B", "D", "D2"]
    assert (doc["leaf_count"], doc["leaves_evaluated"], doc["evaluated"]) == (
        8,
        6,
        [0, 1, 2, 3, 4, 5],
    )
    assert doc["cutoffs"] == [{"node": "E", "reason": "v=1 <= alpha=1", "pruned": ["G"]}]
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["G1"] == {
        "id": 13, "name": "G1", "player": None, "utilities": [0, 3, 6], "value": None,
        "status": "pruned",
    }  # fmt: skip
    assert by_name["D"]["value"] == 1 and by_name["D"]["player"] == 2
    json.dumps(doc, allow_nan=False)


def test_document_of_maxn_has_the_vector_and_no_root_player() -> None:
    doc = lab.multi_document(lab.run_multi_tree(SEED5, "maxn"))
    assert (doc["value"], doc["player"], doc["leaves_evaluated"]) == ([3, 6, 8], None, 8)
    assert doc["nodes"][0]["value"] == [3, 6, 8]


def test_brs_marks_what_it_never_looks_at() -> None:
    doc = lab.multi_document(lab.run_multi_tree(SEED5, "brs", player=0))
    statuses = {n["name"]: n["status"] for n in doc["nodes"]}
    assert statuses["D2"] == "not searched" and statuses["F2"] == "pruned"
    assert (doc["value"], doc["path_names"]) == (3, ["B", "D", "D1"])


def test_infinite_utilities_are_strict_json() -> None:
    tree = lab.read_multi_tree('{"players": 2, "tree": [["inf", 0], [1, "-inf"]]}')
    doc = lab.multi_document(lab.run_multi_tree(tree, "maxn"))
    assert doc["value"] == ["inf", 0]
    json.dumps(doc, allow_nan=False)


def test_two_player_and_n_player_trees_point_to_their_searches() -> None:
    with pytest.raises(TreeError, match="for a two-player tree use --algorithm minimax"):
        lab.read_multi_tree("[[3,12,8],[2,4,6],[14,5,2]]")
    with pytest.raises(SearchError, match="--algorithm maxn, paranoid or brs"):
        lab.check_two_player_text('{"players": 3, "tree": [[1,2,3]]}')
    lab.check_two_player_text("[[3,12,8],[2,4,6],[14,5,2]]")  # no error


def test_player_out_of_range_is_refused() -> None:
    with pytest.raises(SearchError, match="--player 3 is not a player of this tree"):
        lab.run_multi_tree(SEED5, "brs", player=3)


def test_drawings_by_extension(tmp_path: Path) -> None:
    result = lab.run_multi_tree(SEED5, "brs")
    svg = lab.write_multi_drawing(tmp_path / "brs.svg", result).read_text()
    assert svg.startswith("<svg") and svg.count('class="edge pruned"') == 4
    assert '<g id="n8" class="cutoff">' in svg and "v=3 &lt;= alpha=3" in svg
    assert "(1, 5, 7)" in svg and 'class="unseen"' in svg
    text = lab.write_multi_drawing(tmp_path / "brs.txt", result).read_text()
    assert text.splitlines()[0] == "A player 0  v=3  ◀ principal line"
    before = lab.multi_drawing(SEED5, "txt").splitlines()
    assert before[1] == "├── B player 1"
    with pytest.raises(DrawError, match=re.escape("drawn as .svg or .txt, not 'brs.png'")):
        lab.write_multi_drawing(tmp_path / "brs.png", result)
