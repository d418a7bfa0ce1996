"""The one search loop against the textbook recursion, for every algorithm: values,
leaves in evaluation order, alpha and beta in and out at every node, statuses,
cut-offs and their reasons, and every event, on random trees (chance nodes, Star1,
both tie rules, fail-soft and fail-hard, every ordering, root windows)."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plies.trees import (
    Backup,
    Cutoff,
    Enter,
    Evaluate,
    Event,
    Exit,
    SearchOptions,
    Tree,
    search,
)
from plies.trees._search import _orderer
from strategies import chance_trees, prune_options, ragged_trees, uniform_chance_trees

INF = math.inf
_OP = {(1, False): ">=", (1, True): ">", (-1, False): "<=", (-1, True): "<"}


class Textbook:
    """The search as textbooks write it: recursive, MAX and MIN mirrored, chance nodes
    averaging (with Star1's windows and cut-offs), everything in MAX's view, the
    events and a record of every node visited kept as it goes."""

    def __init__(self, tree: Tree, options: SearchOptions) -> None:
        self.tree, self.options = tree, options
        self.order = _orderer(tree, options)
        algorithm = options.algorithm
        self.star1 = algorithm == "expectiminimax" and options.star1 and tree.bounds is not None
        self.prune = algorithm in ("alphabeta", "negamax") or self.star1
        self.low, self.high = tree.bounds or (-INF, INF)
        self.events: list[Event] = []
        self.cuts: dict[int, Cutoff] = {}
        self.evaluated: list[int] = []
        #: node -> (alpha_in, beta_in, alpha_out, beta_out, value, status)
        self.records: dict[int, tuple[Any, ...]] = {}
        self.value = self.visit(0, *options.window, -1, -1)

    def visit(self, node: int, alpha: Any, beta: Any, asrc: int, bsrc: int) -> Any:
        self.events.append(Enter(node, alpha, beta))
        tree = self.tree
        if tree.kind[node] == "leaf":
            v = tree.value[node]
            self.evaluated.append(tree.leaf_index[node])
            self.events.append(Evaluate(node, tree.leaf_index[node], v, len(self.evaluated)))
            self.records[node] = (alpha, beta, alpha, beta, v, "evaluated")
            return v
        if tree.kind[node] == "chance":
            return self.chance(node, alpha, beta, asrc, bsrc)
        return self.max_min(node, alpha, beta, asrc, bsrc)

    def max_min(self, node: int, alpha: Any, beta: Any, asrc: int, bsrc: int) -> Any:
        sign = 1 if self.tree.kind[node] == "max" else -1
        kids, a_in, b_in, best = self.order(node), alpha, beta, None
        strict = self.options.strict
        for k, child in enumerate(kids):
            v = self.visit(child, alpha, beta, asrc, bsrc)
            improved = best is None or sign * v > sign * best
            best = v if improved else best
            bound: Any = (None, None)
            if self.prune and sign > 0 and best > alpha:
                alpha, asrc, bound = best, node, ("alpha", best)
            elif self.prune and sign < 0 and best < beta:
                beta, bsrc, bound = best, node, ("beta", best)
            cutoff = None
            if self.prune and k < len(kids) - 1:
                name, other, source = ("beta", beta, bsrc) if sign > 0 else ("alpha", alpha, asrc)
                if sign * best > sign * other or (not strict and best == other):
                    pruned = tuple(kids[k + 1 :])
                    cutoff = Cutoff(node, best, _OP[sign, strict], name, other, source, pruned)
                    self.cuts[node] = cutoff
            self.events.append(Backup(node, child, v, v, False, best, improved, *bound, cutoff))
            if cutoff is not None:
                break
        value = best if self.options.fail_soft else min(max(best, a_in), b_in)
        return self.exit(node, (a_in, b_in, alpha, beta, value))

    def chance(self, node: int, alpha: Any, beta: Any, asrc: int, bsrc: int) -> Any:
        tree, kids, strict = self.tree, self.order(node), self.options.strict
        uniform = all(tree.probability[c] == 1.0 / len(kids) for c in kids)
        total: Any = 0.0
        seen, values = 0.0, []
        for k, child in enumerate(kids):
            p = tree.probability[child]
            assert p is not None
            window, sources = self.star1_window(
                node, p, seen=seen, total=total, bounds=(alpha, beta)
            )
            v = self.visit(child, *window, *sources)
            values.append(v)
            if uniform:
                total = sum(values) / len(kids)
            elif p:
                total += p * v
            seen += p
            shown, cutoff = total, None
            if self.star1 and k < len(kids) - 1:
                upper, lower = total + self.high * (1 - seen), total + self.low * (1 - seen)
                pruned = tuple(kids[k + 1 :])
                if upper < alpha or (not strict and upper == alpha):
                    cutoff = Cutoff(
                        node, upper, _OP[-1, strict], "alpha", alpha, asrc, pruned, True
                    )
                elif lower > beta or (not strict and lower == beta):
                    cutoff = Cutoff(node, lower, _OP[1, strict], "beta", beta, bsrc, pruned, True)
                if cutoff is not None:
                    self.cuts[node], total = cutoff, cutoff.value
            self.events.append(Backup(node, child, v, v, False, shown, True, None, None, cutoff))
            if cutoff is not None:
                break
        if uniform and node not in self.cuts:
            total = math.fsum(values) / len(kids)
        return self.exit(node, (alpha, beta, alpha, beta, total))

    def star1_window(
        self, node: int, p: float, *, seen: float, total: Any, bounds: tuple[Any, Any]
    ) -> tuple[tuple[Any, Any], tuple[int, int]]:
        alpha, beta = bounds
        if not self.star1:
            return (-INF, INF), (-1, -1)
        if not p > 0:
            return (self.low, self.high), (node, node)
        rest = 1.0 - seen - p
        child_alpha = max(self.low, (alpha - total - self.high * rest) / p)
        child_beta = min(self.high, (beta - total - self.low * rest) / p)
        return (child_alpha, child_beta), (node, node)

    def exit(self, node: int, record: tuple[Any, ...]) -> Any:
        value = record[-1]
        self.events.append(Exit(node, value))
        self.records[node] = (*record, "cutoff" if node in self.cuts else "visited")
        return value


def assert_as_the_textbook(tree: Tree, options: SearchOptions) -> None:
    """The search and the recursion agree on everything a result says."""
    result, book = search(tree, options), Textbook(tree, options)
    assert repr(result.value) == repr(book.value)
    assert result.evaluated == book.evaluated
    assert result.nodes_visited == len(book.records)
    assert result.cutoffs == len(book.cuts)
    for node in range(len(tree)):
        seen = (result.alpha_in[node], result.beta_in[node], result.alpha_out[node])
        seen += (result.beta_out[node], result.values[node], result.status[node])
        expected = book.records.get(node, (None,) * 5 + ("pruned",))
        assert repr(seen) == repr(expected), node
    movers = options.algorithm == "negamax"
    if not movers:
        assert result.cut_at == book.cuts
        if options.trace:
            assert [repr(e) for e in result.events] == [repr(e) for e in book.events]
    assert {n: c.pruned for n, c in result.cut_at.items()} == {
        n: c.pruned for n, c in book.cuts.items()
    }
    for cut in result.cut_at.values():
        for child in cut.pruned:
            reason = result.reason(child)
            assert reason is not None and cut.inequality() in reason


@settings(max_examples=150, deadline=None)
@given(
    ragged_trees(),
    prune_options,
    st.sampled_from(["minimax", "alphabeta", "negamax"]),
    st.booleans(),
)
def test_every_algorithm_searches_as_the_textbook(
    tree: Tree, opts: dict[str, Any], algorithm: str, trace: bool
) -> None:
    assert_as_the_textbook(tree, SearchOptions(algorithm=algorithm, trace=trace, **opts))


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(chance_trees(), uniform_chance_trees()),
    st.fixed_dictionaries(
        {
            "star1": st.booleans(),
            "fail_soft": st.booleans(),
            "strict": st.booleans(),
            "order": st.sampled_from(["given", "best", "worst", "random"]),
            "seed": st.integers(0, 3),
            "window": st.sampled_from([(-INF, INF), (-2, 2), (0, 1)]),
        }
    ),
)
def test_expectiminimax_searches_as_the_textbook(tree: Tree, opts: dict[str, Any]) -> None:
    assert_as_the_textbook(tree, SearchOptions(algorithm="expectiminimax", **opts))


def _colour(tree: Tree, node: int) -> int:
    """The player whose view negamax shows at ``node``: its own, a leaf's parent's."""
    if tree.kind[node] == "leaf" and node:
        node = tree.parent[node]
    return -1 if tree.kind[node] == "min" else 1


@settings(max_examples=150, deadline=None)
@given(ragged_trees(), prune_options)
def test_negamax_events_are_alphabetas_in_the_players_view(
    tree: Tree, opts: dict[str, Any]
) -> None:
    """The events are made from the search's records on first read: negamax's are
    alpha-beta's, each turned into the view of the player at its node."""
    ab = search(tree, SearchOptions(algorithm="alphabeta", **opts)).events
    nm = search(tree, SearchOptions(algorithm="negamax", **opts)).events
    assert [(type(e), e.node) for e in nm] == [(type(e), e.node) for e in ab]
    for mine, max_view in zip(nm, ab, strict=True):
        c = _colour(tree, mine.node)
        if isinstance(mine, Enter):
            assert isinstance(max_view, Enter)
            window = (max_view.alpha, max_view.beta) if c > 0 else (-max_view.beta, -max_view.alpha)
            assert (mine.alpha, mine.beta) == window
        elif isinstance(mine, Exit):
            assert isinstance(max_view, Exit)
            assert mine.value == c * max_view.value
        elif isinstance(mine, Backup):
            assert isinstance(max_view, Backup)
            assert (mine.received, mine.value) == (c * max_view.received, c * max_view.value)
            child_c = _colour(tree, mine.child) if tree.children[mine.child] else 1
            assert mine.child_value == child_c * max_view.child_value
            assert mine.negated == (child_c != c)
            assert (mine.cutoff is None) == (max_view.cutoff is None)
        else:
            assert mine == max_view


def test_a_window_star1_rounding_inverted_is_clamped_as_in_maxs_view() -> None:
    """Star1's windows are computed in floats and can come out inverted (alpha a
    rounding above beta): a fail-hard MIN node then returns what the textbook's MAX
    view returns (found by the test above: -10 instead of -10.000000000000002)."""
    from plies.trees._parse import parse_json

    def node(kind: str, *children: Any, p: float | None = None) -> dict[str, Any]:
        return {"kind": kind, "children": list(children), **({} if p is None else {"p": p})}

    chance = node(
        "chance",
        *(node("max", node("max", -10), p=0.2) for _ in range(3)),
        node("min", node("max", -10), p=0.2),
        node("max", -10, p=0.2),
    )
    tree = parse_json(json.dumps({"tree": node("min", -10, chance), "bounds": [-10, 10]}))
    options = SearchOptions(algorithm="expectiminimax", fail_soft=False, strict=True)
    assert_as_the_textbook(tree, options)
