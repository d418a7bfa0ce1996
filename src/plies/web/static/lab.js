// plies web lab: reads the form, asks the server's JSON API, shows the answer.
// No framework and no build step: this file is served as it is.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const FIELDS = ['algorithm', 'order', 'seed', 'root', 'depth_limit', 'window', 'bounds'];
  const FLAGS = ['strict', 'fail_hard'];
  let timer = null;
  let generation = 0;
  let editing = false;  // true while an edit redraws the editor itself

  function request() {
    const body = {tree: $('tree').value};
    for (const name of FIELDS) {
      const value = $(name).value.trim();
      if (value !== '') body[name] = name === 'seed' || name === 'depth_limit' ? Number(value) : value;
    }
    for (const name of FLAGS) if ($(name).checked) body[name] = true;
    if (body.order === 'given') delete body.order;
    if (body.root === 'max') delete body.root;
    return body;
  }

  function shareLink(body) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) query.set(name, value === true ? '1' : String(value));
    return plies.page('lab') + '?' + query.toString();
  }

  function fromURL() {
    const query = new URLSearchParams(window.location.search);
    if (query.has('tree')) $('tree').value = query.get('tree');
    for (const name of FIELDS) if (query.has(name)) $(name).value = query.get(name);
    for (const name of FLAGS) {
      if (query.has(name)) $(name).checked = ['1', 'true', 'yes'].includes(query.get(name).toLowerCase());
    }
    if (query.has('game')) {  // a game position, e.g. from the game room's "show the search"
      $('game').value = query.get('game');
      if (query.has('depth')) $('game-depth').value = query.get('depth');
      $('game-box').open = true;
    }
    return query.has('tree');
  }

  async function post(path, body) {
    const response = await plies.fetch(path, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    return response;
  }

  // The server's JSON answer; one that is not JSON (a proxy's error page) as an error.
  async function answer(response) {
    try {
      return await response.json();
    } catch (e) {
      return {error: 'the server answered ' + response.status + ' ' + response.statusText};
    }
  }

  // Results of an earlier search stay on screen beside an error, marked out of date
  // (for screen readers too) until a search succeeds; while a part is being redrawn it
  // is only busy.
  const RESULTS = ['summary', 'stepper', 'compare'];

  function busy(id, on) {
    if (on) $(id).setAttribute('aria-busy', 'true');
    else $(id).removeAttribute('aria-busy');
  }

  function markStale() {
    for (const id of RESULTS) {
      $(id).classList.add('stale');
      busy(id, true);
    }
    $('stale-note').textContent = 'Out of date: these results are from the last search that ' +
      'worked; the tree or an option has an error (under the tree box).';
  }

  function markCurrent(id) {
    $(id).classList.remove('stale');
    busy(id, false);
    if (!RESULTS.some((part) => $(part).classList.contains('stale'))) $('stale-note').textContent = '';
  }

  function showError(error) {
    const box = $('parse-error');
    if (!error) {
      box.textContent = '';
      $('tree').removeAttribute('aria-invalid');
      return;
    }
    let text = error.error;
    if (error.column) {
      const lines = $('tree').value.split('\n');
      const line = lines[(error.line || 1) - 1] || '';
      const start = Math.max(0, error.column - 30);
      text += '\n' + line.slice(start, start + 60) + '\n' + ' '.repeat(error.column - 1 - start) + '^';
    }
    box.textContent = text;
    $('tree').setAttribute('aria-invalid', 'true');
  }

  function number(value) {
    return value === 'inf' ? '∞' : value === '-inf' ? '-∞' : String(value);
  }

  function showResult(doc) {
    $('value').textContent = number(doc.value);
    $('bound').textContent = doc.bound === 'exact' ? '' : '(' + doc.bound + ' bound)';
    const names = doc.path_names;  // one name per node, as drawn: A, B, B1, ...
    $('pv').textContent = names.length ? names.join(' → ') + '   (child indices [' + doc.path.join(', ') + '])'
                                       : '(the root is a leaf)';
    $('stats').textContent = 'evaluated ' + doc.evaluated_count + ' of ' + doc.leaf_count + ' leaves, ' +
      doc.nodes_visited + ' nodes visited, ' + doc.cutoffs + ' cut-off' + (doc.cutoffs === 1 ? '' : 's');
    const notes = $('notes');
    notes.replaceChildren();
    for (const note of doc.notes || []) {
      const item = document.createElement('li');
      item.textContent = note;
      notes.appendChild(item);
    }
  }

  function showCompare(doc) {
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const title of ['algorithm', 'order', 'prune on', 'value', 'leaves evaluated', 'nodes visited', 'cut-offs']) {
      const th = document.createElement('th');
      th.textContent = title;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const row of doc.rows) {
      const pruneOn = row.cutoffs === 0 && ['minimax', 'expectiminimax'].includes(row.algorithm)
        ? '-' : (row.strict ? 'v > bound' : 'v ≥ bound');
      const cells = [row.algorithm, row.order, pruneOn, number(row.value),
                     row.evaluated + ' of ' + doc.leaf_count, row.nodes_visited, row.cutoffs];
      const tr = body.insertRow();
      for (const cell of cells) tr.insertCell().textContent = String(cell);
    }
    const box = $('compare');
    box.replaceChildren(table);
    if (doc.knuth_moore_minimum !== null) {
      const p = document.createElement('p');
      p.textContent = 'Knuth-Moore minimum for b=' + doc.shape[0] + ', d=' + doc.shape[1] +
        ': b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = ' + doc.knuth_moore_minimum + ' leaves';
      box.appendChild(p);
    }
  }

  async function run() {
    const mine = ++generation;
    const body = request();
    let response;
    let doc;
    try {
      response = await post('api/search', body);
      doc = await answer(response);
    } catch (e) {
      response = {ok: false};
      doc = {error: 'the server did not answer; is plies serve still running?'};
    }
    if (mine !== generation) return;
    if (!response.ok) {
      showError(doc);
      markStale();
      return;
    }
    showError(null);
    showResult(doc);
    fillComplexity(doc.nodes);
    markCurrent('summary');
    busy('stepper', true);
    busy('compare', true);
    if ($('editor-box') && $('editor-box').open && !editing) drawEditor(body.tree);
    const link = shareLink(body);
    $('share').href = link;
    window.history.replaceState(null, '', link);
    await Promise.all([showStepper(body, mine), showTable(body, mine)]);
  }

  // The complexity picture: b and the depths filled in from the tree searched (its most
  // children of a node, its height), whenever its shape changes; drawn on request.
  const MAX_CHART_LEAVES = 100000;  // plies complexity's cap on the deepest tree
  let chartShape = null;

  function fillComplexity(nodes) {
    const children = new Map();
    let height = 0;
    for (const node of nodes || []) {
      if (node.parent >= 0) children.set(node.parent, (children.get(node.parent) || 0) + 1);
      height = Math.max(height, node.path.length);
    }
    const branching = Math.max(2, ...children.values());
    const shape = branching + ',' + height;
    if (shape === chartShape) return;
    chartShape = shape;
    let last = Math.max(1, height);
    while (last > 1 && Math.pow(branching, last) > MAX_CHART_LEAVES) last -= 1;
    $('complexity-b').value = branching;
    $('complexity-depths').value = '1-' + last;
    $('complexity-note').textContent = 'The tree above: at most ' + branching + ' children a node, ' +
      'height ' + height + (last < height ? '; depths up to ' + last + ' (b^d within ' +
      MAX_CHART_LEAVES.toLocaleString('en') + ' leaves, the cap).' : '.');
  }

  async function drawComplexity() {
    const query = new URLSearchParams({
      branching: $('complexity-b').value.trim(),
      depths: $('complexity-depths').value.trim(),
      seeds: $('complexity-seeds').value.trim(),
    });
    const button = $('complexity-draw');
    button.disabled = true;
    $('complexity-error').textContent = '';
    $('complexity-chart').setAttribute('aria-busy', 'true');
    try {
      const response = await plies.fetch('api/complexity?' + query.toString());
      if (response.ok) {
        // plies' own chart (its numbers and titles written by plies.draw), from this origin.
        $('complexity-chart').innerHTML = await response.text();
      } else {
        $('complexity-error').textContent = (await answer(response)).error;
      }
    } catch (e) {
      $('complexity-error').textContent = 'the server did not answer; is plies serve still running?';
    } finally {
      button.disabled = false;
      $('complexity-chart').removeAttribute('aria-busy');
    }
  }

  async function showStepper(body, mine) {
    const page = await post('api/render', Object.assign({format: 'html'}, body));
    const text = page.ok ? await page.text() : (await answer(page)).error;
    if (mine !== generation) return;
    if (page.ok) {
      $('stepper').srcdoc = text;
      $('stepper').hidden = false;
      $('stepper-note').textContent = 'Step with the buttons, or click the drawing and use ←, →, ' +
        'Home, End and space. Zoom with +, − and 0 (the whole tree), the buttons, ctrl and the ' +
        'wheel, or two fingers; drag to move a zoomed tree.';
    } else {
      $('stepper').hidden = true;
      $('stepper').removeAttribute('srcdoc');
      $('stepper-note').textContent = text;
    }
    markCurrent('stepper');
  }

  async function showTable(body, mine) {
    const table = await post('api/compare', body);
    const doc = await answer(table);
    if (mine !== generation) return;
    if (table.ok) showCompare(doc);
    else $('compare').textContent = doc.error;
    markCurrent('compare');
  }

  // The stepper's page sizes its drawing to this window; the frame takes the page's
  // height, so nothing scrolls inside it.
  function fitFrame() {
    const frame = $('stepper');
    const doc = frame.contentDocument;
    if (!doc || !doc.body) return;
    const resize = () => {
      frame.style.height = Math.ceil(doc.body.getBoundingClientRect().height) + 2 + 'px';
    };
    new ResizeObserver(resize).observe(doc.body);
    resize();
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(run, 350);
  }

  // A download's error shows beside the download buttons: it says nothing of the tree text.
  async function download(button) {
    const format = button.dataset.format;
    const note = $('download-error');
    note.textContent = '';
    // In the static site plies has no PNG writer (resvg is native code): the browser
    // paints plies' SVG instead.
    const painted = format === 'png' && plies.inBrowser;
    let response;
    try {
      response = await post('api/render', Object.assign({format: painted ? 'svg' : format}, request()));
    } catch (e) {
      note.textContent = button.textContent + ': the server did not answer.';
      return;
    }
    if (!response.ok) {
      note.textContent = button.textContent + ': ' + (await answer(response)).error;
      return;
    }
    const blob = painted ? await png(await response.text()) : await response.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'tree.' + format;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // An SVG drawing as PNG, at twice its size (as sharp as the server's).
  async function png(svg) {
    const image = new Image();
    const source = URL.createObjectURL(new Blob([svg], {type: 'image/svg+xml'}));
    try {
      image.src = source;
      await image.decode();
    } finally {
      URL.revokeObjectURL(source);
    }
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  }

  async function loadGame() {
    const query = new URLSearchParams({game: $('game').value, depth: $('game-depth').value});
    const response = await plies.fetch('api/game-tree?' + query.toString());
    const doc = await answer(response);
    $('game-error').textContent = response.ok ? '' : doc.error;  // beside the game's box
    if (!response.ok) return;
    $('tree').value = doc.tree;
    run();
  }

  // The visual editor: a JSON model of the tree, drawn by the server, edited by clicks.
  let model = null;     // {tree: node, bounds?}; a node is {label?, kind?, value?, p?, static?, children?}
  let order = [];       // model nodes in preorder: order[i] is drawn as #n{i}
  let parents = [];
  let selected = -1;

  function normalize(node) {
    if (typeof node !== 'object' || node === null) return {value: node};
    if (node.children) node.children = node.children.map(normalize);
    return node;
  }

  function index(root) {
    order = [];
    parents = [];
    const stack = [[root, -1]];
    while (stack.length) {
      const [node, parent] = stack.pop();
      const id = order.length;
      order.push(node);
      parents.push(parent);
      if (node.children) for (let k = node.children.length - 1; k >= 0; k--) stack.push([node.children[k], id]);
    }
  }

  async function drawEditor(text) {
    const body = Object.assign(request(), {tree: text});
    const response = await post('api/tree', body);
    const doc = await answer(response);
    $('editor-error').textContent = response.ok ? '' : doc.error;  // in the editor's box
    if (!response.ok) return false;
    model = doc.json;
    model.tree = normalize(model.tree);
    index(model.tree);
    $('editor-drawing').innerHTML = doc.svg;  // plies' own SVG: labels escaped by the server
    for (let i = 0; i < order.length; i++) {
      const g = $('editor-drawing').querySelector('#n' + i);
      if (!g) continue;
      g.setAttribute('role', 'button');
      g.setAttribute('tabindex', '0');
      // Named by what it shows (its name and value), described by the editor's help.
      g.setAttribute('aria-describedby', 'editor-help');
      g.addEventListener('click', () => select(i));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(i); }
      });
    }
    if (selected >= order.length) selected = -1;
    if (selected >= 0) select(selected);
    return doc.text;
  }

  function select(i) {
    selected = i;
    for (const g of $('editor-drawing').querySelectorAll('g.node')) g.classList.remove('editing');
    const g = $('editor-drawing').querySelector('#n' + i);
    if (g) g.classList.add('editing');
    const node = order[i];
    const leaf = !node.children;
    const parent = parents[i] >= 0 ? order[parents[i]] : null;
    $('editor').hidden = false;
    const drawn = g && g.querySelector('text.t');  // the node's name, as /api/tree draws it
    $('editor-title').textContent = (drawn ? drawn.textContent : 'Node ' + i) +
      (i === 0 ? ' (the root)' : '') + (leaf ? ' (a leaf)' : '');
    $('edit-label').value = node.label || '';
    $('edit-kind-row').hidden = leaf;
    $('edit-kind').value = node.kind || 'max';
    $('edit-value-row').hidden = !leaf;
    $('edit-value').value = leaf ? String(node.value) : '';
    $('edit-static-row').hidden = leaf;
    $('edit-static').value = node.static === undefined ? '' : String(node.static);
    $('edit-p-row').hidden = !(parent && parent.kind === 'chance');
    $('edit-p').value = node.p === undefined ? '' : String(node.p);
    $('edit-remove').disabled = i === 0;
  }

  function numberOrText(text) {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? n : text.trim();
  }

  async function commit() {
    const canonical = await drawEditor(JSON.stringify(model));
    if (canonical === false) return;
    $('tree').value = canonical;
    editing = true;
    try { await run(); } finally { editing = false; }
  }

  function edit(change) {
    if (selected < 0) return;
    change(order[selected], selected);
    commit();
  }

  $('edit-label').addEventListener('change', () => edit((node) => {
    const label = $('edit-label').value.trim();
    if (label) node.label = label; else delete node.label;
  }));
  $('edit-kind').addEventListener('change', () => edit((node) => { node.kind = $('edit-kind').value; }));
  $('edit-value').addEventListener('change', () => edit((node) => { node.value = numberOrText($('edit-value').value); }));
  $('edit-static').addEventListener('change', () => edit((node) => {
    const text = $('edit-static').value.trim();
    if (text) node.static = numberOrText(text); else delete node.static;
  }));
  $('edit-p').addEventListener('change', () => edit((node) => {
    const text = $('edit-p').value.trim();
    if (text) node.p = numberOrText(text); else delete node.p;
  }));
  $('edit-add').addEventListener('click', () => edit((node, i) => {
    if (!node.children) {  // a leaf becomes an inner node above its old value
      const parent = parents[i] >= 0 ? order[parents[i]] : null;
      node.kind = parent && parent.kind === 'max' ? 'min' : 'max';
      node.children = [{value: node.value}];
      delete node.value;
    }
    node.children.push({value: 0});
    if (node.kind === 'chance') for (const child of node.children) delete child.p;
  }));
  $('edit-remove').addEventListener('click', () => edit((node, i) => {
    const parent = order[parents[i]];
    parent.children.splice(parent.children.indexOf(node), 1);
    if (parent.kind === 'chance') for (const child of parent.children) delete child.p;
    if (!parent.children.length) {  // its last child gone: the parent is a leaf now
      delete parent.children;
      delete parent.kind;
      parent.value = 0;
    }
    selected = parents[i];
  }));
  $('editor-box').addEventListener('toggle', () => {
    if ($('editor-box').open) drawEditor($('tree').value);
  });

  $('load-game').addEventListener('click', loadGame);
  $('tree').addEventListener('input', later);
  for (const name of FIELDS.concat(FLAGS)) $(name).addEventListener('change', run);
  $('run').addEventListener('click', run);
  for (const button of document.querySelectorAll('#downloads button')) {
    button.addEventListener('click', () => download(button));
  }
  $('stepper').addEventListener('load', fitFrame);
  $('complexity-form').addEventListener('submit', (event) => {
    event.preventDefault();
    drawComplexity();
  });
  fromURL();
  if (new URLSearchParams(window.location.search).has('game')) loadGame();
  else run();
})();
