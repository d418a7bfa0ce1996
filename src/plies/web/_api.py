"""The tree lab's API operations, apart from any transport: what ``/api/search``,
``/api/compare``, ``/api/tree``, ``/api/check``, ``/api/render`` and
``/api/exercise`` answer, as bytes with a status, a media type and headers.

The Starlette app (:mod:`plies.web._app`) reads a request, runs an operation's job in
a worker process and sends its :class:`Answer`; a page running plies in the browser
(the static site of issue 27) can call :func:`answer` for the same bytes, with no
server, Starlette or NumPy. An operation is split in two, :func:`prepare` (read and
check the request: the job to run and its arguments) and the job's ``finish`` (its
result as an :class:`Answer`), so the server runs only the job in its workers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from plies.errors import PliesError
from plies.web import _jobs
from plies.web._request import RequestError, exercise_shape, read_tree_request

__all__ = [
    "MEDIA_TYPES",
    "OPERATIONS",
    "Answer",
    "Limits",
    "answer",
    "error_answer",
    "json_bytes",
    "prepare",
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
OPERATIONS = ("search", "compare", "tree", "check", "render", "exercise")


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
    """The sizes an operation checks: ``max_body`` (characters of a tree text),
    ``max_nodes`` (a tree searched), ``max_step_nodes`` (a tree drawn or stepped)."""

    max_body: int
    max_nodes: int
    max_step_nodes: int


Prepared = tuple[Callable[..., Any], tuple[Any, ...], Callable[[Any], Answer]]


def prepare(operation: str, data: Mapping[str, Any], limits: Limits) -> Prepared:
    """Read ``operation``'s request ``data`` (a JSON body, or the query of
    ``exercise``): its job, the job's arguments, and the function that makes the
    job's result an :class:`Answer`. A bad request raises
    :class:`~plies.web._request.RequestError` (or another PliesError) before any job
    runs."""
    if operation == "exercise":
        return _jobs.exercise, (exercise_shape(data),), _json
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
