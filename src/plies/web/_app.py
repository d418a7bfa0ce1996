"""The web lab's ASGI app (Starlette): the pages, their static files and the JSON API.

Routes:

* ``GET /`` the tree lab page, ``GET /practice`` the practice room; ``GET /static/...``
  their scripts and style (shipped in the package, no network needed);
* ``POST /api/search``: the document ``plies tree --json`` prints for the same tree
  and options;
* ``POST /api/render``: the same search drawn in a ``--draw`` format (``svg``,
  ``png``, ``tex``, ``dot``, ``mmd``, ``html``) or as the trace table (``md``,
  ``csv``), as a download;
* ``POST /api/compare``: every algorithm x ordering x tie rule, as
  ``plies tree --compare --json``;
* ``POST /api/check``: a student's ``answer`` checked against the search, with
  feedback per node (:func:`plies.lab.check_answer`);
* ``POST /api/tree``: the tree alone (drawing and nodes), to answer on;
* ``GET /api/game-tree``: a built-in game's position as tree text (``game``, ``depth``);
* ``GET /api/exercise``: a random practice tree from a seed and a shape;
* ``GET /play`` the game room, and its ``POST /api/play/...`` endpoints (see
  :mod:`plies.web._play`): a built-in game against the engine or another person.

Every bad request is status 400 (413 for a body over the limit) with
``{"error": "one line"}``; a parse error adds its ``line`` and ``column``. Searches run
in worker threads, so a slow one does not hold up the others, and every size is
bounded by :class:`WebSettings`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies import lab
from plies.errors import LimitError, ParseError, PliesError
from plies.games import OPENSPIEL
from plies.trees import Tree, TreeResult, format_tree, tree_to_json
from plies.web._pages import lab_page, play_page, practice_page
from plies.web._play import play_routes
from plies.web._request import (
    RequestError,
    TreeRequest,
    exercise_shape,
    read_depth,
    read_tree_request,
)

__all__ = ["WebSettings", "create_app"]

T = TypeVar("T")

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
    through (drawings and step data grow with the tree). ``max_seconds``: the time a
    request may take (a game-room engine search stops at 80% of it).
    ``max_searches``: game-room searches streamed at once.
    """

    max_body: int = 1_000_000
    max_nodes: int = 200_000
    max_step_nodes: int = 2_000
    max_seconds: float = 10.0
    max_searches: int = 4


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


def _tree_document(tree: Tree) -> dict[str, Any]:
    """A tree without its search, for answering or editing on it: plies' own SVG
    drawing (node ``i`` is the group ``#n{i}``), the tree as text (brackets where they
    can say everything, else JSON) and as a JSON object, and every node's path, name,
    kind and leaf number."""
    from plies.draw import repr_svg

    paths = tree.paths() or [tuple(tree.path(i)) for i in range(len(tree))]
    return {
        "svg": repr_svg(tree),
        "text": format_tree(tree),
        "json": tree_to_json(tree),
        "leaf_count": tree.leaf_count,
        "nodes": [
            {
                "id": i,
                "path": list(paths[i]),
                "name": lab.node_name(tree, i),
                "kind": tree.kind[i],
                "leaf": tree.leaf_index[i] if tree.kind[i] == "leaf" else None,
            }
            for i in range(len(tree))
        ],
    }


def _guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[..., Any]:
    """An endpoint that answers plies' errors with a one-line 400 (413 for a body too
    large; a parse error adds its line and column)."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except _BodyTooLarge as exc:
            return _error(str(exc), 413)
        except ParseError as exc:
            return _error(str(exc), line=exc.line, column=exc.column)
        except PliesError as exc:
            return _error(str(exc))

    return endpoint


def create_app(settings: WebSettings | None = None) -> Starlette:
    """The web lab as an ASGI application (serve it with uvicorn: ``plies serve``)."""
    settings = settings or WebSettings()

    async def run_in_threadpool(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work`` in a worker thread, so a long search holds up no other request;
        past ``max_seconds`` the request is answered with an error and the thread's
        result, when it comes, is dropped."""
        try:
            with anyio.fail_after(settings.max_seconds):
                return await anyio.to_thread.run_sync(
                    functools.partial(work, *args, **kwargs), abandon_on_cancel=True
                )
        except TimeoutError:
            raise LimitError(
                f"the request took longer than {settings.max_seconds:g} s, this server's "
                "limit (plies serve --max-seconds)"
            ) from None

    async def tree_body(request: Request) -> tuple[dict[str, Any], TreeRequest]:
        data = await _json_body(request, settings.max_body)
        return data, read_tree_request(data, max_text=settings.max_body)

    async def page(request: Request) -> Response:
        return HTMLResponse(lab_page())

    async def practice(request: Request) -> Response:
        return HTMLResponse(practice_page())

    async def play(request: Request) -> Response:
        return HTMLResponse(play_page())

    async def read_body(request: Request) -> dict[str, Any]:
        return await _json_body(request, settings.max_body)

    async def api_search(request: Request) -> Response:
        _, req = await tree_body(request)
        result = await run_in_threadpool(_search, req, settings.max_nodes, False)
        return JSONResponse(lab.search_document(result, req.options))

    async def api_compare(request: Request) -> Response:
        _, req = await tree_body(request)
        tree = await run_in_threadpool(_read_tree, req, settings.max_step_nodes)
        return JSONResponse(await run_in_threadpool(lab.compare_document, tree, req.options))

    async def api_tree(request: Request) -> Response:
        _, req = await tree_body(request)
        tree = await run_in_threadpool(_read_tree, req, settings.max_step_nodes)
        return JSONResponse(await run_in_threadpool(_tree_document, tree))

    async def api_check(request: Request) -> Response:
        data, req = await tree_body(request)
        if "answer" not in data:
            raise RequestError("the request needs an 'answer' to check")
        result = await run_in_threadpool(_search, req, settings.max_nodes, False)
        return JSONResponse(lab.check_answer(result, data["answer"]).to_json())

    async def api_render(request: Request) -> Response:
        data = await _json_body(request, settings.max_body)
        fmt = str(data.get("format", "svg")).lower()
        if fmt not in MEDIA_TYPES:
            raise RequestError(f"format must be one of {', '.join(MEDIA_TYPES)}, not {fmt!r}"[:300])
        req = read_tree_request(data, max_text=settings.max_body)
        before = data.get("before") is True
        body = await run_in_threadpool(_render, req, settings, fmt, before)
        name = f"tree{'-before' if before else ''}.{fmt}"
        return Response(
            body,
            media_type=MEDIA_TYPES[fmt],
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def api_game_tree(request: Request) -> Response:
        query = request.query_params
        spec = query.get("game", "")
        if not spec.strip() or len(spec) > 10_000:
            raise RequestError("the request needs a 'game' like tictactoe:5 1 9")
        if spec.strip().partition(":")[0] == OPENSPIEL:
            # OpenSpiel builds a game before anything here can bound its size.
            raise RequestError("the web lab serves the built-in games, not OpenSpiel's")
        depth = read_depth(query)
        tree = await run_in_threadpool(
            lab.read_game_tree, spec, depth=depth, max_nodes=settings.max_step_nodes
        )
        return JSONResponse({"tree": format_tree(tree), "game": spec, "depth": depth})

    async def api_exercise(request: Request) -> Response:
        shape = exercise_shape(request.query_params)
        tree = await run_in_threadpool(lambda: lab.exercise(**shape))
        return JSONResponse({"tree": format_tree(tree), **shape})

    static = resources.files("plies.web") / "static"
    return Starlette(
        routes=[
            Route("/", page),
            Route("/practice", practice),
            Route("/play", play),
            Route("/api/search", _guarded(api_search), methods=["POST"]),
            Route("/api/render", _guarded(api_render), methods=["POST"]),
            Route("/api/compare", _guarded(api_compare), methods=["POST"]),
            Route("/api/check", _guarded(api_check), methods=["POST"]),
            Route("/api/tree", _guarded(api_tree), methods=["POST"]),
            Route("/api/exercise", _guarded(api_exercise)),
            Route("/api/game-tree", _guarded(api_game_tree)),
            *play_routes(
                read_body=read_body,
                guarded=_guarded,
                in_thread=run_in_threadpool,
                max_seconds=settings.max_seconds * 0.8,
                max_searches=settings.max_searches,
                lab_nodes=settings.max_step_nodes,
            ),
            Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
        ]
    )
