"""``plies grade``: check a student's own alpha-beta code on a battery of trees and
write the marks for the student, or for a course's autograder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from plies.cli._args import whole_number
from plies.errors import PliesError
from plies.grade import ALGORITHMS, FORMATS, FORMS, RULES, Limits, grade, write_report

__all__ = ["register", "run_grade"]

_EPILOG = """\
examples:
  plies grade minimax.py --form array --function minimax
  plies grade alphabeta.py --form node --function alpha_beta_pruning --rule strict
  plies grade student.py --form aima --function alphabeta_search --format gradescope \\
      --out /autograder/results/results.json
  plies grade "java -cp build AlphaBeta" --form program --trees exam.txt

Exit status 0 whenever grading ran, whatever the marks; 1 (with one line) for a bad
command line or a submission that cannot be loaded. The submission runs in a process
of its own, never in plies'.
"""


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 600, not {text}")
    return value


def register(subparsers: Any) -> None:
    """Add the ``grade`` subcommand."""
    p = subparsers.add_parser(
        "grade",
        help="grade a student's own alpha-beta code: value, leaves in order, windows",
        description="Run a student's minimax or alpha-beta implementation on a battery of "
        "trees (the textbook tree, ties under both rules, negative and float values, a MIN "
        "root, unbalanced trees, a deep chain, random trees), see which leaves it evaluates "
        "and in what order, and mark it against plies' own search: the value, the leaves "
        "(an extra leaf and a missing one are both mistakes) and, where the form shows them, "
        "the alpha and beta each node was searched with. Feedback names the first place "
        "the code leaves alpha-beta, and the mistake when it is a known one.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "submission",
        metavar="SUBMISSION",
        help="the student's Python file; for --form program, the command that runs the program",
    )
    p.add_argument(
        "--form",
        choices=FORMS,
        required=True,
        help="how the code is written: array (NAME(depth, index, maximizing, values, alpha, "
        "beta) on a complete tree), node (NAME(node, [depth,] alpha, beta, maximizing) over "
        "nodes with .children and .value), aima (NAME(state, game) -> move, aima-python's "
        "games), program (any language, through plies' line protocol)",
    )
    p.add_argument("--function", metavar="NAME", help="the student's function (Python forms)")
    p.add_argument(
        "--rule",
        choices=RULES,
        default="nonstrict",
        help="the assignment's tie rule: nonstrict prunes when alpha >= beta (AIMA, most "
        "courses; the default), strict only when alpha > beta (CS188)",
    )
    p.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default="alphabeta",
        help="what the code should do: alphabeta (default), minimax (every leaf), expectimax "
        "(chance nodes; node and program forms)",
    )
    p.add_argument(
        "--branching",
        type=whole_number(minimum=2, maximum=10),
        default=2,
        help="the array form's branching (default 2)",
    )
    p.add_argument(
        "--depth",
        type=whole_number(minimum=1, maximum=12),
        default=3,
        help="the array form's depth (default 3: 8 leaves with branching 2)",
    )
    p.add_argument("--seed", type=whole_number(), default=0, help="seed of the random trees")
    p.add_argument(
        "--random",
        type=whole_number(minimum=0, maximum=100),
        default=4,
        metavar="N",
        help="random trees in the battery (default 4)",
    )
    p.add_argument(
        "--trees",
        metavar="FILE",
        action="append",
        default=[],
        help="a file of the teacher's own trees, in any notation plies reads, separated by "
        "lines of '---'; '# name: ...', '# weight: 2', '# hidden', '# root: min' above a "
        "tree set its test (may be given more than once)",
    )
    p.add_argument(
        "--only-trees",
        action="store_true",
        help="grade on the --trees files alone, without the default battery",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=Limits.timeout,
        metavar="S",
        help=f"wall-clock seconds per test (default {Limits.timeout:g}); a test past it is "
        "stopped and gets no marks",
    )
    p.add_argument(
        "--memory",
        type=whole_number(minimum=64),
        default=Limits.memory_mb,
        metavar="MB",
        help=f"memory of the submission's process in MB (default {Limits.memory_mb}): its "
        "address space for Python, its data for a program (a JVM reserves more)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (for a student at a terminal; default), json, gradescope (results.json) "
        "or prairielearn (the external grader's results, with the drawing of each visible "
        "test not fully right as an image)",
    )
    p.add_argument("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    p.add_argument(
        "--draw",
        metavar="DIR",
        help="draw each test the code ran into DIR (made if missing) as NN-name.svg: plies' "
        "search with the code's path, its extra and missed leaves and the first difference",
    )
    p.set_defaults(handler=run_grade)


def run_grade(args: argparse.Namespace) -> int:
    """Handler of ``plies grade``."""
    if args.form != "program" and not args.function:
        raise PliesError(f"the {args.form} form needs --function NAME (the student's function)")
    if args.only_trees and not args.trees:
        raise PliesError("--only-trees needs at least one --trees FILE")
    report = grade(
        args.submission,
        form=args.form,
        function=args.function,
        rule=args.rule,
        algorithm=args.algorithm,
        branching=args.branching,
        depth=args.depth,
        seed=args.seed,
        random_trees=args.random,
        trees=args.trees,
        battery=not args.only_trees,
        limits=Limits(timeout=args.timeout, memory_mb=args.memory),
        draw=args.draw,
        pictures=args.format == "prairielearn",
    )
    text = write_report(report, args.format)
    if args.out:
        path = Path(args.out)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise PliesError(f"cannot write {path}: {exc.strerror or exc}") from None
        print(report.summary(), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
