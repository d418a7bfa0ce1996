"""The self-contained HTML stepper: one file, no network, no server.

The page holds the drawing as inline SVG (from :mod:`plies.draw._svg`) and, as JSON,
what changes at each step: node and edge classes and texts, the narration line and
the alpha/beta window of every node on the current path. A few lines of JavaScript
move between steps (buttons and the arrow, Home, End and space keys). Going back
replays the changes from step 0, which is instant even for thousands of steps.

The drawing is scaled to fit its pane (the SVG's viewBox), so the whole tree shows at
once on a desktop and on a phone; big trees zoom and pan with the wheel, a drag, the
+ / - / 0 keys, the zoom buttons, and pinch and two-finger pan on a touch screen. The
narration sits beside the drawing, or below it on a narrow screen. Embedded in the
web lab (an iframe), the page leaves out its title and sizes the drawing to the lab's
window.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from html import escape
from typing import Any

from plies.draw._changes import step_data
from plies.draw._look import visible
from plies.draw._state import Snapshot, final_snapshot, nice, replay
from plies.draw._svg import STYLE, size, svg_body
from plies.trees import Tree, TreeResult

__all__ = ["json_in_html", "to_html"]

PAGE_STYLE = """
html, body { margin: 0; }
body { font: 15px/1.4 'DejaVu Sans', Arial, sans-serif; color: #222; }
header { padding: 8px 12px; border-bottom: 1px solid #ddd; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 8px 0; }
body.embedded h1 { display: none; }  /* the lab around it has its own title */
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; }
#controls button { font-size: 15px; padding: 4px 10px; }
#controls .zoom { display: flex; align-items: center; gap: 4px; }
#controls .zoom button { min-width: 2.2em; }
#counter { margin: 0 6px; font-weight: bold; }
main { display: flex; gap: 14px; padding: 10px 12px; align-items: flex-start; }
#drawing { flex: 1 1 auto; min-width: 0; overflow: hidden; border: 1px solid #ddd;
           border-radius: 4px; touch-action: pan-x pan-y; user-select: none;
           -webkit-user-select: none; }
#drawing.zoomed { touch-action: none; cursor: grab; }
#drawing.dragging { cursor: grabbing; }
#drawing:focus-visible { outline: 3px solid #e69f00; outline-offset: 1px; }
#drawing svg { display: block; width: 100%; height: 100%; }
aside { flex: 0 0 300px; min-width: 0; }
#line { font-size: 16px; background: #fff7d6; border-left: 4px solid #e8710a;
        padding: 8px 10px; margin: 0 0 8px; min-height: 3em; }
h2 { font-size: 16px; margin: 10px 0 4px; }
#path { padding-left: 2.2em; margin: 0; font-family: 'DejaVu Sans Mono', monospace;
        font-size: 14px; }
#path li.current { font-weight: bold; color: #a14b00; }
.legend { font-size: 13px; color: #555; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 700px) {
  /* A phone: the drawing the full width, the narration below it. */
  header { padding: 6px 8px; }
  #controls { gap: 4px; }
  #controls button { font-size: 14px; padding: 4px 7px; }
  #counter { margin: 0 2px; }
  main { flex-direction: column; align-items: stretch; padding: 6px 0; gap: 8px; }
  #drawing { border-left: 0; border-right: 0; border-radius: 0; }
  aside { flex: none; padding: 0 8px; }
  #path { font-size: 12px; }
}
"""

SCRIPT = """
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('plies-steps').textContent);
  const frames = data.frames;
  const last = frames.length - 1;
  const $ = (id) => document.getElementById(id);
  const pane = $('drawing');
  const svg = pane.querySelector('svg');
  let shown = 0;
  let timer = null;
  const initial = {nodes: {}, edges: {}};
  let embedded = null;
  try { embedded = window.frameElement; } catch (e) { embedded = null; }
  if (embedded) document.body.classList.add('embedded');
  pane.querySelectorAll('g.node').forEach(g => {
    initial.nodes[g.id.slice(1)] = [g.getAttribute('class'),
      g.querySelector('.v').textContent, g.querySelector('.ab').textContent];
  });
  pane.querySelectorAll('g.edge').forEach(g => {
    initial.edges[g.id.slice(1)] = [g.getAttribute('class'), g.querySelector('text').textContent];
  });

  // Steps
  function stateAt(k) {
    const nodes = Object.assign({}, initial.nodes);
    const edges = Object.assign({}, initial.edges);
    for (let i = 1; i <= k; i++) {
      Object.assign(nodes, frames[i].nodes);
      Object.assign(edges, frames[i].edges);
    }
    return {nodes: nodes, edges: edges};
  }
  function paint(state) {
    for (const id in state.nodes) {
      const g = $('n' + id);
      const [cls, value, note] = state.nodes[id];
      g.setAttribute('class', cls);
      g.querySelector('.v').textContent = value;
      g.querySelector('.ab').textContent = note;
    }
    for (const id in state.edges) {
      const g = $('e' + id);
      g.setAttribute('class', state.edges[id][0]);
      g.querySelector('text').textContent = state.edges[id][1];
    }
  }
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    // One step forward applies that step's changes; any other move replays from 0.
    paint(k === shown + 1 ? frames[k] : stateAt(k));
    const frame = frames[k];
    $('line').textContent = frame.line;
    $('path-title').textContent =
      frame.current >= 0 || k === 0 ? 'Current path (\\u03b1, \\u03b2)' : 'Principal variation';
    $('counter').textContent = 'Step ' + k + ' of ' + last;
    const path = $('path');
    path.textContent = '';
    frame.path.forEach((row, i) => {
      const li = document.createElement('li');
      li.textContent = row;
      if (i === frame.path.length - 1 && frame.current >= 0) li.className = 'current';
      path.appendChild(li);
    });
    if (view !== null) follow(frame.current >= 0 ? frame.current : 0);
    document.body.dataset.step = k;
    shown = k;
    if (k === last) stop();
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $('play').textContent = '\\u25B6 Play';
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (shown === last) show(0);
    $('play').textContent = '\\u23F8 Pause';
    timer = setInterval(() => show(shown + 1), data.interval / speed());
  }
  function speed() {
    return Number($('speed').value) || 1;
  }

  // The view: the part of the drawing in the pane, in the drawing's units, always
  // with the pane's proportions. Fitted, it holds the whole tree; zoomed in, it is
  // smaller and stays over the drawing.
  const PAD = 8;        // drawing units around the tree's own box
  const MAX_GROW = 1.25;  // a small tree is drawn at most this much larger than life
  let box = null;       // the tree's box: every node, edge and note at the first and last step
  let fitted = null;    // the view of the whole tree
  let view = null;      // the view shown

  function measure() {
    const union = (a, b) => {
      const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
      return {x: x, y: y, w: Math.max(a.x + a.w, b.x + b.w) - x,
              h: Math.max(a.y + a.h, b.y + b.h) - y};
    };
    const bbox = () => {
      const b = svg.getBBox();
      return {x: b.x, y: b.y, w: b.width, h: b.height};
    };
    paint(stateAt(last));
    let b = bbox();
    paint(stateAt(0));
    b = union(b, bbox());
    paint(stateAt(shown));
    if (b.w <= 0 || b.h <= 0) return null;  // not laid out (a hidden frame)
    return {x: b.x - PAD, y: b.y - PAD, w: b.w + 2 * PAD, h: b.h + 2 * PAD};
  }
  function room() {
    // The height the drawing may take: the window's (the lab's when embedded) less
    // the controls, so the controls, the tree and the narration beside it show at once.
    let outer = window.innerHeight;
    let above = 0;  // embedded: the lab's page above the frame (at most a third of its window)
    if (embedded) {
      try {
        outer = window.parent.innerHeight;
        above = embedded.getBoundingClientRect().top + window.parent.scrollY;
      } catch (e) { outer = 700; }
      above = Math.min(above, outer / 3);
    }
    const stacked = getComputedStyle(document.querySelector('main')).flexDirection === 'column';
    const header = $('controls').parentNode.offsetHeight;
    const reserved = stacked ? outer * 0.4 : above + header + 30;
    return Math.max(200, outer - reserved);
  }
  function paneHeight() {
    const natural = Math.min(pane.clientWidth * box.h / box.w, box.h * MAX_GROW);
    const limit = room();
    return Math.round(Math.min(limit, Math.max(natural, Math.min(160, limit))));
  }
  function fitView() {
    const scale = Math.min(pane.clientWidth / box.w, pane.clientHeight / box.h);
    const w = pane.clientWidth / scale, h = pane.clientHeight / scale;
    return {x: box.x - (w - box.w) / 2, y: box.y - (h - box.h) / 2, w: w, h: h};
  }
  function zoom() { return fitted.w / view.w; }
  function isZoomed() { return view !== null && zoom() > 1.001; }
  function maxZoom() {  // at most 3 pixels a unit: a node's 13 px type at 39 px
    return Math.max(4, 3 * fitted.w / pane.clientWidth);
  }
  function clamp(v) {
    // On each axis: centred where the view is larger than the tree, else over it.
    for (const [at, span] of [['x', 'w'], ['y', 'h']]) {
      if (v[span] >= box[span]) v[at] = box[at] - (v[span] - box[span]) / 2;
      else v[at] = Math.min(Math.max(v[at], box[at]), box[at] + box[span] - v[span]);
    }
    return v;
  }
  function apply() {
    svg.setAttribute('viewBox', [view.x, view.y, view.w, view.h].map(n => +n.toFixed(2)).join(' '));
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    const zoomed = isZoomed();
    pane.classList.toggle('zoomed', zoomed);
    pane.dataset.zoom = zoom().toFixed(3);
    $('zoom-out').disabled = !zoomed;
    $('zoom-fit').disabled = !zoomed;
    $('zoom-in').disabled = zoom() >= maxZoom() - 1e-6;
  }
  function layout() {
    // A pane with no width yet (a frame being resized or not laid out) has nothing to
    // fit into: the scale would be 0 and the viewBox NaN, which draws the tree
    // unscaled. The pane's resize observer lays it out once it has a width.
    if (pane.clientWidth <= 0) return;
    if (box === null) box = measure();
    if (box === null) return;
    const level = view === null ? 1 : zoom();
    const centre = view === null ? null : {x: view.x + view.w / 2, y: view.y + view.h / 2};
    pane.style.height = paneHeight() + 'px';
    fitted = fitView();
    if (level <= 1.001) view = Object.assign({}, fitted);
    else {
      const w = fitted.w / level, h = fitted.h / level;
      view = clamp({x: centre.x - w / 2, y: centre.y - h / 2, w: w, h: h});
    }
    apply();
  }
  function zoomAt(factor, px, py) {
    // Zoom by factor, keeping the drawing under the pane's point (px, py) in place.
    if (view === null) return;
    const level = Math.min(Math.max(zoom() * factor, 1), maxZoom());
    const w = fitted.w / level, h = fitted.h / level;
    const fx = px / pane.clientWidth, fy = py / pane.clientHeight;
    const ux = view.x + fx * view.w, uy = view.y + fy * view.h;
    view = level <= 1.001 ? Object.assign({}, fitted)
                          : clamp({x: ux - fx * w, y: uy - fy * h, w: w, h: h});
    apply();
  }
  function zoomCentre(factor) { zoomAt(factor, pane.clientWidth / 2, pane.clientHeight / 2); }
  function panBy(dx, dy) {  // pixels of the pane
    if (!isZoomed()) return;
    const unit = view.w / pane.clientWidth;
    view = clamp({x: view.x - dx * unit, y: view.y - dy * unit, w: view.w, h: view.h});
    apply();
  }
  function fit() {
    if (view === null) return;
    view = Object.assign({}, fitted);
    apply();
  }
  function follow(id) {
    // Zoomed in, bring the current node (else the root) into the view.
    if (!isZoomed()) return;
    const b = $('n' + id).getBBox();
    if (b.x >= view.x && b.x + b.width <= view.x + view.w &&
        b.y >= view.y && b.y + b.height <= view.y + view.h) return;
    view = clamp({x: b.x + b.width / 2 - view.w / 2, y: b.y + b.height / 2 - view.h / 2,
                  w: view.w, h: view.h});
    apply();
  }

  // Mouse, pen and touch: a drag pans (zoomed in), two fingers pinch and pan,
  // the wheel zooms (with ctrl, once the drawing is clicked, or once zoomed in).
  const pointers = new Map();
  let pinch = null;
  function local(e) {
    const r = pane.getBoundingClientRect();
    return {x: e.clientX - r.left - pane.clientLeft, y: e.clientY - r.top - pane.clientTop};
  }
  function twoFingers() {
    const [a, b] = [...pointers.values()];
    return {x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) || 1};
  }
  pane.addEventListener('pointerdown', e => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    pointers.set(e.pointerId, local(e));
    try { pane.setPointerCapture(e.pointerId); } catch (err) { /* already gone */ }
    if (pointers.size === 2) pinch = twoFingers();
    if (pointers.size === 1 && isZoomed()) pane.classList.add('dragging');
  });
  pane.addEventListener('pointermove', e => {
    const before = pointers.get(e.pointerId);
    if (before === undefined) return;
    const now = local(e);
    pointers.set(e.pointerId, now);
    if (pointers.size === 1) panBy(now.x - before.x, now.y - before.y);
    else if (pointers.size === 2 && pinch !== null) {
      const next = twoFingers();
      zoomAt(next.d / pinch.d, next.x, next.y);
      panBy(next.x - pinch.x, next.y - pinch.y);
      pinch = next;
    }
  });
  function lift(e) {
    pointers.delete(e.pointerId);
    pinch = pointers.size === 2 ? twoFingers() : null;
    if (pointers.size === 0) pane.classList.remove('dragging');
  }
  pane.addEventListener('pointerup', lift);
  pane.addEventListener('pointercancel', lift);
  pane.addEventListener('wheel', e => {
    const wanted = e.ctrlKey || isZoomed() || document.activeElement === pane;
    if (!wanted) return;  // the page scrolls on
    const outward = e.deltaY > 0;
    if (outward && !isZoomed() && !e.ctrlKey) return;  // nothing to zoom out of: scroll
    e.preventDefault();
    const p = local(e);
    const step = e.deltaMode === 1 ? 0.05 : e.deltaMode === 2 ? 1 : 0.002;
    zoomAt(Math.exp(-e.deltaY * step), p.x, p.y);
  }, {passive: false});

  // Buttons and keys
  $('speed').onchange = () => {
    if (timer !== null) { stop(); play(); }
  };
  $('start').onclick = () => { stop(); show(0); };
  $('back').onclick = () => { stop(); show(shown - 1); };
  $('next').onclick = () => { stop(); show(shown + 1); };
  $('end').onclick = () => { stop(); show(last); };
  $('play').onclick = play;
  $('zoom-in').onclick = () => zoomCentre(1.5);
  $('zoom-out').onclick = () => zoomCentre(1 / 1.5);
  $('zoom-fit').onclick = fit;
  const STEP_KEYS = {
    ArrowRight: () => show(shown + 1), ArrowLeft: () => show(shown - 1),
    Home: () => show(0), End: () => show(last),
  };
  const ZOOM_KEYS = {
    '+': () => zoomCentre(1.5), '=': () => zoomCentre(1.5),
    '-': () => zoomCentre(1 / 1.5), '_': () => zoomCentre(1 / 1.5), '0': fit,
  };
  const PAN_KEYS = {
    ArrowRight: [-60, 0], ArrowLeft: [60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60],
  };
  document.addEventListener('keydown', e => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target instanceof Element ? e.target : document.body;
    // A field or a list keeps its own keys (arrows change the speed, not the step).
    if (target.closest('input, select, textarea, [contenteditable]')) return;
    const onControl = target.closest('button, a[href], summary') !== null;
    if (e.key === ' ') {
      if (onControl) return;  // space presses the focused button
      e.preventDefault();
      play();
    } else if (e.shiftKey && e.key in PAN_KEYS) {
      e.preventDefault();
      panBy(...PAN_KEYS[e.key]);
    } else if (e.key in STEP_KEYS) {
      e.preventDefault();
      stop();
      STEP_KEYS[e.key]();
    } else if (e.key in ZOOM_KEYS) {
      e.preventDefault();
      ZOOM_KEYS[e.key]();
    }
  });
  window.addEventListener('resize', layout);
  // The pane's width can change without the window's (the lab's frame, a scroll bar):
  // lay out again when it does (its height is layout's own doing).
  let laidWidth = -1;
  new ResizeObserver(() => {
    if (pane.clientWidth === laidWidth) return;
    laidWidth = pane.clientWidth;
    layout();
  }).observe(pane);
  show(data.start);
  layout();
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
    frames = [json_in_html(frame) for frame in step_data(tree, _chain(first, snaps))]
    start = len(frames) - 1 if start_at_end else 0
    payload = f'{{"frames":[{",".join(frames)}],"interval":{int(interval_ms)},"start":{start}}}'
    width, height = size(tree, None if result is None else final_snapshot(result))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><style>{STYLE}</style>{svg_first}</svg>'
    )
    heading = escape(visible(title))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading}</title>
<style>{PAGE_STYLE}</style>
</head>
<body data-step="0">
<header>
<h1>{heading}</h1>
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
<span class="zoom" role="group" aria-label="Zoom">
<button id="zoom-out" title="zoom out (-)" disabled><span aria-hidden="true">−</span><span
 class="sr">Zoom out</span></button>
<button id="zoom-in" title="zoom in (+): then drag, or shift and the arrow keys, to move"><span
 aria-hidden="true">+</span><span class="sr">Zoom in</span></button>
<button id="zoom-fit" title="the whole tree (0)" disabled>Fit</button>
</span>
</div>
</header>
<main>
<div id="drawing" tabindex="0" role="group" aria-label="The tree at this step. Plus and minus
 zoom, 0 shows the whole tree; drag or shift and the arrow keys move a zoomed drawing.">{svg}</div>
<aside>
<p id="line" aria-live="polite"></p>
<h2 id="path-title">Current path (α, β)</h2>
<ol id="path"></ol>
{_legend(result)}
</aside>
</main>
<script type="application/json" id="plies-steps">{payload}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def json_in_html(value: Any) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>`` element.

    JSON escapes only what JavaScript needs; inside ``<script>``, ``</script`` ends
    the element early and ``<!--<script>`` makes the next ``</script>`` not end it.
    Every ``<``, ``>`` and ``&`` is written as its ``\\u`` escape (so no tag, comment
    or character reference can start), and so are U+2028 and U+2029 (line breaks to
    older JavaScript). ``JSON.parse`` reads back the same value."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_JSON_IN_HTML)


_JSON_IN_HTML = {ord(ch): f"\\u{ord(ch):04x}" for ch in "<>&\u2028\u2029"}


def _legend(result: TreeResult | None) -> str:
    """The search's summary and how to read the drawing (nothing before a search)."""
    if result is None:
        return ""
    return (
        f'<p class="legend">{escape(result.options.algorithm)}: value '
        f"{escape(nice(result.value))}, {escape(result.summary())}. MAX ▲, MIN ▼, chance ●, "
        "leaves □ with their evaluation order #k; pruned parts dashed grey; the "
        "principal variation green at the end; the current node orange; nodes where a "
        "cut-off happened vermillion.</p>"
    )


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
