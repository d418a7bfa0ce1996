"""Game positions as explicit trees, so every lab feature works on a real game: the
position's moves to a given depth, each node labelled with the move that reached it,
leaves scored by the game's utility (the game is over) or its evaluation (the depth
ran out), from the view of the player to move at the root (MAX)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

from plies._arguments import need_int, need_object
from plies.errors import LimitError, PliesError
from plies.game import BaseGame
from plies.games import OPENSPIEL, parse_game_spec
from plies.trees import Tree, TreeBuilder

__all__ = [
    "MAX_GAME_TREE_NODES",
    "game_tree",
    "load_game",
    "read_game_tree",
    "split_game_position",
]

#: The largest game tree built (the tree lab's drawings and steps want far fewer).
MAX_GAME_TREE_NODES = 200_000


def split_game_position(text: str) -> tuple[str, str]:
    """``GAME[:key=value,...][:POSITION]`` as (game spec, position text): the parts
    after the name that hold ``=`` are the game's parameters, the rest the position
    (``tictactoe:5 1 9``, ``connect4:width=6,height=5:4453``, ``nim:3,4,5``); an
    OpenSpiel game is ``openspiel:GAME_TEXT[:POSITION]``."""
    name, *parts = text.strip().split(":")
    if name == OPENSPIEL and parts:  # openspiel:GAME_TEXT[:POSITION]
        return f"{name}:{parts[0]}", ":".join(parts[1:])
    params: list[str] = []
    while parts and "=" in parts[0]:
        params.append(parts.pop(0))
    spec = ":".join([name, *params]) if params else name
    return spec, ":".join(parts)


def game_tree(
    game: BaseGame[Any, Any], state: Any, *, depth: int, max_nodes: int = MAX_GAME_TREE_NODES
) -> Tree:
    """The tree of ``state`` searched ``depth`` plies deep (a chance event counts as a
    ply). Raises :class:`~plies.errors.LimitError` past ``max_nodes`` nodes, before
    building more of it."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise PliesError(f"the depth of a game tree is a whole number >= 0, not {depth!r}")
    need_object(game, BaseGame, "game")
    need_int(max_nodes, "max_nodes")
    too_big = PLAINLY_TOO_BIG * max_nodes
    if estimated_nodes(game, state, depth=depth, cap=too_big) > too_big:
        raise LimitError(
            f"the tree of this {game.name} position to depth {depth} has far more than "
            f"{max_nodes:,} nodes; give a smaller depth"
        )

    def too_many() -> LimitError:
        return LimitError(
            f"the tree of this {game.name} position to depth {depth} has more than "
            f"{max_nodes:,} nodes; give a smaller depth"
        )

    root_player = game.to_move(state)
    builder = TreeBuilder(root="max")
    pictures: list[list[str] | None] = []
    # Explicit stack of (parent id, state, plies left, move text, probability).
    stack: list[tuple[int, Any, int, str | None, float | None]] = [(-1, state, depth, None, None)]
    while stack:
        parent, position, left, move, p = stack.pop()
        if len(builder.parent) + len(stack) >= max_nodes:
            raise too_many()
        pictures.append(picture(game, position))
        if left == 0 or game.is_terminal(position):
            score = game.utility if game.is_terminal(position) else game.evaluate
            builder.add(
                parent, value=score(position, root_player), label=move, move=move, probability=p
            )
            continue
        pairs: Iterable[tuple[Any, float | None]]
        if game.has_chance and game.is_chance(position):
            kind = "chance"
            outcomes = game.chance_outcomes(position)
            count, pairs = len(outcomes), outcomes
        else:
            kind = "max" if game.to_move(position) == root_player else "min"
            moves = game.legal_moves(position)
            count, pairs = len(moves), ((m, None) for m in moves)
        # Counted before any is played: a Nim heap of a million offers a million moves.
        if len(builder.parent) + len(stack) + 1 + count > max_nodes:
            raise too_many()
        children = [
            (game.play(position, m), game.format_move(position, m), prob) for m, prob in pairs
        ]
        node = builder.add(parent, kind=kind, label=move, move=move, probability=p)
        stack.extend(
            (node, child, left - 1, text, prob) for child, text, prob in reversed(children)
        )
    tree = builder.build()
    tree.pictures = {i: rows for i, rows in enumerate(pictures) if rows is not None}
    return tree


#: A tree whose estimated size is this many times the limit is refused before it is
#: built (the estimate is unbiased but spread: a tree near the limit is built and
#: counted exactly instead).
PLAINLY_TOO_BIG = 20
#: Random root-to-leaf walks of the estimate.
PROBES = 32


def estimated_nodes(
    game: BaseGame[Any, Any], state: Any, *, depth: int, cap: float = math.inf
) -> float:
    """An estimate of how many nodes the tree of ``state`` to ``depth`` plies has, from
    :data:`PROBES` random walks down it (Knuth's estimator, 1975: the sum over a walk
    of the products of the branching factors met, averaged over the walks). It takes
    ``PROBES * depth`` moves, so that a tree of 10^25 nodes (Connect Four, depth 30) is
    refused at once instead of after building 200,000 of them (13 s). Moves are
    counted, not listed (a game's move list may make them as they are asked for, as
    Nim's does), and the walks end as soon as the estimate passes ``cap``: eight
    heaps of a million are refused without making a million moves."""
    rng = random.Random(0)
    total = 0.0
    for probe in range(PROBES):
        position, weight, walk = state, 1.0, 1.0
        for _ in range(depth):
            if game.is_terminal(position):
                break
            if game.has_chance and game.is_chance(position):
                moves: Sequence[Any] = [outcome for outcome, _ in game.chance_outcomes(position)]
            else:
                moves = game.legal_moves(position)
            if not moves:
                break
            weight *= len(moves)
            walk += weight
            if (total + walk) / (probe + 1) > cap:
                return (total + walk) / (probe + 1)
            position = game.play(position, moves[rng.randrange(len(moves))])
        total += walk
    return total / PROBES


#: The largest board drawn at a node, in rows and columns of characters.
MAX_PICTURE = (8, 16)


def picture(game: BaseGame[Any, Any], state: Any) -> list[str] | None:
    """The board of ``state`` as a few short rows of text, if the game draws one small
    enough to sit under a node: its own :meth:`~plies.game.BaseGame.tree_picture`
    (checkers' 8 x 8 squares), else rows joined by ``/`` in its position notation
    (tic-tac-toe ``x.o/.x./..o``), else its :meth:`render` when that is a small grid
    (Connect Four); None for games without a board (Nim, Pig)."""
    own = game.tree_picture(state)
    if own is not None:
        return own
    text = game.format_position(state)
    if "/" in text:
        rows = text.split("/")
    else:  # a grid of cells drawn with spaces between them, column numbers below
        rows = [row.replace(" ", "") for row in game.render(state).splitlines()]
        rows = [row for row in rows if not row.isdigit()]
    if not 2 <= len(rows) <= MAX_PICTURE[0] or len(set(map(len, rows))) != 1:
        return None  # not a small rectangular board
    cells = set("".join(rows))
    if len(cells) > 4 or any(c.isdigit() for c in cells):
        return None  # a board has a few kinds of cell: pieces and empty (Nim's text is no board)
    return rows if len(rows[0]) <= MAX_PICTURE[1] else None


def load_game(spec: str, position: str = "") -> tuple[BaseGame[Any, Any], Any]:
    """The game named by ``spec`` (``NAME[:key=value,...]``, see
    :func:`plies.games.parse_game_spec`) and the state ``position`` (its POSITION text,
    empty: the start) names; the game's own errors for a bad spec or position.

    >>> game, state = load_game("tictactoe", "5 1")
    >>> game.format_position(state)
    'o../.x./...'
    """
    need_object(spec, str, "the game spec")
    need_object(position, str, "the position text")
    game = parse_game_spec(spec)
    return game, game.parse_position(position)


def read_game_tree(text: str, *, depth: int, max_nodes: int = MAX_GAME_TREE_NODES) -> Tree:
    """The tree of the position ``GAME[:params][:POSITION]`` (see
    :func:`split_game_position`; no position: the start) to ``depth`` plies."""
    need_object(text, str, "the game and position text")
    game, state = load_game(*split_game_position(text))
    return game_tree(game, state, depth=depth, max_nodes=max_nodes)
