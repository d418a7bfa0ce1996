"""Fuzzing the tree command line: whatever text a student types, ``plies tree`` answers
with a result (exit 0) or one ``error:`` line (exit 1), never a traceback.

The text comes from valid trees of every notation with characters deleted, doubled,
swapped or replaced, and from raw characters that matter to the parsers (brackets,
quotes, signs, exponents, control characters, huge numbers). The games' POSITION
fuzzing lives in tests/games/test_fuzz.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.cli import main

DATA = Path(__file__).parents[1] / "trees" / "data"

SEEDS = [
    "[[3,12,8],[2,4,6],[14,5,2]]",
    "((3 12 8)(2 4 6)(14 5 2))",
    "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))",
    "A(B:3,C(D:-inf,E:2.5))",
    "3,5,6,9,1,2,0,-1",
    '{"tree": {"label": "A", "children": [{"kind": "chance", "children": '
    '[{"p": 0.5, "value": 3}, {"p": 0.5, "value": 5}]}, {"kind": "chance", "static": 2, '
    '"children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 20}]}]}, "bounds": [0, 20]}',
    (DATA / "aima-two-agents.test").read_text(encoding="utf-8"),
]

#: Characters the parsers treat specially, and some they should refuse.
SPECIAL = [
    *"[](){},:;\"'=.-+eE0123456789 \n\t",
    "inf",
    "nan",
    "1e400",
    "9" * 5000,
    "\x1b]0;pwned\x07",
    "\x00",
    "\u202e",
    "∞",
    '"""',
    "successors:",
    "evaluation:",
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid tree text with a few random edits."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(["delete", "double", "replace", "insert", "cut"]))
        if edit == "delete":
            text = text[:i] + text[i + 1 :]
        elif edit == "double":
            text = text[:i] + text[i] + text[i:]
        elif edit == "cut":
            text = text[:i]
        else:
            piece = draw(st.sampled_from(SPECIAL))
            text = text[:i] + piece + text[i + (edit == "replace") :]
    return text


raw = st.lists(st.sampled_from(SPECIAL), max_size=30).map("".join)
#: '-' and '@FILE' name other sources than the text itself (tested in test_tree.py).
texts = st.one_of(mutated(), raw, st.text(max_size=40)).filter(
    lambda t: t != "-" and not t.startswith("@")
)
NOTATIONS = ["auto", "brackets", "flat", "json", "cs188"]


def _check(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status = main(argv)  # anything but a PliesError escapes and fails the test
    _, err = capsys.readouterr()
    assert status in (0, 1), (argv, status)
    if status == 1:
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("error: "), err
    assert "Traceback" not in err


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, notation=st.sampled_from(NOTATIONS))
def test_tree_text_never_crashes(
    capsys: pytest.CaptureFixture[str], text: str, notation: str
) -> None:
    argv = ["tree", "--notation", notation, "--json", "--", text]
    if notation == "flat":
        argv[1:1] = ["--branching", "2"]
    _check(capsys, argv)


NUMBERISH = ["1", "-1", "0", "2.5", "-0.5", "1e400", "-1e400", "inf", "-inf", "nan", "9" * 5000]
number_lists = st.lists(
    st.one_of(st.sampled_from(NUMBERISH), st.text(max_size=3)), min_size=1, max_size=4
).map(",".join)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    leaves=st.one_of(number_lists, mutated(), raw),
    option=st.sampled_from(["--leaves", "--window", "--bounds", "--values", "--seed"]),
)
def test_option_values_never_crash(
    capsys: pytest.CaptureFixture[str], leaves: str, option: str
) -> None:
    argv = ["tree", option, leaves, "--json"]
    if option == "--leaves":
        argv += ["--branching", "2"]
    else:
        argv += ["--random", "--seed", "1"] if option in ("--values",) else ["[1,[2,3]]"]
    _check(capsys, argv)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts)
def test_batch_lines_never_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    path = tmp_path / "answers.txt"
    path.write_text(text + "\n[1,2]\n", encoding="utf-8")
    status = main(["tree", "--batch", f"@{path}"])
    out, _ = capsys.readouterr()
    assert status in (0, 1)
    assert out.strip().splitlines()[-1].startswith('{"line":')
