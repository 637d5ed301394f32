// Browser tests of `vorpal gui` as a player uses it for a whole game (issue 23): nothing lost on
// reload or server restart, a move tree, play mode without the engine's thoughts, Black's
// side of the board, a phone layout, faithful PGN, keys and messages. Screenshots of every
// mode at three window sizes go to $SCREENSHOT_DIR/modes.

import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { launchChromium, startGui } from './launch.mjs';
import { cell, ready, clickMove, moveCount, closePage, openSetup, inView, showTab, closeSheet } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const YEAROUT = readFileSync('yearout-jelliss-1996.pgn', 'utf8');
let browser;
let server;
/** Every test ends within three minutes, failing if it hangs. */
const test = (name, fn) => nodeTest(name, { timeout: 180000 }, fn);

/** A free TCP port. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `vorpal gui --port port`, with VORPAL_GUI_TOKEN set to `token` when given (see launch.mjs). */
async function startServer(port, token) {
  const s = await startGui(BIN, ['--port', String(port)], token ? { VORPAL_GUI_TOKEN: token } : {});
  return { ...s, port };
}

function stopServer(s) {
  return new Promise((resolve) => {
    s.child.on('exit', resolve);
    s.child.kill();
  });
}

/** A page in a new context (or `opts.context`). Playwright's waitForFunction evaluates text,
 * which the server's Content-Security-Policy forbids, so the contexts bypass it (gui.test.mjs
 * checks the page under the real policy). */
async function openPage(opts = {}) {
  const context = opts.context || (await browser.newContext({ viewport: opts.viewport || { width: 1400, height: 900 }, acceptDownloads: true, bypassCSP: true }));
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(opts.url || server.url);
  await ready(page);
  return page;
}

const mainMoves = (page) => page.locator('#moves .move:not(.variation)').allTextContents();
const allMoves = (page) => page.locator('#moves .move').allTextContents();

/** Imports the sample game (on a phone through the menu's FEN, PGN tab, closed again). */
async function importYearout(page) {
  await showTab(page, 'pgn');
  await page.fill('#pgn', YEAROUT);
  await page.click('#importpgn');
  await moveCount(page, 6);
  await closeSheet(page);
}

before(async () => {
  assert.ok(BIN, 'VORPAL_BIN must name the vorpal binary');
  browser = await launchChromium();
  server = await startServer(await freePort());
});

after(async () => {
  await browser?.close();
  server?.child.kill();
});

test('a reload keeps the moves, the variations and the shown move', async () => {
  const page = await openPage();
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await clickMove(page, ['A', 'd7'], ['B', 'd5']);
  await moveCount(page, 2);
  await page.click('#moves .move[data-ply="1"]');
  await clickMove(page, ['A', 'g8'], ['B', 'f6']);
  await moveCount(page, 3);
  const sid = await page.evaluate(() => sessionStorage.getItem('vorpal-gui-session'));
  await page.reload();
  await ready(page);
  await moveCount(page, 3);
  assert.deepEqual(await mainMoves(page), ['e4', 'd5']);
  assert.deepEqual(await page.locator('#moves .move.variation').allTextContents(), ['Nf6']);
  assert.equal(await page.textContent('#moves .current'), 'Nf6');
  assert.ok(await page.evaluate(() => sessionStorage.getItem('vorpal-gui-session')), 'the tab holds a session');
  assert.ok(sid);
  await closePage(page);
});

test('a restart of the server on the same port keeps the game', async () => {
  // The same port and the same token (VORPAL_GUI_TOKEN), so the open page may go on.
  const port = await freePort();
  const token = 'restart-test-token-0123456789';
  let own = await startServer(port, token);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const page = await openPage({ context, url: own.url });
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 1);
  await stopServer(own);
  own = await startServer(port, token);
  try {
    // The page finds its session gone and opens a new one with the kept game.
    await page.waitForFunction(() => document.getElementById('notice').textContent === '' && document.querySelectorAll('#moves .move').length === 1, null, { timeout: 20000 });
    await clickMove(page, ['A', 'e7'], ['B', 'e5']);
    await moveCount(page, 2);
    // A new tab after the restart finds the game in the browser too.
    const again = await openPage({ context, url: own.url });
    await moveCount(again, 2);
    assert.deepEqual(await mainMoves(again), ['e4', 'e5']);
  } finally {
    await closePage(page);
    await stopServer(own);
  }
});

test('a duplicated tab opens its own session with a copy of the game', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const one = await openPage({ context });
  await clickMove(one, ['A', 'e2'], ['B', 'e4']);
  await moveCount(one, 1);
  const sid = await one.evaluate(() => sessionStorage.getItem('vorpal-gui-session'));
  // A duplicated tab starts with a copy of the first tab's sessionStorage.
  await context.addInitScript((s) => { if (!sessionStorage.getItem('vorpal-gui-session')) sessionStorage.setItem('vorpal-gui-session', s); }, sid);
  const two = await openPage({ context });
  await moveCount(two, 1);
  assert.notEqual(await two.evaluate(() => sessionStorage.getItem('vorpal-gui-session')), sid);
  await clickMove(two, ['A', 'e7'], ['B', 'e5']);
  await moveCount(two, 2);
  await one.waitForTimeout(300);
  assert.deepEqual(await allMoves(one), ['e4'], 'the first tab keeps its own game');
  await closePage(one);
});

test('a move in an earlier position keeps the old continuation; promote and delete', async () => {
  const page = await openPage();
  await importYearout(page);
  await page.click('#moves .move[data-ply="2"]');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.textContent === 'e6');
  await clickMove(page, ['A', 'd2'], ['B', 'd4']);
  await moveCount(page, 7);
  assert.deepEqual(await mainMoves(page), ['Nf3', 'e6', 'Ne5/A', 'Bc5', 'Nxf7', 'Bg1/A']);
  assert.deepEqual(await page.locator('#moves .move.variation').allTextContents(), ['d4']);
  await page.click('#exportpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('(2. d4)'));
  await page.screenshot({ path: join(SHOTS, 'ux-variation.png') });
  await page.click('#promote');
  await page.waitForFunction(() => document.querySelector('#moves .move:not(.variation)[data-ply="3"]')?.textContent === 'd4');
  await page.click('#delete');
  await moveCount(page, 6);
  assert.deepEqual(await allMoves(page), ['Nf3', 'e6', 'Ne5/A', 'Bc5', 'Nxf7', 'Bg1/A']);
  assert.equal(await page.textContent('#moves .current'), 'e6', 'the move before the deleted one is shown');
  await closePage(page);
});

test('headers and comments of an imported PGN come back out on export; Save PGN is the game at the click', async () => {
  const page = await openPage();
  await importYearout(page);
  await page.click('#exportpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('Jelliss'));
  const text = await page.inputValue('#pgn');
  for (const t of ['[Event "Alice chess, illustrative game"]', '[Date "1996.??.??"]', '[Round "?"]', '[White "Yearout"]', '[Black "Jelliss"]', '{Opening of the sample game', '1. Nf3 e6 2. Ne5/A Bc5 3. Nxf7 Bg1/A']) {
    assert.ok(text.includes(t), `${t} is kept:\n${text}`);
  }
  assert.match(await page.textContent('.player.top .name'), /Jelliss/);
  // Save PGN: the game as it is at the click (1. e4, Export, 1... e5, Save: both moves).
  await page.click('#newgame');
  await moveCount(page, 0);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 1);
  await page.click('#exportpgn');
  await clickMove(page, ['A', 'e7'], ['B', 'e5']);
  await moveCount(page, 2);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#savepgn')]);
  const saved = readFileSync(await download.path(), 'utf8');
  assert.ok(saved.includes('1. e4 e5 *'), saved);
  await closePage(page);
});

test('keys: with a menu focused → steps to the next move; Esc closes the chooser; typed moves; one message place', async () => {
  const page = await openPage();
  await importYearout(page);
  await page.click('#first');
  await page.waitForFunction(() => document.querySelector('#moves .current') === null);
  await page.focus('#mode');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '1');
  assert.equal(await page.inputValue('#mode'), 'human', 'the menu kept its value');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '6');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#moves .current') === null);
  // The move box: SAN with or without /A, or UCI; a refusal in move-number SAN, cleared by
  // the next success.
  await page.fill('#fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.click('#loadfen');
  await moveCount(page, 0);
  await page.fill('#movebox', 'e4');
  await page.press('#movebox', 'Enter');
  await moveCount(page, 1);
  await page.fill('#movebox', 'Ke7');
  await page.press('#movebox', 'Enter');
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('1... Ke7 is illegal'));
  // The reason is part of the status (#status shows a refusal's reason) and written once.
  assert.match(await page.textContent('#status'), /1\.\.\. Ke7 is illegal/);
  const shown = await page.evaluate(() => document.body.innerText.split('Ke7 is illegal').length - 1);
  assert.equal(shown, 1, 'the error is shown once');
  await page.fill('#movebox', 'e7e5');
  await page.press('#movebox', 'Enter');
  await moveCount(page, 2);
  // The refusal goes with the success (the move list and the notice may update a moment apart).
  await page.waitForFunction(() => document.getElementById('notice').textContent === '', null, { timeout: 3000 });
  // One move at a time, as a person types them: each is played from the position the
  // previous one reached.
  let count = 2;
  for (const m of ['Nf3', 'Nc6', 'Nd4/A']) {
    await page.fill('#movebox', m);
    await page.press('#movebox', 'Enter');
    count += 1;
    await moveCount(page, count);
  }
  assert.deepEqual(await allMoves(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Nd4/A']);
  // Cells are focusable with labels; Enter acts as a click.
  assert.equal(await page.getAttribute(cell('B', 'e4'), 'aria-label'), 'e4, board B, white pawn');
  // The promotion chooser closes with Esc.
  await page.fill('#fen', '4k3/1P6/8/8/8/8/8/4K3 w - - 0 1');
  await page.click('#loadfen');
  await page.waitForSelector(`${cell('A', 'b7')} [data-piece="wp"]`);
  await page.focus(cell('A', 'b7'));
  await page.keyboard.press('Enter');
  await page.focus(cell('B', 'b8'));
  await page.keyboard.press('Enter');
  await page.waitForSelector('#chooser:not([hidden])');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#chooser', { state: 'hidden' });
  await moveCount(page, 0);
  await closePage(page);
});

test('play mode: no engine lines or evaluation while the game runs; shown on request', async () => {
  const page = await openPage();
  await page.selectOption('#mode', 'play');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '300');
  await page.selectOption('#color', 'white');
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 2);
  const sid = await page.evaluate(() => sessionStorage.getItem('vorpal-gui-session'));
  for (let i = 0; i < 5; i++) {
    const view = await page.evaluate(async (s) => (await fetch(`/api/state?sid=${s}&since=0`)).json(), sid);
    assert.deepEqual(view.lines, [], 'the server sends no lines in play mode');
    assert.equal(await page.textContent('#lines'), '');
    assert.equal(await page.textContent('#evaltext'), '');
    assert.ok(await page.locator('#evalbar.idle').count(), 'the evaluation bar is idle');
    await page.waitForTimeout(100);
  }
  await openSetup(page);
  await page.check('#showengine');
  await page.waitForFunction(() => document.getElementById('showengine').checked);
  await closePage(page);
});

test('playing Black turns the boards round; clocks beside their side follow Flip', async () => {
  const page = await openPage();
  await page.selectOption('#mode', 'play');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '200');
  await page.selectOption('#color', 'black');
  await moveCount(page, 1);
  const a1 = await page.locator(cell('A', 'a1')).boundingBox();
  const a8 = await page.locator(cell('A', 'a8')).boundingBox();
  assert.ok(a1.y < a8.y, `a1 (${a1.y}) is drawn above a8 (${a8.y})`);
  assert.equal(await page.getAttribute('#player-bottom', 'data-side'), 'black');
  await page.click('#flip');
  await page.waitForFunction(() => document.getElementById('player-bottom').dataset.side === 'white');
  const b1 = await page.locator(cell('A', 'a1')).boundingBox();
  assert.ok(b1.y > a8.y - 1, 'after Flip White is at the bottom');
  await closePage(page);
});

test('a finished game against the engine: banner with Rematch and Analyse', async () => {
  const page = await openPage();
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await clickMove(page, ['A', 'd7'], ['B', 'd5']);
  await clickMove(page, ['A', 'f1'], ['B', 'e2']);
  await clickMove(page, ['B', 'd5'], ['A', 'e4']);
  await moveCount(page, 4);
  // The first move folded the setup away: opened again, as a person does.
  await openSetup(page);
  await page.selectOption('#mode', 'play');
  await page.selectOption('#color', 'white');
  await clickMove(page, ['B', 'e2'], ['A', 'b5']);
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /Checkmate: White wins/);
  await page.screenshot({ path: join(SHOTS, 'ux-banner.png') });
  await page.click('#analyse');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  assert.equal(await page.inputValue('#mode'), 'analysis');
  await closePage(page);
});


test('phone 390x844: boards, status, last move and best line on one screen; a game played by taps', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, bypassCSP: true });
  const page = await openPage({ context });
  const m = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(m.scroll <= m.client, `document ${m.scroll} px wide in a ${m.client} px window`);
  // Two people: a whole (short) game by taps, origin then landing square on the other board.
  await openSetup(page);
  await page.selectOption('#mode', 'human');
  await page.tap('#newgame');
  await moveCount(page, 0);
  const taps = [[['A', 'e2'], ['B', 'e4']], [['A', 'e7'], ['B', 'e5']], [['A', 'd1'], ['B', 'h5']], [['A', 'g8'], ['B', 'f6']], [['B', 'h5'], ['A', 'e5']]];
  for (const [i, [from, to]] of taps.entries()) {
    await page.tap(cell(...from));
    await page.tap(cell(...to));
    await moveCount(page, i + 1);
    await page.waitForFunction((k) => document.getElementById('lastmove').textContent.includes(k), i % 2 ? '…' : '.');
  }
  await page.waitForFunction(() => /mate/i.test(document.getElementById('status').textContent));
  const a = await inView(page, '.board-A', 390, 844);
  const b = await inView(page, '.board-B', 390, 844);
  assert.ok(b.y > a.y, 'B is below A');
  await inView(page, '#status', 390, 844);
  const last = await inView(page, '#lastmove', 390, 844);
  assert.ok(last.height > 0);
  assert.match(await page.textContent('#lastmove'), /3\. Qxe5\/A#?|3\. Qxe5#/);
  const c = await page.locator(cell('A', 'e4')).boundingBox();
  assert.ok(c.width >= 36, `cells ${c.width} px (at least 36 px to tap)`);
  // Analysis of the position before the mate: the evaluation and the best line are in view too.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '4');
  // The setup (folded away by New game) through the menu's sheet, as a person does.
  await page.tap('#menu');
  await page.tap('#sheet-tabs [data-tab="setup"]');
  await openSetup(page);
  await page.selectOption('#mode', 'analysis');
  await page.tap('#menu');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open'));
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length > 0, null, { timeout: 15000 });
  await page.waitForTimeout(500);
  await inView(page, '.board-B', 390, 844);
  await inView(page, '#lines .line', 390, 844);
  // The evaluation is the best line's score (the bar's own figure would lie over a8).
  assert.match(await page.textContent('#lines .line .score'), /^(#-?|[-+])?\d/);
  await inView(page, '#lines .line .score', 390, 844);
  await page.screenshot({ path: join(SHOTS, 'phone-analysis-390x844.png') });
  await closePage(page);
});

test('a phone on its side (844x390) and a laptop (1024x700): both boards and the status in view', async () => {
  for (const [w, h] of [[844, 390], [1024, 700]]) {
    const page = await openPage({ viewport: { width: w, height: h } });
    await inView(page, '.board-A', w, h);
    await inView(page, '.board-B', w, h);
    await inView(page, '#status', w, h);
    await closePage(page);
  }
});

test('desktop: cells of 56 px at 1400x900 and 44 px at 1024x700', async () => {
  for (const [w, h, min] of [[1400, 900, 56], [1024, 700, 44]]) {
    const page = await openPage({ viewport: { width: w, height: h } });
    const box = await page.locator(cell('B', 'h8')).boundingBox();
    assert.ok(box.width >= min, `${w}x${h}: cells ${box.width} px`);
    assert.ok(box.x + box.width <= w, `${w}x${h}: board B fits`);
    const m = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(m, `${w}x${h}: no sideways scrolling`);
    await closePage(page);
  }
});

test('screenshots of every mode at 1400x900, 1024x700 and 390x844', async () => {
  const dir = join(SHOTS, 'modes');
  mkdirSync(dir, { recursive: true });
  // The browser's dark preference is honoured.
  const dark = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark', bypassCSP: true });
  const night = await openPage({ context: dark });
  await importYearout(night);
  await night.hover(cell('B', 'f3'));
  assert.equal(await night.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await night.screenshot({ path: join(dir, 'dark-1400x900.png') });
  await closePage(night);
  for (const [w, h] of [[1400, 900], [1024, 700], [390, 844]]) {
    for (const mode of ['human', 'play', 'analysis', 'watch']) {
      const page = await openPage({ viewport: { width: w, height: h } });
      await importYearout(page);
      await page.click('#moves .move[data-ply="2"]');
      await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '2');
      if (mode === 'play' || mode === 'watch') {
        // From the end of the game: the engine (Black's side is the person's in play mode)
        // moves at once.
        await page.keyboard.press('End');
        await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '6');
        await openSetup(page);
        await page.selectOption('#mode', mode);
        await page.selectOption('#limit', 'movetime');
        await page.fill('#movetime', '300');
        if (mode === 'play') await page.selectOption('#color', 'black');
        else await page.dispatchEvent('#movetime', 'change');
      } else if (mode === 'analysis') {
        await openSetup(page);
        await page.selectOption('#mode', mode);
      }
      await closeSheet(page);
      if (mode === 'analysis') {
        await page.waitForFunction(() => document.querySelectorAll('#lines .line').length > 0, null, { timeout: 15000 });
        await page.waitForTimeout(1000);
      } else if (mode === 'human') {
        await page.hover(cell('A', 'e4'));
      } else {
        await page.waitForTimeout(2500);
      }
      await page.screenshot({ path: join(dir, `${mode}-${w}x${h}.png`), fullPage: w < 760 });
      await closePage(page);
    }
  }
});
