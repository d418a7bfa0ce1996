"""Grading students' own alpha-beta code: run it on a battery of trees, see which
leaves it evaluates and in what order, and mark it against plies' own search.

>>> from plies.grade import grade
>>> report = grade("minimax.py", form="array", function="minimax")  # doctest: +SKIP
>>> print(report.to_text())  # doctest: +SKIP

:func:`grade` runs one submission; :class:`Report` holds the marks and writes them as
text, plies' JSON, Gradescope's ``results.json`` or PrairieLearn's results
(:func:`write_report`). The forms a submission may take (:data:`FORMS`):

* ``array``: ``NAME(depth, index, maximizing, values, alpha, beta) -> value`` on
  complete trees of ``branching`` and ``depth``, called as ``NAME(0, 0, True, values,
  -inf, inf)``; the node at ``depth`` d and ``index`` i has the children
  ``i*branching .. i*branching + branching - 1`` at ``d + 1``, and a leaf read is a
  read of ``values[i]``;
* ``node``: ``NAME(node, alpha, beta, maximizing)`` or ``NAME(node, depth, alpha,
  beta, maximizing)`` (told apart by the number of parameters; ``depth`` starts at the
  tree's height); a node has ``.children`` (empty at a leaf) and ``.value``, and also
  ``.kind``, ``.name`` and ``.probability`` for chance nodes; a leaf read is a read of
  a leaf's ``.value``;
* ``aima``: ``NAME(state, game) -> move`` with aima-python's game interface
  (``actions``, ``result``, ``terminal_test``, ``utility``, ``to_move``); states and
  moves are node names; a leaf read is a call of ``utility``;
* ``program``: any language, through the line protocol of
  :mod:`plies.grade._protocol` (the submission is the command that runs it).

The submission never runs in plies' process: each runs in a process of its own with
a time limit per test and a memory limit (:class:`Limits`).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from plies._arguments import need_choice, need_int, need_number, need_object, need_path, need_text
from plies.errors import ArgumentTypeError, PliesError
from plies.grade._battery import ALGORITHMS, FORMS, Case, default_battery, read_cases
from plies.grade._mark import CAUSES, Marked, mark, reference, textbook_search
from plies.grade._report import FORMATS, Report, write_report
from plies.grade._run import Limits, ProgramRunner, PythonRunner, SubmissionError
from plies.trees import Tree

__all__ = [
    "ALGORITHMS",
    "CAUSES",
    "FORMATS",
    "FORMS",
    "RULES",
    "Case",
    "Limits",
    "Marked",
    "PictureError",
    "Report",
    "SubmissionError",
    "compare_svg",
    "default_battery",
    "grade",
    "read_cases",
    "reference",
    "textbook_search",
    "write_report",
]

RULES: tuple[str, ...] = ("nonstrict", "strict")
#: The parameters each Python form's function takes.
_PARAMETERS = {"array": (6,), "node": (4, 5), "aima": (2,)}
_SIGNATURES = {
    "array": "(depth, index, maximizing, values, alpha, beta)",
    "node": "(node, alpha, beta, maximizing) or (node, depth, alpha, beta, maximizing)",
    "aima": "(state, game)",
}


def grade(
    submission: str | Path,
    *,
    form: str,
    function: str | None = None,
    rule: str = "nonstrict",
    algorithm: str = "alphabeta",
    branching: int = 2,
    depth: int = 3,
    seed: int = 0,
    random_trees: int = 4,
    trees: Sequence[str | Path] = (),
    battery: bool = True,
    limits: Limits | None = None,
    draw: str | Path | None = None,
    pictures: bool = False,
) -> Report:
    """Grade one ``submission`` (a Python file, or for the ``program`` form the
    command that runs the program) written in ``form``, whose function is
    ``function``, under the tie ``rule`` (``nonstrict``: prune when alpha >= beta;
    ``strict``: only when alpha > beta) and ``algorithm``.

    The tests are the default battery (unless ``battery`` is false: ``branching`` and
    ``depth`` for the ``array`` form, ``random_trees`` random trees from ``seed``)
    and the trees of each file in ``trees`` (:func:`read_cases`).

    With ``draw`` (a folder, made if missing), each test the code ran is drawn there
    as ``NN-name.svg``: plies' search with the code's path, extra and missed leaves
    and the first difference marked (:func:`compare_svg`); its output names the file.
    With ``pictures``, each visible test the code ran and did not get fully right keeps
    that drawing in its :attr:`Marked.picture` (PrairieLearn's results show it).

    Raises :class:`SubmissionError` for a submission that cannot be loaded, and
    :class:`~plies.errors.PliesError` for arguments that cannot be used; a test the
    submission fails (wrong, too slow, crashed) is marked, never raised.
    """
    limits = limits if limits is not None else Limits()
    _check(form, rule, algorithm, branching, depth, seed, random_trees, limits)
    cases = _cases(form, algorithm, branching, depth, seed, random_trees, trees, battery=battery)
    strict = rule == "strict"
    folder = _drawings_folder(need_path(draw, "draw")) if draw is not None else None
    started = time.monotonic()
    if form == "program":
        runner: Any = ProgramRunner(need_text(str(submission), "submission"), limits)
        with_depth = False
    else:
        path = _python_file(submission)
        name = need_text(function, "function") if function is not None else None
        if not name or not name.isidentifier():
            raise PliesError(
                f"the {form} form needs the name of the student's function (--function), "
                f"not {function!r}"
            )
        runner = PythonRunner(path, name, limits)
    marked: list[Marked] = []
    with runner:
        if form != "program":
            count = runner.parameters
            if count not in _PARAMETERS[form]:
                raise SubmissionError(
                    f"{name} takes {count} parameters; the {form} form calls it as "
                    f"{name}{_SIGNATURES[form]}"
                )
            with_depth = count == 5
        for case in cases:
            answer = runner.run(_test(case, form, with_depth=with_depth))
            if form == "array" and answer.get("ok"):  # values[i] read: leaf number i
                answer["reads"] = _leaves_read(case.tree, answer["reads"])
            marked.append(mark(case, answer, form=form, algorithm=algorithm, strict=strict))
    if pictures:
        marked = [
            _pictured(case, m, algorithm=algorithm, strict=strict)
            if m.ran and not m.hidden and m.score < m.max_score
            else m
            for case, m in zip(cases, marked, strict=True)
        ]
    if folder is not None:
        marked = [
            _drawn(folder, k, case, m, algorithm=algorithm, strict=strict) if m.ran else m
            for k, (case, m) in enumerate(zip(cases, marked, strict=True), start=1)
        ]
    return Report(marked, form, algorithm, rule, time.monotonic() - started)


def _check(  # noqa: PLR0917  # grade's arguments, checked in one place
    form: str,
    rule: str,
    algorithm: str,
    branching: int,
    depth: int,
    seed: int,
    random_trees: int,
    limits: Limits,
) -> None:
    """Refuse the arguments of :func:`grade` that cannot be used, naming them."""
    need_choice(form, "form", FORMS)
    need_choice(rule, "rule", RULES)
    need_choice(algorithm, "algorithm", ALGORITHMS)
    need_int(branching, "branching", minimum=2, maximum=10)
    need_int(depth, "depth", minimum=1, maximum=12)
    need_int(seed, "seed")
    need_int(random_trees, "random_trees", minimum=0, maximum=100)
    if branching**depth > 100_000:
        raise PliesError(f"a complete tree of branching {branching} and depth {depth} has "
                         f"{branching**depth:,} leaves; at most 100,000")  # fmt: skip
    need_object(limits, Limits, "limits")
    need_number(limits.timeout, "timeout")
    if not 0 < limits.timeout <= 600:
        raise PliesError(f"the time limit must be above 0 and at most 600 s, not {limits.timeout}")
    need_int(limits.memory_mb, "memory_mb", minimum=64)
    if algorithm == "expectimax" and form in ("array", "aima"):
        raise PliesError(
            f"the {form} form has no chance nodes; expectimax needs the node or program form"
        )


def _cases(  # noqa: PLR0917  # the battery's arguments, as grade takes them
    form: str,
    algorithm: str,
    branching: int,
    depth: int,
    seed: int,
    random_trees: int,
    trees: Sequence[str | Path],
    *,
    battery: bool,
) -> list[Case]:
    """The tests: the default battery (unless ``battery`` is false) and each trees file."""
    cases = default_battery(form, algorithm=algorithm, branching=branching, depth=depth,
                            seed=seed, count=random_trees) if battery else []  # fmt: skip
    if isinstance(trees, str | Path) or not isinstance(trees, Sequence):
        raise ArgumentTypeError(f"trees must be a list of paths, not {trees!r:.60}")
    for path in trees:
        cases += read_cases(path, form=form, branching=branching, depth=depth)
    if not cases:
        raise PliesError("no tests: give trees (--trees) or keep the default battery")
    if algorithm != "expectimax":
        for case in cases:
            if case.tree.has_chance:
                raise PliesError(
                    f"test {case.name!r} has chance nodes; grade it with algorithm expectimax"
                )
    return cases


def _drawings_folder(draw: str | Path) -> Path:
    folder = Path(draw)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise PliesError(f"cannot draw into {folder}: it is not a folder") from None
    except OSError as exc:
        raise PliesError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    return folder


def _drawn(
    folder: Path, k: int, case: Case, marked: Marked, *, algorithm: str, strict: bool
) -> Marked:
    """``marked`` with its test drawn into ``folder`` and the file named in its output."""
    from plies.grade._picture import compare_svg  # loads plies.draw: only when drawing

    slug = re.sub(r"[^a-z0-9]+", "-", case.name.lower()).strip("-")[:40] or "test"
    path = folder / f"{k:02d}-{slug}.svg"
    try:
        # The drawing kept for the report (pictures), else drawn now.
        svg = marked.picture or compare_svg(
            reference(case.tree, algorithm, strict=strict), list(marked.leaves)
        )
        path.write_text(svg, encoding="utf-8")
    except PliesError as exc:
        return replace(marked, output=f"{marked.output}\nNo drawing: {exc}")
    except OSError as exc:
        raise PliesError(f"cannot write {path}: {exc.strerror or exc}") from None
    return replace(marked, output=f"{marked.output}\nDrawing: {path}")


def _pictured(case: Case, marked: Marked, *, algorithm: str, strict: bool) -> Marked:
    """``marked`` keeping the drawing of its test (none where the tree is too large to
    draw: the output says so)."""
    from plies.grade._picture import compare_svg  # loads plies.draw: only when drawing

    try:
        svg = compare_svg(reference(case.tree, algorithm, strict=strict), list(marked.leaves))
    except PliesError as exc:
        return replace(marked, output=f"{marked.output}\nNo drawing: {exc}")
    return replace(marked, picture=svg)


def __getattr__(name: str) -> Any:
    """The drawing of a test (:func:`compare_svg`, :class:`PictureError`), imported
    with plies.draw when first asked for, not by ``import plies.grade``."""
    if name in ("compare_svg", "PictureError"):
        from plies.grade import _picture

        return getattr(_picture, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _python_file(submission: str | Path) -> Path:
    path = need_path(submission, "submission")
    if not path.exists():
        raise SubmissionError(f"submission not found: {path}")
    if not path.is_file():
        raise SubmissionError(f"the submission {path} is not a file")
    return path


def _test(case: Case, form: str, *, with_depth: bool) -> dict[str, Any]:
    """What the submission's process is sent for one test."""
    tree = case.tree
    spec: dict[str, Any] = {
        "form": form,
        "cap": 10 * tree.leaf_count + 100,
        "tree": {
            "kind": list(tree.kind),
            "children": [list(k) for k in tree.children],
            "value": [_plain(v) for v in tree.value],
            "probability": [_plain(p) for p in tree.probability],
            "name": [tree.name(n) for n in range(len(tree))],
        },
    }
    if form == "array":
        values = [_plain(tree.value[n]) for n in tree.leaf_ids]
        spec["call"] = {"values": values, "place": _places(tree)}
    elif form == "node":
        spec["call"] = {"depth": max(tree.depth), "with_depth": with_depth}
    return spec


def _leaves_read(tree: Tree, indices: list[Any]) -> list[int]:
    """The node ids of the leaves read as ``values[i]``."""
    ids = tree.leaf_ids
    return [ids[i] for i in indices if type(i) is int and 0 <= i < len(ids)]


def _plain(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return "inf" if x > 0 else "-inf"
    return x


def _places(tree: Tree) -> dict[str, int]:
    """The array form's ``"depth index"`` of every node: its place in its level,
    left to right (preorder keeps each level's order)."""
    seen: dict[int, int] = {}
    places = {}
    for node in range(len(tree)):
        d = tree.depth[node]
        places[f"{d} {seen.get(d, 0)}"] = node
        seen[d] = seen.get(d, 0) + 1
    return places
