"""Reading trees in every notation, and the errors for bad input."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given

from plies.errors import ParseError, PliesError, TreeError
from plies.trees import alphabeta, format_number, from_leaves, minimax, parse
from plies.trees._format import format_tree
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
