// plies practice room: an exercise tree, the student's answer on it, and the check.
//
// The answer lives in the form beside the drawing (one box per inner node, a checkbox
// per leaf); the drawing is another way in: a click (tap, Enter or Space) on an inner
// node opens a small editor by it, on a leaf marks it pruned, on an edge marks the
// subtree below pruned. Typed values show on the drawing. Blank boxes are sent as
// unanswered: /api/check grades every part in full.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  // The exercise's settings, as /api/exercise and the link spell them.
  const SHAPE = ['branching', 'depth', 'values', 'seed', 'root', 'cutoffs'];
  const FLAGS = ['ragged', 'deep', 'ties'];
  let exercise = null;   // {tree, root, strict, settings: URLSearchParams, made: query text}
  let nodes = [];        // from /api/tree: {id, path, name, kind, leaf}
  let editing = null;    // the inner node whose editor is open
  const pruned = new Set();      // leaves marked pruned
  const cutEdges = new Set();    // nodes whose incoming edge is marked cut (a pruned subtree)

  async function post(path, body) {
    const response = await plies.fetch(path, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    return [response.ok, await answerOf(response)];
  }

  async function answerOf(response) {  // one that is not JSON (a proxy's page) as an error
    try {
      return await response.json();
    } catch (e) {
      return {error: 'the server answered ' + response.status + ' ' + response.statusText};
    }
  }

  function say(text, bad) {
    $('verdict').textContent = text;
    $('verdict').className = bad ? 'bad' : '';
  }

  // Settings, the link and the seed ------------------------------------------------------

  function query() {  // the exercise the boxes describe
    const q = new URLSearchParams();
    for (const name of SHAPE) if ($(name).value.trim() !== '') q.set(name, $(name).value.trim());
    for (const name of FLAGS) if ($(name).checked) q.set(name, '1');
    if ($('strict').checked) q.set('strict', '1');
    return q;
  }

  function settingsOf(doc) {  // the settings /api/exercise made an exercise with
    const q = new URLSearchParams({
      branching: doc.branching, depth: doc.depth, values: doc.low + ',' + doc.high,
      seed: doc.seed, root: doc.root, cutoffs: doc.cutoffs});
    for (const name of FLAGS) if (doc[name]) q.set(name, '1');
    return q;
  }

  function link() {  // every setting the exercise is graded by, and the tree itself
    const q = new URLSearchParams(exercise.settings);
    q.delete('strict');
    q.set('tree', exercise.tree);
    if (exercise.root !== 'max') q.set('root', exercise.root); else q.delete('root');
    if (exercise.strict) q.set('strict', '1');
    return q;
  }

  function showLink() {
    $('share').href = plies.page('practice') + '?' + link().toString();
    window.history.replaceState(null, '', $('share').href);
  }

  // Marking pruning ----------------------------------------------------------------------

  function toggle(id) {
    if (pruned.has(id)) pruned.delete(id); else pruned.add(id);
    const box = document.querySelector('input[data-leaf-node="' + id + '"]');
    if (box) box.checked = pruned.has(id);
    const group = $('n' + id);
    if (group) {
      group.classList.toggle('student-pruned', pruned.has(id));
      group.setAttribute('aria-pressed', String(pruned.has(id)));
    }
  }

  function under(root, id) {  // whether node id lies in root's subtree (paths are prefixes)
    const a = nodes[root].path, b = nodes[id].path;
    return a.length <= b.length && a.every((step, k) => step === b[k]);
  }

  function cutLeaves() {
    const leaves = new Set();
    for (const root of cutEdges) {
      for (const node of nodes) if (node.kind === 'leaf' && under(root, node.id)) leaves.add(node.id);
    }
    return leaves;
  }

  function toggleEdge(id) {
    if (cutEdges.has(id)) cutEdges.delete(id); else cutEdges.add(id);
    const cut = cutLeaves();
    for (const node of nodes) {
      const group = $('n' + node.id);
      const inside = [...cutEdges].some((root) => under(root, node.id));
      if (group) group.classList.toggle('student-cut', inside);
      const box = document.querySelector('input[data-leaf-node="' + node.id + '"]');
      if (box) box.disabled = cut.has(node.id);
    }
    const edge = $('e' + id);
    if (edge) {
      edge.classList.toggle('student-cut-edge', cutEdges.has(id));
      edge.setAttribute('aria-pressed', String(cutEdges.has(id)));
    }
  }

  // Values typed: the form's boxes, shown on the drawing ---------------------------------

  function box(part, id) {  // the form's box of a node's value, alpha or beta
    return document.querySelector('input[data-' + part + '="' + id + '"]');
  }

  function showTyped(id) {  // what the student typed at node id, on the drawing
    const group = $('n' + id);
    if (!group) return;
    const value = group.querySelector('.v');  // typed, else what the tree gives (e=3)
    if (value) value.textContent = box('node', id).value.trim() || value.dataset.given || '';
    const note = group.querySelector('.ab');
    if (note) {
      const alpha = box('alpha', id).value.trim(), beta = box('beta', id).value.trim();
      note.textContent = $('bounds').checked && (alpha || beta)
        ? 'α=' + (alpha || '?') + ' β=' + (beta || '?') : '';
    }
    group.setAttribute('aria-label', drawnText(group) + ': type its value');
  }

  function boundBoxes(label, node) {
    for (const bound of ['alpha', 'beta']) {
      const extra = document.createElement('input');
      extra.dataset[bound] = node.id;
      extra.className = 'bound-answer';
      extra.inputMode = 'decimal';
      extra.placeholder = bound === 'alpha' ? 'α' : 'β';
      extra.setAttribute('aria-label', bound + ' of ' + node.name + ' when it returns');
      extra.hidden = !$('bounds').checked;
      extra.addEventListener('input', () => showTyped(node.id));
      label.append(extra);
    }
  }

  function formRow(node) {
    const label = document.createElement('label');
    if (node.kind === 'leaf') {
      const tick = document.createElement('input');
      tick.type = 'checkbox';
      tick.dataset.leafNode = node.id;
      tick.addEventListener('change', () => toggle(node.id));
      label.append(tick, ' ' + node.name + ' pruned');
      label.className = 'check leaf-answer';
      return label;
    }
    const input = document.createElement('input');
    input.dataset.node = node.id;
    input.inputMode = 'decimal';
    input.placeholder = 'value';
    input.addEventListener('input', () => showTyped(node.id));
    label.append(node.name + ' (' + node.kind.toUpperCase() + ') ', input);
    boundBoxes(label, node);
    return label;
  }

  function rootRow(root) {  // the root's value box is in the page; its bounds join it
    const input = $('answer-value');
    input.value = '';
    input.dataset.node = '0';
    $('root-name').textContent = root.name + ' (' + root.kind.toUpperCase() + ', the root)';
    for (const old of $('root-answer').querySelectorAll('.bound-answer')) old.remove();
    if (root.kind === 'leaf') return;
    boundBoxes($('root-answer'), root);
  }

  // The editor by a node on the drawing --------------------------------------------------

  function openEditor(id) {
    closeEditor(false);
    const node = nodes[id];
    const group = $('n' + id);
    editing = id;
    group.classList.add('student-editing');
    $('node-editor-title').textContent = node.name + ' (' + node.kind.toUpperCase() + ')' +
      (id === 0 ? ', the root' : '');
    $('pop-value').value = box('node', id).value;
    for (const bound of ['alpha', 'beta']) {
      $('pop-' + bound).value = box(bound, id).value;
      $('pop-' + bound).parentElement.hidden = !$('bounds').checked;
    }
    $('node-editor').hidden = false;
    place();
    $('pop-value').focus();
    $('pop-value').select();
  }

  function place() {  // the editor just under its node, inside the drawing's width
    if (editing === null) return;
    const editor = $('node-editor');
    const wrap = $('drawing-wrap').getBoundingClientRect();
    const shape = $('n' + editing).getBoundingClientRect();
    const width = editor.offsetWidth;
    const left = Math.min(Math.max(0, shape.left - wrap.left + shape.width / 2 - width / 2),
                          Math.max(0, wrap.width - width));
    editor.style.left = left + 'px';
    editor.style.top = (shape.bottom - wrap.top + 4) + 'px';
  }

  function closeEditor(refocus) {
    if (editing === null) return;
    const group = $('n' + editing);
    $('node-editor').hidden = true;
    if (group) {
      group.classList.remove('student-editing');
      if (refocus) group.focus();
    }
    editing = null;
  }

  function copyFromEditor(part) {
    if (editing === null) return;
    box(part, editing).value = $('pop-' + (part === 'node' ? 'value' : part)).value;
    showTyped(editing);
  }

  $('pop-value').addEventListener('input', () => copyFromEditor('node'));
  $('pop-alpha').addEventListener('input', () => copyFromEditor('alpha'));
  $('pop-beta').addEventListener('input', () => copyFromEditor('beta'));
  $('pop-done').addEventListener('click', () => closeEditor(true));
  $('node-editor').addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || (e.key === 'Enter' && e.target.tagName === 'INPUT')) {
      e.preventDefault();
      closeEditor(true);
    }
  });
  document.addEventListener('pointerdown', (e) => {  // a click elsewhere closes it
    if (editing !== null && !$('node-editor').contains(e.target) &&
        !$('n' + editing).contains(e.target)) closeEditor(false);
  });
  $('drawing').addEventListener('scroll', place);  // a wide tree scrolls under it
  window.addEventListener('resize', fit);
  $('drawing-size').addEventListener('click', () => { actualSize = !actualSize; fit(); });

  // The drawing's nodes and edges as buttons ---------------------------------------------

  function drawnText(group) {  // a node's name and what it shows (its accessible name starts so)
    return [...group.querySelectorAll('text')].map((t) => t.textContent).filter(Boolean).join(' ');
  }

  function asButton(element, name, act) {
    element.setAttribute('role', 'button');
    element.setAttribute('tabindex', '0');
    element.setAttribute('aria-label', name);
    element.addEventListener('click', act);
    element.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(); }
    });
  }

  function wireDrawing() {
    for (const node of nodes) {
      const group = $('n' + node.id);
      // A space between a node's texts: its name and value read "C1 1", not "C11".
      for (const text of group ? group.querySelectorAll('text + text') : []) {
        text.before(document.createTextNode(' '));
      }
      if (group && node.kind === 'leaf') {
        asButton(group, drawnText(group) + ': mark pruned', () => toggle(node.id));
        group.setAttribute('aria-pressed', 'false');
      } else if (group) {
        asButton(group, drawnText(group) + ': type its value', () => openEditor(node.id));
        group.setAttribute('aria-haspopup', 'dialog');
      }
      const edge = node.id ? $('e' + node.id) : null;
      if (!edge) continue;
      const line = edge.querySelector('line');
      if (line) {  // a wide invisible twin of the line: a 1 px line is hard to click
        const hit = line.cloneNode();
        hit.setAttribute('class', 'hit');
        edge.insertBefore(hit, line);
      }
      asButton(edge, 'the edge into ' + node.name + ': mark its subtree pruned',
               () => toggleEdge(node.id));
      edge.setAttribute('aria-pressed', 'false');
    }
  }

  // The whole tree, scaled to its pane's width, by default; "Actual size" draws it at
  // its own size, where a wide tree scrolls sideways (names easier to read on a phone).
  let actualSize = false;

  function fit() {
    const svg = $('drawing').querySelector('svg');
    if (!svg) return;
    const natural = svg.width.baseVal.value;
    const room = $('drawing').clientWidth - 8;  // its padding
    const scale = actualSize ? 1 : Math.min(1, room / natural);
    svg.style.width = Math.round(natural * scale) + 'px';
    svg.style.height = 'auto';
    svg.style.maxWidth = 'none';
    const button = $('drawing-size');
    button.hidden = natural <= room;  // nothing to choose: the tree fits at its size
    button.setAttribute('aria-pressed', String(actualSize));
    place();
  }

  function showTree(doc) {
    closeEditor(false);
    nodes = doc.nodes;
    pruned.clear();
    cutEdges.clear();
    $('drawing').innerHTML = doc.svg;  // plies' own SVG: names are escaped server-side
    for (const text of $('drawing').querySelectorAll('g.node:not(.leaf) .v')) {
      text.dataset.given = text.textContent;
    }
    const form = $('answer-nodes');
    form.replaceChildren();
    rootRow(nodes[0]);
    for (const node of nodes) if (node.id !== 0) form.appendChild(formRow(node));
    wireDrawing();
    fit();
    showLink();
    $('feedback').replaceChildren();
    say('');
  }

  // Exercises ----------------------------------------------------------------------------

  async function load(tree, root, strict, settings) {
    exercise = {tree: tree, root: root, strict: strict, settings: settings,
                made: query().toString()};
    const [ok, doc] = await post('api/tree', {tree: tree, root: root});
    if (!ok) { say(doc.error, true); return; }
    showTree(doc);
  }

  async function fresh() {
    const q = query();
    // The exercise on screen again: the student asks for a new one, from a fresh seed.
    if (exercise && exercise.made === q.toString()) q.delete('seed');
    const response = await plies.fetch('api/exercise?' + q.toString());
    const doc = await answerOf(response);
    if (!response.ok) { say(doc.error, true); return; }
    $('seed').value = doc.seed;
    await load(doc.tree, doc.root, $('strict').checked, settingsOf(doc));
  }

  // Checking -----------------------------------------------------------------------------

  function answer() {  // every part in full: a blank box is sent as unanswered
    const result = {evaluated: [], values: {}, pruned: []};
    const root = $('answer-value').value.trim();
    if (root !== '') result.value = root;
    if ($('bounds').checked) { result.alpha = {}; result.beta = {}; }
    const cut = cutLeaves();
    for (const node of nodes) {
      const path = node.path.join('.');
      if (node.kind === 'leaf') {
        if (!pruned.has(node.id) && !cut.has(node.id)) result.evaluated.push(node.leaf);
        continue;
      }
      const typed = box('node', node.id).value.trim();
      if (node.id !== 0 && typed !== '') result.values[path] = typed;
      if (!$('bounds').checked) continue;
      for (const bound of ['alpha', 'beta']) {
        const value = box(bound, node.id).value.trim();
        if (value !== '') result[bound][path] = value;
      }
    }
    result.pruned = [...cutEdges].map((id) => nodes[id].path.join('.'));
    return result;
  }

  async function check() {
    closeEditor(false);
    for (const g of document.querySelectorAll('#drawing g.wrong')) g.classList.remove('wrong');
    const body = {tree: exercise.tree, root: exercise.root, answer: answer()};
    if (exercise.strict) body.strict = true;
    const [ok, doc] = await post('api/check', body);
    if (!ok) { say(doc.error, true); return; }
    const percent = Math.round(doc.score * 100);
    say(doc.correct ? 'All right: ' + doc.right + ' of ' + doc.checked + ' (100%).'
                    : doc.right + ' of ' + doc.checked + ' right (' + percent + '%).', !doc.correct);
    const list = $('feedback');
    list.replaceChildren();
    for (const item of doc.feedback) {
      const li = document.createElement('li');
      li.textContent = item.message;
      list.appendChild(li);
      const node = nodes.find((n) => n.path.join('.') === item.path.join('.'));
      if (node && $('n' + node.id)) $('n' + node.id).classList.add('wrong');
    }
  }

  $('bounds').addEventListener('change', () => {
    for (const extra of document.querySelectorAll('.bound-answer')) extra.hidden = !$('bounds').checked;
    for (const node of nodes) if (node.kind !== 'leaf') showTyped(node.id);
    if (editing !== null) openEditor(editing);
  });
  $('new').addEventListener('click', fresh);
  $('check').addEventListener('click', check);
  $('solution').addEventListener('click', () => {
    const q = new URLSearchParams({tree: exercise.tree, root: exercise.root});
    if (exercise.strict) q.set('strict', '1');
    window.location.href = plies.page('lab') + '?' + q.toString();
  });
  $('strict').addEventListener('change', () => {  // the rule the class is graded by
    if (!exercise) return;
    exercise.strict = $('strict').checked;
    showLink();
    $('feedback').replaceChildren();
    say('');
  });

  const q = new URLSearchParams(window.location.search);
  for (const name of SHAPE) if (q.has(name)) $(name).value = q.get(name);
  for (const name of FLAGS) $(name).checked = ['1', 'true'].includes(q.get(name));
  $('strict').checked = ['1', 'true'].includes(q.get('strict'));
  if (q.has('tree')) {
    const settings = new URLSearchParams(q);
    settings.delete('tree');
    load(q.get('tree'), q.get('root') || 'max', $('strict').checked, settings);
  } else {
    fresh();
  }
})();
