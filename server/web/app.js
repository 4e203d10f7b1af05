// The page of `egtb serve`: a board, the value of the position and of every move (from
// /api/lasker), the optimal line (/api/lasker/mainline), a table explorer (/api/tables,
// /api/stats/SIG) and CQL queries (POST /api/query), under the rule set chosen (every request
// names it: rules=). Plain JavaScript, no framework, nothing loaded from outside this server. The
// position is in the URL (?fen=, '_' for spaces; &rules= when it is not the server's default), so
// the browser's back and forward buttons step through the positions visited.
'use strict';

const DEFAULT_FEN = '8/8/8/8/8/1N6/8/1k1K4 w - - 0 1';
const SQUARE = 45;
const BOARD_LEFT = 20;
const FILES = 'abcdefgh';

// The results of each rule set, best first, from the side to move (or the mover of a move), and
// how the page names them: the JSON key of each one's depth, the titles of the move groups, a
// badge's words, the status line's verbs, the Table 2 headings, the Table 1 rows (the maxima of
// /api/tables and /api/stats) and the legend.
const RULES = {
  lasker: {
    categories: ['win', 'stalemate-win', 'draw', 'stalemate-loss', 'loss'],
    depth: { win: 'dtm', 'stalemate-win': 'dts', 'stalemate-loss': 'dts', loss: 'dtm' },
    titles: { win: 'Winning: mate', 'stalemate-win': 'Winning: stalemate the opponent', draw: 'Drawing',
      'stalemate-loss': 'Losing: stalemated', loss: 'Losing: mated' },
    ends: { win: 'mate in', 'stalemate-win': 'stalemate in', 'stalemate-loss': 'stalemated in', loss: 'mated in' },
    verbs: { win: 'mates', 'stalemate-win': 'forces stalemate', 'stalemate-loss': 'is stalemated', loss: 'is mated' },
    shares: { win: 'mates', 'stalemate-win': 'stalemates', draw: 'draw', 'stalemate-loss': 'is stalemated',
      loss: 'is mated' },
    maxima: [['maxdts', 'maxDTS', 'deepest forced stalemate in plies, per stalemater (w, b), either side to move'],
      ['maxdtm', 'maxDTM', 'deepest forced mate in plies, per mater (w, b), either side to move']],
    legend: [['win', 'mate'], ['stalemate-win', 'stalemate the opponent'], ['draw', 'draw'],
      ['stalemate-loss', 'be stalemated'], ['loss', 'be mated']],
    metrics: 'DTM = plies to mate, DTS = plies to stalemate',
  },
  'stalemate-wins': {
    categories: ['win', 'draw', 'loss'],
    depth: { win: 'dte', loss: 'dte' },
    titles: { win: 'Winning: mate or stalemate', draw: 'Drawing', loss: 'Losing: mated or stalemated' },
    ends: { win: 'mate or stalemate in', loss: 'mated or stalemated in' },
    verbs: { win: 'wins', loss: 'loses' },
    shares: { win: 'wins', draw: 'draw', loss: 'loses' },
    maxima: [['maxdte', 'maxDTE', 'deepest forced win (mate or stalemate) in plies, per winner (w, b), either side to move']],
    legend: [['win', 'mate or stalemate the opponent'], ['draw', 'draw'], ['loss', 'be mated or stalemated']],
    metrics: 'a stalemated side loses · DTE = plies to the first mate or stalemate',
  },
  'stalemate-passes': {
    categories: ['win', 'draw', 'loss'],
    depth: { win: 'dtm', loss: 'dtm' },
    titles: { win: 'Winning: mate', draw: 'Drawing', loss: 'Losing: mated' },
    ends: { win: 'mate in', loss: 'mated in' },
    verbs: { win: 'mates', loss: 'is mated' },
    shares: { win: 'wins', draw: 'draw', loss: 'loses' },
    maxima: [['maxdtm', 'maxDTM', 'deepest forced mate in plies, per mater (w, b), either side to move']],
    legend: [['win', 'mate'], ['draw', 'draw'], ['loss', 'be mated']],
    metrics: 'a stalemated side passes (--) · DTM = plies to mate, passes counted',
  },
};
const OPPOSITE = {
  win: 'loss', 'stalemate-win': 'stalemate-loss', draw: 'draw', 'stalemate-loss': 'stalemate-win', loss: 'win',
};
const VALUE = { win: 4, 'stalemate-win': 3, draw: 2, 'stalemate-loss': 1, loss: 0 };

const state = {
  fen: DEFAULT_FEN,
  rules: 'lasker',     // the rule set of every request
  defaultRules: null,  // the server's, from /api/tables: a URL names other rules only
  orientation: 'w',
  report: null,      // the /api/lasker answer of the position shown
  mainline: null,    // the /api/lasker/mainline answer
  selected: null,    // the square of the man picked on the board
  lastMove: null,    // the UCI of the move that led here
  depth: 0,          // positions pushed on the browser history by this page
  token: 0,          // the latest navigation: older answers are dropped
};

const $ = (id) => document.getElementById(id);

function fenToUrl(fen) { return fen.trim().replace(/ /g, '_'); }
function fenFromUrl(text) { return text.replace(/_/g, ' '); }
const rules = () => RULES[state.rules] || RULES.lasker;
// The page's URL of a position: ?fen=, and &rules= unless they are the server's.
function pageUrl(fen) {
  const named = state.defaultRules && state.rules !== state.defaultRules ? `&rules=${state.rules}` : '';
  return `?fen=${fenToUrl(fen)}${named}`;
}
// An API path with the rules of the page: api/lasker?fen=... -> api/lasker?fen=...&rules=...
function api(path) { return `api/${path}${path.includes('?') ? '&' : '?'}rules=${encodeURIComponent(state.rules)}`; }

async function getJson(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try { body = await response.json(); } catch (e) { body = { error: response.statusText }; }
  if (!response.ok) {
    const error = new Error(body && body.error ? body.error : `HTTP ${response.status}`);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

// --- the board -----------------------------------------------------------------------------

// The men of a FEN's first field, by square name; empty when it cannot be read.
function placement(fen) {
  const men = {};
  const rows = (fen.trim().split(/\s+/)[0] || '').split('/');
  if (rows.length !== 8) return men;
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/[1-8]/.test(c)) file += Number(c);
      else if (/[KQRBNPkqrbnp]/.test(c) && file < 8) men[FILES[file++] + (8 - i)] = c;
      else return;
    }
  });
  return men;
}

function sideToMove(fen) { return (fen.trim().split(/\s+/)[1] || 'w') === 'b' ? 'b' : 'w'; }

function squareXY(square) {
  let file = FILES.indexOf(square[0]);
  let rank = Number(square[1]) - 1;
  if (state.orientation === 'b') { file = 7 - file; rank = 7 - rank; }
  return [BOARD_LEFT + file * SQUARE, (7 - rank) * SQUARE];
}

function svg(tag, attributes, parent) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function drawBoard() {
  const board = $('board');
  board.replaceChildren();
  const men = placement(state.fen);
  const targets = targetsOf(state.selected);
  for (let rank = 1; rank <= 8; ++rank) {
    for (let f = 0; f < 8; ++f) {
      const square = FILES[f] + rank;
      const [x, y] = squareXY(square);
      const dark = (f + rank) % 2 === 1;
      const rect = svg('rect', { x, y, width: SQUARE, height: SQUARE, 'data-square': square,
        class: `square ${dark ? 'dark' : 'light'}` }, board);
      if (state.lastMove && (state.lastMove.slice(0, 2) === square || state.lastMove.slice(2, 4) === square))
        rect.classList.add('last-move');
      if (state.selected === square) rect.classList.add('selected');
      rect.addEventListener('click', () => clickSquare(square));
    }
  }
  for (const [square, piece] of Object.entries(men)) {
    const [x, y] = squareXY(square);
    const white = piece === piece.toUpperCase();
    const group = svg('g', { 'data-square': square, 'data-piece': piece, class: 'man' }, board);
    svg('use', { href: `#${white ? 'w' : 'b'}${piece.toUpperCase()}`, x, y, width: SQUARE, height: SQUARE }, group);
    group.addEventListener('click', () => clickSquare(square));
  }
  for (const square of targets) {
    const [x, y] = squareXY(square);
    svg('circle', { cx: x + SQUARE / 2, cy: y + SQUARE / 2, r: 7, class: 'target', 'data-target': square }, board)
      .addEventListener('click', () => clickSquare(square));
  }
  drawCoordinates(board);
}

function drawCoordinates(board) {
  for (let i = 0; i < 8; ++i) {
    const file = state.orientation === 'w' ? FILES[i] : FILES[7 - i];
    const rank = state.orientation === 'w' ? 8 - i : i + 1;
    svg('text', { x: BOARD_LEFT + i * SQUARE + SQUARE / 2, y: 8 * SQUARE + 15, class: 'coordinate' }, board)
      .textContent = file;
    svg('text', { x: 9, y: i * SQUARE + SQUARE / 2 + 5, class: 'coordinate' }, board).textContent = rank;
  }
}

// The squares the man on `from` can move to, from the legal moves of the report.
function targetsOf(from) {
  if (!from || !state.report) return [];
  return state.report.moves.filter((m) => m.uci.startsWith(from)).map((m) => m.uci.slice(2, 4));
}

function clickSquare(square) {
  const targets = targetsOf(state.selected);
  if (state.selected && targets.includes(square)) {
    // Moves are best first: a promotion takes its best piece.
    const move = state.report.moves.find((m) => m.uci.slice(0, 4) === state.selected + square);
    state.selected = null;
    playMove(move);
    return;
  }
  state.selected = targetsOf(square).length ? square : null;
  drawBoard();
}

// --- values in words -------------------------------------------------------------------------

function movesOf(plies, winning) { return winning ? (plies + 1) / 2 : plies / 2; }
function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

// "DTS 27 plies · 14 moves" for a side that wins or loses at this depth.
function depthWords(metric, plies, winning) {
  return `${metric} ${plural(plies, 'ply').replace('plys', 'plies')} · ${plural(movesOf(plies, winning), 'move')}`;
}

function positionWords(report) {
  const side = sideToMove(report.fen) === 'w' ? 'White' : 'Black';
  if (report.checkmate) return `${side} is checkmated`;
  if (report.stalemate && state.rules === 'lasker') return `${side} is stalemated`;
  if (report.stalemate && state.rules === 'stalemate-wins') return `${side} is stalemated: loses`;
  const passes = report.stalemate ? ' and passes' : '';  // stalemate-passes
  const key = rules().depth[report.category];
  if (!key) return `${side} ${passes ? `is stalemated${passes}` : 'to move'}: draw`;
  const who = passes ? `is stalemated${passes}, then` : 'to move';
  return `${side} ${who} ${rules().verbs[report.category]}: ` +
    depthWords(key.toUpperCase(), report[key], report.category === 'win' || report.category === 'stalemate-win');
}

// A move as its mover sees it: the result, and plies and moves to it counting the move itself.
function moverView(move) {
  const category = OPPOSITE[move.category];
  const key = rules().depth[category];
  const plies = key ? move[key] + 1 : null;
  return { category, metric: key ? key.toUpperCase() : null, plies,
    winning: category === 'win' || category === 'stalemate-win' };
}

function badgeText(view) {
  if (!view.metric) return 'draw';
  const n = movesOf(view.plies, view.winning);
  const what = rules().ends[view.category];
  return `${view.metric} ${view.plies} ${view.plies === 1 ? 'ply' : 'plies'} · ${what} ${plural(n, 'move')}`;
}

// "DTM 3" or "DTS 12" of a value with a depth (the rules' metrics), else its category.
function depthTitle(values) {
  const key = rules().depth[values.category];
  return key && values[key] !== null ? `${key.toUpperCase()} ${values[key]}` : values.category;
}

// --- showing a position -------------------------------------------------------------------------

async function show(fen, { push = false, lastMove = null } = {}) {
  const token = ++state.token;
  fen = fen.trim();
  state.fen = fen;
  state.lastMove = lastMove;
  state.selected = null;
  state.report = null;
  state.mainline = null;
  if (push) {
    state.depth += 1;
    history.pushState({ fen, lastMove, depth: state.depth, rules: state.rules }, '', pageUrl(fen));
  }
  $('fen').value = fen;
  $('side-to-move').textContent = `${sideToMove(fen) === 'w' ? 'White' : 'Black'} to move`;
  $('side-to-move').dataset.side = sideToMove(fen);
  $('back').disabled = state.depth === 0;
  drawBoard();
  setStatus('Probing…', 'pending');
  $('moves').replaceChildren();
  $('mainline').replaceChildren();
  $('line-end').textContent = '';
  delete $('line-end').dataset.end;
  try {
    const report = await getJson(api(`lasker?fen=${encodeURIComponent(fenToUrl(fen))}`));
    if (token !== state.token) return;
    state.report = report;
    state.fen = report.fen;
    $('fen').value = report.fen;
    setStatus(positionWords(report), report.category);
    renderMoves(report);
    drawBoard();
    updateButtons();
    loadMainline(report.fen, token);
  } catch (error) {
    if (token !== state.token) return;
    setStatus(error.message, 'error');
    updateButtons();
  }
}

function setStatus(text, category) {
  const status = $('status');
  status.textContent = text;
  status.className = `cat-${category}`;
  status.dataset.category = category;
}

function updateButtons() {
  const moves = state.report ? state.report.moves : [];
  $('best').disabled = moves.length === 0;
  $('to-end').disabled = !(state.mainline && state.mainline.mainline.length);
  $('back').disabled = state.depth === 0;
}

function renderMoves(report) {
  const box = $('moves');
  box.replaceChildren();
  if (!report.moves.length) {
    const p = document.createElement('p');
    p.className = 'no-moves';
    p.textContent = report.checkmate ? 'Checkmate: no legal move.' : report.stalemate ? 'Stalemate: no legal move.'
      : 'No legal move.';
    box.appendChild(p);
    return;
  }
  for (const category of rules().categories) {
    const moves = report.moves.filter((m) => OPPOSITE[m.category] === category);
    if (!moves.length) continue;
    const group = document.createElement('div');
    group.className = `move-group cat-${category}`;
    group.dataset.category = category;
    const title = document.createElement('h3');
    title.textContent = rules().titles[category];
    group.appendChild(title);
    for (const move of moves) group.appendChild(moveButton(move));
    box.appendChild(group);
  }
}

function moveButton(move) {
  const view = moverView(move);
  const button = document.createElement('button');
  button.className = `move cat-${view.category}`;
  button.dataset.uci = move.uci;
  button.dataset.category = view.category;
  button.title = `${move.uci}: after it, the opponent has ${move.category}` +
    (rules().depth[move.category] ? `, ${depthTitle(move)}` : '');
  const san = document.createElement('span');
  san.className = 'san';
  san.textContent = move.san;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = move.stalemate ? `${badgeText(view)} · stalemate!` : badgeText(view);
  button.append(san, badge);
  button.addEventListener('click', () => playMove(move));
  return button;
}

function playMove(move) {
  if (!move || !state.report) return;
  show(applyUci(state.report.fen, move.uci), { push: true, lastMove: move.uci });
}

// The FEN after a legal move given in UCI ("e7e8q", or "0000" for a pass of stalemate-passes); the
// server checks and normalises it (an e.p. square without a legal e.p. capture is dropped). Tables
// have no castling.
function applyUci(fen, uci) {
  const [placed, side, , , halfmove = '0', fullmove = '1'] = fen.trim().split(/\s+/);
  const number = Number(fullmove) + (side === 'b' ? 1 : 0);
  if (uci === '0000') return `${placed} ${side === 'w' ? 'b' : 'w'} - - ${Number(halfmove) + 1} ${number}`;
  const men = placement(fen);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = men[from];
  const pawn = piece.toUpperCase() === 'P';
  const capture = men[to] !== undefined;
  if (pawn && from[0] !== to[0] && !capture) delete men[to[0] + from[1]];  // en passant
  delete men[from];
  men[to] = uci.length > 4 ? (side === 'w' ? uci[4].toUpperCase() : uci[4]) : piece;
  let ep = '-';
  if (pawn && Math.abs(Number(to[1]) - Number(from[1])) === 2) ep = from[0] + (Number(from[1]) + Number(to[1])) / 2;
  const rows = [];
  for (let rank = 8; rank >= 1; --rank) {
    let row = '';
    let empty = 0;
    for (const file of FILES) {
      const man = men[file + rank];
      if (!man) { empty += 1; continue; }
      row += (empty || '') + man;
      empty = 0;
    }
    rows.push(row + (empty || ''));
  }
  const clock = pawn || capture ? 0 : Number(halfmove) + 1;
  return `${rows.join('/')} ${side === 'w' ? 'b' : 'w'} - ${ep} ${clock} ${number}`;
}

async function loadMainline(fen, token) {
  try {
    const line = await getJson(api(`lasker/mainline?fen=${encodeURIComponent(fenToUrl(fen))}`));
    if (token !== state.token) return;
    state.mainline = line;
    renderMainline(line);
  } catch (error) {
    if (token === state.token) $('line-end').textContent = error.message;
  }
  updateButtons();
}

// A link that shows a position on this page (and opens in a new tab with a modifier key).
function positionLink(fen, text, className, lastMove = null) {
  const link = document.createElement('a');
  link.href = pageUrl(fen);
  link.textContent = text;
  link.className = className;
  link.addEventListener('click', (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    show(fen, { push: true, lastMove });
  });
  return link;
}

function renderMainline(line) {
  const list = $('mainline');
  list.replaceChildren();
  const parts = line.fen.split(/\s+/);
  let number = Number(parts[5] || 1);
  let white = parts[1] !== 'b';
  line.mainline.forEach((step, i) => {
    const item = document.createElement('li');
    const text = `${white ? `${number}.` : i === 0 ? `${number}…` : ''} ${step.san}`.trim();
    const link = positionLink(step.fen, text, 'step', step.uci);
    link.dataset.uci = step.uci;
    link.title = depthTitle(step);
    item.appendChild(link);
    list.appendChild(item);
    if (!white) number += 1;
    white = !white;
  });
  const end = $('line-end');
  end.dataset.end = line.final.checkmate ? 'checkmate' : line.final.stalemate ? 'stalemate' : 'none';
  if (!line.mainline.length) end.textContent = line.final.checkmate || line.final.stalemate
    ? 'The game is over.' : 'A draw: no line to a mate or stalemate.';
  else end.textContent = `Ends in ${line.final.checkmate ? 'checkmate' : 'stalemate'} after ` +
    `${plural(line.mainline.length, 'ply').replace('plys', 'plies')}.`;
}

function playBest() {
  if (!state.report || !state.report.moves.length) return;
  playMove(state.report.moves[0]);
}

function toEnd() {
  if (!state.mainline || !state.mainline.mainline.length) return;
  const last = state.mainline.mainline[state.mainline.mainline.length - 1];
  show(state.mainline.final.fen, { push: true, lastMove: last.uci });
}

function back() { if (state.depth > 0) history.back(); }

function flip() {
  state.orientation = state.orientation === 'w' ? 'b' : 'w';
  drawBoard();
}

// --- the table explorer ----------------------------------------------------------------------

// The rows of a Table 1 field, maxdts or maxdtm, keyed by the winner ({w: {plies, side_to_move,
// ...} | null, b: ...}): one object per winner that has one, with its winner ('w' or 'b').
function deepestList(field) {
  if (!field) return [];
  return ['w', 'b'].filter((c) => field[c]).map((c) => ({ ...field[c], winner: c }));
}

// A Table 1 field of the table list in one cell: "27 (w)", "19 (w) 12 (b)" (plies, winner), or –.
function deepestCell(field) {
  const list = deepestList(field);
  return list.length ? list.map((d) => `${d.plies} (${d.winner})`).join(' ') : '–';
}

let allTables = [];

// Lists the tables of the page's rules (`answer`: /api/tables's answer for them, when at hand).
async function loadTables(answer = null) {
  try {
    answer = answer || await getJson(api('tables'));
    allTables = answer.tables;
    renderTableHead();
    renderTables();
  } catch (error) {
    $('table-detail').textContent = error.message;
  }
}

// The Table 1 columns of the rules: maxDTS and maxDTM under Lasker, the one maximum of the others.
function renderTableHead() {
  const head = $('table-list').tHead.rows[0];
  while (head.cells.length > 4) head.deleteCell(4);
  for (const [, name, title] of rules().maxima) {
    const cell = document.createElement('th');
    cell.textContent = name;
    cell.title = title;
    head.appendChild(cell);
  }
}

function renderTables() {
  const filter = $('table-filter').value.trim();
  const body = $('table-list').tBodies[0];
  body.replaceChildren();
  const shown = allTables.filter((t) => !filter || (/^\d$/.test(filter) ? t.men === Number(filter)
    : t.signature.includes(filter) || t.signature.toLowerCase() === filter.toLowerCase()));
  for (const table of shown) {
    const row = body.insertRow();
    row.dataset.signature = table.signature;
    const cells = [table.signature, table.men, table.sides.w.positions.toLocaleString('en'),
      table.sides.b.positions.toLocaleString('en'), ...rules().maxima.map(([key]) => deepestCell(table[key]))];
    for (const text of cells) row.insertCell().textContent = text;
    row.addEventListener('click', () => openTable(table.signature, true));
  }
  if (!shown.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 4 + rules().maxima.length;
    cell.textContent = allTables.length ? 'No table matches the filter.'
      : `No ${state.rules} tables in the directory: build them with egtb generate --all 4` +
        `${state.rules === 'lasker' ? '' : ` --rules ${state.rules}`} --dir DIR.`;
  }
}

async function openTable(signature, openExample) {
  for (const row of $('table-list').tBodies[0].rows) row.classList.toggle('chosen', row.dataset.signature === signature);
  const detail = $('table-detail');
  detail.textContent = `Statistics of ${signature}…`;
  const convention = $('convention').value;
  try {
    const stats = await getJson(api(`stats/${encodeURIComponent(signature)}?convention=${convention}`));
    renderTableDetail(stats);
    const examples = rules().maxima.flatMap(([key]) => deepestList(stats[key]));
    if (openExample && examples.length) show(examples[0].example, { push: true });
  } catch (error) {
    detail.textContent = error.message;
  }
}

function renderTableDetail(stats) {
  const detail = $('table-detail');
  detail.replaceChildren();
  const title = document.createElement('h3');
  title.textContent = `${stats.signature} (${stats.convention}): Table 1 rows`;
  detail.appendChild(title);
  const table = document.createElement('table');
  table.className = 'table1';
  const head = table.createTHead().insertRow();
  for (const text of ['', 'winner', 'to move', 'plies', 'positions', 'example']) head.insertCell().textContent = text;
  head.lastChild.className = 'example';
  const rows = rules().maxima.map(([key, name]) => [name, stats[key]]);
  for (const [name, field] of rows) {
    const list = deepestList(field);
    if (!list.length) {
      const row = table.insertRow();
      row.insertCell().textContent = name;
      const cell = row.insertCell();
      cell.colSpan = 5;
      cell.className = 'none';
      cell.textContent = 'none';
    }
    for (const d of list) table.appendChild(deepestRow(name, d));
  }
  detail.appendChild(table);
  detail.appendChild(valueTable(stats));
}

// The article's Table 2 row of a table: the share of each value of the rules per side to move.
function valueTable(stats) {
  const table = document.createElement('table');
  table.className = 'table2';
  const head = table.createTHead().insertRow();
  head.insertCell().textContent = 'values';
  for (const category of rules().categories) {
    const cell = head.insertCell();
    cell.textContent = rules().shares[category];
    cell.className = `cat-${category}`;
  }
  for (const side of ['w', 'b']) {
    const counts = stats.sides[side].lasker;
    const total = counts.reduce((a, b) => a + b, 0);
    const row = table.insertRow();
    row.insertCell().textContent = side === 'w' ? 'White to move' : 'Black to move';
    for (const value of rules().categories.map((c) => VALUE[c])) {
      const share = total ? (100 * counts[value]) / total : 0;
      row.insertCell().textContent = counts[value] && share < 0.0005 ? 'ε' : `${share.toFixed(3)}%`;
    }
  }
  return table;
}

function deepestRow(name, d) {
  const row = document.createElement('tr');
  const colour = (c) => (c === 'w' ? 'White' : c === 'b' ? 'Black' : '?');
  for (const text of [name, colour(d.winner), colour(d.side_to_move), d.plies,
    Number(d.positions).toLocaleString('en')]) row.insertCell().textContent = text;
  const link = positionLink(d.example, d.example, 'example');
  const cell = row.insertCell();
  cell.className = 'example';
  cell.appendChild(link);
  return row;
}

// --- queries -----------------------------------------------------------------------------------

async function runQuery(event) {
  event.preventDefault();
  const request = {
    tables: $('query-tables').value,
    query: $('query-text').value,
    limit: Number($('query-limit').value) || 50,
    convention: $('query-convention').value,
    rules: state.rules,
  };
  const error = $('query-error');
  error.hidden = true;
  $('query-results').replaceChildren();
  $('query-summary').textContent = 'Running…';
  $('query-run').disabled = true;
  try {
    const answer = await getJson('api/query', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request),
    });
    renderMatches(answer);
  } catch (e) {
    $('query-summary').textContent = '';
    error.textContent = e.message;
    error.hidden = false;
  } finally {
    $('query-run').disabled = false;
  }
}

function renderMatches(answer) {
  const list = $('query-results');
  let summary = `${plural(answer.count, 'match').replace('matchs', 'matches')} (${answer.convention}), ` +
    `${Number(answer.entries).toLocaleString('en')} entries read in ${answer.seconds.toFixed(2)} s`;
  if (answer.limit_reached) summary += ': the limit stopped the listing, more positions match';
  if (answer.out_of_time) summary += ': the time budget ran out before the scan ended';
  $('query-summary').textContent = summary;
  for (const match of answer.matches) {
    const item = document.createElement('li');
    const link = positionLink(match.fen, match.fen, 'match');
    link.addEventListener('click', () => window.scrollTo({ top: 0 }));
    const values = document.createElement('span');
    values.className = 'values';
    values.textContent = state.rules === 'lasker'
      ? ` ${match.table} · lasker ${match.lasker} · DTM ${match.dtm ?? '–'} · DTS ${match.dts ?? '–'}`
      : ` ${match.table} · ${match.category} · ${depthTitle(match)}`;
    item.append(link, values);
    list.appendChild(item);
  }
}

// --- wiring ------------------------------------------------------------------------------------

function selectTab(button) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const selected = tab === button;
    tab.setAttribute('aria-selected', String(selected));
    $(tab.dataset.panel).hidden = !selected;
  }
}

function onKey(event) {
  if (event.target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === ' ' || event.key === 'ArrowRight') {
    event.preventDefault();
    playBest();
  } else if (event.key === 'ArrowLeft') {
    event.preventDefault();
    back();
  } else if (event.key === 'f') {
    flip();
  }
}

// Shows the rule set chosen: the selector, the legend and the title of the page.
function renderRules() {
  $('rules').value = state.rules;
  const legend = $('legend');
  legend.replaceChildren();
  rules().legend.forEach(([category, words], i) => {
    if (i) legend.append(' > ');
    const span = document.createElement('span');
    span.className = `cat-${category}`;
    span.textContent = words;
    legend.appendChild(span);
  });
  legend.append(` · ${rules().metrics}`);
  $('subtitle').textContent = state.rules === 'lasker' ? 'endgame tables for Lasker chess'
    : `endgame tables, rules ${state.rules}`;
  document.title = state.rules === 'lasker' ? 'egtb · Lasker chess endgame tables'
    : `egtb · endgame tables, ${state.rules}`;
}

// Switches the page to other rules: the tables, their statistics and the position shown.
async function changeRules(name) {
  if (name === state.rules) return;
  state.rules = name;
  renderRules();
  history.replaceState({ ...(history.state || {}), fen: state.fen, rules: name }, '', pageUrl(state.fen));
  $('table-detail').replaceChildren();
  $('query-results').replaceChildren();
  $('query-summary').textContent = '';
  show(state.fen, { lastMove: state.lastMove });
  await loadTables();
}

async function loadPieces() {
  const response = await fetch('pieces.svg');
  $('piece-sprites').innerHTML = await response.text();
}

async function start() {
  $('fen-form').addEventListener('submit', (event) => {
    event.preventDefault();
    show($('fen').value, { push: true });
  });
  $('best').addEventListener('click', playBest);
  $('back').addEventListener('click', back);
  $('to-end').addEventListener('click', toEnd);
  $('flip').addEventListener('click', flip);
  $('table-filter').addEventListener('input', renderTables);
  $('convention').addEventListener('change', () => {
    const chosen = $('table-list').querySelector('tr.chosen');
    if (chosen) openTable(chosen.dataset.signature, false);
  });
  $('query-form').addEventListener('submit', runQuery);
  for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => selectTab(tab));
  document.addEventListener('keydown', onKey);
  $('rules').addEventListener('change', () => changeRules($('rules').value));
  window.addEventListener('popstate', (event) => {
    const s = event.state || {};
    state.depth = s.depth || 0;
    const named = s.rules || new URLSearchParams(location.search).get('rules') || state.defaultRules;
    if (named && named !== state.rules && RULES[named]) {
      state.rules = named;
      renderRules();
      loadTables();
    }
    show(s.fen || fenFromUrl(new URLSearchParams(location.search).get('fen') || DEFAULT_FEN),
      { lastMove: s.lastMove || null });
  });
  await loadPieces();
  // The rules: the URL's, else the server's default, which /api/tables names.
  const params = new URLSearchParams(location.search);
  let tables = null;
  try {
    tables = await getJson('api/tables');
    state.defaultRules = tables.rules;
  } catch (error) {
    $('table-detail').textContent = error.message;
  }
  const named = RULES[params.get('rules')] ? params.get('rules') : null;
  state.rules = named || state.defaultRules || 'lasker';
  renderRules();
  if (tables) loadTables(state.rules === tables.rules ? tables : null);
  const fen = fenFromUrl(params.get('fen') || DEFAULT_FEN);
  history.replaceState({ fen, lastMove: null, depth: 0, rules: state.rules }, '',
    location.search ? location.href : pageUrl(fen));
  show(fen);
}

start();
