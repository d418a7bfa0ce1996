"""The printable trace table of a search: one row per narrated step, with the node,
the event, the node's alpha, beta and value after the step (MAX's view), and the
reason for any cut-off. As Markdown (for reports) or CSV (for spreadsheets), written
row by row as the search is played back.

Labels are whatever the tree's author wrote, so the text cells (node, event, reason)
are made inert on the way out: in CSV a cell a spreadsheet would read as a formula
(starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and not a plain
number) gets a leading ``'``, as OWASP advises; in Markdown every character that would
format, link or open HTML is escaped. The value columns are plies' own numbers
(``-3``, ``-∞``) and stay as they are, numbers to a spreadsheet."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from plies.draw._look import visible
from plies.draw._state import nice, reason_text, replay
from plies.trees import Backup, Enter, Evaluate, Event, Exit, Static, Tree, TreeResult

__all__ = [
    "COLUMNS",
    "TraceRow",
    "csv_cell",
    "iter_trace_rows",
    "markdown_cell",
    "trace_csv",
    "trace_markdown",
    "trace_rows",
    "write_trace",
]

COLUMNS = ("step", "node", "event", "alpha", "beta", "value", "reason")
#: The columns holding text (labels, names, narration); the others hold numbers.
TEXT_COLUMNS = frozenset({1, 2, 6})


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


#: What a spreadsheet reads as the start of a formula (the full-width forms too, which
#: some spreadsheets take for the ASCII ones).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one it would read as a formula gets a
    leading ``'`` (a plain number such as ``-2`` stays as it is)."""
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


#: Characters that format, link or open HTML in GitHub-flavoured Markdown, escaped with
#: a backslash (any ASCII punctuation may be): emphasis, code, links, tables, entities,
#: e-mail addresses.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&@])")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: The starts of the links GitHub makes from bare text (``www.``, ``http://``).
_AUTOLINK = re.compile(r"(?i)(www)\.|://")


def markdown_cell(text: str) -> str:
    """A text cell of a Markdown table that shows its characters and nothing else: no
    emphasis, code, link, HTML or column break, line breaks as ``<br>``."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    text = _AUTOLINK.sub(lambda m: f"{m[1]}\\." if m[1] else ":\\/\\/", text)
    if text.startswith(("#", "+", "-", "=")):
        text = "\\" + text  # a heading, a list or a rule if the cell is ever a line
    return _LINE_BREAK.sub("<br>", text)


def _cells(row: TraceRow, escape: Callable[[str], str]) -> list[str]:
    """The row's cells, its text cells through ``escape``."""
    return [escape(c) if i in TEXT_COLUMNS else c for i, c in enumerate(row.cells())]


def write_trace(out: TextIO, result: TreeResult, *, fmt: str = "md") -> None:
    """Write the trace table to ``out`` row by row, as Markdown (``md``) or CSV, its
    text cells made inert (see the module's docstring)."""
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in iter_trace_rows(result):
            writer.writerow(_cells(row, csv_cell))
        return
    out.write("| " + " | ".join(COLUMNS) + " |\n|" + "|".join("---" for _ in COLUMNS) + "|\n")
    for row in iter_trace_rows(result):
        out.write("| " + " | ".join(_cells(row, markdown_cell)) + " |\n")


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
