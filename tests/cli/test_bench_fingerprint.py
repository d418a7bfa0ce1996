"""``plies bench``'s fingerprint, pinned: the node count of each of its searches and
their total.

The bench's searches are deterministic, so these numbers change only when the engine
or a game's rules, move order or evaluation change. A refactoring that should not
change behaviour must leave them as they are; a change that means to alter a search
updates them here and says so in its commit message.
"""

from __future__ import annotations

import json

import pytest

from plies.cli import main

#: Each search of ``plies bench`` (label: nodes) on its default backends.
NODES = {
    "tic-tac-toe solve": 1736,
    "tic-tac-toe alphabeta depth 9": 23418,
    "nim 3,4,5 solve": 1059,
    "m,n,k 4,4,3 depth 7": 8108,
    "connect4 start depth 10": 45607,
    "connect4 4453 depth 8 mtdf": 16291,
    "connect4 22-stone solve": 6794,
    "othello start depth 5": 483,
    "pig start depth 5": 4787,
}

#: The fingerprint ``plies bench`` prints.
FINGERPRINT = 108283


def bench(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, object]:
    """``plies bench --json`` run in this process, its document read."""
    assert main(["bench", "--json", *options]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_the_fingerprint_is_pinned(capsys: pytest.CaptureFixture[str]) -> None:
    """Every search's node count and their total are the pinned ones."""
    document = bench(capsys)
    searches = document["searches"]
    assert isinstance(searches, list)
    assert {row["label"]: row["nodes"] for row in searches} == NODES
    assert document["nodes"] == FINGERPRINT == sum(NODES.values())


def test_the_python_engine_counts_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    """On the Python engine alone every search visits the same nodes (the native
    searches the default runs are the Python engine's, node for node)."""
    searches = bench(capsys, "--backend", "python")["searches"]
    assert isinstance(searches, list)
    assert {row["label"]: row["nodes"] for row in searches} == NODES
    assert {row["backend"] for row in searches} == {"python"}
