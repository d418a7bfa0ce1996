// plies prune-and-search page: selection and 2-D linear programming, round by round.
// Each part reads its input (typed, or random from a seed), asks the API (api/select,
// api/lp) for the rounds as steps (title, narration lines, SVG) and steps through
// them with the Start/Back/Next/End buttons or the keys ← → Home End.
// No framework and no build step: this file is served as it is.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const PHONE = 700;  // narrower than this: drawings asked 420 pixels wide (shown scaled to fit)

  function drawingWidth() {
    return window.innerWidth < PHONE ? 420 : 560;
  }

  // The server's JSON answer; one that is not JSON (a proxy's error page) as an error.
  async function answer(response) {
    try {
      return await response.json();
    } catch (e) {
      return {error: 'the server answered ' + response.status + ' ' + response.statusText};
    }
  }

  function whole(id) {
    const text = $(id).value.trim();
    return text === '' ? undefined : Number(text);
  }

  // The position line: "Round k of n" for a round, "Answer (after n rounds)" at the end.
  function position(steps, index) {
    const rounds = steps.length - 1;
    if (index < rounds) return 'Round ' + (index + 1) + ' of ' + rounds;
    return 'Answer (after ' + rounds + ' round' + (rounds === 1 ? '' : 's') + ')';
  }

  // One part of the page: prefix 'select' or 'lp', the API path, the text field's
  // name in the request, and the extra fields the part's options add.
  function Part(prefix, path, field, options) {
    let steps = [];
    let index = 0;
    let generation = 0;
    const output = $(prefix + '-output');
    const buttons = {};
    for (const button of output.querySelectorAll('[data-step]')) buttons[button.dataset.step] = button;

    function show(i) {
      index = Math.max(0, Math.min(steps.length - 1, i));
      const step = steps[index];
      $(prefix + '-position').textContent = position(steps, index);
      // The SVG is plies' own drawing (labels escaped by plies.draw), from this origin's API.
      $(prefix + '-drawing').innerHTML = step.svg;
      const list = $(prefix + '-narration');
      list.replaceChildren(...step.lines.map((line) => {
        const item = document.createElement('li');
        item.textContent = line;
        return item;
      }));
      buttons.start.disabled = buttons.back.disabled = index === 0;
      buttons.end.disabled = buttons.next.disabled = index === steps.length - 1;
    }

    function move(where) {
      if (!steps.length) return;
      const focused = document.activeElement;
      const targets = {start: 0, back: index - 1, next: index + 1, end: steps.length - 1};
      show(targets[where]);
      // A button that became disabled loses the focus: keep it in the stepper.
      if (focused && focused.disabled) $(prefix + '-drawing').focus();
    }

    async function run(random) {
      const mine = ++generation;
      const body = Object.assign({width: drawingWidth()}, options());
      const seed = whole(prefix + '-seed');
      if (seed !== undefined) body.seed = seed;
      if (random) body.random = whole(prefix + '-count');
      else body[field] = $(prefix + '-text').value;
      const error = $(prefix + '-error');
      $(prefix + '-run').disabled = $(prefix + '-random').disabled = true;
      let response;
      let doc;
      try {
        response = await plies.fetch(path, {
          method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        doc = await answer(response);
      } catch (e) {
        response = {ok: false};
        doc = {error: 'the server did not answer; is plies serve still running?'};
      } finally {
        $(prefix + '-run').disabled = $(prefix + '-random').disabled = false;
      }
      if (mine !== generation) return;
      const text = $(prefix + '-text');
      if (!response.ok) {
        error.textContent = doc.error;
        text.setAttribute('aria-invalid', 'true');
        output.classList.add('stale');
        return;
      }
      error.textContent = '';
      text.removeAttribute('aria-invalid');
      output.classList.remove('stale');
      if (random) text.value = doc[field];  // the input drawn, to read and edit
      steps = doc.steps;
      $(prefix + '-summary').textContent = doc.summary;
      $(prefix + '-recurrence').textContent = doc.recurrence;
      output.hidden = false;
      show(0);
    }

    for (const [where, button] of Object.entries(buttons)) button.addEventListener('click', () => move(where));
    output.querySelector('.prune-stepper').addEventListener('keydown', (event) => {
      const keys = {ArrowLeft: 'back', ArrowRight: 'next', Home: 'start', End: 'end'};
      if (!(event.key in keys) || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      move(keys[event.key]);
    });
    $(prefix + '-run').addEventListener('click', () => run(false));
    $(prefix + '-random').addEventListener('click', () => run(true));
    $(prefix + '-text').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run(false);
    });
    return {run: run};
  }

  const selection = Part('select', 'api/select', 'numbers', () => {
    const body = {method: $('select-method').value};
    const k = whole('select-k');
    if (k !== undefined) body.k = k;
    return body;
  });
  const program = Part('lp', 'api/lp', 'program', () => ({}));
  selection.run(false);
  program.run(false);
})();
