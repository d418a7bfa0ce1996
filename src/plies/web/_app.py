"""The web lab's ASGI app (Starlette): the pages, their static files and the JSON API.

Routes:

* ``GET /`` the tree lab page; ``GET /static/...`` its script and style (shipped in
  the package, no network needed);
* ``POST /api/search``: the document ``plies tree --json`` prints for the same tree
  and options;
* ``POST /api/render``: the same search drawn in a ``--draw`` format (``svg``,
  ``png``, ``tex``, ``dot``, ``mmd``, ``html``) or as the trace table (``md``,
  ``csv``), as a download;
* ``POST /api/compare``: every algorithm x ordering x tie rule, as
  ``plies tree --compare --json``;
* ``GET /api/exercise``: a random practice tree from a seed and a shape.

Every bad request is status 400 (413 for a body over the limit) with
``{"error": "one line"}``; a parse error adds its ``line`` and ``column``. Searches run
in worker threads, so a slow one does not hold up the others, and every size is
bounded by :class:`WebSettings`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies import lab
from plies.errors import LimitError, ParseError, PliesError
from plies.trees import Tree, TreeResult, format_tree, random_tree
from plies.web._pages import lab_page
from plies.web._request import RequestError, TreeRequest, exercise_shape, read_tree_request

__all__ = ["WebSettings", "create_app"]

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


@dataclass(frozen=True, kw_only=True)
class WebSettings:
    """Limits that keep one server usable by a whole class.

    ``max_body``: bytes of a request body (413 above it). ``max_nodes``: nodes of a
    tree the API searches. ``max_step_nodes``: nodes of a tree drawn or stepped
    through (drawings and step data grow with the tree).
    """

    max_body: int = 1_000_000
    max_nodes: int = 200_000
    max_step_nodes: int = 2_000


class _BodyTooLarge(PliesError):
    pass


def _error(message: str, status: int = 400, **extra: Any) -> JSONResponse:
    line = " ".join(str(message).split())  # one line, whatever the message held
    return JSONResponse({"error": line, **extra}, status_code=status)


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _BodyTooLarge(f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise _BodyTooLarge(f"the request body is larger than {limit} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise RequestError("the request body is not a JSON object") from None
    if not isinstance(data, dict):
        raise RequestError("the request body is not a JSON object")
    return data


def _read_tree(req: TreeRequest, max_nodes: int) -> Tree:
    tree = lab.read_tree(
        req.text, notation=req.notation, root=req.root, branching=req.branching, bounds=req.bounds
    )
    if len(tree) > max_nodes:
        raise LimitError(
            f"the tree has {len(tree)} nodes, more than this server's limit of {max_nodes} "
            "(plies serve --max-nodes); the command line has no such limit"
        )
    return tree


def _search(req: TreeRequest, max_nodes: int, trace: bool) -> TreeResult:
    return lab.run(_read_tree(req, max_nodes), req.options, trace=trace)


def _render(req: TreeRequest, settings: WebSettings, fmt: str, before: bool) -> bytes:
    from plies import draw

    result = _search(req, settings.max_step_nodes, trace=True)
    if fmt == "md":
        return draw.trace_markdown(result).encode("utf-8")
    if fmt == "csv":
        return draw.trace_csv(result).encode("utf-8")
    return draw.render(result.tree if before else result, fmt)


def create_app(settings: WebSettings | None = None) -> Starlette:
    """The web lab as an ASGI application (serve it with uvicorn: ``plies serve``)."""
    settings = settings or WebSettings()

    async def guarded(request: Request, work: Any) -> Response:
        try:
            return await work()  # type: ignore[no-any-return]
        except _BodyTooLarge as exc:
            return _error(str(exc), 413)
        except ParseError as exc:
            return _error(str(exc), line=exc.line, column=exc.column)
        except PliesError as exc:
            return _error(str(exc))

    async def page(request: Request) -> Response:
        return HTMLResponse(lab_page())

    async def api_search(request: Request) -> Response:
        async def work() -> Response:
            req = read_tree_request(
                await _json_body(request, settings.max_body), max_text=settings.max_body
            )
            result = await run_in_threadpool(_search, req, settings.max_nodes, False)
            return JSONResponse(lab.search_document(result, req.options))

        return await guarded(request, work)

    async def api_compare(request: Request) -> Response:
        async def work() -> Response:
            data = await _json_body(request, settings.max_body)
            req = read_tree_request(data, max_text=settings.max_body)
            tree = _read_tree(req, settings.max_step_nodes)
            return JSONResponse(await run_in_threadpool(lab.compare_document, tree, req.options))

        return await guarded(request, work)

    async def api_render(request: Request) -> Response:
        async def work() -> Response:
            data = await _json_body(request, settings.max_body)
            fmt = str(data.get("format", "svg")).lower()
            if fmt not in MEDIA_TYPES:
                raise RequestError(
                    f"format must be one of {', '.join(MEDIA_TYPES)}, not {fmt!r}"[:300]
                )
            req = read_tree_request(data, max_text=settings.max_body)
            before = data.get("before") is True
            body = await run_in_threadpool(_render, req, settings, fmt, before)
            name = f"tree{'-before' if before else ''}.{fmt}"
            return Response(
                body,
                media_type=MEDIA_TYPES[fmt],
                headers={"Content-Disposition": f'attachment; filename="{name}"'},
            )

        return await guarded(request, work)

    async def api_exercise(request: Request) -> Response:
        async def work() -> Response:
            shape = exercise_shape(request.query_params)
            tree = random_tree(**shape)
            return JSONResponse({"tree": format_tree(tree), **shape})

        return await guarded(request, work)

    static = resources.files("plies.web") / "static"
    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/search", api_search, methods=["POST"]),
            Route("/api/render", api_render, methods=["POST"]),
            Route("/api/compare", api_compare, methods=["POST"]),
            Route("/api/exercise", api_exercise),
            Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
        ]
    )
