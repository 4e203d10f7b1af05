// The page of `egtb serve`: a board, the value of the position and of every move (from
// /api/lasker), the optimal line (/api/lasker/mainline), a table explorer (/api/tables,
// /api/stats/SIG) and CQL queries (POST /api/query). Plain JavaScript, no framework, nothing
// loaded from outside this server. The position is in the URL (?fen=, '_' for spaces), so the
// browser's back and forward buttons step through the positions visited.
'use strict';

const DEFAULT_FEN = '8/8/8/8/8/1N6/8/1k1K4 w - - 0 1';
const SQUARE = 45;
const BOARD_LEFT = 20;
const FILES = 'abcdefgh';

// The five results, best first, from the side to move (or the mover of a move).
const CATEGORIES = ['win', 'stalemate-win', 'draw', 'stalemate-loss', 'loss'];
const OPPOSITE = {
  win: 'loss', 'stalemate-win': 'stalemate-loss', draw: 'draw', 'stalemate-loss': 'stalemate-win', loss: 'win',
};
const GROUP_TITLES = {
  win: 'Winning: mate', 'stalemate-win': 'Winning: stalemate the opponent', draw: 'Drawing',
  'stalemate-loss': 'Losing: stalemated', loss: 'Losing: mated',
};

const state = {
  fen: DEFAULT_FEN,
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
  if (report.stalemate) return `${side} is stalemated`;
  switch (report.category) {
    case 'win': return `${side} to move mates: ${depthWords('DTM', report.dtm, true)}`;
    case 'stalemate-win': return `${side} to move forces stalemate: ${depthWords('DTS', report.dts, true)}`;
    case 'stalemate-loss': return `${side} to move is stalemated: ${depthWords('DTS', report.dts, false)}`;
    case 'loss': return `${side} to move is mated: ${depthWords('DTM', report.dtm, false)}`;
    default: return `${side} to move: draw`;
  }
}

// A move as its mover sees it: the result, and plies and moves to it counting the move itself.
function moverView(move) {
  const category = OPPOSITE[move.category];
  const metric = category === 'win' || category === 'loss' ? 'DTM' : category === 'draw' ? null : 'DTS';
  const child = metric === 'DTM' ? move.dtm : move.dts;
  const plies = metric ? child + 1 : null;
  return { category, metric, plies, winning: category === 'win' || category === 'stalemate-win' };
}

function badgeText(view) {
  if (!view.metric) return 'draw';
  const n = movesOf(view.plies, view.winning);
  const what = { win: 'mate in', 'stalemate-win': 'stalemate in', 'stalemate-loss': 'stalemated in',
    loss: 'mated in' }[view.category];
  return `${view.metric} ${view.plies} ${view.plies === 1 ? 'ply' : 'plies'} · ${what} ${plural(n, 'move')}`;
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
    history.pushState({ fen, lastMove, depth: state.depth }, '', `?fen=${fenToUrl(fen)}`);
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
    const report = await getJson(`api/lasker?fen=${encodeURIComponent(fenToUrl(fen))}`);
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
  for (const category of CATEGORIES) {
    const moves = report.moves.filter((m) => OPPOSITE[m.category] === category);
    if (!moves.length) continue;
    const group = document.createElement('div');
    group.className = `move-group cat-${category}`;
    group.dataset.category = category;
    const title = document.createElement('h3');
    title.textContent = GROUP_TITLES[category];
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
    (move.dtm !== null ? `, DTM ${move.dtm}` : '') + (move.dts !== null ? `, DTS ${move.dts}` : '');
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

// The FEN after a legal move given in UCI ("e7e8q"); the server checks and normalises it (an e.p.
// square without a legal e.p. capture is dropped). Tables have no castling.
function applyUci(fen, uci) {
  const [, side, , , halfmove = '0', fullmove = '1'] = fen.trim().split(/\s+/);
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
  const number = Number(fullmove) + (side === 'b' ? 1 : 0);
  return `${rows.join('/')} ${side === 'w' ? 'b' : 'w'} - ${ep} ${clock} ${number}`;
}

async function loadMainline(fen, token) {
  try {
    const line = await getJson(`api/lasker/mainline?fen=${encodeURIComponent(fenToUrl(fen))}`);
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
  link.href = `?fen=${fenToUrl(fen)}`;
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
    link.title = step.dtm !== null ? `DTM ${step.dtm}` : step.dts !== null ? `DTS ${step.dts}` : step.category;
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

async function loadTables() {
  try {
    const answer = await getJson('api/tables');
    allTables = answer.tables;
    renderTables();
  } catch (error) {
    $('table-detail').textContent = error.message;
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
      table.sides.b.positions.toLocaleString('en'), deepestCell(table.maxdts), deepestCell(table.maxdtm)];
    for (const text of cells) row.insertCell().textContent = text;
    row.addEventListener('click', () => openTable(table.signature, true));
  }
  if (!shown.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 6;
    cell.textContent = allTables.length ? 'No table matches the filter.'
      : 'No tables in the directory: build them with egtb generate --all 4 --dir DIR.';
  }
}

async function openTable(signature, openExample) {
  for (const row of $('table-list').tBodies[0].rows) row.classList.toggle('chosen', row.dataset.signature === signature);
  const detail = $('table-detail');
  detail.textContent = `Statistics of ${signature}…`;
  const convention = $('convention').value;
  try {
    const stats = await getJson(`api/stats/${encodeURIComponent(signature)}?convention=${convention}`);
    renderTableDetail(stats);
    const examples = deepestList(stats.maxdts).concat(deepestList(stats.maxdtm));
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
  const rows = [['maxDTS', stats.maxdts], ['maxDTM', stats.maxdtm]];
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

// The article's Table 2 row of a table: the share of each Lasker value per side to move.
function valueTable(stats) {
  const table = document.createElement('table');
  table.className = 'table2';
  const head = table.createTHead().insertRow();
  head.insertCell().textContent = 'values';
  for (const category of CATEGORIES) {
    const cell = head.insertCell();
    cell.textContent = { win: 'mates', 'stalemate-win': 'stalemates', draw: 'draw', 'stalemate-loss': 'is stalemated',
      loss: 'is mated' }[category];
    cell.className = `cat-${category}`;
  }
  for (const side of ['w', 'b']) {
    const counts = stats.sides[side].lasker;
    const total = counts.reduce((a, b) => a + b, 0);
    const row = table.insertRow();
    row.insertCell().textContent = side === 'w' ? 'White to move' : 'Black to move';
    for (let value = 4; value >= 0; --value) {
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
    values.textContent = ` ${match.table} · lasker ${match.lasker} · DTM ${match.dtm ?? '–'} · DTS ${match.dts ?? '–'}`;
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
  window.addEventListener('popstate', (event) => {
    const s = event.state || {};
    state.depth = s.depth || 0;
    show(s.fen || fenFromUrl(new URLSearchParams(location.search).get('fen') || DEFAULT_FEN),
      { lastMove: s.lastMove || null });
  });
  await loadPieces();
  const fen = fenFromUrl(new URLSearchParams(location.search).get('fen') || DEFAULT_FEN);
  history.replaceState({ fen, lastMove: null, depth: 0 }, '', location.search ? location.href : `?fen=${fenToUrl(fen)}`);
  show(fen);
  loadTables();
}

start();
