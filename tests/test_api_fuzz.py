"""The Python API under misuse: a generated corpus of bad calls, none of which may leak
an exception from inside plies or hang.

Every public function of :mod:`plies.engine`, :mod:`plies.games` (every game's public
methods), :mod:`plies.trees`, :mod:`plies.lab` and :mod:`plies.draw` is called once per
argument and bad value (None, a bool, text, bytes, NaN, infinities, negative and huge
numbers, containers, an object, and states, moves and games of another game), the
other arguments valid. Each call must return or raise a
:class:`~plies.errors.PliesError` (a wrong type: :class:`~plies.errors.ArgumentTypeError`,
a TypeError too): never an AttributeError, a TypeError or a Numba typing error from
inside, never a hang, in bounded memory.

The corpus runs in a child process under a memory cap (``RLIMIT_AS``), each call under
an interval timer; the child names each call before making it, so a hang inside compiled
code (which no signal interrupts) is still named when the parent's timeout ends the
child. Run this file as a script to see every leak:
``python tests/test_api_fuzz.py [--seconds S] [--only PREFIX]`` (``PYTHONPATH`` may
point at another checkout's ``src`` to count the leaks there).
"""

from __future__ import annotations

import importlib
import io
import json
import math
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Seconds one call may take before it counts as a hang.
CALL_SECONDS = 3.0
#: Seconds the whole corpus may take (the child is killed after them).
CORPUS_SECONDS = 240
#: The child's address-space cap (Numba and LLVM reserve more than they use).
MEMORY_CAP = 6 << 30


class _Fresh:
    """An argument made anew for each call (a table, a generator), by ``make()``."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def _value(value: Any) -> Any:
    return value.make() if isinstance(value, _Fresh) else value


class _Unhashable:
    """No game's anything; unhashable, and its repr is long."""

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<unhashable " + "x" * 200 + ">"


#: The bad values every argument gets: (label, value).
BAD: list[tuple[str, Any]] = [
    ("None", None),
    ("True", True),
    ("text", "x"),
    ("empty text", ""),
    ("bytes", b"x"),
    ("float", 0.5),
    ("nan", math.nan),
    ("inf", math.inf),
    ("-inf", -math.inf),
    ("-1", -1),
    ("0", 0),
    ("huge", 10**30),
    ("list", []),
    ("tuple", (1, 2)),
    ("dict", {}),
    ("object", object()),
    ("unhashable", _Unhashable()),
]


@dataclass
class Target:
    """A public callable and valid arguments for it: each argument in ``vary`` is
    replaced in turn by each bad value (and by ``extra[name]``'s)."""

    name: str
    function: Callable[..., Any]
    arguments: dict[str, Any]
    positional: int = 0
    vary: tuple[str, ...] | None = None
    extra: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    #: Turns the return value into something finished (a generator consumed).
    finish: Callable[[Any], Any] | None = None

    def call(self, **replaced: Any) -> Any:
        values = {name: _value(value) for name, value in {**self.arguments, **replaced}.items()}
        names = list(values)
        args = [values[name] for name in names[: self.positional]]
        kwargs = {name: values[name] for name in names[self.positional :]}
        result = self.function(*args, **kwargs)
        return self.finish(result) if self.finish is not None else result


@dataclass
class Case:
    """One misuse: ``target`` with ``argument`` set to the value labelled ``label``."""

    target: Target
    argument: str
    label: str
    value: Any

    @property
    def name(self) -> str:
        return f"{self.target.name}({self.argument}={self.label})"

    def run(self) -> Any:
        return self.target.call(**{self.argument: self.value})


def cases(targets: list[Target]) -> list[Case]:
    """Every target x varied argument x bad value."""
    found = []
    for target in targets:
        for argument in target.vary if target.vary is not None else tuple(target.arguments):
            for label, value in [*BAD, *target.extra.get(argument, [])]:
                found.append(Case(target, argument, label, value))
    return found


# -- the targets ------------------------------------------------------------------------

#: Games whose methods are called, and a position of each a few moves in.
GAME_POSITIONS = {
    "tictactoe": "5 1 9",
    "mnk:m=4,n=3,k=3": "1 6",
    "nim": "3,4,5",
    "connect4": "4453",
    "connect4:width=5,height=4": "33",
    "othello": "f5d6c3",
    "checkers": "11-15 23-19",
    "pig": "roll 4",
    "chess": "e4 e5 Nf3",
}


def _optional(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def games() -> dict[str, tuple[Any, Any]]:
    """``{spec: (game, state)}`` for :data:`GAME_POSITIONS`."""
    from plies.games import parse_game_spec

    found = {}
    for spec, position in GAME_POSITIONS.items():
        if spec == "chess" and _optional("chess") is None:
            continue
        game = parse_game_spec(spec)
        found[spec] = game, game.parse_position(position)
    return found


def _first_move(game: Any, state: Any) -> Any:
    if game.has_chance and game.is_chance(state):
        return game.chance_outcomes(state)[0][0]
    return game.legal_moves(state)[0]


def game_targets(found: dict[str, tuple[Any, Any]]) -> list[Target]:
    """Every public method of every game, with states and moves of the others as extra
    bad values."""
    states = {spec: state for spec, (_, state) in found.items()}
    moves = {spec: _first_move(game, state) for spec, (game, state) in found.items()}
    targets = []
    for spec, (game, state) in found.items():
        other_states = [(f"{other} state", s) for other, s in states.items() if other != spec]
        other_moves = [(f"{other} move", m) for other, m in moves.items() if other != spec]
        move = moves[spec]
        valid: dict[str, Any] = {
            "state": state,
            "move": move,
            "text": game.format_move(state, move),
            "player": 0,
            "moves": list(game.legal_moves(state)) or [move],
            "result": "win",
            "distance": 3,
            "score": 1,
            "stones": 0,
            "mask": 0,
            "start": game.initial_state(),
            "headers": None,
            "board": None,
        }
        extra = {"state": other_states, "start": other_states, "move": other_moves}
        for name in sorted(dir(game)):
            method = getattr(game, name)
            if name.startswith("_") or name == "native" or not callable(method):
                continue
            parameters = _parameters(method)
            if parameters is None or any(p not in valid for p in parameters):
                continue
            arguments = {p: valid[p] for p in parameters}
            if name == "parse_position":
                arguments = {"text": game.format_position(state)}
            elif name == "export_game":
                arguments = {"start": game.initial_state(), "moves": [], "headers": None}
            elif name == "state_of":
                import chess

                arguments = {"board": chess.Board()}
            elif name == "result_of_score":
                arguments = {"state": state, "score": 1}
            vary = tuple(arguments)
            if name == "play_unchecked":  # legal moves only, by contract
                vary = ("state",)
            positional = _positional(method)
            targets.append(Target(f"{spec}.{name}", method, arguments, positional, vary, extra))
    return targets


def _positional(function: Callable[..., Any]) -> int:
    """How many parameters of ``function`` may be given by position."""
    import inspect

    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in kinds for p in inspect.signature(function).parameters.values())


def _parameters(function: Callable[..., Any]) -> list[str] | None:
    import inspect

    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return None


def _list(result: Any) -> Any:
    return list(result)


def engine_targets(found: dict[str, tuple[Any, Any]]) -> list[Target]:
    """:mod:`plies.engine`'s functions on small positions of small games (each solved
    in milliseconds, so a call with no limit ends too), both backends."""
    from plies import engine
    from plies.games import parse_game_spec

    small = {
        "tictactoe": "5 1 9 2",
        "nim": "1,2,2",
        "connect4": "352331443376367466661751415427",
    }
    others = [(f"{spec} state", state) for spec, (_, state) in found.items()]
    games_as_values = [
        ("game class", type(found["connect4"][0])),
        ("game name", "tictactoe"),
        ("nim game", found["nim"][0]),
    ]
    targets = []
    limits = engine.Limits(depth=2)
    for spec, position in small.items():
        game = parse_game_spec(spec)
        state = game.parse_position(position)
        extra = {
            "state": [s for s in others if not s[0].startswith(spec + " ")],
            "game": games_as_values,
            "table": [
                ("python table", _Fresh(engine.TranspositionTable)),
                ("native table", _Fresh(lambda: engine.NativeTable(1000))),
            ],
            "limits": [("nodes 1", engine.Limits(nodes=1)), ("depth 1", engine.Limits(depth=1))],
        }
        search_options = {
            "game": game,
            "state": state,
            "limits": limits,
            "algorithm": "pvs",
            "chance": "star1",
            "table": None,
            "use_table": True,
            "ordering": True,
            "seed": None,
            "aspiration": 25.0,
            "stop": None,
            "progress": None,
        }
        for backend in ("python", "native"):
            options = {**search_options, "backend": backend}
            tag = f"{spec}/{backend}"
            targets += [
                Target(f"engine.search[{tag}]", engine.search, options, 2, None, extra),
                Target(f"engine.iterate[{tag}]", engine.iterate, options, 2, None, extra, _list),
            ]
            solve_options = {
                "game": game,
                "state": state,
                "table": None,
                "limits": None,
                "stop": None,
                "ordering": True,
                "progress": None,
                "weak": False,
                "moves": "line",
                "backend": backend,
            }
            targets.append(
                Target(f"engine.solve[{tag}]", engine.solve, solve_options, 2, None, extra)
            )
            targets.append(
                Target(
                    f"engine.warm_up[{tag}]",
                    engine.warm_up,
                    {
                        "game": game,
                        "table": _Fresh(lambda g=game, b=backend: engine.table_for(g, b, 1000)),
                        "weak": False,
                    },
                    2,
                    None,
                    extra,
                )
            )
        targets += [
            Target(
                f"engine.table_for[{spec}]",
                engine.table_for,
                {"game": game, "backend": None, "entries": 1000},
                3,
                None,
                extra,
            ),
            Target(
                f"engine.choose_backend[{spec}]",
                engine.choose_backend,
                {"game": game, "backend": None, "task": "solve", "state": state},
                4,
                None,
                extra,
            ),
            Target(
                f"engine.fallback_reason[{spec}]",
                engine.fallback_reason,
                {"game": game, "state": state, "task": "search"},
                3,
                None,
                extra,
            ),
        ]
    targets += [
        Target("engine.Limits", engine.Limits, {"depth": 3, "nodes": 1000, "time": 1.0}),
        Target("engine.TranspositionTable", engine.TranspositionTable, {"capacity": 1000}, 1),
        Target("engine.NativeTable", engine.NativeTable, {"entries": 1000}, 1),
        Target("engine.describe_score", engine.describe_score, {"score": 0.0}, 1),
        Target("engine.score_distance", engine.score_distance, {"score": 0.0}, 1),
        Target("engine.score_outcome", engine.score_outcome, {"score": 0.0}, 1),
    ]
    return targets


def registry_targets() -> list[Target]:
    """:mod:`plies.games`' functions."""
    from plies import games

    return [
        Target("games.parse_game_spec", games.parse_game_spec, {"spec": "tictactoe"}, 1),
        Target("games.get_game", games.get_game, {"name": "tictactoe"}, 1),
        Target("games.get_game[mnk]", games.get_game, {"name": "mnk", "m": 4}, 1, ("m",)),
        Target(
            "games.get_game[connect4]",
            games.get_game,
            {"name": "connect4", "width": 5},
            1,
            ("width",),
        ),
        Target(
            "games.get_game[nim]", games.get_game, {"name": "nim", "heaps": (1, 2)}, 1, ("heaps",)
        ),
        Target("games.get_game[pig]", games.get_game, {"name": "pig", "target": 5}, 1, ("target",)),
        Target(
            "games.get_game[checkers]",
            games.get_game,
            {"name": "checkers", "draw_moves": 5},
            1,
            ("draw_moves",),
        ),
    ]


TREE_TEXT = "[[3,12,8],[2,4,6],[14,5,2]]"


def tree_targets() -> list[Target]:
    """:mod:`plies.trees`' functions and the methods of its objects."""
    from plies import trees

    tree = trees.parse(TREE_TEXT)
    result = trees.alphabeta(tree)
    search_options = {
        "algorithm": "alphabeta",
        "fail_soft": True,
        "strict": False,
        "order": "given",
        "seed": None,
        "depth": None,
        "window": (-math.inf, math.inf),
    }
    targets = [
        Target(
            "trees.parse",
            trees.parse,
            {"text": TREE_TEXT, "notation": "auto", "root": "max", "branching": None},
            1,
        ),
        Target("trees.parse_number", trees.parse_number, {"text": "3"}, 1),
        Target("trees.format_tree", trees.format_tree, {"tree": tree, "notation": "auto"}, 1),
        Target("trees.format_number", trees.format_number, {"x": 3}, 1),
        Target(
            "trees.from_leaves",
            trees.from_leaves,
            {"leaves": [3, 1, 2, 4], "branching": 2, "root": "max"},
            1,
        ),
        Target(
            "trees.random_tree",
            trees.random_tree,
            {
                "branching": 2,
                "depth": 3,
                "seed": 1,
                "ragged": False,
                "low": -9,
                "high": 9,
                "distinct": False,
                "chance": False,
                "root": "max",
            },
        ),
        Target(
            "trees.knuth_moore_minimum", trees.knuth_moore_minimum, {"branching": 2, "depth": 3}, 2
        ),
        Target("trees.search", trees.search, {"tree": tree, "options": None, **search_options}, 2),
        Target(
            "trees.compare",
            trees.compare,
            {"tree": tree, "seed": 0, "depth": None, "fail_soft": True},
            1,
        ),
        Target("trees.exact_values", trees.exact_values, {"tree": tree, "depth": None}, 2),
        Target("trees.narrate", trees.narrate, {"result": result}, 1),
        Target("trees.result_to_json", trees.result_to_json, {"result": result, "nodes": True}, 1),
        Target("trees.tree_to_json", trees.tree_to_json, {"tree": tree}, 1),
        Target("trees.SearchOptions", trees.SearchOptions, search_options),
        Target("trees.TreeBuilder", trees.TreeBuilder, {"root": "max"}),
        Target("trees.Tree.node", tree.node, {"node": 1}, 1),
        Target("trees.Tree.name", tree.name, {"node": 1}, 1),
        Target("trees.Tree.path", tree.path, {"node": 1}, 1),
        Target("trees.Tree.node_at", tree.node_at, {"path": [0, 1]}, 1),
        Target("trees.Tree.paths", tree.paths, {"limit": 100}, 1),
        Target("trees.TreeResult.reason", result.reason, {"node": 1}, 1),
        Target("trees.TreeResult.record", result.record, {"node": 1}, 1),
    ]
    for name in ("minimax", "alphabeta", "negamax"):
        targets.append(
            Target(
                f"trees.{name}",
                getattr(trees, name),
                {"tree": tree, **{k: v for k, v in search_options.items() if k != "algorithm"}},
                1,
            )
        )

    def builder_add(**options: Any) -> Any:
        builder = trees.TreeBuilder()
        return builder.add(**options)

    def builder_build(**options: Any) -> Any:
        builder = trees.TreeBuilder()
        for value in (3, 4):
            builder.add(0, value=value)
        return builder.build(**options)

    targets += [
        Target(
            "trees.TreeBuilder.add",
            builder_add,
            {
                "parent": 0,
                "value": 3,
                "kind": None,
                "label": None,
                "static": None,
                "probability": None,
                "move": None,
            },
        ),
        Target("trees.TreeBuilder.build", builder_build, {"bounds": None, "allow_missing": False}),
    ]
    return targets


def lab_targets(found: dict[str, tuple[Any, Any]]) -> list[Target]:
    """:mod:`plies.lab`'s functions."""
    from plies import lab, trees

    tree = trees.parse(TREE_TEXT)
    options = lab.LabOptions()
    result = lab.run(tree, options)
    room = lab.open_room("tictactoe", "5")
    pig_room = lab.open_room("pig")
    game, state = found["tictactoe"]
    answer = {"value": 3}
    option_values = {
        "algorithm": None,
        "strict": None,
        "fail_hard": False,
        "order": "given",
        "seed": None,
        "depth_limit": None,
        "window": None,
    }
    others = [(f"{spec} state", s) for spec, (_, s) in found.items() if spec != "tictactoe"]
    return [
        Target(
            "lab.read_tree",
            lab.read_tree,
            {
                "text": TREE_TEXT,
                "notation": "auto",
                "root": "max",
                "branching": None,
                "bounds": None,
            },
            1,
        ),
        Target("lab.with_bounds", lab.with_bounds, {"tree": tree, "bounds": (-20, 20)}, 2),
        Target("lab.LabOptions", lab.LabOptions, option_values),
        Target("lab.run", lab.run, {"tree": tree, "options": options, "trace": True}, 2),
        Target(
            "lab.search_document", lab.search_document, {"result": result, "options": options}, 2
        ),
        Target("lab.compare_document", lab.compare_document, {"tree": tree, "options": options}, 2),
        Target(
            "lab.exercise",
            lab.exercise,
            {
                "branching": 2,
                "depth": 3,
                "seed": 0,
                "ragged": False,
                "chance": False,
                "root": "max",
                "low": -9,
                "high": 9,
            },
        ),
        Target("lab.check_answer", lab.check_answer, {"result": result, "answer": answer}, 2),
        Target("lab.node_name", lab.node_name, {"tree": tree, "node": 1}, 2),
        Target(
            "lab.game_tree",
            lab.game_tree,
            {"game": game, "state": state, "depth": 2, "max_nodes": 1000},
            2,
            None,
            {"state": others},
        ),
        Target(
            "lab.read_game_tree",
            lab.read_game_tree,
            {"text": "tictactoe 5 1 9", "depth": 2, "max_nodes": 1000},
            1,
        ),
        Target(
            "lab.open_room",
            lab.open_room,
            {"spec": "tictactoe", "position": "5", "moves": ["1"]},
            3,
        ),
        Target("lab.play_move", lab.play_move, {"room": room, "text": "1"}, 2),
        Target("lab.undo", lab.undo, {"room": room, "count": 1}, 2),
        Target("lab.roll", lab.roll, {"room": pig_room, "rng": random.Random(1)}, 2),
        Target(
            "lab.room_state", lab.room_state, {"room": room, "lab_nodes": 2000, "names": None}, 1
        ),
        Target(
            "lab.think",
            lab.think,
            {"room": room, "depth": 2, "seconds": None, "stop": None},
            1,
            None,
            {},
            _list,
        ),
    ]


def draw_targets(directory: Path) -> list[Target]:
    """:mod:`plies.draw`'s functions (files written under ``directory``)."""
    from plies import draw, trees

    tree = trees.parse("[[3,1],[2,4]]")
    result = trees.alphabeta(tree)
    drawing = {"before": False, "max_nodes": None}
    out = str(directory / "drawing.svg")
    targets = [
        Target("draw.to_dot", draw.to_dot, {"subject": result, **drawing}, 1),
        Target("draw.to_svg", draw.to_svg, {"subject": result, **drawing, "graphviz": False}, 1),
        Target("draw.to_png", draw.to_png, {"subject": result, **drawing, "dpi": 20}, 1),
        Target("draw.to_tikz", draw.to_tikz, {"subject": result, **drawing}, 1),
        Target("draw.to_mermaid", draw.to_mermaid, {"subject": result, **drawing}, 1),
        Target("draw.to_html", draw.to_html, {"subject": result, **drawing}, 1),
        Target("draw.format_for", draw.format_for, {"path": "tree.svg", "format": None}, 1),
        Target(
            "draw.render",
            draw.render,
            {"subject": result, "format": "svg", **drawing, "dpi": 20},
            2,
        ),
        Target(
            "draw.write",
            draw.write,
            {"path": out, "subject": result, "format": None, **drawing, "dpi": 20},
            2,
        ),
        Target(
            "draw.write_animation",
            draw.write_animation,
            {
                "path": str(directory / "a.svg"),
                "result": result,
                "max_frames": 50,
                "max_nodes": None,
                "dpi": 20,
            },
            2,
        ),
        Target(
            "draw.write_trace_table",
            draw.write_trace_table,
            {"path": str(directory / "t.csv"), "result": result},
            2,
        ),
        Target("draw.repr_svg", draw.repr_svg, {"subject": result}, 1),
        Target("draw.repr_html", draw.repr_html, {"subject": result}, 1),
        Target(
            "draw.animated_svg",
            draw.animated_svg,
            {"result": result, "seconds": 1.2, "max_frames": 50, "max_nodes": None},
            1,
        ),
        Target(
            "draw.animated_gif",
            draw.animated_gif,
            {"result": result, "seconds": 1.2, "max_frames": 5, "max_nodes": None, "dpi": 10},
            1,
        ),
        Target("draw.final_snapshot", draw.final_snapshot, {"result": result}, 1),
        Target("draw.iter_steps", draw.iter_steps, {"result": result}, 1, None, {}, _list),
        Target("draw.replay", draw.replay, {"result": result}, 1, None, {}, _list),
        Target("draw.trace_csv", draw.trace_csv, {"result": result}, 1),
        Target("draw.trace_markdown", draw.trace_markdown, {"result": result}, 1),
        Target("draw.trace_rows", draw.trace_rows, {"result": result}, 1),
        Target(
            "draw.write_steps",
            draw.write_steps,
            {
                "result": result,
                "directory": directory / "steps",
                "fmt": "svg",
                "max_frames": 5,
                "max_nodes": None,
                "dpi": 20,
            },
            2,
        ),
    ]
    return targets


def corpus(directory: Path) -> list[Case]:
    """Every misuse call of the corpus (files it writes go under ``directory``)."""
    found = games()
    targets = [
        *registry_targets(),
        *game_targets(found),
        *engine_targets(found),
        *tree_targets(),
        *lab_targets(found),
        *draw_targets(directory),
    ]
    return cases(targets)


# -- running it -------------------------------------------------------------------------


class _Hang(BaseException):
    """Raised by the interval timer in a call that ran past :data:`CALL_SECONDS`."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hang


def outcome(case: Case, seconds: float) -> str:
    """``"ok"``, ``"plies"`` (a PliesError), ``"hang"`` or the foreign exception's name."""
    from plies.errors import PliesError

    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        case.run()
    except PliesError:
        return "plies"
    except _Hang:
        return "hang"
    except RecursionError:
        return "RecursionError"
    except BaseException as exc:  # the corpus's purpose: name whatever came out
        return f"{type(exc).__module__}.{type(exc).__qualname__}: {str(exc)[:160]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return "ok"


def run_child(seconds: float, only: str | None, out: Any) -> None:
    """Run the corpus here (the child): one JSON line per call that did not return or
    raise a PliesError, a ``{"start": name}`` line before each call, then a summary."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    signal.signal(signal.SIGALRM, _on_alarm)
    threading.excepthook = lambda args: None  # a stop thread's error is the call's business
    with tempfile.TemporaryDirectory() as directory:
        os.chdir(directory)
        every = corpus(Path(directory))
        if only:
            every = [case for case in every if case.name.startswith(only)]
        counts: Counter[str] = Counter()
        started = time.perf_counter()
        slowest = (0.0, "")
        for case in every:
            print(json.dumps({"start": case.name}), file=out, flush=True)
            began = time.perf_counter()
            found = outcome(case, seconds)
            took = time.perf_counter() - began
            slowest = max(slowest, (took, case.name))
            kind = found if found in ("ok", "plies", "hang") else "foreign"
            counts[kind] += 1
            if kind in ("foreign", "hang"):
                print(json.dumps({"case": case.name, "outcome": found}), file=out, flush=True)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        summary = {
            "calls": len(every),
            **counts,
            "seconds": round(time.perf_counter() - started, 1),
            "slowest": [round(slowest[0], 3), slowest[1]],
            "peak_bytes": peak,
        }
        print(json.dumps({"summary": summary}), file=out, flush=True)


@dataclass
class Report:
    """What the child said: the summary, the bad outcomes, the call it hung in."""

    summary: dict[str, Any]
    bad: list[dict[str, str]]
    hung_in: str | None = None


def run_corpus(
    *, seconds: float = CALL_SECONDS, only: str | None = None, env: dict[str, str] | None = None
) -> Report:
    """Run the corpus in a child process and read its report."""
    command = [sys.executable, __file__, "--child", "--seconds", str(seconds)]
    if only:
        command += ["--only", only]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=CORPUS_SECONDS, env=env, check=False
        )
        stdout, hung = done.stdout, False
    except subprocess.TimeoutExpired as exc:
        raw = exc.stdout or b""
        stdout, hung = raw.decode() if isinstance(raw, bytes) else raw, True
    summary: dict[str, Any] = {}
    bad = []
    last = None
    for line in stdout.splitlines():
        record = json.loads(line)
        if "start" in record:
            last = record["start"]
        elif "summary" in record:
            summary = record["summary"]
        else:
            bad.append(record)
    if not summary and not hung:
        raise AssertionError(f"the corpus did not finish: {done.stderr[-3000:]}")
    return Report(summary, bad, last if hung else None)


def distinct(bad: list[dict[str, str]]) -> Counter[str]:
    """The bad outcomes by function and kind (the value left out)."""
    kinds: Counter[str] = Counter()
    for record in bad:
        function = record["case"].partition("=")[0]
        kinds[f"{function}: {record['outcome'].partition(':')[0]}"] += 1
    return kinds


def test_no_misuse_of_the_api_leaks_a_foreign_exception_or_hangs() -> None:
    report = run_corpus()
    assert report.hung_in is None, f"hung in {report.hung_in}"
    shown = "\n".join(f"{r['case']}: {r['outcome']}" for r in report.bad[:40])
    assert not report.bad, f"{len(report.bad)} of {report.summary['calls']} calls:\n{shown}"
    assert report.summary["calls"] > 10_000  # the corpus did not shrink by accident
    assert report.summary["peak_bytes"] < 2 << 30


def main(argv: list[str]) -> None:
    """``--child``: run the corpus here; else run it in a child and print what leaked."""
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else CALL_SECONDS
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    if "--child" in argv:
        out = io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), write_through=True)
        sys.stdout = sys.stderr  # what plies prints does not mix with the report
        run_child(seconds, only, out)
        return
    report = run_corpus(seconds=seconds, only=only, env=dict(os.environ))
    for record in report.bad:
        print(f"{record['case']}: {record['outcome']}")
    print(json.dumps(report.summary))
    if report.hung_in:
        print(f"hung (no signal got through) in {report.hung_in}")
    print(f"{len(distinct(report.bad))} distinct (function, argument, exception)")


if __name__ == "__main__":
    main(sys.argv[1:])
