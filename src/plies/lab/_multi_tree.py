"""N-player trees in the tree lab: reading, the three searches, their JSON document and
their drawings, shared by every shell (``plies tree --algorithm maxn|paranoid|brs``).

>>> from plies.lab._multi_tree import multi_document, read_multi_tree, run_multi_tree
>>> tree = read_multi_tree('{"players": 3, "tree": [[[1,2,3],[4,1,1]], [[2,5,0],[3,3,3]]]}')
>>> doc = multi_document(run_multi_tree(tree, "maxn"))
>>> doc["value"], doc["path"], doc["path_names"], doc["leaves_evaluated"]
([2, 5, 0], [1, 0], ['C', 'C1'], 4)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plies.draw import DrawError, multi_svg
from plies.errors import PliesError, SearchError, TreeError
from plies.trees import (
    MULTI_ALGORITHMS,
    MultiResult,
    MultiTree,
    format_number,
    is_multi_text,
    json_number,
    multi_tree_lines,
    parse_multi,
    random_multi_tree,
    search_multi,
)

__all__ = [
    "MULTI_ALGORITHMS",
    "MULTI_DRAWING_FORMATS",
    "check_two_player_text",
    "describe_multi",
    "multi_document",
    "multi_drawing",
    "multi_value_text",
    "random_multi",
    "read_multi_tree",
    "run_multi_tree",
    "write_multi_drawing",
]

#: The formats an N-player tree is drawn in, by file extension: plies' SVG and the
#: text drawing ``plies tree`` prints.
MULTI_DRAWING_FORMATS: tuple[str, ...] = ("svg", "txt")

_NAMES = {"maxn": "max^n", "paranoid": "paranoid", "brs": "Best-Reply Search"}


def read_multi_tree(text: str) -> MultiTree:
    """An N-player tree from its JSON (see :func:`plies.trees.parse_multi`); a
    two-player tree gets a :class:`~plies.errors.TreeError` naming the searches that
    read it."""
    if not is_multi_text(text):
        raise TreeError(
            'max^n, paranoid and BRS search N-player trees, written as JSON with "players": N '
            "and vector leaves; for a two-player tree use --algorithm minimax or alphabeta"
        )
    return parse_multi(text)


def check_two_player_text(text: str) -> None:
    """Refuse an N-player tree where a two-player search was asked for, with the
    searches that read it (one line, before the two-player reader's error)."""
    if is_multi_text(text):
        raise SearchError(
            'this tree has "players": it is an N-player tree: search it with '
            "--algorithm maxn, paranoid or brs"
        )


def random_multi(
    *, players: int, branching: int, depth: int, seed: int, values: tuple[int, int]
) -> MultiTree:
    """A seeded random N-player tree (see :func:`plies.trees.random_multi_tree`)."""
    low, high = values
    return random_multi_tree(
        players=players, branching=branching, depth=depth, seed=seed, low=low, high=high
    )


def run_multi_tree(
    tree: MultiTree, algorithm: str, *, player: int | None = None, trace: bool = True
) -> MultiResult:
    """Search ``tree`` with ``algorithm`` (``maxn``, ``paranoid`` or ``brs``);
    ``player`` is paranoid's and BRS's root player (default: the root's player)."""
    if player is not None and not 0 <= player < tree.players:
        raise SearchError(
            f"--player {player} is not a player of this tree (players 0 to {tree.players - 1})"
        )
    return search_multi(tree, algorithm, player=player, trace=trace)


def _value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [json_number(x) for x in value]
    return json_number(value)


def _status(result: MultiResult, node: int, pruned: set[int]) -> str:
    tree = result.tree
    if node in pruned:
        return "pruned"
    if node not in result.visited:
        return "not searched"
    return "evaluated" if tree.is_leaf(node) else "visited"


def multi_document(result: MultiResult) -> dict[str, Any]:
    """The JSON document of a search: ``algorithm``, ``players``, ``player`` (the root
    player; ``null`` for max^n), ``value`` (the vector for max^n, the root player's
    utility for paranoid and BRS), ``path`` (child indices from the root),
    ``path_names``, ``path_moves``, ``leaf_count``, ``leaves_evaluated``, ``evaluated``
    (leaf numbers in the order read), ``cutoffs`` (``node``, ``reason``, ``pruned``
    names) and ``nodes`` (per node: ``id``, ``name``, ``player`` (``null`` at leaves),
    ``utilities`` (leaves), the backed-up ``value`` or ``null``, and ``status``)."""
    tree = result.tree
    pruned = result.pruned
    return {
        "algorithm": result.algorithm,
        "players": tree.players,
        "player": result.player,
        "value": _value(result.value),
        "path": result.path,
        "path_names": [tree.name(n) for n in result.pv[1:]],
        "path_moves": [tree.move[n] for n in result.pv[1:]],
        "leaf_count": tree.leaf_count,
        "leaves_evaluated": len(result.evaluated),
        "evaluated": result.evaluated,
        "cutoffs": [
            {
                "node": tree.name(cut.node),
                "reason": cut.reason,
                "pruned": [tree.name(n) for n in cut.pruned],
            }
            for cut in result.cutoffs
        ],
        "nodes": [
            {
                "id": node,
                "name": tree.name(node),
                "player": None if tree.is_leaf(node) else tree.player[node],
                "utilities": None if tree.value[node] is None else _value(tree.value[node]),
                "value": _value(result.values[node]) if node in result.values else None,
                "status": _status(result, node, pruned),
            }
            for node in range(len(tree))
        ],
    }


def describe_multi(result: MultiResult) -> str:
    """``paranoid for player 0, alpha-beta (fail-soft)``: the search, as ``plies tree``
    heads its report."""
    name = _NAMES[result.algorithm]
    if result.player is None:
        return f"{name}: every player maximises its own utility, ties to the leftmost child"
    return f"{name} for player {result.player}, alpha-beta (fail-soft), ties to the leftmost"


def multi_value_text(result: MultiResult) -> str:
    """The value as the report prints it: ``(3, 6, 8)`` or ``3 (player 0's utility)``."""
    if isinstance(result.value, tuple):
        return "(" + ", ".join(format_number(x) for x in result.value) + ")"
    return f"{format_number(result.value)} (player {result.player}'s utility)"


def multi_drawing(subject: MultiTree | MultiResult, fmt: str) -> str:
    """The drawing of an N-player tree or search in ``fmt`` (``svg`` or ``txt``)."""
    if fmt == "svg":
        return multi_svg(subject)
    if fmt == "txt":
        if isinstance(subject, MultiResult):
            return "\n".join(multi_tree_lines(subject.tree, subject)) + "\n"
        return "\n".join(multi_tree_lines(subject)) + "\n"
    raise DrawError(
        f"N-player trees are drawn as {' or '.join(MULTI_DRAWING_FORMATS)}, not {fmt!r}"
    )


def write_multi_drawing(path: str | Path, subject: MultiTree | MultiResult) -> Path:
    """Write the drawing whose format the extension of ``path`` names (.svg, .txt)."""
    target = Path(path)
    fmt = target.suffix.lower().removeprefix(".")
    if fmt not in MULTI_DRAWING_FORMATS:
        raise DrawError(
            f"N-player trees are drawn as .svg or .txt, not '{target.name}' "
            "(the other formats draw two-player trees)"
        )
    try:
        target.write_text(multi_drawing(subject, fmt), encoding="utf-8")
    except OSError as exc:
        raise PliesError(f"cannot write the drawing '{target}': {exc.strerror}") from None
    return target
