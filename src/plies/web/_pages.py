"""The web lab's pages: plain HTML that loads the package's own script and style."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from plies import __version__
from plies.errors import PliesError
from plies.trees import ALGORITHMS, ORDERS

__all__ = [
    "PAGES",
    "SERVER",
    "Site",
    "lab_page",
    "navigation",
    "play_page",
    "practice_page",
    "prune_page",
]

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


@dataclass(frozen=True)
class Site:
    """Where the pages are served, which decides their links: ``root`` (the prefix of
    ``static/`` and ``api/``), ``pages`` (each page's name, link and title in the
    navigation bar, in its order) and ``runtime`` (``None`` when a server answers the
    API over HTTP; in the static site, what ``static/transport.js`` needs to run plies
    in the browser: the worker, Pyodide's URL, the wheel, the limits)."""

    root: str
    pages: tuple[tuple[str, str, str], ...]
    runtime: Mapping[str, Any] | None = None

    def link(self, name: str) -> str:
        """The link to page ``name`` (``lab``, ``practice``...)."""
        return next(href for page, href, _ in self.pages if page == name)

    def attributes(self) -> str:
        """The ``<html>`` element's data attributes that tell the scripts the links."""
        pages = {page: href for page, href, _ in self.pages}
        found = f' data-root="{escape(self.root)}" data-pages="{escape(json.dumps(pages))}"'
        if self.runtime is not None:
            found += f' data-runtime="{escape(json.dumps(self.runtime))}"'
        return found


#: The pages as ``plies serve`` serves them.
SERVER = Site(
    root="/",
    pages=(
        ("lab", "/", "Lab"),
        ("practice", "/practice", "Practice"),
        ("prune", "/prune", "Prune-and-search"),
        ("play", "/play", "Play"),
        ("api", "/api", "API"),
    ),
)

#: The pages in the navigation bar (``plies serve``'s): link and title.
PAGES = tuple((href, title) for _, href, title in SERVER.pages)


def navigation(here: str, site: Site = SERVER) -> str:
    """The links of the navigation bar, page ``here`` (a name: ``lab``, ``practice``...)
    marked as the current page."""
    current = ' aria-current="page"'
    return "".join(
        f'<a href="{escape(href)}"{current if name == here else ""}>{title}</a>'
        for name, href, title in site.pages
    )


def _page(title: str, here: str, script: str, main: str, site: Site) -> str:
    """A whole page: head, header with the navigation (``here`` is the current page's
    name), ``main`` and the page's own ``script`` from static/ (after the transport
    every page's script calls the API through)."""
    nav = navigation(here, site)
    static = f"{site.root}static"
    return f"""<!doctype html>
<html lang="en"{site.attributes()}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plies: {escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{static}/lab.css">
</head>
<body>
<header>
  <h1>plies <span>{escape(title)}</span></h1>
  <nav>{nav}</nav>
</header>
{main}
<footer>plies {escape(__version__)}</footer>
<script src="{static}/transport.js"></script>
<script src="{static}/{script}"></script>
</body>
</html>
"""


#: The iterations the lab's MCTS runs unless its box says otherwise.
MCTS_ITERATIONS = 500

#: The lab's Monte-Carlo tree search: a stepper through the iterations on the tree
#: drawn, each node's visits and mean value, and the root moves' table.
MCTS_SECTION = """<section id="mcts" data-testid="mcts" aria-labelledby="mcts-title" hidden>
  <h2 id="mcts-title">Monte-Carlo tree search, iteration by iteration</h2>
  <p id="mcts-summary" class="help" data-testid="mcts-summary"></p>
  <div class="mcts-stepper" role="group" aria-label="The iterations"
    aria-describedby="mcts-keys">
    <div class="buttons">
      <button type="button" data-step="start" title="before the first iteration (Home)"
        >« Start</button>
      <button type="button" data-step="back" title="previous iteration (←)">◀ Back</button>
      <button type="button" data-step="next" title="next iteration (→)">Next ▶</button>
      <button type="button" data-step="end" title="the last iteration shown (End)"
        >End »</button>
      <span id="mcts-position" class="prune-position" role="status"
        data-testid="mcts-position"></span>
    </div>
    <p id="mcts-keys" class="help keys-help">Keys: ← and → step, Home and End jump.</p>
    <p class="help mcts-legend"><span class="key-sel">green</span>: the selection path;
      <span class="key-exp">orange</span>: the node expanded; <span class="key-sim">dashed
      orange</span>: the random simulation to a leaf; grey: not yet in the search tree.
      Under a node, <em>n</em> is its visits; inside, its mean value.</p>
    <div id="mcts-drawing" class="mcts-drawing" data-testid="mcts-drawing" tabindex="0"
      role="region" aria-label="The tree: under each node its visits n, inside it its mean
      value"></div>
    <ol id="mcts-phases" class="mcts-phases" data-testid="mcts-phases"></ol>
  </div>
  <h3 id="mcts-moves-title">The root moves after every iteration</h3>
  <div class="mcts-table" tabindex="0" role="region" aria-labelledby="mcts-moves-title">
    <table id="mcts-moves" data-testid="mcts-moves"></table>
  </div>
  <p id="mcts-convergence" data-testid="mcts-convergence"></p>
</section>"""


def lab_page(site: Site = SERVER) -> str:
    """The tree lab (``/``): tree text, search options, stepper, value and downloads."""
    return _page(
        "the alpha-beta lab",
        "lab",
        "lab.js",
        f"""<main>
<section id="input" aria-label="Tree and options">
  <label for="tree">Tree <small>(brackets, labelled, JSON or a CS188 test file)</small></label>
  <textarea id="tree" spellcheck="false" rows="6"
    aria-describedby="parse-error">{EXAMPLE}</textarea>
  <p id="parse-error" role="alert" data-testid="parse-error"></p>
  <details id="editor-box">
    <summary>Edit on the drawing</summary>
    <p class="help" id="editor-help">Click a node to edit it; the text above follows.</p>
    <div id="editor-drawing" data-testid="editor-drawing"></div>
    <div id="editor" hidden>
      <p id="editor-title"></p>
      <label>Label <input id="edit-label"></label>
      <label id="edit-kind-row">Kind <select id="edit-kind">
        <option value="max">MAX</option><option value="min">MIN</option>
        <option value="chance">chance</option></select></label>
      <label id="edit-value-row">Value <input id="edit-value" inputmode="decimal"></label>
      <label id="edit-static-row">Static value e(n) <input id="edit-static"
        inputmode="decimal" placeholder="none"></label>
      <label id="edit-p-row">Probability <input id="edit-p" inputmode="decimal"></label>
      <button id="edit-add" type="button">Add a child</button>
      <button id="edit-remove" type="button">Remove</button>
    </div>
    <p id="editor-error" class="error" role="alert" data-testid="editor-error"></p>
  </details>
  <details id="game-box">
    <summary>Or a game position</summary>
    <label>Game and position <input id="game" placeholder="tictactoe:5 1 9"></label>
    <label>Depth <input id="game-depth" type="number" min="0" max="12" value="2"></label>
    <button id="load-game" type="button">Make its tree</button>
    <p id="game-error" class="error" role="alert" data-testid="game-error"></p>
  </details>
  <fieldset>
    <legend>Search</legend>
    <label>Algorithm <select id="algorithm"><option value="">default</option>
      {_options(ALGORITHMS)}<option value="mcts">MCTS</option></select></label>
    <label class="exact">Order <select id="order">{_options(ORDERS, _ORDER_HELP)}</select></label>
    <label>Seed <input id="seed" type="number" inputmode="numeric" placeholder="0"></label>
    <label>Root <select id="root">
      <option value="max">MAX</option><option value="min">MIN</option></select></label>
    <label class="mcts">Iterations <input id="iterations" type="number" min="1"
      max="100000" value="{MCTS_ITERATIONS}" inputmode="numeric"></label>
    <label class="mcts">Exploration c <input id="exploration" inputmode="decimal"
      placeholder="1.414 (√2)"></label>
    <label class="exact">Depth limit <input id="depth_limit" type="number" min="0"
      placeholder="none"></label>
    <label class="exact">Root window <input id="window" placeholder="-inf,inf"></label>
    <label class="exact">Leaf bounds <input id="bounds" placeholder="for Star1: LOW,HIGH"></label>
    <label class="check exact"><input id="strict" type="checkbox">
      prune only when strictly beyond the bound</label>
    <label class="check exact"><input id="fail_hard" type="checkbox"> fail-hard</label>
  </fieldset>
  <button id="run" type="button">Search</button>
</section>
<section id="output" aria-label="Search">
  <p id="stale-note" role="status" data-testid="stale-note"></p>
  <div id="summary" class="exact" aria-live="polite">
    <p>Value: <strong data-testid="value" id="value"></strong> <span id="bound"></span></p>
    <p>Principal variation: <span id="pv" data-testid="pv"></span></p>
    <p id="stats" data-testid="stats"></p>
    <ul id="notes"></ul>
  </div>
  <iframe id="stepper" class="exact" title="Step through the search"
    data-testid="stepper"></iframe>
  <p id="stepper-note" class="exact"></p>
  <div id="downloads" class="exact" aria-label="Downloads">
    <span>Download:</span>
    <button data-format="svg">SVG</button><button data-format="png">PNG</button>
    <button data-format="tex">TikZ</button><button data-format="dot">DOT</button>
    <button data-format="mmd">Mermaid</button><button data-format="html">HTML</button>
    <button data-format="md">trace (Markdown)</button><button data-format="csv">trace (CSV)</button>
  </div>
  <p id="download-error" class="error" role="alert" data-testid="download-error"></p>
  {MCTS_SECTION}
  <p><a id="share" href="{escape(site.link("lab"))}">Link to this search</a></p>
  <h2 id="compare-title" class="exact">Algorithms and orderings compared</h2>
  <div id="compare" class="exact" data-testid="compare" tabindex="0" role="region"
    aria-labelledby="compare-title"></div>
  <section id="complexity" aria-labelledby="complexity-title">
    <h2 id="complexity-title">The complexity picture</h2>
    <p class="help" id="complexity-help">Leaves and nodes of minimax and alpha-beta on
    uniform random trees of branching b, depth by depth, under best, worst, random and
    static ordering (averaged over the seeds), beside b<sup>d</sup> and the Knuth-Moore
    minimum. Filled in from the tree above: its most children of a node and its
    height.</p>
    <form id="complexity-form" aria-label="The complexity picture's trees">
      <label>b <input id="complexity-b" type="number" min="2" value="3"
        inputmode="numeric"></label>
      <label>Depths <input id="complexity-depths" value="1-6" spellcheck="false"></label>
      <label>Seeds <input id="complexity-seeds" type="number" min="1" value="10"
        inputmode="numeric"></label>
      <button id="complexity-draw" type="submit">Draw</button>
    </form>
    <p id="complexity-note" class="help" role="status" data-testid="complexity-note"></p>
    <p id="complexity-error" class="error" role="alert" data-testid="complexity-error"></p>
    <div id="complexity-chart" data-testid="complexity-chart"></div>
  </section>
</section>
</main>""",
        site,
    )


def practice_page(site: Site = SERVER) -> str:
    """The practice room (``/practice``): a random or given tree to answer on, by
    clicking its nodes and edges or in the form beside it, checked against the real
    search with feedback per node. The exercise's shape, difficulty and tie rule are
    in its link."""
    return _page(
        "practice alpha-beta",
        "practice",
        "practice.js",
        f"""<main>
<section id="input" aria-label="Exercise">
  <fieldset>
    <legend>Exercise</legend>
    <label>Branching <input id="branching" type="number" min="2" max="10" value="2"></label>
    <label>Depth <input id="depth" type="number" min="2" max="10" value="3"></label>
    <label>Values <input id="values" value="-9,9"></label>
    <label>Seed <input id="seed" type="number" min="0" placeholder="random"></label>
    <label>Root <select id="root">
      <option value="max">MAX</option><option value="min">MIN</option></select></label>
    <label>Cut-offs, at least <input id="cutoffs" type="number" min="0" max="100"
      value="1"></label>
    <label class="check"><input id="ragged" type="checkbox"> ragged</label>
    <label class="check"><input id="deep" type="checkbox">
      a deep cut-off (its bound from two or more levels up)</label>
    <label class="check"><input id="ties" type="checkbox">
      a tie that the rule decides</label>
    <label class="check"><input id="strict" type="checkbox">
      prune only when strictly beyond the bound</label>
  </fieldset>
  <button id="new" type="button">New exercise</button>
  <p class="help">New exercise uses the Seed box: empty, or unchanged since the
  exercise it made, it draws a fresh seed and shows it.</p>
  <p><a id="share" href="{escape(site.link("practice"))}">Link to this exercise</a></p>
  <h2>How to answer</h2>
  <p class="help">Run alpha-beta in your head, left to right. Click (or tap, or Tab
  to and press Enter) an inner node to type the value it backs up; click a leaf to
  mark it <em>pruned</em>, or an edge to mark the whole subtree below it pruned.
  Then <strong>Check</strong>. A blank box is unanswered, never right.</p>
  <label class="check"><input id="bounds" type="checkbox">
    also answer alpha and beta at each node (when it returns)</label>
</section>
<section id="output" aria-label="Your answer">
  <button id="drawing-size" type="button" aria-pressed="false" hidden>Actual size</button>
  <div id="drawing-wrap">
    <div id="drawing" data-testid="drawing"></div>
    <div id="node-editor" role="dialog" aria-labelledby="node-editor-title" hidden>
      <p id="node-editor-title"></p>
      <label>value <input id="pop-value" inputmode="decimal" autocomplete="off"></label>
      <label class="pop-bound">α <input id="pop-alpha" inputmode="decimal"
        autocomplete="off"></label>
      <label class="pop-bound">β <input id="pop-beta" inputmode="decimal"
        autocomplete="off"></label>
      <button id="pop-done" type="button">Done</button>
    </div>
  </div>
  <form id="answer" aria-label="Answer">
    <label id="root-answer"><span id="root-name">The root</span>
      <input id="answer-value" data-testid="answer-value" inputmode="decimal"
        placeholder="value"></label>
    <div id="answer-nodes"></div>
  </form>
  <button id="check" type="button">Check</button>
  <button id="solution" type="button">Show solution</button>
  <div id="verdict" role="status" data-testid="verdict"></div>
  <ul id="feedback" data-testid="feedback"></ul>
</section>
</main>""",
        site,
    )


#: The selection the prune-and-search page starts with.
SELECT_EXAMPLE = (
    "50 98 54 6 34 66 63 52 39 62 46 75 28 65 18 37 85 13 80 33 69 78 19 40 82 10 43 61 88 89 56"
)

#: The linear program the prune-and-search page starts with.
LP_EXAMPLE = """max 3x + 2y
x + y <= 4
x + 3y <= 6
2x - y <= 6
-x + 2y <= 5
x >= 0
y >= 0
"""


def _prune_part(
    prefix: str, title: str, *, help_text: str, field: str, example: str, options: str, count: int
) -> str:
    """One half of the prune-and-search page: its input (typed, or random from a
    seed), the Run buttons and the stepper through its rounds."""
    rows = example.count("\n") + 2 if "\n" in example else 3
    return f"""<section id="{prefix}" class="prune-part" aria-labelledby="{prefix}-title">
<h2 id="{prefix}-title">{title}</h2>
<div class="prune-input">
  <p class="help">{help_text}</p>
  <label for="{prefix}-text">{field}</label>
  <textarea id="{prefix}-text" rows="{rows}" spellcheck="false"
    aria-describedby="{prefix}-error">{escape(example)}</textarea>
  <fieldset>
    <legend>Options</legend>
    {options}
    <label>Random: how many <input id="{prefix}-count" type="number" min="1"
      value="{count}" inputmode="numeric"></label>
    <label>Seed <input id="{prefix}-seed" type="number" min="0" value="1"
      inputmode="numeric"></label>
  </fieldset>
  <button id="{prefix}-run" type="button" class="primary">Run</button>
  <button id="{prefix}-random" type="button">Random from the seed</button>
  <p id="{prefix}-error" class="error" role="alert" data-testid="{prefix}-error"></p>
</div>
<div class="prune-output" id="{prefix}-output" hidden>
  <p id="{prefix}-summary" class="prune-summary" data-testid="{prefix}-summary"></p>
  <div class="prune-stepper" role="group" aria-label="{title}: the rounds"
    aria-describedby="{prefix}-keys">
    <div class="buttons">
      <button type="button" data-step="start">Start</button>
      <button type="button" data-step="back">Back</button>
      <button type="button" data-step="next">Next</button>
      <button type="button" data-step="end">End</button>
      <span id="{prefix}-position" class="prune-position" role="status"
        data-testid="{prefix}-position"></span>
    </div>
    <p id="{prefix}-keys" class="help keys-help">Keys: ← and → step, Home and End jump.</p>
    <div id="{prefix}-drawing" class="prune-drawing" data-testid="{prefix}-drawing"
      tabindex="0" role="region" aria-label="{title}: the drawing of this round"></div>
    <ul id="{prefix}-narration" class="prune-narration" data-testid="{prefix}-narration"></ul>
  </div>
  <p id="{prefix}-recurrence" class="prune-recurrence" data-testid="{prefix}-recurrence"></p>
</div>
</section>"""


def prune_page(site: Site = SERVER) -> str:
    """Prune-and-search beyond games (``/prune``): selection (median of medians or a
    random pivot) and Megiddo's two-variable linear programming, on numbers or a
    program typed or drawn from a seed, stepped through round by round, each round
    narrated and drawn, with the recurrence T(n) = T(a n) + O(n) and the measured a."""
    methods = """<label>Method <select id="select-method">
      <option value="medians">median of medians</option>
      <option value="random">random pivot (seed)</option></select></label>
    <label>k, the rank sought <input id="select-k" type="number" min="1"
      placeholder="the median" inputmode="numeric"></label>"""
    selection = _prune_part(
        "select",
        "Selection: the k-th smallest",
        help_text="Each round picks a pivot, splits the numbers into smaller, equal and larger, "
        "and keeps only the part that holds the answer. Numbers are separated by spaces "
        "or commas (whole, decimal or fractions such as 1/3); at most 2,000.",
        field="Numbers",
        example=SELECT_EXAMPLE,
        options=methods,
        count=60,
    )
    program = _prune_part(
        "lp",
        "Linear programming in two variables (Megiddo)",
        help_text="The first line is <code>max</code> or <code>min</code> p x + q y; then one "
        "constraint a line, a x + b y &lt;= c or &gt;=. Each round pairs the constraints, "
        "tests the median crossing and discards one constraint of each pair the test "
        "decides; at most 400 constraints.",
        field="Program",
        example=LP_EXAMPLE,
        options="",
        count=12,
    )
    return _page(
        "prune-and-search",
        "prune",
        "prune.js",
        f"""<main id="prune-page">
<p class="help prune-intro">Alpha-beta prunes a game tree; the same paradigm solves other
problems in linear time: each round does O(n) work and throws away a fixed fraction of
the input, so the time is T(n) = T(a n) + O(n) with a &lt; 1, which sums to O(n).</p>
{selection}
{program}
</main>""",
        site,
    )


#: Games whose parameters the room does not offer (tic-tac-toe is the 3,3,3 m,n,k-game).
FIXED_GAMES = ("tictactoe",)


def _game_choices() -> dict[str, dict[str, Any]]:
    """Every built-in game with its summary, the parameters it takes, with their
    defaults, and its number of players with those (registry order)."""
    from plies.lab import GAMES

    return {
        entry.name: {
            "summary": entry.summary,
            "notation": entry.notation,
            "params": {} if entry.name in FIXED_GAMES else entry.parameter_defaults(),
            "players": _player_count(entry),
        }
        for entry in GAMES
    }


def _player_count(entry: Any) -> int:
    """How many players the game of registry row ``entry`` has with its default
    parameters (2 for a game that cannot be made here, chess without its extra)."""
    try:
        return int(entry.create().num_players)
    except PliesError:
        return 2


def play_page(site: Site = SERVER) -> str:
    """The game room (``/play``): a built-in game on a board against the engine or
    another person, with hints, undo, the engine's thinking live and positions to
    load and copy; chess and checkers are played by dragging a piece where it goes,
    or clicking it and then there (a chooser asks what a pawn becomes). Every cell
    of a board is a button named by where it is, what is on it and what it plays;
    the board is one stop for Tab, with the arrow keys between its cells."""
    games = _game_choices()
    options = "".join(f'<option value="{escape(name)}">{escape(name)}</option>' for name in games)
    return _page(
        "the game room",
        "play",
        "play.js",
        f"""<main id="room" data-games="{escape(json.dumps(games))}">
<section id="setup" aria-label="Game and players">
  <fieldset>
    <legend>Game</legend>
    <label>Game <select id="game" data-testid="game">{options}</select></label>
    <div id="params"></div>
    <p id="game-help" class="help"></p>
  </fieldset>
  <fieldset id="players">
    <legend>Players</legend>
    <label><span id="side0-name">X</span> <select id="side0" class="side" data-testid="side0">
      <option value="human">person</option><option value="engine">engine</option></select></label>
    <label><span id="side1-name">O</span> <select id="side1" class="side" data-testid="side1">
      <option value="human">person</option><option value="engine" selected>engine</option>
      </select></label>
    <label>Engine <select id="algorithm" data-testid="algorithm">
      <option value="">alpha-beta (PVS)</option>
      <option value="mcts">MCTS</option></select></label>
    <label>Strength <select id="limit-kind" data-testid="limit-kind">
      <option value="depth">depth (plies)</option>
      <option value="iterations">iterations</option>
      <option value="seconds">seconds</option></select></label>
    <label>&nbsp;<input id="strength" data-testid="strength" type="number" min="1"
      max="64" step="any" value="9" aria-label="Depth, iterations or seconds"></label>
  </fieldset>
  <details id="position-box">
    <summary>Position and export</summary>
    <label>Position <small>(the game's own notation)</small>
      <input id="position" data-testid="position" spellcheck="false"></label>
    <button id="load" type="button">Load</button>
    <button id="copy" type="button">Copy</button>
    <label>The game <small>(PGN for chess, PDN for checkers, else the moves)</small>
      <textarea id="export" data-testid="export" rows="6" readonly
      spellcheck="false"></textarea></label>
    <button id="copy-export" type="button">Copy the moves</button>
  </details>
</section>
<section id="table" aria-label="Board">
<div id="play-area">
  <div class="buttons">
    <button id="new" type="button" class="primary">New game</button>
    <button id="undo" type="button">Undo</button>
    <button id="hint" type="button">Hint</button>
    <button id="flip" type="button" aria-pressed="false">Flip</button>
    <button id="stop" type="button" disabled>Stop</button>
  </div>
  <p id="status" data-testid="status" aria-live="polite"></p>
  <p id="error" role="alert" data-testid="error"></p>
  <div id="board" data-testid="board" role="group" aria-label="The board"
    aria-describedby="board-help"></div>
  <p id="board-help" class="help" hidden></p>
  <div id="chooser" data-testid="chooser" role="group" aria-label="Promote the pawn to" hidden>
    <span>Promote to</span> <span id="chooser-pieces"></span>
    <button id="chooser-cancel" type="button">Cancel</button>
  </div>
  <pre id="board-text" data-testid="board-text" role="group" aria-label="The position"></pre>
  <div id="moves" data-testid="moves" role="group" aria-label="Legal moves"></div>
  <form id="move-form">
    <label>Move <input id="move-text" data-testid="move-text" spellcheck="false"
      autocomplete="off"></label>
    <button id="play" type="submit">Play</button>
  </form>
  <p><a id="show-search" data-testid="show-search" hidden>Show the search</a>
    <a id="share" href="/play">Link to this game</a></p>
</div>
<div id="panel">
  <h2>Engine</h2>
  <p id="engine-note" data-testid="engine-note"></p>
  <table id="analysis" data-testid="analysis">
    <thead><tr><th>depth</th><th>score</th><th>line</th><th>nodes</th><th>nps</th></tr></thead>
    <tbody></tbody>
  </table>
  <h2>Moves</h2>
  <ol id="history" data-testid="history"></ol>
</div>
</section>
</main>""",
        site,
    )
