"""Trace tables of trees whose labels are hostile: a CSV no spreadsheet runs as
formulas, Markdown that shows the labels and formats, links and opens nothing."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from plies import draw
from plies.draw._trace import csv_cell, markdown_cell
from plies.trees import TreeResult, alphabeta, minimax, parse

#: Labels that are formulas to a spreadsheet or markup to Markdown.
HOSTILE = [
    '=HYPERLINK("http://x")',
    "+1+2",
    "@SUM(A1)",
    "-2+3",
    "a|b",
    "`code`",
    "<img src=x onerror=alert(1)>",
    "*bold* _it_ ~~s~~",
    "[link](http://x)",
    "# heading",
    "see www.example.com",
    "me@example.com",
    "a &amp; b",
    "back\\slash",
    "\uff1dSUM(A1)",
]


def _hostile_result() -> TreeResult:
    """A search that visits every node (so every node and reason cell) with a hostile
    label, and whose values are negative, so that numbers start with '-' too."""
    leaves = [{"label": label, "value": -k - 1} for k, label in enumerate(HOSTILE[2:])]
    middle = len(leaves) // 2
    tree = {
        "label": HOSTILE[0],
        "children": [
            {"label": HOSTILE[1], "children": leaves[:middle]},
            {"label": "-SUM(A1)", "children": leaves[middle:]},
        ],
    }
    return minimax(parse(json.dumps({"tree": tree})))  # every leaf evaluated


def test_csv_text_cells_never_start_a_formula() -> None:
    rows = list(csv.reader(io.StringIO(draw.trace_csv(_hostile_result()))))
    body = rows[1:]
    assert body and all(len(row) == 7 for row in body)
    formula = re.compile(r"[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]")
    for row in body:
        for column in (1, 2, 6):  # node, event, reason
            cell = row[column]
            assert not formula.match(cell) or re.fullmatch(r"-?\d+", cell), row
    nodes = {row[1] for row in body}
    assert {'\'=HYPERLINK("http://x")', "'+1+2", "'@SUM(A1)", "'-2+3", "a|b"} <= nodes
    assert "'\uff1dSUM(A1)" in nodes
    # The value columns are plies' numbers, negative ones included: still numbers.
    values = [row[5] for row in body if row[5]]
    assert "-3" in values and all(re.fullmatch(r"-?\d+", v) for v in values)
    alphas = {row[3] for row in body}
    assert "-∞" in alphas  # plies' own infinity, not a formula to neutralise


def test_csv_cell_keeps_numbers_and_plain_text() -> None:
    assert csv_cell("-3") == "-3" and csv_cell("+2.5") == "+2.5" and csv_cell("-1e3") == "-1e3"
    assert csv_cell("A") == "A" and csv_cell("a=b") == "a=b" and csv_cell("") == ""
    assert csv_cell("-2+3") == "'-2+3" and csv_cell("=1") == "'=1" and csv_cell("\r1") == "'\r1"


class _Cells(HTMLParser):
    """The cells of the one table of an HTML page, and every tag it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: set[str] = set()
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _rendered_cells(markdown: str) -> _Cells:
    """The trace table as a GitHub-flavoured renderer shows it (tables and
    strikethrough on, as GitHub has them)."""
    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)
    cells = _Cells()
    cells.feed(html)
    return cells


def test_markdown_shows_labels_as_text() -> None:
    """Rendered, every row has its seven cells (no '|' splits one), the node cells
    read exactly as the labels, and the page holds no tag but the table's own: no
    link, image, code, emphasis or HTML from a label."""
    every_node = _hostile_result()
    with_reasons = alphabeta(every_node.tree)  # its backups and cut-off name labels
    tables = {}
    for result in (every_node, with_reasons):
        table = _rendered_cells(draw.trace_markdown(result))
        assert len(table.rows) == len(draw.trace_rows(result)) + 1
        assert all(len(row) == 7 for row in table.rows)
        assert table.tags <= {"table", "thead", "tbody", "tr", "th", "td"}
        tables[result] = table.rows[1:]
    assert set(HOSTILE) <= {row[1] for row in tables[every_node]}
    reasons = [row[6] for row in tables[with_reasons] if row[6]]
    assert "a|b gives -3; β falls" in reasons
    pruned = "pruned # heading, see www.example.com, me@example.com, a &amp; b, back\\slash"
    assert any(pruned in reason for reason in reasons)


@pytest.mark.parametrize("label", [*HOSTILE, "two\nlines", "-", "_", "www.x.org http://y.org"])
def test_markdown_cell_renders_as_its_text(label: str) -> None:
    row = f"| h |\n|---|\n| {markdown_cell(label)} |\n"
    table = _rendered_cells(row)
    assert table.rows[1] == [label]
    assert table.tags <= {"table", "thead", "tbody", "tr", "th", "td", "br"}


def test_plain_labels_are_unchanged() -> None:
    """Ordinary trees keep their tables byte for byte (the golden files hold them)."""
    result = alphabeta(parse("A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"))
    for row in draw.trace_rows(result):
        assert markdown_cell(row.node) == row.node and csv_cell(row.reason) == row.reason
