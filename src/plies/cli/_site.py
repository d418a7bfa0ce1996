"""``plies site``: the lab and the practice room as a folder of static files that runs
plies itself in the browser (Pyodide), for a course page to host: no server."""

from __future__ import annotations

import argparse
from typing import Any

from plies.cli._args import add_request_limits

__all__ = ["register", "run_site"]

EPILOG = """examples:
  plies site public/alphabeta          # Pyodide from its public CDN
  npm pack pyodide@{version}              # pyodide-{version}.tgz: the runtime, for offline use
  plies site public/alphabeta --pyodide pyodide-{version}.tgz
  python -m http.server --directory public 8000   # then open /alphabeta/
"""


def register(subparsers: Any) -> None:
    """Add the ``site`` subcommand."""
    from plies.web import PYODIDE_CDN, PYODIDE_VERSION

    p = subparsers.add_parser(
        "site",
        help="write the lab and the practice room as a static site that runs plies in the browser",
        description="Write the tree lab (index.html) and the practice room "
        "(practice.html) into DIR as static files any web host serves, at any sub-path: "
        "plies itself runs in the browser under Pyodide, in a Web Worker, and answers "
        "as plies serve does, byte for byte. Shared links work as on plies serve.",
        epilog=EPILOG.format(version=PYODIDE_VERSION),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folder", metavar="DIR", help="the folder to write (new, empty, or a site "
                   "written before)")  # fmt: skip
    p.add_argument(
        "--pyodide",
        default=PYODIDE_CDN,
        metavar="URL|PATH",
        help="the Pyodide runtime: a URL the pages load it from (default: version "
        f"{PYODIDE_VERSION} on its public CDN, {PYODIDE_CDN}), or a local copy to put in "
        f"the site so that it needs nothing else: the .tgz of 'npm pack pyodide@{PYODIDE_VERSION}' "
        "or a folder holding its files",
    )
    add_request_limits(p, stopped="it is stopped then, and Python started afresh")
    p.set_defaults(handler=run_site)


def run_site(args: argparse.Namespace) -> int:
    """Write the site and say what it holds."""
    from plies.web import build_site, describe_site

    built = build_site(
        args.folder,
        pyodide=args.pyodide,
        max_body=args.max_body,
        max_nodes=args.max_nodes,
        max_step_nodes=args.max_step_nodes,
        max_mcts_iterations=args.max_mcts_iterations,
        max_seconds=args.max_seconds,
    )
    print(describe_site(built))
    return 0
