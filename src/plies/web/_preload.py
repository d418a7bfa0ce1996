"""What the fork server of the web lab's workers loads before it forks them: plies'
application layer and renderers, and the game room's compiled engine, warmed on
every game that has one (the first engine move after an install compiles the kernel:
3-18 s, paid here once when the server starts, not by a student's first move)."""

from __future__ import annotations

import contextlib

from plies._forkserver import ignore_sigint

ignore_sigint()  # first: the server started with SIGINT blocked, its workers ignore it

with contextlib.suppress(Exception):  # a worker then loads what it needs itself
    from plies.web._jobs import warm

    warm()
