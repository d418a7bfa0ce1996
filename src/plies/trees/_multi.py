"""Explicit trees of games of more than two players, and their three searches.

A two-player :class:`~plies.trees.Tree` holds one number per leaf; a game of ``N``
players scores a leaf with a vector ``(u0, ..., uN-1)``, one utility per player, and
says at each inner node whose turn it is. :class:`MultiTree` holds such a tree (nodes
in preorder, as :class:`~plies.trees.Tree` does), read from JSON by
:func:`parse_multi` or built from Python lists by :func:`multi_tree`:

>>> tree = parse_multi('{"players": 3, "tree": [[[1,2,3],[4,1,1]], [[2,5,0],[3,3,3]]]}')
>>> maxn(tree).value, maxn(tree).path
((2, 5, 0), [1, 0])
>>> tree = random_multi_tree(players=3, branching=2, depth=3, seed=5)
>>> maxn(tree).value, paranoid(tree).value, best_reply(tree).value
((3, 6, 8), 1, 3)

The three searches (:func:`search_multi` runs one by name):

* **max^n** (Luckhardt and Irani, 1986): every player picks the child whose vector is
  best for itself; a tie goes to the leftmost such child. The value is a vector.
* **paranoid** (Sturtevant and Korf, 2000): the root player (``player``, by default
  the player to move at the root) against a coalition of all the others, who minimise
  the root player's utility: a two-player minimax on the root player's component, with
  alpha-beta pruning (fail-soft; a node stops once ``alpha >= beta``).
* **Best-Reply Search** (Schadd and Winands, 2011): see :func:`best_reply`.

Every search returns a :class:`MultiResult`: the value, the principal path (child
indices from the root, as :mod:`plies.trees` numbers them), the leaves evaluated in
order, the cut-offs and what they pruned, and (``trace=True``) a narration.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.errors import LimitError, SearchError, TreeError
from plies.trees._model import Number, format_number, letter_names
from plies.trees._parse import (
    MAX_NODES,
    _check_text,
    _json_number,
    _json_path,
    _json_text,
    _loads_deep,
    _need_text,
    _read_json,
    _Source,
)

__all__ = [
    "MAX_MULTI_DEPTH",
    "MAX_PLAYERS",
    "MULTI_ALGORITHMS",
    "MultiCutoff",
    "MultiResult",
    "MultiTree",
    "Vector",
    "best_reply",
    "format_vector",
    "is_multi_text",
    "maxn",
    "multi_tree",
    "multi_tree_lines",
    "paranoid",
    "parse_multi",
    "random_multi_tree",
    "search_multi",
]

Vector = tuple[Number, ...]

#: The searches of N-player trees, by the name ``plies tree --algorithm`` gives them.
MULTI_ALGORITHMS: tuple[str, ...] = ("maxn", "paranoid", "brs")

#: Players a tree may have (a vector per leaf of this many utilities at most).
MAX_PLAYERS = 64

#: The deepest N-player tree plies searches: the searches recurse once per level, and
#: trees written by hand for these algorithms are a few levels deep.
MAX_MULTI_DEPTH = 500

_DOC_KEYS = frozenset({"players", "tree"})
_NODE_KEYS = frozenset({"children", "label", "move", "player", "value"})

_INF = float("inf")


def format_vector(vector: Sequence[Number]) -> str:
    """``(3, 1, 4)``: a leaf's utilities as narration and drawings show them."""
    return "(" + ", ".join(format_number(x) for x in vector) + ")"


# The tree ------------------------------------------------------------------------------


@dataclass(eq=False)
class MultiTree:
    """A tree of a game of ``players`` players, nodes numbered in preorder from 0.

    ``player[i]`` is whose turn it is at inner node ``i`` (0-based; -1 at leaves),
    ``value[i]`` a leaf's vector of utilities (``None`` at inner nodes). ``label`` and
    ``move`` are the input's, or ``None``. Names follow :meth:`plies.trees.Tree.name`:
    the label, else letters in preorder for inner nodes and the parent's name with
    the leaf's 1-based place for leaves (``B2``).
    """

    players: int
    parent: list[int]
    player: list[int]
    value: list[Vector | None]
    label: list[str | None]
    move: list[str | None]
    children: list[list[int]] = field(init=False)
    depth: list[int] = field(init=False)
    leaf_ids: list[int] = field(init=False)
    leaf_index: list[int] = field(init=False)
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.parent)
        self.children = [[] for _ in range(n)]
        self.depth = [0] * n
        for node in range(1, n):
            above = self.parent[node]
            self.children[above].append(node)
            self.depth[node] = self.depth[above] + 1
        self.leaf_ids = [i for i in range(n) if not self.children[i]]
        self.leaf_index = [-1] * n
        for k, leaf in enumerate(self.leaf_ids):
            self.leaf_index[leaf] = k
        self.names = self._all_names()

    def __len__(self) -> int:
        return len(self.parent)

    @property
    def leaf_count(self) -> int:
        """Number of leaves."""
        return len(self.leaf_ids)

    @property
    def height(self) -> int:
        """Length of the longest root-to-leaf path, in edges."""
        return max(self.depth)

    def is_leaf(self, node: int) -> bool:
        """Whether ``node`` is a leaf."""
        return not self.children[node]

    def name(self, node: int) -> str:
        """The name narration, JSON and drawings give ``node``."""
        return self.names[node]

    def child_index(self, node: int) -> int:
        """The place of ``node`` among its parent's children, from 0."""
        return self.children[self.parent[node]].index(node)

    def _all_names(self) -> list[str]:
        taken = set(self.label)
        letters = (name for name in letter_names() if name not in taken)
        names: list[str] = []
        for node, label in enumerate(self.label):
            if label is not None:
                names.append(label)
            elif node == 0 or self.children[node]:
                names.append(next(letters))
            else:
                above = names[self.parent[node]]
                place = self.child_index(node) + 1
                name = f"{above}.{place}" if above[-1:].isdigit() else f"{above}{place}"
                while name in taken:
                    name += "'"
                names.append(name)
        return names


# Reading ----------------------------------------------------------------------------


def is_multi_text(text: str) -> bool:
    """Whether ``text`` is the JSON of an N-player tree: an object with ``"players"``
    at the top. Cheap for other text (JSON is only read when the key is there)."""
    stripped = text.lstrip().removeprefix("\ufeff")
    if not stripped.startswith("{") or '"players"' not in stripped:
        return False
    try:
        data = _loads_deep(stripped)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "players" in data


def parse_multi(text: str) -> MultiTree:
    """Read an N-player tree from JSON: ``{"players": N, "tree": NODE}``, or the root
    node itself with ``"players": N`` among its keys.

    A NODE is an object with ``children`` (a list of nodes) or ``value`` (a list of
    ``N`` numbers, one utility per player; ``"inf"``/``"-inf"`` allowed), and optionally
    ``player`` (0-based, inner nodes only), ``label`` and ``move``. A list of numbers is
    a leaf's vector; any other list is an inner node's children. Players take turns by
    depth: a node without ``player`` is the turn of the player after its parent's
    (``(p + 1) % N``), the root's of player 0.

    Raises :class:`~plies.errors.ParseError` for text that is not JSON and
    :class:`~plies.errors.TreeError`, naming the node by its path (``root``, ``1.0``),
    for anything else amiss.
    """
    src = _Source(_need_text(text))
    _check_text(src)
    data = _read_json(src)
    if not isinstance(data, dict) or "players" not in data:
        raise TreeError(
            'an N-player tree is a JSON object with "players": N at the top '
            '(e.g. {"players": 3, "tree": [[[1,2,3],[3,2,1]],[[0,0,9]]]})'
        )
    return multi_tree(data)


def multi_tree(data: Any, players: int | None = None) -> MultiTree:
    """An N-player tree from Python data shaped as :func:`parse_multi`'s JSON: a
    document ``{"players": N, "tree": NODE}`` (or a root node with ``"players"``), or
    a bare NODE with ``players`` given here."""
    if isinstance(data, dict) and "players" in data:
        if players is not None:
            raise TreeError('players is given twice: as an argument and as "players"')
        players = _need_players(data["players"])
        if "tree" in data:
            unknown = set(data) - _DOC_KEYS
            if unknown:
                raise TreeError(
                    f"unknown key {sorted(unknown)[0]!r} in the tree document "
                    "(expected players, tree)"
                )
            data = data["tree"]
        else:
            data = {k: v for k, v in data.items() if k != "players"}
    elif players is None:
        raise TreeError('how many players? give "players": N')
    else:
        players = _need_players(players)
    return _build(data, players)


def _need_players(raw: Any) -> int:
    if type(raw) is not int or not 2 <= raw <= MAX_PLAYERS:
        raise TreeError(
            f'"players" must be a whole number from 2 to {MAX_PLAYERS}, not '
            f"{json.dumps(raw)[:40] if not isinstance(raw, int | str) else repr(raw)}"
        )
    return raw


def _is_vector(item: Any) -> bool:
    """A list of numbers (or "inf"/"-inf" strings) only: a leaf's utilities."""
    return (
        isinstance(item, list)
        and bool(item)
        and all(isinstance(x, int | float | str) and not isinstance(x, bool) for x in item)
    )


class _Builder:
    """The nodes of a tree as they are read, in preorder."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.parent: list[int] = []
        self.player: list[int] = []
        self.value: list[Vector | None] = []
        self.label: list[str | None] = []
        self.move: list[str | None] = []

    def add(
        self,
        parent: int,
        *,
        player: int = -1,
        value: Vector | None = None,
        label: str | None = None,
        move: str | None = None,
    ) -> int:
        if len(self.parent) >= MAX_NODES:
            raise LimitError(f"the tree has more than {MAX_NODES:,} nodes")
        self.parent.append(parent)
        self.player.append(player)
        self.value.append(value)
        self.label.append(label)
        self.move.append(move)
        return len(self.parent) - 1

    def turn_after(self, parent: int) -> int:
        return 0 if parent < 0 else (self.player[parent] + 1) % self.players

    def vector(self, raw: Any, where: str) -> Vector:
        if not isinstance(raw, list):
            raise TreeError(
                f"the value at {where} must be a list of {self.players} numbers (one per "
                f"player), not {json.dumps(raw)[:40]}"
            )
        if len(raw) != self.players:
            raise TreeError(
                f"the value at {where} has {len(raw)} numbers; this tree has "
                f"{self.players} players, so every leaf needs {self.players}"
            )
        return tuple(
            _json_number(x, f"utility {k} of the value at {where}") for k, x in enumerate(raw)
        )

    def node_player(self, raw: Any, parent: int, where: str) -> int:
        if raw is None:
            return self.turn_after(parent)
        if type(raw) is not int or not 0 <= raw < self.players:
            raise TreeError(
                f"the player at {where} must be a whole number from 0 to {self.players - 1} "
                f"(players count from 0), not {json.dumps(raw)[:40]}"
            )
        return raw


def _build(data: Any, players: int) -> MultiTree:
    """Read the nodes in preorder with an explicit stack (children pushed in reverse)."""
    builder = _Builder(players)
    stack: list[tuple[int, Any, str | None, int]] = [(-1, data, None, 0)]
    while stack:
        parent, item, above, index = stack.pop()
        where = _json_path(above, index)
        if _is_vector(item):
            builder.add(parent, value=builder.vector(item, where))
            continue
        children = _add_node(builder, parent, item, where)
        if children is not None:
            node = len(builder.parent) - 1
            stack.extend((node, children[i], where, i) for i in range(len(children) - 1, -1, -1))
    tree = MultiTree(
        players, builder.parent, builder.player, builder.value, builder.label, builder.move
    )
    if tree.height > MAX_MULTI_DEPTH:
        raise LimitError(
            f"the N-player tree is {tree.height} levels deep; plies searches N-player "
            f"trees of at most {MAX_MULTI_DEPTH} levels"
        )
    return tree


def _add_node(builder: _Builder, parent: int, item: Any, where: str) -> list[Any] | None:
    """Add the node ``item`` describes; its children (``None`` for a leaf)."""
    if isinstance(item, list):
        if not item:
            raise TreeError(f"empty list at {where}: a node needs children or a value")
        builder.add(parent, player=builder.turn_after(parent))
        return item
    if not isinstance(item, dict):
        raise TreeError(
            f"the node at {where} must be an object, a list of children or a list of "
            f"{builder.players} numbers, not {json.dumps(item)[:40]}"
        )
    unknown = set(item) - _NODE_KEYS
    if unknown:
        hint = " (an N-player tree says whose turn it is with player)" if "kind" in unknown else ""
        raise TreeError(
            f"unknown key {sorted(unknown)[0]!r} in the node at {where}{hint} "
            f"(expected {', '.join(sorted(_NODE_KEYS))})"
        )
    label = _json_text(item.get("label"), f"the label at {where}")
    move = _json_text(item.get("move"), f"the move at {where}")
    children = item.get("children")
    if "value" in item:
        if children:
            raise TreeError(f"the node at {where} has both a value and children")
        if item.get("player") is not None:
            raise TreeError(f"the leaf at {where} has a player; only inner nodes have one")
        if item["value"] is None:
            raise TreeError(f"the leaf at {where} has no value (null)")
        builder.add(parent, value=builder.vector(item["value"], where), label=label, move=move)
        return None
    if not isinstance(children, list) or not children:
        raise TreeError(f"the node at {where} needs a value or a non-empty children list")
    player = builder.node_player(item.get("player"), parent, where)
    builder.add(parent, player=player, label=label, move=move)
    return children


def random_multi_tree(
    *,
    players: int = 3,
    branching: int = 2,
    depth: int = 3,
    seed: int = 0,
    low: int = 0,
    high: int = 9,
) -> MultiTree:
    """A complete tree of ``branching`` children per inner node and ``depth`` levels,
    players taking turns by depth, with whole utilities drawn from ``[low, high]`` by
    a generator seeded with ``seed`` (the same seed, the same tree)."""
    if branching < 1 or depth < 0 or branching**depth > 100_000:
        raise TreeError(
            f"a random tree needs branching >= 1, depth >= 0 and at most 100,000 leaves, "
            f"not branching {branching} and depth {depth}"
        )
    rng = random.Random(seed)

    def node(level: int) -> Any:
        if level == depth:
            return [rng.randint(low, high) for _ in range(players)]
        return [node(level + 1) for _ in range(branching)]

    return multi_tree(node(0), players=players)


# Results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MultiCutoff:
    """A cut-off: at ``node`` the search stopped (``alpha >= beta``, set as ``reason``
    says) and left ``pruned`` (node ids: the first node of each move not searched)."""

    node: int
    pruned: tuple[int, ...]
    reason: str


@dataclass
class MultiResult:
    """What a search of a :class:`MultiTree` found.

    ``value`` is the root's vector (max^n) or the root player's utility (paranoid,
    BRS). ``pv`` is the principal line as node ids from the root, ``path`` the same as
    child indices. ``evaluated`` lists the leaf numbers in the order the search read
    them; ``values`` holds the value of every node the search backed up (vectors for
    max^n); ``visited`` the nodes it looked at. ``steps`` is the narration when the
    search was traced.
    """

    tree: MultiTree
    algorithm: str
    player: int | None
    value: Vector | Number
    pv: list[int]
    evaluated: list[int]
    values: dict[int, Vector | Number]
    visited: set[int]
    cutoffs: list[MultiCutoff]
    steps: list[str]

    @property
    def path(self) -> list[int]:
        """The principal line as child indices from the root (``[]``: the root is a leaf)."""
        return [self.tree.child_index(node) for node in self.pv[1:]]

    @property
    def pruned(self) -> set[int]:
        """Every node inside a subtree a cut-off pruned."""
        out: set[int] = set()
        for cut in self.cutoffs:
            for top in cut.pruned:
                stack = [top]
                while stack:
                    node = stack.pop()
                    out.add(node)
                    stack.extend(self.tree.children[node])
        return out

    def summary(self) -> str:
        """``evaluated 5 of 8 leaves, 2 cut-offs``."""
        cuts = len(self.cutoffs)
        return (
            f"evaluated {len(self.evaluated)} of {self.tree.leaf_count} leaves, "
            f"{cuts} cut-off{'' if cuts == 1 else 's'}"
        )


class _Search:
    """What one search keeps: the tree, the root player, the trace and the results."""

    def __init__(self, tree: MultiTree, algorithm: str, player: int | None, trace: bool) -> None:
        self.tree = tree
        self.algorithm = algorithm
        self.player = player
        self.trace = trace
        self.steps: list[str] = []
        self.evaluated: list[int] = []
        self.values: dict[int, Vector | Number] = {}
        self.visited: set[int] = set()
        self.cutoffs: list[MultiCutoff] = []
        #: The nodes from each node down to the next node searched on its best line.
        self.route: dict[int, list[int]] = {}

    def say(self, text: str) -> None:
        self.steps.append(f"Step {len(self.steps) + 1}: {text}")

    def leaf(self, node: int) -> Vector:
        vector = self.tree.value[node]
        assert vector is not None  # the reader gives every leaf a vector
        self.visited.add(node)
        self.evaluated.append(self.tree.leaf_index[node])
        return vector

    def who(self, node: int) -> str:
        """``B (player 1)``, with MAX or MIN for the two-sided searches."""
        p = self.tree.player[node]
        if self.player is None:
            return f"{self.tree.name(node)} (player {p})"
        side = "MAX" if p == self.player else "MIN"
        return f"{self.tree.name(node)} (player {p}, {side})"

    def result(self, value: Vector | Number) -> MultiResult:
        pv = [0]
        while pv[-1] in self.route:
            pv.extend(self.route[pv[-1]])
        return MultiResult(
            self.tree,
            self.algorithm,
            self.player,
            value,
            pv,
            self.evaluated,
            self.values,
            self.visited,
            self.cutoffs,
            self.steps,
        )


def _root_player(tree: MultiTree, player: int | None) -> int:
    if player is None:
        return tree.player[0] if tree.player[0] >= 0 else 0
    if type(player) is not int or not 0 <= player < tree.players:
        raise SearchError(
            f"the root player must be from 0 to {tree.players - 1} (players count from 0), "
            f"not {player!r}"
        )
    return player


# max^n --------------------------------------------------------------------------------


def maxn(tree: MultiTree, *, trace: bool = False) -> MultiResult:
    """max^n (Luckhardt and Irani, 1986): at each node the player to move takes the
    child whose vector gives it the most; a tie goes to the leftmost child. Every leaf
    is evaluated (no pruning). The value is the root's vector."""
    run = _Search(tree, "maxn", None, trace)
    return run.result(_maxn(run, 0))


def _maxn(run: _Search, node: int) -> Vector:
    tree = run.tree
    if tree.is_leaf(node):
        vector = run.leaf(node)
        if run.trace:
            run.say(_evaluated(run, node, vector))
        run.values[node] = vector
        return vector
    run.visited.add(node)
    p = tree.player[node]
    if run.trace:
        run.say(f"enter {run.who(node)}: player {p} takes the child best for it")
    best: Vector | None = None
    for child in tree.children[node]:
        vector = _maxn(run, child)
        better = best is None or vector[p] > best[p]
        if better:
            best = vector
            run.route[node] = [child]
        if run.trace:
            run.say(
                f"at {run.who(node)}, {tree.name(child)} gives {format_vector(vector)}: "
                f"player {p} gets {format_number(vector[p])}; "
                + ("best so far" if better else f"no better than {format_number(best[p])}")  # type: ignore[index]
            )
    assert best is not None  # inner nodes have children
    run.values[node] = best
    if run.trace:
        run.say(f"{run.who(node)} is done: its value is {format_vector(best)}")
    return best


def _evaluated(run: _Search, node: int, vector: Vector) -> str:
    tree = run.tree
    text = (
        f"evaluate leaf {tree.name(node)} = {format_vector(vector)} "
        f"(#{len(run.evaluated)} evaluated, leaf number {tree.leaf_index[node]})"
    )
    if run.player is not None:
        text += f": player {run.player} gets {format_number(vector[run.player])}"
    return text


# Paranoid -------------------------------------------------------------------------------


def paranoid(tree: MultiTree, *, player: int | None = None, trace: bool = False) -> MultiResult:
    """Paranoid alpha-beta (Sturtevant and Korf, 2000): ``player`` (default: the
    player to move at the root) maximises its own utility, every other player is
    assumed to minimise it. Fail-soft alpha-beta: a node stops searching its children
    once ``alpha >= beta`` and the cut-off lists the children it pruned. Ties go to the
    leftmost child. The value is ``player``'s utility."""
    run = _Search(tree, "paranoid", _root_player(tree, player), trace)
    return run.result(_paranoid(run, 0, -_INF, _INF))


def _paranoid(run: _Search, node: int, alpha: Number, beta: Number) -> Number:
    tree = run.tree
    if tree.is_leaf(node):
        return _leaf_value(run, node)
    run.visited.add(node)
    if run.trace:
        run.say(f"enter {run.who(node)} with {_window(alpha, beta)}")
    kids = tree.children[node]
    side = _Side(run, node, alpha, beta)
    for k, child in enumerate(kids):
        if side.take(child, _paranoid(run, child, side.alpha, side.beta), [child]):
            side.cut(kids[k + 1 :])
            break
    return side.done()


def _leaf_value(run: _Search, node: int) -> Number:
    vector = run.leaf(node)
    assert run.player is not None
    value = vector[run.player]
    run.values[node] = value
    if run.trace:
        run.say(_evaluated(run, node, vector))
    return value


def _window(alpha: Number, beta: Number) -> str:
    return f"alpha={format_number(alpha)}, beta={format_number(beta)}"


class _Side:
    """One MAX node or MIN layer of a two-sided search (paranoid, BRS): its best
    value so far, its window, and the narration of each child's value."""

    def __init__(self, run: _Search, node: int, alpha: Number, beta: Number) -> None:
        self.run = run
        self.node = node
        self.is_max = run.tree.player[node] == run.player
        self.alpha = alpha
        self.beta = beta
        self.best: Number | None = None
        self.reason = ""

    def take(self, child: int, value: Number, route: list[int]) -> bool:
        """Back up ``value`` (reached through ``route``); whether to cut off now."""
        run = self.run
        better = self.best is None or (value > self.best if self.is_max else value < self.best)
        note = f"no better than {format_number(self.best)}"  # type: ignore[arg-type]
        if better:
            self.best = value
            run.route[self.node] = route
            note = f"best so far is {format_number(value)}"
            if self.is_max and value > self.alpha:
                self.alpha = value
                note += f"; alpha rises to {format_number(value)}"
            elif not self.is_max and value < self.beta:
                self.beta = value
                note += f"; beta falls to {format_number(value)}"
        cut = self.alpha >= self.beta
        if cut:
            v = format_number(value)
            self.reason = (
                f"v={v} >= beta={format_number(self.beta)}"
                if self.is_max
                else f"v={v} <= alpha={format_number(self.alpha)}"
            )
        if run.trace:
            gives = f"{run.tree.name(child)} gives {format_number(value)}"
            run.say(f"at {run.who(self.node)}, {gives}; {note}")
        return cut

    def cut(self, pruned: Sequence[int]) -> None:
        """Record the cut-off (if any move is left to prune)."""
        if not pruned:
            return
        run = self.run
        run.cutoffs.append(MultiCutoff(self.node, tuple(pruned), self.reason))
        if run.trace:
            names = _and(run.tree.name(n) for n in pruned)
            run.say(f"{self.reason}, so {names} {'is' if len(pruned) == 1 else 'are'} pruned")

    def done(self) -> Number:
        run = self.run
        assert self.best is not None  # every node and layer has a move
        run.values[self.node] = self.best
        if run.trace:
            run.say(f"{run.who(self.node)} is done: its value is {format_number(self.best)}")
        return self.best


def _and(names: Iterator[str]) -> str:
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# Best-Reply Search -----------------------------------------------------------------------


def best_reply(tree: MultiTree, *, player: int | None = None, trace: bool = False) -> MultiResult:
    """Best-Reply Search (Schadd and Winands, 2011) for ``player`` (default: the
    player to move at the root), with alpha-beta pruning.

    BRS searches a two-sided tree: ``player``'s turns are MAX nodes; between two of
    them, the opponents' turns are merged into one MIN layer in which exactly one
    opponent moves (the best reply, the one worst for ``player``) and the others pass.
    An explicit tree has no passes, so plies reads it this way, as BRS+ (Esser et al.,
    2014) does with its move ordering: an opponent who does not reply plays its first
    (leftmost) move. Precisely, the MIN layer at an opponent's node ``c`` is the chain
    of opponents' nodes ``c = d0, d1, ...`` that first moves lead through (``d(i+1)`` is
    ``di``'s first child), down to a node of ``player`` or a leaf. A reply is one move
    ``m`` of one chain node ``di`` (the opponents before it play first moves, the
    opponents after it play first moves again), and it ends at the first node of
    ``player`` or leaf below ``m`` along first moves. The layer's value is the least
    value among the replies, tried in order (``d0``'s moves left to right, then
    ``d1``'s, ...), each end once; ties go to the first reply. So every line BRS
    searches is a real line of the tree, and the other opponents' non-first moves are
    never looked at (drawn grey). With a root of an opponent, the root is a MIN layer.
    The value is ``player``'s utility.
    """
    run = _Search(tree, "brs", _root_player(tree, player), trace)
    return run.result(_brs(run, 0, -_INF, _INF))


@dataclass(frozen=True)
class _Reply:
    """One reply of a MIN layer: ``mover`` plays ``move``; ``route`` is the line from
    the layer's first node (exclusive) to ``end``, the next node searched."""

    mover: int
    move: int
    route: list[int]

    @property
    def end(self) -> int:
        return self.route[-1]


def _first_moves(tree: MultiTree, node: int, player: int) -> list[int]:
    """``node`` and the nodes its opponents' first moves lead to, down to a node of
    ``player`` or a leaf."""
    line = [node]
    while tree.children[line[-1]] and tree.player[line[-1]] != player:
        line.append(tree.children[line[-1]][0])
    return line


def _replies(tree: MultiTree, node: int, player: int) -> list[_Reply]:
    """The replies of the MIN layer at ``node`` (see :func:`best_reply`), in order."""
    chain = _first_moves(tree, node, player)[:-1]
    replies: list[_Reply] = []
    ends: set[int] = set()
    for i, mover in enumerate(chain):
        for move in tree.children[mover]:
            route = chain[1 : i + 1] + _first_moves(tree, move, player)
            if route[-1] not in ends:
                ends.add(route[-1])
                replies.append(_Reply(mover, move, route))
    return replies


def _brs(run: _Search, node: int, alpha: Number, beta: Number) -> Number:
    tree = run.tree
    assert run.player is not None
    if tree.is_leaf(node):
        return _leaf_value(run, node)
    run.visited.add(node)
    side = _Side(run, node, alpha, beta)
    if side.is_max:
        if run.trace:
            run.say(f"enter {run.who(node)} with {_window(alpha, beta)}")
        kids = tree.children[node]
        for k, child in enumerate(kids):
            if side.take(child, _brs(run, child, side.alpha, side.beta), [child]):
                side.cut(kids[k + 1 :])
                break
        return side.done()
    replies = _replies(tree, node, run.player)
    if run.trace:
        movers = sorted({tree.player[r.mover] for r in replies})
        run.say(
            f"enter {run.who(node)} with {_window(alpha, beta)}: the MIN layer of "
            f"player{'s' if len(movers) > 1 else ''} {_and(str(p) for p in movers)}, "
            f"{len(replies)} repl{'y' if len(replies) == 1 else 'ies'} (one opponent "
            "moves, the others play their first move)"
        )
    for k, reply in enumerate(replies):
        run.visited.update(reply.route)
        if run.trace:
            run.say(_reply_text(run, node, reply))
        if side.take(reply.end, _brs(run, reply.end, side.alpha, side.beta), reply.route):
            side.cut([r.move for r in replies[k + 1 :]])
            break
    return side.done()


def _reply_text(run: _Search, head: int, reply: _Reply) -> str:
    tree = run.tree
    text = (
        f"reply: player {tree.player[reply.mover]} plays {tree.name(reply.move)} "
        f"at {tree.name(reply.mover)}"
    )
    if reply.mover != head:
        text += " (reached by first moves)"
    if reply.end != reply.move:
        text += f", first moves lead on to {tree.name(reply.end)}"
    return text


# Dispatch and text -----------------------------------------------------------------------


def search_multi(
    tree: MultiTree, algorithm: str, *, player: int | None = None, trace: bool = False
) -> MultiResult:
    """Run ``algorithm`` (one of :data:`MULTI_ALGORITHMS`) on ``tree``; ``player`` is
    the root player of paranoid and BRS (max^n has none and refuses one)."""
    if algorithm == "maxn":
        if player is not None:
            raise SearchError("max^n has no root player: every player maximises its own utility")
        return maxn(tree, trace=trace)
    if algorithm == "paranoid":
        return paranoid(tree, player=player, trace=trace)
    if algorithm == "brs":
        return best_reply(tree, player=player, trace=trace)
    raise SearchError(
        f"unknown N-player search {algorithm!r} (expected {', '.join(MULTI_ALGORITHMS)})"
    )


def _shown_value(value: Vector | Number) -> str:
    return format_vector(value) if isinstance(value, tuple) else format_number(value)


def multi_tree_lines(tree: MultiTree, result: MultiResult | None = None) -> list[str]:
    """The tree as indented text, one node a line: names, whose turn, leaf vectors;
    with ``result``, each node's backed-up value, ``#k`` on evaluated leaves, the
    principal line, what was pruned, and (BRS) what was never looked at."""
    marks = None if result is None else _Marks(result)
    lines: list[str] = []
    stack: list[tuple[int, str, str]] = [(0, "", "")]
    while stack:
        node, lead, indent = stack.pop()
        text = _node_text(tree, node)
        lines.append(lead + (text if marks is None else text + marks.of(node)))
        kids = tree.children[node]
        for k in range(len(kids) - 1, -1, -1):
            last = k == len(kids) - 1
            branch, below = ("└── ", "    ") if last else ("├── ", "│   ")
            stack.append((kids[k], indent + branch, indent + below))
    return lines


def _node_text(tree: MultiTree, node: int) -> str:
    """``B player 1`` or ``B1: (3, 1, 4)``, with the move in brackets."""
    vector = tree.value[node]
    if vector is None:
        text = f"{tree.name(node)} player {tree.player[node]}"
    else:
        text = f"{tree.name(node)}: {format_vector(vector)}"
    if tree.move[node] is not None:
        text += f" [{tree.move[node]}]"
    return text


class _Marks:
    """What a search adds to each node's line."""

    def __init__(self, result: MultiResult) -> None:
        self.result = result
        self.pv = set(result.pv)
        self.pruned = result.pruned
        self.order = {leaf: k + 1 for k, leaf in enumerate(result.evaluated)}

    def of(self, node: int) -> str:
        result, tree = self.result, self.result.tree
        text = ""
        if not tree.is_leaf(node) and node in result.values:
            text += f"  v={_shown_value(result.values[node])}"
        k = self.order.get(tree.leaf_index[node])
        if k is not None:
            text += f"  #{k}"
        if tree.is_leaf(node):
            text += f"  (leaf {tree.leaf_index[node]})"
        if node in self.pv:
            text += "  ◀ principal line"
        elif node in self.pruned:
            text += "  ✂ pruned"
        elif node not in result.visited:
            text += "  · not searched"
        return text
