"""Readers for the notations game trees are written in.

One reader per notation, all building a :class:`~plies.trees.Tree` without recursion:

* **brackets** — nested lists, JSON-style ``[[3,12,8],[2,4,6]]`` or with parentheses
  ``((3 12 8)(2 4 6))``, and labelled trees ``A(B(D(2,3),E(5,9)),C(...))`` with
  optional leaf labels ``H:2`` or ``H=2``. Commas or white space separate children.
* **flat** — a list of leaves plus a branching factor, read as a complete tree.
* **json** — an object form that can say everything (kinds, labels, probabilities,
  static values, leaf bounds).
* **cs188** — Berkeley CS188 multi-agent ``GraphGameTreeTest`` files.

:func:`parse` picks the notation from the text unless told. Errors are
:class:`~plies.errors.ParseError` naming the line and column and what was expected.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from plies.errors import ParseError, TreeError
from plies.trees._model import Number, Tree, TreeBuilder, no_gc

__all__ = [
    "NOTATIONS",
    "from_leaves",
    "parse",
    "parse_brackets",
    "parse_cs188",
    "parse_flat",
    "parse_json",
    "parse_number",
]

Notation = Literal["auto", "brackets", "flat", "json", "cs188"]
NOTATIONS: tuple[str, ...] = ("auto", "brackets", "flat", "json", "cs188")

#: Trees larger than this are refused rather than exhausting memory (CS188 graphs
#: with shared states expand into trees, which can grow exponentially).
MAX_NODES = 20_000_000

_NUMBER = r"[+-]?(?:inf(?:inity)?|∞|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
# Leading white space is swallowed by each token, so one match is one token.
_TOKEN = re.compile(
    rf"""\s*(?:
     (?P<num>{_NUMBER})(?![\w.])
    |(?P<word>[A-Za-z_][A-Za-z0-9_']*)
    |(?P<open>[\[(])
    |(?P<close>[\])])
    |(?P<comma>,)
    |(?P<colon>[:=])
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_CLOSE = {"[": "]", "(": ")"}
_PLAIN_NUMBERS = re.compile(r"[\s\d\[\],.eE+-]*")
_INT = re.compile(r"[+-]?\d+\Z")


def parse_number(text: str) -> Number:
    """Read a leaf value: an integer, a decimal, or ``inf``/``-inf`` (also ``∞``).

    Raises :class:`ValueError` (not :class:`ParseError`) so callers can add a position.
    """
    t = text.strip()
    if _INT.match(t):
        return int(t)
    low = t.lower().lstrip("+")
    if low in ("inf", "infinity", "∞"):
        return math.inf
    if low in ("-inf", "-infinity", "-∞"):
        return -math.inf
    if not re.fullmatch(_NUMBER, t, re.IGNORECASE):
        raise ValueError(f"not a number: {text!r}")
    value = float(t)
    if math.isnan(value):
        raise ValueError(f"not a number: {text!r}")
    return value


class _Source:
    """Turns offsets into 1-based (line, column) for error messages."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def error(self, message: str, pos: int, found: str | None = None) -> ParseError:
        line = bisect.bisect_right(self.line_starts, pos)
        column = pos - self.line_starts[line - 1] + 1
        return ParseError(message, line=line, column=column, found=found)


def _describe(kind: str, text: str) -> str:
    if kind == "end":
        return "end of input"
    return repr(text)


def _tokens(src: _Source) -> Iterator[tuple[str, str, int]]:
    """Yield ``(kind, text, offset)`` for each token, then ``("end", "", len)``."""
    text = src.text
    pos = 0
    n = len(text)
    match = _TOKEN.match
    while True:
        m = match(text, pos)
        if m is None:
            rest = text[pos:]
            stripped = rest.lstrip()
            if not stripped:
                break
            bad = pos + len(rest) - len(stripped)
            raise src.error(f"unexpected character {text[bad]!r}", bad)
        kind = m.lastgroup
        assert kind is not None
        yield kind, m.group(kind), m.start(kind)
        pos = m.end()
    yield "end", "", n


def parse_brackets(text: str, *, root: str = "max") -> Tree:
    """Read nested lists or a labelled tree: ``[[3,12,8],[2,4,6]]``, ``((3 12)(2 4))``,
    ``A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))``.

    Leaves are numbers, optionally labelled (``H:2`` or ``H=2``); inner nodes are a
    bracket group, optionally preceded by a label. Kinds alternate by depth from ``root``.
    """
    if _PLAIN_NUMBERS.fullmatch(text):
        # Fast path for large JSON-style lists of numbers: the C JSON reader, then one
        # loop over the nested lists. Anything it rejects gets the full reader below,
        # which explains errors by position.
        try:
            data = _loads_deep(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, list):
            try:
                return _from_nested(data, root)
            except TreeError:
                pass  # e.g. empty brackets: the full reader says where
    src = _Source(text)
    builder = TreeBuilder(root=root)
    # Appending straight to the builder's lists: this loop runs once per token.
    add_parent, add_value, add_label = (
        builder.parent.append,
        builder.value.append,
        builder.label.append,
    )
    tokens = _tokens(src)
    # Each open group: (node id, opening character, its offset, whether a node may follow
    # at once: true right after the bracket or a comma).
    stack: list[tuple[int, str, int]] = []
    need_node = True  # a node must come next (start, after '(' or ',')
    kind, tok, pos = next(tokens)
    if kind == "end":
        raise src.error("the tree is empty", pos)
    while True:
        if kind in ("num", "word", "open"):
            if not need_node and not stack:
                raise src.error(
                    "unexpected text after the end of the tree", pos, _describe(kind, tok)
                )
            parent = stack[-1][0] if stack else -1
            label: str | None = None
            if kind == "word":
                label = tok
                kind, tok, pos = next(tokens)
                if kind == "colon":
                    kind, tok, pos = next(tokens)
                    if kind != "num":
                        raise src.error(
                            f"expected a number after '{label}:'", pos, _describe(kind, tok)
                        )
                elif kind != "open":
                    raise src.error(
                        f"expected '(' or ':' after the label {label!r}",
                        pos,
                        _describe(kind, tok),
                    )
            if kind == "num":
                number, number_pos = tok, pos
                kind, tok, pos = next(tokens)
                if (
                    kind == "open"
                    and tok == "("
                    and label is None
                    and pos == number_pos + len(number)
                ):
                    # A node labelled by a number, written against its bracket: 1(2,3).
                    # With a space, (1 (2 3)) stays a leaf 1 beside a subtree.
                    label = number
                else:
                    try:
                        value: Number = int(number)  # the common case, fast
                    except ValueError:
                        try:
                            value = parse_number(number)
                        except ValueError:
                            raise src.error(f"bad number {number!r}", number_pos) from None
                    add_parent(parent)
                    add_value(value)
                    add_label(label)
                    need_node = False
                    if len(builder.parent) > MAX_NODES:
                        raise src.error(f"the tree has more than {MAX_NODES:,} nodes", pos)
                    continue  # the token after the leaf is already read
            # An opening bracket (the label, if any, is read): an inner node.
            node = len(builder.parent)
            add_parent(parent)
            add_value(None)
            add_label(label)
            stack.append((node, tok, pos))
            kind, tok, pos = next(tokens)
            if kind == "close":
                raise src.error("empty brackets: a node needs children or a value", pos)
            need_node = True
            continue
        elif need_node:
            if kind == "end" and not stack:
                raise src.error("the tree is empty", pos)
            raise src.error(
                "expected a number, a label or an opening bracket", pos, _describe(kind, tok)
            )
        elif kind == "comma":
            if not stack:
                raise src.error(
                    "unexpected ',' after the end of the tree (for a flat list of leaves, "
                    "give a branching factor)",
                    pos,
                )
            need_node = True
        elif kind == "close":
            if not stack:
                raise src.error(f"unmatched {tok!r}", pos)
            _node, opening, _ = stack[-1]
            if tok != _CLOSE[opening]:
                raise src.error(f"expected ',' or {_CLOSE[opening]!r}", pos, repr(tok))
            stack.pop()
        elif kind == "end":
            if stack:
                _node, opening, open_pos = stack[-1]
                where = src.error("", open_pos)
                raise src.error(
                    f"expected ',' or {_CLOSE[opening]!r}",
                    pos,
                    f"end of input (the {opening!r} at column {where.column} is never closed)",
                )
            break
        else:
            expected = f"',' or {_CLOSE[stack[-1][1]]!r}" if stack else "end of input"
            raise src.error(f"expected {expected}", pos, _describe(kind, tok))
        kind, tok, pos = next(tokens)
    return builder.build()


def _from_nested(data: list[Any], root: str) -> Tree:
    """A tree from nested lists of numbers (as the JSON reader returns them)."""
    builder = TreeBuilder(root=root)
    add_parent, add_value, add_label = (
        builder.parent.append,
        builder.value.append,
        builder.label.append,
    )
    stack: list[tuple[int, Any]] = [(-1, data)]
    pop, push = stack.pop, stack.append
    while stack:
        parent, item = pop()
        node = len(builder.parent)
        add_parent(parent)
        add_label(None)
        if isinstance(item, list):
            if not item:
                raise TreeError(f"empty brackets at node {node}: a node needs children or a value")
            add_value(None)
            for i in range(len(item) - 1, -1, -1):
                push((node, item[i]))
        else:
            add_value(item)
    return builder.build()


def _split_numbers(text: str, what: str) -> list[Number]:
    values: list[Number] = []
    for m in re.finditer(r"[^\s,;]+", text):
        try:
            values.append(parse_number(m.group()))
        except ValueError:
            raise ParseError(
                f"{what} {m.group()!r} is not a number", column=m.start() + 1
            ) from None
    if not values:
        raise ParseError(f"no {what}s given")
    return values


def parse_flat(text: str, *, branching: int, root: str = "max") -> Tree:
    """Read ``"3,5,6,9,1,2,0,-1"`` (commas or spaces) as the leaves of a complete
    ``branching``-ary tree, left to right."""
    return from_leaves(_split_numbers(text, "leaf"), branching=branching, root=root)


def from_leaves(leaves: Sequence[Number], *, branching: int, root: str = "max") -> Tree:
    """Build the complete ``branching``-ary tree whose leaves, left to right, are
    ``leaves``. The number of leaves must be a power of ``branching``."""
    with no_gc():
        return _from_leaves(leaves, branching, root)


def _from_leaves(leaves: Sequence[Number], branching: int, root: str) -> Tree:
    if branching < 2:
        raise TreeError(f"the branching factor must be at least 2, not {branching}")
    count = len(leaves)
    if count == 0:
        raise TreeError("no leaves given")
    depth = 0
    full = 1
    while full < count:
        full *= branching
        depth += 1
    if full != count or depth == 0:
        lower = full // branching if full > count else full
        options = ", ".join(f"{branching**d}" for d in range(1, 5))
        raise TreeError(
            f"{count} leaves do not fill a complete {branching}-ary tree "
            f"(it needs a power of {branching}: {options}, ...; nearest below is {lower})"
        )
    builder = TreeBuilder(root=root)
    add_parent, add_value, add_label = (
        builder.parent.append,
        builder.value.append,
        builder.label.append,
    )
    # Preorder over a complete tree: an explicit stack of (parent, depth).
    stack = [(-1, 0)]
    pop, push = stack.pop, stack.append
    leaf = 0
    while stack:
        parent, d = pop()
        node = len(builder.parent)
        add_parent(parent)
        add_label(None)
        if d == depth:
            add_value(leaves[leaf])
            leaf += 1
            continue
        add_value(None)
        for _ in range(branching):
            push((node, d + 1))
    return builder.build()


# JSON object form ---------------------------------------------------------------------

_NODE_KEYS = {"label", "kind", "value", "static", "children", "probability", "p", "move"}
_DOC_KEYS = {"tree", "bounds", "root"}


def _loads_deep(text: str) -> Any:
    """``json.loads`` that survives deep nesting: run in a thread with a large stack
    and a raised recursion limit (the C decoder recurses once per level)."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(json.loads(text))
        except BaseException as exc:
            failure.append(exc)

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    depth_guess = text.count("[") + text.count("{")
    try:
        if depth_guess > old_limit // 2:
            threading.stack_size(512 * 1024 * 1024)
            sys.setrecursionlimit(max(old_limit, depth_guess * 2 + 1000))
        thread = threading.Thread(target=work, name="plies-json")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return result[0]


def _json_number(value: Any, what: str) -> Number:
    if isinstance(value, bool) or value is None:
        raise TreeError(f"{what} must be a number, not {json.dumps(value)}")
    if isinstance(value, int | float):
        if isinstance(value, float) and math.isnan(value):
            raise TreeError(f"{what} must be a number, not NaN")
        return value
    if isinstance(value, str):
        try:
            return parse_number(value)
        except ValueError:
            raise TreeError(f"{what} must be a number, not {value!r}") from None
    raise TreeError(f"{what} must be a number, not {json.dumps(value)[:40]}")


def parse_json(text: str, *, root: str = "max") -> Tree:
    """Read the JSON form.

    A node is a number (a leaf), a list (its children) or an object with keys
    ``label``, ``kind`` (``max``/``min``/``chance``), ``value`` (leaves), ``static``
    (e(n) of an inner node), ``children``, ``probability`` (or ``p``, on the edge from
    a chance parent) and ``move`` (the edge's name). The top level may instead be a
    document ``{"tree": NODE, "bounds": [low, high], "root": "max"|"min"}``.
    Infinite values may be written as the strings ``"inf"`` and ``"-inf"``.
    """
    try:
        data = _loads_deep(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply to read") from None
    bounds: tuple[Number, Number] | None = None
    if isinstance(data, dict) and "tree" in data:
        unknown = set(data) - _DOC_KEYS
        if unknown:
            raise TreeError(
                f"unknown key {sorted(unknown)[0]!r} in the tree document "
                f"(expected {', '.join(sorted(_DOC_KEYS))})"
            )
        if "root" in data:
            root = data["root"]
            if root not in ("max", "min"):
                raise TreeError(f"root must be 'max' or 'min', not {json.dumps(root)}")
        if "bounds" in data:
            b = data["bounds"]
            if not (isinstance(b, list) and len(b) == 2):
                raise TreeError("bounds must be a list [low, high]")
            bounds = (_json_number(b[0], "the low bound"), _json_number(b[1], "the high bound"))
        data = data["tree"]
    builder = TreeBuilder(root=root)
    # Preorder with an explicit stack; children pushed in reverse so the leftmost pops first.
    stack: list[tuple[int, Any, str]] = [(-1, data, "root")]
    while stack:
        parent, item, where = stack.pop()
        if isinstance(item, list):
            if not item:
                raise TreeError(f"empty list at {where}: a node needs children or a value")
            node = builder.add(parent)
            stack.extend(
                (node, child, f"{where}.{i}" if parent >= 0 else str(i))
                for i, child in reversed(list(enumerate(item)))
            )
        elif isinstance(item, dict):
            unknown = set(item) - _NODE_KEYS
            if unknown:
                raise TreeError(
                    f"unknown key {sorted(unknown)[0]!r} in the node at {where} "
                    f"(expected {', '.join(sorted(_NODE_KEYS))})"
                )
            label = item.get("label")
            if label is not None and not isinstance(label, str | int):
                raise TreeError(f"the label at {where} must be a string")
            prob_raw = item.get("probability", item.get("p"))
            prob = (
                None
                if prob_raw is None
                else float(_json_number(prob_raw, f"probability at {where}"))
            )
            static_raw = item.get("static")
            static = None if static_raw is None else _json_number(static_raw, f"static at {where}")
            kind = item.get("kind")
            if kind is not None and kind not in ("max", "min", "chance"):
                raise TreeError(
                    f"unknown kind {json.dumps(kind)} at {where} (expected max, min or chance)"
                )
            move = item.get("move")
            children = item.get("children")
            if "value" in item:
                if children:
                    raise TreeError(f"the node at {where} has both a value and children")
                builder.add(
                    parent,
                    value=_json_number(item["value"], f"value at {where}"),
                    label=None if label is None else str(label),
                    probability=prob,
                    move=None if move is None else str(move),
                )
                continue
            if not isinstance(children, list) or not children:
                raise TreeError(f"the node at {where} needs a value or a non-empty children list")
            node = builder.add(
                parent,
                kind=kind,
                label=None if label is None else str(label),
                static=static,
                probability=prob,
                move=None if move is None else str(move),
            )
            stack.extend(
                (node, child, f"{where}.{i}" if parent >= 0 else str(i))
                for i, child in reversed(list(enumerate(children)))
            )
        else:
            builder.add(parent, value=_json_number(item, f"the leaf at {where}"))
        if len(builder.parent) > MAX_NODES:
            raise TreeError(f"the tree has more than {MAX_NODES:,} nodes")
    return builder.build(bounds=bounds)


# Berkeley CS188 GraphGameTreeTest files -------------------------------------------------


def _cs188_fields(text: str) -> dict[str, tuple[str, int]]:
    """Split a CS188 test file into ``{key: (value, line)}``."""
    fields: dict[str, tuple[str, int]] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([A-Za-z_]\w*):\s*(.*)\Z", line)
        if m is None:
            raise ParseError("expected 'key: \"value\"'", line=i, column=1)
        key, rest = m.groups()
        if rest == '"""':
            start = i
            block: list[str] = []
            while i < len(lines) and lines[i].strip() != '"""':
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ParseError(
                    f'the block for {key!r} is never closed with \'"""\'', line=start, column=1
                )
            i += 1
            fields[key] = ("\n".join(block), start)
        elif len(rest) >= 2 and rest[0] == rest[-1] == '"':
            fields[key] = (rest[1:-1], i)
        else:
            raise ParseError(
                f"the value of {key!r} must be in double quotes",
                line=i,
                column=len(raw) - len(raw.lstrip()) + len(key) + 3,
            )
    return fields


def parse_cs188(text: str) -> Tree:
    """Read a Berkeley CS188 multi-agent tree test (``GraphGameTreeTest``).

    Agent 0 is MAX, agents ``1..num_agents-1`` are MIN (chance nodes with equally
    likely outcomes when ``alg`` is ``ExpectimaxAgent``); ``depth`` counts rounds in
    which every agent moves once. A state is a leaf when it is in ``win_states`` or
    ``lose_states``, has no successors, or the depth runs out; leaves take their
    ``evaluation``. Inner states with an evaluation keep it as their static value.
    Labels are state names and each node's ``move`` is the action leading to it.
    The tree's ``hints`` carry the file's algorithm (and, for alpha-beta, CS188's
    rule of never pruning on equality).
    """
    fields = _cs188_fields(text)

    def need(key: str) -> tuple[str, int]:
        if key not in fields:
            raise ParseError(f"the CS188 test has no {key!r} field")
        return fields[key]

    def integer(key: str) -> int:
        raw, line = need(key)
        try:
            value = int(raw)
        except ValueError:
            raise ParseError(
                f"{key} must be a whole number, not {raw!r}", line=line, column=1
            ) from None
        if value < 1:
            raise ParseError(f"{key} must be at least 1, not {value}", line=line, column=1)
        return value

    num_agents = integer("num_agents")
    depth = integer("depth")
    start = need("start_state")[0].strip()
    win = set(fields.get("win_states", ("", 0))[0].split())
    lose = set(fields.get("lose_states", ("", 0))[0].split())
    alg = fields.get("alg", ("", 0))[0].strip()
    successors: dict[str, list[tuple[str, str]]] = {}
    block, first = need("successors")
    for offset, line in enumerate(block.split("\n")):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 3:
            raise ParseError(
                f"a successor line needs 'state action next_state', got {line.strip()!r}",
                line=first + offset + 1,
                column=1,
            )
        successors.setdefault(parts[0], []).append((parts[1], parts[2]))
    evaluation: dict[str, Number] = {}
    block, first = need("evaluation")
    for offset, line in enumerate(block.split("\n")):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2:
            raise ParseError(
                f"an evaluation line needs 'state value', got {line.strip()!r}",
                line=first + offset + 1,
                column=1,
            )
        try:
            evaluation[parts[0]] = parse_number(parts[1])
        except ValueError:
            raise ParseError(
                f"the evaluation of {parts[0]} is not a number: {parts[1]!r}",
                line=first + offset + 1,
                column=1,
            ) from None
    ghosts_chance = alg == "ExpectimaxAgent"
    builder = TreeBuilder(root="max")
    last_ply = depth * num_agents
    stack: list[tuple[int, str, str | None, int]] = [(-1, start, None, 0)]
    while stack:
        parent, state, action, ply = stack.pop()
        moves = successors.get(state, [])
        if state in win or state in lose or not moves or ply == last_ply:
            if state not in evaluation:
                raise TreeError(f"state {state} is a leaf but has no evaluation line")
            builder.add(parent, value=evaluation[state], label=state, move=action)
        else:
            agent = ply % num_agents
            kind = "max" if agent == 0 else ("chance" if ghosts_chance else "min")
            node = builder.add(
                parent, kind=kind, label=state, move=action, static=evaluation.get(state)
            )
            stack.extend((node, nxt, act, ply + 1) for act, nxt in reversed(moves))
        if len(builder.parent) > MAX_NODES:
            raise TreeError(f"the expanded tree has more than {MAX_NODES:,} nodes")
    tree = builder.build()
    algorithm = {
        "MinimaxAgent": "minimax",
        "AlphaBetaAgent": "alphabeta",
        "ExpectimaxAgent": "expectiminimax",
    }.get(alg)
    if algorithm is not None:
        tree.hints["algorithm"] = algorithm
    if algorithm == "alphabeta":
        tree.hints["strict"] = True
    return tree


# Dispatch -------------------------------------------------------------------------------


def detect_notation(text: str) -> str:
    """Guess the notation of ``text``: ``cs188``, ``json`` or ``brackets``."""
    if re.search(r"^\s*successors:", text, re.MULTILINE):
        return "cs188"
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "json"
    if stripped.startswith("[") and '"' in stripped:
        return "json"
    return "brackets"


def parse(
    text: str,
    *,
    notation: str = "auto",
    root: str = "max",
    branching: int | None = None,
) -> Tree:
    """Read a game tree from ``text``.

    ``notation`` is ``"auto"`` (the default: a CS188 test file, a JSON object, or
    brackets; a flat list of leaves when ``branching`` is given), or one of
    ``"brackets"``, ``"flat"``, ``"json"``, ``"cs188"``. ``root`` is the kind of the
    root (``"max"`` or ``"min"``) where the notation does not say.
    """
    if notation not in NOTATIONS:
        raise ParseError(f"unknown notation {notation!r} (expected one of {', '.join(NOTATIONS)})")
    if root not in ("max", "min"):
        raise TreeError(f"root must be 'max' or 'min', not {root!r}")
    text = text.removeprefix("\ufeff")  # a byte-order mark from some editors
    if not text.strip():
        raise ParseError("the tree is empty")
    if notation == "auto":
        notation = "flat" if branching is not None else detect_notation(text)
    with no_gc():
        return _parse(text, notation, root, branching)


def _parse(text: str, notation: str, root: str, branching: int | None) -> Tree:
    if notation == "flat":
        if branching is None:
            raise TreeError("a flat list of leaves needs a branching factor")
        return parse_flat(text, branching=branching, root=root)
    if branching is not None:
        raise TreeError(f"a branching factor only applies to a flat list of leaves, not {notation}")
    if notation == "json":
        return parse_json(text, root=root)
    if notation == "cs188":
        return parse_cs188(text)
    return parse_brackets(text, root=root)
