"""max^n, paranoid and Best-Reply Search against plain recursive references.

The references below are the textbook recursions, written as directly as possible
(no table, no pruning, no iterative deepening): max^n takes the first child best for
the player to move, paranoid maximises the root player's score at its own nodes and
minimises it at everyone else's, BRS does the same with one MIN layer holding every
opponent's moves. The engine must agree with them exactly on random game trees of
three and four players, with and without its table.
"""

from __future__ import annotations

import random
import threading
from functools import cache
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.engine import (
    WIN,
    Limits,
    TranspositionTable,
    best_reply,
    format_multi_value,
    iterate_multi,
    maxn,
    multi_search,
    paranoid,
    search,
    solve,
)
from plies.errors import ArgumentTypeError, SearchError
from plies.game import BaseGame


class Node(NamedTuple):
    """A node of a random tree: the moves that led to it and who is to move."""

    path: tuple[int, ...]
    mover: int


class RandomTree(BaseGame[Node, int]):
    """A random game tree of ``players`` players, built lazily from ``seed``.

    Each (path, mover) has its own seeded draws, so the player to move matters (a
    position with another player to move, as ``with_turn`` gives, has other moves).
    Movers follow each other in turn by default but sometimes a player moves twice;
    evaluations and payoffs repeat values often, so ties are common.
    """

    name = "random-tree"

    def __init__(self, seed: int, players: int, height: int) -> None:
        self.seed, self.num_players, self.height = seed, players, height

    @cache  # noqa: B019  (a few hundred nodes per tree; trees live for one test)
    def draws(self, node: Node) -> tuple[int, tuple[float, ...], tuple[float, ...], int]:
        """(number of moves, evaluations, payoffs, next mover) of ``node``."""
        rng = random.Random(f"{self.seed}/{node.path}/{node.mover}")
        depth = len(node.path)
        moves = (
            0 if depth >= self.height or (depth > 1 and rng.random() < 0.2) else rng.randint(1, 3)
        )
        players = self.num_players
        evaluations = tuple(float(rng.randint(-3, 3)) for _ in range(players))
        payoffs = tuple(rng.choice((0.0, 0.5, 1.0)) for _ in range(players))
        step = 2 if rng.random() < 0.15 else 1
        return moves, evaluations, payoffs, (node.mover + step) % players

    def initial_state(self) -> Node:
        return Node((), 0)

    def to_move(self, state: Node) -> int:
        return state.mover

    def legal_moves(self, state: Node) -> list[int]:
        return list(range(self.draws(state)[0]))

    def play(self, state: Node, move: int) -> Node:
        return Node((*state.path, move), self.draws(state)[3])

    def is_terminal(self, state: Node) -> bool:
        return self.draws(state)[0] == 0

    def utility(self, state: Node, player: int) -> float:
        return self.draws(state)[2][player]

    def utility_bounds(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def evaluate(self, state: Node, player: int) -> float:
        return self.draws(state)[1][player]

    def with_turn(self, state: Node, player: int) -> Node:
        return Node(state.path, player)


# -- the references ----------------------------------------------------------------------


def reference_maxn(game: RandomTree, state: Node, depth: int) -> tuple[tuple[float, ...], Any]:
    """(vector, best move) of plain max^n, ties to the leftmost child."""
    if game.is_terminal(state):
        return tuple(u * WIN for u in game.utilities(state)), None
    if depth == 0:
        return game.evaluations(state), None
    mover = game.to_move(state)
    best, best_move = None, None
    for move in game.legal_moves(state):
        vector, _ = reference_maxn(game, game.play(state, move), depth - 1)
        if best is None or vector[mover] > best[mover]:
            best, best_move = vector, move
    return best, best_move  # type: ignore[return-value]


def reference_paranoid(game: RandomTree, state: Node, depth: int, root: int) -> float:
    """Plain paranoid minimax: the root player maximises, the coalition minimises."""
    if game.is_terminal(state):
        return game.utility(state, root) * WIN
    if depth == 0:
        return game.evaluate(state, root)
    scores = [
        reference_paranoid(game, game.play(state, move), depth - 1, root)
        for move in game.legal_moves(state)
    ]
    return max(scores) if game.to_move(state) == root else min(scores)


def reference_brs(game: RandomTree, state: Node, depth: int, root: int) -> float:
    """Plain Best-Reply Search: MAX layers of the root player; one MIN layer of every
    opponent's moves from the same position, after which the root player moves."""
    if game.is_terminal(state):
        return game.utility(state, root) * WIN
    if depth == 0:
        return game.evaluate(state, root)
    if game.to_move(state) == root:
        return max(
            reference_brs(game, game.play(state, move), depth - 1, root)
            for move in game.legal_moves(state)
        )
    scores = []
    for opponent in range(game.num_players):
        if opponent == root:
            continue
        position = game.with_turn(state, opponent)
        for move in game.legal_moves(position):
            child = game.play(position, move)
            if not game.is_terminal(child):
                child = game.with_turn(child, root)
            scores.append(reference_brs(game, child, depth - 1, root))
    return min(scores)


trees = st.builds(
    RandomTree,
    seed=st.integers(0, 10**6),
    players=st.integers(3, 4),
    height=st.integers(1, 6),
)


@settings(max_examples=60)
@given(game=trees, depth=st.integers(1, 6), use_table=st.booleans())
def test_maxn_equals_the_reference(game: RandomTree, depth: int, use_table: bool) -> None:
    state = game.initial_state()
    result = maxn(game, state, limits=Limits(depth=depth), use_table=use_table)
    vector, best_move = reference_maxn(game, state, result.depth)
    assert result.values == vector
    assert result.value == vector[0]
    assert result.best_move == best_move
    assert result.depth == depth or result.exact


@settings(max_examples=60)
@given(game=trees, depth=st.integers(1, 6))
def test_paranoid_equals_the_reference_with_and_without_the_table(
    game: RandomTree, depth: int
) -> None:
    state = game.initial_state()
    with_table = paranoid(game, state, limits=Limits(depth=depth))
    without = paranoid(game, state, limits=Limits(depth=depth), use_table=False)
    assert with_table.value == without.value == reference_paranoid(game, state, with_table.depth, 0)
    assert with_table.values is None


@settings(max_examples=30)
@given(game=trees, depth=st.integers(1, 5), root=st.integers(0, 2))
def test_paranoid_for_a_player_not_to_move(game: RandomTree, depth: int, root: int) -> None:
    state = game.initial_state()
    result = paranoid(game, state, limits=Limits(depth=depth), player=root)
    assert result.player == root
    assert result.value == reference_paranoid(game, state, result.depth, root)


@settings(max_examples=60)
@given(game=trees, depth=st.integers(1, 6), use_table=st.booleans())
def test_brs_equals_the_reference(game: RandomTree, depth: int, use_table: bool) -> None:
    state = game.initial_state()
    result = best_reply(game, state, limits=Limits(depth=depth), use_table=use_table)
    assert result.value == reference_brs(game, state, result.depth, 0)


@settings(max_examples=30)
@given(game=trees, depth=st.integers(1, 5))
def test_the_principal_line_replays_to_the_value(game: RandomTree, depth: int) -> None:
    # Following max^n's line (without the table: it is whole) reaches a node whose
    # vector, as the search saw it, is the root's.
    state = game.initial_state()
    result = maxn(game, state, limits=Limits(depth=depth), use_table=False)
    for player, move in zip(result.pv_players, result.pv, strict=True):
        assert game.to_move(state) == player
        state = game.play(state, move)
    left = result.depth - len(result.pv)
    assert reference_maxn(game, state, left)[0] == result.values


def test_brs_line_names_who_replies() -> None:
    game = RandomTree(seed=11, players=3, height=6)
    for seed in range(40):
        game = RandomTree(seed=seed, players=3, height=6)
        result = best_reply(game, game.initial_state(), limits=Limits(depth=4), use_table=False)
        state = game.initial_state()
        for player, move in zip(result.pv_players, result.pv, strict=True):
            state = game.with_turn(state, player)
            assert move in game.legal_moves(state)
            state = game.play(state, move)
        assert len(result.pv) >= 1


# -- iterative deepening, limits, stops ----------------------------------------------------


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_each_iteration_equals_a_search_of_that_depth(algorithm: str) -> None:
    game = RandomTree(seed=7, players=4, height=7)
    state = game.initial_state()
    references = {
        "maxn": lambda d: reference_maxn(game, state, d)[0][0],
        "paranoid": lambda d: reference_paranoid(game, state, d, 0),
        "brs": lambda d: reference_brs(game, state, d, 0),
    }
    table = TranspositionTable()
    for depth in range(1, 7):
        result = multi_search(game, state, algorithm=algorithm, limits=Limits(depth=depth))
        assert result.value == references[algorithm](depth)
        # One table shared by every depth (its entries reused only at their own depth).
        shared = multi_search(
            game, state, algorithm=algorithm, limits=Limits(depth=depth), table=table
        )
        assert shared.value == result.value


def test_without_a_depth_limit_the_search_runs_to_the_end() -> None:
    game = RandomTree(seed=3, players=3, height=5)
    result = maxn(game, game.initial_state())
    assert result.exact and result.completed
    assert result.values == reference_maxn(game, game.initial_state(), 99)[0]


def test_a_node_limit_returns_the_last_completed_iteration() -> None:
    game = RandomTree(seed=5, players=3, height=12)
    result = paranoid(game, game.initial_state(), limits=Limits(nodes=60))
    assert not result.completed
    assert result.stats.nodes <= 60
    if result.depth:
        assert result.value == reference_paranoid(game, game.initial_state(), result.depth, 0)


def test_a_stop_request_before_the_first_iteration_gives_the_first_move() -> None:
    game = RandomTree(seed=5, players=3, height=12)
    stop = threading.Event()
    stop.set()
    result = best_reply(game, game.initial_state(), stop=stop)
    assert not result.completed and result.depth == 0
    assert result.best_move == game.legal_moves(game.initial_state())[0]


def test_a_finished_game_is_its_payoffs() -> None:
    game = RandomTree(seed=1, players=3, height=1)
    leaf = game.play(game.initial_state(), 0)
    assert game.is_terminal(leaf)
    result = maxn(game, leaf)
    assert result.values == tuple(u * WIN for u in game.utilities(leaf))
    assert result.best_move is None and result.exact and result.depth == 0


def test_two_players_brs_and_paranoid_are_alpha_beta() -> None:
    # With one opponent both are plain minimax of player 0's score.
    for seed in range(20):
        game = RandomTree(seed=seed, players=2, height=5)
        state = game.initial_state()
        expected = reference_paranoid(game, state, 5, 0)
        assert paranoid(game, state, limits=Limits(depth=5)).value == expected
        if all(game.to_move(game.play(state, m)) != 0 for m in game.legal_moves(state)):
            assert best_reply(game, state, limits=Limits(depth=5)).value == reference_brs(
                game, state, 5, 0
            )


# -- misuse ----------------------------------------------------------------------------


def test_two_player_searches_refuse_more_players() -> None:
    game = RandomTree(seed=1, players=3, height=3)
    for call in (search, solve):
        with pytest.raises(SearchError, match=r"3 players.*maxn, paranoid or best_reply"):
            call(game, game.initial_state())


def test_bad_arguments_are_refused_before_searching() -> None:
    game = RandomTree(seed=1, players=3, height=3)
    state = game.initial_state()
    with pytest.raises(SearchError, match="player 3 is not a player"):
        paranoid(game, state, player=3)
    with pytest.raises(ArgumentTypeError, match="table"):
        maxn(game, state, table={})  # type: ignore[arg-type]
    with pytest.raises(SearchError, match="algorithm"):
        multi_search(game, state, algorithm="minimax")
    with pytest.raises(ArgumentTypeError):
        maxn("not a game", state)  # type: ignore[arg-type]


class NoTurn(RandomTree):
    def with_turn(self, state: Node, player: int) -> None:  # type: ignore[override]
        return None


def test_brs_needs_with_turn() -> None:
    for seed in range(30):
        game = NoTurn(seed=seed, players=3, height=4)
        state = game.initial_state()
        if any(game.to_move(game.play(state, m)) != 1 for m in game.legal_moves(state)):
            continue  # the first reply may be searched without it
        with pytest.raises(SearchError, match="with_turn"):
            best_reply(game, state, limits=Limits(depth=3))
        return
    pytest.fail("no tree needed with_turn")


def test_values_read_as_payoffs_or_evaluations() -> None:
    assert format_multi_value(WIN) == "payoff 1"
    assert format_multi_value(-2.5) == "-2.5"
    game = RandomTree(seed=3, players=3, height=2)
    result = maxn(game, game.initial_state())
    assert result.value_text.startswith("(payoff")


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_iterate_multi_yields_each_depth_as_a_fixed_depth_search(algorithm: str) -> None:
    game = RandomTree(seed=19, players=3, height=7)
    state = game.initial_state()
    found = list(iterate_multi(game, state, algorithm=algorithm, limits=Limits(depth=5)))
    assert [each.depth for each in found] == list(range(1, len(found) + 1))
    for each in found:
        alone = multi_search(game, state, algorithm=algorithm, limits=Limits(depth=each.depth))
        assert (each.value, each.values) == (alone.value, alone.values)


def test_unknown_options_are_refused() -> None:
    game = RandomTree(seed=1, players=3, height=3)
    with pytest.raises(ArgumentTypeError, match="maxn takes no option 'player'"):
        multi_search(game, game.initial_state(), algorithm="maxn", player=1)


@pytest.mark.parametrize("seed", range(6))
def test_searches_stop_once_exact_with_their_tables(seed: int) -> None:
    # Without a depth limit each runs until no line meets the horizon (table entries
    # found above one count as such), then its value is that of any deeper search.
    game = RandomTree(seed=seed, players=4, height=5)
    state = game.initial_state()
    assert paranoid(game, state).value == reference_paranoid(game, state, 99, 0)
    assert best_reply(game, state).value == reference_brs(game, state, 99, 0)
    found = maxn(game, state)
    assert found.exact and found.values == reference_maxn(game, state, 99)[0]
