"""The process a student's Python submission runs in (``python -I _child.py``).

Standard library only, and never imported by plies: the grader starts it as a script
in a process of its own (:mod:`plies.grade._run`), with limits on time, memory and
file size, in an empty working directory, with the submission's folder on the path.
The process keeps the grader safe; it does not keep the marks safe from a student who
attacks the grader on purpose (this process's memory holds the test), which is what a
course's plagiarism and code review are for. It loads the submission, then answers one
test per line of standard input with one JSON line on the file descriptor named in
its arguments (the submission's own prints are captured, not mixed in):

* the test: ``{"form", "tree": {"kind", "children", "value", "probability", "name"},
  "call": {...}}``, the tree as flat lists over node ids (0 the root, preorder);
* the answer: ``{"ok": true, "value", "move", "reads", "calls", "printed"}``, where
  ``reads`` are the node ids of the leaves read, in order, and ``calls`` the
  arguments of every call of the function (``[node, alpha, beta, maximizing]``),
  or ``{"ok": false, "error", "where", "printed"}`` when the submission raised.

How a leaf read is seen depends on the form: ``array``, a read of ``values[i]``;
``node``, a read of a leaf's ``.value``; ``aima``, a call of ``game.utility``. Calls
are seen by replacing the function's module-level name with a wrapper, which the
submission's own recursive calls then go through.
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import json
import math
import os
import sys
import traceback
from typing import Any

#: Recursion depth a submission may use (each level is two frames: the wrapper's too).
RECURSION = 20_000
#: Characters of a submission's printed output kept per test.
PRINTED = 2_000


class _Bounded(io.StringIO):
    """A submission's standard output: the first :data:`PRINTED` characters kept."""

    def write(self, text: str) -> int:
        room = PRINTED - self.tell()
        if room > 0:
            super().write(text[:room])
        return len(text)


class _Reads(list):  # type: ignore[type-arg]
    """The leaves read, in order; more than ``cap`` reads stop the submission (an
    endless loop of reads must not fill the memory before the time runs out)."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap

    def append(self, node: Any) -> None:
        if len(self) >= self.cap:
            raise RuntimeError(f"the submission read more than {self.cap:,} leaves")
        super().append(node)


class _Values(list):  # type: ignore[type-arg]
    """The array form's ``values``: a list that notes each index read."""

    def __init__(self, values: list[Any], reads: list[int]) -> None:
        super().__init__(values)
        self._reads = reads

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int) and not isinstance(index, bool):
            self._reads.append(index % len(self) if -len(self) <= index < 0 else index)
        return super().__getitem__(index)


class Node:
    """A node of the node form: ``children`` (empty at a leaf), ``value`` (the
    leaf's value; None at an inner node until the submission sets it), ``kind``
    (``max``, ``min``, ``chance`` or ``leaf``), ``probability`` (of a chance node's
    child), ``name`` (as plies draws it)."""

    __slots__ = ("_reads", "_value", "children", "id", "kind", "name", "probability")

    def __init__(self, node: int, tree: dict[str, Any], reads: list[int]) -> None:
        self.id, self._reads = node, reads
        self.kind = tree["kind"][node]
        self.name = tree["name"][node]
        self.probability = tree["probability"][node]
        self._value = tree["value"][node]
        self.children: list[Node] = []

    @property
    def value(self) -> Any:
        if not self.children:
            self._reads.append(self.id)
        return self._value

    @value.setter
    def value(self, value: Any) -> None:
        self._value = value

    def __repr__(self) -> str:
        return f"Node({self.name})"


def _nodes(tree: dict[str, Any], reads: list[int]) -> list[Node]:
    nodes = [Node(n, tree, reads) for n in range(len(tree["kind"]))]
    for node, kids in zip(nodes, tree["children"], strict=True):
        node.children = [nodes[k] for k in kids]
    return nodes


class Game:
    """The aima form's game, with aima-python's interface. States are node names;
    an action is the name of the child it leads to."""

    def __init__(self, tree: dict[str, Any], reads: list[int]) -> None:
        self._tree, self._reads = tree, reads
        self._id = {name: n for n, name in enumerate(tree["name"])}
        self.initial = tree["name"][0]

    def _node(self, state: Any) -> int:
        node = self._id.get(state)
        if node is None:
            raise ValueError(f"{state!r} is not a state of this game")
        return node

    def actions(self, state: Any) -> list[str]:
        return [self._tree["name"][k] for k in self._tree["children"][self._node(state)]]

    def result(self, state: Any, move: Any) -> str:
        if move not in self.actions(state):
            raise ValueError(f"{move!r} is not an action in state {state!r}")
        return str(move)

    def terminal_test(self, state: Any) -> bool:
        return not self._tree["children"][self._node(state)]

    def utility(self, state: Any, player: Any) -> Any:
        node = self._node(state)
        self._reads.append(node)
        value = self._tree["value"][node]
        return value if player == "MAX" else -value

    def to_move(self, state: Any) -> str:
        return "MIN" if self._tree["kind"][self._node(state)] == "min" else "MAX"

    def display(self, state: Any) -> None:
        print(state)


def _number(x: Any) -> Any:
    """A value as JSON carries it (infinities as strings)."""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, bool) or not isinstance(x, int | float):
        return repr(x)[:80] if x is not None else None
    return x


def _where(exc: BaseException, path: str) -> str:
    """The submission's own line where ``exc`` was raised (the last frame in it)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if not frames:
        return ""
    last = frames[-1]
    return f"line {last.lineno}: {(last.line or '').strip()}"


def _run(test: dict[str, Any], module: Any, name: str, function: Any) -> dict[str, Any]:
    """Run one test; the answer without ``printed``."""
    tree, form = test["tree"], test["form"]
    reads: list[int] = _Reads(test["cap"])
    calls: list[list[Any]] = []
    if form == "array":
        place = test["call"]["place"]  # "depth index" -> node id

        def seen(args: tuple[Any, ...]) -> None:
            if len(args) >= 6:
                node = place.get(f"{args[0]} {args[1]}", -1)
                calls.append([node, _number(args[4]), _number(args[5]), bool(args[2])])

        values = _Values(test["call"]["values"], reads)
        first: tuple[Any, ...] = (0, 0, True, values, -math.inf, math.inf)
    elif form == "node":
        nodes = _nodes(tree, reads)
        depth = test["call"]["depth"]
        with_depth = test["call"]["with_depth"]

        def seen(args: tuple[Any, ...]) -> None:
            if args and isinstance(args[0], Node):
                rest = args[2:] if with_depth else args[1:]
                if len(rest) >= 3:
                    calls.append([args[0].id, _number(rest[0]), _number(rest[1]), bool(rest[2])])

        maximizing = tree["kind"][0] != "min"
        if with_depth:
            first = (nodes[0], depth, -math.inf, math.inf, maximizing)
        else:
            first = (nodes[0], -math.inf, math.inf, maximizing)
    else:  # aima
        game = Game(tree, reads)

        def seen(args: tuple[Any, ...]) -> None:
            return None

        first = (game.initial, game)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        seen(args)
        return function(*args, **kwargs)

    setattr(module, name, wrapper)
    try:
        got = wrapper(*first)
    finally:
        setattr(module, name, function)
    answer: dict[str, Any] = {"ok": True, "reads": reads, "calls": calls}
    if form == "aima":
        answer["move"], answer["value"] = (got if isinstance(got, str) else repr(got)[:80]), None
    else:
        answer["value"], answer["move"] = _number(got), None
    return answer


def main() -> None:
    path, name, channel = sys.argv[1], sys.argv[2], int(sys.argv[3])
    out = os.fdopen(channel, "w", encoding="utf-8")
    sys.setrecursionlimit(RECURSION)
    printed = _Bounded()
    sys.stdout = sys.stderr = printed
    sys.stdin = io.StringIO()  # a submission that reads input gets end of file
    commands = os.fdopen(os.dup(0), encoding="utf-8")

    def say(answer: dict[str, Any]) -> None:
        answer["printed"] = printed.getvalue()
        printed.seek(0)
        printed.truncate()
        out.write(json.dumps(answer) + "\n")
        out.flush()

    # The submission's own folder, so that its modules import (a student's helpers, or
    # aima-python's games.py beside it); python -I leaves out the rest of the caller's.
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location("submission", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path} as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        spec.loader.exec_module(module)
        function = getattr(module, name, None)
        if not callable(function):
            found = sorted(n for n, v in vars(module).items() if inspect.isfunction(v))
            raise LookupError(
                f"the submission defines no function {name}"
                + (f" (it defines {', '.join(found)})" if found else "")
            )
        try:
            parameters = len(inspect.signature(function).parameters)
        except (TypeError, ValueError):
            parameters = -1
    except BaseException as exc:  # the submission's failure, reported
        say({"loaded": False, "error": f"{type(exc).__name__}: {exc}"[:300],
             "where": _where(exc, path)})  # fmt: skip
        return
    say({"loaded": True, "parameters": parameters})
    for line in commands:
        test = json.loads(line)
        try:
            answer = _run(test, module, name, function)
        except BaseException as exc:  # SystemExit, RecursionError, ...
            kind = type(exc).__name__
            text = f"{kind}: {exc}" if str(exc) else kind
            if isinstance(exc, SystemExit):
                text = f"the submission called exit({exc.code!r})"
            answer = {"ok": False, "error": text[:300], "where": _where(exc, path)}
        say(answer)


if __name__ == "__main__":
    main()
