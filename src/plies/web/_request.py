"""Reading the web lab's requests: a JSON body or a query string becomes the same
:mod:`plies.lab` calls that ``plies tree``'s options become.

Field names and values are those of the CLI's options (``algorithm``, ``order``,
``seed``, ``strict``, ``fail_hard``, ``root``, ``depth_limit``, ``window``, ``bounds``,
``notation``, ``branching``); a window or bounds is ``"LOW,HIGH"`` as on the command
line, or a two-element list. Every mistake is a :class:`RequestError` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from plies.errors import PliesError
from plies.lab import LabOptions
from plies.trees import ALGORITHMS, NOTATIONS, ORDERS, Number, parse_number

__all__ = [
    "RequestError",
    "TreeRequest",
    "exercise_shape",
    "read_complexity_request",
    "read_depth",
    "read_lp_request",
    "read_mcts_tree_request",
    "read_select_request",
    "read_tree_request",
]

#: Fields a search request may carry besides ``tree``.
SEARCH_FIELDS = (
    "notation",
    "algorithm",
    "order",
    "seed",
    "strict",
    "fail_hard",
    "root",
    "depth_limit",
    "window",
    "bounds",
    "branching",
    "star1",
)


class RequestError(PliesError):
    """A request the web lab cannot serve; the message names the field."""


@dataclass(frozen=True)
class TreeRequest:
    """A tree to search and how, as a request gave them."""

    text: str
    notation: str
    root: str
    branching: int | None
    bounds: tuple[Number, Number] | None
    options: LabOptions


def _choice(data: Mapping[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, str) or value.lower() not in choices:
        raise RequestError(f"{name} must be one of {', '.join(choices)}, not {value!r}"[:300])
    return value.lower()


def _flag(data: Mapping[str, Any], name: str) -> bool | None:
    """A yes/no field: JSON true/false, or 1/0/true/false/yes/no as query text."""
    value = data.get(name)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("1", "0", "true", "false", "yes", "no", ""):
        return value.lower() in ("1", "true", "yes")
    raise RequestError(f"{name} must be true or false, not {value!r}"[:300])


def _whole(data: Mapping[str, Any], name: str, minimum: int, maximum: int) -> int | None:
    value = data.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value) <= 20:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RequestError(f"{name} must be a whole number, not {value!r}"[:300])
    if not minimum <= value <= maximum:
        raise RequestError(f"{name} must be between {minimum} and {maximum}, not {value}")
    return value


def _pair(data: Mapping[str, Any], name: str) -> tuple[Number, Number] | None:
    value = data.get(name)
    if value is None or value == "":
        return None
    parts: list[Any]
    if isinstance(value, str):
        parts = [p for p in value.replace(";", ",").split(",") if p.strip()]
    elif isinstance(value, list):
        parts = value
    else:
        raise RequestError(f'{name} must be "LOW,HIGH" or a list of two numbers')
    if len(parts) != 2:
        raise RequestError(f'{name} must be two numbers "LOW,HIGH", not {value!r}'[:300])
    numbers: list[Number] = []
    for part in parts:
        if isinstance(part, bool) or not isinstance(part, (int, float, str)):
            raise RequestError(f"{name} must hold numbers, not {part!r}"[:300])
        try:
            numbers.append(parse_number(part) if isinstance(part, str) else part)
        except ValueError as exc:
            raise RequestError(f"{name}: {exc}"[:300]) from None
    return numbers[0], numbers[1]


def read_tree_request(data: Mapping[str, Any], *, max_text: int) -> TreeRequest:
    """The tree and options of a request body or query (``tree`` is required)."""
    text = data.get("tree")
    if not isinstance(text, str) or not text.strip():
        raise RequestError("the request needs a non-empty 'tree' text")
    if len(text) > max_text:
        raise RequestError(f"the tree text has {len(text)} characters, more than {max_text}")
    if text.lstrip().startswith("@") or text.strip() == "-":
        raise RequestError("the web lab reads the tree from the 'tree' text only, not @FILE or -")
    algorithm = data.get("algorithm")
    if algorithm is not None:
        algorithm = _choice(data, "algorithm", ALGORITHMS, "alphabeta")
    options = LabOptions(
        algorithm=algorithm,
        strict=_flag(data, "strict"),
        fail_hard=bool(_flag(data, "fail_hard")),
        order=_choice(data, "order", ORDERS, "given"),
        seed=_whole(data, "seed", -(2**63), 2**63 - 1),
        depth_limit=_whole(data, "depth_limit", 0, 10_000),
        window=_pair(data, "window"),
        star1=_flag(data, "star1") is not False,
    )
    return TreeRequest(
        text=text,
        notation=_choice(data, "notation", NOTATIONS, "auto"),
        root=_choice(data, "root", ("max", "min"), "max"),
        branching=_whole(data, "branching", 1, 1_000_000),
        bounds=_pair(data, "bounds"),
        options=options,
    )


#: The largest practice tree: a student answers on every node.
MAX_EXERCISE_LEAVES = 729


def exercise_shape(query: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`plies.lab.exercise` a practice request
    asks for: ``branching``, ``depth``, ``seed`` (a fresh one if left out, returned so
    the exercise can be shared), ``ragged``, ``chance``, ``root`` and ``values``
    (``"LOW,HIGH"``, whole numbers); the difficulty, ``cutoffs`` (at least that many,
    by default 1, 0 with chance nodes), ``deep`` and ``ties``; and ``strict``, the
    tie rule the exercise is searched and graded by."""
    import random

    branching = _whole(query, "branching", 1, 10) or 2
    depth = _whole(query, "depth", 0, 10)
    depth = 3 if depth is None else depth
    if branching**depth > MAX_EXERCISE_LEAVES:
        raise RequestError(
            f"an exercise of branching {branching} and depth {depth} has {branching**depth} "
            f"leaves, more than {MAX_EXERCISE_LEAVES}"
        )
    seed = _whole(query, "seed", 0, 2**63 - 1)
    values = _pair(query, "values") or (-9, 9)
    if not all(isinstance(v, int) or float(v).is_integer() for v in values):
        raise RequestError(f"values must be whole numbers, not {values}")
    low, high = (int(v) for v in values)
    if low > high:
        raise RequestError(f"values LOW,HIGH needs LOW <= HIGH, not {low},{high}")
    chance = bool(_flag(query, "chance"))
    cutoffs = _whole(query, "cutoffs", 0, 100)
    if cutoffs is None:
        cutoffs = 0 if chance else 1
    return {
        "branching": branching,
        "depth": depth,
        "seed": random.randrange(1_000_000) if seed is None else seed,
        "ragged": bool(_flag(query, "ragged")),
        "chance": chance,
        "root": _choice(query, "root", ("max", "min"), "max"),
        "low": low,
        "high": high,
        "cutoffs": cutoffs,
        "deep": bool(_flag(query, "deep")),
        "ties": bool(_flag(query, "ties")),
        "strict": bool(_flag(query, "strict")),
    }


def read_depth(query: Mapping[str, Any]) -> int:
    """The ``depth`` of a game tree (default 2)."""
    depth = _whole(query, "depth", 0, 12)
    return 2 if depth is None else depth


# -- prune-and-search and the complexity chart --------------------------------------------

#: The most numbers a web selection reads (each round is drawn, every number a mark).
MAX_WEB_NUMBERS = 2_000
#: The most constraints a web linear program reads (the most a drawing shows).
MAX_WEB_CONSTRAINTS = 400
#: The widths a step's drawing may be asked at (the page asks 560, or 420 on a phone).
DRAWING_WIDTHS = (240, 1200)


def _drawing_width(data: Mapping[str, Any]) -> int:
    width = _whole(data, "width", *DRAWING_WIDTHS)
    return 640 if width is None else width


def _seed(data: Mapping[str, Any]) -> int:
    """The ``seed`` of a request drawing at random (0 if none)."""
    return _whole(data, "seed", 0, 2**63 - 1) or 0


def _typed_or_random(data: Mapping[str, Any], typed: str, most: int) -> tuple[str | None, int]:
    """The ``typed`` text of a request and 0, or ``None`` and the count its ``random``
    field asks for (1 to ``most``): exactly one of the two is given."""
    text, count = data.get(typed), data.get("random")
    if (text is None) == (count is None):
        raise RequestError(f"the request needs either a '{typed}' text or 'random' (a count)")
    if text is not None:
        if not isinstance(text, str) or not text.strip():
            raise RequestError(f"{typed} must be a non-empty text")
        return text, 0
    number = _whole(data, "random", 1, most)
    if number is None:
        raise RequestError(f"random must be a count from 1 to {most:,}")
    return None, number


def read_select_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a selection: ``numbers`` (text, or ``random`` numbers
    drawn with ``seed``), ``k`` (1-based; the median if none), ``method`` and ``seed``,
    ``width``; over :data:`MAX_WEB_NUMBERS` numbers is refused."""
    seed = _seed(data)
    text, count = _typed_or_random(data, "numbers", MAX_WEB_NUMBERS)
    if text is None:
        from plies.lab import random_numbers

        text = random_numbers(count, seed)
    found = len(re.findall(r"[^\s,;]+", text))
    if found > MAX_WEB_NUMBERS:
        raise RequestError(
            f"{found:,} numbers are more than the web lab's {MAX_WEB_NUMBERS:,} "
            "(the command line, plies select, takes more)"
        )
    k = _whole(data, "k", 1, max(found, 1))
    return {
        "numbers": text,
        "k": (found + 1) // 2 if k is None else k,
        "method": _choice(data, "method", ("medians", "random"), "medians"),
        "seed": seed,
        "width": _drawing_width(data),
    }


def read_lp_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a linear program: ``text`` (the LP file format, or
    ``random`` constraints drawn with ``seed``) and ``width``; over
    :data:`MAX_WEB_CONSTRAINTS` constraints is refused."""
    seed = _seed(data)
    text, count = _typed_or_random(data, "program", MAX_WEB_CONSTRAINTS)
    if text is None:
        from plies.lab import random_lp

        text = random_lp(count, seed)
    lines = sum(1 for line in text.splitlines() if line.split("#", 1)[0].strip())
    if lines - 1 > MAX_WEB_CONSTRAINTS:
        raise RequestError(
            f"{lines - 1:,} constraints are more than the web lab's {MAX_WEB_CONSTRAINTS} "
            "(the command line, plies lp, takes more)"
        )
    return {"text": text, "width": _drawing_width(data)}


def read_complexity_request(query: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`plies.lab.plot_complexity` a chart request
    asks for: ``branching`` (3), ``depths`` (``"1-6"``), ``seeds`` (10), ``seed`` (0).
    Their sizes are checked as the command line checks them, when measured."""
    depths = query.get("depths", "1-6")
    if not isinstance(depths, str) or len(depths) > 20:
        raise RequestError(f"depths must be a range like 1-6, not {depths!r}"[:300])
    branching = _whole(query, "branching", -(10**9), 10**9)
    seeds = _whole(query, "seeds", -(10**9), 10**9)
    return {
        "branching": 3 if branching is None else branching,
        "depths": depths or "1-6",
        "seeds": 10 if seeds is None else seeds,
        "seed": _seed(query),
    }


# -- Monte-Carlo tree search on an explicit tree ------------------------------------------

#: Fields of the exact searches that Monte-Carlo tree search has no use for (as
#: ``plies tree --algorithm mcts`` refuses their options).
EXACT_ONLY_FIELDS = ("order", "strict", "fail_hard", "depth_limit", "window", "bounds", "star1")

#: The iterations an MCTS request runs unless it says (as ``plies tree``).
MCTS_DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class MctsTreeRequest:
    """A tree to run Monte-Carlo tree search on: ``tree`` (its text and how to read
    it), ``iterations``, ``seed`` and ``exploration`` (UCB's constant c)."""

    tree: TreeRequest
    iterations: int
    seed: int
    exploration: float


def _exploration(data: Mapping[str, Any]) -> float:
    """The ``exploration`` constant of a request: a finite number >= 0 (sqrt(2))."""
    import math

    value = data.get("exploration")
    if value is None or value == "":
        return math.sqrt(2)
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise RequestError(f"exploration must be a number, not {value!r}"[:300]) from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RequestError(f"exploration must be a number, not {value!r}"[:300])
    if not 0 <= value < math.inf:
        raise RequestError(f"exploration must be a finite number >= 0, not {value!r}")
    return float(value)


def read_mcts_tree_request(
    data: Mapping[str, Any], *, max_text: int, max_iterations: int
) -> MctsTreeRequest:
    """The tree (``tree``, ``notation``, ``root``, ``branching``), ``iterations`` (1 to
    ``max_iterations``; 1000 or fewer by default), ``seed`` (0) and ``exploration``
    (sqrt(2)) of a Monte-Carlo tree search request. ``algorithm`` may only be
    ``"mcts"``; the exact searches' fields (:data:`EXACT_ONLY_FIELDS`) are refused."""
    algorithm = data.get("algorithm")
    if algorithm not in (None, "", "mcts"):
        raise RequestError(f"algorithm must be mcts here, not {algorithm!r}"[:300])
    for name in EXACT_ONLY_FIELDS:
        if data.get(name) not in (None, "", False):
            raise RequestError(f"{name} does not apply to Monte-Carlo tree search")
    reading = {k: data[k] for k in ("tree", "notation", "root", "branching") if k in data}
    iterations = _whole(data, "iterations", 1, max_iterations)
    return MctsTreeRequest(
        tree=read_tree_request(reading, max_text=max_text),
        iterations=min(MCTS_DEFAULT_ITERATIONS, max_iterations)
        if iterations is None
        else iterations,
        seed=_whole(data, "seed", -(2**63), 2**63 - 1) or 0,
        exploration=_exploration(data),
    )
