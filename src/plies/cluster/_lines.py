"""Work items, line results and the serial runner (no Dask here)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from plies.errors import PliesError

__all__ = ["LineJob", "LineResult", "check_scheduler_address", "run_lines"]

#: A work item: the 1-based line number in the input and the line's text.
Item = tuple[int, str]


@dataclass(frozen=True, slots=True)
class LineResult:
    """What one line of a batch gave.

    ``output`` is the line written for it (without the newline), or None when the
    line writes nothing there (a bad line in a plain-text batch); ``error`` the message
    of a bad line (without ``error: line N:``), None when the line went well;
    ``differs`` says how an answer disagrees with the one the line expected;
    ``nodes`` and ``seconds`` are the search's work. ``abandoned``: stopped by Ctrl-C
    before it finished; such a result is never emitted.
    """

    number: int
    output: str | None = None
    error: str | None = None
    differs: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    abandoned: bool = False


class LineJob(Protocol):
    """A batch's work on one line: a pure function of the line, picklable (a frozen
    dataclass of options), so that a Dask worker can run it and give the same answer.

    ``warm()`` loads what every line needs (a game, a table, a compiled kernel) once per
    process; ``item_key``/``output_key`` name the item an output line belongs to, for
    ``--resume`` (:func:`plies.cluster.resume_items`).
    """

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """The result of one line; ``stop`` (serial runs) abandons it."""
        ...

    def warm(self) -> None:
        """Load what every line needs, once per process."""
        ...

    def item_key(self, number: int, text: str) -> str:
        """The key of a work item, equal to :meth:`output_key` of its output line."""
        ...

    def output_key(self, output: str) -> str:
        """The key of the item an output line answers."""
        ...


def run_lines(
    items: Sequence[Item],
    job: LineJob,
    *,
    emit: Callable[[LineResult], None],
    stop: threading.Event,
    workers: int | None = None,
    scheduler: str | None = None,
) -> None:
    """Run ``job`` on every item and ``emit`` the results in input order.

    Serially in this process when neither ``workers`` nor ``scheduler`` is given;
    else on a new local cluster of ``workers`` processes, or on the Dask scheduler at
    ``scheduler``. ``stop`` (set by Ctrl-C) ends the run early: the lines not emitted
    by then are left out, never half-written.
    """
    if workers is None and scheduler is None:
        for number, text in items:
            if stop.is_set():
                return
            result = job(number, text, stop)
            if result.abandoned:
                return
            emit(result)
        return
    from plies.cluster._dask import run_on_cluster

    run_on_cluster(items, job, emit=emit, stop=stop, workers=workers, scheduler=scheduler)


_ADDRESS = re.compile(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})")


def check_scheduler_address(address: str) -> str:
    """The Dask scheduler address ``address`` in full form (``tcp://host:port`` or
    ``tls://host:port``; a bare ``host:port`` is TCP), or a :class:`PliesError`.

    Only these two protocols and a plain host name or IP address are accepted: the
    address is typed on the command line by the person who runs plies, never read from a
    file or a request, since everything sent to a scheduler is unpickled by its workers.
    """
    match = _ADDRESS.fullmatch(address.strip())
    if match is None or not 0 < int(match[3]) < 65536:
        raise PliesError(
            f"expected a scheduler address tcp://HOST:PORT or tls://HOST:PORT, not {address!r}"
        )
    return f"{match[1] or 'tcp'}://{match[2]}:{match[3]}"
