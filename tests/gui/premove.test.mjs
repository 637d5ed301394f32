// Premove (issue 44), against an engine whose reply is known (fake-engines/scripted.sh): a
// premove without the shape of a move of its piece is refused at once with the reason; one that
// the engine's reply makes illegal is dropped with a note; a pawn premoved to its last rank
// becomes a queen without asking (lichess's auto-queen when premoving), or, with auto-queen set
// to never, asks for its piece (the chooser) and becomes that piece after the reply.

import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, startGui } from './launch.mjs';
import { ready, cell, clickMove, moveCount, closePage } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);
let browser;

before(async () => {
  assert.ok(BIN, 'VORPAL_BIN must name the vorpal binary');
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** A page on a server whose engine answers every search with `reply`, in play mode as White. */
async function playAgainst(reply) {
  const server = await startGui(BIN, ['--port', '0', '--engine', 'cmd=fake-engines/scripted.sh', `arg=${reply}`, 'name=Scripted']);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(server.url);
  await ready(page);
  await page.selectOption('#mode', 'play');
  await page.selectOption('#color', 'white');
  return { page, server };
}

const notice = (page) => page.textContent('#notice');

test('a premove without its piece\'s shape is refused at once; one the reply makes illegal is dropped with a note', async () => {
  const { page, server } = await playAgainst('e7e5');
  try {
    await clickMove(page, ['A', 'e2'], ['B', 'e4']);
    await page.waitForFunction(() => /is thinking/.test(document.getElementById('status').textContent));
    // A knight from g1 to g3: no knight's move, refused at once.
    await page.click(cell('A', 'g1'));
    await page.click(cell('A', 'g3'));
    assert.match(await notice(page), /No premove: the knight on g1 of board A cannot move to g3 \(not a knight's move\)/);
    assert.equal(await page.locator('.cell.premove').count(), 0);
    // The pawn of B:e4 one step forward (landing on A:e5): a pawn's move now, set.
    await page.click(cell('B', 'e4'));
    await page.click(cell('A', 'e5'));
    assert.equal(await page.locator('.cell.premove').count(), 2);
    assert.match(await notice(page), /Premove B:e4 to A:e5/);
    // 1... e5 (the pawn lands on B:e5) blocks it: dropped, with the note in the status line.
    await moveCount(page, 2);
    await page.waitForFunction(() => /dropped: not legal after the engine's move/.test(document.getElementById('notice').textContent));
    assert.equal(await page.locator('.cell.premove').count(), 0);
    await page.waitForTimeout(500);
    assert.equal(await page.locator('#moves .move').count(), 2, 'nothing was played');
    await page.screenshot({ path: join(SHOTS, 'premove-dropped.png') });
  } finally {
    await closePage(page);
    server.child.kill();
  }
});

/** Plays 1. Ka1-b1 in the position with White's pawn on g7 (the engine answers a8b8), then
 * premoves g7-g8 while the engine thinks. */
async function premovePromotion(page) {
  await page.fill('#fen', 'k7/6P1/8/8/8/8/8/K7 w - - 0 1');
  await page.click('#loadfen');
  await page.waitForFunction(() => document.querySelector('[data-board="A"][data-square="g7"] .piece')?.dataset.piece === 'wp');
  await page.waitForFunction(() => /White to move/.test(document.getElementById('status').textContent));
  await clickMove(page, ['A', 'a1'], ['B', 'b1']);
  await page.waitForFunction(() => /is thinking/.test(document.getElementById('status').textContent));
  await page.click(cell('A', 'g7'));
  await page.click(cell('A', 'g8'));
}

test('a pawn premoved to its last rank becomes a queen without asking (auto-queen when premoving)', async () => {
  const { page, server } = await playAgainst('a8b8');
  try {
    assert.equal(await page.inputValue('#autoqueen'), 'premove', 'auto-queen when premoving is the default');
    await premovePromotion(page);
    assert.match(await notice(page), /Premove A:g7 to A:g8=Q/);
    assert.equal(await page.isVisible('#chooser'), false, 'nothing asked');
    await moveCount(page, 3);
    assert.match(await page.textContent('#moves .move[data-ply="3"]'), /g8=Q/);
    assert.equal(await page.evaluate(() => document.querySelector('[data-board="B"][data-square="g8"] .piece')?.dataset.piece), 'wQ');
    await page.screenshot({ path: join(SHOTS, 'premove-auto-queen.png') });
  } finally {
    await closePage(page);
    server.child.kill();
  }
});

test('with auto-queen set to never, a premoved promotion asks for its piece and becomes it after the reply; the choice is remembered', async () => {
  const { page, server } = await playAgainst('a8b8');
  try {
    await page.click('#looks summary');
    await page.selectOption('#autoqueen', 'never');
    await page.reload();
    await ready(page);
    assert.equal(await page.inputValue('#autoqueen'), 'never', 'kept after a reload');
    await premovePromotion(page);
    await page.waitForSelector('#chooser:not([hidden]) button[data-uci="n"]');
    assert.equal(await page.locator('#chooser button').count(), 5, 'queen, rook, bishop, knight, cancel');
    await page.click('#chooser button[data-uci="n"]');
    assert.match(await notice(page), /Premove A:g7 to A:g8=N/);
    await moveCount(page, 3);
    assert.match(await page.textContent('#moves .move[data-ply="3"]'), /g8=N/);
    assert.equal(await page.evaluate(() => document.querySelector('[data-board="B"][data-square="g8"] .piece')?.dataset.piece), 'wN');
  } finally {
    await closePage(page);
    server.child.kill();
  }
});
