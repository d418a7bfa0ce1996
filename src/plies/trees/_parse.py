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

import json
import math
import re
import sys
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any, Literal, NamedTuple

from plies.errors import ArgumentTypeError, LimitError, ParseError, TreeError
from plies.trees._model import (
    MAX_DIGITS,
    Kind,
    Number,
    Tree,
    TreeBuilder,
    check_number,
    describe_character,
    no_gc,
)

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
# Leading white space is swallowed by each token, so one match is one token. A word
# (a label) is a letter of any alphabet or '_', then letters, digits, '_', "'" and the
# marks that accent letters (u + U+0308 is ü): the pattern takes any word character
# and any other non-ASCII character, and _check_word refuses what is none of those.
_TOKEN = re.compile(
    rf"""\s*(?:
     (?P<num>{_NUMBER})(?![\w.])
    |(?P<word>[^\W\d][\w']*(?:[^\x00-\x7f\s][\w']*)*)
    |(?P<open>[\[(])
    |(?P<close>[\])])
    |(?P<comma>,)
    |(?P<colon>[:=])
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_CLOSE = {"[": "]", "(": ")"}
_INT = re.compile(r"[+-]?\d+\Z")
# Control characters other than tab and line ends, anywhere in the text.
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A whole number of more than MAX_DIGITS digits (not part of a decimal or a word).
_LONG_INT = re.compile(rf"(?<![\w.])[+-]?\d{{{MAX_DIGITS + 1},}}(?![\d.eE])")
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _clip(text: str, size: int = 40) -> str:
    """``repr`` of ``text``, cut short for an error message."""
    return repr(text) if len(text) <= size else repr(text[: size - 3]) + "..."


def parse_number(text: str) -> Number:
    """Read a leaf value: an integer, a decimal, or ``inf``/``-inf`` (also ``∞``).

    Whole numbers may have at most 300 digits (see :data:`plies.trees._model.MAX_DIGITS`)
    and decimals must be within the float range (``1e400`` is refused, not read as
    infinity; write ``inf``). NaN is refused. Raises :class:`ParseError` without a
    position (callers that have one add it), or :class:`ArgumentTypeError` if ``text``
    is not a string.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"parse_number needs a string, not {type(text).__name__}")
    t = text.strip()
    if _INT.match(t):
        digits = len(t) - (t[0] in "+-")
        if digits > MAX_DIGITS:
            raise ParseError(
                f"the number {_clip(t, 16)} has {digits:,} digits; plies reads whole "
                f"numbers of at most {MAX_DIGITS} digits"
            )
        return int(t)
    low = t.lower().lstrip("+")
    if low in ("inf", "infinity", "∞"):
        return math.inf
    if low in ("-inf", "-infinity", "-∞"):
        return -math.inf
    if low in ("nan", "-nan"):
        raise ParseError(f"{_clip(text)} (not a number) cannot be a value")
    if not re.fullmatch(_NUMBER, t, re.IGNORECASE):
        raise ParseError(f"not a number: {_clip(text)}")
    value = float(t)
    if math.isinf(value):
        raise ParseError(
            f"the number {_clip(t, 16)} is out of range (floats reach about 1.8e308; "
            "write inf for an infinite value)"
        )
    return value


class _Source:
    """Turns offsets into 1-based (line, column) for error messages."""

    def __init__(self, text: str) -> None:
        self.text = text

    def position(self, pos: int) -> tuple[int, int]:
        """``(line, column)`` of offset ``pos``, both 1-based."""
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return line, column

    def error(self, message: str, pos: int, found: str | None = None) -> ParseError:
        line, column = self.position(pos)
        return ParseError(message, line=line, column=column, found=found)


def _check_text(src: _Source) -> None:
    """Refuse control characters and over-long whole numbers anywhere in the text,
    before reading it (a label with an escape sequence retitles a terminal; an
    integer of 5,000 digits makes ``int()`` itself fail)."""
    text = src.text
    m = _CONTROL_IN_TEXT.search(text)
    if m is not None:
        raise src.error(
            f"control character {describe_character(m.group())} is not allowed", m.start()
        )
    # A run of MAX_DIGITS + 1 digits, found by byte search (1 ms per MB, against 40 ms
    # for the regular expression); the expression then tells decimals from integers.
    if b"0" * (MAX_DIGITS + 1) in text.encode("utf-8", "replace").translate(_DIGITS_TO_ZERO):
        long_int = _LONG_INT.search(text)
        if long_int is not None:
            digits = len(long_int.group().lstrip("+-"))
            raise src.error(
                f"a number of {digits:,} digits is out of range (plies reads whole numbers "
                f"of at most {MAX_DIGITS} digits)",
                long_int.start(),
            )


def _describe(kind: str, text: str) -> str:
    if kind == "end":
        return "end of input"
    return _clip(text)


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
            raise src.error(f"unexpected character {_shown(text[bad])}", bad)
        kind = m.lastgroup
        assert kind is not None
        tok = m.group(kind)
        if kind == "word" and not tok.isascii():
            _check_word(src, tok, m.start(kind))
        yield kind, tok, m.start(kind)
        pos = m.end()
    yield "end", "", n


def _is_word_char(ch: str, first: bool) -> bool:
    """Whether ``ch`` may stand in a label: a letter or '_' first, then also a digit,
    "'" or a mark (an accent: Unicode category M)."""
    if ch.isalpha() or ch == "_":
        return True
    if first:
        return False
    return ch.isdecimal() or ch == "'" or unicodedata.category(ch).startswith("M")


def is_label_word(text: str) -> bool:
    """Whether ``text`` reads back as one label in the bracket notation: a letter (of
    any script) or '_' first, then letters, digits, "'" and accents."""
    return bool(text) and all(_is_word_char(ch, k == 0) for k, ch in enumerate(text))


def _check_word(src: _Source, word: str, start: int) -> None:
    """Refuse a non-ASCII word with a character no label takes (a symbol, a fraction,
    punctuation of another script), at that character's column."""
    for k, ch in enumerate(word):
        if not _is_word_char(ch, k == 0):
            raise src.error(f"unexpected character {_shown(ch)}", start + k)


def _shown(ch: str) -> str:
    """A character for an error message: quoted, or ``U+0308`` for one that does not
    show on its own (a control character, an accent with no letter under it)."""
    if ch.isprintable() and not unicodedata.category(ch).startswith("M"):
        return repr(ch)
    return describe_character(ch)


def parse_brackets(text: str, *, root: str = "max") -> Tree:
    """Read nested lists or a labelled tree: ``[[3,12,8],[2,4,6]]``, ``((3 12)(2 4))``,
    ``A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))``.

    Leaves are numbers, optionally labelled (``H:2`` or ``H=2``); inner nodes are a
    bracket group, optionally preceded by a label. Kinds alternate by depth from ``root``.
    """
    src = _Source(_need_text(text))
    _check_text(src)
    if _PLAIN.fullmatch(text):
        plain = _plain_json(text) if "(" not in text else None
        if plain is None:
            plain = _plain_tokens(text)
        if plain is not None:
            builder = TreeBuilder(root=root)
            builder.parent, builder.value = plain
            builder.label = [None] * len(builder.parent)
            return builder.build()
    return _read_brackets(src, root)


def _too_many_nodes() -> LimitError:
    return LimitError(
        f"the tree has more than {MAX_NODES:,} nodes, the most plies reads "
        "(trees._parse.MAX_NODES; read a smaller tree)"
    )


# Two fast paths for the common large input, nested lists of plain numbers (what
# format_tree writes). Each returns the preorder ``(parent, value)`` lists, or None for
# anything unusual (empty brackets, a stray comma, a number out of range): the full
# reader then reads it again and says where the problem is.
_PLAIN = re.compile(r"[\s\d\[\]().,eE+-]*")
_FLOAT_SYNTAX = re.compile(r"[.eE]")
_TOKEN_PLAIN = re.compile(r"[\[\]()]|[^\s,\[\]()]+")
_BAD_COMMA = ("[,", "(,", ",,", ",]", ",)")
_NUMBER_LABEL = re.compile(r"\((?<=[\d.]\()")  # 1(2,3): a node labelled by a number


def _plain_json(text: str) -> tuple[list[int], list[Number | None]] | None:
    """Nested lists in JSON syntax: the C JSON reader, then one pass per list."""
    try:
        data = _loads_deep(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list):
        return None
    parent: list[int] = []
    value: list[Number | None] = []
    stack: list[tuple[int, Any]] = [(-1, data)]
    pop, push = stack.pop, stack.append
    while stack:
        above, item = pop()
        node = len(parent)
        parent.append(above)
        if type(item) is not list:
            value.append(item)
            continue
        if not item:
            return None
        value.append(None)
        if list in map(type, item):
            for i in range(len(item) - 1, -1, -1):
                push((node, item[i]))
        else:  # a list of leaves, copied in bulk: 0.07 s per million leaves, not 0.20 s
            parent.extend(repeat(node, len(item)))
            value.extend(item)
        if len(parent) > MAX_NODES:
            raise _too_many_nodes()
    if _FLOAT_SYNTAX.search(text) and (math.inf in value or -math.inf in value):
        return None  # a decimal beyond the float range: the full reader refuses it
    return parent, value


def _plain_tokens(text: str) -> tuple[list[int], list[Number | None]] | None:
    """Nested lists with brackets or parentheses, commas or spaces between."""
    compact = "".join(text.split())
    if any(bad in compact for bad in _BAD_COMMA) or compact.startswith(","):
        return None
    if compact.endswith(",") or _NUMBER_LABEL.search(text):
        return None
    tokens = _TOKEN_PLAIN.findall(text)
    if not tokens or len(tokens) > 2 * MAX_NODES:
        return None
    parent: list[int] = []
    value: list[Number | None] = []
    add_parent, add_value = parent.append, value.append
    groups: list[int] = []  # the parents of the open groups
    closers: list[str] = []  # and their closing brackets
    top = -1  # the innermost open group
    for tok in tokens:
        if tok in ("[", "("):
            if top < 0 and parent:
                return None  # text after the end of the tree
            add_parent(top)
            add_value(None)
            groups.append(top)
            closers.append("]" if tok == "[" else ")")
            top = len(parent) - 1
        elif tok in ("]", ")"):
            if not closers or closers.pop() != tok or top == len(parent) - 1:
                return None  # unmatched, mismatched or empty brackets
            top = groups.pop()
        else:
            if top < 0 and parent:
                return None
            try:
                number: Number = int(tok)
            except ValueError:
                try:
                    number = float(tok)
                except ValueError:
                    return None
                if math.isinf(number):
                    return None
            add_parent(top)
            add_value(number)
    if closers or len(parent) > MAX_NODES:
        return None
    return parent, value


def _read_brackets(src: _Source, root: str) -> Tree:
    """The full reader: labels, numbers of every form, and errors by position."""
    builder = TreeBuilder(root=root)
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
                label, label_pos = tok, pos
                kind, tok, pos = next(tokens)
                if label.lower() == "nan" and kind not in ("open", "colon"):
                    raise src.error("NaN (not a number) cannot be a leaf value", label_pos)
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
                        except ValueError as exc:
                            raise src.error(str(exc), number_pos) from None
                    add_parent(parent)
                    add_value(value)
                    add_label(label)
                    need_node = False
                    if len(builder.parent) > MAX_NODES:
                        raise _too_many_nodes()
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


def _split_numbers(src: _Source, what: str) -> list[Number]:
    values: list[Number] = []
    for m in re.finditer(r"[^\s,;]+", src.text):
        try:
            values.append(parse_number(m.group()))
        except ValueError as exc:
            reason = str(exc)
            shown = _clip(m.group())
            message = (
                f"{what} {shown} is not a number"
                if reason.startswith("not a number")
                else f"{what} {shown}: {reason}"
            )
            raise src.error(message, m.start()) from None
    if not values:
        raise ParseError("no leaves given" if what == "leaf" else f"no {what}s given")
    return values


def parse_flat(text: str, *, branching: int, root: str = "max") -> Tree:
    """Read ``"3,5,6,9,1,2,0,-1"`` (commas or spaces) as the leaves of a complete
    ``branching``-ary tree, left to right."""
    src = _Source(_need_text(text))
    _check_text(src)
    return from_leaves(_split_numbers(src, "leaf"), branching=branching, root=root)


def from_leaves(leaves: Sequence[Number], *, branching: int, root: str = "max") -> Tree:
    """Build the complete ``branching``-ary tree whose leaves, left to right, are
    ``leaves``. The number of leaves must be a power of ``branching``.

    Leaves must be numbers (not ``bool``, not NaN; whole numbers of at most 300 digits):
    :class:`ArgumentTypeError` or :class:`TreeError` names the first bad one.
    """
    if isinstance(leaves, str | bytes) or not isinstance(leaves, Sequence):
        raise ArgumentTypeError(
            f"leaves must be a list of numbers, not {type(leaves).__name__}"
            + (
                " (parse a text of leaves with parse(text, branching=...))"
                if isinstance(leaves, str)
                else ""
            )
        )
    branching = _need_branching(branching)
    _need_root(root)
    with no_gc():
        return _from_leaves(_checked_leaves(leaves), branching, root)


def _checked_leaves(leaves: Sequence[Number]) -> list[Number]:
    """``leaves`` as a list, every one checked by :func:`check_number`.

    Plain ints and floats in range, the common case, are checked in bulk at C speed
    (0.03 s per million leaves, against 0.25 s one by one).
    """
    values = list(leaves)
    types = set(map(type, values))
    if values and types <= {int, float}:
        ints_ok = int not in types or _ints_in_range(values)
        if ints_ok and (float not in types or not any(map(math.isnan, values))):
            return values
    return [check_number(v, f"leaf {k} (counting from 0)") for k, v in enumerate(values)]


def _ints_in_range(values: list[Number]) -> bool:
    """Whether no whole number in ``values`` has more than MAX_DIGITS digits."""
    limit = 10**MAX_DIGITS
    high, low = max(values), min(values)
    if -limit < low and high < limit:
        return True
    return all(-limit < v < limit for v in values if type(v) is int)


def _need_branching(branching: object) -> int:
    if isinstance(branching, bool) or not isinstance(branching, int):
        raise ArgumentTypeError(
            f"branching must be a whole number, not {_clip(repr(branching))} "
            f"({type(branching).__name__})"
        )
    if branching < 2:
        raise TreeError(f"the branching factor must be at least 2, not {branching}")
    return branching


def _need_root(root: object) -> str:
    if not isinstance(root, str):
        raise ArgumentTypeError(f"root must be 'max' or 'min', not {type(root).__name__}")
    if root not in ("max", "min"):
        raise TreeError(f"root must be 'max' or 'min', not {_clip(root)}")
    return root


def _need_text(text: object) -> str:
    if not isinstance(text, str):
        hint = " (decode bytes first)" if isinstance(text, bytes | bytearray) else ""
        raise ArgumentTypeError(f"the tree text must be a string, not {type(text).__name__}{hint}")
    return text


def _from_leaves(leaves: list[Number], branching: int, root: str) -> Tree:
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
    # Preorder over a complete tree; each node on the level above the leaves gets its
    # `branching` leaves in bulk (as in _plain_json, about 3x faster than one by one).
    parent: list[int] = []
    value: list[Number | None] = []
    stack = [(-1, 0)]
    pop, push = stack.pop, stack.append
    leaf = 0
    while stack:
        above, d = pop()
        node = len(parent)
        parent.append(above)
        value.append(None)
        if d + 1 == depth:
            parent.extend(repeat(node, branching))
            value.extend(leaves[leaf : leaf + branching])
            leaf += branching
        else:
            for _ in range(branching):
                push((node, d + 1))
    builder = TreeBuilder(root=root)
    builder.parent, builder.value = parent, value
    builder.label = [None] * len(parent)
    return builder.build()


# JSON object form ---------------------------------------------------------------------

_NODE_KEYS = {
    "label",
    "kind",
    "value",
    "static",
    "children",
    "probability",
    "p",
    "move",
    "picture",
}
#: The largest picture a JSON node may carry (rows, characters a row).
MAX_PICTURE = (16, 40)
_DOC_KEYS = {"tree", "bounds", "root"}


#: Nesting the C JSON reader may enter in its 512 MB thread (3,000,000 levels were
#: measured to fit; 10,000,000 crashed the interpreter). Deeper input raises
#: RecursionError, and the bracket reader, which does not recurse, reads it instead.
_JSON_MAX_RECURSION = 3_000_000


#: Nesting the C JSON reader may enter in the calling thread where no thread with a
#: large stack can start (Pyodide, whose Python 3.14 checks the C stack, not a count:
#: about 3,000 levels overflow the browser's stack and kill the interpreter).
_JSON_MAX_NESTING_HERE = 1_000

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_nesting(text: str) -> int:
    """How deep the brackets and braces of JSON ``text`` nest (strings skipped), read
    without recursion: ``json_nesting('{"a": [[1], "]"]}')`` is 3."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        depth += 1 if ch in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _loads_here(text: str, **hooks: Any) -> Any:
    """``json.loads`` in the calling thread, where no thread can start: RecursionError
    (as the C reader raises where it counts) for text deeper than it can read here."""
    if json_nesting(text) > _JSON_MAX_NESTING_HERE:
        raise RecursionError(f"JSON nested deeper than {_JSON_MAX_NESTING_HERE} levels")
    return json.loads(text, **hooks)


def _loads_deep(text: str, **hooks: Any) -> Any:
    """``json.loads`` that survives deep nesting: run in a thread with a large stack
    and a raised recursion limit (the C decoder recurses once per level). Text that
    cannot be deep is read in the calling thread; where no thread can start (Pyodide),
    so is any text up to :data:`_JSON_MAX_NESTING_HERE` levels deep."""
    old_limit = sys.getrecursionlimit()
    depth_guess = text.count("[") + text.count("{")
    if depth_guess <= old_limit // 2:
        return json.loads(text, **hooks)
    result: list[Any] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(json.loads(text, **hooks))
        except BaseException as exc:
            failure.append(exc)

    try:
        old_stack = threading.stack_size(512 * 1024 * 1024)
    except (RuntimeError, ValueError):  # no thread stack to size (Pyodide): read it here
        return _loads_here(text, **hooks)
    try:
        sys.setrecursionlimit(max(old_limit, min(depth_guess * 2 + 1000, _JSON_MAX_RECURSION)))
        thread = threading.Thread(target=work, name="plies-json")
        try:
            thread.start()
        except RuntimeError:  # no threads here (Pyodide): the caller's stack, its limit
            sys.setrecursionlimit(old_limit)
            return _loads_here(text, **hooks)
        thread.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return result[0]


def _json_number(value: Any, what: str) -> Number:
    if isinstance(value, str):
        try:
            return parse_number(value)
        except ValueError as exc:
            reason = str(exc)
            if reason.startswith("not a number"):
                reason = f"must be a number, not {_clip(value)}"
            raise TreeError(f"{what} {reason}") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TreeError(f"{what} must be a number, not {json.dumps(value)[:40]}")
    return check_number(value, what)


def _json_text(value: Any, what: str) -> str | None:
    """A label or move: a string (or a whole number, written as one)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise TreeError(f"{what} must be a string, not {json.dumps(value)[:40]}")
    return str(value)


class _RefusedLiteral(Exception):
    """A JSON number literal plies does not read (NaN, or beyond the float range)."""

    def __init__(self, literal: str, reason: str) -> None:
        super().__init__(literal)
        self.literal = literal
        self.reason = reason


def _json_constant(name: str) -> float:
    if name == "NaN":
        raise _RefusedLiteral(name, "NaN (not a number) cannot be a value")
    return math.inf if name == "Infinity" else -math.inf


def _json_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _RefusedLiteral(
            literal,
            f"the number {_clip(literal, 16)} is out of range (floats reach about 1.8e308; "
            'write "inf" for an infinite value)',
        )
    return value


# A string escape that stands for a control character: \n, \t, ... or \u0000 to \u001f,
# \u007f to \u009f and the bidirectional overrides. The backslashes before it must
# come in pairs (an even number of them is an escaped backslash).
_JSON_CONTROL_ESCAPE = re.compile(
    r"(?<!\\)(?:\\\\)*(\\(?:[bfnrt]|u00[01][0-9a-fA-F]|u007[fF]|u00[89][0-9a-fA-F]"
    r"|u202[a-eA-E]|u206[6-9]))"
)


def _read_json(src: _Source) -> Any:
    """The JSON value of the text, with NaN, overflowing numbers and control
    characters in strings refused by position."""
    text = src.text
    escape = _JSON_CONTROL_ESCAPE.search(text)
    if escape is not None:
        code = escape.group(1)
        ch = json.loads(f'"{code}"')
        raise src.error(
            f"control character {describe_character(ch)} (written {code}) is not allowed",
            escape.start(1),
        )
    try:
        return _loads_deep(text, parse_constant=_json_constant, parse_float=_json_float)
    except _RefusedLiteral as exc:
        at = re.search(rf"(?<![\w.+-]){re.escape(exc.literal)}(?![\w.])", text)
        raise src.error(exc.reason, at.start() if at else 0) from None
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply to read") from None
    except ValueError as exc:  # e.g. int() of a number the checks above did not see
        raise ParseError(f"invalid JSON: {str(exc)[:80]}") from None


def parse_json(text: str, *, root: str = "max") -> Tree:
    """Read the JSON form.

    A node is a number (a leaf), a list (its children) or an object with keys
    ``label``, ``kind`` (``max``/``min``/``chance``), ``value`` (leaves), ``static``
    (e(n) of an inner node), ``children``, ``probability`` (or ``p``, on the edge from
    a chance parent), ``move`` (the edge's name) and ``picture`` (a few short rows of
    text drawn under the node: a game's board). The top level may instead be a
    document ``{"tree": NODE, "bounds": [low, high], "root": "max"|"min"}``.
    A leaf ``{"value": null}`` has no value (as a CS188 state without an evaluation
    line): the tree can be shown, but a search that reaches it raises
    :class:`~plies.errors.SearchError`.
    Infinite values may be written as the strings ``"inf"`` and ``"-inf"``; NaN,
    numbers beyond the float range and control characters in strings are refused.
    """
    src = _Source(_need_text(text))
    _check_text(src)
    data = _read_json(src)
    bounds: tuple[Number, Number] | None = None
    if isinstance(data, dict) and "tree" in data:
        unknown = set(data) - _DOC_KEYS
        if "players" in unknown:
            raise TreeError(
                'a tree document with "players" is an N-player tree: search it with max^n, '
                "paranoid or Best-Reply Search (plies tree --algorithm maxn|paranoid|brs)"
            )
        if unknown:
            raise TreeError(
                f"unknown key {_clip(sorted(unknown)[0])} in the tree document "
                f"(expected {', '.join(sorted(_DOC_KEYS))})"
            )
        if "root" in data:
            root = data["root"]
            if root not in ("max", "min"):
                raise TreeError(f"root must be 'max' or 'min', not {json.dumps(root)[:40]}")
        if "bounds" in data:
            b = data["bounds"]
            if not (isinstance(b, list) and len(b) == 2):
                raise TreeError("bounds must be a list [low, high]")
            bounds = (_json_number(b[0], "the low bound"), _json_number(b[1], "the high bound"))
        data = data["tree"]
    builder = TreeBuilder(root=root)
    pictures: dict[int, list[str]] = {}
    # Preorder with an explicit stack of (parent, item, parent's path, child index);
    # children pushed in reverse so the leftmost pops first. A node's path ("0.2.1")
    # is only spelled out when needed (an error, or a node with children).
    stack: list[tuple[int, Any, str | None, int]] = [(-1, data, None, 0)]
    while stack:
        parent, item, above, index = stack.pop()
        if isinstance(item, list):
            where = _json_path(above, index)
            if not item:
                raise TreeError(f"empty list at {where}: a node needs children or a value")
            node = builder.add(parent)
            _push_children(stack, node, item, where)
        elif isinstance(item, dict):
            where = _json_path(above, index)
            children = _add_json_node(builder, parent, item, where, pictures)
            if children is not None:
                _push_children(stack, len(builder.parent) - 1, children, where)
        elif type(item) is int or type(item) is float:  # JSON ints and floats are in range
            builder.add(parent, value=item)
        else:
            where = _json_path(above, index)
            builder.add(parent, value=_json_number(item, f"the leaf at {where}"))
        if len(builder.parent) > MAX_NODES:
            raise _too_many_nodes()
    # Leaves without a value can only come from {"value": null}: any other leaf has one.
    tree = builder.build(bounds=bounds, allow_missing=True)
    tree.pictures = pictures
    return tree


def _json_path(above: str | None, index: int) -> str:
    """The path of a node for messages: ``root``, ``2``, ``2.0.1``."""
    if above is None:
        return "root"
    return f"{above}.{index}" if above != "root" else str(index)


def _push_children(
    stack: list[tuple[int, Any, str | None, int]], node: int, children: list[Any], where: str
) -> None:
    stack.extend((node, children[i], where, i) for i in range(len(children) - 1, -1, -1))


def _json_picture(raw: Any, where: str) -> list[str]:
    rows, width = MAX_PICTURE
    if (
        not isinstance(raw, list)
        or not 0 < len(raw) <= rows
        or not all(isinstance(r, str) and len(r) <= width for r in raw)
    ):
        raise TreeError(
            f"the picture at {where} must be a list of 1 to {rows} strings of at most "
            f"{width} characters"
        )
    return raw


def _add_json_node(
    builder: TreeBuilder,
    parent: int,
    item: dict[str, Any],
    where: str,
    pictures: dict[int, list[str]],
) -> list[Any] | None:
    """Add the node an object describes; return its children (``None`` for a leaf)."""
    if "picture" in item:
        pictures[len(builder.parent)] = _json_picture(item["picture"], where)
    unknown = set(item) - _NODE_KEYS
    if unknown:
        raise TreeError(
            f"unknown key {_clip(sorted(unknown)[0])} in the node at {where} "
            f"(expected {', '.join(sorted(_NODE_KEYS))})"
        )
    label = _json_text(item.get("label"), f"the label at {where}")
    move = _json_text(item.get("move"), f"the move at {where}")
    prob_raw = item.get("probability", item.get("p"))
    prob = None if prob_raw is None else float(_json_number(prob_raw, f"probability at {where}"))
    if prob is not None and not 0.0 <= prob <= 1.0:
        raise TreeError(f"probability {prob:g} at {where} is not in [0, 1]")
    static_raw = item.get("static")
    static = None if static_raw is None else _json_number(static_raw, f"static at {where}")
    kind = item.get("kind")
    if kind is not None and kind not in ("max", "min", "chance"):
        raise TreeError(
            f"unknown kind {json.dumps(kind)[:40]} at {where} (expected max, min or chance)"
        )
    children = item.get("children")
    if "value" in item:
        if children:
            raise TreeError(f"the node at {where} has both a value and children")
        raw = item["value"]  # null: a leaf without a value (a CS188 state never evaluated)
        value = None if raw is None else _json_number(raw, f"value at {where}")
        builder.add(parent, value=value, label=label, probability=prob, move=move)
        return None
    if not isinstance(children, list) or not children:
        raise TreeError(f"the node at {where} needs a value or a non-empty children list")
    builder.add(parent, kind=kind, label=label, static=static, probability=prob, move=move)
    return children


# Berkeley CS188 GraphGameTreeTest files -------------------------------------------------

#: The agents a CS188 test may name in ``alg``, and the algorithm each stands for.
CS188_ALGORITHMS = {
    "MinimaxAgent": "minimax",
    "AlphaBetaAgent": "alphabeta",
    "ExpectimaxAgent": "expectiminimax",
}


class _Field(NamedTuple):
    """A field of a CS188 test: its text, and where that text starts (1-based)."""

    text: str
    line: int
    column: int

    def error(self, message: str, offset: int = 0) -> ParseError:
        """An error at ``offset`` characters into a one-line value."""
        return ParseError(message, line=self.line, column=self.column + offset)


def _words(text: str) -> list[tuple[str, int]]:
    """The words of ``text`` with their offsets."""
    return [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]


def _listed(names: list[str], most: int = 6) -> str:
    """``'d1', 'd2' and 'd3'``, or the first ``most`` and how many more."""
    shown = [_clip(name, 20) for name in names[:most]]
    if len(names) > most:
        return f"{', '.join(shown)} and {len(names) - most:,} more"
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def _cs188_fields(src: _Source) -> dict[str, _Field]:
    """Split a CS188 test file into its fields; a block starts on the line after its
    ``key: \"\"\"``."""
    fields: dict[str, _Field] = {}
    lines = src.text.split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        m = re.match(r"([A-Za-z_]\w*):\s*(.*)\Z", line)
        if m is None:
            raise ParseError("expected 'key: \"value\"'", line=i, column=indent + 1)
        key, rest = m.groups()
        if key in fields:
            raise ParseError(f"the field {key!r} is given twice", line=i, column=indent + 1)
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
            fields[key] = _Field("\n".join(block), start + 1, 1)
        elif len(rest) >= 2 and rest[0] == rest[-1] == '"':
            fields[key] = _Field(rest[1:-1], i, indent + m.start(2) + 2)
        else:
            raise ParseError(
                f"the value of {key!r} must be in double quotes",
                line=i,
                column=indent + m.start(2) + 1,
            )
    return fields


class _CS188:
    """The parts of a CS188 test file, checked: agents, depth, states and moves."""

    def __init__(self, src: _Source) -> None:
        self.fields = _cs188_fields(src)
        self.num_agents = self._integer("num_agents")
        self.depth = self._integer("depth")
        self.successors = self._successors()
        self.evaluation = self._evaluation()
        states = set(self.successors) | set(self.evaluation)
        for moves in self.successors.values():
            states.update(nxt for _, nxt in moves)
        start = self._need("start_state")
        words = _words(start.text)
        if len(words) != 1:
            raise start.error(f"start_state must be one state name, not {_clip(start.text)}")
        self.start, offset = words[0]
        if self.start not in states:
            raise start.error(
                f"start_state {_clip(self.start)} has no successors and no evaluation line",
                offset,
            )
        #: Sentences about what the file says that plies ignores (win or lose states
        #: that are not states of the test), for the tree's ``note`` hint.
        self.notes: list[str] = []
        self.win = self._states("win_states", states)
        self.lose = self._states("lose_states", states)
        self._check_win_and_lose()
        alg = self.fields.get("alg", _Field("", 0, 1))
        name = alg.text.strip()
        if name and name not in CS188_ALGORITHMS:
            raise alg.error(
                f"unknown alg {_clip(name)} (expected one of {', '.join(CS188_ALGORITHMS)})"
            )
        self.algorithm = CS188_ALGORITHMS.get(name)

    def _need(self, key: str) -> _Field:
        if key not in self.fields:
            raise ParseError(f"the CS188 test has no {key!r} field")
        return self.fields[key]

    def _integer(self, key: str) -> int:
        field = self._need(key)
        text = field.text.strip()
        if not re.fullmatch(r"\d{1,18}", text):
            raise field.error(f"{key} must be a whole number, not {_clip(field.text)}")
        value = int(text)
        if value < 1:
            raise field.error(f"{key} must be at least 1, not {value}")
        return value

    def _rows(
        self, key: str, width: int, shape: str
    ) -> Iterator[tuple[list[tuple[str, int]], int]]:
        """The rows of a block, as words with their columns, and their line numbers."""
        block = self._need(key)
        for offset, row in enumerate(block.text.split("\n")):
            words = [(word, at + 1) for word, at in _words(row)]
            if not words:
                continue
            line = block.line + offset
            if len(words) != width:
                raise ParseError(
                    f"a {key} line needs '{shape}', got {_clip(row.strip())}",
                    line=line,
                    column=words[0][1],
                )
            yield words, line

    def _successors(self) -> dict[str, list[tuple[str, str]]]:
        successors: dict[str, list[tuple[str, str]]] = {}
        for words, _line in self._rows("successors", 3, "state action next_state"):
            (state, _), (action, _), (nxt, _) = words
            successors.setdefault(state, []).append((action, nxt))
        return successors

    def _evaluation(self) -> dict[str, Number]:
        evaluation: dict[str, Number] = {}
        lines: dict[str, int] = {}
        for ((state, column), (raw, value_column)), line in self._rows(
            "evaluation", 2, "state value"
        ):
            if state in evaluation:
                raise ParseError(
                    f"state {_clip(state)} has a second evaluation line (the first is at "
                    f"line {lines[state]})",
                    line=line,
                    column=column,
                )
            try:
                evaluation[state] = parse_number(raw)
            except ValueError as exc:
                raise ParseError(
                    f"the evaluation of {_clip(state)}: {exc}", line=line, column=value_column
                ) from None
            lines[state] = line
        return evaluation

    def _states(self, key: str, states: set[str]) -> set[str]:
        """The states ``key`` (``win_states`` or ``lose_states``) names. Names that are
        not states of the test (no successors line, no evaluation line, no move to
        them) are ignored with a note, as CS188's autograder ignores them: Berkeley's
        own tests list ``d1 ... d8`` in trees that have only some of them."""
        field = self.fields.get(key, _Field("", 0, 1))
        named: set[str] = set()
        unknown: dict[str, None] = {}  # in the order given, once each
        for name, _offset in _words(field.text):
            if name in states:
                named.add(name)
            else:
                unknown[name] = None
        if unknown:
            self.notes.append(
                f"{key} (line {field.line}) names {_listed(list(unknown))}, which "
                f"{'is not a state' if len(unknown) == 1 else 'are not states'} of the "
                "test: ignored"
            )
        return named

    def _check_win_and_lose(self) -> None:
        """Refuse a state that is both won and lost, at its word in ``lose_states``."""
        field = self.fields.get("lose_states", _Field("", 0, 1))
        for name, offset in _words(field.text):
            if name in self.win:
                raise field.error(
                    f"state {_clip(name)} is in both win_states and lose_states", offset
                )

    def is_leaf_state(self, state: str) -> bool:
        """Whether play stops at ``state`` whatever the depth."""
        return state in self.win or state in self.lose or state not in self.successors


class _Levels:
    """How many nodes a CS188 expansion has at each ply, level by level: the counts
    measured, then (once the levels repeat) the period they repeat with."""

    def __init__(self) -> None:
        self.sums: list[int] = []  # nodes at each ply counted so far
        self.first: int | None = None  # from len(sums) on, sums[first:] repeats

    def total_through(self, last: int) -> int:
        """Nodes at plies ``0..last`` (plies not counted and not periodic have none)."""
        sums = self.sums
        if last < len(sums):
            return sum(sums[: last + 1])
        if self.first is None:
            return sum(sums)
        period = sums[self.first :]
        cycles, rest = divmod(last - len(sums) + 1, len(period))
        return sum(sums) + cycles * sum(period) + sum(period[:rest])


def _expanded_size(test: _CS188, cap: int) -> tuple[int, bool, int | None]:
    """The number of nodes of the tree a CS188 test expands into, without building it.

    States may be shared (two paths reach one state) or cyclic (``A l A``), so the tree
    can be exponentially larger than the file. Nodes are counted level by level: how
    many paths reach each state at each ply. Once a level repeats an earlier one, the
    rest is whole periods. Far from the last ply, counting stops as soon as the size
    must exceed ``cap``: when the levels so far do, or (after 1,000 plies) when nodes
    at states with an endless path below them, which have a descendant at every later
    ply, do.

    Returns ``(size, exact, depth)``: ``exact`` is false when counting stopped early
    (``size`` is then a lower bound); ``depth`` is the largest depth line whose tree
    has at most ``cap`` nodes (0 if none, ``None`` if counting stopped before knowing).
    """
    last_ply = test.depth * test.num_agents
    endless = _endless_states(test)
    levels = _Levels()
    level: dict[str, int] = {test.start: 1}
    seen: dict[frozenset[tuple[str, int]], int] = {}
    total = 0
    ply = 0
    while level and ply <= last_ply:
        key = frozenset(level.items())
        if key in seen:
            levels.first = seen[key]
            break
        seen[key] = ply
        levels.sums.append(sum(level.values()))
        total += levels.sums[-1]
        if last_ply - ply > 1_000:  # far from the end: stop once surely too large
            bound = total
            if ply > 1_000:  # after a while for short periods to show
                lasting = sum(count for state, count in level.items() if state in endless)
                bound += lasting * (last_ply - ply)
            if bound > cap:
                return bound, False, _depth_within(levels, test, cap, exact=False)
        nxt: dict[str, int] = {}
        for state, count in level.items():
            if not test.is_leaf_state(state):
                for _action, child in test.successors[state]:
                    nxt[child] = nxt.get(child, 0) + count
        level = nxt
        ply += 1
    return levels.total_through(last_ply), True, _depth_within(levels, test, cap, exact=True)


def _endless_states(test: _CS188) -> set[str]:
    """States with an endless path of moves below them (they reach a cycle)."""
    predecessors: dict[str, list[str]] = {}
    unknown: dict[str, int] = {}  # successors not yet known to end
    for state, moves in test.successors.items():
        if not test.is_leaf_state(state):
            unknown[state] = len(moves)
            for _action, child in moves:
                predecessors.setdefault(child, []).append(state)
    ending = [s for s in predecessors if s not in unknown]  # play stops there
    ended = set(ending)
    while ending:
        for above in predecessors.get(ending.pop(), ()):
            unknown[above] -= 1
            if unknown[above] == 0:
                ended.add(above)
                ending.append(above)
    return {state for state in unknown if state not in ended}


def _depth_within(levels: _Levels, test: _CS188, cap: int, *, exact: bool) -> int | None:
    """The largest depth line (rounds of ``num_agents`` plies) whose tree has at most
    ``cap`` nodes, by bisection (sizes grow with the depth); ``None`` if the levels
    counted do not reach past ``cap``."""
    agents = test.num_agents
    low, high = 0, test.depth
    if not exact:
        if levels.total_through(len(levels.sums) - 1) <= cap:
            return None
        high = min(high, (len(levels.sums) - 1) // agents)
    while low < high:
        mid = (low + high + 1) // 2
        if levels.total_through(mid * agents) <= cap:
            low = mid
        else:
            high = mid - 1
    return low


def _count(size: int) -> str:
    """``2,047`` or, for a number too long to read, ``about 10^301``."""
    if size < 10**21:
        return f"{size:,}"
    return f"about 10^{int(size.bit_length() * math.log10(2))}"


def parse_cs188(text: str) -> Tree:
    """Read a Berkeley CS188 multi-agent tree test (``GraphGameTreeTest``).

    Agent 0 is MAX, agents ``1..num_agents-1`` are MIN (chance nodes with equally
    likely outcomes when ``alg`` is ``ExpectimaxAgent``); ``depth`` counts rounds in
    which every agent moves once. A state is a leaf when it is in ``win_states`` or
    ``lose_states``, has no successors, or the depth runs out; leaves take their
    ``evaluation``. Names in ``win_states``/``lose_states`` that are not states of the
    test are ignored, as CS188's autograder ignores them, and said in the tree's
    ``hints["note"]`` (shown as a note by ``plies tree`` and in its JSON's
    ``notes``); a state in both lists is refused. A leaf whose state has no evaluation
    line gets value ``None``: everything but a search works on such a tree, and a
    search raises :class:`~plies.errors.SearchError` if it reaches that leaf. Inner states with an
    evaluation keep it as their static value. Labels are state names and each node's
    ``move`` is the action leading to it. Shared and cyclic states are expanded into a
    tree; the expanded size is computed first and a tree of more than
    :data:`MAX_NODES` nodes raises :class:`~plies.errors.LimitError`. The tree's
    ``hints`` carry the file's algorithm (and, for alpha-beta, CS188's rule of never
    pruning on equality).
    """
    src = _Source(_need_text(text))
    _check_text(src)
    test = _CS188(src)
    size, exact, fits = _expanded_size(test, MAX_NODES)
    if size > MAX_NODES:
        depth_line = test.fields["depth"].line
        if fits is None:
            advice = ")"
        elif fits:
            advice = f"; depth {fits} fits)"
        else:
            advice = "; even depth 1 does not fit)"
        raise LimitError(
            f"the CS188 test expands into a tree of {'' if exact else 'at least '}"
            f"{_count(size)} nodes (its states are shared or cyclic), more than the limit of "
            f'{MAX_NODES:,}; lower the depth line (depth: "{test.depth}" at line '
            f"{depth_line}{advice}"
        )
    builder = TreeBuilder(root="max")
    # Names and values were checked as the file was read, so the nodes go straight into
    # the builder's lists: 5x faster than add() with its checks, for expansions of
    # millions of nodes.
    parents, values, labels = builder.parent, builder.value, builder.label
    kinds, moves, statics = builder.kinds, builder.moves, builder.statics
    ghosts: Kind = "chance" if test.algorithm == "expectiminimax" else "min"
    agents = test.num_agents
    last_ply = test.depth * agents
    evaluation = test.evaluation
    # The moves of each state that play does not stop at, last first (for the stack).
    moves_of = {
        state: moves[::-1]
        for state, moves in test.successors.items()
        if state not in test.win and state not in test.lose
    }
    stack: list[tuple[int, str, str | None, int]] = [(-1, test.start, None, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        parent, state, action, ply = pop()
        node = len(parents)
        parents.append(parent)
        labels.append(state)
        if action is not None:
            moves[node] = action
        next_moves = moves_of.get(state) if ply < last_ply else None
        if next_moves is None:
            values.append(evaluation.get(state))
            continue
        values.append(None)
        kinds[node] = "max" if ply % agents == 0 else ghosts
        static = evaluation.get(state)
        if static is not None:
            statics[node] = static
        ply += 1
        for act, nxt in next_moves:
            push((node, nxt, act, ply))
    tree = builder.build(allow_missing=True)
    if test.notes:
        tree.hints["note"] = "; ".join(test.notes)
    if test.algorithm is not None:
        tree.hints["algorithm"] = test.algorithm
    if test.algorithm == "alphabeta":
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

    Raises :class:`~plies.errors.ParseError` (with line and column) for text that
    cannot be read, :class:`~plies.errors.TreeError` for a tree that is not usable,
    :class:`~plies.errors.LimitError` for one of more than :data:`MAX_NODES` nodes and
    :class:`~plies.errors.ArgumentTypeError` for arguments of the wrong type.
    """
    text = _need_text(text)
    if not isinstance(notation, str) or notation not in NOTATIONS:
        raise ParseError(
            f"unknown notation {_clip(notation) if isinstance(notation, str) else repr(notation)}"
            f" (expected one of {', '.join(NOTATIONS)})"
        )
    _need_root(root)
    if branching is not None:
        branching = _need_branching(branching)
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
