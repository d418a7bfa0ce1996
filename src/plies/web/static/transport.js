// plies' transport: how a page's script reaches the API and the other pages.
//
// window.plies.fetch(path, init) answers like fetch() for 'api/search', 'api/exercise?...'
// and the other API operations; window.plies.page(name) is the link to a page ('lab',
// 'practice'); window.plies.inBrowser says whether plies runs in this browser. The <html> element says where the page is: data-root (the prefix of
// api/ and static/), data-pages (each page's link) and, in the static site that
// `plies site` writes, data-runtime: there plies itself answers, running in the
// browser under Pyodide in a Web Worker (static/worker.mjs), so the page never
// freezes. A request that takes longer than the site's limit is stopped by ending the
// worker and starting a fresh one; its answer is a 400 like the server's.
(function () {
  'use strict';
  const html = document.documentElement;
  const root = html.dataset.root || '/';
  const pages = JSON.parse(html.dataset.pages || '{}');
  const runtime = html.dataset.runtime ? JSON.parse(html.dataset.runtime) : null;
  const page = (name) => pages[name];

  if (!runtime) {  // plies serve: the API over HTTP
    window.plies = {page: page, fetch: (path, init) => window.fetch(root + path, init),
                    inBrowser: false};
    return;
  }

  const here = (path) => new URL(path, document.baseURI).href;
  const STAGES = {
    downloading: 'Downloading Python…',
    starting: 'Starting Python…',
    loading: 'Loading plies…',
    ready: 'Python is ready: plies runs in this browser.',
  };
  let worker = null;
  let ready = null;       // a promise: the worker can take requests
  let nextId = 1;
  const pending = new Map();  // request id -> {resolve, timer}

  // The runtime's state, shown at the top of the page while it starts.
  const status = document.createElement('p');
  status.id = 'runtime';
  status.setAttribute('role', 'status');
  status.dataset.testid = 'runtime';
  document.querySelector('header').appendChild(status);
  const started = performance.now();
  function show(stage, text) {
    status.dataset.stage = stage;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    status.textContent = text || STAGES[stage] + (stage === 'ready' ? '' : ' (' + seconds + ' s)');
    status.classList.toggle('done', stage === 'ready');
    status.dataset[stage + 'Ms'] = Math.round(performance.now());  // when, for benchmarks
  }

  function failure(message, code) {  // an answer as the server gives one
    return new Response(JSON.stringify({error: message}),
                        {status: code || 400, headers: {'Content-Type': 'application/json'}});
  }

  function start() {
    show('downloading');
    worker = new Worker(here(runtime.worker), {type: 'module'});
    ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const message = event.data;
        if (message.stage === 'failed') {
          show('failed', 'Python could not start in this browser: ' + message.error);
          reject(new Error(message.error));
        } else if (message.stage) {
          show(message.stage);
          if (message.stage === 'ready') resolve();
        } else {
          settle(message);
        }
      };
      worker.onerror = (event) => {
        show('failed', 'Python could not start in this browser: ' + (event.message || 'the worker failed'));
        reject(new Error(event.message));
      };
    });
    ready.catch(() => {});  // each request reports it
    worker.postMessage({init: {indexURL: here(runtime.pyodide), wheel: here(runtime.wheel),
                               limits: runtime.limits}});
  }

  function settle(message) {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.fatal) {  // Python itself failed: a fresh one for the next request
      restart();
      waiting.resolve(failure('plies failed on this request in the browser (' + message.fatal +
                              '); Python is starting again', 500));
      return;
    }
    waiting.resolve(new Response(message.body, {status: message.status, headers: message.headers}));
  }

  function restart() {
    worker.terminate();
    for (const [id, waiting] of pending) {
      clearTimeout(waiting.timer);
      waiting.resolve(failure('the request was stopped: Python is starting again'));
      pending.delete(id);
    }
    start();
  }

  async function call(path, init) {
    try {
      await ready;
    } catch (e) {
      return failure('Python could not start in this browser: ' + e.message, 503);
    }
    const [route, query] = path.split('?');
    const message = {id: nextId++, operation: route.replace(/^api\//, ''), query: query || '',
                     body: (init && init.body) || ''};
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(message.id);
        restart();
        resolve(failure('the request took longer than ' + runtime.seconds + ' s, this site\'s ' +
                        'limit, and was stopped'));
      }, runtime.seconds * 1000);
      pending.set(message.id, {resolve: resolve, timer: timer});
      worker.postMessage(message);
    });
  }

  start();
  window.plies = {page: page, fetch: call, inBrowser: true};
})();
