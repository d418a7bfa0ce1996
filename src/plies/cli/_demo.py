"""``plies demo``: solve a textbook tree and show everything, with no input needed."""

from __future__ import annotations

import argparse
from typing import Any

from plies.cli._tree import add_tree_arguments, run_tree

__all__ = ["register"]

#: AIMA (Russell and Norvig), Figure 5.2: value 3, the leaves 4 and 6 are pruned.
AIMA_FIGURE_5_2 = "A(B(b1:3,b2:12,b3:8),C(c1:2,c2:4,c3:6),D(d1:14,d2:5,d3:2))"


def register(subparsers: Any) -> None:
    """Add the ``demo`` subcommand."""
    p = subparsers.add_parser(
        "demo",
        help="solve AIMA Figure 5.2 with alpha-beta and show every step",
        description="Solve the tree of AIMA Figure 5.2 with alpha-beta and show the tree "
        "before and after, every step, and the comparison of orderings. Takes "
        "no input; see 'plies tree --help' to search your own trees.",
    )
    p.set_defaults(handler=run_demo)


def run_demo(_args: argparse.Namespace) -> int:
    """Handler of ``plies demo``."""
    parser = argparse.ArgumentParser()
    add_tree_arguments(parser)
    status = run_tree(parser.parse_args([AIMA_FIGURE_5_2, "--narrate", "--show-tree"]))
    print()
    return status or run_tree(parser.parse_args([AIMA_FIGURE_5_2, "--compare"]))
