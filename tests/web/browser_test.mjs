// Browser tests of the egtb serve page in Debian's headless Chromium, driven by playwright-core:
//   node browser_test.mjs URL SHOT_DIR [--docs PNG]
// URL is a running `egtb serve` over the 3-4-man tables. The test opens a ?fen= URL, reads the
// moves and their colours, clicks a move, goes back and forward through the browser history,
// follows the optimal line to the stalemate with the space key, flips the board, keeps the last
// good position when a FEN is refused; draws the arrow of a hovered move, plays moves by drag and
// drop and a promotion through its chooser; sets up positions in the editor (spare men dragged
// to the board, clear, side to move, mirror, swapped colours, castling refused); filters and opens
// tables in the explorer, runs a query and opens a match; then the same page under the other rule
// sets (the rules selector, ?rules=): three-valued results, DTE and a pass; last, a 390-pixel
// phone screen that must not scroll sideways. Screenshots go to SHOT_DIR; with --docs,
// docs/serve.png is written to PNG as well. Every request must go to URL's server, and the page
// must log no error.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import path from 'node:path';

const [base, shotDir, docsFlag, docsPath] = process.argv.slice(2);
const KNK = '8/8/8/8/8/1N6/8/1k1K4 w - - 0 1';       // KNk maxDTS: White stalemates in 27 plies
const KNK_END = '8/8/8/8/8/2N5/2K5/k7 b - - 27 14';  // the stalemate at the end of its line
const COLOURS = {                                   // style.css, as getComputedStyle gives them
  win: 'rgb(30, 123, 52)', 'stalemate-win': 'rgb(23, 138, 138)', draw: 'rgb(107, 107, 107)',
  'stalemate-loss': 'rgb(196, 106, 0)', loss: 'rgb(179, 38, 30)',
};

const url = (fen) => `${base}?fen=${fen.replace(/ /g, '_')}`;
let passed = 0;

async function step(name, body) {
  await body();
  passed += 1;
  console.log(`ok ${passed} - ${name}`);
}

// Waits until the page shows `fen` probed (no probe pending) and its line loaded.
async function shown(page, fen) {
  await page.waitForFunction((expected) => {
    const status = document.getElementById('status').dataset.category;
    const probing = document.getElementById('status').classList.contains('pending');
    return document.getElementById('fen').value === expected && status && !probing &&
      (status === 'error' || document.getElementById('line-end').dataset.end !== undefined);
  }, fen, { timeout: 10000 });
}

async function moves(page) {
  return page.$$eval('#moves .move', (buttons) => buttons.map((b) => ({
    uci: b.dataset.uci,
    category: b.dataset.category,
    text: b.textContent,
    colour: getComputedStyle(b.querySelector('.badge')).backgroundColor,
  })));
}

const status = (page) => page.textContent('#status');
const menOf = (page) => page.$$eval('#board g.man', (g) => g.map((e) => `${e.dataset.piece}${e.dataset.square}`).sort());

// The centre of an element in the window. The page redraws the board when the server answers, so
// an element found may be replaced before its box is read (no box): it is looked up again.
async function centre(page, selector) {
  const locator = page.locator(selector);
  let box = null;
  for (let tries = 0; !box && tries < 20; ++tries) {
    await locator.waitFor({ state: 'visible' });
    box = await locator.boundingBox();
  }
  assert.ok(box, `no ${selector}`);
  return [box.x + box.width / 2, box.y + box.height / 2];
}

// Drags with the mouse from the centre of one element to another's (or to a point).
async function drag(page, from, to) {
  const [x1, y1] = await centre(page, from);
  const [x2, y2] = typeof to === 'string' ? await centre(page, to) : to;
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 8 });
  await page.mouse.up();
}
const square = (name) => `#board rect[data-square="${name}"]`;
const fenInUrl = (page) => new URL(page.url()).searchParams.get('fen').replace(/_/g, ' ');

async function positionTests(page) {
  await step('a ?fen= URL shows the position, its value and the moves best first, coloured', async () => {
    await page.goto(url(KNK));
    await shown(page, KNK);
    assert.equal(await status(page), 'White to move forces stalemate: DTS 27 plies · 14 moves');
    const list = await moves(page);
    assert.equal(list.length, 9);
    assert.deepEqual(list[0], { uci: 'b3c5', category: 'stalemate-win', text: 'Nc5DTS 27 plies · stalemate in 14 moves',
      colour: COLOURS['stalemate-win'] });
    for (const m of list.slice(1)) assert.deepEqual([m.category, m.colour], ['draw', COLOURS.draw]);
    assert.deepEqual(await page.$$eval('#moves .move-group h3', (h) => h.map((e) => e.textContent)),
      ['Winning: stalemate the opponent', 'Drawing']);
    assert.deepEqual(await menOf(page), ['Kd1', 'Nb3', 'kb1']);
    assert.equal(await page.title(), 'KNk · egtb · Lasker chess endgame tables');
    assert.equal(await page.$$eval('#mainline li', (l) => l.length), 27);
    await page.screenshot({ path: path.join(shotDir, 'serve-knk.png'), fullPage: true });
  });

  await step('clicking a move plays it; back and forward follow the browser history', async () => {
    await page.click('#moves .move[data-uci="b3a1"]');
    const after = '8/8/8/8/8/8/8/Nk1K4 b - - 1 1';
    await shown(page, after);
    assert.equal(fenInUrl(page), after);
    assert.match(await status(page), /draw/);
    assert.equal(await page.getAttribute('#board rect[data-square="b3"]', 'class'), 'square light last-move');
    await page.goBack();
    await shown(page, KNK);
    await page.goForward();
    await shown(page, after);
    await page.click('#back');
    await shown(page, KNK);
  });

  await step('clicking the board: a man, then its target square', async () => {
    await page.click('#board g.man[data-square="d1"]');
    const targets = await page.$$eval('#board .target', (t) => t.map((e) => e.dataset.target).sort());
    assert.deepEqual(targets, ['d2', 'e1', 'e2']);  // c1 and c2 touch the black king
    await page.click('#board .target[data-target="e2"]');
    await shown(page, '8/8/8/8/8/1N6/4K3/1k6 b - - 1 1');
    await page.keyboard.press('ArrowLeft');
    await shown(page, KNK);
  });

  await step('space follows the optimal line, DTS falling by one a ply, to the stalemate', async () => {
    for (let dts = 26; dts >= 0; --dts) {
      const before = await page.inputValue('#fen');
      await page.keyboard.press(' ');
      await page.waitForFunction((old) => document.getElementById('fen').value !== old, before);
      const now = await page.inputValue('#fen');
      await shown(page, now);
      const words = await status(page);
      if (dts > 0) assert.match(words, new RegExp(`DTS ${dts} pl`), `after ${26 - dts + 1} plies: ${words}`);
    }
    assert.equal(await page.inputValue('#fen'), KNK_END);
    assert.equal(await status(page), 'Black is stalemated');
    assert.equal(await page.textContent('#moves'), 'Stalemate: no legal move.');
    assert.equal(await page.isDisabled('#best'), true);
    await page.screenshot({ path: path.join(shotDir, 'serve-stalemate.png'), fullPage: true });
  });

  await step('"To the end" jumps to the final position; f flips the board', async () => {
    await page.goto(url(KNK));
    await shown(page, KNK);
    await page.click('#to-end');
    await shown(page, KNK_END);
    const a1 = () => page.getAttribute('#board rect[data-square="a1"]', 'y');
    assert.equal(await a1(), '315');
    await page.keyboard.press('f');
    assert.equal(await a1(), '0');
  });

  await step('a refused FEN shows the server\'s message and keeps the last good position', async () => {
    const before = { words: await status(page), url: page.url(), men: await menOf(page) };
    await page.fill('#fen', '8/8/8/8/8/8/8/K7 w - - 0 1');
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => document.getElementById('fen-error').textContent !== '');
    assert.match(await page.textContent('#fen-error'), /Black has no king/);
    assert.deepEqual({ words: await status(page), url: page.url(), men: await menOf(page) }, before);
    assert.equal(await page.$$eval('#mainline li', (l) => l.length), 0);  // KNK_END: the line is over
    assert.equal(await page.textContent('#line-end'), 'The game is over.');
    await page.fill('#fen', KNK);
    await page.press('#fen', 'Enter');
    await shown(page, KNK);
    assert.equal(await page.textContent('#fen-error'), '');
  });
}

const PROMOTE = '8/P7/8/8/8/8/8/K1k5 w - - 0 1';  // KPk: a7-a8, four promotions

async function boardTests(page) {
  await step('a hovered move draws its arrow on the board', async () => {
    await page.goto(url(KNK));
    await shown(page, KNK);
    await page.hover('#moves .move[data-uci="b3c5"]');
    await page.waitForSelector('#board .arrow[data-uci="b3c5"] polygon');
    assert.equal(await page.$$eval('#board .arrow', (a) => a.length), 1);
    await page.hover('#status');
    assert.equal(await page.$$eval('#board .arrow', (a) => a.length), 0);
  });

  await step('drag and drop plays a legal move; a drop elsewhere plays nothing', async () => {
    await drag(page, '#board g.man[data-square="d1"]', square('c2'));  // c2 touches the black king
    assert.deepEqual(await menOf(page), ['Kd1', 'Nb3', 'kb1']);
    assert.equal(await page.inputValue('#fen'), KNK);
    await drag(page, '#board g.man[data-square="d1"]', square('e2'));
    await shown(page, '8/8/8/8/8/1N6/4K3/1k6 b - - 1 1');
    assert.equal(fenInUrl(page), '8/8/8/8/8/1N6/4K3/1k6 b - - 1 1');
    assert.equal(await page.getAttribute(square('e2'), 'class'), 'square light last-move');
  });

  await step('a promotion asks for its piece: a knight', async () => {
    await page.goto(url(PROMOTE));
    await shown(page, PROMOTE);
    assert.equal(await page.title(), 'KPk · egtb · Lasker chess endgame tables');
    await drag(page, '#board g.man[data-square="a7"]', square('a8'));
    await page.waitForSelector('#promotion:not([hidden])');
    assert.deepEqual((await page.$$eval('#promotion [data-promotion]', (b) => b.map((e) => e.dataset.promotion))).sort(),
      ['b', 'n', 'q', 'r']);
    await page.keyboard.press('Escape');  // cancelled: nothing played
    assert.equal(await page.isHidden('#promotion'), true);
    assert.equal(await page.inputValue('#fen'), PROMOTE);
    await page.click('#board g.man[data-square="a7"]');  // by clicks as well
    await page.click('#board .target[data-target="a8"]');
    await page.click('#promotion [data-promotion="n"]');
    await shown(page, 'N7/8/8/8/8/8/8/K1k5 b - - 0 1');
    assert.deepEqual(await menOf(page), ['Ka1', 'Na8', 'kc1']);
    assert.equal(await status(page), 'Black to move: draw');
    assert.equal(await page.title(), 'KNk · egtb · Lasker chess endgame tables');
  });
}

async function editorTests(page) {
  await step('the editor: clear, drag spare men to the board, the server judges each position', async () => {
    await page.goto(url(KNK));
    await shown(page, KNK);
    assert.equal(await page.isVisible('#spare-white'), false);
    await page.click('#edit');
    assert.equal(await page.isVisible('#spare-white [data-piece="Q"]'), true);
    assert.equal(await page.isDisabled('#best'), true);  // moves are played once the editor is left
    await page.click('#edit-clear');
    assert.deepEqual(await menOf(page), []);
    await page.waitForFunction(() => /no king/.test(document.getElementById('fen-error').textContent));
    await drag(page, '#spare-white [data-piece="K"]', square('a1'));
    await drag(page, '#spare-black [data-piece="k"]', square('a8'));
    await drag(page, '#spare-white [data-piece="Q"]', square('b6'));
    assert.deepEqual(await menOf(page), ['Ka1', 'Qb6', 'ka8']);
    await shown(page, 'k7/8/1Q6/8/8/8/8/K7 w - - 0 1');
    assert.match(await status(page), /^White to move mates: DTM \d+ pl/);
    assert.equal(await page.title(), 'KQk · egtb · Lasker chess endgame tables');
    // A man dragged off the board is removed; dragged on the board, it moves.
    await drag(page, '#board g.man[data-square="b6"]', '#legend');
    assert.deepEqual(await menOf(page), ['Ka1', 'ka8']);
    await drag(page, '#spare-white [data-piece="Q"]', square('b6'));
    await shown(page, 'k7/8/1Q6/8/8/8/8/K7 w - - 0 1');
  });

  await step('the editor: side to move, mirror, swap colours keep the value where they should', async () => {
    await page.click('#edit-side');
    await shown(page, 'k7/8/1Q6/8/8/8/8/K7 b - - 0 1');
    assert.equal(await status(page), 'Black is stalemated');
    await page.click('#edit-mirror');
    await shown(page, '7k/8/6Q1/8/8/8/8/7K b - - 0 1');
    assert.equal(await status(page), 'Black is stalemated');
    await page.click('#edit-swap');
    await shown(page, '7k/8/8/8/8/6q1/8/7K w - - 0 1');
    assert.equal(await status(page), 'White is stalemated');
    assert.equal(await page.title(), 'Kkq · egtb · Lasker chess endgame tables');  // the men as they stand
  });

  await step('the editor: castling rights are refused with the server\'s message', async () => {
    await page.click('#edit-swap');
    await shown(page, '7k/8/6Q1/8/8/8/8/7K b - - 0 1');
    await page.click('#castling-K');
    await page.waitForFunction(() => /castling/.test(document.getElementById('fen-error').textContent));
    assert.deepEqual(await menOf(page), ['Kh1', 'Qg6', 'kh8']);  // the board as edited
    await page.click('#castling-K');
    await shown(page, '7k/8/6Q1/8/8/8/8/7K b - - 0 1');
    assert.equal(await page.textContent('#fen-error'), '');
  });

  await step('leaving the editor keeps the position edited, in the browser history', async () => {
    await page.click('#edit-done');
    await shown(page, '7k/8/6Q1/8/8/8/8/7K b - - 0 1');
    assert.equal(fenInUrl(page), '7k/8/6Q1/8/8/8/8/7K b - - 0 1');
    assert.equal(await page.isVisible('#spare-white'), false);
    await page.goBack();
    await shown(page, KNK);
  });
}

async function explorerTests(page) {
  await step('the table explorer lists the tables; a row opens its statistics and example', async () => {
    await page.goto(url(KNK));
    await shown(page, KNK);
    await page.waitForSelector('#table-list tbody tr[data-signature="KBk"]');
    assert.equal(await page.$$eval('#table-list tbody tr', (r) => r.length), 35);
    assert.deepEqual(await page.$$eval('#table-list tr[data-signature="KNk"] td', (c) => c.map((e) => e.textContent)),
      ['KNk', '3', '26,282', '28,644', '27 (w)', '–']);
    // maxDTM per mater: White mates KQk in 20 plies at most, with Black to move (Table 1).
    assert.deepEqual(await page.$$eval('#table-list tr[data-signature="KQk"] td', (c) => c.map((e) => e.textContent)),
      ['KQk', '3', '18,492', '28,644', '–', '20 (w)']);
    const listed = () => page.$$eval('#table-list tbody tr[data-signature]', (r) => r.map((e) => e.dataset.signature));
    const menOfRows = () => page.$$eval('#table-list tbody tr[data-signature]', (r) => r.map((e) => e.cells[1].textContent));
    for (const filter of ['4 men', '4', '4-man']) {
      await page.fill('#table-filter', filter);
      const rows = await menOfRows();
      assert.ok(rows.length > 0 && rows.length < 35, `${filter}: ${rows.length} rows`);
      assert.deepEqual([...new Set(rows)], ['4'], filter);
    }
    await page.fill('#table-filter', 'kbn');
    assert.ok((await listed()).includes('KBNk'), 'kbn finds KBNk');
    await page.fill('#table-filter', 'Kb');  // a capital: as written (Black's bishop)
    assert.ok((await listed()).every((sig) => sig.includes('Kb')));
    await page.fill('#table-filter', 'KB');
    assert.ok((await page.$$eval('#table-list tbody tr', (r) => r.length)) < 35);
    await page.click('#table-list tr[data-signature="KBk"]');
    await shown(page, '8/8/8/8/8/8/8/2K1B1k1 w - - 0 1');
    // Table 1 rows: winner, side to move, plies, positions; KBk has no maxDTM.
    assert.match(await page.textContent('#table-detail .table1'), /maxDTSWhiteWhite1737.*maxDTMnone/);
    // Table 2: KBk, White to move stalemates in 983 of 24,736 positions (3.974%).
    assert.match(await page.textContent('#table-detail .table2'), /White to move0\.000%3\.974%96\.026%0\.000%0\.000%/);
    assert.match(await status(page), /DTS 17 plies · 9 moves/);
  });

  await step('a query lists matches; clicking one opens it', async () => {
    await page.click('#tab-query');
    await page.fill('#query-tables', 'KBk KNk');
    await page.fill('#query-text', 'dts == maxdts dtsend any : modelstalemate');
    await page.click('#query-run');
    await page.waitForSelector('#query-results li');
    const matches = await page.$$eval('#query-results a.match', (a) => a.map((e) => e.textContent));
    assert.ok(matches.length >= 1, 'no match');
    assert.match(await page.textContent('#query-summary'), /match/);
    await page.click('#query-results a.match >> nth=0');
    await shown(page, matches[0]);
    assert.match(await status(page), /forces stalemate/);
    await page.screenshot({ path: path.join(shotDir, 'serve-query.png'), fullPage: true });
  });

  await step('a query error is shown with its location', async () => {
    await page.fill('#query-text', 'dts ==');
    await page.click('#query-run');
    await page.waitForSelector('#query-error:not([hidden])');
    assert.match(await page.textContent('#query-error'), /query:1:7: error: .*\n.*\n\s*\^/);
  });
}

const PASS_LOSS = 'k7/Pp6/8/K7/8/8/8/8 w - - 0 1';  // loses in 44 plies once Black may pass: 1. Kb6 --
const PASSED = 'k7/Pp6/1K6/8/8/8/8/8 b - - 1 1';   // Black stalemated, to pass

async function rulesTests(page) {
  await step('?rules=stalemate-wins: a Lasker stalemate win is a win in DTE plies', async () => {
    await page.goto(`${url(KNK)}&rules=stalemate-wins`);
    await shown(page, KNK);
    assert.equal(await page.inputValue('#rules'), 'stalemate-wins');
    assert.equal(await status(page), 'White to move wins: DTE 27 plies · 14 moves');
    const list = await moves(page);
    assert.deepEqual(list[0], { uci: 'b3c5', category: 'win', text: 'Nc5DTE 27 plies · mate or stalemate in 14 moves',
      colour: COLOURS.win });
    assert.deepEqual(await page.$$eval('#moves .move-group h3', (h) => h.map((e) => e.textContent)),
      ['Winning: mate or stalemate', 'Drawing']);
    assert.match(await page.textContent('#legend'), /DTE = plies to the first mate or stalemate/);
    await page.waitForSelector('#table-list tbody tr[data-signature="KNk"]');
    assert.deepEqual(await page.$$eval('#table-list thead th', (c) => c.slice(4).map((e) => e.textContent)), ['maxDTE']);
    assert.deepEqual(await page.$$eval('#table-list tr[data-signature="KNk"] td', (c) => c.map((e) => e.textContent)),
      ['KNk', '3', '26,282', '28,644', '27 (w)']);
    await page.click('#table-list tr[data-signature="KBk"]');
    await shown(page, '8/8/8/8/8/8/8/2K1B1k1 w - - 0 1');
    assert.match(await page.textContent('#table-detail .table1'), /maxDTEWhiteWhite1737/);
    // Table 2 under stalemate-wins: KBk's Lasker 3s are wins (983 of 24,736, 3.974%).
    assert.deepEqual(await page.$eval('#table-detail .table2', (t) => [...t.rows[0].cells].map((e) => e.textContent)),
      ['values', 'wins', 'draw', 'loses']);
    assert.match(await page.textContent('#table-detail .table2'), /White to move3\.974%96\.026%0\.000%/);
    await page.screenshot({ path: path.join(shotDir, 'serve-stalemate-wins.png'), fullPage: true });
  });

  await step('the rules selector: stalemate-passes, a pass played from its move list', async () => {
    await page.goto(url(PASS_LOSS));
    await shown(page, PASS_LOSS);
    assert.equal(await status(page), 'White to move forces stalemate: DTS 1 ply · 1 move');  // Lasker: 1. Kb6
    await page.selectOption('#rules', 'stalemate-passes');
    await page.waitForFunction(() => /is mated/.test(document.getElementById('status').textContent));
    await shown(page, PASS_LOSS);
    assert.equal(new URL(page.url()).searchParams.get('rules'), 'stalemate-passes');
    assert.equal(await status(page), 'White to move is mated: DTM 44 plies · 22 moves');
    await page.click('#moves .move[data-uci="a5b6"]');
    await shown(page, PASSED);
    assert.equal(await status(page), 'Black is stalemated and passes, then mates: DTM 43 plies · 22 moves');
    assert.deepEqual(await moves(page), [{ uci: '0000', category: 'win', text: '--DTM 43 plies · mate in 22 moves',
      colour: COLOURS.win }]);
    assert.equal(await page.$$eval('#mainline li', (l) => l.length), 43);
    await page.screenshot({ path: path.join(shotDir, 'serve-stalemate-passes.png'), fullPage: true });
    await page.keyboard.press(' ');
    await shown(page, 'k7/Pp6/1K6/8/8/8/8/8 w - - 2 2');
    assert.equal(await status(page), 'White to move is mated: DTM 42 plies · 21 moves');
    assert.equal(new URL(page.url()).searchParams.get('rules'), 'stalemate-passes');
    await page.goBack();
    await shown(page, PASSED);
    assert.equal(await page.inputValue('#rules'), 'stalemate-passes');
  });

  await step('a query under stalemate-wins lists categories and DTE; back to lasker', async () => {
    await page.goto(`${url(KNK)}&rules=stalemate-wins`);
    await shown(page, KNK);
    await page.click('#tab-query');
    await page.fill('#query-tables', 'KNk');
    await page.fill('#query-text', 'wtm dte == 27');
    await page.click('#query-run');
    await page.waitForSelector('#query-results li');
    assert.equal(await page.$$eval('#query-results li', (l) => l.length), 9);
    assert.match(await page.textContent('#query-results li'), /KNk · win · DTE 27/);
    await page.selectOption('#rules', 'lasker');
    await page.waitForFunction(() => /forces stalemate/.test(document.getElementById('status').textContent));
    assert.equal(new URL(page.url()).searchParams.get('rules'), null);  // the server's default
    await page.waitForFunction(() => document.querySelectorAll('#table-list thead th').length === 6);
  });
}

// A phone's screen: nothing wider than its 390 pixels, the board and the explorer included.
async function phoneTests(browser) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const fits = () => page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth);
  try {
    await step('a 390-pixel screen scrolls only down: the position, the editor, the tables, a query', async () => {
      await page.goto(url(KNK));
      await shown(page, KNK);
      assert.equal(await fits(), true, 'the position');
      await page.click('#edit');
      assert.equal(await fits(), true, 'the editor');
      await page.click('#edit-done');
      await page.waitForSelector('#table-list tbody tr[data-signature="KNk"]');
      await page.click('#table-list tr[data-signature="KNk"]');
      await page.waitForSelector('#table-detail .table2');
      assert.equal(await fits(), true, 'the table explorer');
      assert.equal(await page.$eval('#table-scroll', (e) => e.scrollWidth <= e.clientWidth), true, 'the table list');
      await page.screenshot({ path: path.join(shotDir, 'serve-phone.png'), fullPage: true });
      await page.click('#tab-query');
      await page.click('#query-run');
      await page.waitForSelector('#query-results li');
      assert.equal(await fits(), true, 'the query results');
    });
  } finally {
    await page.close();
  }
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith(base)) problems.push(`request outside the server: ${r.url()}`); });
  try {
    await positionTests(page);
    await boardTests(page);
    await editorTests(page);
    await explorerTests(page);
    await rulesTests(page);
    await phoneTests(browser);
    assert.deepEqual(problems, []);
    if (docsFlag === '--docs') {  // the editor open on KNk's deepest stalemate
      await page.goto(url(KNK));
      await shown(page, KNK);
      await page.click('#edit');
      await page.screenshot({ path: docsPath, clip: { x: 0, y: 0, width: 1200, height: 900 } });
    }
  } finally {
    await browser.close();
  }
  console.log(`${passed} passed, 0 failed`);
}

main().catch((e) => {
  console.error(e);
  console.log(`${passed} passed, 1 failed`);
  process.exit(1);
});
