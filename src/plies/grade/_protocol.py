"""The ``program`` form's line protocol: a submission in any language asks for the
tree as it searches it, so the order in which it reads leaves is seen, not reported.

The grader starts the program once and writes ``search`` on its standard input for
each test; the program answers on its standard output, one request a line, each
answered by one line from the grader, until it prints its result:

=====================  ================================================  ===========
program writes         grader answers                                    notes
=====================  ================================================  ===========
``kind N``             ``max``, ``min``, ``chance`` or ``leaf``          the root is
                                                                         node ``0``
``children N``         ``K C1 ... CK``: the number of children, their
                       ids (``0`` at a leaf)
``value N``            the value of leaf ``N``                           a leaf read
``probability N``      the probability of node ``N``, a child of a       ``1`` under
                       chance node                                       MAX, MIN
``enter N ALPHA BETA`` nothing: the window the program searches ``N``    optional
                       with
``result V``           nothing: the value of the root; the search ends
=====================  ================================================  ===========

After ``result`` the program reads the next ``search``; the grader writes nothing
else, and stops the program when grading is over. A program that exits after each
search is started again for the next.

Numbers: the grader writes ``3`` for a whole value, ``-2.5`` or ``0.1`` (the
shortest text that reads back exactly) otherwise, and ``Infinity``/``-Infinity``,
which C++'s ``stod``, Java's ``Double.parseDouble`` and Python's ``float`` all read.
It reads ints, decimals, exponents, and infinities however spelled (``inf``,
``-inf``, ``Infinity``, C++'s and Java's defaults); never NaN.

A line that is not one of these requests (a debugging print: those go to standard
error), a request for a node that is not in the tree, a ``value`` of a node that is
not a leaf, or more than :data:`REQUESTS_PER_NODE` requests per node of the tree (an
endless loop that keeps asking) ends the search and costs the test its marks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["REQUESTS", "REQUESTS_PER_NODE", "converse"]

#: Requests a search may make per node of the tree (an endless loop must end).
REQUESTS_PER_NODE = 20

#: The requests a program may write, and how many words follow each.
REQUESTS = {"kind": 1, "children": 1, "value": 1, "probability": 1, "enter": 3, "result": 1}

_USAGE = {
    "kind": "kind N",
    "children": "children N",
    "value": "value N",
    "probability": "probability N",
    "enter": "enter N ALPHA BETA",
    "result": "result V",
}


class _Refused(Exception):
    """A line the protocol cannot take; the message says why."""


def _number(text: str) -> float | int:
    """A number the program wrote: ints, floats, and infinities however spelled."""
    word = text.strip().lower().lstrip("+")
    if word in ("inf", "infinity", "-inf", "-infinity"):
        return -math.inf if word.startswith("-") else math.inf
    try:
        return int(word)
    except ValueError:
        pass
    try:
        value = float(word)
    except ValueError:
        raise _Refused(f"{text!r} is not a number") from None
    if math.isnan(value):
        raise _Refused("NaN is not a value")
    return value


def _node(text: str, count: int) -> int:
    """The node id ``text`` names, in a tree of ``count`` nodes."""
    try:
        node = int(text)
    except ValueError:
        raise _Refused(f"a node id is a whole number, not {text!r}") from None
    if not 0 <= node < count:
        raise _Refused(f"there is no node {node} (ids 0 to {count - 1})")
    return node


def _show(x: Any) -> str:
    """A value as the grader writes it: ``3`` for 3 and 3.0, ``2.5``, ``Infinity``."""
    if x in ("inf", "-inf"):  # the infinities, as grade's tests carry them
        x = math.inf if x == "inf" else -math.inf
    if isinstance(x, float):
        if math.isinf(x):
            return "Infinity" if x > 0 else "-Infinity"
        if x.is_integer() and abs(x) < 1e16:
            return str(int(x))
    return repr(x)


def _check(verb: str, args: list[str]) -> None:
    """Refuse a line that is not a request of the protocol, or has the wrong words."""
    if verb not in REQUESTS:
        raise _Refused(
            f"not a request of the protocol ({', '.join(REQUESTS)}); anything else, "
            "debugging output too, goes to standard error"
        )
    if len(args) != REQUESTS[verb]:
        raise _Refused(f"the request is written '{_USAGE[verb]}'")


def converse(
    test: dict[str, Any], send: Callable[[str], None], read: Callable[[], str | None]
) -> dict[str, Any]:
    """One search of ``test["tree"]`` by a program: ``send`` writes a line to it,
    ``read`` gives its next line (None when its time ran out). The answer as the
    Python forms give it (``value``, ``reads``, ``calls``), ``{"timeout": True}``,
    or a failure naming the line the protocol cannot take."""
    tree = test["tree"]
    kinds, children, values = tree["kind"], tree["children"], tree["value"]
    probability = tree["probability"]
    reads: list[int] = []
    calls: list[list[Any]] = []
    left = REQUESTS_PER_NODE * len(kinds) + 10

    send("search")
    while True:
        line = read()
        if line is None:
            return {"timeout": True, "ok": False}
        words = line.split()
        if not words:
            continue
        verb, args = words[0].lower(), words[1:]
        left -= 1
        try:
            if left < 0:
                raise _Refused(f"more than {REQUESTS_PER_NODE} requests per node of the tree")
            _check(verb, args)
            if verb == "result":
                return {"ok": True, "value": _number(args[0]), "move": None, "reads": reads,
                        "calls": calls, "printed": ""}  # fmt: skip
            node = _node(args[0], len(kinds))
            if verb == "kind":
                send(kinds[node])
            elif verb == "children":
                send(" ".join(map(str, [len(children[node]), *children[node]])))
            elif verb == "value":
                if children[node]:
                    raise _Refused(f"node {node} is not a leaf (it is {kinds[node].upper()})")
                reads.append(node)
                send(_show(values[node]))
            elif verb == "probability":
                p = probability[node]
                send(_show(p if p is not None else 1))
            else:  # enter
                calls.append([node, _number(args[1]), _number(args[2]), None])
        except _Refused as why:
            return {"ok": False, "error": f"the program wrote {line[:80]!r}: {why}",
                    "where": "", "printed": ""}  # fmt: skip
