"""``--resume``: which work items an interrupted batch still has to run."""

from __future__ import annotations

from collections.abc import Sequence

from plies.cluster._lines import Item, LineJob
from plies.errors import PliesError

__all__ = ["resume_items"]


def resume_items(items: Sequence[Item], done: Sequence[str], job: LineJob) -> list[Item]:
    """The items of ``items`` still to run, given ``done``, the output lines an earlier
    run of the same batch wrote (complete lines only).

    Output lines come in input order and a line is written only once every line before
    it is answered, so each output line matches the next item with its key
    (:meth:`LineJob.output_key`); items skipped on the way wrote no output (bad lines
    of a plain-text batch) and were answered too. The rest is still to run. An output
    line that matches no item means the file is not from this batch: a
    :class:`PliesError`.
    """
    index = 0
    for row, output in enumerate(done, start=1):
        key = job.output_key(output)
        while index < len(items) and job.item_key(*items[index]) != key:
            index += 1
        if index == len(items):
            raise PliesError(
                f"cannot resume: output line {row} ({output[:60]!r}) answers no line of "
                "the batch after the ones before it (another batch's output?)"
            )
        index += 1
    return list(items[index:])
