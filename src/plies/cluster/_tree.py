"""The top of the game tree a split solve keeps (:mod:`plies.cluster._split`): its
positions and the bounds proven on their scores."""

from __future__ import annotations

from typing import Any

from plies.engine.solver import overrides
from plies.game import BaseGame

__all__ = ["INF", "Node", "Want"]

#: Larger than any score of either scale: the bound of a score not bounded yet.
INF = 1 << 62


class Node:
    """A position of the client's tree and the bounds proven on its score.

    ``low``/``high`` are the bounds of the node's own probes; ``lower``/``upper``
    those combined with its children's (``score = max over moves``, a move scoring
    ``sign * child``). ``final``: the game is over or the side to move wins at once
    (always probed, never expanded). ``expanded``: asked through its children even
    below the tree's horizon (its probe took long while a worker had nothing to do).
    """

    __slots__ = (
        "_children",
        "expanded",
        "final",
        "high",
        "home",
        "low",
        "lower",
        "move",
        "parent",
        "ply",
        "sign",
        "state",
        "upper",
    )

    def __init__(self, state: Any, ply: int, parent: Node | None, move: Any, sign: int) -> None:
        self.state = state
        self.ply = ply
        self.parent = parent
        self.move = move
        self.sign = sign
        self.low = self.lower = -INF
        self.high = self.upper = INF
        self.final = False
        self.expanded = False
        self.home: str | None = None  # the worker that probed it last
        self._children: list[Node] | None = None

    def above(self, threshold: int) -> bool | None:
        """Whether the score is above ``threshold``, or None while unknown."""
        if self.lower > threshold:
            return True
        if self.upper <= threshold:
            return False
        return None

    def move_above(self, threshold: int) -> bool | None:
        """Whether the move to this node scores above ``threshold`` for the parent."""
        if self.sign > 0:
            return self.above(threshold)
        below = self.above(-threshold - 1)
        return None if below is None else not below

    def child_threshold(self, threshold: int) -> int:
        """The threshold of this node's test that answers its move's at ``threshold``."""
        return threshold if self.sign > 0 else -threshold - 1

    def move_bounds(self) -> tuple[int, int]:
        """The bounds of the move to this node, for the parent."""
        if self.sign > 0:
            return self.lower, self.upper
        return -self.upper, -self.lower

    def collapse(self) -> None:
        """Ask this node and those below it through their own probes again, none
        expanded below the tree's horizon."""
        stack = [self]
        while stack:
            node = stack.pop()
            node.expanded = False
            stack.extend(node._children or ())

    def children(self, game: BaseGame[Any, Any], winning: Any) -> list[Node]:
        """The children in the game's order (as the serial solver orders them)."""
        if self._children is None:
            state = self.state
            moves = game.legal_moves(state)
            if overrides(game, "order_moves") and len(moves) > 1:
                moves = game.order_moves(state, moves)
            mover = game.to_move(state)
            children = []
            for move in moves:
                child = game.play(state, move)
                same = not game.alternating and game.to_move(child) == mover
                node = Node(child, self.ply + 1, self, move, 1 if same else -1)
                node.home = self.home  # its table knows the child best
                node.final = game.terminal_value(child) is not None or (
                    winning is not None and winning(child) is not None
                )
                children.append(node)
            self._children = children
        return self._children

    def update(self) -> None:
        """Combine the own bounds with the children's, up to the root."""
        node: Node | None = self
        while node is not None:
            lower, upper = node.low, node.high
            if node._children:
                bounds = [child.move_bounds() for child in node._children]
                lower = max(lower, *(low for low, _ in bounds))
                upper = min(upper, max(high for _, high in bounds))
            node.lower, node.upper = lower, upper
            node = node.parent


#: A probe to run: (speculation level, order, node, threshold).
Want = tuple[int, int, Node, int]
