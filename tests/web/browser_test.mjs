// Browser tests of the egtb serve page in Debian's headless Chromium, driven by playwright-core:
//   node browser_test.mjs URL SHOT_DIR [--docs PNG]
// URL is a running `egtb serve` over the 3-4-man tables. The test opens a ?fen= URL, reads the
// moves and their colours, clicks a move, goes back and forward through the browser history,
// follows the optimal line to the stalemate with the space key, flips the board, opens a table's
// example from the explorer, runs a query and opens a match; then the same page under the other
// rule sets (the rules selector, ?rules=): three-valued results, DTE and a pass. Screenshots go to SHOT_DIR; with
// --docs, the README's screenshot is written to PNG as well. Every request must go to URL's
// server, and the page must log no error.
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

// Waits until the page shows `fen` probed (status no longer pending) and its line loaded.
async function shown(page, fen) {
  await page.waitForFunction((expected) => {
    const status = document.getElementById('status').dataset.category;
    return document.getElementById('fen').value === expected && status && status !== 'pending' &&
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
    const men = await page.$$eval('#board g.man', (g) => g.map((e) => `${e.dataset.piece}${e.dataset.square}`).sort());
    assert.deepEqual(men, ['Kd1', 'Nb3', 'kb1']);
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

  await step('a bad FEN is reported, not shown as a position', async () => {
    await page.fill('#fen', '8/8/8/8/8/8/8/K7 w - - 0 1');
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => document.getElementById('status').dataset.category === 'error');
    assert.match(await status(page), /Black has no king/);
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
    await explorerTests(page);
    await rulesTests(page);
    assert.deepEqual(problems, []);
    if (docsFlag === '--docs') {
      await page.goto(url(KNK));
      await shown(page, KNK);
      await page.click('#table-list tr[data-signature="KNk"]');
      await page.waitForSelector('#table-detail table');
      await shown(page, await page.getAttribute('#table-detail a.example', 'href').then((h) => h.slice(5).replace(/_/g, ' ')));
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
