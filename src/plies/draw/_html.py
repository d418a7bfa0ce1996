"""The self-contained HTML stepper: one file, no network, no server.

The page holds the drawing as inline SVG (from :mod:`plies.draw._svg`) and, as JSON,
what changes at each step: node and edge classes and texts, the narration line and
the alpha/beta window of every node on the current path. A few lines of JavaScript
move between steps (buttons and the arrow, Home, End and space keys). Going back
replays the changes from step 0, which is instant even for thousands of steps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from html import escape

from plies.draw._changes import step_data
from plies.draw._look import visible
from plies.draw._state import Snapshot, final_snapshot, nice, replay
from plies.draw._svg import STYLE, size, svg_body
from plies.trees import Tree, TreeResult

__all__ = ["to_html"]

PAGE_STYLE = """
body { font: 15px/1.4 'DejaVu Sans', Arial, sans-serif; margin: 0; color: #222; }
header { padding: 10px 16px; border-bottom: 1px solid #ddd; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 8px 0; }
#controls button { font-size: 15px; padding: 4px 10px; margin-right: 4px; }
#counter { margin-left: 10px; font-weight: bold; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#drawing { flex: 1 1 auto; overflow: auto; border: 1px solid #eee; }
aside { flex: 0 0 340px; }
#line { font-size: 16px; background: #fff7d6; border-left: 4px solid #e8710a;
        padding: 8px 10px; min-height: 3em; }
#path { padding-left: 20px; font-family: 'DejaVu Sans Mono', monospace; font-size: 14px; }
#path li.current { font-weight: bold; color: #e8710a; }
.legend { font-size: 13px; color: #555; }
@media (max-width: 700px) {
  /* A phone: the narration above the drawing, both the full width (side by side
     the drawing was squeezed to nothing); the drawing scrolls sideways. */
  main { flex-direction: column; padding: 8px; gap: 8px; }
  aside { flex: none; width: 100%; order: -1; }
  #drawing { width: 100%; box-sizing: border-box; }
  #path { font-size: 12px; }
}
"""

SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById('plies-steps').textContent);
  const frames = data.frames;
  const last = frames.length - 1;
  let shown = 0;
  let timer = null;
  const initial = {nodes: {}, edges: {}};
  document.querySelectorAll('#drawing g.node').forEach(g => {
    initial.nodes[g.id.slice(1)] = [g.getAttribute('class'),
      g.querySelector('.v').textContent, g.querySelector('.ab').textContent];
  });
  document.querySelectorAll('#drawing g.edge').forEach(g => {
    initial.edges[g.id.slice(1)] = [g.getAttribute('class'), g.querySelector('text').textContent];
  });
  function stateAt(k) {
    const nodes = Object.assign({}, initial.nodes);
    const edges = Object.assign({}, initial.edges);
    for (let i = 1; i <= k; i++) {
      Object.assign(nodes, frames[i].nodes);
      Object.assign(edges, frames[i].edges);
    }
    return {nodes: nodes, edges: edges};
  }
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    // One step forward applies that step's changes; any other move replays from 0.
    const state = k === shown + 1 ? frames[k] : stateAt(k);
    for (const id in state.nodes) {
      const g = document.getElementById('n' + id);
      const [cls, value, note] = state.nodes[id];
      g.setAttribute('class', cls);
      g.querySelector('.v').textContent = value;
      g.querySelector('.ab').textContent = note;
    }
    for (const id in state.edges) {
      const g = document.getElementById('e' + id);
      g.setAttribute('class', state.edges[id][0]);
      g.querySelector('text').textContent = state.edges[id][1];
    }
    const frame = frames[k];
    document.getElementById('line').textContent = frame.line;
    document.getElementById('path-title').textContent =
      frame.current >= 0 || k === 0 ? 'Current path (\u03b1, \u03b2)' : 'Principal variation';
    document.getElementById('counter').textContent = 'Step ' + k + ' of ' + last;
    const path = document.getElementById('path');
    path.textContent = '';
    frame.path.forEach((row, i) => {
      const li = document.createElement('li');
      li.textContent = row;
      if (i === frame.path.length - 1 && frame.current >= 0) li.className = 'current';
      path.appendChild(li);
    });
    follow(frame.current >= 0 ? frame.current : 0);
    document.body.dataset.step = k;
    shown = k;
    if (k === last) stop();
  }
  function follow(id) {
    // A wide tree scrolls: bring the current node (else the root) into view.
    const box = document.getElementById('drawing').getBoundingClientRect();
    const node = document.getElementById('n' + id);
    const r = node.getBoundingClientRect();
    if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom) {
      node.scrollIntoView({block: 'nearest', inline: 'center'});
    }
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    document.getElementById('play').textContent = '\\u25B6 Play';
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (shown === last) show(0);
    document.getElementById('play').textContent = '\\u23F8 Pause';
    timer = setInterval(() => show(shown + 1), data.interval / speed());
  }
  function speed() {
    return Number(document.getElementById('speed').value) || 1;
  }
  document.getElementById('speed').onchange = () => {
    if (timer !== null) { stop(); play(); }
  };
  document.getElementById('start').onclick = () => { stop(); show(0); };
  document.getElementById('back').onclick = () => { stop(); show(shown - 1); };
  document.getElementById('next').onclick = () => { stop(); show(shown + 1); };
  document.getElementById('end').onclick = () => { stop(); show(last); };
  document.getElementById('play').onclick = play;
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowRight') { stop(); show(shown + 1); }
    else if (e.key === 'ArrowLeft') { stop(); show(shown - 1); }
    else if (e.key === 'Home') { stop(); show(0); }
    else if (e.key === 'End') { stop(); show(last); }
    else if (e.key === ' ') { e.preventDefault(); play(); }
  });
  show(data.start);
})();
"""


def to_html(
    tree: Tree,
    result: TreeResult | None = None,
    *,
    title: str = "plies: a game-tree search, step by step",
    interval_ms: int = 900,
    start_at_end: bool = False,
) -> str:
    """The stepper page for ``result`` (it needs the event trace); with no result,
    or a result without a trace, a page with one picture: before or after."""
    snaps = _snapshots(tree, result)
    first = next(snaps)
    svg_first = svg_body(tree, first if result is not None else None)
    # The steps are written as JSON one at a time: the page grows with nodes + steps.
    # JSON inside <script>: "</" must not close the element early.
    frames = [
        json.dumps(frame, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
        for frame in step_data(tree, _chain(first, snaps))
    ]
    start = len(frames) - 1 if start_at_end else 0
    payload = f'{{"frames":[{",".join(frames)}],"interval":{int(interval_ms)},"start":{start}}}'
    width, height = size(tree, None if result is None else final_snapshot(result))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><style>{STYLE}</style>{svg_first}</svg>'
    )
    summary = ""
    if result is not None:
        summary = (
            f'<p class="legend">{escape(result.options.algorithm)}: value '
            f"{escape(nice(result.value))}, {escape(result.summary())}. MAX ▲, MIN ▼, chance ●, "
            "leaves □ with their evaluation order #k; pruned parts dashed grey; the "
            "principal variation green at the end; the current node orange; nodes where a "
            "cut-off happened vermillion.</p>"
        )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(visible(title))}</title>
<style>{PAGE_STYLE}</style>
</head>
<body data-step="0">
<header>
<h1>{escape(visible(title))}</h1>
<div id="controls">
<button id="start" title="first step (Home)">« Start</button>
<button id="back" title="previous step (←)">◀ Back</button>
<button id="play" title="play or pause (space)">▶ Play</button>
<button id="next" title="next step (→)">Next ▶</button>
<button id="end" title="last step (End)">End »</button>
<label>speed <select id="speed" title="steps per second while playing">
<option value="0.5">½×</option><option value="1" selected>1×</option>
<option value="2">2×</option><option value="4">4×</option></select></label>
<span id="counter"></span>
</div>
{summary}
</header>
<main>
<div id="drawing" role="img"
  aria-label="the tree as the search leaves it at this step, narrated beside it">{svg}</div>
<aside>
<p id="line" aria-live="polite"></p>
<h2 id="path-title">Current path (α, β)</h2>
<ol id="path"></ol>
</aside>
</main>
<script type="application/json" id="plies-steps">{payload}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def _snapshots(tree: Tree, result: TreeResult | None) -> Iterator[Snapshot]:
    """The pictures of the page: every step of a traced search, else one picture."""
    if result is not None and result.events:
        yield from replay(result)
        return
    if result is not None:
        snap = final_snapshot(result)
        snap.line = f"Value {nice(result.value)}; {result.summary()}"
    else:
        snap = Snapshot.empty(len(tree))
        snap.line = "The tree before any search"
    yield snap


def _chain(first: Snapshot, rest: Iterator[Snapshot]) -> Iterator[Snapshot]:
    yield first
    yield from rest
