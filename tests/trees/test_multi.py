"""N-player explicit trees: reading them, and max^n, paranoid and Best-Reply Search
against plain brute-force references on random trees (ties included)."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies.trees._multi
from plies.errors import LimitError, ParseError, SearchError, TreeError
from plies.trees import minimax, parse
from plies.trees._multi import (
    MAX_MULTI_DEPTH,
    MultiTree,
    best_reply,
    is_multi_text,
    maxn,
    multi_tree,
    multi_tree_lines,
    paranoid,
    parse_multi,
    random_multi_tree,
    search_multi,
)

THREE = '{"players": 3, "tree": [[[1,2,3],[4,1,1]], [[2,5,0],[3,3,3]]]}'


def test_doctests() -> None:
    failures, tried = doctest.testmod(plies.trees._multi)
    assert tried > 0 and failures == 0


# Plain references: whole-tree recursions, no pruning, ties to the leftmost -------------


def ref_maxn(tree: MultiTree, node: int = 0) -> tuple[tuple[float, ...], list[int]]:
    """The vector and the principal line (node ids below ``node``)."""
    kids = tree.children[node]
    if not kids:
        value = tree.value[node]
        assert value is not None
        return value, []
    p = tree.player[node]
    found = [ref_maxn(tree, c) for c in kids]
    k = max(range(len(kids)), key=lambda i: (found[i][0][p], -i))
    return found[k][0], [kids[k], *found[k][1]]


def ref_paranoid(tree: MultiTree, me: int, node: int = 0) -> tuple[float, list[int]]:
    kids = tree.children[node]
    if not kids:
        value = tree.value[node]
        assert value is not None
        return value[me], []
    found = [ref_paranoid(tree, me, c) for c in kids]
    sign = 1 if tree.player[node] == me else -1
    k = max(range(len(kids)), key=lambda i: (sign * found[i][0], -i))
    return found[k][0], [kids[k], *found[k][1]]


def layer_ends(tree: MultiTree, me: int, head: int) -> list[tuple[tuple[int, int], list[int]]]:
    """Every line from ``head`` down opponents' nodes to a node of ``me`` or a leaf that
    leaves the first move at most once, with the key that orders the replies (the depth
    of the one free move, then its place; ``(0, 0)`` for first moves all the way)."""
    out: list[tuple[tuple[int, int], list[int]]] = []

    def walk(node: int, line: list[int], key: tuple[int, int] | None) -> None:
        kids = tree.children[node]
        if not kids or (tree.player[node] == me and node != head):
            out.append((key or (0, 0), line))
            return
        for k, child in enumerate(kids):
            if k == 0:
                walk(child, [*line, child], key)
            elif key is None:
                walk(child, [*line, child], (len(line), k))

    walk(head, [], None)
    return out


def ref_brs(tree: MultiTree, me: int, node: int = 0) -> tuple[float, list[int]]:
    kids = tree.children[node]
    if not kids:
        value = tree.value[node]
        assert value is not None
        return value[me], []
    if tree.player[node] == me:
        found = [ref_brs(tree, me, c) for c in kids]
        k = max(range(len(kids)), key=lambda i: (found[i][0], -i))
        return found[k][0], [kids[k], *found[k][1]]
    replies = sorted(layer_ends(tree, me, node))
    found = [ref_brs(tree, me, line[-1]) for _key, line in replies]
    k = min(range(len(replies)), key=lambda i: (found[i][0], i))
    return found[k][0], [*replies[k][1], *found[k][1]]


# Random trees ----------------------------------------------------------------------------


@st.composite
def nested_trees(draw: st.DrawFn, players: int, depth: int = 4) -> Any:
    """A node of a random tree: small values (ties are common), ragged shapes, and
    explicit players on some inner nodes."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        return draw(st.lists(st.integers(-3, 3), min_size=players, max_size=players))
    children = draw(st.lists(nested_trees(players, depth - 1), min_size=1, max_size=3))
    if draw(st.booleans()):
        return {"children": children, "player": draw(st.integers(0, players - 1))}
    return children


@st.composite
def multi_trees(draw: st.DrawFn) -> MultiTree:
    players = draw(st.integers(2, 4))
    return multi_tree(draw(nested_trees(players)), players=players)


@settings(max_examples=300)
@given(multi_trees())
def test_maxn_equals_the_reference_with_leftmost_ties(tree: MultiTree) -> None:
    value, line = ref_maxn(tree)
    result = maxn(tree)
    assert result.value == value
    assert result.pv == [0, *line]
    assert sorted(result.evaluated) == list(range(tree.leaf_count))


@settings(max_examples=300)
@given(multi_trees(), st.data())
def test_paranoid_alphabeta_equals_plain_paranoid_minimax(tree: MultiTree, data: Any) -> None:
    me = data.draw(st.integers(0, tree.players - 1))
    value, line = ref_paranoid(tree, me)
    result = paranoid(tree, player=me)
    assert result.value == value
    assert result.pv == [0, *line]
    leaves = {tree.leaf_ids[k] for k in result.evaluated}
    assert not leaves & result.pruned
    assert len(result.evaluated) + len(result.pruned & set(tree.leaf_ids)) <= tree.leaf_count


@settings(max_examples=300)
@given(multi_trees(), st.data())
def test_brs_equals_its_plain_reference(tree: MultiTree, data: Any) -> None:
    me = data.draw(st.integers(0, tree.players - 1))
    value, line = ref_brs(tree, me)
    result = best_reply(tree, player=me)
    assert result.value == value
    assert result.pv == [0, *line]
    assert not {tree.leaf_ids[k] for k in result.evaluated} & result.pruned


@settings(max_examples=200)
@given(multi_trees(), st.data())
def test_brs_is_never_below_paranoid(tree: MultiTree, data: Any) -> None:
    """BRS's opponents choose among fewer lines than paranoid's coalition."""
    me = data.draw(st.integers(0, tree.players - 1))
    brs, coalition = best_reply(tree, player=me).value, paranoid(tree, player=me).value
    assert isinstance(brs, int) and isinstance(coalition, int)
    assert brs >= coalition


@settings(max_examples=150)
@given(st.integers(0, 10_000), st.integers(1, 3), st.integers(0, 4))
def test_two_players_zero_sum_agree_with_two_player_minimax(
    seed: int, branching: int, depth: int
) -> None:
    """With two players taking turns and ``u1 = -u0``, all three searches are minimax."""
    tree = random_multi_tree(players=2, branching=branching, depth=depth, seed=seed)
    tree.value = [None if v is None else (v[0], -v[0]) for v in tree.value]
    brackets = _brackets(tree, 0)
    expected = minimax(parse(brackets))
    assert maxn(tree).value[0] == expected.value  # type: ignore[index]
    assert paranoid(tree).value == expected.value
    assert best_reply(tree).value == expected.value
    assert maxn(tree).path == paranoid(tree).path == best_reply(tree).path == expected.path


def _brackets(tree: MultiTree, node: int) -> str:
    value = tree.value[node]
    if value is not None:
        return str(value[0])
    return "[" + ",".join(_brackets(tree, c) for c in tree.children[node]) + "]"


# Known answers --------------------------------------------------------------------------------


def test_seeded_example_where_the_three_searches_disagree() -> None:
    tree = random_multi_tree(players=3, branching=2, depth=3, seed=5)
    assert [tree.value[leaf] for leaf in tree.leaf_ids] == [
        (9, 4, 5), (8, 0, 7), (3, 0, 2), (1, 5, 7), (3, 6, 8), (1, 9, 3), (0, 3, 6), (4, 2, 6),
    ]  # fmt: skip
    m, p, b = maxn(tree), paranoid(tree), best_reply(tree)
    assert (m.value, m.path) == ((3, 6, 8), [1, 0, 0])
    assert (p.value, p.path, len(p.evaluated)) == (1, [0, 1, 1], 6)
    assert [(tree.name(c.node), [tree.name(n) for n in c.pruned]) for c in p.cutoffs] == [
        ("E", ["G"])
    ]
    # BRS at B: C then D (player 1 moves, player 2 plays its first move), then C2.
    assert (b.value, b.path) == (3, [0, 1, 0])
    assert [tree.leaf_index[tree.leaf_ids[k]] for k in b.evaluated] == [0, 2, 1, 4]
    assert [(tree.name(c.node), [tree.name(n) for n in c.pruned]) for c in b.cutoffs] == [
        ("E", ["G", "F2"])
    ]
    assert tree.leaf_ids[3] not in b.visited  # D2: player 2's second move after D


def test_root_player_changes_paranoid_and_brs() -> None:
    tree = parse_multi(THREE)
    # For player 1 the root (player 0) is MIN: B gives player 1 at most 2, C 5.
    assert (paranoid(tree, player=1).value, paranoid(tree, player=1).path) == (2, [0, 0])
    # For player 2 the root starts a MIN layer of players 0 and 1: replies B (then B1),
    # C (then C1), B2; C1 leaves player 2 nothing.
    assert (best_reply(tree, player=2).value, best_reply(tree, player=2).path) == (0, [1, 0])
    with pytest.raises(SearchError, match="from 0 to 2"):
        paranoid(tree, player=3)
    with pytest.raises(SearchError, match="no root player"):
        search_multi(tree, "maxn", player=1)
    with pytest.raises(SearchError, match="unknown N-player search"):
        search_multi(tree, "minimax")


def test_narration_and_text_drawing() -> None:
    tree = random_multi_tree(players=3, branching=2, depth=3, seed=5)
    steps = best_reply(tree, trace=True).steps
    assert steps[1] == (
        "Step 2: enter B (player 1, MIN) with alpha=-inf, beta=inf: the MIN layer of "
        "players 1 and 2, 3 replies (one opponent moves, the others play their first move)"
    )
    assert "Step 6: reply: player 1 plays D at B, first moves lead on to D1" in steps
    assert "Step 9: reply: player 2 plays C2 at C (reached by first moves)" in steps
    assert "Step 18: v=3 <= alpha=3, so G and F2 are pruned" in steps
    assert steps[-1] == "Step 21: A (player 0, MAX) is done: its value is 3"
    lines = multi_tree_lines(tree, best_reply(tree))
    assert lines[0] == "A player 0  v=3  ◀ principal line"
    assert "│       └── D2: (1, 5, 7)  (leaf 3)  · not searched" in lines
    assert "    └── G player 2  ✂ pruned" in lines
    assert (
        maxn(tree, trace=True).steps[2]
        == "Step 3: enter C (player 2): player 2 takes the child best for it"
    )
    assert multi_tree_lines(tree)[2] == "│   ├── C player 2"


# Reading -------------------------------------------------------------------------------------


def test_players_take_turns_after_the_parent_unless_a_node_says() -> None:
    tree = parse_multi(
        '{"players": 3, "tree": {"label": "R", "children": ['
        '{"player": 2, "children": [[1,2,3], {"children": [[0,0,0]], "move": "x"}]},'
        "[[4,5,6]]]}}"
    )
    assert tree.player == [0, 2, -1, 0, -1, 1, -1]
    assert tree.names == ["R", "A", "A1", "B", "B1", "C", "C1"]
    assert tree.move[3] == "x"


def test_root_object_may_carry_players_itself() -> None:
    tree = parse_multi('{"players": 2, "player": 1, "children": [[1, 2], [3, 4]]}')
    assert tree.players == 2 and tree.player[0] == 1 and tree.value[1] == (1, 2)


def test_inf_strings_are_utilities() -> None:
    tree = parse_multi('{"players": 2, "tree": [["inf", 0], [1, "-inf"]]}')
    assert maxn(tree).value == (float("inf"), 0)


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ('{"players": 3, "tree": [[1,2,3],[4,5]]}', "value at 1 has 2 numbers; this tree has 3"),
        ('{"players": 3, "tree": [[[1,2,3]], {"value": [1, 2]}]}', "value at 1 has 2 numbers"),
        ('{"players": 3, "tree": {"player": 3, "children": [[1,2,3]]}}', "player at root must"),
        ('{"players": 3, "tree": {"player": -1, "children": [[1,2,3]]}}', "from 0 to 2"),
        ('{"players": 3, "tree": {"player": true, "children": [[1,2,3]]}}', "player at root"),
        ('{"players": 2, "tree": [[1, "x"]]}', "utility 1 of the value at 0 must be a number"),
        ('{"players": 2, "tree": [{"value": "ab"}]}', "value at 0 must be a list of 2 numbers"),
        ('{"players": 2, "tree": [{"value": null}]}', "leaf at 0 has no value"),
        ('{"players": 2, "tree": [{"label": "X"}]}', "node at 0 needs a value or"),
        ('{"players": 2, "tree": [[1, 2], 5]}', "node at 1 must be an object"),
        ('{"players": 2, "tree": [[]]}', "empty list at 0"),
        ('{"players": 2, "tree": [{"value": [1,2], "player": 0}]}', "leaf at 0 has a player"),
        ('{"players": 2, "tree": {"kind": "max", "children": [[1,2]]}}', "says whose turn"),
        ('{"players": 1, "tree": [[1]]}', '"players" must be a whole number from 2'),
        ('{"players": "3", "tree": [[1,2,3]]}', '"players" must be a whole number'),
        ('{"players": 2, "tree": [[1,2]], "root": "max"}', "unknown key 'root'"),
        ('{"tree": [[1,2]]}', '"players": N at the top'),
        ('{"players": 2, "tree": [[1,2], {"value": [1,2], "children": [[1,2]]}]}', "both"),
    ],
)
def test_bad_trees_name_the_offending_node(tree: str, message: str) -> None:
    with pytest.raises(TreeError, match=message.replace("(", r"\(")):
        parse_multi(tree)


def test_bad_json_is_a_parse_error_with_its_place() -> None:
    with pytest.raises(ParseError, match="column 33"):
        parse_multi('{"players": 3, "tree": [[1,2,3],}')


def test_too_deep_a_tree_is_refused() -> None:
    node: Any = [1, 2]
    for _ in range(MAX_MULTI_DEPTH + 1):
        node = [node]
    with pytest.raises(LimitError, match=f"at most {MAX_MULTI_DEPTH} levels"):
        parse_multi(json.dumps({"players": 2, "tree": node}))


def test_is_multi_text_tells_players_trees_from_others() -> None:
    assert is_multi_text(THREE)
    assert is_multi_text('  {"tree": [[1,2]], "players": 2}')
    assert not is_multi_text("[[3,12,8],[2,4,6],[14,5,2]]")
    assert not is_multi_text('{"tree": [1, 2], "label": "players"}')
    assert not is_multi_text('{"players": 3, ')
    deep = "[" * 5000 + "1" + "]" * 5000
    assert is_multi_text('{"players": 2, "tree": ' + deep.replace("1", "[1, 2]", 1) + "}")
    assert not is_multi_text('{"tree": ' + deep + ', "root": "max", "x": "players"}')


def test_random_trees_are_seeded() -> None:
    one = random_multi_tree(players=4, branching=3, depth=2, seed=9)
    two = random_multi_tree(players=4, branching=3, depth=2, seed=9)
    assert one.value == two.value and one.leaf_count == 9 and one.player[:2] == [0, 1]
    assert random_multi_tree(players=4, branching=3, depth=2, seed=10).value != one.value
    with pytest.raises(TreeError, match="at most 100,000 leaves"):
        random_multi_tree(branching=10, depth=6)
