"""Small games made for the engine tests: a random game tree with chance nodes, a
subtraction game with very long lines, and a wrapper that shuffles move order."""

from __future__ import annotations

import copy
import random
import zlib
from collections.abc import Sequence
from typing import Any

from plies.game import BaseGame


class RandomTreeGame(BaseGame[int, int]):
    """A random finite game tree: decision nodes of either player (the turn does not
    always pass), chance nodes with uneven probabilities, leaves in [-1, 1].

    States are node numbers; the tree is drawn from ``seed``.
    """

    name = "random-tree"
    has_chance = True
    alternating = False

    def __init__(self, seed: int, *, max_depth: int = 5, chance: bool = True) -> None:
        rng = random.Random(seed)
        self.chance = chance
        if not chance:  # a deterministic game: chance nodes are drawn as decisions
            self.has_chance = False  # type: ignore[misc]
        self.kind: list[str] = []
        self.player: list[int] = []
        self.children: list[list[int]] = []
        self.probabilities: list[list[float]] = []
        self.value: list[float] = []
        self._build(rng, 0, max_depth, 0)

    def _build(self, rng: random.Random, depth: int, max_depth: int, player: int) -> int:
        node = len(self.kind)
        roll = rng.random()
        kind = (
            "leaf"
            if depth == max_depth or (depth > 1 and roll < 0.2)
            else ("chance" if roll < 0.45 and depth > 0 and self.chance else "decision")
        )
        self.kind.append(kind)
        self.player.append(player)
        self.children.append([])
        self.probabilities.append([])
        # Leaves: utilities in steps of 1/8; heuristics for the horizon: smaller.
        self.value.append(rng.randint(-8, 8) / 8 if kind == "leaf" else rng.randint(-50, 50))
        if kind == "leaf":
            return node
        count = rng.randint(1, 3)
        weights = [rng.choice([1, 2, 3]) for _ in range(count)]
        for weight in weights:
            next_player = player if rng.random() < 0.3 else 1 - player
            child = self._build(rng, depth + 1, max_depth, next_player)
            self.children[node].append(child)
            self.probabilities[node].append(weight / sum(weights))
        return node

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return self.player[state]

    def legal_moves(self, state: int) -> list[int]:
        if self.kind[state] != "decision":
            return []
        return list(range(len(self.children[state])))

    def play(self, state: int, move: int) -> int:
        return self.children[state][move]

    def is_terminal(self, state: int) -> bool:
        return self.kind[state] == "leaf"

    def utility(self, state: int, player: int) -> float:
        value = self.value[state]
        return value if player == 0 else -value

    def evaluate(self, state: int, player: int) -> float:
        value = self.value[state]
        return value if player == 0 else -value

    def is_chance(self, state: int) -> bool:
        return self.kind[state] == "chance"

    def chance_outcomes(self, state: int) -> list[tuple[int, float]]:
        return list(zip(range(len(self.children[state])), self.probabilities[state], strict=True))

    def states(self) -> range:
        """Every node of the tree."""
        return range(len(self.kind))


class Subtraction(BaseGame[int, int]):
    """Take 1 or 2 from a counter; whoever takes the last one wins.

    Lines run up to ``n`` plies; the first player loses exactly when ``n % 3 == 0``.
    """

    name = "subtraction"

    def __init__(self, n: int) -> None:
        self.n = n

    def initial_state(self) -> int:
        return self.n * 2  # counter and player to move packed: 2 * counter + player

    def to_move(self, state: int) -> int:
        return state & 1

    def legal_moves(self, state: int) -> list[int]:
        return [take for take in (1, 2) if take <= state >> 1]

    def play(self, state: int, move: int) -> int:
        return ((state >> 1) - move) * 2 + (1 - (state & 1))

    def is_terminal(self, state: int) -> bool:
        return state >> 1 == 0

    def utility(self, state: int, player: int) -> float:
        return -1.0 if player == state & 1 else 1.0

    def key(self, state: int) -> int:
        return state >> 1


def shuffled_order(game: BaseGame[Any, Any], seed: int) -> BaseGame[Any, Any]:
    """A copy of ``game`` whose move-ordering hint shuffles the moves (reproducibly)."""

    def order_moves(self: BaseGame[Any, Any], state: Any, moves: Sequence[Any]) -> list[Any]:
        shuffled = list(moves)
        random.Random(zlib.crc32(f"{seed}:{state!r}".encode())).shuffle(shuffled)
        return shuffled

    clone = copy.copy(game)
    clone.__class__ = type(
        f"Shuffled{type(game).__name__}", (type(game),), {"order_moves": order_moves}
    )
    return clone
