"""The printable trace table of a search: one row per narrated step, with the node,
the event, the node's alpha, beta and value after the step (MAX's view), and the
reason for any cut-off. As Markdown (for reports) or CSV (for spreadsheets), written
row by row as the search is played back."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

from plies.draw._look import visible
from plies.draw._state import nice, reason_text, replay
from plies.trees import Backup, Enter, Evaluate, Event, Exit, Static, Tree, TreeResult

__all__ = [
    "COLUMNS",
    "TraceRow",
    "iter_trace_rows",
    "trace_csv",
    "trace_markdown",
    "trace_rows",
    "write_trace",
]

COLUMNS = ("step", "node", "event", "alpha", "beta", "value", "reason")


@dataclass(frozen=True, slots=True)
class TraceRow:
    """One step: ``event`` is ``enter``, ``evaluate``, ``static``, ``backup``,
    ``cutoff`` (a backup that pruned) or ``exit``; empty strings where not defined."""

    step: int
    node: str
    event: str
    alpha: str
    beta: str
    value: str
    reason: str

    def cells(self) -> tuple[str, ...]:
        """The row as strings, in :data:`COLUMNS` order."""
        return (
            str(self.step),
            self.node,
            self.event,
            self.alpha,
            self.beta,
            self.value,
            self.reason,
        )


def iter_trace_rows(result: TreeResult) -> Iterator[TraceRow]:
    """The rows of the trace table one at a time (needs the event trace): memory
    stays proportional to the tree, whatever the number of steps."""
    tree = result.tree
    negamax = result.options.algorithm == "negamax"
    for snap in replay(result):
        event = snap.event
        if event is None:
            continue  # before the search, and the end
        node = event.node
        name, reason = _event_name(tree, event, negamax)
        leaf = tree.kind[node] == "leaf"
        yield TraceRow(
            step=snap.step,
            node=visible(tree.name(node)),
            event=name,
            alpha="" if leaf else nice(snap.alpha[node]),
            beta="" if leaf else nice(snap.beta[node]),
            value=nice(snap.value[node]),
            reason=visible(reason),
        )


def _event_name(tree: Tree, event: Event, negamax: bool) -> tuple[str, str]:
    """The event column of a step, and its reason column."""
    if isinstance(event, Enter):
        return "enter", ""
    if isinstance(event, Evaluate):
        return "evaluate", ""
    if isinstance(event, Static):
        return "static", ""
    if isinstance(event, Exit):
        return "exit", ""
    assert isinstance(event, Backup)
    if event.cutoff is not None:
        pruned = ", ".join(tree.name(c) for c in event.cutoff.pruned)
        min_view = negamax and tree.kind[event.node] == "min"
        return "cutoff", f"{reason_text(event.cutoff, min_view=min_view)}: pruned {pruned}"
    if event.bound is not None:
        verb = "rises" if event.bound == "alpha" else "falls"
        bound = "α" if event.bound == "alpha" else "β"
        return "backup", f"{tree.name(event.child)} gives {nice(event.child_value)}; {bound} {verb}"
    return "backup", ""


def trace_rows(result: TreeResult) -> list[TraceRow]:
    """The rows of the trace table (needs the event trace)."""
    return list(iter_trace_rows(result))


def write_trace(out: TextIO, result: TreeResult, *, fmt: str = "md") -> None:
    """Write the trace table to ``out`` row by row, as Markdown (``md``) or CSV."""
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in iter_trace_rows(result):
            writer.writerow(row.cells())
        return
    out.write("| " + " | ".join(COLUMNS) + " |\n|" + "|".join("---" for _ in COLUMNS) + "|\n")
    for row in iter_trace_rows(result):
        out.write("| " + " | ".join(c.replace("|", "\\|") for c in row.cells()) + " |\n")


def trace_markdown(result: TreeResult) -> str:
    """The trace table as a GitHub-flavoured Markdown table."""
    buffer = io.StringIO()
    write_trace(buffer, result, fmt="md")
    return buffer.getvalue()


def trace_csv(result: TreeResult) -> str:
    """The trace table as CSV (RFC 4180, with a header row)."""
    buffer = io.StringIO()
    write_trace(buffer, result, fmt="csv")
    return buffer.getvalue()
