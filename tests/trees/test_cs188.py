"""Berkeley CS188 GraphGameTreeTest files: moves, missing evaluations, checks of the
file, win and lose names that are no states (a note), Berkeley's own 82 cases, and
shared or cyclic states counted before they are expanded."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.cli import main
from plies.errors import LimitError, ParseError
from plies.trees import SearchOptions, Tree, TreeResult, _parse, minimax, parse, search


def cs188(
    successors: str,
    evaluation: str,
    *,
    depth: object = 1,
    agents: object = 2,
    start: str = "A",
    extra: str = "",
) -> str:
    """The text of a test file with these blocks."""
    return (
        f'num_agents: "{agents}"\ndepth: "{depth}"\nstart_state: "{start}"\n{extra}'
        f'successors: """\n{successors.strip()}\n"""\n'
        f'evaluation: """\n{evaluation.strip()}\n"""\n'
    )


DOUBLING = cs188("A l A\nA r A", "A 1")  # every state is A: a tree of 2^(plies+1) - 1 nodes


def test_moves_are_kept() -> None:
    tree = parse(cs188("A Left B\nA Right C\nB Down D", "C 2\nD 5"))
    assert tree.move == [None, "Left", "Down", "Right"]
    assert tree.label == ["A", "B", "D", "C"]
    assert minimax(tree).value == 5


def test_a_leaf_without_an_evaluation_line_has_no_value() -> None:
    tree = parse(cs188("A Left B\nA Right C\nC Down D", "B 2"))
    assert tree.value == [None, 2, None, None]
    assert tree.kind == ["max", "leaf", "min", "leaf"]
    assert tree.height == 2 and tree.name(3) == "D" and tree.leaf_count == 2


def test_the_depth_cut_off_leaves_need_no_evaluation_either() -> None:
    tree = parse(cs188("A x B\nB y C\nC z A", "C 1", depth=1))
    assert tree.label == ["A", "B", "C"] and tree.value == [None, None, 1]
    assert parse(cs188("A x B\nB y C\nC z A", "", depth=1)).value == [None] * 3


def test_expectimax_ghosts_are_chance_nodes() -> None:
    text = cs188(
        "A l B\nA r C\nB l b1\nB r b2", "b1 1\nb2 4\nC 0", extra='alg: "ExpectimaxAgent"\n'
    )
    tree = parse(text)
    assert tree.kind[:2] == ["max", "chance"] and tree.hints == {"algorithm": "expectiminimax"}


def test_win_and_lose_names_that_are_not_states_are_a_note() -> None:
    # Berkeley's own files do this: win_states "d1 ... d8 dx" in a tree without d1-d4.
    extra = 'win_states: "B Z Y Z"\nlose_states: "q"\n'
    tree = parse(cs188("A x B\nA y C", "B 1\nC 2", extra=extra))
    assert tree.kind == ["max", "leaf", "leaf"] and minimax(tree).value == 2
    assert tree.hints["note"] == (
        "win_states (line 4) names 'Z' and 'Y', which are not states of the test: ignored; "
        "lose_states (line 5) names 'q', which is not a state of the test: ignored"
    )
    many = " ".join(f"s{k}" for k in range(10))
    note = parse(cs188("A x B", "B 1", extra=f'win_states: "{many}"\n')).hints["note"]
    assert note == (
        "win_states (line 4) names 's0', 's1', 's2', 's3', 's4', 's5' and 4 more, which are "
        "not states of the test: ignored"
    )
    assert "note" not in parse(cs188("A x B", "B 1", extra='win_states: "B"\n')).hints


def test_the_note_reaches_the_command_line_and_its_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "1-3-minmax.test"
    path.write_text(next(c for c in berkeley_cases() if c.name == "q2/1-3-minmax").text)
    assert main(["tree", f"@{path}", "--json"]) == 0
    out, err = capsys.readouterr()
    note = (
        "win_states (line 5) names 'd1', 'd2', 'd3' and 'd4', which are not states of the "
        "test: ignored"
    )
    assert err == f"note: {note}\n"
    doc = json.loads(out)
    assert doc["notes"] == [note] and doc["action"] == "Left"
    assert main(["tree", f"@{path}"]) == 0
    assert capsys.readouterr().err == f"note: {note}\n"


# Berkeley's own cases ----------------------------------------------------------------------

BERKELEY = Path(__file__).parent / "data" / "cs188" / "berkeley-trees.txt"
AGENTS = {"minimax": "MinimaxAgent", "alphabeta": "AlphaBetaAgent", "expectimax": "ExpectimaxAgent"}


@dataclass(frozen=True)
class BerkeleyCase:
    """One CS188 tree test: its file's text and the answer its solution file expects."""

    name: str  # q2/1-3-minmax
    text: str
    move: str
    generated: str  # every state generated, sorted as CS188 sorts them


def _berkeley_test(block: list[str], agent: str) -> str:
    """The test file of one tree of berkeley-trees.txt, for one agent."""
    shape = re.fullmatch(r"(\d+) agents, depth (\d+), from (\S+)", block[0])
    assert shape is not None, block[0]
    agents, depth, start = shape.groups()
    fields = {"won at ": "win_states", "lost at ": "lose_states"}
    extra = f'alg: "{AGENTS[agent]}"\n'
    successors: list[str] = []
    evaluation: list[str] = []
    for line in block[1:]:
        prefix = next((p for p in fields if line.startswith(p)), None)
        if prefix is not None:
            extra += f'{fields[prefix]}: "{line.removeprefix(prefix)}"\n'
        elif line.startswith("scores "):
            evaluation += line.removeprefix("scores ").split(", ")
        else:
            state, moves = line.split(" -> ")
            successors += [f"{state} {move}" for move in moves.split(", ")]
    return cs188(
        "\n".join(successors),
        "\n".join(evaluation),
        depth=depth,
        agents=agents,
        start=start,
        extra=extra,
    )


@cache
def berkeley_cases() -> list[BerkeleyCase]:
    """The 82 cases of berkeley-trees.txt."""
    cases: list[BerkeleyCase] = []
    block: list[str] = []
    case = re.compile(r"(\w+) \((\S+)\) plays (\S+), generating (.*)")
    for raw in BERKELEY.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("tree "):
            block = []
        elif (m := case.fullmatch(line)) is not None:
            agent, name, move, generated = m.groups()
            cases.append(BerkeleyCase(name, _berkeley_test(block, agent), move, generated))
        else:
            block.append(line)
    return cases


def generated_states(tree: Tree, result: TreeResult) -> str:
    """The states a CS188 agent searching as ``result`` did generates, in CS188's order
    (sorted): the labels of the nodes it did not prune (a depth cut-off is no node)."""
    status = result.status
    return " ".join(sorted({tree.name(n) for n in range(len(tree)) if status[n] != "pruned"}))


def test_every_berkeley_tree_case_is_here() -> None:
    names = [case.name for case in berkeley_cases()]
    assert len(names) == len(set(names)) == 82
    assert sum(name.startswith("q4/") for name in names) == 16  # the expectimax cases
    for regression in ("1-3-minmax", "1-4-minmax", "2-3a-vary-depth", "2-4b-vary-depth"):
        assert {f"q2/{regression}", f"q3/{regression}"} <= set(names)


@pytest.mark.parametrize("case", berkeley_cases(), ids=lambda case: case.name)
def test_berkeley_cases_get_the_expected_move_and_states(case: BerkeleyCase) -> None:
    tree = parse(case.text)
    options = SearchOptions(
        algorithm=str(tree.hints["algorithm"]), strict=bool(tree.hints.get("strict", False))
    )
    result = search(tree, options)
    assert tree.move[result.pv[1]] == case.move
    assert generated_states(tree, result) == case.generated


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            cs188("A x B", "B 1", extra='alg: "MinimaxAgnet"\n'),
            "unknown alg 'MinimaxAgnet' (expected one of MinimaxAgent, AlphaBetaAgent, "
            "ExpectimaxAgent) at line 4, column 7",
        ),
        (
            cs188("A x B", "B 1\nA 2\nB 3"),
            "state 'B' has a second evaluation line (the first is at line 8) at line 10",
        ),
        (
            cs188("A x B\nA y C", "B 1\nC 2", extra='win_states: "B C"\nlose_states: "Z C"\n'),
            "state 'C' is in both win_states and lose_states at line 5, column 17",
        ),
        (cs188("A x B", "B 1", start="Q"), "start_state 'Q' has no successors and no evaluation"),
        (cs188("A x B", "B 1", start="A B"), "start_state must be one state name"),
        (cs188("A x B", "B 1", depth="two"), "depth must be a whole number, not 'two' at line 2"),
        (cs188("A x B", "B 1", depth=0), "depth must be at least 1, not 0"),
        (cs188("A x B", "B 1", agents="9" * 50), "num_agents must be a whole number"),
        (cs188("A x B", "B nan"), "the evaluation of 'B': 'nan' (not a number) cannot be a value"),
        (
            cs188("A x B", "B  1e400"),
            "the number '1e400' is out of range (floats reach about "
            "1.8e308; write inf for an infinite value) at line 8, column 4",
        ),
        (cs188("A x B", "B " + "9" * 400), "a number of 400 digits is out of range"),
        (cs188("A x B", "B 1 2"), "a evaluation line needs 'state value', got 'B 1 2' at line 8"),
        (cs188("A x\n", "B 1"), "a successors line needs 'state action next_state'"),
        (
            cs188("A x B\x1b]0;t\x07", "B 1"),
            "control character U+001B is not allowed at line 5, column 6",
        ),
        (cs188("A \u202ex B", "B 1"), "control character U+202E"),
        (
            cs188("A x B", "B 1") + 'depth: "2"\n',
            "the field 'depth' is given twice at line 10, column 1",
        ),
    ],
)
def test_file_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)):
        parse(text)


def test_a_runaway_expansion_is_stopped_before_building() -> None:
    with pytest.raises(LimitError) as info:
        parse(DOUBLING.replace('depth: "1"', 'depth: "30"'))
    message = str(info.value)
    assert "a tree of 2,305,843,009,213,693,951 nodes" in message  # 2^61 - 1
    assert "more than the limit of 20,000,000" in message
    assert 'lower the depth line (depth: "30" at line 2; depth 11 fits)' in message


def test_a_cycle_with_a_huge_depth_is_counted_by_its_period() -> None:
    text = cs188("A x B\nB y C\nC z A", "A 1", agents=3, depth=10**9)
    with pytest.raises(LimitError, match=r"a tree of 3,000,000,001 nodes .* depth 6666666 fits"):
        parse(text)
    with pytest.raises(LimitError, match=r"a tree of at least 33,554,431 nodes .* depth 11 fits"):
        parse(DOUBLING.replace('depth: "1"', f'depth: "{10**9}"'))


def test_cycles_that_never_line_up_are_stopped_early() -> None:
    # Cycles of 2, 3, 5, ..., 19 states: the levels repeat only after 9,699,690 plies,
    # but every ply has at least 8 nodes, so the size is known to be too large at once.
    rows = ["S go c2_0"] + [f"S go c{n}_0" for n in (3, 5, 7, 11, 13, 17, 19)]
    for n in (2, 3, 5, 7, 11, 13, 17, 19):
        rows += [f"c{n}_{i} next c{n}_{(i + 1) % n}" for i in range(n)]
    text = cs188("\n".join(rows), "S 0", start="S", depth=5_000_000)
    with pytest.raises(LimitError, match=r"at least 80,000,001 nodes .* at line 2\)$"):
        parse(text)


def test_shared_states_of_modest_size_are_expanded() -> None:
    tree = parse(DOUBLING.replace('depth: "1"', 'depth: "4"'))
    assert len(tree) == 2**9 - 1 and tree.height == 8
    assert minimax(tree).value == 1


# The counted size against the built tree, on random graphs -------------------------------

graphs = st.lists(
    st.tuples(st.sampled_from("ABCD"), st.sampled_from("xy"), st.sampled_from("ABCDE")),
    min_size=1,
    max_size=8,
)


def reference_size(
    edges: list[tuple[str, str, str]],
    terminal: set[str],
    plies: int,
    start: str = "A",
    *,
    deep: bool = False,
) -> int:
    """Nodes of the expanded tree, counted by plain recursion; with ``deep``, whether
    some path from ``start`` makes ``plies`` moves."""
    successors: dict[str, list[str]] = {}
    for state, _move, nxt in edges:
        successors.setdefault(state, []).append(nxt)

    @cache
    def size(state: str, left: int) -> int:
        if left == 0 or state in terminal or state not in successors:
            return 1
        return 1 + sum(size(nxt, left - 1) for nxt in successors[state])

    @cache
    def goes_on(state: str, left: int) -> bool:
        if left == 0:
            return True
        if state in terminal or state not in successors:
            return False
        return any(goes_on(nxt, left - 1) for nxt in successors[state])

    return goes_on(start, plies) if deep else size(start, plies)


@settings(max_examples=150, deadline=None)
@given(
    graphs,
    st.sets(st.sampled_from("BCDE"), max_size=2),
    st.integers(1, 5),
    st.integers(1, 3),
    st.integers(1, 400),
)
def test_counted_size_matches_the_expansion(
    edges: list[tuple[str, str, str]], terminal: set[str], depth: int, agents: int, cap: int
) -> None:
    edges = [("A", "x", "B"), *edges]
    terminal &= {state for edge in edges for state in (edge[0], edge[2])}
    text = cs188(
        "\n".join(" ".join(e) for e in edges),
        "E 1",
        depth=depth,
        agents=agents,
        extra=f'win_states: "{" ".join(sorted(terminal))}"\n',
    )
    expected = reference_size(edges, terminal, depth * agents)
    test = _parse._CS188(_parse._Source(text))
    size, exact, fits = _parse._expanded_size(test, cap)
    assert exact and size == expected
    assert (fits == 0) == (reference_size(edges, terminal, agents) > cap)
    if fits:
        assert reference_size(edges, terminal, fits * agents) <= cap
    if fits < depth:
        assert reference_size(edges, terminal, (fits + 1) * agents) > cap
    if expected <= 400:
        assert len(parse(text)) == expected
    # States with an endless path below them: those that can make as many moves as
    # there are states (a path that long repeats a state).
    states = {state for edge in edges for state in (edge[0], edge[2])}
    endless = {s for s in states if reference_size(edges, terminal, len(states), s, deep=True)}
    assert _parse._endless_states(test) == endless


def test_huge_depth_and_agent_counts_without_cycles_are_fine() -> None:
    tree = parse(cs188("A x B\nB y C", "C 1", agents=10**17, depth=10**18 - 1))
    assert tree.kind == ["max", "min", "leaf"] and tree.value == [None, None, 1]
