// The lichess-level points of issue 44 that are the page's logic: a whole PGN file (opened with
// the file button) gives the picker #games, one option per game, and picking game 2 loads it;
// its [%clk] comments are shown as each side's time (players' bars, move list) and its [%eval]
// comments as the graph when there is no review; a FEN no game can reach (48 men) is refused
// with the reason and the game stays; the same at a phone's size.

import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { guiFixture } from './launch.mjs';
import { ready, closePage, inView, showTab, closeSheet, openSetup, oneScreen } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);

/** Two games: the second has clock and evaluation comments. */
const FILE = `[Event "One"]
[White "Carroll"]
[Black "Tenniel"]
[Result "*"]

1. e4 d5 *

[Event "Two"]
[White "Alice"]
[Black "Red Queen"]
[Result "*"]

1. e4 {[%eval 0.2] [%clk 0:05:00]} d5 {[%eval -0.3] [%clk 0:04:58]} 2. Nf3 {[%eval 0.25] [%clk 1:04:50.5] develops} *
`;

const FORTY_EIGHT = 'rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const fixture = guiFixture(BIN, SHOTS);

async function openPage(width, height) {
  const context = await fixture.browser.newContext({ viewport: { width, height }, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(fixture.server.url);
  await ready(page);
  return page;
}

test('a two-game file gives the picker; game 2 loads with its clocks and evaluations', async () => {
  const page = await openPage(1400, 900);
  await page.setInputFiles('#pgnfile', { name: 'two.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(FILE) });
  await page.waitForFunction(() => document.querySelectorAll('#games option').length === 2);
  assert.equal(await page.isVisible('#games'), true);
  const labels = await page.$$eval('#games option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(labels, ['1. Carroll – Tenniel, *, 1 move', '2. Alice – Red Queen, *, 2 moves']);
  // The first game is shown (its state may come after the picker is filled: waited for).
  await page.waitForFunction(() => document.querySelector('#player-bottom .name').textContent === 'Carroll');
  await page.selectOption('#games', '1');
  await page.waitForFunction(() => document.querySelector('#player-bottom .name').textContent === 'Alice');
  assert.equal(await page.locator('#moves .move').count(), 3);
  // At the end: White's clock after 2. Nf3, Black's after 1... d5.
  await page.click('#last');
  await page.waitForFunction(() => document.getElementById('clock-white')?.textContent === '1:04:50');
  assert.equal(await page.textContent('#clock-black'), '4:58');
  assert.deepEqual(await page.$$eval('#moves .clk', (cs) => cs.map((c) => c.textContent)), ['5:00', '4:58', '1:04:50']);
  assert.match(await page.textContent('#moves'), /develops/);
  assert.doesNotMatch(await page.textContent('#moves'), /%clk|%eval/);
  // Back one move: White's clock is the one after 1. e4.
  await page.click('#prev');
  await page.waitForFunction(() => document.getElementById('clock-white')?.textContent === '5:00');
  // The evaluations as the graph (no review has run): one point per evaluated move.
  assert.equal(await page.locator('#review svg.eval-graph.from-pgn circle.pt').count(), 3);
  // Both kept on export.
  await page.click('#exportpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('[%clk 1:04:50.5]'));
  assert.match(await page.inputValue('#pgn'), /\{\[%eval 0\.25\] \[%clk 1:04:50\.5\] develops\}/);
  await page.screenshot({ path: join(SHOTS, 'pgn-file-game-2.png') });
  await closePage(page);
});

test('a 48-man FEN is refused with the reason at 1400x900 and 390x844; the game stays', async () => {
  for (const [w, h] of [[1400, 900], [390, 844]]) {
    const page = await openPage(w, h);
    // On the phone the FEN field is in the menu's sheet (FEN, PGN tab).
    await showTab(page, 'pgn');
    const before = await page.inputValue('#fen');
    await page.fill('#fen', FORTY_EIGHT);
    await page.click('#loadfen');
    await page.waitForFunction(() => document.getElementById('notice').textContent.includes('White has 24 men'));
    assert.match(await page.textContent('#notice'), /bad FEN, game unchanged: White has 24 men; a game of alice has at most 16 a side/);
    assert.equal(await page.locator('[data-piece]').count(), 32);
    assert.equal(await page.inputValue('#fen'), before);
    await closePage(page);
  }
});


const GAME = '[White "Alice"]\n[Black "Red Queen"]\n\n1. e4 {[%clk 0:05:00] [%cal Gd2d4]} d5 {[%clk 0:04:59]} 2. Be2 Nf6 *';

for (const theme of ['light', 'dark']) {
  test(`${theme}: at 390x844, 844x390, 1024x700 and 1400x900 the boards, bars, status, moves, « ◀ ▶ » and the engine's lines are in view`, async () => {
    for (const [w, h] of [[390, 844], [844, 390], [1024, 700], [1400, 900]]) {
      const phone = w < 900;
      const context = await fixture.browser.newContext({ viewport: { width: w, height: h }, colorScheme: theme, hasTouch: phone, isMobile: phone, bypassCSP: true });
      const page = await context.newPage();
      page.on('pageerror', (e) => { throw e; });
      await page.goto(fixture.server.url);
      await ready(page);
      await showTab(page, 'pgn');
      await page.fill('#pgn', GAME);
      await page.click('#importpgn');
      await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 4);
      await openSetup(page);
      await page.selectOption('#mode', 'analysis');
      await closeSheet(page);
      await page.waitForFunction(() => document.querySelectorAll('#lines .line').length > 0, null, { timeout: 20000 });
      // Choosing the mode scrolled the panel (or the page) to the menu: back to the top.
      await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('aside').scrollTop = 0; });
      await page.waitForTimeout(300);
      for (const s of ['.board-A', '.board-B', '#player-top', '#player-bottom', '#clock-white', '#status', '#moves', '#first', '#prev', '#next', '#last', '#lines .line']) {
        await inView(page, s, w, h);
      }
      // The shown move (the last) is in view in the list or strip.
      const current = await page.evaluate(() => {
        const r = document.querySelector('#moves .current').getBoundingClientRect();
        const list = document.getElementById('moves').getBoundingClientRect();
        return r.left >= list.left - 1 && r.right <= list.right + 1 && r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
      });
      assert.ok(current, `the shown move is in view in #moves at ${w}x${h}`);
      // One set of navigation buttons.
      assert.equal(await page.locator('#first').count(), 1);
      if (w === 390) {
        const c = await page.locator('[data-board="A"][data-square="e4"]').boundingBox();
        assert.ok(c.width >= 36, `cells of ${c.width} px upright`);
        await inView(page, '#menu', w, h);
        await inView(page, '#lastmove', w, h);
      }
      await page.screenshot({ path: join(SHOTS, `lichess-${theme}-${w}x${h}.png`) });
      await context.close();
    }
  });
}

test('a swipe on the boards steps one ply (right: back, left: forward); the strip shows variations; the menu opens the sheet, whose tabs each show one part', async () => {
  const context = await fixture.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(fixture.server.url);
  await ready(page);
  await showTab(page, 'pgn');
  await page.fill('#pgn', GAME.replace('1. e4', '1. e4 (1. d4 {queen first} d5)'));
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '4');
  await closeSheet(page);
  // Nothing of the panel is on the page with the sheet closed, and the page does not scroll.
  await oneScreen(page, 'the strip with a variation');
  // The strip marks the variation in parentheses (its comment only in the full list).
  assert.equal(await page.isVisible('#moves .var'), true);
  assert.match(await page.textContent('#moves .var'), /d4/);
  assert.equal(await page.isVisible('#moves .comment'), false);
  const swipe = async (dx) => {
    const box = await page.locator('[data-board="B"][data-square="d7"]').boundingBox();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 5, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  };
  await swipe(150);
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '3');
  await swipe(150);
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '2');
  await swipe(-150);
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '3');
  assert.equal(await page.locator('#moves .move').count(), 6, 'no move was played (4, and 2 in the variation)');
  assert.equal(await page.locator('.cell.twin').count(), 0, 'no outline stays after the touch');
  // The menu opens the sheet (at the tab shown last, here FEN, PGN); its Moves tab has the full
  // move list (with the variation's comment); each tab is one tap away and shows its part only;
  // the menu again closes the sheet. (A tap right after a swipe is taken by Chromium as part of
  // the gesture: a person's pause first.)
  await page.waitForTimeout(1000);
  await page.tap('#menu');
  await page.waitForFunction(() => document.body.classList.contains('sheet-open') && document.body.dataset.sheet === 'pgn');
  await page.tap('#sheet-tabs [data-tab="moves"]');
  await page.waitForFunction(() => document.body.dataset.sheet === 'moves');
  const sheet = await page.locator('aside').boundingBox();
  assert.ok(sheet.y >= 0 && sheet.y + sheet.height <= 844 - 48 + 0.5, `sheet at ${JSON.stringify(sheet)}`);
  assert.equal(await page.isVisible('#moves .comment'), true);
  assert.equal(await page.evaluate(() => document.getElementById('moves').closest('aside') !== null), true);
  const shown = { moves: '#movebox', engine: '#lines', review: '#reviewbtn', setup: '#newgame', pgn: '#pgn' };
  const hidden = { moves: '#newgame', engine: '#movebox', review: '#pgn', setup: '#reviewbtn', pgn: '#movebox' };
  for (const [tab, sel] of Object.entries(shown)) {
    await page.tap(`#sheet-tabs [data-tab="${tab}"]`);
    await page.waitForFunction((t) => document.body.dataset.sheet === t, tab);
    if (tab !== 'engine') assert.equal(await page.isVisible(sel), true, `${sel} in the ${tab} tab`);
    else assert.equal(await page.evaluate(() => document.getElementById('lines').closest('aside') !== null), true);
    assert.equal(await page.isVisible(hidden[tab]), false, `${hidden[tab]} not in the ${tab} tab`);
    const tabs = await page.locator('#sheet-tabs').boundingBox();
    assert.ok(tabs.y >= 0 && tabs.y + tabs.height <= 844, `the tabs at ${JSON.stringify(tabs)}`);
    if (tab === 'setup') await page.screenshot({ path: join(SHOTS, 'lichess-sheet-390x844.png') });
  }
  await page.tap('#menu');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open'));
  // Closed, the strip is back under the boards.
  assert.equal(await page.evaluate(() => document.getElementById('moves').closest('.play') !== null), true);
  await inView(page, '#moves', 390, 844);
  await context.close();
});

test("the person's shapes and the engine's arrows have different colours; f turns the boards round", async () => {
  const page = await openPage(1400, 900);
  await page.fill('#pgn', GAME);
  await page.click('#importpgn');
  // The buttons step from the shown game: the imported one first (a slow machine answers late).
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 4);
  await page.click('#first');
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '1');
  await page.selectOption('#mode', 'analysis');
  await page.waitForSelector('svg.arrows line', { timeout: 20000, state: 'attached' });
  await page.waitForSelector('svg.drawings line', { state: 'attached' });
  const colours = await page.evaluate(() => [getComputedStyle(document.querySelector('svg.arrows line')).stroke, getComputedStyle(document.querySelector('svg.drawings line')).stroke]);
  assert.notEqual(colours[0], colours[1], `engine ${colours[0]}, person ${colours[1]}`);
  // In analysis the bars name the game's players, not "You" and the engine.
  assert.equal(await page.textContent('#player-bottom .name'), 'Alice');
  const top = await page.locator('#player-top').getAttribute('data-side');
  await page.focus('#boards');
  await page.keyboard.press('f');
  await page.waitForFunction((t) => document.getElementById('player-top').dataset.side !== t, top);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '4');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#moves .current') === null);
  await closePage(page);
});

test('premove: made while the engine thinks, played at once after its reply; a click elsewhere cancels one', async () => {
  const page = await openPage(1400, 900);
  await page.selectOption('#mode', 'play');
  await page.selectOption('#color', 'white');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '1500');
  await page.dispatchEvent('#movetime', 'change');
  await page.click('#newgame');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0 && /White to move/.test(document.getElementById('status').textContent));
  const cellOf = (b, s) => `[data-board="${b}"][data-square="${s}"]`;
  await page.click(cellOf('A', 'e2'));
  await page.click(cellOf('B', 'e4'));
  await page.waitForFunction(() => /is thinking/.test(document.getElementById('status').textContent));
  await page.click(cellOf('A', 'g1'));
  await page.click(cellOf('B', 'f3'));
  assert.equal(await page.locator('.cell.premove').count(), 2, 'the premove is shown');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 3, null, { timeout: 20000 });
  assert.equal(await page.textContent('#moves .move[data-ply="3"]'), 'Nf3');
  assert.equal(await page.locator('.cell.premove').count(), 0);
  // A second premove, cancelled by a click elsewhere: the engine's reply comes and no move follows.
  await page.waitForFunction(() => /is thinking/.test(document.getElementById('status').textContent));
  await page.click(cellOf('A', 'b1'));
  await page.click(cellOf('B', 'c3'));
  assert.equal(await page.locator('.cell.premove').count(), 2);
  await page.click(cellOf('A', 'h5'));
  assert.equal(await page.locator('.cell.premove').count(), 0, 'cancelled');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 4, null, { timeout: 20000 });
  await page.waitForTimeout(800);
  assert.equal(await page.locator('#moves .move').count(), 4, 'the cancelled premove was not played');
  await closePage(page);
});

test('a second piece set and board colours, and the sounds, are remembered after a reload', async () => {
  const page = await openPage(1400, 900);
  await page.click('#looks summary');
  await page.selectOption('#pieceset', 'glyphs');
  await page.selectOption('#boardcolours', 'green');
  await page.selectOption('#sounds', 'all');
  const dark = () => page.evaluate(() => getComputedStyle(document.querySelector('.board-A .dark')).backgroundColor);
  assert.equal(await dark(), 'rgb(118, 150, 86)');
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.piece[data-piece=wK]'), '::after').content), '"♚"');
  await page.screenshot({ path: join(SHOTS, 'lichess-glyphs-green.png') });
  await page.reload();
  await ready(page);
  assert.deepEqual(await page.evaluate(() => [document.documentElement.dataset.pieces, document.documentElement.dataset.boards, document.getElementById('sounds').value]), ['glyphs', 'green', 'all']);
  assert.equal(await dark(), 'rgb(118, 150, 86)');
  await closePage(page);
});
