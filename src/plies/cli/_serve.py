"""``plies serve``: the web lab on a local server (needs ``pip install 'plies[web]'``)."""

from __future__ import annotations

import argparse
import socket
import sys
import threading
from typing import Any

from plies.cli._args import add_request_limits, whole_number
from plies.errors import PliesError

__all__ = ["register", "run_serve"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    p = subparsers.add_parser(
        "serve",
        help="serve the alpha-beta lab in a browser (needs plies[web])",
        description="Serve the web lab: the tree lab (type a tree, step through its "
        "search, download its drawings), the practice room (/practice), the game room "
        "(/play) and their JSON API (documented at /api). Bound to 127.0.0.1 unless "
        "--host says otherwise. Every request's work runs in a worker process, stopped at "
        "its time or memory limit. Needs the web extra: pip install 'plies[web]'.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=whole_number(0, 65535),
        default=8000,
        help="port (default 8000; 0: any free)",
    )
    p.add_argument("--open", action="store_true", help="open the lab in the default browser")
    add_request_limits(p, stopped="its work is stopped then")
    p.add_argument(
        "--max-searches",
        type=whole_number(1, 64),
        default=4,
        metavar="N",
        help="game-room engine searches running at once, each in a worker process of its "
        "own; more are refused until one ends (default 4)",
    )
    p.add_argument(
        "--workers",
        type=whole_number(1, 64),
        default=None,
        metavar="N",
        help="worker processes for the other requests (default: the cores, 2 to 4); "
        "requests beyond them wait for one, within their time limit",
    )
    p.add_argument(
        "--max-memory",
        type=whole_number(16, 1_000_000),
        default=512,
        metavar="MB",
        help="memory a request's worker may grow by before it is stopped (default 512 MB)",
    )
    p.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Handler of ``plies serve``: runs until Ctrl-C."""
    try:
        import uvicorn

        from plies.web import WebSettings, create_app
    except ImportError:
        raise PliesError("plies serve needs the web extra: pip install 'plies[web]'") from None
    _check_address(args.host, args.port)
    if args.host not in LOOPBACK:
        print(
            f"warning: serving on {args.host}: anyone who can reach this machine can use "
            "the lab (it reads no files and bounds every request)",
            file=sys.stderr,
        )
    settings = WebSettings(
        max_body=args.max_body,
        max_nodes=args.max_nodes,
        max_step_nodes=args.max_step_nodes,
        max_mcts_iterations=args.max_mcts_iterations,
        max_seconds=args.max_seconds,
        max_searches=args.max_searches,
        max_memory=args.max_memory * 2**20,
        **({} if args.workers is None else {"workers": args.workers}),
    )
    # The workers start now, so a student's first request (the first engine move too)
    # finds plies loaded and its engine compiled: a second, more after an install.
    slow = threading.Timer(
        1.0, lambda: print("plies web lab: loading the engine...", file=sys.stderr, flush=True)
    )
    slow.start()
    try:
        app = create_app(settings, start=True)
    finally:
        slow.cancel()
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)

    def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.05)
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
        host = f"[{args.host}]" if ":" in args.host else args.host
        url = f"http://{host}:{port}/"
        print(f"plies web lab at {url} (Ctrl-C stops it)", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    finally:
        app.state.workers.close()  # the app's lifespan did, unless it never started
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on (an unknown
    host, a port in use) before uvicorn starts and reports it its own way."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise PliesError(f"cannot serve on {host!r}: {getattr(exc, 'strerror', exc)}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise PliesError(f"cannot serve on {host}:{port}: {exc.strerror}") from None
