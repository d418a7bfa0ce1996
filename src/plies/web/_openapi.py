"""The web lab's API, described once: an OpenAPI 3.1 document
(``GET /api/openapi.json``) and the reference page made from it (``GET /api``).

Every endpoint is listed with its request fields (the names of ``plies tree``'s
options), its reply and its errors; the tests check the document with an OpenAPI
validator and every endpoint of the app against it.
"""

from __future__ import annotations

import functools
from html import escape
from typing import Any

from plies import __version__
from plies.trees import ALGORITHMS, NOTATIONS, ORDERS
from plies.web._pages import navigation

__all__ = ["openapi_document", "reference_page"]

_REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF + name}


_NUMBER = {
    "description": 'A number, or "inf"/"-inf" as text.',
    "oneOf": [{"type": "number"}, {"type": "string"}],
}
_PAIR = {
    "description": 'Two numbers "LOW,HIGH", as text or as a list of two.',
    "oneOf": [
        {"type": "string"},
        {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2},
    ],
}

_TREE_FIELDS: dict[str, Any] = {
    "tree": {
        "type": "string",
        "description": "The tree as text: brackets, labelled, JSON, flat values (with "
        "branching) or a CS188 test file, as plies tree reads it.",
    },
    "notation": {"enum": list(NOTATIONS), "description": "How to read the tree (auto)."},
    "algorithm": {
        "enum": list(ALGORITHMS),
        "description": "The search (alpha-beta; expectiminimax for chance trees).",
    },
    "order": {"enum": list(ORDERS), "description": "The order children are searched in."},
    "seed": {"type": "integer", "description": "The seed of order random."},
    "strict": {
        "type": "boolean",
        "description": "Prune only when a value is strictly beyond the bound (CS188).",
    },
    "fail_hard": {"type": "boolean", "description": "Fail-hard rather than fail-soft."},
    "root": {"enum": ["max", "min"], "description": "Who moves at the root."},
    "depth_limit": {"type": "integer", "minimum": 0, "description": "Search this deep only."},
    "window": {**_PAIR, "description": 'The root window "ALPHA,BETA".'},
    "bounds": {**_PAIR, "description": 'Known leaf bounds "LOW,HIGH" (Star1).'},
    "branching": {"type": "integer", "minimum": 1, "description": "Of flat notation."},
    "star1": {"type": "boolean", "description": "Star1 pruning of chance nodes (true)."},
}

_WIDTH = {
    "type": "integer",
    "minimum": 240,
    "maximum": 1200,
    "description": "The drawings' width in pixels (640; the page asks 560, 420 on a phone).",
}

_ROOM_FIELDS: dict[str, Any] = {
    "game": {
        "type": "string",
        "description": "The game, NAME[:key=value,...], e.g. connect4:width=6,height=5.",
    },
    "position": {
        "type": "string",
        "description": "The start in the game's own notation (empty: the usual start).",
    },
    "moves": {
        "type": "array",
        "items": {"type": "string"},
        "description": "The moves played since, as text.",
    },
    "names": {
        "type": "array",
        "items": {"type": "string", "maxLength": 60},
        "minItems": 2,
        "maxItems": 2,
        "description": "The players' names, for the export's header.",
    },
}

_STRENGTH: dict[str, Any] = {
    "depth": {"type": "integer", "minimum": 1, "maximum": 64, "description": "Plies deep."},
    "seconds": {"type": "number", "exclusiveMinimum": 0, "description": "Time to think."},
    "algorithm": {
        "type": "string",
        "description": "The engine's search: pvs (the default), negamax, mtdf, alphabeta, "
        "minimax, expectiminimax, or mcts (Monte-Carlo tree search: seconds and "
        "iterations, no depth).",
    },
    "iterations": {
        "type": "integer",
        "minimum": 1,
        "description": "mcts only: Monte-Carlo iterations at most (within the seconds).",
    },
}

_MCTS_FIELDS: dict[str, Any] = {
    "tree": _TREE_FIELDS["tree"],
    "notation": _TREE_FIELDS["notation"],
    "root": _TREE_FIELDS["root"],
    "branching": _TREE_FIELDS["branching"],
    "algorithm": {"enum": ["mcts"], "description": "mcts, or left out."},
    "iterations": {
        "type": "integer",
        "minimum": 1,
        "description": "Iterations to run (1000; the server's limit caps them, and their "
        "number times the tree's height).",
    },
    "seed": {"type": "integer", "description": "The seed of the playouts (0)."},
    "exploration": {
        "type": "number",
        "minimum": 0,
        "description": "UCB's exploration constant c (sqrt(2)).",
    },
}


def _object(fields: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": fields}
    if required:
        schema["required"] = required
    return schema


def _schemas() -> dict[str, Any]:
    any_object = {"type": "object", "additionalProperties": True}
    return {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {"type": "string", "description": "What was wrong, in one line."},
                "line": {"type": "integer", "description": "Of a parse error."},
                "column": {"type": "integer", "description": "Of a parse error."},
            },
        },
        "TreeRequest": _object(_TREE_FIELDS, ["tree"]),
        "RenderRequest": _object(
            {
                **_TREE_FIELDS,
                "format": {
                    "enum": ["svg", "png", "tex", "dot", "mmd", "html", "md", "csv"],
                    "description": "A drawing format, or the trace table (md, csv).",
                },
                "before": {"type": "boolean", "description": "The tree before the search."},
            },
            ["tree"],
        ),
        "CheckRequest": _object({**_TREE_FIELDS, "answer": _ref("Answer")}, ["tree", "answer"]),
        "Answer": {
            "type": "object",
            "description": "A student's answer; the teachers' guide (docs/teachers.md) says "
            "what is graded and how.",
            "properties": {
                "value": {**_NUMBER, "description": "The root's value."},
                "evaluated": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "Leaf numbers (0-based, left to right) evaluated.",
                },
                "pruned": {
                    "type": "array",
                    "items": {
                        "oneOf": [
                            {"type": "string"},
                            {"type": "array", "items": {"type": "integer", "minimum": 0}},
                        ]
                    },
                    "description": 'Paths of the roots of pruned subtrees: "1.0" or [1, 0] '
                    "(child indices from 0, as /api/search's node paths).",
                },
                "values": {
                    "type": "object",
                    "additionalProperties": _NUMBER,
                    "description": 'Backed-up values by node path: "1.0" or "[1, 0]".',
                },
                "alpha": {"type": "object", "additionalProperties": _NUMBER},
                "beta": {"type": "object", "additionalProperties": _NUMBER},
                "grade": {
                    "type": "array",
                    "items": {"enum": ["value", "values", "alpha", "beta", "leaves"]},
                    "description": "The parts to grade (default: the root's value and "
                    "every part given), each in full.",
                },
            },
            "additionalProperties": False,
        },
        "SearchDocument": {
            "type": "object",
            "description": "What plies tree --json prints: value, bound, principal "
            "variation (path, path_labels, path_names, path_moves), leaves evaluated, "
            "nodes visited, cut-offs, options and every node's window and status.",
            "required": ["value", "path", "leaf_count", "evaluated", "nodes", "notes"],
            "properties": {
                "value": _NUMBER,
                "bound": {"enum": ["exact", "lower", "upper"]},
                "path": {"type": "array", "items": {"type": "integer"}},
                "leaf_count": {"type": "integer"},
                "evaluated": {"type": "array", "items": {"type": "integer"}},
                "evaluated_count": {"type": "integer"},
                "nodes_visited": {"type": "integer"},
                "cutoffs": {"type": "integer"},
                "nodes": {"type": "array", "items": any_object},
                "notes": {"type": "array", "items": {"type": "string"}},
            },
            "additionalProperties": True,
        },
        "CompareDocument": {
            "type": "object",
            "required": ["leaf_count", "rows"],
            "properties": {
                "leaf_count": {"type": "integer"},
                "node_count": {"type": "integer"},
                "knuth_moore_minimum": {"type": ["integer", "null"]},
                "rows": {"type": "array", "items": any_object},
            },
            "additionalProperties": True,
        },
        "CheckResult": {
            "type": "object",
            "required": ["correct", "score", "right", "checked", "feedback"],
            "properties": {
                "correct": {"type": "boolean"},
                "graded": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "The parts graded.",
                },
                "score": {"type": "number", "minimum": 0, "maximum": 1},
                "right": {"type": "integer"},
                "checked": {"type": "integer"},
                "feedback": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "path": {"type": "array", "items": {"type": "integer"}},
                            "message": {"type": "string"},
                        },
                    },
                },
            },
            "additionalProperties": True,
        },
        "TreeDocument": {
            "type": "object",
            "description": "The tree alone: plies' SVG drawing (node i is the group #n{i}), "
            "the tree as text and JSON, and every node's path, name, kind and leaf number.",
            "required": ["svg", "text", "nodes"],
            "properties": {
                "svg": {"type": "string"},
                "text": {"type": "string"},
                "json": any_object,
                "leaf_count": {"type": "integer"},
                "nodes": {"type": "array", "items": any_object},
            },
            "additionalProperties": True,
        },
        "SelectRequest": _object(
            {
                "numbers": {
                    "type": "string",
                    "description": "The numbers, separated by spaces, commas or semicolons "
                    "(whole, decimal or fractions like 1/3); at most 2,000. Or random.",
                },
                "random": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 2000,
                    "description": "Draw this many numbers (0 to 99) with seed instead.",
                },
                "k": {"type": "integer", "minimum": 1, "description": "Which smallest (median)."},
                "method": {"enum": ["medians", "random"], "description": "The pivot (medians)."},
                "seed": {"type": "integer", "minimum": 0, "description": "Of random (0)."},
                "width": _WIDTH,
            }
        ),
        "LPRequest": _object(
            {
                "program": {
                    "type": "string",
                    "description": "The LP file format, as plies lp reads it: max|min p x + "
                    "q y, then one constraint a line (a x + b y <= c or >=); at most 400.",
                },
                "random": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 400,
                    "description": "Draw this many constraints with seed instead.",
                },
                "seed": {"type": "integer", "minimum": 0, "description": "Of random (0)."},
                "width": _WIDTH,
            }
        ),
        "MctsTreeRequest": _object(_MCTS_FIELDS, ["tree"]),
        "MctsDocument": {
            "type": "object",
            "description": "What plies tree --algorithm mcts --json prints: the root moves "
            "(visits, mean value, UCB, minimax value), the most visited move beside "
            "minimax's, every node, and the first iterations as steps (selection with "
            "its UCB scores, expansion, simulation, backup, narration); with the tree drawn "
            "(svg, node i the group #n{i}) and as text.",
            "required": ["children", "best", "minimax_best", "agrees", "nodes", "steps", "svg"],
            "properties": {
                "iterations": {"type": "integer"},
                "seed": {"type": "integer"},
                "c": {"type": "number"},
                "children": {"type": "array", "items": any_object},
                "best": {"type": "string"},
                "minimax_best": {"type": "array", "items": {"type": "string"}},
                "minimax_value": _NUMBER,
                "agrees": {"type": "boolean"},
                "convergence": {"type": "string"},
                "nodes": {"type": "array", "items": any_object},
                "steps_shown": {"type": "integer"},
                "steps": {"type": "array", "items": any_object},
                "svg": {"type": "string"},
                "tree": {"type": "string"},
            },
            "additionalProperties": True,
        },
        "PruneRun": {
            "type": "object",
            "description": "Every round a step (its title, narration lines and SVG drawing), "
            "then the answer's step; the measured a of T(n) = T(a n) + O(n) (null when no "
            "round was followed by another) and the record plies select/lp --json prints.",
            "required": ["steps", "summary", "a", "recurrence", "result"],
            "properties": {
                "steps": {
                    "type": "array",
                    "items": _object(
                        {
                            "title": {"type": "string"},
                            "lines": {"type": "array", "items": {"type": "string"}},
                            "svg": {"type": "string"},
                        },
                        ["title", "lines", "svg"],
                    ),
                },
                "summary": {"type": "string"},
                "a": {"type": ["number", "null"]},
                "a_mean": {"type": ["number", "null"]},
                "recurrence": {"type": "string"},
                "result": any_object,
                "numbers": {"type": "string", "description": "Of a selection: its input."},
                "program": {"type": "string", "description": "Of a program: its text."},
            },
        },
        "RoomRequest": _object(_ROOM_FIELDS, ["game"]),
        "MoveRequest": _object(
            {**_ROOM_FIELDS, "move": {"type": "string", "description": "The move, as text."}},
            ["game", "move"],
        ),
        "UndoRequest": _object(
            {**_ROOM_FIELDS, "count": {"type": "integer", "minimum": 1}}, ["game"]
        ),
        "HintRequest": _object({**_ROOM_FIELDS, **_STRENGTH}, ["game"]),
        "ThinkRequest": _object(
            {
                **_ROOM_FIELDS,
                **_STRENGTH,
                "id": {"type": "string", "minLength": 1, "maxLength": 64},
                "play": {"type": "boolean", "description": "Play the move found."},
            },
            ["game", "id"],
        ),
        "StopRequest": _object({"id": {"type": "string", "minLength": 1, "maxLength": 64}}, ["id"]),
        "RoomState": {
            "type": "object",
            "description": "The board, legal moves, whose turn, the result, the position "
            "in the game's notation and the game exported (see plies.lab.room_state).",
            "required": ["game", "position", "moves", "legal", "terminal"],
            "properties": {
                "game": {"type": "string"},
                "position": {"type": "string"},
                "moves": {"type": "array", "items": {"type": "string"}},
                "legal": {"type": "array", "items": any_object},
                "terminal": {"type": "boolean"},
            },
            "additionalProperties": True,
        },
    }


def _errors(*statuses: int) -> dict[str, Any]:
    why = {
        400: "A bad request: what was wrong, in one line.",
        413: "The body is larger than the server's limit.",
        429: "The server is too busy for this request now: try again in a moment.",
    }
    return {
        str(status): {
            "description": why[status],
            "content": {"application/json": {"schema": _ref("Error")}},
        }
        for status in statuses
    }


def _json(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": _ref(schema)}},
    }


def _post(summary: str, request: str, reply: dict[str, Any]) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {"200": reply, **_errors(400, 413, 429)},
        }
    }


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "schema": schema, "description": description}


def _paths() -> dict[str, Any]:
    binary = {"type": "string", "contentMediaType": "application/octet-stream"}
    room = _json("RoomState", "The room's state after the request.")
    return {
        "/api/search": _post(
            "Search a tree: what plies tree --json prints.",
            "TreeRequest",
            _json("SearchDocument", "The search."),
        ),
        "/api/render": _post(
            "The search drawn (svg, png, tex, dot, mmd, html) or its trace table (md, csv), "
            "as a download.",
            "RenderRequest",
            {
                "description": "The file, with a Content-Disposition naming it.",
                "content": {
                    media: {"schema": binary}
                    for media in (
                        "image/svg+xml",
                        "image/png",
                        "text/html",
                        "text/plain",
                        "text/markdown",
                        "text/csv",
                        "application/x-tex",
                        "text/vnd.graphviz",
                    )
                },
            },
        ),
        "/api/compare": _post(
            "Every algorithm x ordering x tie rule on the tree.",
            "TreeRequest",
            _json("CompareDocument", "One row per search."),
        ),
        "/api/check": _post(
            "A student's answer checked against the search, with feedback per node.",
            "CheckRequest",
            _json("CheckResult", "The verdict."),
        ),
        "/api/tree": _post(
            "The tree alone (drawing, text, nodes), to answer or edit on.",
            "TreeRequest",
            _json("TreeDocument", "The tree."),
        ),
        "/api/game-tree": {
            "get": {
                "summary": "A built-in game's position as tree text.",
                "parameters": [
                    _query(
                        "game",
                        {"type": "string"},
                        "GAME[:key=value,...][:POSITION], e.g. tictactoe:5 1 9.",
                    ),
                    _query("depth", {"type": "integer", "minimum": 0, "maximum": 12}, "Plies (2)."),
                ],
                "responses": {
                    "200": {
                        "description": "The tree as text.",
                        "content": {
                            "application/json": {
                                "schema": _object(
                                    {
                                        "tree": {"type": "string"},
                                        "game": {"type": "string"},
                                        "depth": {"type": "integer"},
                                    }
                                )
                            }
                        },
                    },
                    **_errors(400, 429),
                },
            }
        },
        "/api/exercise": {
            "get": {
                "summary": "A practice tree from a seed and a shape (the same seed and shape "
                "give the same tree).",
                "parameters": [
                    _query("branching", {"type": "integer", "minimum": 1}, "Children (2)."),
                    _query("depth", {"type": "integer", "minimum": 0}, "Levels (3)."),
                    _query("seed", {"type": "integer", "minimum": 0}, "A fresh one if none."),
                    _query("values", {"type": "string"}, 'Leaf values "LOW,HIGH" (-9,9).'),
                    _query("ragged", {"type": "boolean"}, "Subtrees of different depths."),
                    _query("chance", {"type": "boolean"}, "Chance nodes too."),
                    _query("root", {"enum": ["max", "min"]}, "Who moves at the root."),
                    _query(
                        "cutoffs",
                        {"type": "integer", "minimum": 0},
                        "At least this many cut-offs (1; 0 with chance nodes).",
                    ),
                    _query("deep", {"type": "boolean"}, "A deep cut-off (depth 4 or more)."),
                    _query("ties", {"type": "boolean"}, "A cut-off only the tie rule decides."),
                    _query("strict", {"type": "boolean"}, "The tie rule graded by (CS188)."),
                ],
                "responses": {
                    "200": {
                        "description": "The tree as text and the shape it was made with.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["tree", "seed"],
                                    "additionalProperties": True,
                                }
                            }
                        },
                    },
                    **_errors(400, 429),
                },
            }
        },
        "/api/select": _post(
            "The k-th smallest by prune-and-search (median of medians or a random "
            "pivot), every round narrated and drawn.",
            "SelectRequest",
            _json("PruneRun", "The rounds as steps, the answer and the measured a."),
        ),
        "/api/lp": _post(
            "A two-variable linear program solved by Megiddo's prune-and-search, every "
            "round narrated and drawn.",
            "LPRequest",
            _json("PruneRun", "The rounds as steps, the optimum and the measured a."),
        ),
        "/api/mcts-tree": _post(
            "Monte-Carlo tree search (UCT) on an explicit tree, seeded, every iteration "
            "recorded: selection, expansion, simulation and backup.",
            "MctsTreeRequest",
            _json("MctsDocument", "The run: root moves, convergence, nodes and steps."),
        ),
        "/api/complexity": {
            "get": {
                "summary": "The complexity chart: leaves and nodes of minimax and alpha-beta "
                "by depth under four orderings, beside b^d and the Knuth-Moore minimum, as "
                "plies complexity draws it (its caps apply).",
                "parameters": [
                    _query("branching", {"type": "integer", "minimum": 2}, "b (3)."),
                    _query("depths", {"type": "string"}, 'The depths "FIRST-LAST" (1-6).'),
                    _query("seeds", {"type": "integer", "minimum": 1}, "Trees a depth (10)."),
                    _query("seed", {"type": "integer", "minimum": 0}, "The first seed (0)."),
                ],
                "responses": {
                    "200": {
                        "description": "The chart.",
                        "content": {"image/svg+xml": {"schema": {"type": "string"}}},
                    },
                    **_errors(400, 429),
                },
            }
        },
        "/api/play/state": _post("A game room's state.", "RoomRequest", room),
        "/api/play/move": _post("Play a move.", "MoveRequest", room),
        "/api/play/undo": _post("Take moves back.", "UndoRequest", room),
        "/api/play/roll": _post("Roll a chance event (Pig's die).", "RoomRequest", room),
        "/api/play/hint": _post(
            "The engine's choice, not played.",
            "HintRequest",
            {
                "description": "The move (best) and the last depth's info.",
                "content": {
                    "application/json": {
                        "schema": _object({"best": {"type": "object"}, "info": {}})
                    }
                },
            },
        ),
        "/api/play/think": _post(
            "The engine's search as Server-Sent Events: info per depth, then best (with "
            "the new state when play is true) or error.",
            "ThinkRequest",
            {
                "description": "An event stream.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
        ),
        "/api/play/stop": _post(
            "Stop a streamed search by its id.",
            "StopRequest",
            {
                "description": "Whether a search of that id was running.",
                "content": {
                    "application/json": {
                        "schema": _object({"stopped": {"type": "boolean"}}, ["stopped"])
                    }
                },
            },
        ),
    }


@functools.cache
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "plies web lab API",
            "version": __version__,
            "description": "Search game trees, check answers, draw searches and play the "
            "built-in games. Every error is JSON {error: one line}; sizes and times are "
            "bounded by the server's limits (plies serve --help).",
        },
        "paths": _paths(),
        "components": {"schemas": _schemas()},
    }


def openapi_document() -> dict[str, Any]:
    """The API as an OpenAPI 3.1 document (a fresh copy: callers may change it)."""
    import copy

    return copy.deepcopy(_document())


def _type_text(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"])
    if "oneOf" in schema:
        return " or ".join(_type_text(s) for s in schema["oneOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type_text(schema.get('items', {}))}"
    return kind if isinstance(kind, str) else " or ".join(kind)


def _fields_table(schema: dict[str, Any]) -> str:
    required = set(schema.get("required", ()))
    rows = "".join(
        f"<tr><td><code>{escape(name)}</code>{' (required)' if name in required else ''}</td>"
        f"<td>{escape(_type_text(field))}</td><td>{escape(field.get('description', ''))}</td></tr>"
        for name, field in schema.get("properties", {}).items()
    )
    return (
        "<table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def reference_page() -> str:
    """The API's reference as an HTML page, made from the OpenAPI document."""
    doc = _document()
    schemas = doc["components"]["schemas"]
    parts = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            section = [
                f'<section id="{escape(method + path)}"><h2><code>{method.upper()} '
                f"{escape(path)}</code></h2><p>{escape(operation['summary'])}</p>"
            ]
            body = operation.get("requestBody")
            if body:
                name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
                section.append(f"<h3>Request: {escape(name)}</h3>")
                section.append(_fields_table(schemas[name]))
            params = operation.get("parameters")
            if params:
                section.append("<h3>Query</h3>")
                section.append(
                    _fields_table(
                        {
                            "properties": {
                                p["name"]: {**p["schema"], "description": p["description"]}
                                for p in params
                            }
                        }
                    )
                )
            replies = "".join(
                f"<li><strong>{escape(status)}</strong>: {escape(reply['description'])}</li>"
                for status, reply in operation["responses"].items()
            )
            section.append(f"<h3>Replies</h3><ul>{replies}</ul></section>")
            parts.append("".join(section))
    nav = navigation("api")
    index = "".join(
        f'<li><a href="#{escape(m + p)}"><code>{m.upper()} {escape(p)}</code></a></li>'
        for p, ops in doc["paths"].items()
        for m in ops
    )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plies: the web lab's API</title>
<link rel="stylesheet" href="/static/lab.css">
</head>
<body>
<header>
  <h1>plies <span>the web lab's API</span></h1>
  <nav>{nav}</nav>
</header>
<main id="api">
<div>
<p>{escape(doc["info"]["description"])} The same as an OpenAPI 3.1 document:
<a href="/api/openapi.json">/api/openapi.json</a>.</p>
<ul>{index}</ul>
{"".join(parts)}
</div>
</main>
<footer>plies {escape(__version__)}</footer>
</body>
</html>
"""
