"""A Griffe extension for the API reference: doctest examples shown as code.

plies' docstrings hold examples as doctests (``>>> trees.parse(...)``); Markdown would
read their ``>>>`` as quotes. Each run of doctest lines (up to a blank line) becomes a
``pycon`` code block. mkdocs.yml names this file under mkdocstrings' extensions.
"""

from __future__ import annotations

from typing import Any

import griffe


def fenced_doctests(text: str) -> str:
    """``text`` with each doctest (``>>>`` lines and their output) in a code fence."""
    out: list[str] = []
    in_doctest = False
    indent = ""
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if not in_doctest and starts:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_doctest = True
        elif in_doctest and not line.strip():
            out.append(f"{indent}```")
            in_doctest = False
        out.append(line)
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring Griffe loads."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        """Rewrite the object's docstring, if it has a doctest."""
        docstring = getattr(obj, "docstring", None)
        if docstring is not None and ">>>" in docstring.value:
            docstring.value = fenced_doctests(docstring.value)
