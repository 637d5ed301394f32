// The lichess-level points of issue 44 that are the page's logic: a whole PGN file (opened with
// the file button) gives the picker #games, one option per game, and picking game 2 loads it;
// its [%clk] comments are shown as each side's time (players' bars, move list) and its [%eval]
// comments as the graph when there is no review; a FEN no game can reach (48 men) is refused
// with the reason and the game stays; the same at a phone's size.

import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startGui } from './launch.mjs';
import { ready, closePage } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);
let browser;
let server;

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

before(async () => {
  assert.ok(BIN, 'VORPAL_BIN must name the vorpal binary');
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  server = await startGui(BIN, ['--port', '0']);
});

after(async () => {
  await browser?.close();
  server?.child.kill();
});

async function openPage(width, height) {
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(server.url);
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
  assert.equal(await page.textContent('#player-bottom .name'), 'Carroll');
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
