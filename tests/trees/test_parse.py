"""Reading trees in every notation, and the errors for bad input."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plies.errors import ArgumentTypeError, LimitError, ParseError, PliesError, TreeError
from plies.trees import (
    Tree,
    _parse,
    alphabeta,
    format_number,
    from_leaves,
    minimax,
    parse,
    parse_number,
)
from plies.trees._format import format_tree
from plies.trees._parse import _read_brackets, _Source
from strategies import ragged_trees

DATA = Path(__file__).parent / "data"


def leaves(text: str, **kw: object) -> list[object]:
    tree = parse(text, **kw)  # type: ignore[arg-type]
    return [tree.value[n] for n in tree.leaf_ids]


def test_nested_lists_json_style_and_parentheses_agree() -> None:
    a = parse("[[3,12,8],[2,4,6],[14,5,2]]")
    b = parse("((3 12 8)(2 4 6)(14 5 2))")
    c = parse("[ [3, 12, 8], [2 4 6], ( 14, 5, 2 ) ]")
    for t in (b, c):
        assert t.parent == a.parent and t.value == a.value and t.kind == a.kind


def test_labelled_tree_keeps_labels() -> None:
    tree = parse("A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))")
    assert [tree.label[n] for n in range(len(tree)) if tree.kind[n] != "leaf"] == list("ABDECFG")
    assert tree.kind[:3] == ["max", "min", "max"]
    labelled_leaves = parse("A(B(x:1, y=2), C(z:-inf))")
    assert [labelled_leaves.label[n] for n in labelled_leaves.leaf_ids] == ["x", "y", "z"]


def test_numbers() -> None:
    assert leaves("[1, -2, 3.5, .5, 1e2, inf, -inf, +inf, Infinity, ∞]") == [
        1,
        -2,
        3.5,
        0.5,
        100.0,
        math.inf,
        -math.inf,
        math.inf,
        math.inf,
        math.inf,
    ]


def test_ragged_and_single_child() -> None:
    tree = parse("[[[1]], 2, [3, [4, 5]]]")
    assert tree.leaf_count == 5
    assert tree.uniform_shape() is None
    assert alphabeta(tree).value == minimax(tree).value


def test_flat_form() -> None:
    tree = parse("3,5,6,9,1,2,0,-1", branching=2)
    assert tree.uniform_shape() == (2, 3)
    assert [tree.value[n] for n in tree.leaf_ids] == [3, 5, 6, 9, 1, 2, 0, -1]
    assert parse("3 5 6 9", branching=2).uniform_shape() == (2, 2)


@pytest.mark.parametrize(
    ("count", "branching"),
    [(7, 2), (6, 3), (1, 2), (10, 3)],
)
def test_flat_form_leaf_count_must_fit(count: int, branching: int) -> None:
    with pytest.raises(TreeError, match=f"{count} leaves do not fill a complete {branching}-ary"):
        from_leaves(list(range(count)), branching=branching)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[3,12,8],[2,4,6)", "expected ',' or ']' at column 17, found ')'"),
        ("[[3,12,8],[2,4,6]", "expected ',' or ']' at column 18, found end of input"),
        ("[3,,4]", "expected a number, a label or an opening bracket at column 4, found ','"),
        ("[3;4]", "unexpected character ';' at column 3"),
        ("", "the tree is empty"),
        ("   ", "the tree is empty"),
        ("[]", "empty brackets"),
        ("[1,2] 3", "unexpected text after the end of the tree at column 7"),
        ("[1, x]", "expected '(' or ':' after the label 'x' at column 6, found ']'"),
        ("[1, two]", "expected '(' or ':' after the label 'two'"),
        ("[1, 2]]", "unmatched ']' at column 7"),
        ("3,4", "unexpected ',' after the end of the tree"),
        ("[1,\n 2,\n 3)", "expected ',' or ']' at line 3, column 3, found ')'"),
    ],
)
def test_bracket_errors_name_the_position(text: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_json_form_says_everything() -> None:
    text = """{"tree": {"label": "A", "children": [
        {"label": "B", "kind": "chance", "static": 2, "children": [
            {"p": 0.25, "value": 8}, {"probability": 0.75, "value": "-inf", "move": "roll"}]},
        {"label": "C", "kind": "min", "children": [1, [2, 3]]}]},
      "bounds": [-100, 100]}"""
    with pytest.raises(TreeError, match="outside the bounds"):
        parse(text)
    tree = parse(text.replace('"-inf"', "-4"))
    assert tree.kind[:2] == ["max", "chance"]
    assert tree.static[1] == 2
    assert tree.probability[2:4] == [0.25, 0.75]
    assert tree.move[3] == "roll"
    assert tree.bounds == (-100, 100)
    assert tree.kind[tree.node_at([1, 1])] == "max"  # alternates below C (MIN)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"kind": "chance", "children": [{"p": 0.5, "value": 1}, {"p": 0.4, "value": 2}]}',
            "sum to 0.9, not 1",
        ),
        ('{"kind": "chance", "children": [{"p": 0.5, "value": 1}, 2]}', "give all or none"),
        ('{"children": [{"p": 0.5, "value": 1}, 2]}', "not a chance node"),
        ('{"childs": [1]}', "unknown key 'childs'"),
        ('{"players": 3, "tree": [[1, 2, 3]]}', "N-player tree: search it with max"),
        ('{"children": [1, "x"]}', "must be a number, not 'x'"),
        ('{"children": [1, true]}', "must be a number, not true"),
        ('{"kind": "maxi", "children": [1]}', "unknown kind"),
        ('{"children": [1, 2}', "invalid JSON"),
        ('{"value": 1, "children": [2]}', "both a value and children"),
    ],
)
def test_json_errors(text: str, message: str) -> None:
    with pytest.raises(PliesError, match=message):
        parse(text)


def test_equally_likely_outcomes_by_default() -> None:
    tree = parse('{"kind": "chance", "children": [1, 2, 3, 4]}')
    assert tree.probability[1:] == [0.25] * 4


def test_cs188_two_agents() -> None:
    tree = parse((DATA / "aima-two-agents.test").read_text())
    assert tree.hints == {"algorithm": "alphabeta", "strict": True}
    assert tree.label[:3] == ["A", "B", "b1"]
    assert tree.move[1] == "Left"
    result = alphabeta(tree, strict=True)
    assert result.value == 3
    assert tree.move[result.pv[1]] == "Left"


def test_cs188_depth_counts_rounds_of_all_agents() -> None:
    tree = parse((DATA / "three-agents-depth.test").read_text())
    # s (MAX) -> a, b (ghost 1) -> w/a2, l/b2 (ghost 2 at a2, b2 would move next, but
    # depth 1 ends after each of the 3 agents moved once: a2 and b2 are expanded once).
    kinds = {tree.label[n]: tree.kind[n] for n in range(len(tree))}
    assert kinds["s"] == "max" and kinds["a"] == "min" and kinds["a2"] == "min"
    assert kinds["w"] == "leaf" and kinds["deep"] == "leaf"
    assert minimax(tree).value == max(min(10, 100), min(-10, -100))


def test_cs188_errors() -> None:
    with pytest.raises(ParseError, match="no 'evaluation' field"):
        parse('successors: """\na x b\n"""\nnum_agents: "2"\ndepth: "1"\nstart_state: "a"\n')
    with pytest.raises(ParseError, match="must be in double quotes at column 13"):
        parse("successors: x\n")


@given(ragged_trees())
def test_format_tree_reads_back(tree) -> None:
    again = parse(format_tree(tree), root=tree.kind[0] if tree.kind[0] != "leaf" else "max")
    assert again.parent == tree.parent
    assert [format_number(v) for v in again.value if v is not None] == [
        format_number(v) for v in tree.value if v is not None
    ]


def test_json_form_reads_back() -> None:
    text = (
        '{"tree":{"kind":"chance","children":[{"p":0.5,"value":3},'
        '{"p":0.5,"kind":"min","children":[1,2]}]},"bounds":[0,5]}'
    )
    tree = parse(text)
    assert format_tree(tree) == text


def test_deep_json_chain() -> None:
    depth = 20_000
    text = '{"tree": ' + '{"children": [' * depth + "1" + "]}" * depth + "}"
    tree = parse(text)
    assert tree.height == depth
    assert alphabeta(tree, trace=False).value == 1


def test_numeric_labels_need_the_bracket_against_them() -> None:
    labelled = parse("1(2(3,4),5(6,7))")
    assert [labelled.label[n] for n in range(len(labelled)) if labelled.kind[n] != "leaf"] == [
        "1",
        "2",
        "5",
    ]
    ragged = parse("(1 (2 3))")
    assert ragged.leaf_count == 3 and ragged.label == [None] * 5


def test_byte_order_mark_is_ignored() -> None:
    assert parse("\ufeff[[1,2],[3,4]]\r\n").leaf_count == 4


# Arguments of the wrong type or value ----------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: parse(None), ArgumentTypeError, "the tree text must be a string, not NoneType"),
        (lambda: parse(b"[1,2]"), ArgumentTypeError, "not bytes (decode bytes first)"),
        (lambda: parse("[1,2]", notation="xml"), ParseError, "unknown notation 'xml'"),
        (lambda: parse("[1,2]", notation=None), ParseError, "unknown notation None"),
        (lambda: parse("[1,2]", root="mid"), TreeError, "root must be 'max' or 'min'"),
        (lambda: parse("[1,2]", root=1), ArgumentTypeError, "root must be 'max' or 'min'"),
        (lambda: parse("1,2", branching=True), ArgumentTypeError, "branching must be a whole"),
        (lambda: parse("1,2", branching="2"), ArgumentTypeError, "branching must be a whole"),
        (lambda: parse("1,2", branching=1), TreeError, "at least 2, not 1"),
        (lambda: parse("1,2", branching=2.0), ArgumentTypeError, "(float)"),
        (lambda: from_leaves(["a", "b"], branching=2), ArgumentTypeError, "leaf 0"),
        (lambda: from_leaves([1, True], branching=2), ArgumentTypeError, "leaf 1"),
        (lambda: from_leaves("1234", branching=2), ArgumentTypeError, "parse a text of leaves"),
        (lambda: from_leaves(7, branching=2), ArgumentTypeError, "not int"),
        (lambda: from_leaves([1, 2], branching=0), TreeError, "at least 2"),
        (lambda: from_leaves([1, 2], branching=2, root="x"), TreeError, "root must be"),
        (lambda: from_leaves([1, math.nan], branching=2), TreeError, "leaf 1 (counting from 0)"),
        (lambda: from_leaves([1.5, 10**301], branching=2), TreeError, "302 digits"),
        (lambda: parse_number(3), ArgumentTypeError, "needs a string, not int"),
    ],
)
def test_bad_arguments_raise_plies_errors(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_from_leaves_accepts_plain_and_other_real_numbers() -> None:
    tree = from_leaves([1, 2.5, -math.inf, Fraction(1, 4)], branching=2)
    assert [tree.value[n] for n in tree.leaf_ids] == [1, 2.5, -math.inf, 0.25]


# NaN, numbers out of range -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("[1, nan]", ParseError, "NaN (not a number) cannot be a leaf value at column 5"),
        ("[1, NaN, 2]", ParseError, "NaN (not a number) cannot be a leaf value at column 5"),
        ("[1, 2, 3, NaN]", ParseError, "NaN"),
        ('{"children": [1, NaN]}', ParseError, "NaN (not a number) cannot be a value at column 18"),
        ('{"children": [1, "nan"]}', TreeError, "the leaf at 1 'nan' (not a number)"),
        ('{"static": NaN, "children": [1]}', ParseError, "NaN"),
        ('{"kind": "chance", "children": [{"p": NaN, "value": 1}]}', ParseError, "NaN"),
        ('{"tree": [1, 2], "bounds": [NaN, 3]}', ParseError, "NaN"),
        ('{"tree": [1, 2], "bounds": ["nan", 3]}', TreeError, "the low bound"),
        ("[1, 1e400]", ParseError, "the number '1e400' is out of range"),
        ("[1e400, 1]", ParseError, "out of range (floats reach about 1.8e308; write inf"),
        ("[[1, 2], [3, -1e400]]", ParseError, "out of range"),
        ("((1 2) (3 1e400))", ParseError, "out of range"),
        ("A(x:1e400, y:1)", ParseError, "out of range"),
        ('{"children": [1, 1e400]}', ParseError, 'write "inf" for an infinite value) at column 18'),
        ('{"children": [1, "1e400"]}', TreeError, "the leaf at 1 the number '1e400' is out"),
        ("[1, " + "9" * 5000 + "]", ParseError, "a number of 5,000 digits is out of range"),
        ("[1, -" + "9" * 301 + "]", ParseError, "301 digits is out of range (plies reads whole"),
        ("(1 " + "9" * 400 + ")", ParseError, "400 digits"),
        ("A(x:" + "9" * 4301 + ")", ParseError, "4,301 digits"),
        ('{"children": [1, ' + "9" * 5000 + "]}", ParseError, "5,000 digits"),
        ("1, " + "9" * 5000, ParseError, "5,000 digits"),
    ],
)
def test_nan_and_numbers_out_of_range_are_refused(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        parse(text, branching=2 if text.startswith("1, ") else None)


def test_numbers_at_the_limits_are_read() -> None:
    big = int("9" * 300)
    assert leaves(f"[1, {big}, -{big}]") == [1, big, -big]
    assert leaves("[1.5e308, -1.5e308, inf]") == [1.5e308, -1.5e308, math.inf]
    assert leaves("[0." + "0" * 400 + "1, 1]") == [1e-401, 1]  # long decimals are fine
    assert leaves('{"children": [Infinity, -Infinity, "inf"]}') == [math.inf, -math.inf, math.inf]
    assert leaves('{"children": [1e308, ' + str(big) + "]}") == [1e308, big]
    assert parse_number("  -12 ") == -12
    with pytest.raises(ValueError, match="out of range"):
        parse_number("-1e999")
    with pytest.raises(ValueError, match=r"cannot be a value"):
        parse_number("nan")


# Control characters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"label": "A\\u001b]0;owned\\u0007", "children": [1]}', "U+001B (written \\u001b)"),
        ('{"children": [{"label": "x\\ny", "value": 1}]}', "U+000A (written \\n)"),
        ('{"children": [{"move": "\\u202eleft", "value": 1}]}', "U+202E"),
        ('{"children": [{"label": "x\x85", "value": 1}]}', "control character U+0085"),
        ('{"label": "x\x1b", "children": [1]}', "control character U+001B"),
        ("A(B\x1b:1, C:2)", "control character U+001B is not allowed at column 4"),
        ("[1,\n 2\x07]", "control character U+0007 is not allowed at line 2, column 3"),
        ("[1, 2\x00]", "U+0000"),
        ("1,2,\x7f3,4", "U+007F"),
    ],
)
def test_control_characters_are_refused_by_position(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)):
        parse(text, branching=2 if text.startswith("1,") else None)


def test_escaped_backslashes_are_not_control_characters() -> None:
    tree = parse('{"label": "a\\\\nb", "children": [1]}')  # the label is a\nb, 4 characters
    assert tree.label[0] == "a\\nb"
    assert parse("[1,\t2]\r\n").leaf_count == 2


# The fast readers agree with the full reader -------------------------------------------------


def slow_read(text: str, root: str = "max") -> Tree:
    return _read_brackets(_Source(text), root)


@given(ragged_trees(), st.sampled_from(["json", "spaces", "parens", "parens-commas"]))
def test_fast_paths_agree_with_the_full_reader(tree: Tree, style: str) -> None:
    text = format_tree(tree, notation="brackets")
    if style != "json":
        text = text.replace(",", " " if style != "parens-commas" else ", ")
    if style.startswith("parens"):
        text = text.replace("[", "(").replace("]", ")")
    fast, slow = parse(text), slow_read(text)
    assert fast.parent == slow.parent == tree.parent
    assert fast.value == slow.value
    assert fast.kind == slow.kind


@pytest.mark.parametrize(
    "text",
    [
        "[1,,2]",
        "[,1]",
        "[1,]",
        "[[1],[]]",
        "[1](2)",
        "[1 2)",
        "(1 2]",
        "[1 2",
        "[1]]",
        "1(2,3)",
        "[1-2]",
        "[1e]",
        "[.]",
        "[+]",
        ",[1]",
        "[1],",
        "[1 [2 3] (4)]x",
    ],
)
def test_fast_paths_leave_errors_to_the_full_reader(text: str) -> None:
    try:
        expected: object = slow_read(text).parent
    except PliesError as exc:
        expected = str(exc)
    try:
        got: object = parse(text).parent
    except PliesError as exc:
        got = str(exc)
    assert got == expected


def test_a_million_leaves_read_back() -> None:
    tree = from_leaves(list(range(10**6)), branching=10)
    again = parse(format_tree(tree))
    assert again.parent == tree.parent and again.value == tree.value
    assert again.kind[:2] == ["max", "min"] and again.height == 6


def test_too_many_nodes_is_a_limit_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parse, "MAX_NODES", 10)
    for text in [
        "[" + ",".join(["1"] * 12) + "]",
        "(" + " ".join(["1"] * 12) + ")",
        "A(" + ",".join(["x:1"] * 12) + ")",
        '{"children": [' + ",".join(["1"] * 12) + "]}",
    ]:
        with pytest.raises(LimitError, match="more than 10 nodes, the most plies reads"):
            parse(text)


def test_deep_nesting_beyond_the_json_reader() -> None:
    depth = 50_000
    tree = parse("[" * depth + "1" + "]" * depth)
    assert tree.height == depth and tree.leaf_count == 1


def test_json_leaf_without_a_value() -> None:
    tree = parse('{"children": [{"label": "a", "value": null}, 2]}')
    assert tree.value == [None, None, 2] and tree.kind == ["max", "leaf", "leaf"]
    with pytest.raises(TreeError, match="must be a number, not null"):
        parse('{"children": [null, 2]}')


def test_json_pictures_read_and_write_back() -> None:
    text = (
        '{"tree": {"picture": ["x.", ".o"], '
        '"children": [{"value": 1, "picture": ["xx", ".o"]}, 2]}}'
    )
    tree = parse(text)
    assert tree.pictures == {0: ["x.", ".o"], 1: ["xx", ".o"]}
    assert parse(format_tree(tree)).pictures == tree.pictures


@pytest.mark.parametrize(
    "picture", ['"x"', "[]", "[1]", '["' + "x" * 41 + '"]', "[" + '"x",' * 16 + '"x"]']
)
def test_json_pictures_must_be_a_few_short_rows(picture: str) -> None:
    with pytest.raises(TreeError, match="picture"):
        parse('{"tree": {"picture": ' + picture + ', "children": [1, 2]}}')


# Labels in any alphabet --------------------------------------------------------------


def test_labels_take_letters_beyond_ascii() -> None:
    tree = parse("Ω(ü(3,5),é(2,9))")
    assert tree.label == ["Ω", "ü", None, None, "é", None, None]
    leafy = parse("Ω(x:1, αβ=2, 中文:3)")
    assert [leafy.label[n] for n in leafy.leaf_ids] == ["x", "αβ", "中文"]
    # An accent written as its own mark (u + U+0308) stays with its letter, as typed;
    # scripts whose words carry marks (Devanagari) read as one label.
    assert parse("A(u\u0308:1, हिंदी:2)").label[1:] == ["u\u0308", "हिंदी"]
    assert parse("Straße_2'(Ä1:3, ŷ:4)").label == ["Straße_2'", "Ä1", "ŷ"]
    assert alphabeta(parse("Ω(ü(3,5),é(2,9))")).value == 3
    # The other notations with labels: JSON takes any string, CS188 any state name.
    assert parse('{"tree": {"label": "Ω", "children": [{"label": "ü", "value": 1}]}}').label == [
        "Ω",
        "ü",
    ]
    cs188 = (
        'num_agents: "2"\ndepth: "1"\nstart_state: "Ω"\n'
        'successors: """\nΩ links ü\nΩ rechts é\n"""\nevaluation: """\nü 3\né 5\n"""\n'
    )
    assert parse(cs188).label == ["Ω", "ü", "é"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ω(ü(3,5),é(2,x))", "expected '(' or ':' after the label 'x' at column 15, found ')'"),
        ("中(文:3, 字½:4)", "unexpected character '½' at column 9"),
        ("Ω(→:3)", "unexpected character '→' at column 3"),
        ("Ω(ü:3, 2é:4)", "unexpected character '2' at column 8"),
        ("Ω(ü:3,\u0308é:4)", "unexpected character U+0308 at column 7"),
        ("Ω(ü:3, é(2,9)", "expected ',' or ')' at column 14, found end of input"),
        ("Ω(ü:3, é：4)", "unexpected character '：' at column 9"),
    ],
)
def test_errors_after_letters_beyond_ascii_name_the_right_column(text: str, message: str) -> None:
    """Digits, brackets, commas, ':' and symbols keep their meaning: a label neither
    starts with a digit nor takes a symbol or a fraction, and columns count characters."""
    with pytest.raises(ParseError) as info:
        parse(text)
    assert message in str(info.value)


_LETTERS = st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo"])
_LABEL_TAIL = st.characters(
    categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd"], include_characters="_'"
)
_NOT_NUMBERS = ("inf", "infinity", "nan")  # these words are numbers (or refused as one)
unicode_labels = st.builds(
    lambda first, tail: first + tail, _LETTERS | st.just("_"), st.text(_LABEL_TAIL, max_size=4)
).filter(lambda label: label.lower() not in _NOT_NUMBERS)


@given(ragged_trees(), st.data())
def test_unicode_labels_read_back(tree: Tree, data: st.DataObject) -> None:
    """Labels of letters of any alphabet (with marks, digits, '_' and "'" after the
    first) survive format_tree and parse, in brackets and in the automatic notation."""
    tree.label = [data.draw(unicode_labels) for _ in range(len(tree))]
    root = tree.kind[0] if tree.kind[0] != "leaf" else "max"
    for notation in ("brackets", "auto"):
        again = parse(format_tree(tree, notation), root=root)  # type: ignore[arg-type]
        assert again.label == tree.label and again.parent == tree.parent
