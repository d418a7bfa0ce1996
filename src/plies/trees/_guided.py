"""Guided input, as lab sheets ask: the tree's depth, the children of each node and the
leaf values, asked one at a time. A bad answer is asked again with the reason;
nothing is replaced by a default behind the user's back."""

from __future__ import annotations

from collections.abc import Callable

from plies.errors import PliesError
from plies.trees._model import Number, Tree, TreeBuilder
from plies.trees._parse import parse_number

__all__ = ["guided_tree"]

#: Guided input is for trees a person types in; larger shapes are refused.
MAX_GUIDED_LEAVES = 10_000


def _ask_int(
    ask: Callable[[str], str], tell: Callable[[str], None], prompt: str, low: int, high: int
) -> int:
    while True:
        answer = ask(prompt).strip()
        try:
            value = int(answer) if len(answer) <= 20 else None
        except ValueError:
            value = None
        if value is None:
            tell(f"'{answer[:40]}' is not a whole number; please answer again.")
            continue
        if not low <= value <= high:
            tell(f"{value} is out of range: give a number from {low} to {high}.")
            continue
        return value


def guided_tree(
    ask: Callable[[str], str], tell: Callable[[str], None], *, root: str = "max"
) -> Tree:
    """Build a tree by asking questions.

    ``ask(prompt)`` returns the user's answer (raising :class:`EOFError` at the end of
    input); ``tell(message)`` shows why an answer was refused. The user gives the depth,
    then either one number of children for every node or ``each`` to be asked per
    node, then every leaf value left to right.
    """
    try:
        depth = _ask_int(ask, tell, "Depth of the tree (levels below the root, 1-12): ", 1, 12)
        while True:
            answer = (
                ask(
                    "Children per inner node (a number 1-10, or 'each' to be asked at every node): "
                )
                .strip()
                .lower()
            )
            if answer == "each":
                branching = None
                break
            try:
                branching = int(answer)  # over 4,300 digits: ValueError too
            except ValueError:
                tell(f"'{answer[:40]}' is neither a whole number nor 'each'; please answer again.")
                continue
            if not 1 <= branching <= 10:
                tell(f"{branching} is out of range: give a number from 1 to 10.")
                continue
            if branching**depth > MAX_GUIDED_LEAVES:
                tell(f"{branching}^{depth} leaves is too many to type; give fewer children.")
                continue
            break
        builder = TreeBuilder(root=root)
        leaves = 0
        stack: list[tuple[int, int, str]] = [(-1, 0, "root")]
        while stack:
            parent, d, where = stack.pop()
            if d == depth:
                value = _ask_leaf(ask, tell, where)
                builder.add(parent, value=value)
                leaves += 1
                continue
            if branching is None:
                count = _ask_int(
                    ask,
                    tell,
                    f"Children of the node at {where} (0 makes it a leaf): ",
                    0 if parent >= 0 else 1,
                    10,
                )
            else:
                count = branching
            if count == 0:
                builder.add(parent, value=_ask_leaf(ask, tell, where))
                leaves += 1
                continue
            node = builder.add(parent)
            prefix = "" if parent < 0 else where + "."
            stack.extend((node, d + 1, f"{prefix}{i}") for i in range(count - 1, -1, -1))
            if leaves > MAX_GUIDED_LEAVES:
                raise PliesError(f"guided input stops at {MAX_GUIDED_LEAVES} leaves")
        return builder.build()
    except EOFError:
        raise PliesError("the input ended before the tree was complete") from None


def _ask_leaf(ask: Callable[[str], str], tell: Callable[[str], None], where: str) -> Number:
    while True:
        answer = ask(f"Value of the leaf at {where}: ").strip()
        try:
            return parse_number(answer)
        except ValueError as exc:
            reason = str(exc)
            if reason.startswith("not a number"):
                reason = f"'{answer[:40]}' is not a number (use e.g. 3, -2.5, inf)"
            tell(f"{reason}; please answer again.")
