"""MCTS in games of more than two players: every chooser maximises its own payoff (max^n
backups), so the most visited move is max^n's on small trees; no solver; and the
two-player search is what it was."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from plies.engine import MctsOptions, mcts
from plies.game import BaseGame

#: A tree: a payoff vector (a leaf) or a list of subtrees; player ``depth % players`` moves.
Tree = Any


class TreeGame(BaseGame[tuple[int, ...], int]):
    """A game of ``players`` players on an explicit tree; a state is the path taken."""

    name = "tree"

    def __init__(self, tree: Tree, players: int = 3) -> None:
        self.tree = tree
        self.num_players = players

    def node(self, state: tuple[int, ...]) -> Tree:
        node = self.tree
        for index in state:
            node = node[index]
        return node

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        return len(state) % self.num_players

    def legal_moves(self, state: tuple[int, ...]) -> Sequence[int]:
        node = self.node(state)
        return [] if isinstance(node, tuple) else list(range(len(node)))

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return (*state, move)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return isinstance(self.node(state), tuple)

    def utility(self, state: tuple[int, ...], player: int) -> float:
        return float(self.node(state)[player])

    def evaluate(self, state: tuple[int, ...], player: int) -> float:
        return 0.0

    def utility_bounds(self) -> tuple[float, float]:
        return (0.0, 1.0)


def maxn(tree: Tree, depth: int, players: int) -> tuple[float, ...]:
    """The max^n value of ``tree`` (ties: the leftmost child)."""
    if isinstance(tree, tuple):
        return tree
    player = depth % players
    values = [maxn(child, depth + 1, players) for child in tree]
    return max(values, key=lambda value: value[player])  # max keeps the first of ties


def random_tree(rng: random.Random, depth: int, players: int) -> Tree:
    if depth == 0:
        return tuple(rng.randrange(11) / 10 for _ in range(players))
    return [random_tree(rng, depth - 1, players) for _ in range(rng.randrange(2, 4))]


def test_each_chooser_maximises_its_own_payoff_not_the_root_players() -> None:
    # Player 1 picks (0.2, 0.8, 0.5) under A, which is bad for player 0: max^n plays B.
    tree = [[(0.9, 0.1, 0.5), (0.2, 0.8, 0.5)], (0.5, 0.5, 0.5)]
    game = TreeGame(tree)
    found = mcts(game, (), iterations=2000)
    assert found.best_move == 1 and not found.exact
    assert found.utilities[0] == pytest.approx(0.5, abs=0.05)
    assert found.moves[0].proven is None  # no solver with more players
    assert len(found.utilities) == 3


def separated(tree: Tree, depth: int, players: int, gap: float) -> bool:
    """Whether every chooser's best child beats its second best by ``gap`` or more
    (for its own payoff): near ties take UCT many more playouts to tell apart."""
    if isinstance(tree, tuple):
        return True
    player = depth % players
    mine = sorted((maxn(child, depth + 1, players)[player] for child in tree), reverse=True)
    return mine[0] - mine[1] >= gap and all(
        separated(child, depth + 1, players, gap) for child in tree
    )


@pytest.mark.parametrize("seed", range(10))
def test_the_most_visited_move_is_the_maxn_move_on_random_trees(seed: int) -> None:
    rng = random.Random(seed)
    players = 3 + seed % 2
    tree = random_tree(rng, 3, players)
    while not separated(tree, 0, players, 0.2):
        tree = random_tree(rng, 3, players)
    values = [maxn(child, 1, players) for child in tree]
    best = max(range(len(tree)), key=lambda index: values[index][0])
    found = mcts(TreeGame(tree, players), (), iterations=5000, options=MctsOptions(seed=seed))
    assert found.best_move == best


def test_a_terminal_root_is_exact_and_evaluate_playouts_run() -> None:
    game = TreeGame([(1.0, 0.0, 0.0)])
    assert mcts(game, (0,)).exact
    tree = random_tree(random.Random(1), 4, 3)
    found = mcts(TreeGame(tree), (), iterations=300, options=MctsOptions(playout="evaluate"))
    assert found.iterations == 300 and found.tree_nodes > 1


def test_rolit_is_searched_with_a_reward_vector_in_python_or_natively() -> None:
    from plies.games import get_game

    rolit = get_game("rolit")
    start = rolit.initial_state()
    found = mcts(rolit, start, iterations=60)
    assert found.best_move in list(rolit.legal_moves(start))
    assert len(found.utilities) == 4 and found.backend == "python"
    assert sum(move.visits for move in found.moves) == 60
    pytest.importorskip("numba")
    native = mcts(rolit, start, iterations=10, backend="native")
    assert native.backend == "native" and len(native.utilities) == 4
    assert native.playouts == 10 * 32  # a leaf's playouts in one kernel call
