// The page of `egtb serve`: a board, the value of the position and of every move (from
// /api/lasker), the optimal line (/api/lasker/mainline), a table explorer (/api/tables,
// /api/stats/SIG), CQL queries (POST /api/query) and a board editor, under the rule set chosen
// (every request names it: rules=; the words of each rule set come from /api/rules). Plain
// JavaScript, no framework, nothing loaded from outside this server. The page reads no FEN: the
// server checks every position (its error message is shown, the last good position kept) and
// answers with the men to draw, the side to move and the position after each move. The position
// is in the URL (?fen=, '_' for spaces; &rules= when it is not the server's default), so the
// browser's back and forward buttons step through the positions visited.
'use strict';

const DEFAULT_FEN = '8/8/8/8/8/1N6/8/1k1K4 w - - 0 1';
const SQUARE = 45;
const BOARD_LEFT = 20;
const FILES = 'abcdefgh';
const PIECE_ORDER = 'KQRBNP';  // the order of a material signature: KQk, KRBkn

const state = {
  fen: DEFAULT_FEN,  // the position shown: the last one the server accepted
  rules: 'lasker',    // the rule set of every request
  rulesByName: {},    // /api/rules: the words of each rule set, by name
  defaultRules: null, // the server's: a URL names other rules only
  orientation: 'w',
  report: null,      // the /api/lasker answer of the position shown
  mainline: null,    // the /api/lasker/mainline answer
  selected: null,    // the square of the man picked on the board
  lastMove: null,    // the UCI of the move that led here
  depth: 0,          // positions pushed on the browser history by this page
  token: 0,          // the latest navigation: older answers are dropped
  edit: null,        // while editing: {men: {square: letter}, side: 'w' | 'b', accepted: bool}
  spare: null,       // the spare man picked for placing by clicks (editor)
  drag: null,        // a man being dragged: {piece, from (square, or null for a spare), x, y, moved}
};

const $ = (id) => document.getElementById(id);

function fenToUrl(fen) { return fen.trim().replace(/ /g, '_'); }
function fenFromUrl(text) { return text.replace(/_/g, ' '); }
// The words of the page's rules (/api/rules), with the value of each category by name.
function rules() { return state.rulesByName[state.rules]; }
function valueOf(category) { return rules().values.find((v) => v.category === category); }
// The category of the same value for the other side: win <-> loss, stalemate-win <-> stalemate-loss.
function opposite(category) {
  const values = rules().values;
  return values[values.length - 1 - values.indexOf(valueOf(category))].category;
}
function winning(category) { return valueOf(category).value > 2; }
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

// The men on the board: the editor's while editing, else those of the position shown.
function men() {
  if (state.edit) return state.edit.men;
  return state.report ? state.report.men : {};
}

// The material of a set of men as a signature: {d1: 'K', b3: 'N', b1: 'k'} -> "KNk".
function signature(placed) {
  const letters = Object.values(placed);
  const side = (white) => letters.filter((p) => (p === p.toUpperCase()) === white)
    .map((p) => p.toUpperCase()).sort((a, b) => PIECE_ORDER.indexOf(a) - PIECE_ORDER.indexOf(b)).join('');
  return side(true) + side(false).toLowerCase();
}

// The first FEN field of a set of men (the editor's position for the server to check).
function placementField(placed) {
  const rows = [];
  for (let rank = 8; rank >= 1; --rank) {
    let row = '';
    let empty = 0;
    for (const file of FILES) {
      const man = placed[file + rank];
      if (!man) { empty += 1; continue; }
      row += (empty || '') + man;
      empty = 0;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

function squareXY(square) {
  let file = FILES.indexOf(square[0]);
  let rank = Number(square[1]) - 1;
  if (state.orientation === 'b') { file = 7 - file; rank = 7 - rank; }
  return [BOARD_LEFT + file * SQUARE, (7 - rank) * SQUARE];
}

// The square under a point of the window, or null off the board.
function squareAt(clientX, clientY) {
  const point = new DOMPoint(clientX, clientY).matrixTransform($('board').getScreenCTM().inverse());
  let file = Math.floor((point.x - BOARD_LEFT) / SQUARE);
  let rank = 7 - Math.floor(point.y / SQUARE);
  if (file < 0 || file > 7 || rank < 0 || rank > 7) return null;
  if (state.orientation === 'b') { file = 7 - file; rank = 7 - rank; }
  return FILES[file] + (rank + 1);
}

function svg(tag, attributes, parent) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function spriteOf(piece) { return `#${piece === piece.toUpperCase() ? 'w' : 'b'}${piece.toUpperCase()}`; }

function drawBoard() {
  const board = $('board');
  board.replaceChildren();
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
    }
  }
  for (const [square, piece] of Object.entries(men())) {
    const [x, y] = squareXY(square);
    const group = svg('g', { 'data-square': square, 'data-piece': piece, class: 'man' }, board);
    if (state.drag && state.drag.moved && state.drag.from === square) group.classList.add('dragged');
    svg('use', { href: spriteOf(piece), x, y, width: SQUARE, height: SQUARE }, group);
  }
  for (const square of targets) {
    const [x, y] = squareXY(square);
    svg('circle', { cx: x + SQUARE / 2, cy: y + SQUARE / 2, r: 7, class: 'target', 'data-target': square }, board);
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

// An arrow from the move's square to its target (a move hovered in the list); none for a pass.
function drawArrow(uci) {
  clearArrows();
  if (uci === '0000' || state.edit) return;
  const board = $('board');
  const [x1, y1] = squareXY(uci.slice(0, 2)).map((c) => c + SQUARE / 2);
  const [x2, y2] = squareXY(uci.slice(2, 4)).map((c) => c + SQUARE / 2);
  const length = Math.hypot(x2 - x1, y2 - y1);
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  // A shaft to the arrowhead's base, 14 units short of the target's centre, and the head.
  const [bx, by] = [x2 - ux * 14, y2 - uy * 14];
  const group = svg('g', { class: 'arrow', 'data-uci': uci }, board);
  svg('line', { x1, y1, x2: bx, y2: by }, group);
  svg('polygon', { points: `${x2},${y2} ${bx - uy * 9},${by + ux * 9} ${bx + uy * 9},${by - ux * 9}` }, group);
}

function clearArrows() { for (const arrow of document.querySelectorAll('#board .arrow')) arrow.remove(); }

// The squares the man on `from` can move to, from the legal moves of the report (a promotion's once).
function targetsOf(from) {
  if (!from || !state.report || state.edit) return [];
  return [...new Set(state.report.moves.filter((m) => m.uci.startsWith(from)).map((m) => m.uci.slice(2, 4)))];
}

// A click on a square while playing: pick a man that has moves, or play the picked man's move there.
function clickSquare(square) {
  if (state.selected && targetsOf(state.selected).includes(square)) {
    const from = state.selected;
    state.selected = null;
    moveTo(from, square);
    return;
  }
  state.selected = targetsOf(square).length ? square : null;
  drawBoard();
}

// Plays the move from `from` to `to`; a promotion asks for its piece first.
function moveTo(from, to) {
  const moves = state.report.moves.filter((m) => m.uci.slice(0, 4) === from + to);
  if (moves.length > 1) showPromotion(moves);
  else if (moves.length === 1) playMove(moves[0]);
  else drawBoard();
}

// The promotion chooser: a button per piece the pawn may become, with the move's value.
function showPromotion(moves) {
  const box = $('promotion');
  box.replaceChildren();
  const side = state.report.side_to_move;
  for (const move of moves) {
    const letter = move.uci[4];
    const button = document.createElement('button');
    button.dataset.promotion = letter;
    button.className = `cat-${opposite(move.category)}`;
    button.title = `${move.san}: ${badgeText(moverView(move))}`;
    const icon = svg('svg', { viewBox: '0 0 45 45', class: 'piece-icon' }, button);
    svg('use', { href: spriteOf(side === 'w' ? letter.toUpperCase() : letter) }, icon);
    button.addEventListener('click', () => { hidePromotion(); playMove(move); });
    box.appendChild(button);
  }
  const cancel = document.createElement('button');
  cancel.textContent = '×';
  cancel.title = 'Cancel (Escape)';
  cancel.className = 'cancel';
  cancel.addEventListener('click', () => { hidePromotion(); drawBoard(); });
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector('button').focus();
}

function hidePromotion() { $('promotion').hidden = true; }

// --- dragging men: moves while playing, placing and removing men while editing ------------------

// A press on a man of the board or a spare man starts a drag; a press and release without moving
// is a click.
function pointerDown(event, piece, from) {
  if (event.button !== 0) return;
  event.preventDefault();
  state.drag = { piece, from, x: event.clientX, y: event.clientY, moved: false };
}

function pointerMove(event) {
  const drag = state.drag;
  if (!drag) return;
  if (!drag.piece || (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4)) return;
  if (!drag.moved) {
    if (!state.edit && !targetsOf(drag.from).length) { state.drag = null; return; }
    drag.moved = true;
    state.selected = state.edit ? null : drag.from;
    drawBoard();
    const ghost = $('ghost');
    const size = ($('board').getBoundingClientRect().width * SQUARE) / 380;
    ghost.style.width = ghost.style.height = `${size}px`;
    ghost.querySelector('use').setAttribute('href', spriteOf(drag.piece));
    ghost.hidden = false;
  }
  const ghost = $('ghost');
  ghost.style.left = `${event.clientX - ghost.offsetWidth / 2}px`;
  ghost.style.top = `${event.clientY - ghost.offsetHeight / 2}px`;
}

function pointerUp(event) {
  const drag = state.drag;
  if (!drag) return;
  state.drag = null;
  $('ghost').hidden = true;
  const square = squareAt(event.clientX, event.clientY);
  if (!drag.moved) {
    if (drag.from === null) pickSpare(drag.piece);
    else if (state.edit) editAt(square);
    else clickSquare(square);
    return;
  }
  if (state.edit) {
    const placed = { ...state.edit.men };
    if (drag.from) delete placed[drag.from];  // dropped off the board: removed
    if (square) placed[square] = drag.piece;
    editMen(placed);
    return;
  }
  state.selected = null;
  if (square && targetsOf(drag.from).includes(square)) moveTo(drag.from, square);
  else drawBoard();
}

// A press on the board that did not start a drag (an empty square, or any square while editing).
function boardDown(event) {
  const square = squareAt(event.clientX, event.clientY);
  if (!square) return;
  const piece = men()[square];
  if (piece) pointerDown(event, piece, square);
  else if (event.button === 0) state.drag = { piece: null, from: square, x: event.clientX, y: event.clientY, moved: false };
}

// --- the editor --------------------------------------------------------------------------------

function startEditing() {
  if (state.edit) return;
  state.edit = { men: { ...men() }, side: state.report ? state.report.side_to_move : 'w', accepted: true };
  state.selected = null;
  for (const box of document.querySelectorAll('#castling input')) box.checked = false;
  $('editor').hidden = false;
  $('edit').setAttribute('aria-pressed', 'true');
  document.body.classList.add('editing');
  renderEditSide();
  drawBoard();
  updateButtons();
}

// Closes the editor, showing nothing new (the caller shows a position).
function leaveEditor() {
  state.edit = null;
  pickSpare(null);
  $('editor').hidden = true;
  $('edit').setAttribute('aria-pressed', 'false');
  document.body.classList.remove('editing');
  $('fen-error').textContent = '';
}

// "Done": the position edited when the server accepted it (a new entry of the browser history),
// else the last good one.
function stopEditing() {
  if (!state.edit) return;
  const accepted = state.edit.accepted && state.report;
  leaveEditor();
  show(accepted ? state.report.fen : state.fen, { push: accepted && state.report.fen !== history.state?.fen });
}

// The editor's position as a FEN for the server to check: its men, side to move and castling
// rights; no e.p. square, the counters at their start.
function editFen() {
  const rights = [...document.querySelectorAll('#castling input:checked')].map((b) => b.value).join('');
  return `${placementField(state.edit.men)} ${state.edit.side} ${rights || '-'} - 0 1`;
}

// The editor's men changed: draw them and ask the server for the position's value.
function editMen(placed) {
  state.edit.men = placed;
  drawBoard();
  probeEdit();
}

async function probeEdit() {
  const token = ++state.token;
  const fen = editFen();
  state.edit.accepted = false;
  $('status').classList.add('pending');
  try {
    const report = await getJson(api(`lasker?fen=${encodeURIComponent(fenToUrl(fen))}`));
    if (token !== state.token || !state.edit) return;
    state.edit.accepted = true;
    accept(report, null);
    loadMainline(report.fen, token);
  } catch (error) {
    if (token !== state.token || !state.edit) return;
    $('fen').value = fen;
    $('fen-error').textContent = error.message;
    setStatus('The tables cannot answer this position (see below the board).', 'refused');
    $('moves').replaceChildren();
    $('mainline').replaceChildren();
    $('line-end').textContent = '';
    updateButtons();
  }
}

// A click on the board while editing: place the spare man picked, or remove the man there.
function editAt(square) {
  if (!square) return;
  const placed = { ...state.edit.men };
  if (state.spare && placed[square] !== state.spare) placed[square] = state.spare;
  else if (placed[square]) delete placed[square];
  else return;
  editMen(placed);
}

function pickSpare(piece) {
  state.spare = state.spare === piece ? null : piece;
  for (const button of document.querySelectorAll('.spare [data-piece]'))
    button.classList.toggle('chosen', button.dataset.piece === state.spare);
}

function renderEditSide() {
  const side = $('edit-side');
  side.dataset.side = state.edit.side;
  side.textContent = state.edit.side === 'w' ? 'White to move' : 'Black to move';
}

function toggleEditSide() {
  state.edit.side = state.edit.side === 'w' ? 'b' : 'w';
  renderEditSide();
  probeEdit();
}

// The same position with the colours swapped: each man changes colour and rank (a1 <-> a8), the
// other side moves, castling rights change hands. Its value is the same.
function swapColours() {
  const placed = {};
  const swap = (p) => (p === p.toUpperCase() ? p.toLowerCase() : p.toUpperCase());
  for (const [square, piece] of Object.entries(state.edit.men)) placed[square[0] + (9 - Number(square[1]))] = swap(piece);
  const boxes = [...document.querySelectorAll('#castling input')];
  const rights = new Set(boxes.filter((box) => box.checked).map((box) => swap(box.value)));
  for (const box of boxes) box.checked = rights.has(box.value);
  state.edit.side = state.edit.side === 'w' ? 'b' : 'w';
  renderEditSide();
  editMen(placed);
}

// The position mirrored left to right (a1 <-> h1): without castling, its value is the same.
function mirror() {
  const placed = {};
  for (const [square, piece] of Object.entries(state.edit.men)) placed[FILES[7 - FILES.indexOf(square[0])] + square[1]] = piece;
  editMen(placed);
}

function spareMen() {
  for (const [id, letters] of [['spare-white', 'KQRBNP'], ['spare-black', 'kqrbnp']]) {
    const row = $(id);
    for (const piece of letters) {
      const button = svg('svg', { viewBox: '0 0 45 45', class: 'piece-icon', 'data-piece': piece, role: 'button',
        'aria-label': `${piece === piece.toUpperCase() ? 'white' : 'black'} ${piece.toUpperCase()}` }, row);
      svg('use', { href: spriteOf(piece) }, button);
      button.addEventListener('pointerdown', (event) => pointerDown(event, piece, null));
    }
  }
}

// --- values in words -------------------------------------------------------------------------

function movesOf(plies, isWinning) { return isWinning ? (plies + 1) / 2 : plies / 2; }
function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

// "DTS 27 plies · 14 moves" for a side that wins or loses at this depth.
function depthWords(metric, plies, isWinning) {
  return `${metric} ${plural(plies, 'ply').replace('plys', 'plies')} · ${plural(movesOf(plies, isWinning), 'move')}`;
}

function positionWords(report) {
  const side = report.side_to_move === 'w' ? 'White' : 'Black';
  if (report.checkmate) return `${side} is checkmated`;
  if (report.stalemate && !rules().stalemate_passes) return `${side} ${rules().stalemated}`;
  const value = valueOf(report.category);
  const who = report.stalemate ? rules().stalemated : 'to move';  // a stalemated side that passes
  if (!value.metric) return `${side} ${who}: draw`;
  return `${side} ${who}${report.stalemate ? ', then' : ''} ${value.verb}: ` +
    depthWords(value.metric.toUpperCase(), report[value.metric], winning(report.category));
}

// A move as its mover sees it: the result, and plies and moves to it counting the move itself.
function moverView(move) {
  const category = opposite(move.category);
  const key = valueOf(category).metric;
  const plies = key ? move[key] + 1 : null;
  return { category, metric: key ? key.toUpperCase() : null, plies, winning: winning(category) };
}

function badgeText(view) {
  if (!view.metric) return 'draw';
  const n = movesOf(view.plies, view.winning);
  return `${view.metric} ${view.plies} ${view.plies === 1 ? 'ply' : 'plies'} · ${valueOf(view.category).ends} ` +
    plural(n, 'move');
}

// "DTM 3" or "DTS 12" of a value with a depth (the rules' metrics), else its category.
function depthTitle(values) {
  const key = valueOf(values.category).metric;
  return key && values[key] !== null ? `${key.toUpperCase()} ${values[key]}` : values.category;
}

// --- showing a position -------------------------------------------------------------------------

// Shows a position once the server accepts it; a position it refuses leaves the last good one
// shown, with the server's message below the board.
async function show(fen, { push = false, lastMove = null } = {}) {
  const token = ++state.token;
  fen = fen.trim();
  hidePromotion();
  $('status').classList.add('pending');
  try {
    const report = await getJson(api(`lasker?fen=${encodeURIComponent(fenToUrl(fen))}`));
    if (token !== state.token) return;
    if (push) {
      state.depth += 1;
      history.pushState({ fen: report.fen, lastMove, depth: state.depth, rules: state.rules }, '', pageUrl(report.fen));
    }
    state.lastMove = lastMove;
    accept(report, token);
    loadMainline(report.fen, token);
  } catch (error) {
    if (token !== state.token) return;
    $('status').classList.remove('pending');
    $('fen-error').textContent = error.message;
    if (!state.report) setStatus(error.message, 'error');  // nothing shown yet
    updateButtons();
  }
}

// Shows the server's report of a position: the board, the value, the moves; its line follows.
function accept(report, token) {
  state.report = report;
  state.mainline = null;
  state.selected = null;
  if (token !== null) state.fen = report.fen;
  $('fen').value = report.fen;
  $('fen-error').textContent = '';
  $('status').classList.remove('pending');
  $('side-to-move').textContent = `${report.side_to_move === 'w' ? 'White' : 'Black'} to move`;
  $('side-to-move').dataset.side = report.side_to_move;
  $('mainline').replaceChildren();
  $('line-end').textContent = '';
  delete $('line-end').dataset.end;
  setStatus(positionWords(report), report.category);
  renderMoves(report);
  drawBoard();
  renderTitle();
  updateButtons();
}

function setStatus(text, category) {
  const status = $('status');
  status.textContent = text;
  status.className = `cat-${category}`;
  status.dataset.category = category;
}

function updateButtons() {
  const moves = state.report && !state.edit ? state.report.moves : [];
  $('best').disabled = moves.length === 0;
  $('to-end').disabled = !(state.mainline && state.mainline.mainline.length) || Boolean(state.edit);
  $('back').disabled = state.depth === 0 || Boolean(state.edit);
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
  for (const value of rules().values) {
    const moves = report.moves.filter((m) => opposite(m.category) === value.category);
    if (!moves.length) continue;
    const group = document.createElement('div');
    group.className = `move-group cat-${value.category}`;
    group.dataset.category = value.category;
    const title = document.createElement('h3');
    title.textContent = value.title;
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
    (valueOf(move.category).metric ? `, ${depthTitle(move)}` : '');
  const san = document.createElement('span');
  san.className = 'san';
  san.textContent = move.san;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = move.stalemate ? `${badgeText(view)} · stalemate!` : badgeText(view);
  button.append(san, badge);
  button.addEventListener('click', () => playMove(move));
  for (const [on, off] of [['mouseenter', 'mouseleave'], ['focus', 'blur']]) {
    button.addEventListener(on, () => drawArrow(move.uci));
    button.addEventListener(off, clearArrows);
  }
  return button;
}

// Plays a move of the position shown: the server gave the position after it.
function playMove(move) {
  if (!move || !state.report || state.edit) return;
  show(move.fen, { push: true, lastMove: move.uci });
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
    if (state.edit) leaveEditor();
    show(fen, { push: true, lastMove });
  });
  return link;
}

function renderMainline(line) {
  const list = $('mainline');
  list.replaceChildren();
  let number = line.fullmove_number;
  let white = line.side_to_move === 'w';
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
  if (!state.report || !state.report.moves.length || state.edit) return;
  playMove(state.report.moves[0]);
}

function toEnd() {
  if (!state.mainline || !state.mainline.mainline.length) return;
  const last = state.mainline.mainline[state.mainline.mainline.length - 1];
  show(state.mainline.final.fen, { push: true, lastMove: last.uci });
}

function back() { if (state.depth > 0 && !state.edit) history.back(); }

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

// The Table 1 fields of the rules, [key, {name, description}]: maxdts and maxdtm under Lasker,
// the one maximum of the others.
function maxima() { return Object.entries(rules().maxima); }

// The Table 1 columns of the rules: maxDTS and maxDTM under Lasker, the one maximum of the others.
function renderTableHead() {
  const head = $('table-list').tHead.rows[0];
  while (head.cells.length > 4) head.deleteCell(4);
  for (const [, { name, description }] of maxima()) {
    const cell = document.createElement('th');
    cell.textContent = name;
    cell.title = description;
    head.appendChild(cell);
  }
}

// Whether a table passes the filter: a number of men ("4", "4 men"), else a part of the
// signature, matched case-insensitively when the filter has no capital ("kbn" finds KBNk; "Kb"
// finds Kbk but not KBk).
function matchesFilter(table, filter) {
  if (!filter) return true;
  const men = filter.match(/^(\d+)\s*(-?\s*m[ae]n)?$/i);
  if (men) return table.men === Number(men[1]);
  if (filter === filter.toLowerCase()) return table.signature.toLowerCase().includes(filter);
  return table.signature.includes(filter);
}

function renderTables() {
  const filter = $('table-filter').value.trim();
  const body = $('table-list').tBodies[0];
  body.replaceChildren();
  const shown = allTables.filter((t) => matchesFilter(t, filter));
  for (const table of shown) {
    const row = body.insertRow();
    row.dataset.signature = table.signature;
    if (table.error) {  // a file that cannot be read: its error across the other columns
      row.insertCell().textContent = table.signature;
      row.insertCell().textContent = table.men;
      Object.assign(row.insertCell(), { colSpan: 2 + maxima().length, textContent: table.error });
      continue;
    }
    const cells = [table.signature, table.men, table.sides.w.positions.toLocaleString('en'),
      table.sides.b.positions.toLocaleString('en'), ...maxima().map(([key]) => deepestCell(table[key]))];
    for (const text of cells) row.insertCell().textContent = text;
    row.addEventListener('click', () => openTable(table.signature, true));
  }
  if (!shown.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 4 + maxima().length;
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
    const examples = maxima().flatMap(([key]) => deepestList(stats[key]));
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
  const rows = maxima().map(([key, { name }]) => [name, stats[key]]);
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
  for (const value of rules().values) {
    const cell = head.insertCell();
    cell.textContent = value.share;
    cell.className = `cat-${value.category}`;
  }
  for (const side of ['w', 'b']) {
    const counts = stats.sides[side].lasker;
    const total = counts.reduce((a, b) => a + b, 0);
    const row = table.insertRow();
    row.insertCell().textContent = side === 'w' ? 'White to move' : 'Black to move';
    for (const { value } of rules().values) {
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
  if (event.key === 'Escape' && !$('promotion').hidden) {
    hidePromotion();
    drawBoard();
    return;
  }
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

// The title of the page: the material of the position shown, then the rules.
function renderTitle() {
  const base = state.rules === 'lasker' ? 'egtb · Lasker chess endgame tables' : `egtb · endgame tables, ${state.rules}`;
  const placed = men();
  document.title = Object.keys(placed).length ? `${signature(placed)} · ${base}` : base;
}

// Shows the rule set chosen: the selector, the legend and the title of the page.
function renderRules() {
  $('rules').value = state.rules;
  const legend = $('legend');
  legend.replaceChildren();
  rules().values.forEach(({ category, goal }, i) => {
    if (i) legend.append(' > ');
    const span = document.createElement('span');
    span.className = `cat-${category}`;
    span.textContent = goal;
    legend.appendChild(span);
  });
  legend.append(` · ${rules().metrics}`);
  $('subtitle').textContent = state.rules === 'lasker' ? 'endgame tables for Lasker chess'
    : `endgame tables, rules ${state.rules}`;
  renderTitle();
}

// The rules selector's options, from /api/rules.
function renderRulesChoice(list) {
  const select = $('rules');
  select.replaceChildren();
  for (const r of list) {
    const option = document.createElement('option');
    option.value = r.name;
    option.textContent = `${r.name}: ${r.summary}`;
    select.appendChild(option);
  }
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
  if (state.edit) probeEdit();
  else show(state.fen, { lastMove: state.lastMove });
  await loadTables();
}

async function loadPieces() {
  const response = await fetch('pieces.svg');
  $('piece-sprites').innerHTML = await response.text();
}

function wire() {
  $('fen-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (state.edit) leaveEditor();
    show($('fen').value, { push: true });
  });
  $('best').addEventListener('click', playBest);
  $('back').addEventListener('click', back);
  $('to-end').addEventListener('click', toEnd);
  $('flip').addEventListener('click', flip);
  $('edit').addEventListener('click', () => (state.edit ? stopEditing() : startEditing()));
  $('edit-done').addEventListener('click', stopEditing);
  $('edit-clear').addEventListener('click', () => editMen({}));
  $('edit-swap').addEventListener('click', swapColours);
  $('edit-mirror').addEventListener('click', mirror);
  $('edit-side').addEventListener('click', toggleEditSide);
  for (const box of document.querySelectorAll('#castling input')) box.addEventListener('change', probeEdit);
  $('board').addEventListener('pointerdown', boardDown);
  document.addEventListener('pointermove', pointerMove);
  document.addEventListener('pointerup', pointerUp);
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
    if (state.edit) leaveEditor();
    state.depth = s.depth || 0;
    const named = s.rules || new URLSearchParams(location.search).get('rules') || state.defaultRules;
    if (named && named !== state.rules && state.rulesByName[named]) {
      state.rules = named;
      renderRules();
      loadTables();
    }
    show(s.fen || fenFromUrl(new URLSearchParams(location.search).get('fen') || DEFAULT_FEN),
      { lastMove: s.lastMove || null });
  });
}

async function start() {
  wire();
  spareMen();
  await loadPieces();
  // The rules: the URL's, else the server's default; their words from /api/rules.
  const params = new URLSearchParams(location.search);
  try {
    const answer = await getJson('api/rules');
    for (const r of answer.rules) state.rulesByName[r.name] = r;
    state.defaultRules = answer.default;
    renderRulesChoice(answer.rules);
  } catch (error) {
    setStatus(`The rules could not be read: ${error.message}`, 'error');
    return;
  }
  state.rules = state.rulesByName[params.get('rules')] ? params.get('rules') : state.defaultRules;
  renderRules();
  loadTables();
  const fen = fenFromUrl(params.get('fen') || DEFAULT_FEN);
  history.replaceState({ fen, lastMove: null, depth: 0, rules: state.rules }, '',
    location.search ? location.href : pageUrl(fen));
  show(fen);
}

start();
