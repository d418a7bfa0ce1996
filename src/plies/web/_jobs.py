"""The web lab's work, as it runs in a worker process (:mod:`plies.web._workers`):
plain data in (requests already read by :mod:`plies.web._request`), plain data out,
every call a thin layer over :mod:`plies.lab`.

Each function bounds what it builds before building it (a tree's nodes, a game
tree's estimated size, a room's texts); what a bound cannot foresee, the worker's
time and memory limits stop.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from plies import lab
from plies.errors import LimitError, PliesError
from plies.trees import Tree, TreeResult, format_tree, tree_to_json
from plies.web._request import MctsTreeRequest, RequestError, TreeRequest

__all__ = [
    "check",
    "compare",
    "complexity",
    "exercise",
    "game_tree",
    "hint",
    "linear_program",
    "mcts_tree",
    "render",
    "room",
    "search",
    "select",
    "think",
    "tree",
    "warm",
]


def read_tree(req: TreeRequest, max_nodes: int) -> Tree:
    """The tree of a request, refused past ``max_nodes`` nodes."""
    tree = lab.read_tree(
        req.text, notation=req.notation, root=req.root, branching=req.branching, bounds=req.bounds
    )
    if len(tree) > max_nodes:
        raise LimitError(
            f"the tree has {len(tree):,} nodes, more than this server's limit of {max_nodes:,} "
            "(the command line, plies tree, has no such limit)"
        )
    return tree


def _run(req: TreeRequest, max_nodes: int, *, trace: bool) -> TreeResult:
    return lab.run(read_tree(req, max_nodes), req.options, trace=trace)


#: The lab page's names of the options a note may say had no effect.
_OPTION_NAMES = {
    "strict": '"prune only when strictly beyond the bound"',
    "fail_hard": '"fail-hard"',
    "order": "the order",
    "seed": "the seed",
    "window": "the root window",
    "bounds": "the leaf bounds",
    "no_star1": "star1 false",
}


def _web_spelling(name: str) -> str:
    return _OPTION_NAMES.get(name, name.replace("_", " "))


def search(req: TreeRequest, max_nodes: int) -> dict[str, Any]:
    """``/api/search``: the document ``plies tree --json`` prints, its notes naming
    the options as the lab page does."""
    result = _run(req, max_nodes, trace=False)
    return lab.search_document(result, req.options, spell=_web_spelling)


def compare(req: TreeRequest, max_nodes: int) -> dict[str, Any]:
    """``/api/compare``: every algorithm x ordering x tie rule."""
    return lab.compare_document(read_tree(req, max_nodes), req.options)


def check(req: TreeRequest, answer: Any, max_nodes: int) -> dict[str, Any]:
    """``/api/check``: ``answer`` checked against the search of the request's tree."""
    return lab.check_answer(_run(req, max_nodes, trace=False), answer).to_json()


def render(req: TreeRequest, max_nodes: int, fmt: str, before: bool) -> bytes:
    """``/api/render``: the search drawn in ``fmt`` (or its trace table, md or csv)."""
    from plies import draw

    result = _run(req, max_nodes, trace=True)
    if fmt == "md":
        return draw.trace_markdown(result).encode("utf-8")
    if fmt == "csv":
        return draw.trace_csv(result).encode("utf-8")
    try:
        return draw.render(result.tree if before else result, fmt)
    except LimitError as exc:  # the lab's own advice, not the command line's
        others = " or ".join(f for f in ("SVG", "HTML") if f.lower() != fmt)
        raise LimitError(exc.fact, advice=f"download it as {others} instead") from None


def tree(req: TreeRequest, max_nodes: int) -> dict[str, Any]:
    """``/api/tree``: a tree without its search, for answering or editing on it:
    plies' own SVG drawing (node ``i`` is the group ``#n{i}``), the tree as text
    (brackets where they can say everything, else JSON) and as a JSON object, and
    every node's path, name, kind and leaf number."""
    from plies.draw import repr_svg

    shape = read_tree(req, max_nodes)
    paths = shape.paths() or [tuple(shape.path(i)) for i in range(len(shape))]
    return {
        "svg": repr_svg(shape),
        "text": format_tree(shape),
        "json": tree_to_json(shape),
        "leaf_count": shape.leaf_count,
        "nodes": [
            {
                "id": i,
                "path": list(paths[i]),
                "name": lab.node_name(shape, i),
                "kind": shape.kind[i],
                "leaf": shape.leaf_index[i] if shape.kind[i] == "leaf" else None,
            }
            for i in range(len(shape))
        ],
    }


def mcts_tree(req: MctsTreeRequest, max_nodes: int, max_walk: int) -> dict[str, Any]:
    """``/api/mcts-tree``: Monte-Carlo tree search on the request's tree, the document
    ``plies tree --algorithm mcts --json`` prints with the tree drawn (``svg``, node
    ``i`` the group ``#n{i}``). Refused past ``max_nodes`` nodes, or when the
    iterations times the tree's height (the nodes one run may walk through) pass
    ``max_walk``."""
    from plies.draw import repr_svg

    shape = read_tree(req.tree, max_nodes)
    walk = req.iterations * max(shape.height, 1)
    if walk > max_walk:
        most = max_walk // max(shape.height, 1)
        raise LimitError(
            f"{req.iterations:,} iterations on a tree of height {shape.height} walk up to "
            f"{walk:,} nodes, more than this server's limit of {max_walk:,}: ask at most "
            f"{most:,} iterations (the command line, plies tree --algorithm mcts, has no "
            "such limit)"
        )
    result = lab.run_mcts_tree(shape, iterations=req.iterations, seed=req.seed, c=req.exploration)
    return {**lab.mcts_document(result), "svg": repr_svg(shape), "tree": format_tree(shape)}


def game_tree(spec: str, depth: int, max_nodes: int) -> dict[str, Any]:
    """``/api/game-tree``: a built-in game's position as tree text."""
    built = lab.read_game_tree(spec, depth=depth, max_nodes=max_nodes)
    return {"tree": format_tree(built), "game": spec, "depth": depth}


def exercise(shape: dict[str, Any]) -> dict[str, Any]:
    """``/api/exercise``: a practice tree from a seed and a shape."""
    return {"tree": format_tree(lab.exercise(**shape)), **shape}


# -- prune-and-search and the complexity chart ---------------------------------------


def _steps(steps: tuple[lab.PruneStep, ...]) -> list[dict[str, Any]]:
    return [{"title": s.title, "lines": list(s.narration), "svg": s.svg} for s in steps]


def _pruned(run: lab.SelectRun | lab.LPRun) -> dict[str, Any]:
    """A prune-and-search run's summary, steps, measured constant and result."""
    return {
        "summary": run.summary(),
        "steps": _steps(run.steps),
        "a": run.measured.largest,
        "a_mean": run.measured.mean,
        "recurrence": run.recurrence,
        "result": run.record(),
    }


def select(numbers: str, k: int, method: str, seed: int, width: int) -> dict[str, Any]:
    """``/api/select``: the ``k``-th smallest of ``numbers``, every round a step."""
    run = lab.select_lab(numbers, k, method=method, seed=seed, width=width)
    return {"numbers": numbers, **_pruned(run)}


def linear_program(text: str, width: int) -> dict[str, Any]:
    """``/api/lp``: the program ``text`` solved by Megiddo's prune-and-search, every
    round a step."""
    run = lab.lp_lab(text, width=width)
    return {"program": text, **_pruned(run)}


def complexity(branching: int, depths: str, seeds: int, seed: int) -> bytes:
    """``/api/complexity``: the complexity chart (SVG) of uniform trees of
    ``branching`` over ``depths``, averaged over ``seeds`` trees a depth."""
    chart = lab.plot_complexity(branching=branching, depths=depths, seeds=seeds, seed=seed)
    return chart.encode("utf-8")


# -- the game room --------------------------------------------------------------------


def _open(data: dict[str, Any]) -> lab.Room:
    return lab.open_room(data.get("game", ""), data.get("position") or "", data.get("moves") or [])


def room(action: str, data: dict[str, Any], lab_nodes: int) -> dict[str, Any]:
    """``/api/play/{state,move,undo,roll}``: the room's state after ``action``."""
    now = _open(data)
    if action == "move":
        now = lab.play_move(now, data["move"])
    elif action == "undo":
        now = lab.undo(now, data.get("count", 1))
    elif action == "roll":
        now = lab.roll(now)
    return lab.room_state(now, lab_nodes=lab_nodes, names=data.get("names"))


def hint(data: dict[str, Any], strength: dict[str, Any]) -> dict[str, Any]:
    """``/api/play/hint``: the engine's choice, not played, and its last depth's info."""
    items = list(lab.think(_open(data), **strength))
    infos = [item for item in items if item["kind"] == "info"]
    return {"best": items[-1], "info": infos[-1] if infos else None}


def think(
    data: dict[str, Any],
    strength: dict[str, Any],
    play: bool,
    lab_nodes: int,
    *,
    stop: threading.Event,
) -> Iterator[dict[str, Any]]:
    """``/api/play/think``: one ``info`` item per completed depth, then ``best`` (with
    the ``state`` after it when ``play``); a refusal after the first item is an
    ``error`` item (the stream has begun)."""
    now = _open(data)
    items = lab.think(now, stop=stop, **strength)  # refuses a bad request before any item
    yield {"kind": "ready"}
    try:
        for item in items:
            if item["kind"] == "best" and play:
                after = lab.play_move(now, item["text"])
                item["state"] = lab.room_state(after, lab_nodes=lab_nodes, names=data.get("names"))
            yield item
    except PliesError as exc:
        yield {"kind": "error", "error": " ".join(str(exc).split())}


# -- warming up -----------------------------------------------------------------------


def warm() -> None:
    """Load what the first requests would load: the renderers, and the room's
    compiled engine on every built-in game that has one (a two-ply search each)."""
    import plies.draw  # noqa: F401  (loaded once, in the fork server)
    from plies.lab import GAMES

    for entry in GAMES:
        try:
            start = lab.open_room(entry.name)
            for _ in lab.think(start, depth=2):
                pass
        except (PliesError, RequestError):
            continue
