"""The printable trace table of a search: one row per narrated step, with the node,
the event, the node's alpha, beta and value after the step (MAX's view), and the
reason for any cut-off. As Markdown (for reports) or CSV (for spreadsheets)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from plies.draw._state import nice, reason_text
from plies.trees import Backup, Enter, Evaluate, Exit, Static, TreeResult
from plies.trees._format import narrated_events

__all__ = ["COLUMNS", "TraceRow", "trace_csv", "trace_markdown", "trace_rows"]

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


def trace_rows(result: TreeResult) -> list[TraceRow]:
    """The rows of the trace table (needs the event trace)."""
    from plies.draw._state import replay

    tree = result.tree
    snaps = list(replay(result))
    negamax = result.options.algorithm == "negamax"
    rows: list[TraceRow] = []
    for step, (event, _line) in enumerate(narrated_events(result), 1):
        snap = snaps[step]
        node = event.node
        reason = ""
        if isinstance(event, Enter):
            name = "enter"
        elif isinstance(event, Evaluate):
            name = "evaluate"
        elif isinstance(event, Static):
            name = "static"
        elif isinstance(event, Exit):
            name = "exit"
        else:
            assert isinstance(event, Backup)
            name = "backup"
            if event.cutoff is not None:
                name = "cutoff"
                pruned = ", ".join(tree.name(c) for c in event.cutoff.pruned)
                min_view = negamax and tree.kind[node] == "min"
                reason = f"{reason_text(event.cutoff, min_view=min_view)}: pruned {pruned}"
            elif event.bound is not None:
                verb = "rises" if event.bound == "alpha" else "falls"
                reason = (
                    f"{tree.name(event.child)} gives {nice(event.child_value)}; "
                    f"{'α' if event.bound == 'alpha' else 'β'} {verb}"
                )
        leaf = tree.kind[node] == "leaf"
        rows.append(
            TraceRow(
                step=step,
                node=tree.name(node),
                event=name,
                alpha="" if leaf else nice(snap.alpha[node]),
                beta="" if leaf else nice(snap.beta[node]),
                value=nice(snap.value[node]),
                reason=reason,
            )
        )
    return rows


def trace_markdown(result: TreeResult) -> str:
    """The trace table as a GitHub-flavoured Markdown table."""
    rows = [row.cells() for row in trace_rows(result)]
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    for cells in rows:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out) + "\n"


def trace_csv(result: TreeResult) -> str:
    """The trace table as CSV (RFC 4180, with a header row)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in trace_rows(result):
        writer.writerow(row.cells())
    return buffer.getvalue()
