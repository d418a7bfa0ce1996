"""The client's tree of a split solve (:mod:`plies.cluster._tree`)."""

from __future__ import annotations

from plies.cluster._tree import Node
from plies.games import get_game


def test_collapse_undoes_every_expansion_below() -> None:
    game = get_game("tictactoe")
    root = Node(game.initial_state(), 0, None, None, 1)
    expanded = [root]
    for child in root.children(game, None)[:3]:
        expanded.append(child)
        expanded.extend(child.children(game, None)[:2])
    for node in expanded:
        node.expanded = True
    untouched = root.children(game, None)[4]
    root.children(game, None)[0].collapse()  # below one child only
    assert root.expanded and root.children(game, None)[1].expanded
    assert not root.children(game, None)[0].expanded
    root.collapse()
    assert not any(node.expanded for node in expanded) and not untouched.expanded
