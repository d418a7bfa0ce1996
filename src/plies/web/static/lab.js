// plies web lab: reads the form, asks the server's JSON API, shows the answer.
// No framework and no build step: this file is served as it is.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const FIELDS = ['algorithm', 'order', 'seed', 'root', 'depth_limit', 'window', 'bounds'];
  const FLAGS = ['strict', 'fail_hard'];
  const MCTS_FIELDS = ['iterations', 'exploration'];  // with algorithm mcts (and seed, root)
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
    if (body.algorithm === 'mcts') delete body.algorithm;  // the exact searches' request
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
    for (const name of FIELDS.concat(MCTS_FIELDS)) if (query.has(name)) $(name).value = query.get(name);
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

  // A value as shown: infinities as ∞, fractions (a chance node's expectation, 22/3)
  // to at most four decimals (the API gives the exact value).
  function number(value) {
    if (value === 'inf') return '∞';
    if (value === '-inf') return '-∞';
    return typeof value === 'number' && !Number.isInteger(value) ? String(Number(value.toFixed(4)))
                                                                  : String(value);
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
    showMode();
    if (isMcts()) return runMcts(mine);
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

  // -- Monte-Carlo tree search: its iterations stepped through on the tree drawn -------

  let mcts = null;    // the last /api/mcts-tree document shown
  let mctsAt = 0;     // the position shown: 0 before the first iteration, k after the k-th

  function isMcts() {
    return $('algorithm').value === 'mcts';
  }

  // MCTS mode shows its own fields and section; the exact searches' parts are hidden.
  function showMode() {
    document.body.classList.toggle('mcts-mode', isMcts());
    $('mcts').hidden = !isMcts();
  }

  function mctsRequest() {
    const body = {tree: $('tree').value, algorithm: 'mcts'};
    for (const name of ['seed', 'iterations']) {
      const value = $(name).value.trim();
      if (value !== '') body[name] = Number(value);
    }
    const c = $('exploration').value.trim();
    if (c !== '') body.exploration = c;  // read (and refused when not a number) by plies
    if ($('root').value === 'min') body.root = 'min';
    return body;
  }

  async function runMcts(mine) {
    const body = mctsRequest();
    let response;
    let doc;
    busy('mcts', true);
    try {
      response = await post('api/mcts-tree', body);
      doc = await answer(response);
    } catch (e) {
      response = {ok: false};
      doc = {error: 'the server did not answer; is plies serve still running?'};
    }
    if (mine !== generation) return;
    busy('mcts', false);
    if (!response.ok) {
      showError(doc);
      if (mcts) {
        $('mcts').classList.add('stale');
        $('stale-note').textContent = 'Out of date: these results are from the last search ' +
          'that worked; the tree or an option has an error (under the tree box).';
      }
      return;
    }
    showError(null);
    $('mcts').classList.remove('stale');
    $('stale-note').textContent = '';
    const link = shareLink(body);
    $('share').href = link;
    window.history.replaceState(null, '', link);
    showMcts(doc);
  }

  function rounded(value) {
    return typeof value === 'number' ? String(Math.round(value * 100) / 100) : number(value);
  }

  function showMcts(doc) {
    mcts = doc;
    const shown = doc.steps_shown;
    $('mcts-summary').textContent = doc.iterations + ' iteration' + (doc.iterations === 1 ? '' : 's') +
      ', seed ' + doc.seed + ', c = ' + rounded(doc.c) + '. UCB scores use values scaled to ' +
      '[0, 1] by the leaf range (MIN scores 1 − mean); means are in the tree\'s units. ' +
      (shown < doc.iterations ? 'The stepper shows the first ' + shown + ' iterations; the ' +
        'table counts all ' + doc.iterations + '.' : 'The stepper shows every iteration.');
    // plies' own SVG (labels escaped by plies.draw), from this origin's API.
    $('mcts-drawing').innerHTML = doc.svg;
    showMoves(doc);
    showMctsStep(shown);  // the last iteration shown: where the search ends up
  }

  function showMoves(doc) {
    $('mcts-moves-title').textContent = 'The root moves after all ' + doc.iterations + ' iterations';
    const table = $('mcts-moves');
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const title of ['move', 'visits', 'mean value', 'UCB', 'minimax value']) {
      const th = document.createElement('th');
      th.textContent = title;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const child of doc.children) {
      const row = body.insertRow();
      const move = row.insertCell();
      move.textContent = child.name + (child.move ? ' (' + child.move + ')' : '');
      const tags = [];
      if (child.name === doc.best) tags.push('most visited');
      if (doc.minimax_best.includes(child.name)) tags.push('minimax\'s move');
      for (const text of tags) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = text;
        move.appendChild(tag);
      }
      const ucb = typeof child.ucb === 'number' ? child.ucb.toFixed(3) : number(child.ucb);
      const cells = [child.visits, child.value === null ? '-' : rounded(child.value), ucb,
        number(child.minimax_value)];
      for (const cell of cells) row.insertCell().textContent = String(cell);
      if (child.name === doc.best) row.classList.add('best');
    }
    const minimax = 'the minimax move ' + doc.minimax_best.join(' or ');
    $('mcts-convergence').textContent = (doc.agrees ? 'Converges to ' + minimax
      : 'Not yet at ' + minimax) + ': ' + doc.convergence + '.';
    $('mcts-convergence').classList.toggle('differ', !doc.agrees);
  }

  // Every node's visits and mean value after the first k iterations.
  function statsAfter(k) {
    const visits = mcts.nodes.map(() => 0);
    const means = mcts.nodes.map(() => null);
    for (const step of mcts.steps.slice(0, k)) {
      step.ids.path.forEach((id, j) => {
        visits[id] = step.backup[j].visits;
        means[id] = step.backup[j].value;
      });
    }
    return {visits: visits, means: means};
  }

  function showMctsStep(k) {
    const steps = mcts.steps;
    mctsAt = Math.max(0, Math.min(steps.length, k));
    const step = mctsAt > 0 ? steps[mctsAt - 1] : null;
    const stats = statsAfter(mctsAt);
    const path = step ? step.ids.path : [];
    const simulated = step ? step.ids.simulation : [];
    const drawing = $('mcts-drawing');
    mcts.nodes.forEach((node, i) => {
      const g = drawing.querySelector('#n' + i);
      if (!g) return;
      g.classList.toggle('unseen', stats.visits[i] === 0);
      g.classList.toggle('pv', path.includes(i));
      g.classList.toggle('current', !!step && step.ids.expanded === i);
      g.classList.toggle('sim', simulated.includes(i));
      g.classList.toggle('reached', !!step && step.ids.leaf === i);
      g.dataset.visits = String(stats.visits[i]);
      const under = g.querySelector('text.ab');
      if (under) under.textContent = stats.visits[i] ? 'n ' + stats.visits[i] : '';
      const inside = g.querySelector('text.v');
      if (inside && node.kind !== 'leaf') {
        inside.textContent = stats.means[i] === null ? '' : rounded(stats.means[i]);
      }
      const edge = drawing.querySelector('#e' + i);
      if (edge) {
        edge.classList.toggle('pv', path.includes(i));
        edge.classList.toggle('sim', simulated.includes(i));
      }
    });
    const more = mcts.iterations > steps.length ? ' (of ' + mcts.iterations + ' run)' : '';
    $('mcts-position').textContent = mctsAt === 0 ? 'Before the first iteration'
      : 'Iteration ' + mctsAt + ' of ' + steps.length + more;
    showPhases(step);
    keepInView(drawing, drawing.querySelector('#n' + (step ? step.ids.leaf : 0)));
    const buttons = mctsButtons();
    buttons.start.disabled = buttons.back.disabled = mctsAt === 0;
    buttons.end.disabled = buttons.next.disabled = mctsAt === steps.length;
  }

  // A drawing wider than its box (a phone's) scrolls sideways to show ``node``.
  function keepInView(box, node) {
    if (!node || box.scrollWidth <= box.clientWidth) return;
    const shown = box.getBoundingClientRect();
    const at = node.getBoundingClientRect();
    if (at.left >= shown.left && at.right <= shown.right) return;
    box.scrollLeft += (at.left + at.right) / 2 - (shown.left + shown.right) / 2;
  }

  function mctsButtons() {
    const found = {};
    for (const button of document.querySelectorAll('#mcts [data-step]')) found[button.dataset.step] = button;
    return found;
  }

  function item(list, title, parts) {
    const li = document.createElement('li');
    const strong = document.createElement('strong');
    strong.textContent = title + ': ';
    li.append(strong, ...parts);
    list.appendChild(li);
    return li;
  }

  function choiceParts(choice) {
    const to = choice.node + ' → ' + choice.child;
    if (choice.how === 'expand') return [to + ' (its first child not yet visited)'];
    if (choice.how === 'chance') return [to + ' (a chance outcome, drawn by its probability)'];
    const node = mcts.nodes.find((n) => n.name === choice.node);
    const scores = document.createElement('span');
    scores.className = 'ucb';
    node.children.forEach((child, j) => {
      const score = document.createElement('span');
      const name = mcts.nodes[child].name;
      score.textContent = name + ' ' + choice.ucb[j].toFixed(3);
      if (name === choice.child) score.className = 'chosen';
      scores.appendChild(score);
    });
    return [to + ', the highest UCB for ' + node.kind.toUpperCase() + ': ', scores];
  }

  function showPhases(step) {
    const list = $('mcts-phases');
    list.replaceChildren();
    if (!step) {
      const li = document.createElement('li');
      li.textContent = 'Nothing is in the search tree yet. Each iteration selects a path ' +
        'from the root by UCB, expands one new node, simulates random moves down to a leaf ' +
        'and backs the leaf\'s value up the path.';
      list.appendChild(li);
      return;
    }
    const selection = item(list, 'Selection', step.selection.length ? [] : ['the root']);
    if (step.selection.length) {
      const steps = document.createElement('ul');
      for (const choice of step.selection) {
        const li = document.createElement('li');
        li.append(...choiceParts(choice));
        steps.appendChild(li);
      }
      selection.appendChild(steps);
    }
    const leaf = mcts.nodes[step.ids.leaf].name + ' = ' + number(step.value);
    item(list, 'Expansion', [step.expanded === null
      ? 'none: the selection ended on leaf ' + leaf + ', already in the search tree'
      : step.expanded + ' joins the search tree']);
    item(list, 'Simulation', [step.expanded === null ? 'none'
      : step.simulation.length
        ? 'random moves ' + [step.expanded].concat(step.simulation.slice(0, -1)).join(' → ') +
          ' → leaf ' + leaf
        : 'none: ' + leaf + ' is a leaf']);
    item(list, 'Backpropagation', [number(step.value) + ' added on the path: ' +
      step.backup.map((b) => b.node + ' n ' + b.visits + ', mean ' + rounded(b.value)).join('; ')]);
  }

  function moveMcts(where) {
    if (!mcts) return;
    const focused = document.activeElement;
    const targets = {start: 0, back: mctsAt - 1, next: mctsAt + 1, end: mcts.steps.length};
    showMctsStep(targets[where]);
    // A button that became disabled loses the focus: keep it in the stepper.
    if (focused && focused.disabled) $('mcts-drawing').focus();
  }

  for (const [where, button] of Object.entries(mctsButtons())) {
    button.addEventListener('click', () => moveMcts(where));
  }
  document.querySelector('#mcts .mcts-stepper').addEventListener('keydown', (event) => {
    const keys = {ArrowLeft: 'back', ArrowRight: 'next', Home: 'start', End: 'end'};
    if (!(event.key in keys) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    moveMcts(keys[event.key]);
  });

  $('load-game').addEventListener('click', loadGame);
  $('tree').addEventListener('input', later);
  for (const name of FIELDS.concat(FLAGS, MCTS_FIELDS)) $(name).addEventListener('change', run);
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
