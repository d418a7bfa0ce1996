"""``plies tree --json`` writes its document as it makes it: the same document as
:func:`plies.lab.search_document`, in the memory of a few node entries (a 5-million-leaf
tree took 6.6 GB, 5 GB of them for a dict per node and the text)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from plies.cli import main
from plies.lab import LabOptions, read_tree, run, search_document
from plies.trees import Tree
from plies.trees._format import ENTRIES_PER_WRITE, write_result_json

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
CHANCE = (
    '{"tree": {"children": [{"kind": "chance", "children": [{"p": 0.5, "value": 3}, '
    '{"p": 0.5, "value": 20}]}, {"kind": "chance", "children": [{"p": 0.9, "value": 1}, '
    '{"p": 0.1, "value": 20}]}]}, "bounds": [0, 20]}'
)


@pytest.mark.parametrize(
    ("text", "options"),
    [
        (AIMA, LabOptions()),
        (AIMA, LabOptions(algorithm="minimax", order="random", seed=3)),
        ("A(B(D:2,E:3),C(F:-inf,G:9))", LabOptions(fail_hard=True, window=(2, 8))),
        (CHANCE, LabOptions()),
        (
            "[" + ",".join(str(i % 17 - 8) for i in range(3 * ENTRIES_PER_WRITE + 7)) + "]",
            LabOptions(),
        ),
    ],
)
def test_the_streamed_document_is_search_document(text: str, options: LabOptions) -> None:
    tree = read_tree(text)
    result = run(tree, options, trace=False)
    out = io.StringIO()
    write_result_json(result, out, extra={"notes": options.notes(tree)})
    assert out.getvalue().endswith("}\n") and out.getvalue().count("\n") == 1
    assert json.loads(out.getvalue()) == search_document(result, options)


def test_paths_left_out_are_said_so_before_the_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Tree, "paths", lambda self, limit=0: None)
    result = run(read_tree(AIMA), LabOptions(), trace=False)
    out = io.StringIO()
    write_result_json(result, out)
    doc = json.loads(out.getvalue())
    assert doc["paths_omitted"] and all(node["path"] is None for node in doc["nodes"])


def test_the_command_line_prints_the_search_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree", AIMA, "--json", "--order", "random", "--seed", "4"]) == 0
    printed = json.loads(capsys.readouterr().out)
    options = LabOptions(order="random", seed=4)
    tree = read_tree(AIMA)
    assert printed == search_document(run(tree, options, trace=False), options)
    # --random adds the tree's text and its seed, as before.
    assert main(["tree", "--random", "--seed", "5", "--depth", "3", "--json"]) == 0
    random_doc = json.loads(capsys.readouterr().out)
    assert random_doc["seed"] == 5 and read_tree(random_doc["tree"]).leaf_count > 1


def peak_mb(tmp_path: Path, *argv: str) -> int:
    """The peak memory of ``plies ARGV`` in a process of its own, in MB."""
    code = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, timeout=300)\n"
        "assert done.returncode == 0, done.returncode\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
    )
    command = [sys.executable, "-c", code, sys.executable, "-m", "plies", *argv]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=400, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_json_of_a_wide_tree_takes_little_more_memory_than_its_search(tmp_path: Path) -> None:
    # 200,000 leaves: the search peaks near 220 MB; the JSON written as a list of dicts
    # and one text added 200 MB to that, written as it is made 25 MB.
    wide = tmp_path / "wide.txt"
    wide.write_text("[" + ",".join(str(i % 199 - 99) for i in range(200_000)) + "]")
    searched = peak_mb(tmp_path, "tree", f"@{wide}", "--no-narrate", "--no-show-tree")
    written = peak_mb(tmp_path, "tree", f"@{wide}", "--json")
    assert written - searched < 80, (searched, written)
