"""``plies tree``: search an explicit game tree and show every step.

The grader-facing options are a contract: ``TREE`` (text, ``@FILE`` or ``-``),
``--root``, ``--algorithm``, ``--strict``, ``--order``, ``--seed``, ``--json`` and
``--batch`` keep their meaning across releases. The text and ``--json`` number alike,
as :mod:`plies.trees` describes: child indices and leaf numbers from 0, the evaluation
order ``#k`` from 1.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AnyStr, BinaryIO

from rich.console import Console
from rich.table import Table

from plies.cli._args import note, whole_number
from plies.cli._batch import add_cluster_arguments, batch_items, run_batch
from plies.cli._console import output_console
from plies.cluster import LineResult
from plies.errors import LimitError, PliesError
from plies.lab import (
    MCTS_ALGORITHM,
    LabOptions,
    check_two_player_text,
    compare_document,
    describe_multi,
    mcts_document,
    multi_document,
    multi_drawing,
    multi_value_text,
    random_multi,
    read_game_tree,
    read_multi_tree,
    read_tree,
    run,
    run_mcts_tree,
    run_multi_tree,
    search_document,
    with_bounds,
    write_multi_drawing,
)
from plies.trees import (
    ALGORITHMS,
    MULTI_ALGORITHMS,
    NOTATIONS,
    ORDERS,
    MctsResult,
    MultiResult,
    MultiTree,
    SearchOptions,
    Tree,
    TreeResult,
    convergence_line,
    format_number,
    format_tree,
    format_vector,
    guided_tree,
    narrate,
    narrate_mcts,
    parse_number,
    plain_tree_lines,
    random_tree,
    render_tree,
    write_result_json,
)

__all__ = ["TreeLines", "register", "run_tree"]

#: Above these sizes the tree drawing and the narration are left out unless asked for.
SHOW_TREE_MAX_NODES = 400
NARRATE_MAX_NODES = 150

#: Said under the leaves' evaluation order: the one numbering (see :mod:`plies.trees`).
LEAF_NUMBERS = (
    "(leaf n counts from 0, left to right, as --json's evaluated and check_answer; #k is "
    "the k-th leaf evaluated, not a leaf number; child indices count from 0 too)"
)

DESCRIPTION = """\
Search an explicit game tree with minimax, alpha-beta, negamax or expectiminimax
and show every step: the tree before and after, alpha and beta at each node, what
was pruned and why, the order leaves were evaluated and the principal variation.

TREE is the tree text, @FILE to read a file, or - to read standard input.
Notations (detected automatically, or set with --notation):
  brackets  [[3,12,8],[2,4,6],[14,5,2]]   ((3 12 8)(2 4 6)(14 5 2))
            labelled: A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))   leaf labels: H:2
  flat      --leaves 3,5,6,9,1,2,0,-1 --branching 2  (a complete b-ary tree)
  json      {"tree": {"kind": "chance", "children": [{"p": 0.5, "value": 3}, ...]},
             "bounds": [-10, 10]}  (kinds, labels, probabilities, static values)
  cs188     a Berkeley CS188 multi-agent test file (successors:, evaluation:, ...)
Leaves may be integers, decimals, inf or -inf. The root is MAX unless --root min.

Trees of three or more players (--algorithm maxn, paranoid or brs) are JSON with
"players": N and a vector of N utilities per leaf; inner nodes may say whose turn
it is ("player": i, from 0; by default the player after the parent's, player 0 at
the root):  {"players": 3, "tree": [[[1,2,3],[4,1,1]], [[2,5,0],[3,3,3]]]}"""

EPILOG = """\
examples:
  plies tree "[[3,12,8],[2,4,6],[14,5,2]]"
  plies tree --leaves 6,4,7,8,3,9,5,7 --branching 2 --json
  plies tree "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))" --order best --compare
  plies tree @q3-test.test --strict
  plies tree --random --branching 3 --depth 3 --seed 7
  plies tree --batch @class-answers.txt > results.jsonl
  plies tree @three-players.json --algorithm brs --player 1
  plies tree --random --players 3 --algorithm maxn --seed 5
  plies tree --guided"""


def _number_pair(text: str) -> tuple[float | int, float | int]:
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"expected two numbers LOW,HIGH, not {text!r}")
    try:
        return parse_number(parts[0]), parse_number(parts[1])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_positive = whole_number(1)
_natural = whole_number(0)

#: Iterations of ``--algorithm mcts`` unless --iterations says otherwise, and how many
#: of them the text output narrates in full.
MCTS_DEFAULT_ITERATIONS = 1000
MCTS_NARRATED = 10


def _exploration(text: str) -> float:
    try:
        c = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not (0 <= c < math.inf):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, not {text!r}")
    return c


def _draw_extension() -> Any:
    """The drawing options of :mod:`plies.cli._draw`, when that module is present.

    It provides ``add_arguments(parser)``, ``wants_drawing(args) -> bool``,
    ``check(tree, args) -> None`` (sizes, before the search) and
    ``draw(tree, result_or_None, args) -> None``.
    """
    try:
        from plies.cli import _draw  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return _draw


def register(subparsers: Any) -> None:
    """Add the ``tree`` subcommand."""
    p = subparsers.add_parser(
        "tree",
        help="search an explicit game tree and show every step",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_tree_arguments(p)
    add_cluster_arguments(p)
    p.set_defaults(handler=run_tree)


def add_tree_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``plies tree`` (shared with commands that draw trees)."""
    p.add_argument(
        "tree", nargs="?", metavar="TREE", help="the tree: text, @FILE, or - for standard input"
    )
    src = p.add_argument_group("input")
    src.add_argument(
        "--notation",
        choices=NOTATIONS,
        default="auto",
        help="the notation of TREE (default: detect it)",
    )
    src.add_argument(
        "--leaves",
        metavar="LIST",
        help="leaf values, left to right, of a complete tree (with --branching)",
    )
    src.add_argument(
        "--branching",
        type=_positive,
        metavar="B",
        help="children per inner node, for --leaves, a flat TREE or --random",
    )
    src.add_argument(
        "--root",
        type=str.lower,
        choices=("max", "min"),
        default="max",
        help="kind of the root when the notation does not say (default: max)",
    )
    src.add_argument(
        "--bounds",
        type=_number_pair,
        metavar="LOW,HIGH",
        help="known bounds on every leaf value; enables Star1 for expectiminimax",
    )
    src.add_argument(
        "--game",
        metavar="GAME[:POSITION]",
        help="search the tree of a built-in game's position to --depth plies (default 2): "
        "tictactoe:'5 1 9', connect4:4453, connect4:width=6,height=5:44 (see 'plies games')",
    )
    src.add_argument(
        "--random",
        action="store_true",
        help="search a random tree instead of TREE (see --branching, --depth, --seed, --ragged)",
    )
    src.add_argument(
        "--depth",
        type=_natural,
        metavar="D",
        default=None,
        help="depth of the --random tree (default 3) or the --game tree (default 2)",
    )
    src.add_argument(
        "--ragged",
        action="store_true",
        help="random tree with varying numbers of children and leaf depths",
    )
    src.add_argument(
        "--chance", action="store_true", help="random tree with chance nodes in place of MIN nodes"
    )
    src.add_argument(
        "--values",
        type=_number_pair,
        metavar="LOW,HIGH",
        default=(-9, 9),
        help="range of random leaf values (default -9,9)",
    )
    src.add_argument(
        "--guided",
        action="store_true",
        help="type the tree in answer to questions (depth, children, leaves)",
    )
    src.add_argument(
        "--batch",
        action="store_true",
        help="TREE (- or @FILE) holds one tree per line: print one JSON result "
        "per line, with the same options for all",
    )
    alg = p.add_argument_group("search")
    alg.add_argument(
        "--algorithm",
        choices=(*ALGORITHMS, MCTS_ALGORITHM, *MULTI_ALGORITHMS),
        default=None,
        help="minimax, alphabeta (the default), negamax (with alpha-beta "
        "pruning), expectiminimax (chance nodes; the default for them), mcts "
        "(Monte-Carlo tree search, step by step: see --iterations, --exploration, --seed), "
        'or for trees with "players": maxn, paranoid or brs (Best-Reply Search)',
    )
    alg.add_argument(
        "--player",
        type=_natural,
        metavar="I",
        default=None,
        help="the root player of --algorithm paranoid and brs, from 0 (default: the "
        "player to move at the root)",
    )
    alg.add_argument(
        "--players",
        type=whole_number(2),
        metavar="N",
        default=None,
        help="players of a --random tree for maxn, paranoid or brs (default 3)",
    )
    alg.add_argument(
        "--iterations",
        type=_positive,
        metavar="N",
        default=None,
        help=f"iterations of --algorithm mcts (default {MCTS_DEFAULT_ITERATIONS})",
    )
    alg.add_argument(
        "--exploration",
        type=_exploration,
        metavar="C",
        default=None,
        help="the exploration constant of --algorithm mcts's UCB (default sqrt(2))",
    )
    alg.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="prune only when a value is strictly beyond the bound, never on "
        "equality (CS188's rule; the default for CS188 alpha-beta tests)",
    )
    alg.add_argument(
        "--fail-hard",
        action="store_true",
        help="return values clamped to the window (default: fail-soft)",
    )
    alg.add_argument(
        "--order",
        choices=ORDERS,
        default="given",
        help="move ordering: as given, best first (by exact values), worst "
        "first, random (--seed) or by the inner static values",
    )
    alg.add_argument(
        "--seed",
        type=whole_number(),
        default=None,
        help="seed for --order random, --random and --algorithm mcts (default: 0 for "
        "ordering and mcts, a fresh one for --random, printed)",
    )
    alg.add_argument(
        "--depth-limit",
        type=_natural,
        metavar="N",
        default=None,
        help="search N plies only, scoring inner nodes there by their static value",
    )
    alg.add_argument(
        "--window",
        type=_number_pair,
        metavar="ALPHA,BETA",
        default=None,
        help="the root window (default -inf,inf)",
    )
    alg.add_argument(
        "--no-star1",
        action="store_true",
        help="plain expectiminimax even when leaf bounds are known",
    )
    out = p.add_argument_group("output")
    out.add_argument(
        "--json",
        action="store_true",
        help='print one strict JSON document (infinities as "inf"/"-inf")',
    )
    out.add_argument(
        "--compare",
        action="store_true",
        help="a table of algorithm x ordering x tie rule: leaves evaluated, nodes "
        "visited, and the Knuth-Moore minimum for uniform trees",
    )
    out.add_argument(
        "--show-tree",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"draw the tree before and after (default: when it has at most "
        f"{SHOW_TREE_MAX_NODES} nodes)",
    )
    out.add_argument(
        "--narrate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"the numbered step-by-step narration (default: when the tree has "
        f"at most {NARRATE_MAX_NODES} nodes)",
    )
    extension = _draw_extension()
    if extension is not None:
        extension.add_arguments(p)


# Reading the tree -----------------------------------------------------------------------


def read_source(spec: str) -> str:
    """The text of TREE: itself, the file after ``@``, or standard input for ``-``.

    At most :data:`MAX_INPUT_BYTES` are read (``@/dev/zero`` must not eat the
    machine's memory): a longer input is refused with a :class:`LimitError`.
    """
    if spec == "-":
        return _checked_size(sys.stdin.read(MAX_INPUT_BYTES + 1), "standard input")
    if spec.startswith("@"):
        path = Path(spec[1:])
        try:
            with path.open("rb") as stream:
                return _read_capped(stream, f"the tree file '{path}'")
        except OSError as exc:
            raise PliesError(f"cannot read the tree file '{path}': {exc.strerror}") from None
    return spec


#: The largest tree input read: a tree at the parsers' 20-million-node cap written in
#: brackets is about 100 MB.
MAX_INPUT_BYTES = 128 * 1024 * 1024


def _read_capped(stream: BinaryIO, what: str) -> str:
    data = _checked_size(stream.read(MAX_INPUT_BYTES + 1), what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PliesError(f"{what} is not UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it


def _checked_size(data: AnyStr, what: str) -> AnyStr:
    if len(data) > MAX_INPUT_BYTES:
        raise LimitError(
            f"{what} is larger than {MAX_INPUT_BYTES // 2**20} MB, the most a tree may take"
        )
    return data


def _guided_io() -> Tree:
    def ask(prompt: str) -> str:
        sys.stderr.write(prompt)
        sys.stderr.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def tell(message: str) -> None:
        sys.stderr.write(f"  {message}\n")

    return guided_tree(ask, tell)


def build_tree(args: argparse.Namespace) -> Tree:
    """The tree the arguments describe (TREE, --leaves, --random or --guided)."""
    sources = [
        args.tree is not None,
        args.leaves is not None,
        args.random,
        args.guided,
        args.game is not None,
    ]
    if sum(sources) > 1:
        raise PliesError("give only one of TREE, --leaves, --random, --guided and --game")
    if args.depth is not None and not (args.random or args.game):
        raise PliesError(
            "--depth sets the depth of a --random or --game tree; to limit the search use "
            "--depth-limit"
        )
    if args.game is not None:
        tree = read_game_tree(args.game, depth=2 if args.depth is None else args.depth)
    elif args.random:
        seed = args.seed
        if seed is None:
            import random as _random

            seed = _random.randrange(1_000_000)
            args.seed = seed
        low, high = _whole_range(args.values)
        tree = random_tree(
            branching=args.branching or 2,
            depth=3 if args.depth is None else args.depth,
            seed=seed,
            ragged=args.ragged,
            low=low,
            high=high,
            chance=args.chance,
            root=args.root,
        )
    elif args.guided:
        tree = _guided_io()
    else:
        if args.leaves is not None:
            if args.branching is None:
                raise PliesError("--leaves needs --branching B")
            text, notation = args.leaves, "flat"
        elif args.tree is not None:
            text, notation = read_source(args.tree), args.notation
            if notation in ("auto", "json"):
                check_two_player_text(text)
        else:
            raise PliesError(
                "no tree given: pass TREE, @FILE, - (standard input), --leaves, "
                "--random or --guided (see 'plies tree --help')"
            )
        return read_tree(
            text, notation=notation, root=args.root, branching=args.branching, bounds=args.bounds
        )
    return with_bounds(tree, args.bounds)


def _whole_range(values: tuple[float | int, float | int]) -> tuple[int, int]:
    """``--values LOW,HIGH`` as whole numbers: random leaves are integers, so a
    fractional or infinite bound is refused rather than silently truncated."""
    for x in values:
        if isinstance(x, float) and not x.is_integer():
            shown = "an infinite" if math.isinf(x) else f"the fractional {format_number(x)}"
            raise PliesError(
                f"--values takes whole numbers (random leaves are integers), not {shown} bound"
            )
    low, high = (int(x) for x in values)
    if low > high:
        raise PliesError(f"--values LOW,HIGH needs LOW <= HIGH, not {low},{high}")
    return low, high


def lab_options(args: argparse.Namespace) -> LabOptions:
    """The search options the arguments give (gaps are filled from the tree later)."""
    return LabOptions(
        algorithm=args.algorithm,
        strict=args.strict,
        fail_hard=args.fail_hard,
        order=args.order,
        seed=args.seed if args.order == "random" or not args.random else None,
        depth_limit=args.depth_limit,
        window=args.window,
        star1=not args.no_star1,
    )


def ignored_options(tree: Tree, args: argparse.Namespace, chosen: LabOptions) -> list[str]:
    """Why each option given has no effect, one sentence each (see
    :meth:`plies.lab.LabOptions.notes`), with the options that shape a --random tree."""
    notes = chosen.notes(tree)
    if not args.random:
        given = [f"--{name}" for name in ("ragged", "chance") if getattr(args, name)]
        if args.values != (-9, 9):
            given.append("--values")
        notes.extend(f"{option} has no effect without --random" for option in given)
    return notes


# Running --------------------------------------------------------------------------------


def run_tree(args: argparse.Namespace) -> int:
    """Handler of ``plies tree``."""
    extension = _draw_extension()
    drawing = extension is not None and extension.wants_drawing(args)
    if drawing and (args.batch or args.compare):
        raise PliesError("drawing options cannot be combined with --batch or --compare")
    if args.algorithm in MULTI_ALGORITHMS:
        return run_multi(args)
    for option in ("player", "players"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} works with --algorithm maxn, paranoid or brs only")
    if args.algorithm == MCTS_ALGORITHM:
        if args.batch:
            raise PliesError("--algorithm mcts cannot be combined with --batch")
        return _run_mcts(args, drawing=drawing)
    for option in ("iterations", "exploration"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} works with --algorithm mcts only")
    if args.batch:
        return _run_batch(args)
    for option in ("workers", "scheduler", "out", "resume"):
        if getattr(args, option, None) is not None:
            raise PliesError(f"--{option} works with --batch only")
    tree = build_tree(args)
    if args.compare:
        return _run_compare(tree, args)
    if drawing:
        extension.check(tree, args)  # a drawing too large is refused before the search
    narrate_on = args.narrate if args.narrate is not None else len(tree) <= NARRATE_MAX_NODES
    chosen = lab_options(args)
    for sentence in ignored_options(tree, args, chosen):
        note(sentence)
    result = run(tree, chosen, trace=drawing or (narrate_on and not args.json))
    if drawing:
        extension.draw(tree, result, args)
    if args.json:
        # search_document's keys, streamed: its node entries as a list took 5 GB for
        # 5 million nodes (a test checks that both say the same).
        extra: dict[str, Any] = {"notes": chosen.notes(tree)}
        if args.random:
            extra["tree"] = format_tree(tree)
            extra["seed"] = args.seed
        write_result_json(result, sys.stdout, extra=extra)
        return 0
    show = args.show_tree if args.show_tree is not None else len(tree) <= SHOW_TREE_MAX_NODES
    _print_report(tree, result, args, show=show, narrate_on=narrate_on)
    return 0


#: The options of the exact searches, which Monte-Carlo tree search does not take,
#: with the value each has when not given.
_EXACT_ONLY = {
    "strict": None,
    "fail_hard": False,
    "order": "given",
    "depth_limit": None,
    "window": None,
    "no_star1": False,
    "compare": False,
}


def _run_mcts(args: argparse.Namespace, *, drawing: bool) -> int:
    """``--algorithm mcts``: the narrated iterations, the root moves' table and the
    convergence line, or the JSON document."""
    for name, unset in _EXACT_ONLY.items():
        if getattr(args, name) != unset:
            option = "--" + name.replace("_", "-")
            raise PliesError(f"{option} does not apply to --algorithm mcts")
    if drawing:
        raise PliesError("drawing options cannot be combined with --algorithm mcts")
    for option in ("workers", "scheduler", "out", "resume"):
        if getattr(args, option, None) is not None:
            raise PliesError(f"--{option} works with --batch only")
    tree = build_tree(args)
    iterations = MCTS_DEFAULT_ITERATIONS if args.iterations is None else args.iterations
    result = run_mcts_tree(tree, iterations=iterations, seed=args.seed, c=args.exploration)
    if args.json:
        doc = mcts_document(result)
        if args.random:
            doc["tree"] = format_tree(tree)
        _print_json(doc)
        return 0
    _print_mcts(tree, result, args)
    return 0


def _print_mcts(tree: Tree, result: MctsResult, args: argparse.Namespace) -> None:
    console = output_console()
    if args.random:
        console.print(f"Random tree (seed {args.seed}): {format_tree(tree)}")
    console.print(
        f"[bold]Tree[/bold]: {len(tree)} nodes, {tree.leaf_count} leaves, "
        f"height {tree.height}, {tree.kind[0].upper()} root"
    )
    console.print(
        f"[bold]Search[/bold]: mcts (UCT), {result.iterations} iterations, seed "
        f"{result.seed}, c = {result.c:.4g}, values scaled to [0, 1] by the leaf range "
        "for UCB, shown in the tree's units"
    )
    if args.narrate is not False:
        console.print()
        for line in narrate_mcts(result, MCTS_NARRATED):
            console.print(line, highlight=False, markup=False)
        hidden = result.iterations - min(MCTS_NARRATED, len(result.steps))
        if hidden > 0:
            console.print(f"... {hidden} more iterations (--json shows the first steps)")
    console.print()
    table = Table(title="Root moves", title_justify="left")
    for column in ("move", "visits", "mean value", "UCB (scaled)", "minimax value"):
        table.add_column(column, justify="left" if column == "move" else "right")
    for child in result.children:
        name = child.name if child.move in (None, child.name) else f"{child.name} ({child.move})"
        table.add_row(
            name,
            str(child.visits),
            "-" if child.value is None else format_number(round(child.value, 3)),
            "inf" if math.isinf(child.ucb) else f"{child.ucb:.3f}",
            format_number(child.exact),
        )
    console.print(table)
    console.print(convergence_line(result), highlight=False)


# N-player trees ------------------------------------------------------------------------

#: The options N-player searches do not take, with the value each has when not given.
_TWO_PLAYER_ONLY = {
    **_EXACT_ONLY,
    "iterations": None,
    "exploration": None,
    "batch": False,
    "bounds": None,
    "root": "max",
    "ragged": False,
    "chance": False,
    "leaves": None,
    "guided": False,
    "game": None,
    "steps": None,
    "animate": None,
    "trace_table": None,
}


def run_multi(args: argparse.Namespace) -> int:
    """``--algorithm maxn|paranoid|brs``: the tree and its search narrated step by
    step, the tree after the search, the value and principal line; or the JSON
    document; ``--draw FILE`` (.svg or .txt) draws it."""
    for name, unset in _TWO_PLAYER_ONLY.items():
        if getattr(args, name, unset) != unset:
            option = "--" + name.replace("_", "-")
            raise PliesError(f"{option} does not apply to --algorithm {args.algorithm}")
    for option in ("workers", "scheduler", "out", "resume"):
        if getattr(args, option, None) is not None:
            raise PliesError(f"--{option} works with --batch only")
    if args.players is not None and not args.random:
        raise PliesError('--players sets the players of a --random tree; a TREE says "players"')
    tree = _multi_tree(args)
    narrate_on = args.narrate if args.narrate is not None else len(tree) <= NARRATE_MAX_NODES
    result = run_multi_tree(
        tree, args.algorithm, player=args.player, trace=narrate_on and not args.json
    )
    _draw_multi(result, args)
    if args.json:
        doc = multi_document(result)
        if args.random:
            doc["seed"] = args.seed
        _print_json(doc)
        return 0
    _print_multi(result, args, narrate_on=narrate_on)
    return 0


def _multi_tree(args: argparse.Namespace) -> MultiTree:
    """The N-player tree of TREE (JSON) or --random."""
    if args.random:
        if args.tree is not None:
            raise PliesError("give only one of TREE and --random")
        if args.seed is None:
            import random as _random

            args.seed = _random.randrange(1_000_000)
        return random_multi(
            players=3 if args.players is None else args.players,
            branching=args.branching or 2,
            depth=3 if args.depth is None else args.depth,
            seed=args.seed,
            values=_whole_range(args.values),
        )
    for option in ("branching", "depth"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} shapes a --random tree; a TREE has its own shape")
    if args.tree is None:
        raise PliesError(
            f'no tree given: --algorithm {args.algorithm} reads TREE (JSON with "players"), '
            "@FILE, - (standard input) or --random"
        )
    if args.notation not in ("auto", "json"):
        raise PliesError(f'N-player trees are JSON with "players", not --notation {args.notation}')
    if args.values != (-9, 9):
        raise PliesError("--values has no effect without --random")
    return read_multi_tree(read_source(args.tree))


def _draw_multi(result: MultiResult, args: argparse.Namespace) -> None:
    """``--draw FILE`` (.svg or .txt; ``--format svg``), of the search or, with
    ``--before``, of the tree alone."""
    target = getattr(args, "draw", None)
    fmt = getattr(args, "format", None)
    before = getattr(args, "before", False)
    if target is None:
        if fmt is not None or before:
            raise PliesError("--format and --before go with --draw FILE")
        return
    if fmt not in (None, "svg"):
        raise PliesError(f"N-player trees are drawn as svg or txt, not --format {fmt}")
    subject = result.tree if before else result
    if fmt == "svg" and not target.lower().endswith(".svg"):
        try:
            Path(target).write_text(multi_drawing(subject, "svg"), encoding="utf-8")
        except OSError as exc:
            raise PliesError(f"cannot write the drawing '{target}': {exc.strerror}") from None
        return
    write_multi_drawing(target, subject)


def _print_multi(result: MultiResult, args: argparse.Namespace, *, narrate_on: bool) -> None:
    tree = result.tree
    console = output_console()
    write = console.file.write
    if args.random:
        console.print(f"Random tree (seed {args.seed})", highlight=False)
    console.print(
        f"[bold]Tree[/bold]: {len(tree)} nodes, {tree.leaf_count} leaves, height "
        f"{tree.height}, {tree.players} players, player {tree.player[0]} at the root",
        highlight=False,
    )
    show = args.show_tree if args.show_tree is not None else len(tree) <= SHOW_TREE_MAX_NODES
    if show:
        write(multi_drawing(tree, "txt"))
    console.print(f"[bold]Search[/bold]: {describe_multi(result)}", highlight=False)
    if narrate_on and result.steps:
        console.print()
        for line in result.steps:
            console.print(line, highlight=False, markup=False)
    if show:
        console.print()
        console.print("[bold]After the search[/bold]:")
        write(multi_drawing(result, "txt"))
    console.print()
    _print_multi_summary(console, result)


def _print_multi_summary(console: Console, result: MultiResult) -> None:
    tree = result.tree
    console.print(f"[bold]Value[/bold]: {multi_value_text(result)}", highlight=False)
    names = [tree.name(n) for n in result.pv[1:]]
    path = _elide(names, " -> ") if names else "(the root is a leaf)"
    indices = _elide([str(i) for i in result.path], ", ")
    console.print(
        f"[bold]Principal line[/bold]: {path}   (child indices [{indices}])", highlight=False
    )
    console.print(result.summary(), highlight=False)
    if result.evaluated and len(result.evaluated) <= 200:
        order = ", ".join(
            format_vector(tree.value[tree.leaf_ids[k]] or ()) + f" (leaf {k})"
            for k in result.evaluated
        )
        console.print(f"Leaves in evaluation order: {order}", highlight=False, markup=False)
        console.print(LEAF_NUMBERS, style="dim")
    for cut in result.cutoffs[:100]:
        pruned = ", ".join(tree.name(n) for n in cut.pruned)
        console.print(
            f"Cut-off at {tree.name(cut.node)}: {cut.reason}; pruned {pruned}", highlight=False
        )


def _print_json(doc: Any) -> None:
    sys.stdout.write(_json_text(doc) + "\n")


def _describe(options: SearchOptions, tree: Tree) -> str:
    parts = [options.algorithm]
    if options.algorithm in ("alphabeta", "negamax"):
        parts.append("fail-soft" if options.fail_soft else "fail-hard")
        parts.append(
            "prune only when strictly beyond the bound"
            if options.strict
            else "prune when alpha >= beta"
        )
    if options.algorithm == "expectiminimax":
        star1 = options.star1 and tree.bounds is not None
        parts.append(
            "Star1 pruning with leaf bounds "
            f"[{format_number(tree.bounds[0])}, {format_number(tree.bounds[1])}]"
            if star1 and tree.bounds
            else "no pruning"
        )
    parts.append(
        f"order: {options.order}" + (f" (seed {options.seed})" if options.order == "random" else "")
    )
    if options.depth is not None:
        parts.append(f"depth limit {options.depth}")
    if options.window != (float("-inf"), float("inf")):
        parts.append(
            f"root window ({format_number(options.window[0])}, {format_number(options.window[1])})"
        )
    return ", ".join(parts)


def _print_report(
    tree: Tree, result: TreeResult, args: argparse.Namespace, *, show: bool, narrate_on: bool
) -> None:
    console = output_console()
    root_kind = tree.kind[0].upper()
    if args.random:
        console.print(f"Random tree (seed {args.seed}): {format_tree(tree)}")
    console.print(
        f"[bold]Tree[/bold]: {len(tree)} nodes, {tree.leaf_count} leaves, "
        f"height {tree.height}, {root_kind} root"
    )
    if show:
        _print_tree(console, tree, None)
    console.print(f"[bold]Search[/bold]: {_describe(result.options, tree)}")
    if narrate_on and result.events:
        console.print()
        for line in narrate(result):
            console.print(line)
    if show:
        console.print()
        console.print("[bold]After the search[/bold]:")
        _print_tree(console, tree, result)
    console.print()
    bound = "" if result.bound == "exact" else f" ({result.bound} bound)"
    console.print(f"[bold]Value[/bold]: {format_number(result.value)}{bound}")
    names = [tree.name(n) for n in result.pv[1:]]
    path = _elide(names, " -> ") if names else "(the root is a leaf)"
    indices = _elide([str(i) for i in result.path], ", ")
    console.print(f"[bold]Principal variation[/bold]: {path}   (child indices [{indices}])")
    console.print(result.summary())
    listed = bool(result.evaluated) and len(result.evaluated) <= 200
    if listed:
        order = ", ".join(
            format_number(tree.value[tree.leaf_ids[k]]) + f" (leaf {k})"  # type: ignore[arg-type]
            for k in result.evaluated
        )
        console.print(f"Leaves in evaluation order: {order}")
    if listed or (show and result.evaluated):  # leaf numbers and #k were printed
        console.print(LEAF_NUMBERS, style="dim")
    if result.cut_at and len(result.cut_at) <= 100:
        for node in sorted(result.cut_at):
            cut = result.cut_at[node]
            names_pruned = ", ".join(tree.name(c) for c in cut.pruned)
            view = (
                " (in MIN's view)"
                if result.options.algorithm == "negamax" and tree.kind[node] == "min"
                else ""
            )
            console.print(
                f"Cut-off at {tree.name(node)}: {cut.inequality()}{view}; pruned {names_pruned}"
            )


def _print_tree(console: Console, tree: Tree, result: TreeResult | None) -> None:
    """The tree drawing: through rich on a terminal, as plain lines when piped."""
    if console.is_terminal and len(tree) <= SHOW_TREE_MAX_NODES:
        console.print(render_tree(tree, result))
        return
    write = console.file.write
    for line in plain_tree_lines(tree, result):
        write(line + "\n")


def _elide(items: list[str], sep: str, keep: int = 12) -> str:
    """Join ``items``, keeping only the ends of a long list."""
    if len(items) <= 2 * keep:
        return sep.join(items)
    hidden = len(items) - 2 * keep
    return sep.join([*items[:keep], f"... {hidden} more ...", *items[-keep:]])


def _run_compare(tree: Tree, args: argparse.Namespace) -> int:
    doc = compare_document(tree, lab_options(args))
    if args.json:
        _print_json(doc)
        return 0
    rows = doc["rows"]
    minimum, shape = doc["knuth_moore_minimum"], doc["shape"]
    table = Table(title=f"{tree.leaf_count} leaves, {len(tree)} nodes", title_justify="left")
    for column in (
        "algorithm",
        "order",
        "prune on",
        "value",
        "leaves evaluated",
        "nodes visited",
        "cut-offs",
    ):
        table.add_column(column, justify="right" if column[0] in "lnvc" else "left")
    for r in rows:
        prune_on = (
            "-"
            if r["cutoffs"] == 0 and r["algorithm"] in ("minimax", "expectiminimax")
            else ("v > bound" if r["strict"] else "v >= bound")
        )
        value = r["value"]
        table.add_row(
            r["algorithm"],
            r["order"],
            prune_on,
            value if isinstance(value, str) else format_number(value),
            f"{r['evaluated']} of {tree.leaf_count}",
            str(r["nodes_visited"]),
            str(r["cutoffs"]),
        )
    console = output_console()
    console.print(table)
    if minimum is not None and shape is not None:
        b, d = shape
        console.print(
            f"Knuth-Moore minimum for b={b}, d={d}: b^ceil(d/2) + b^floor(d/2) - 1 "
            f"= {minimum} leaves"
        )
    return 0


@dataclass(frozen=True)
class TreeLines:
    """The work on one line of ``tree --batch``: read the tree, search it, and write
    one JSON line (a bad tree's ``{"line": N, "error": ...}``); a pure function of the
    line, run the same way here and on a Dask worker (:mod:`plies.cluster`)."""

    options: LabOptions
    notation: str = "auto"
    root: str = "max"
    branching: int | None = None
    bounds: tuple[float | int, float | int] | None = None

    def warm(self) -> None:
        """Nothing to load: trees are read line by line."""

    def threads(self) -> bool:
        """No: trees are searched in Python, which holds the GIL."""
        return False

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Search the tree of one line."""
        try:
            tree = read_tree(
                text,
                notation=self.notation,
                root=self.root,
                branching=self.branching,
                bounds=self.bounds,
            )
            result = run(tree, self.options, trace=False)
            doc: dict[str, Any] = {"line": number, **search_document(result, self.options)}
        except PliesError as exc:
            doc = {"line": number, "error": str(exc)}
            return LineResult(number, output=_json_text(doc), error=str(exc))
        return LineResult(number, output=_json_text(doc), nodes=result.nodes_visited)

    def item_key(self, number: int, text: str) -> str:
        """The line number."""
        return str(number)

    def output_key(self, output: str) -> str:
        """The ``line`` of an output line."""
        try:
            return str(json.loads(output).get("line", ""))
        except (ValueError, AttributeError):
            return ""


def _run_batch(args: argparse.Namespace) -> int:
    if args.random or args.guided or args.leaves is not None or args.compare:
        raise PliesError(
            "--batch cannot be combined with --random, --guided, --leaves or --compare"
        )
    if args.tree is None or not (args.tree == "-" or args.tree.startswith("@")):
        raise PliesError("--batch reads trees from - (standard input) or @FILE, one per line")
    job = TreeLines(
        lab_options(args),
        notation=args.notation,
        root=args.root,
        branching=args.branching,
        bounds=args.bounds,
    )
    items = batch_items(read_source(args.tree).splitlines())
    failures = 0

    def count(result: LineResult) -> None:
        nonlocal failures
        failures += result.error is not None

    if run_batch(args, items, job, label="searching", on_result=count):
        print("error: interrupted", file=sys.stderr)
        return 130
    if failures:
        print(
            f"error: {failures} tree{'s' if failures != 1 else ''} in the batch could not "
            "be searched (see their 'error' lines)",
            file=sys.stderr,
        )
        return 1
    return 0


def _json_text(doc: Any) -> str:
    return json.dumps(doc, allow_nan=False, separators=(",", ":"))
