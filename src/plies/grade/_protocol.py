"""The ``program`` form's line protocol: a submission in any language asks for the
tree as it searches it, so the order in which it reads leaves is seen, not reported.

The grader starts the program once and writes ``search`` on its standard input for
each test; the program answers on its standard output, one request a line, each
answered by one line from the grader, until it prints its result:

=====================  ================================================  ===========
program writes         grader answers                                    notes
=====================  ================================================  ===========
``children N``         ``K C1 ... CK``: the number of children, their    the root is
                       ids (``0`` at a leaf)                             node ``0``
``kind N``             ``max``, ``min``, ``chance`` or ``leaf``
``value N``            the value of leaf ``N``                           a leaf read
``probability N``      the probability of chance node ``N``'s child
``enter N ALPHA BETA`` nothing: the window the program searches ``N``    optional
                       with (``inf``, ``-inf``, ``Infinity`` are read)
``result V``           nothing: the value of the root; the search ends
=====================  ================================================  ===========

After ``result`` the program reads the next ``search`` (or the end of its input,
then it exits). A program that exits after one search is started again. Numbers
are written as Python writes them (``3``, ``-2.5``). Anything else is an error that
costs the test its marks, as is a request for a node that is not in the tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["converse"]

#: Requests a search may make per node of the tree (an endless loop must end).
REQUESTS_PER_NODE = 20


def _number(text: str) -> float | int:
    """A number the program wrote: ints, floats, and infinities however spelled."""
    word = text.strip().lower().lstrip("+")
    if word in ("inf", "infinity", "-inf", "-infinity"):
        return -math.inf if word.startswith("-") else math.inf
    try:
        return int(word)
    except ValueError:
        value = float(word)
        if math.isnan(value):
            raise ValueError("nan") from None
        return value


def _show(x: Any) -> str:
    """A value as the grader writes it: ``3`` for 3 and 3.0, ``2.5``."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return repr(x)


def converse(
    test: dict[str, Any], send: Callable[[str], None], read: Callable[[], str | None]
) -> dict[str, Any]:
    """One search of ``test["tree"]`` by a program: ``send`` writes a line to it,
    ``read`` gives its next line (None when its time ran out). The answer as the
    Python forms give it (``value``, ``reads``, ``calls``), ``{"timeout": True}``,
    or a failure naming the line the protocol cannot take."""
    tree = test["tree"]
    kinds, children, values, probability = (
        tree["kind"],
        tree["children"],
        tree["value"],
        tree["probability"],
    )
    n = len(kinds)
    reads: list[int] = []
    calls: list[list[Any]] = []
    left = REQUESTS_PER_NODE * n + 10

    def fail(line: str, why: str) -> dict[str, Any]:
        return {"ok": False, "error": f"the program wrote {line[:80]!r}: {why}", "where": "",
                "printed": ""}  # fmt: skip

    send("search")
    while True:
        line = read()
        if line is None:
            return {"timeout": True, "ok": False}
        words = line.split()
        if not words:
            continue
        left -= 1
        if left < 0:
            return fail(line, f"more than {REQUESTS_PER_NODE} requests per node of the tree")
        verb, args = words[0].lower(), words[1:]
        try:
            if verb == "result" and len(args) == 1:
                return {"ok": True, "value": _number(args[0]), "move": None, "reads": reads,
                        "calls": calls, "printed": ""}  # fmt: skip
            node = int(args[0]) if args else -1
            if not 0 <= node < n:
                return fail(line, f"there is no node {args[0] if args else ''} (ids 0 to {n - 1})")
            if verb == "children" and len(args) == 1:
                kids = children[node]
                send(" ".join(map(str, [len(kids), *kids])))
            elif verb == "kind" and len(args) == 1:
                send(kinds[node])
            elif verb == "value" and len(args) == 1:
                if children[node]:
                    return fail(line, f"node {node} is not a leaf")
                reads.append(node)
                send(_show(values[node]))
            elif verb == "probability" and len(args) == 1:
                p = probability[node]
                send(_show(p if p is not None else 1))
            elif verb == "enter" and len(args) == 3:
                calls.append([node, _number(args[1]), _number(args[2]), None])
            else:
                return fail(line, "not a request of the protocol (children, kind, value, "
                                  "probability, enter, result)")  # fmt: skip
        except ValueError:
            return fail(line, "a number cannot be read")
