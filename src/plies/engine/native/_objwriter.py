"""The object-cache writer: ``python -m plies.engine.native._objwriter JOBS``.

A process that loaded compiled code through Numba starts this, detached, as it exits
(:func:`plies.engine.native._objload.start_writer`), so that writing plies' object
cache (compiling each entry again: about 6 s for the kernel and a port) keeps no
command waiting. ``JOBS`` is a JSON list of ``[module, function, [arguments]]``: each
calls a function of a plies module that writes one cache
(:func:`plies.engine.native._objload.write_missing`, which skips a cache present or
being written by another writer). Any failure only leaves that cache unwritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

from plies.engine.native import _objload

__all__ = ["main", "run_jobs"]


def run_jobs(jobs: list[Any]) -> int:
    """Run each well-formed job of plies' own modules (:func:`._objload.run_job`);
    how many ran without error."""
    done = 0
    for job in jobs:
        try:
            module, function, arguments = job
            _objload.run_job((str(module), str(function), tuple(map(str, arguments))))
        except Exception:  # one cache left unwritten; the next may write it
            continue
        done += 1
    return done


def main(argv: list[str] | None = None) -> int:
    """Run the jobs of ``argv[0]`` (JSON) as a writer, at the lowest priority (the
    cache only saves later processes time: it should take none from the work running
    now); exit status 0 either way."""
    arguments = sys.argv[1:] if argv is None else argv
    _objload.become_writer()
    if argv is None:  # this process is the writer: yield the processors to the rest
        with contextlib.suppress(OSError, AttributeError):
            os.nice(19)
    try:
        jobs = json.loads(arguments[0]) if arguments else []
    except ValueError:
        return 0
    if isinstance(jobs, list):
        run_jobs(jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
