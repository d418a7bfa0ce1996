// plies practice room: an exercise tree, the student's answer on it, and the check.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const SHAPE = ['branching', 'depth', 'values', 'seed', 'root'];
  let exercise = null;   // {tree, root, strict}
  let nodes = [];        // from /api/tree
  const pruned = new Set();      // leaves marked pruned
  const cutEdges = new Set();    // nodes whose incoming edge is marked cut (a pruned subtree)

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    return [response.ok, await response.json()];
  }

  function say(text, bad) {
    $('verdict').textContent = text;
    $('verdict').className = bad ? 'bad' : '';
  }

  function query() {
    const q = new URLSearchParams();
    for (const name of SHAPE) if ($(name).value.trim() !== '') q.set(name, $(name).value.trim());
    if ($('ragged').checked) q.set('ragged', '1');
    return q;
  }

  function link() {
    const q = new URLSearchParams({tree: exercise.tree});
    if (exercise.root !== 'max') q.set('root', exercise.root);
    if (exercise.strict) q.set('strict', '1');
    return q;
  }

  function toggle(id) {
    if (pruned.has(id)) pruned.delete(id); else pruned.add(id);
    const box = document.querySelector('input[data-leaf-node="' + id + '"]');
    if (box) box.checked = pruned.has(id);
    const group = $('n' + id);
    if (group) group.classList.toggle('student-pruned', pruned.has(id));
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
    if (edge) edge.classList.toggle('student-cut-edge', cutEdges.has(id));
  }

  function showTree(doc) {
    nodes = doc.nodes;
    pruned.clear();
    cutEdges.clear();
    $('drawing').innerHTML = doc.svg;  // plies' own SVG: labels are escaped server-side
    const form = $('answer-nodes');
    form.replaceChildren();
    for (const node of nodes) {
      if (node.id === 0 && node.kind !== 'leaf') continue;  // the root value has its own box
      const label = document.createElement('label');
      if (node.kind === 'leaf') {
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.dataset.leafNode = node.id;
        box.addEventListener('change', () => toggle(node.id));
        label.append(box, ' ' + node.name + ' pruned');
        label.className = 'check leaf-answer';
        const group = $('n' + node.id);
        if (group) {
          group.setAttribute('role', 'button');
          group.setAttribute('tabindex', '0');
          group.setAttribute('aria-label', node.name + ': mark pruned');
          group.addEventListener('click', () => toggle(node.id));
          group.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(node.id); }
          });
        }
      } else {
        const input = document.createElement('input');
        input.dataset.node = node.id;
        input.inputMode = 'decimal';
        input.placeholder = 'value (blank if pruned)';
        input.addEventListener('input', () => {
          const text = $('n' + node.id) && $('n' + node.id).querySelector('.v');
          if (text) text.textContent = input.value;
        });
        label.append(node.name + ' (' + node.kind.toUpperCase() + ') ', input);
        for (const bound of ['alpha', 'beta']) {
          const extra = document.createElement('input');
          extra.dataset[bound] = node.id;
          extra.className = 'bound-answer';
          extra.placeholder = bound === 'alpha' ? 'α' : 'β';
          extra.setAttribute('aria-label', bound + ' of ' + node.name + ' when it returns');
          extra.hidden = !$('bounds').checked;
          label.append(extra);
        }
      }
      form.appendChild(label);
    }
    for (const node of nodes) {
      const edge = node.id ? $('e' + node.id) : null;
      if (!edge) continue;
      const line = edge.querySelector('line');
      if (line) {  // a wide invisible twin of the line: a 1 px line is hard to click
        const hit = line.cloneNode();
        hit.setAttribute('class', 'hit');
        edge.insertBefore(hit, line);
      }
      edge.setAttribute('role', 'button');
      edge.setAttribute('tabindex', '0');
      edge.setAttribute('aria-label', 'the edge into ' + node.name + ': mark its subtree pruned');
      edge.addEventListener('click', () => toggleEdge(node.id));
      edge.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggleEdge(node.id); }
      });
    }
    $('share').href = '/practice?' + link().toString();
    window.history.replaceState(null, '', $('share').href);
    $('feedback').replaceChildren();
    say('');
  }

  async function load(tree, root, strict) {
    exercise = {tree: tree, root: root, strict: strict};
    const [ok, doc] = await post('/api/tree', {tree: tree, root: root});
    if (!ok) { say(doc.error, true); return; }
    showTree(doc);
  }

  async function fresh() {
    const response = await fetch('/api/exercise?' + query().toString());
    const doc = await response.json();
    if (!response.ok) { say(doc.error, true); return; }
    $('seed').value = doc.seed;
    await load(doc.tree, doc.root, $('strict').checked);
  }

  function answer() {
    const result = {evaluated: [], values: {}};
    const root = $('answer-value').value.trim();
    if (root !== '') result.value = root;
    const cut = cutLeaves();
    for (const node of nodes) {
      const path = node.path.join('.');
      if (node.kind === 'leaf') {
        if (!pruned.has(node.id) && !cut.has(node.id)) result.evaluated.push(node.leaf);
        continue;
      }
      const typed = node.id === 0 ? '' :
        document.querySelector('input[data-node="' + node.id + '"]').value.trim();
      if (typed !== '') result.values[path] = typed;
      if (!$('bounds').checked || node.id === 0) continue;
      for (const bound of ['alpha', 'beta']) {
        const box = document.querySelector('input[data-' + bound + '="' + node.id + '"]');
        if (box && box.value.trim() !== '') {
          result[bound] = result[bound] || {};
          result[bound][path] = box.value.trim();
        }
      }
    }
    if (cutEdges.size) result.pruned = [...cutEdges].map((id) => nodes[id].path.join('.'));
    return result;
  }

  async function check() {
    for (const g of document.querySelectorAll('#drawing g.wrong')) g.classList.remove('wrong');
    const body = {tree: exercise.tree, root: exercise.root, answer: answer()};
    if (exercise.strict) body.strict = true;
    const [ok, doc] = await post('/api/check', body);
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
    for (const box of document.querySelectorAll('.bound-answer')) box.hidden = !$('bounds').checked;
  });
  $('new').addEventListener('click', () => { $('seed').value = ''; fresh(); });
  $('check').addEventListener('click', check);
  $('solution').addEventListener('click', () => { window.location.href = '/?' + link().toString(); });
  $('strict').addEventListener('change', () => { if (exercise) exercise.strict = $('strict').checked; });

  const q = new URLSearchParams(window.location.search);
  for (const name of SHAPE) if (q.has(name)) $(name).value = q.get(name);
  $('ragged').checked = q.get('ragged') === '1';
  $('strict').checked = ['1', 'true'].includes(q.get('strict'));
  if (q.has('tree')) load(q.get('tree'), q.get('root') || 'max', $('strict').checked);
  else fresh();
})();
