"""The web lab's API operations, apart from any transport: what ``/api/search``,
``/api/compare``, ``/api/tree``, ``/api/check``, ``/api/render``, ``/api/exercise``,
``/api/game-tree``, ``/api/select``, ``/api/lp``, ``/api/complexity`` and
``/api/mcts-tree`` answer, as
bytes with a status, a media type and headers.

The Starlette app (:mod:`plies.web._app`) reads a request, runs an operation's job in
a worker process and sends its :class:`Answer`; the static site (:mod:`plies.web._site`)
runs plies in the browser under Pyodide and calls :func:`answer_request` there for the
same bytes, with no server, Starlette or NumPy. An operation is split in two,
:func:`prepare` (read and check the request: the job to run and its arguments) and the
job's ``finish`` (its result as an :class:`Answer`), so the server runs only the job in
its workers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from plies.errors import PliesError
from plies.lab import OPENSPIEL
from plies.trees import json_nesting
from plies.web import _jobs
from plies.web._request import (
    RequestError,
    exercise_shape,
    read_complexity_request,
    read_depth,
    read_lp_request,
    read_mcts_tree_request,
    read_select_request,
    read_tree_request,
)

__all__ = [
    "MEDIA_TYPES",
    "OPERATIONS",
    "QUERY_OPERATIONS",
    "Answer",
    "BodyTooLarge",
    "Limits",
    "answer",
    "answer_request",
    "error_answer",
    "json_bytes",
    "prepare",
    "read_body",
]

#: Download formats: drawing formats of ``--draw`` and the trace table's.
MEDIA_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "dot": "text/vnd.graphviz; charset=utf-8",
    "tex": "application/x-tex; charset=utf-8",
    "mmd": "text/plain; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
}

#: The operations, by the last word of their path (``/api/search``: ``search``).
OPERATIONS = (
    "search",
    "compare",
    "tree",
    "check",
    "render",
    "exercise",
    "game-tree",
    "select",
    "lp",
    "complexity",
    "mcts-tree",
)

#: The operations asked with GET, their request in the query string; the others are
#: POSTed a JSON object.
QUERY_OPERATIONS = ("exercise", "game-tree", "complexity")


@dataclass(frozen=True)
class Answer:
    """What an operation answers: ``status``, ``media_type``, ``body`` and extra
    ``headers`` (a download's file name)."""

    status: int
    media_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


def json_bytes(document: Any) -> bytes:
    """``document`` as the API writes JSON (as Starlette's ``JSONResponse`` renders
    it: UTF-8, no spaces, no NaN)."""
    text = json.dumps(document, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":"))  # fmt: skip
    return text.encode("utf-8")


def _json(document: Any) -> Answer:
    return Answer(200, "application/json", json_bytes(document))


def _svg(body: bytes) -> Answer:
    return Answer(200, MEDIA_TYPES["svg"], body)


def error_answer(exc: PliesError | str, status: int = 400) -> Answer:
    """A bad request's answer: ``{"error": "one line"}``, with the ``line`` and
    ``column`` of a parse error."""
    line = " ".join(str(exc).split())  # one line, whatever the message held
    document: dict[str, Any] = {"error": line}
    where = getattr(exc, "line", None)
    if where is not None:
        document |= {"line": where, "column": getattr(exc, "column", None)}
    return Answer(status, "application/json", json_bytes(document))


@dataclass(frozen=True)
class Limits:
    """The sizes an operation checks: ``max_body`` (bytes of a request body, and
    characters of a tree text), ``max_nodes`` (a tree searched), ``max_step_nodes`` (a
    tree drawn or stepped), ``max_mcts_iterations`` (of one Monte-Carlo tree search)
    and ``max_mcts_walk`` (its iterations times the tree's height: the most nodes it
    may walk through). The defaults are ``plies serve``'s and ``plies site``'s."""

    max_body: int = 1_000_000
    max_nodes: int = 200_000
    max_step_nodes: int = 2_000
    max_mcts_iterations: int = 100_000
    max_mcts_walk: int = 2_000_000


#: The deepest a request body's JSON may nest (a request nests 3 levels at most; its
#: tree is a text in it, whatever the tree's depth).
MAX_BODY_NESTING = 64


class BodyTooLarge(RequestError):
    """A request body over :attr:`Limits.max_body` (status 413)."""


def _unicode_problem(value: Any, where: str, depth: int = 0) -> str | None:
    """Where ``value`` (a JSON document) holds text that is not Unicode (a lone
    surrogate such as ``"\\ud800"``, which JSON can spell but nothing can encode)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where or "the request"
        return None
    if depth > MAX_BODY_NESTING:
        return None
    items: Any = ()
    if isinstance(value, dict):
        for key in value:
            if _unicode_problem(key, f"a key of {where or 'the request'}", depth + 1):
                return f"a key of {where or 'the request'}"
        items = ((f"{where}.{k}" if where else str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(value))
    for name, item in items:
        found = _unicode_problem(item, name, depth + 1)
        if found:
            return found
    return None


def read_body(body: bytes, limit: int) -> dict[str, Any]:
    """A POSTed request body as the JSON object it must be: :class:`BodyTooLarge`
    over ``limit`` bytes, :class:`~plies.web._request.RequestError` for anything but a
    JSON object of Unicode text."""
    if len(body) > limit:
        raise BodyTooLarge(f"the request body is larger than {limit} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the request body is not a JSON object") from None
    if json_nesting(text) > MAX_BODY_NESTING:  # nothing deeper is asked; nor read
        raise RequestError(
            f"the request body is not a JSON object the lab reads: it nests deeper than "
            f"{MAX_BODY_NESTING} levels"
        )
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise RequestError("the request body is not a JSON object") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise RequestError("the request body holds a number too long to read") from None
    if not isinstance(data, dict):
        raise RequestError("the request body is not a JSON object")
    where = _unicode_problem(data, "")
    if where is not None:
        raise RequestError(f"{where[:60]} holds text that is not Unicode (a lone surrogate)")
    return data


def _game_tree_request(query: Mapping[str, Any]) -> tuple[str, int]:
    """The ``game`` and ``depth`` of a ``game-tree`` request."""
    spec = str(query.get("game", ""))
    if not spec.strip() or len(spec) > 10_000:
        raise RequestError("the request needs a 'game' like tictactoe:5 1 9")
    if spec.strip().partition(":")[0] == OPENSPIEL:
        # OpenSpiel builds a game before anything here can bound its size.
        raise RequestError("the web lab serves the built-in games, not OpenSpiel's")
    return spec, read_depth(query)


Prepared = tuple[Callable[..., Any], tuple[Any, ...], Callable[[Any], Answer]]


def prepare(operation: str, data: Mapping[str, Any], limits: Limits) -> Prepared:
    """Read ``operation``'s request ``data`` (a JSON body, or the query of
    :data:`QUERY_OPERATIONS`): its job, the job's arguments, and the function that makes the
    job's result an :class:`Answer`. A bad request raises
    :class:`~plies.web._request.RequestError` (or another PliesError) before any job
    runs."""
    if operation == "exercise":
        return _jobs.exercise, (exercise_shape(data),), _json
    if operation == "game-tree":
        spec, depth = _game_tree_request(data)
        return _jobs.game_tree, (spec, depth, limits.max_step_nodes), _json
    if operation == "complexity":
        c = read_complexity_request(data)
        return _jobs.complexity, (c["branching"], c["depths"], c["seeds"], c["seed"]), _svg
    if operation == "select":
        a = read_select_request(data)
        return _jobs.select, (a["numbers"], a["k"], a["method"], a["seed"], a["width"]), _json
    if operation == "lp":
        program = read_lp_request(data)
        return _jobs.linear_program, (program["text"], program["width"]), _json
    if operation == "render":
        fmt = str(data.get("format", "svg")).lower()
        if fmt not in MEDIA_TYPES:
            raise RequestError(f"format must be one of {', '.join(MEDIA_TYPES)}, not {fmt!r}"[:300])
        req = read_tree_request(data, max_text=limits.max_body)
        before = data.get("before") is True
        name = f"tree{'-before' if before else ''}.{fmt}"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}

        def download(body: bytes) -> Answer:
            return Answer(200, MEDIA_TYPES[fmt], body, headers)

        return _jobs.render, (req, limits.max_step_nodes, fmt, before), download
    if operation == "mcts-tree":
        mcts = read_mcts_tree_request(
            data, max_text=limits.max_body, max_iterations=limits.max_mcts_iterations
        )
        return _jobs.mcts_tree, (mcts, limits.max_step_nodes, limits.max_mcts_walk), _json
    req = read_tree_request(data, max_text=limits.max_body)
    if operation == "search":
        return _jobs.search, (req, limits.max_nodes), _json
    if operation == "compare":
        return _jobs.compare, (req, limits.max_step_nodes), _json
    if operation == "tree":
        return _jobs.tree, (req, limits.max_step_nodes), _json
    if operation == "check":
        if "answer" not in data:
            raise RequestError("the request needs an 'answer' to check")
        return _jobs.check, (req, data["answer"], limits.max_nodes), _json
    raise RequestError(f"there is no operation {operation!r} (one of {', '.join(OPERATIONS)})")


def answer(operation: str, data: Mapping[str, Any], limits: Limits) -> Answer:
    """``operation`` run here, on ``data``: the bytes the server sends for the same
    request, a bad request's 400 included (no worker process, no time limit: the
    caller bounds the time)."""
    try:
        job, args, finish = prepare(operation, data, limits)
        return finish(job(*args))
    except PliesError as exc:
        return error_answer(exc)


def answer_request(operation: str, body: bytes, query: str, limits: Limits) -> Answer:
    """A request as it came, run here: ``body`` (the bytes POSTed) for the JSON
    operations, ``query`` (the URL's query string) for :data:`QUERY_OPERATIONS`. The
    static site's worker calls this; the bytes are those the server sends (413 for a
    body over the limit)."""
    if operation not in OPERATIONS:
        return error_answer(f"there is no operation {operation!r} here", 404)
    try:
        if operation in QUERY_OPERATIONS:
            data: Mapping[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
        else:
            data = read_body(body, limits.max_body)
    except BodyTooLarge as exc:
        return error_answer(exc, 413)
    except PliesError as exc:
        return error_answer(exc)
    return answer(operation, data, limits)
