// plies game room: a built-in game on a board against the engine or another person.
// The server keeps no games: every request carries the game, its start and the moves.
// No framework and no build step: this file is served as it is.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const GAMES = JSON.parse($('room').dataset.games);
  // Games the engine searches to their end at once by default (depth: their longest
  // game at the start); the others get a time limit.
  const SEARCHED_BY_DEPTH = {tictactoe: 9, nim: 12};
  // The engine's limits: alpha-beta (the server's default, PVS) searches to a depth or
  // for seconds; Monte-Carlo tree search has no depth: iterations or seconds.
  const LIMITS = {'': ['depth', 'seconds'], mcts: ['iterations', 'seconds']};
  const MAX_STRENGTH = {depth: 64, iterations: 1000000, seconds: 60};
  // The engine menu's names of the algorithms the room offers (state.algorithms; the
  // first is the server's default for the game, sent as '').
  const ALGORITHM_NAMES = {
    pvs: 'alpha-beta (PVS)', mcts: 'MCTS', brs: 'best reply (BRS)',
    paranoid: 'paranoid alpha-beta', maxn: 'max^n'};
  // Games of more than two players: the N-player searches go this deep by default
  // (Best-Reply Search to depth 4 took 0.01-0.1 s a move in Rolit and Chinese Checkers).
  const MULTI_DEPTH = 4;
  // A cell's letter and the player whose piece it is: x and o the first two (marks and
  // discs), Rolit's r, y, g, b its four colours, digits 3-6 Chinese Checkers' others.
  const PIECES = {x: 0, o: 1, r: 0, y: 1, g: 2, b: 3, 3: 2, 4: 3, 5: 4, 6: 5};

  let state = null;        // the last room state from the server
  let flipped = false;
  let hint = null;         // {index, text} of the hint shown, or null
  let selected = null;     // on a board played with pieces: the cells clicked so far, [[r, c], ...]
  let press = null;        // the pointer pressed on a piece: {id, from: [r, c], x, y, ...}
  let search = null;       // {id, controller, play, generation} of the running search
  let generation = 0;      // bumped by every change of game or position: late answers are dropped

  // -- talking to the server ---------------------------------------------------------

  function roomBody(extra) {
    const body = {game: state.game, position: state.start, moves: state.moves, names: names()};
    return Object.assign(body, extra || {});
  }

  // The players as the export's header names them: a person, or the engine and its strength.
  function names() {
    const kind = $('limit-kind').value;
    const value = $('strength').value;
    const limit = kind === 'depth' ? 'depth ' + value : kind === 'iterations' ? value + ' iterations' : value + ' s';
    const how = algorithm() ? algorithm() + ', ' + limit : limit;
    return seats().map((p) => (isEngine(p) ? 'plies engine (' + how + ')' : 'person'));
  }

  // The players' seats shown: 0 to N - 1.
  function seats() {
    return [...document.querySelectorAll('#players select.side')].map((_, i) => i);
  }

  // How many players the game chosen has: its "players" parameter, else the registry's.
  function playerCount() {
    const input = $('param-players');
    const asked = input ? Math.round(Number(input.value)) : NaN;
    return asked >= 2 && asked <= 6 ? asked : GAMES[$('game').value].players || 2;
  }

  // One seat (person or engine) per player: the page has two; the others are drawn here,
  // engines unless the address says otherwise.
  function drawSeats(count) {
    const extra = document.querySelectorAll('#players .extra-seat');
    if (extra.length === Math.max(0, count - 2)) return;
    extra.forEach((label) => label.remove());
    const before = $('algorithm').closest('label');
    for (let p = 2; p < count; p++) {
      const label = document.createElement('label');
      label.className = 'extra-seat';
      const name = document.createElement('span');
      name.id = 'side' + p + '-name';
      name.textContent = 'player ' + (p + 1);
      const select = document.createElement('select');
      select.id = 'side' + p;
      select.className = 'side';
      select.dataset.testid = 'side' + p;
      select.add(new Option('person', 'human'));
      select.add(new Option('engine', 'engine', true, true));
      select.addEventListener('change', seatChanged);
      label.append(name, ' ', select);
      before.parentNode.insertBefore(label, before);
    }
  }

  function seatChanged() {
    if (search && search.play && !isEngine(state.to_move)) stopSearch(true);  // now a person's turn
    if (state) change('/api/play/state', roomBody());  // the export names the players anew
  }

  // The engine menu of the game's algorithms (two players: alpha-beta and MCTS; more:
  // BRS, paranoid, max^n and MCTS), keeping the choice where the new menu has it.
  function drawAlgorithms(names) {
    const menu = $('algorithm');
    const key = names.join(' ');
    if (menu.dataset.offered === key) return;
    const chosen = menu.value;
    menu.dataset.offered = key;
    menu.textContent = '';
    names.forEach((name, i) => menu.add(new Option(ALGORITHM_NAMES[name] || name, i ? name : '')));
    // One the address named beyond the menu (mtdf...) stays, for the server to check.
    if (chosen && !(chosen in ALGORITHM_NAMES)) menu.add(new Option(chosen, chosen));
    const kept = (names.includes(chosen) && chosen !== names[0]) || !(chosen in ALGORITHM_NAMES);
    menu.value = kept ? chosen : '';
    showLimits();
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    let doc;
    try {
      doc = await response.json();
    } catch (e) {
      doc = {error: 'the server answered ' + response.status};
    }
    return {ok: response.ok, doc: doc};
  }

  // Ask for a new state; show it unless something else changed the game meanwhile.
  async function change(path, body) {
    const mine = ++generation;
    const answer = await post(path, body);
    if (mine !== generation) return null;
    if (!answer.ok) {
      showError(answer.doc.error);
      return null;
    }
    show(answer.doc);
    return answer.doc;
  }

  function showError(text) {
    $('error').textContent = text || '';
  }

  // -- the game and its parameters ---------------------------------------------------

  function drawParams() {
    const box = $('params');
    box.textContent = '';
    const info = GAMES[$('game').value];
    for (const [name, value] of Object.entries(info.params)) {
      const label = document.createElement('label');
      label.textContent = name + ' ';
      const input = document.createElement('input');
      input.type = 'number';
      input.id = 'param-' + name;
      input.dataset.param = name;
      input.dataset.default = String(value);
      input.value = String(value);
      input.addEventListener('change', newGame);
      label.appendChild(input);
      box.appendChild(label);
    }
    $('game-help').textContent = info.summary + '. ' + info.notation;
  }

  function spec() {
    const changed = [];
    for (const input of document.querySelectorAll('#params input')) {
      if (input.value.trim() !== input.dataset.default) changed.push(input.dataset.param + '=' + input.value.trim());
    }
    return $('game').value + (changed.length ? ':' + changed.join(',') : '');
  }

  function setSpec(text) {
    const [name, params] = text.split(':', 2);
    if (!(name in GAMES)) return false;
    $('game').value = name;
    drawParams();
    for (const item of (params || '').split(',')) {
      const [key, value] = item.split('=');
      const input = $('param-' + (key || '').trim());
      if (input && value !== undefined) input.value = value.trim();
    }
    return true;
  }

  function defaultStrength() {
    const multi = playerCount() > 2 ? MULTI_DEPTH : 0;
    const depth = algorithm() === 'mcts' ? 0 : SEARCHED_BY_DEPTH[$('game').value] || multi;
    setLimit(depth ? 'depth' : 'seconds', String(depth || 1));
  }

  // The engine's algorithm: '' (the server's default, alpha-beta) or 'mcts', or another
  // of the server's named by the address (?algorithm=mtdf).
  function algorithm() {
    return $('algorithm').value;
  }

  function limitsOf(name) {
    return LIMITS[name] || LIMITS[''];
  }

  function setLimit(kind, value) {
    $('limit-kind').value = kind;
    $('strength').value = value;
    $('strength').max = String(MAX_STRENGTH[kind]);
  }

  // The limits the algorithm chosen takes are offered; one it does not take becomes
  // the other (depth <-> iterations), or seconds where the game has no default depth.
  function showLimits() {
    const allowed = limitsOf(algorithm());
    for (const option of $('limit-kind').options) {
      option.hidden = option.disabled = !allowed.includes(option.value);
    }
    const kind = $('limit-kind').value;
    if (allowed.includes(kind)) return;
    if (kind === 'depth') setLimit('iterations', '1000');
    else defaultStrength();
  }

  function strength() {
    const value = Number($('strength').value);
    const kind = $('limit-kind').value;
    const limit = kind === 'seconds' ? {seconds: value} : {[kind]: Math.round(value)};
    return algorithm() ? {...limit, algorithm: algorithm()} : limit;
  }

  function isEngine(player) {
    const seat = $('side' + player);
    return !seat || seat.value === 'engine';
  }

  // -- showing the room --------------------------------------------------------------

  function show(doc) {
    state = doc;
    hint = null;
    selected = null;
    press = null;  // a piece being dragged is put back
    closeChooser();
    showError('');
    drawSeats(doc.players.length);
    doc.players.forEach((name, p) => {
      $('side' + p + '-name').textContent = name;
    });
    drawAlgorithms(doc.algorithms);
    drawBoard();
    drawMoves();
    const history = $('history');
    history.textContent = '';
    // Chess and checkers number their moves in pairs (1. e4 e5 2. Nf3), from the start
    // position's own number, and a game begun by the second player with "30..."; the
    // others by ply.
    const paired = !!(doc.board && doc.board.pieces);
    history.classList.toggle('paired', paired);
    let number = firstNumber(doc.start);
    if (paired && doc.movers[0] === 1) history.dataset.first = number + '...';
    else delete history.dataset.first;
    doc.moves.forEach((text, i) => {
      const item = document.createElement('li');
      item.textContent = text;
      if (paired) {
        const first = doc.movers[i] === 0;
        item.dataset.number = first ? number + '.' : (i === 0 ? number + '...' : '');
        if (!first) number++;
      }
      history.appendChild(item);
    });
    $('position').value = doc.position;
    $('export').value = doc.export;
    const link = $('show-search');
    link.hidden = !doc.lab_depth;
    if (doc.lab_depth) {
      const query = new URLSearchParams({game: doc.game + ':' + doc.position, depth: Math.min(doc.lab_depth, 3)});
      link.href = '/?' + query.toString();
    }
    shareLink();
    showStatus();
    $('undo').disabled = doc.moves.length === 0;
    $('hint').disabled = doc.terminal || doc.chance;
    $('flip').disabled = !doc.board;
    setTimeout(engineTurn, 0);
  }

  // The teacher's link: the game, its moves, the players and the engine's settings.
  function shareLink() {
    if (!state) return;
    const query = new URLSearchParams({game: state.game});
    if (state.start !== '') query.set('position', state.start);
    if (state.moves.length) query.set('moves', state.moves.join(' '));
    for (const p of seats()) query.set('side' + p, $('side' + p).value);
    if (algorithm()) query.set('algorithm', algorithm());
    query.set($('limit-kind').value, $('strength').value);
    $('share').href = '/play?' + query.toString();
    window.history.replaceState(null, '', $('share').href);
  }

  // The number of the first move: a FEN's full-move number (counted on over the moves
  // that may follow the FEN, "FEN moves e2e4 ..."); 1 where the position's text has
  // none (checkers).
  function firstNumber(start) {
    const words = start.trim().split(/\s+/);
    if (!words[0].includes('/') || !/^\d+$/.test(words[5] || '')) return 1;
    const at = words.indexOf('moves');
    const after = at < 0 ? 0 : words.length - at - 1;
    const black = words[1] === 'b' ? 1 : 0;
    return Math.max(1, Number(words[5])) + Math.floor((after + black) / 2);
  }

  // Text as a sentence begins: "Player 1 to move." (Pig's players are "player 1", "player 2").
  function sentence(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function showStatus(extra) {
    let text;
    if (state.terminal) text = 'Game over: ' + state.result + '.';
    else if (state.chance) text = state.player + ' rolls the die.';
    else text = state.player + ' to move' + (isEngine(state.to_move) ? ' (engine).' : '.');
    $('status').textContent = sentence(text) + (extra ? ' ' + extra : '');
  }

  function cellKey(r, c) {
    return r + ',' + c;
  }

  function drawBoard() {
    if (!state) return;  // no room yet (Flip clicked while the first state loads)
    const box = $('board');
    const board = state.board;
    const focused = box.contains(document.activeElement);  // kept on its cell, drawn anew
    box.textContent = '';
    box.hidden = !board;
    $('board-help').hidden = !board;
    $('board-text').hidden = !!board;
    $('board-text').textContent = state.text;
    reachable($('board-text'));
    if (!board) return;
    box.dataset.game = state.game.split(':')[0];
    box.dataset.style = board.style;
    if (board.pieces) {
      showHelp(board.style === 'chess'
        ? 'Drag a piece to a marked square, or click it and then the square; castle by ' +
          'moving the king two squares. '
        : 'Drag a piece to where it lands, or click it and then the square; a multiple ' +
          'jump by its last square, or, where several end there, square by square. ',
      'Keys: Tab to the board, arrows between squares, Enter on the piece, then on the square.');
      drawPieceBoard(box, board);
    } else {
      const star = board.numbers && board.rows.some((row) => row.includes(' '));
      showHelp(star ? 'Click a marble, then a marked hole (again on the marble: put it down). ' : '',
               'Keys: Tab to the board, arrows between cells, Enter plays.');
      drawCellBoard(box, board);
    }
    tabStop(box, focused);
  }

  // The board's help: how to play it, then how by keys (not shown on a touch screen).
  function showHelp(text, keys) {
    const help = $('board-help');
    help.textContent = text;
    const span = document.createElement('span');
    span.className = 'keys-help';
    span.textContent = keys;
    help.appendChild(span);
  }

  // A board of marks or discs: each cell plays the move it stands for. Where a move
  // names two cells or more, the first holding the mover's piece (Chinese Checkers:
  // the hole a marble leaves, then the one it reaches), a click on the first picks the marble up and marks where it can go
  // (`selected` holds it), and a click on one of those plays that move; a marble with
  // one move plays it at once.
  function drawCellBoard(box, board) {
    const height = board.rows.length;
    const width = board.rows[0].length;
    const person = !isEngine(state.to_move) && !state.terminal;
    const moveAt = new Map();
    const counts = new Map();
    const from = new Map();  // a moving move's first cell -> its moves
    for (const move of person ? state.legal : []) {
      const cells = move.cells || [];
      // A move from a cell holding the mover's piece (not Connect Four's column).
      if (cells.length > 1 && PIECES[board.rows[cells[0][0]][cells[0][1]]] === state.to_move) {
        const key = cellKey(...cells[0]);
        from.set(key, (from.get(key) || []).concat([move]));
      }
      for (const [r, c] of cells) {
        moveAt.set(cellKey(r, c), move);
        counts.set(cellKey(r, c), (counts.get(cellKey(r, c)) || 0) + 1);
      }
    }
    const picked = selected && from.get(cellKey(...selected[0]));
    const goes = new Map();  // with a marble picked up: the cell it reaches -> the move
    for (const move of picked || []) goes.set(cellKey(...move.cells[move.cells.length - 1]), move);
    const last = new Set(state.last.map(([r, c]) => cellKey(r, c)));
    const hinted = new Set();
    if (hint) {
      const move = state.legal.find((m) => m.index === hint.index);
      for (const [r, c] of (move && move.cells) || []) hinted.add(cellKey(r, c));
    }
    const order = (n) => Array.from({length: n}, (_, i) => (flipped ? n - 1 - i : i));
    const labelled = board.row_labels.length > 0;
    // A star (Chinese Checkers: holes with spaces between) packs its rows: each hole
    // spans two half-cell columns, so neighbouring rows interlock.
    const star = !labelled && !board.columns.length && board.rows.some((row) => row.includes(' '));
    box.style.gridTemplateColumns = star
      ? 'repeat(' + (width + 1) + ', calc(var(--cell) / 2))'
      : (labelled ? 'auto ' : '') + 'repeat(' + width + ', var(--cell))';
    // Cells as large as the screen allows, up to 64 px.
    const across = star ? (width + 1) / 2 : width + (labelled ? 1 : 0);
    const down = height + (board.columns.length ? 1 : 0);
    box.style.setProperty('--cell', 'max(14px, min(64px, calc((100vw - ' + (30 + 6 * across) + 'px) / ' +
      across + '), calc((100vh - 300px) / ' + down + ')))');
    const label = (text) => {
      const span = document.createElement('span');
      span.className = 'label';
      span.textContent = text;
      box.appendChild(span);
    };
    if (board.columns.length) {
      if (labelled) label('');
      for (const c of order(width)) label(board.columns[c]);
    }
    const many = state.players.length > 2;
    for (const r of order(height)) {
      if (labelled) label(board.row_labels[r]);
      for (const c of order(width)) {
        const key = cellKey(r, c);
        const piece = board.rows[r][c];
        if (piece === ' ') {  // between the holes of a star: no cell
          if (!star) box.appendChild(document.createElement('span'));
          continue;
        }
        const cell = document.createElement('button');
        if (star) {
          const at = (i, n) => (flipped ? n - 1 - i : i) + 1;
          cell.style.gridRow = String(at(r, height));
          cell.style.gridColumn = at(c, width) + ' / span 2';
        }
        cell.type = 'button';
        cell.className = 'cell';
        cell.dataset.row = r;
        cell.dataset.col = c;
        // A cell plays the one move it stands for, on a person's turn; with a marble
        // picked up, the moves of that marble only.
        const moving = from.get(key);
        const move = picked ? goes.get(key) || null
          : moving && moving.length === 1 ? moving[0]
          : !moving && counts.get(key) === 1 ? moveAt.get(key) : null;
        const name = [placeName(board, r, c)];
        const owner = many || piece === 'x' || piece === 'o' ? PIECES[piece] : undefined;
        if (owner !== undefined && owner < state.players.length) {
          const mark = document.createElement('span');
          mark.className = 'piece p' + owner;
          // Marks show their letter; the discs of more than two players their number
          // (who is who not by colour alone).
          if (board.style === 'marks') mark.textContent = piece.toUpperCase();
          else if (many) mark.textContent = String(owner + 1);
          cell.appendChild(mark);
          // The name holds the letter shown (WCAG 2.5.3, label in name).
          const who = state.players[owner];
          name.push(who.includes(mark.textContent) ? who : mark.textContent + ' (' + who + ')');
        } else {
          name.push('empty');
          if (star && board.numbers) {  // the hole's number, as the moves are written
            const number = document.createElement('span');
            number.className = 'hole';
            number.textContent = board.numbers[r][c];
            cell.appendChild(number);
          }
        }
        if (move) {
          cell.classList.add('legal');
          cell.dataset.move = move.text;
          name.push('play ' + move.text);
          cell.addEventListener('click', () => humanMove(move.text));
        } else if (moving || picked) {
          // Pick this marble up (or put the picked one down, or pick another).
          const mine = picked && same(selected[0], [r, c]);
          if (mine) {
            cell.classList.add('selected');
            name.push('picked up, ' + picked.length + ' moves: click again to put it down');
          } else if (moving) {
            cell.classList.add('movable');
            name.push(moving.length + ' moves');
          } else {
            cell.setAttribute('aria-disabled', 'true');
          }
          cell.addEventListener('click', () => {
            selected = moving && !mine ? [[r, c]] : null;
            drawBoard();
          });
        } else {
          cell.setAttribute('aria-disabled', 'true');  // still focused by the arrows, and read
        }
        if (last.has(key)) cell.classList.add('last');
        if (hinted.has(key)) cell.classList.add('hint');
        cell.setAttribute('aria-label', name.join(', '));
        box.appendChild(cell);
      }
    }
  }

  // Where a cell is, in words: "d3" on a board with both labels; "column 4, row 2 from
  // the bottom" where only the columns are (where pieces fall, as in Connect Four);
  // else "row 1, column 3" from the top left, as the cells are numbered.
  function placeName(board, r, c) {
    if (board.numbers && board.numbers[r][c]) return 'hole ' + board.numbers[r][c];
    if (board.columns.length && board.row_labels.length) return board.columns[c] + board.row_labels[r];
    if (board.columns.length) {
      return 'column ' + board.columns[c] + ', row ' + (board.rows.length - r) + ' from the bottom';
    }
    return 'row ' + (r + 1) + ', column ' + (c + 1);
  }

  // -- the board by keyboard -----------------------------------------------------------
  // The board is one stop for Tab (a roving tab index): the cell focused last, else the
  // first that can be played. The arrow keys move between cells as they are shown
  // (flipped or not); Enter or Space presses one. A board drawn anew keeps the focus on
  // the same cell, so a move played by keys leaves the keys where they were.

  let focusAt = null;  // [r, c] of the board's cell in the tab order

  function boardCell(r, c) {
    return $('board').querySelector('button.cell[data-row="' + r + '"][data-col="' + c + '"]');
  }

  function tabStop(box, focused) {
    const cells = box.querySelectorAll('button.cell');
    if (!cells.length) return;
    const current = (focusAt && boardCell(focusAt[0], focusAt[1])) ||
      box.querySelector('button.cell.legal, button.cell.movable') || cells[0];
    for (const cell of cells) cell.tabIndex = cell === current ? 0 : -1;
    if (focused) current.focus({preventScroll: true});
  }

  function focusCell(cell) {
    const old = $('board').querySelector('button.cell[tabindex="0"]');
    if (old && old !== cell) old.tabIndex = -1;
    cell.tabIndex = 0;
    focusAt = [Number(cell.dataset.row), Number(cell.dataset.col)];
    if (document.activeElement !== cell) cell.focus();
  }

  const ARROWS = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

  // The next cell that way; a gap (a light square of checkers) is stepped over.
  function arrowKey(event) {
    const step = ARROWS[event.key];
    const from = event.target.closest('button.cell');
    if (!step || !from || !state || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const sign = flipped ? -1 : 1;
    const rows = state.board.rows;
    let r = Number(from.dataset.row);
    let c = Number(from.dataset.col);
    for (;;) {
      r += sign * step[0];
      c += sign * step[1];
      if (r < 0 || c < 0 || r >= rows.length || c >= rows[0].length) return;
      const next = boardCell(r, c);
      if (next) {
        focusCell(next);
        return;
      }
    }
  }

  $('board').addEventListener('keydown', arrowKey);
  $('board').addEventListener('focusin', (event) => {
    if (event.target.matches('button.cell')) focusCell(event.target);
  });

  // A box that scrolls sideways (a long position text on a phone) is a stop for Tab, so
  // that the keys scroll it too; one that does not scroll is none.
  function reachable(element) {
    if (element.scrollWidth > element.clientWidth) element.tabIndex = 0;
    else element.removeAttribute('tabindex');
  }

  window.addEventListener('resize', () => reachable($('board-text')));

  // -- boards played with pieces (chess, checkers) ----------------------------------
  // The server lists each legal move's path (the cells its piece stands on and lands
  // on); a person clicks a piece, then where it goes. A click on the next square a
  // move lands on follows those moves (and plays the one left, if one is); a click on
  // the last square of a multiple jump plays it when only one sequence of the piece
  // ends there; where several do, the squares along the way tell them apart. The
  // rules stay on the server. A pawn's promotion is chosen in a small chooser.

  const GLYPHS = {k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f'};
  const PIECE_NAMES = {k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn'};
  const TEXT_STYLE = '\ufe0e';  // a glyph as text, never as an emoji

  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  const pathKey = (path) => path.map(([r, c]) => cellKey(r, c)).join(' ');

  function pieceMoves() {
    if (state.terminal || state.chance || isEngine(state.to_move)) return [];
    return state.legal.filter((m) => m.path);
  }

  // The moves still open once the cells in `selected` were clicked.
  function candidates() {
    if (!selected) return [];
    return pieceMoves().filter((m) => m.path.length > selected.length &&
      selected.every((cell, i) => same(cell, m.path[i])));
  }

  function clickCell(r, c) {
    showError('');
    const here = [r, c];
    const movable = pieceMoves().some((m) => same(m.path[0], here));
    if (selected) {
      const open = candidates();
      const next = selected.concat([here]);
      // The moves whose next square is this one: ending here, or going on from here.
      const along = open.filter((m) => next.every((cell, i) => same(cell, m.path[i])));
      const onward = along.filter((m) => m.path.length > next.length);
      // The moves ending here by other ways.
      const ending = open.filter((m) => same(m.path[m.path.length - 1], here));
      const endings = new Set(ending.map((m) => pathKey(m.path)));
      if (along.length && !onward.length) {
        choose(along);
        return;
      }
      if (!along.length && endings.size === 1) {
        choose(ending);
        return;
      }
      if (onward.length) {
        selected = next;
        const left = candidates();
        if (new Set(left.map((m) => pathKey(m.path))).size === 1) choose(left);
        else drawBoard();
        return;
      }
      if (endings.size > 1) {
        showError('Several captures end there: click the squares the piece jumps to on the way.');
        return;
      }
      if (same(selected[0], here) || !movable) {
        selected = null;
        closeChooser();
        drawBoard();
        return;
      }
    }
    if (movable) {
      selected = [here];
      closeChooser();
      drawBoard();
    }
  }

  // Play the move, or ask which piece a pawn becomes (the moves differ only in that).
  function choose(moves) {
    if (moves.length === 1) {
      humanMove(moves[0].text);
      return;
    }
    const box = $('chooser');
    const buttons = $('chooser-pieces');
    buttons.textContent = '';
    const colour = state.to_move === 0 ? 'p0' : 'p1';
    for (const letter of ['q', 'r', 'b', 'n']) {
      const move = moves.find((m) => m.promotion === letter);
      if (!move) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.promotion = letter;
      button.setAttribute('aria-label', PIECE_NAMES[letter] + ' (' + move.text + ')');
      button.title = PIECE_NAMES[letter];
      const glyph = document.createElement('span');
      glyph.className = 'glyph ' + colour;
      glyph.textContent = GLYPHS[letter] + TEXT_STYLE;
      button.appendChild(glyph);
      button.addEventListener('click', () => {
        closeChooser();
        humanMove(move.text);
      });
      buttons.appendChild(button);
    }
    box.hidden = false;
    buttons.firstChild.focus();
  }

  // The chooser closed with the focus in it: the focus goes back to the board.
  function closeChooser() {
    const focused = $('chooser').contains(document.activeElement);
    $('chooser').hidden = true;
    const cell = focused && $('board').querySelector('button.cell[tabindex="0"]');
    if (cell) cell.focus();
  }

  function drawPieceBoard(box, board) {
    const chess = board.style === 'chess';
    const moves = pieceMoves();
    const open = candidates();
    const movable = new Set(moves.map((m) => cellKey(...m.path[0])));
    const targets = new Set(open.map((m) => cellKey(...m.path[m.path.length - 1])));
    const steps = new Set(open.map((m) => cellKey(...m.path[selected.length])));
    const onPath = new Set((selected || []).map(([r, c]) => cellKey(r, c)));
    const last = new Set(state.last.map(([r, c]) => cellKey(r, c)));
    const hinted = new Set();
    if (hint) {
      const move = state.legal.find((m) => m.index === hint.index);
      for (const [r, c] of (move && move.path) || []) hinted.add(cellKey(r, c));
    }
    const order = (n) => Array.from({length: n}, (_, i) => (flipped ? n - 1 - i : i));
    const labelled = board.row_labels.length > 0;
    box.style.gridTemplateColumns = (labelled ? 'auto ' : '') + 'repeat(8, var(--cell))';
    // Squares as large as the screen allows, up to 64 px; a phone's width holds all eight.
    // (The page's and the board's padding and the rank labels take 48 px of a phone's width.)
    const margin = labelled ? 48 : 30;
    box.style.setProperty('--cell', 'max(24px, min(64px, calc((100vw - ' + margin + 'px) / 8), calc((100vh - 280px) / 8)))');
    const label = (text) => {
      const span = document.createElement('span');
      span.className = 'label';
      span.textContent = text;
      box.appendChild(span);
    };
    if (labelled) {
      label('');
      for (const c of order(8)) label(board.columns[c]);
    }
    const person = !isEngine(state.to_move) && !state.terminal;
    for (const r of order(8)) {
      if (labelled) label(board.row_labels[r]);
      for (const c of order(8)) {
        const key = cellKey(r, c);
        const piece = board.rows[r][c];
        // Checkers' light squares are never played on: no buttons, hidden from screen
        // readers (a drop there still says why).
        const square = chess ? board.columns[c] + board.row_labels[r] : board.numbers[r][c];
        const cell = document.createElement(square ? 'button' : 'div');
        if (square) cell.type = 'button';
        else cell.setAttribute('aria-hidden', 'true');
        cell.className = 'cell ' + ((r + c) % 2 ? 'dark' : 'light');
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.dataset.square = square;
        const name = [square];
        if (!chess && board.numbers[r][c]) {
          const number = document.createElement('span');
          number.className = 'number';
          number.textContent = board.numbers[r][c];
          cell.appendChild(number);
        }
        let mark = null;
        if (/[a-zA-Z]/.test(piece)) {
          const mine = chess ? piece === piece.toUpperCase() : 'bB'.includes(piece);
          mark = document.createElement('span');
          mark.className = 'piece ' + (mine ? 'p0' : 'p1');
          if (chess) {
            mark.classList.add('glyph');
            mark.textContent = GLYPHS[piece.toLowerCase()] + TEXT_STYLE;
            name.push(state.players[mine ? 0 : 1].toLowerCase() + ' ' + PIECE_NAMES[piece.toLowerCase()]);
          } else {
            const king = piece === piece.toUpperCase();
            if (king) {
              mark.classList.add('king');
              mark.textContent = GLYPHS.q + TEXT_STYLE;
            }
            name.push(state.players[mine ? 0 : 1].toLowerCase() + (king ? ' king' : ' man'));
          }
          cell.appendChild(mark);
          // The side to move's pieces can be picked up (those without a move too: a drop
          // then says why).
          if (person && mine === (state.to_move === 0)) {
            cell.classList.add('own');
            cell.addEventListener('pointerdown', (event) => pressPiece(event, r, c));
          }
        }
        if (!mark) name.push('empty');
        if (movable.has(key)) cell.classList.add('movable');
        if (onPath.has(key)) {
          cell.classList.add('selected');
          name.push('selected');
        }
        if (targets.has(key)) {
          cell.classList.add('legal');
          name.push('move here');
        } else if (steps.has(key)) {
          cell.classList.add('step');
          name.push('jump through');
        }
        if (last.has(key)) cell.classList.add('last');
        if (hinted.has(key)) cell.classList.add('hint');
        if (board.check && same(board.check, [r, c])) {
          cell.classList.add('check');
          name.push('in check');
        }
        if (person) cell.addEventListener('click', () => clickCell(r, c));
        else if (square) cell.setAttribute('aria-disabled', 'true');
        if (square) cell.setAttribute('aria-label', name.join(', '));
        box.appendChild(cell);
        if (press && press.dragging && same(press.from, [r, c]) && mark) {
          cell.classList.add('lifted');
          press.ghost = mark.cloneNode(true);
          press.ghost.classList.add('drag-ghost');
          if (press.touch) press.ghost.classList.add('touch');  // larger, above the finger
          press.ghost.setAttribute('aria-hidden', 'true');
        }
      }
    }
    if (press && press.ghost) {
      box.appendChild(press.ghost);  // fixed: out of the grid, over the board
      moveGhost();
    }
  }

  // -- dragging a piece (mouse, pen or touch, through pointer events) ---------------
  // A press on a piece of the side to move that goes on for more than a few pixels
  // picks the piece up: a copy follows the pointer, the squares it may land on are
  // marked as after a click, the square under the pointer is outlined. Let go on a
  // marked square: the move is played (a pawn's promotion opens the chooser; where
  // several jumps end there, the piece stays picked and the squares on the way are
  // clicked). On another square the server is asked to play the move and its reason
  // for refusing is shown, as for a typed move; off the board (or on Escape) the piece
  // is put back; on its own square it stays picked, as after a click. A press without
  // a drag is a click, so clicking piece and square still works, and the keyboard
  // too; a drag is none (the board is drawn anew as the piece is picked up, so the
  // browser sends no click for the press).

  const DRAG_PIXELS = 5;   // how far the pointer goes before a press becomes a drag

  function pressPiece(event, r, c) {
    if (!event.isPrimary || event.button !== 0) return;  // a second finger, a right click
    press = {id: event.pointerId, touch: event.pointerType === 'touch', from: [r, c],
      x: event.clientX, y: event.clientY,
      startX: event.clientX, startY: event.clientY, dragging: false, ghost: null, over: null};
  }

  function movePointer(event) {
    if (!press || event.pointerId !== press.id) return;
    press.x = event.clientX;
    press.y = event.clientY;
    if (!press.dragging) {
      if (Math.hypot(press.x - press.startX, press.y - press.startY) < DRAG_PIXELS) return;
      press.dragging = true;
      showError('');
      closeChooser();
      selected = [press.from];
      drawBoard();  // the targets marked, the piece lifted
    }
    moveGhost();
    const cell = cellAt(press.x, press.y);
    if (cell !== press.over) {
      if (press.over) press.over.classList.remove('drop');
      if (cell) cell.classList.add('drop');
      press.over = cell;
    }
  }

  function moveGhost() {
    if (!press.ghost) return;
    press.ghost.style.left = press.x + 'px';
    press.ghost.style.top = press.y + 'px';
  }

  // The board's cell under a point of the window, or null.
  function cellAt(x, y) {
    const found = document.elementFromPoint(x, y);
    const cell = found && found.closest('.cell');
    return cell && $('board').contains(cell) ? cell : null;
  }

  function release(event) {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null;
    if (!done.dragging) return;  // a click: the browser sends it
    const cell = event.type === 'pointerup' ? cellAt(event.clientX, event.clientY) : null;
    drop(done.from, cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null);
  }

  function drop(from, to) {
    selected = null;
    if (to && same(to, from)) selected = [from];  // put down where it was: still picked
    if (!to || same(to, from)) {
      drawBoard();
      return;
    }
    const ending = pieceMoves().filter((m) => same(m.path[0], from) &&
      same(m.path[m.path.length - 1], to));
    const ways = new Set(ending.map((m) => pathKey(m.path)));
    if (ways.size === 1) {
      selected = [from];
      drawBoard();
      choose(ending);
    } else if (ways.size > 1) {
      selected = [from];
      drawBoard();
      showError('Several captures end there: click the squares the piece jumps to on the way.');
    } else {
      drawBoard();
      refuse(from, to);
    }
  }

  // A drop where no legal move goes: the server is asked to play it, and says why not.
  async function refuse(from, to) {
    const board = state.board;
    const chess = board.style === 'chess';
    const name = ([r, c]) => (chess ? board.columns[c] + board.row_labels[r] : board.numbers[r][c]);
    if (!name(to)) {
      showError('The pieces move on the dark squares only.');
      return;
    }
    const jump = Math.abs(to[0] - from[0]) === 2;
    const text = name(from) + (chess ? '' : (jump ? 'x' : '-')) + name(to);
    const before = state;
    const answer = await post('/api/play/move', roomBody({move: text}));
    if (state !== before) return;  // something else moved on meanwhile
    if (answer.ok) show(answer.doc);
    else showError(answer.doc.error);
  }

  document.addEventListener('pointermove', movePointer);
  document.addEventListener('pointerup', release);
  document.addEventListener('pointercancel', release);
  function putBack() {
    if (!press || !press.dragging) return;
    press = null;
    selected = null;
    drawBoard();
  }

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') putBack();
  });
  window.addEventListener('blur', putBack);  // the window left mid-drag: no release comes

  function drawMoves() {
    const box = $('moves');
    box.textContent = '';
    if (state.terminal) return;
    if (state.chance) {
      const roll = document.createElement('button');
      roll.type = 'button';
      roll.id = 'roll';
      roll.className = 'primary';
      roll.textContent = 'Roll the die';
      roll.addEventListener('click', () => change('/api/play/roll', roomBody()));
      box.appendChild(roll);
    }
    for (const move of state.legal) {
      if (move.path || (move.cells && move.cells.length)) continue;  // played on the board (a pass is not)
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.textContent = move.text;
      button.dataset.index = move.index;
      if (move.probability !== undefined) button.title = 'probability ' + move.probability.toFixed(3);
      if (hint && hint.index === move.index) button.classList.add('hint');
      button.addEventListener('click', () => humanMove(move.text));
      box.appendChild(button);
    }
    if (state.legal_count > state.legal.length) {
      const more = document.createElement('span');
      more.className = 'help';
      more.textContent = ' and ' + (state.legal_count - state.legal.length) + ' more: type them below';
      box.appendChild(more);
    }
  }

  // -- moves -------------------------------------------------------------------------

  function humanMove(text) {
    if (search && search.play) {  // the engine is moving
      showError('The engine is thinking: wait, or press Stop to have it move now.');
      return;
    }
    stopSearch(true);
    change('/api/play/move', roomBody({move: text}));
  }

  function engineTurn() {
    if (!state || state.terminal || search || !isEngine(state.to_move)) return;
    const mine = generation;
    if (state.chance) {
      setTimeout(() => {
        if (mine === generation && !search) change('/api/play/roll', roomBody());
      }, 300);
      return;
    }
    think(true);
  }

  // Take back the last move, and the engine's moves (and dice) after a person's last one.
  function undo() {
    stopSearch(true);
    const movers = state.movers;
    let count = 0;
    while (count < movers.length) {
      const mover = movers[movers.length - 1 - count];
      count++;
      if (seats().every(isEngine)) break;
      if (mover !== null && !isEngine(mover)) break;
    }
    if (count) change('/api/play/undo', roomBody({count: count}));
  }

  // -- the engine --------------------------------------------------------------------

  function stopSearch(drop) {
    if (!search) return;
    if (drop) {
      search.controller.abort();  // the server stops the search when the client goes
      search = null;
      generation++;
      $('stop').disabled = true;
      return;
    }
    post('/api/play/stop', {id: search.id});  // the engine answers with its best so far
  }

  function addInfo(info) {
    const row = document.createElement('tr');
    for (const text of [info.depth, info.score, info.pv.join(' '), info.nodes, info.nps]) {
      const cell = document.createElement('td');
      cell.textContent = String(text);
      row.appendChild(cell);
    }
    $('analysis').tBodies[0].appendChild(row);
  }

  async function think(play) {
    const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
    const controller = new AbortController();
    const mine = ++generation;
    search = {id: id, controller: controller, play: play};
    $('stop').disabled = false;
    $('analysis').tBodies[0].textContent = '';
    const doing = play ? state.player + ', the engine, is thinking' : 'Looking for a hint';
    $('engine-note').textContent = sentence(doing) + '… Scores are for ' + state.player + '.';
    showStatus(play ? 'Thinking…' : '');
    let response;
    try {
      response = await fetch('/api/play/think', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, signal: controller.signal,
        body: JSON.stringify(roomBody(Object.assign({id: id, play: play}, strength())))});
      if (!response.ok) {
        const doc = await response.json();
        throw new Error(doc.error);
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, {stream: true});
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (mine === generation) handleEvent(message, play);
        }
      }
    } catch (error) {
      if (error.name !== 'AbortError' && mine === generation) {
        showError(error.message);
        $('engine-note').textContent = '';
      }
    } finally {
      if (search && search.id === id) {
        search = null;
        $('stop').disabled = true;
        if (mine === generation) showStatus();
      }
    }
  }

  function handleEvent(message, play) {
    let kind = 'message';
    let data = '';
    for (const line of message.split('\n')) {
      if (line.startsWith('event: ')) kind = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    const item = JSON.parse(data);
    if (kind === 'info') {
      addInfo(item);
    } else if (kind === 'error') {
      showError(item.error);
      $('engine-note').textContent = '';
    } else if (kind === 'best') {
      const how = 'depth ' + item.depth + ', ' + item.score + (item.stopped ? ', cut short' : '');
      if (play) {
        $('engine-note').textContent = sentence(state.player) + ' played ' + item.text + ' (' + how + ').';
        search = null;
        $('stop').disabled = true;
        show(item.state);
      } else {
        $('engine-note').textContent = 'Hint: ' + item.text + ' (' + how + ').';
        hint = {index: item.index, text: item.text};
        drawBoard();
        drawMoves();
      }
    }
  }

  // -- the controls ------------------------------------------------------------------

  // A new engine setting: the link keeps it and the export names it (not during a search).
  function refreshNames() {
    shareLink();
    if (state && !search) change('/api/play/state', roomBody());
  }

  async function newGame(position) {
    stopSearch(true);
    $('analysis').tBodies[0].textContent = '';
    $('engine-note').textContent = '';
    drawSeats(playerCount());
    const body = {game: spec(), position: typeof position === 'string' ? position : '', moves: [], names: names()};
    return change('/api/play/state', body);
  }

  async function copy(input) {
    const text = input.value;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {  // no clipboard API (a page not served from a secure origin)
      input.select();
      document.execCommand('copy');
    }
    showStatus('Copied.');
  }

  // The algorithm the address names: one the menu lacks (mtdf...) joins it, for the server to check.
  function algorithmFromURL(query) {
    const name = query.get('algorithm');
    if (name && name !== 'pvs') {
      if (![...$('algorithm').options].some((option) => option.value === name)) {
        $('algorithm').add(new Option(name, name));
      }
      $('algorithm').value = name;
    }
    showLimits();
  }

  function fromURL() {
    const query = new URLSearchParams(window.location.search);
    algorithmFromURL(query);
    if (!query.has('game') || !setSpec(query.get('game'))) {
      drawParams();
      defaultStrength();
      return null;
    }
    defaultStrength();
    drawSeats(playerCount());
    for (const p of seats()) {
      const side = 'side' + p;
      if (['human', 'engine'].includes(query.get(side))) $(side).value = query.get(side);
    }
    for (const kind of ['depth', 'iterations', 'seconds']) {
      if (query.has(kind) && limitsOf(algorithm()).includes(kind)) setLimit(kind, query.get(kind));
    }
    const moves = (query.get('moves') || '').split(/\s+/).filter(Boolean);
    return {game: spec(), position: query.get('position') || '', moves: moves, names: names()};
  }

  $('game').addEventListener('change', () => {
    drawParams();
    drawSeats(playerCount());
    defaultStrength();
    newGame();
  });
  $('algorithm').addEventListener('change', () => {
    showLimits();
    refreshNames();
  });
  $('limit-kind').addEventListener('change', () => {
    const kind = $('limit-kind').value;
    setLimit(kind, kind === 'iterations' ? '1000' : kind === 'depth' ? '4' : '1');
    refreshNames();
  });
  $('strength').addEventListener('change', refreshNames);
  $('new').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('hint').addEventListener('click', () => {
    if (!search) think(false);
  });
  $('stop').addEventListener('click', () => stopSearch(false));
  $('flip').addEventListener('click', () => {
    flipped = !flipped;
    $('flip').setAttribute('aria-pressed', String(flipped));
    drawBoard();
  });
  for (const side of ['side0', 'side1']) $(side).addEventListener('change', seatChanged);
  $('chooser-cancel').addEventListener('click', () => {
    closeChooser();
    selected = null;
    drawBoard();
  });
  $('chooser').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') $('chooser-cancel').click();
  });
  $('load').addEventListener('click', () => newGame($('position').value));
  $('copy').addEventListener('click', () => copy($('position')));
  $('copy-export').addEventListener('click', () => copy($('export')));
  $('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('move-text').value.trim();
    if (!text) return;
    $('move-text').value = '';
    humanMove(text);
  });

  const start = fromURL();
  if (start) {
    change('/api/play/state', start).then((doc) => {
      if (!doc) newGame();
    });
  } else {
    newGame();
  }
})();
