"""The web lab's pages: plain HTML that loads the package's own script and style."""

from __future__ import annotations

from html import escape

from plies import __version__
from plies.trees import ALGORITHMS, ORDERS

__all__ = ["lab_page"]

EXAMPLE = "[[3,12,8],[2,4,6],[14,5,2]]"

_ORDER_HELP = {
    "given": "as given",
    "best": "best first",
    "worst": "worst first",
    "random": "random (seed)",
    "static": "by static values",
}


def _options(values: tuple[str, ...], labels: dict[str, str] | None = None) -> str:
    return "".join(
        f'<option value="{escape(v)}">{escape((labels or {}).get(v, v))}</option>' for v in values
    )


def lab_page() -> str:
    """The tree lab (``/``): tree text, search options, stepper, value and downloads."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plies: the alpha-beta lab</title>
<link rel="stylesheet" href="/static/lab.css">
</head>
<body>
<header>
  <h1>plies <span>the alpha-beta lab</span></h1>
  <nav><a href="/" aria-current="page">Lab</a></nav>
</header>
<main>
<section id="input" aria-label="Tree and options">
  <label for="tree">Tree <small>(brackets, labelled, JSON or a CS188 test file)</small></label>
  <textarea id="tree" spellcheck="false" rows="6"
    aria-describedby="parse-error">{EXAMPLE}</textarea>
  <p id="parse-error" role="alert" data-testid="parse-error"></p>
  <fieldset>
    <legend>Search</legend>
    <label>Algorithm <select id="algorithm"><option value="">default</option>
      {_options(ALGORITHMS)}</select></label>
    <label>Order <select id="order">{_options(ORDERS, _ORDER_HELP)}</select></label>
    <label>Seed <input id="seed" type="number" inputmode="numeric" placeholder="0"></label>
    <label>Root <select id="root">
      <option value="max">MAX</option><option value="min">MIN</option></select></label>
    <label>Depth limit <input id="depth_limit" type="number" min="0" placeholder="none"></label>
    <label>Root window <input id="window" placeholder="-inf,inf"></label>
    <label>Leaf bounds <input id="bounds" placeholder="for Star1: LOW,HIGH"></label>
    <label class="check"><input id="strict" type="checkbox">
      prune only when strictly beyond the bound</label>
    <label class="check"><input id="fail_hard" type="checkbox"> fail-hard</label>
  </fieldset>
  <button id="run" type="button">Search</button>
</section>
<section id="output" aria-label="Search">
  <div id="summary" aria-live="polite">
    <p>Value: <strong data-testid="value" id="value"></strong> <span id="bound"></span></p>
    <p>Principal variation: <span id="pv" data-testid="pv"></span></p>
    <p id="stats" data-testid="stats"></p>
    <ul id="notes"></ul>
  </div>
  <iframe id="stepper" title="Step through the search" data-testid="stepper"></iframe>
  <p id="stepper-note"></p>
  <div id="downloads" aria-label="Downloads">
    <span>Download:</span>
    <button data-format="svg">SVG</button><button data-format="png">PNG</button>
    <button data-format="tex">TikZ</button><button data-format="dot">DOT</button>
    <button data-format="mmd">Mermaid</button><button data-format="html">HTML</button>
    <button data-format="md">trace (Markdown)</button><button data-format="csv">trace (CSV)</button>
  </div>
  <p><a id="share" href="/">Link to this search</a></p>
  <h2>Algorithms and orderings compared</h2>
  <div id="compare" data-testid="compare"></div>
</section>
</main>
<footer>plies {escape(__version__)}</footer>
<script src="/static/lab.js"></script>
</body>
</html>
"""
