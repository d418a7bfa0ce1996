// plies in the browser: the static site's API, answered by plies itself under Pyodide.
//
// static/transport.js starts this module worker and sends {init: {indexURL, wheel,
// limits}}: Pyodide loads from indexURL, plies from its wheel (the site's own copy).
// Then each request {id, operation, query, body} gets {id, status, headers, body}:
// the bytes plies.web._api.answer_request makes, those `plies serve` sends for the
// same request. A failure of Python itself is {id, fatal}: the page then ends this
// worker and starts a fresh one. Progress: {stage: downloading|starting|loading|ready},
// or {stage: 'failed', error}.

let api = null;      // plies.web._api, once loaded
let limits = null;   // its Limits, from the page
let toBytes = null;  // Python's bytes()

async function boot({indexURL, wheel, limits: sizes}) {
  try {
    const {loadPyodide} = await import(indexURL + 'pyodide.mjs');
    const pyodide = await loadPyodide({indexURL: indexURL});
    postMessage({stage: 'starting'});
    await pyodide.loadPackage(wheel, {messageCallback: () => {}});
    postMessage({stage: 'loading'});
    api = pyodide.pyimport('plies.web._api');
    limits = api.Limits(
      sizes.max_body, sizes.max_nodes, sizes.max_step_nodes, sizes.max_mcts_iterations);
    toBytes = pyodide.pyimport('builtins').bytes;
    api.answer_request('search', toBytes(new TextEncoder().encode('{"tree": "[1]"}')), '', limits);
    postMessage({stage: 'ready'});
  } catch (err) {
    postMessage({stage: 'failed', error: String(err).split('\n')[0]});
  }
}

function lastLine(err) {  // a Python traceback's last line names the exception
  const lines = String(err).split('\n').filter((line) => line.trim() !== '');
  return lines[lines.length - 1] || 'an unknown error';
}

function answer({id, operation, query, body}) {
  let found = null;
  try {
    const bytes = toBytes(new TextEncoder().encode(body));
    found = api.answer_request(operation, bytes, query, limits);
    bytes.destroy();
    const content = found.body.toJs();
    const headers = Object.assign({'Content-Type': found.media_type},
                                  found.headers.toJs({dict_converter: Object.fromEntries}));
    postMessage({id: id, status: found.status, headers: headers, body: content}, [content.buffer]);
  } catch (err) {
    postMessage({id: id, fatal: lastLine(err)});
  } finally {
    if (found) found.destroy();
  }
}

onmessage = (event) => {
  if (event.data.init) {
    postMessage({stage: 'downloading'});
    boot(event.data.init);
  } else {
    answer(event.data);
  }
};
