// Where the page puts things (issue 44): a refused move's reason in the status line, in view at
// every size (touch on the phones, the mouse on the desktops); the setup folding away by itself
// once a game has begun: against the engine, between two people at the first move, and at New
// game in any mode (remembered after a reload; the FEN and PGN fields still in view; on a phone
// New game also closes the sheet); the engine's lines readable beside the boards at 844x390;
// the space bar switching the engine's analysis on and off; a phone's page that never scrolls
// in any mode (the panel's parts only in the menu's sheet, which scrolls inside); the panel's
// headings on one line at 1024x700.

import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { guiFixture } from './launch.mjs';
import { readFileSync } from 'node:fs';
import { ready, cell, clickMove, moveCount, closePage, inView, showTab, closeSheet, openSetup, oneScreen } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);

const fixture = guiFixture(BIN, SHOTS);
const BLUNDER = readFileSync(new URL('../../docs/examples/blunder.pgn', import.meta.url), 'utf8');

async function openPage(w, h) {
  const phone = w < 900;
  const context = await fixture.browser.newContext({ viewport: { width: w, height: h }, hasTouch: phone, isMobile: phone, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(fixture.server.url);
  await ready(page);
  return page;
}


test('a refused move\'s reason is in the status line, in view without scrolling, at 390x844, 844x390, 1024x700 and 1400x900', async () => {
  for (const [w, h] of [[390, 844], [844, 390], [1024, 700], [1400, 900]]) {
    const page = await openPage(w, h);
    const touch = w < 900;
    for (const [b, s] of [['A', 'e2'], ['A', 'e5']]) {
      if (touch) await page.tap(cell(b, s));
      else await page.click(cell(b, s));
    }
    await page.waitForFunction(() => /is illegal/.test(document.getElementById('notice').textContent));
    assert.match(await page.textContent('#notice'), /^1\. e5 is illegal: the pawn on e2 of board A cannot go to e5 of board A$/);
    const status = await inView(page, '#status', w, h);
    const reason = await inView(page, '#notice', w, h);
    // Right under the status (on a phone on its side, right above it): the same line of sight.
    const gap = reason.y >= status.y ? reason.y - (status.y + status.height) : status.y - (reason.y + reason.height);
    assert.ok(gap <= 4, `the reason is ${gap} px from the status at ${w}x${h}`);
    await page.screenshot({ path: join(SHOTS, `panels-reason-${w}x${h}.png`) });
    // A tap (or click) on the reason dismisses it (a tap's click may come a task later: waited for).
    if (touch) await page.tap('#notice');
    else await page.click('#notice');
    await page.waitForFunction(() => document.getElementById('notice').textContent === '');
    await closePage(page);
  }
});

test('the setup folds away once a game against the engine begins, remembered after a reload; FEN and PGN stay in view', async () => {
  const page = await openPage(1400, 900);
  assert.equal(await page.evaluate(() => document.getElementById('setup').open), true);
  await page.selectOption('#mode', 'play');
  await page.click('#newgame');
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await page.waitForFunction(() => !document.getElementById('setup').open);
  for (const s of ['#fen', '#pgn', '#importpgn', '#exportpgn', '#moves']) await inView(page, s, 1400, 900);
  await moveCount(page, 2);
  await page.reload();
  await ready(page);
  assert.equal(await page.evaluate(() => document.getElementById('setup').open), false, 'still folded after a reload');
  // Opened by hand, it stays open (the fold happens once, when a game begins).
  await page.click('#setup summary');
  await page.reload();
  await ready(page);
  assert.equal(await page.evaluate(() => document.getElementById('setup').open), true);
  await closePage(page);
});

test('between two people the setup folds at the first move, and New game folds it in every mode; remembered; FEN and PGN stay in view', async () => {
  const page = await openPage(1400, 900);
  const open = () => page.evaluate(() => document.getElementById('setup').open);
  assert.equal(await page.inputValue('#mode'), 'human');
  assert.equal(await open(), true);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await page.waitForFunction(() => !document.getElementById('setup').open);
  for (const s of ['#fen', '#pgn', '#importpgn', '#exportpgn', '#loadfen', '#moves']) await inView(page, s, 1400, 900);
  await page.reload();
  await ready(page);
  assert.equal(await open(), false, 'still folded after a reload');
  // Opened by hand, a second move leaves it open (the game had begun already).
  await page.click('#setup summary');
  await clickMove(page, ['A', 'e7'], ['B', 'e5']);
  await moveCount(page, 2);
  assert.equal(await open(), true);
  // New game folds it, between people, in analysis and against the engine.
  for (const mode of ['human', 'analysis', 'play']) {
    if (!(await open())) await page.click('#setup summary');
    await page.selectOption('#mode', mode);
    await page.click('#newgame');
    await page.waitForFunction(() => !document.getElementById('setup').open);
    for (const s of ['#fen', '#pgn']) await inView(page, s, 1400, 900);
  }
  await page.reload();
  await ready(page);
  assert.equal(await open(), false, 'remembered after a reload');
  await closePage(page);
});

test('390x844: New game in the sheet closes the sheet and folds the setup; the boards and the status are in view', async () => {
  const page = await openPage(390, 844);
  await page.tap('#menu');
  await page.tap('#sheet-tabs [data-tab="setup"]');
  await page.waitForFunction(() => document.body.dataset.sheet === 'setup' && document.body.classList.contains('sheet-open'));
  await page.tap('#newgame');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open') && !document.getElementById('setup').open);
  for (const s of ['#boards', '#status', '.nav']) await inView(page, s, 390, 844);
  // The setup is one tap away again: the sheet's Setup tab shows its (folded) summary, which opens it.
  await page.tap('#menu');
  await page.tap('#sheet-tabs [data-tab="setup"]');
  await page.tap('#setup summary');
  await page.waitForSelector('#mode', { state: 'visible' });
  await page.screenshot({ path: join(SHOTS, 'panels-setup-folded-390x844.png') });
  await closePage(page);
});

test('844x390: three engine lines readable beside the boards, each with its score and moves', async () => {
  const page = await openPage(844, 390);
  await page.selectOption('#mode', 'analysis');
  await page.selectOption('#multipv', '3');
  await page.evaluate(() => document.querySelector('aside').scrollTo(0, 0));
  await page.waitForFunction(() => [...document.querySelectorAll('#lines .line')].filter((l) => l.querySelectorAll('.pv-move').length >= 4).length === 3, null, { timeout: 30000 });
  await page.evaluate(() => document.querySelector('aside').scrollTo(0, 0));
  const boards = await page.locator('#boards').boundingBox();
  // Each line beside the boards, inside the window, its score and first four moves not cut off
  // (measured at once: the lines are redrawn as the search deepens).
  const lines = await page.evaluate(() => [...document.querySelectorAll('#lines .line')].map((l) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
    const moves = l.querySelectorAll('.pv-move');
    return { line: box(l), parts: [l.querySelector('.score'), moves[0], moves[3]].map(box) };
  }));
  assert.equal(lines.length, 3);
  for (const [i, { line, parts }] of lines.entries()) {
    assert.ok(line.left >= boards.x + boards.width && line.right <= 844 && line.top >= 0 && line.bottom <= 390, `line ${i + 1} at ${JSON.stringify(line)}`);
    for (const p of parts) assert.ok(p.bottom <= line.bottom + 0.5 && p.right <= line.right + 0.5 && p.top >= line.top - 0.5, `line ${i + 1}: ${JSON.stringify(p)} cut off in ${JSON.stringify(line)}`);
  }
  await page.screenshot({ path: join(SHOTS, 'panels-lines-844x390.png') });
  await closePage(page);
});

test('space switches the engine\'s analysis on (analysis mode) and off (Stop engines)', async () => {
  const page = await openPage(1400, 900);
  assert.equal(await page.inputValue('#mode'), 'human');
  await page.focus('#boards');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  assert.equal(await page.inputValue('#mode'), 'analysis');
  await page.waitForSelector('#lines .line', { timeout: 20000 });
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.body.dataset.mode === 'human');
  assert.equal(await page.inputValue('#mode'), 'human');
  // Not while typing: a space in the move box is a space.
  await page.focus('#movebox');
  await page.keyboard.press(' ');
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.body.dataset.mode), 'human');
  await closePage(page);
});

test('844x390 in a game against the engine: the game\'s buttons are in view beside the status', async () => {
  const page = await openPage(844, 390);
  await page.selectOption('#mode', 'play');
  await page.click('#newgame');
  await page.tap(cell('A', 'e2'));
  await page.tap(cell('B', 'e4'));
  await moveCount(page, 2);
  await page.evaluate(() => document.querySelector('aside').scrollTo(0, 0));
  for (const s of ['#offerdraw', '#resign', '#status', '#clock-white', '#clock-black']) await inView(page, s, 844, 390);
  await closePage(page);
});

test('390x844: the page never scrolls, in every mode with the sheet closed (two people, play with its buttons, the resign question and the end banner, engine against engine, analysis, review); the sheet scrolls inside', async () => {
  const page = await openPage(390, 844);
  // What must be on the one screen, and nothing of the sheet's parts (see oneScreen).
  const check = async (label, extra = []) => {
    await oneScreen(page, label);
    for (const s of ['.board-A', '.board-B', '#player-top', '#player-bottom', '#status', '#moves', '#first', '#prev', '#next', '#last', '#menu', ...extra]) await inView(page, s, 390, 844);
    // A scroll (a finger's or the page's own) does not move the page.
    await page.mouse.wheel(0, 600);
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => window.scrollY), 0, `${label}: the page scrolled`);
    await page.screenshot({ path: join(SHOTS, `panels-one-screen-${label.replace(/\W+/g, '-')}-390x844.png`) });
  };
  await check('two people');
  // Play the engine: the clocks, the game's buttons, the resign question, the end banner.
  await openSetup(page);
  await page.selectOption('#mode', 'play');
  await page.click('#newgame');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open'));
  await page.tap(cell('A', 'e2'));
  await page.tap(cell('B', 'e4'));
  await moveCount(page, 2);
  await page.waitForSelector('#resign:not([hidden])');
  await check('play', ['#clock-white', '#clock-black', '#resign', '#offerdraw', '#lastmove']);
  await page.tap('#resign');
  await page.waitForSelector('#confirm:not([hidden])');
  await check('resign question', ['#confirm-yes', '#confirm-no']);
  await page.tap('#confirm-yes');
  await page.waitForSelector('#banner:not([hidden])');
  await check('end banner', ['#rematch', '#analyse']);
  // Engine against engine, its best line under the strip.
  await openSetup(page);
  await page.selectOption('#mode', 'watch');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '200');
  await page.dispatchEvent('#movetime', 'change');
  await page.click('#newgame');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open'));
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length >= 2 && document.querySelector('#lines .line'), null, { timeout: 30000 });
  await check('engine vs engine');
  // Analysis of an imported game, its best line under the strip.
  await openSetup(page);
  await page.selectOption('#mode', 'analysis');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await showTab(page, 'pgn');
  await page.fill('#pgn', BLUNDER);
  await page.click('#importpgn');
  await moveCount(page, 17);
  await closeSheet(page);
  await page.click('#prev');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '16');
  await page.waitForSelector('#lines .line', { timeout: 20000 });
  await check('analysis', ['#lines .line .score']);
  // The review (run from the Review tab), then the sheet closed again.
  await showTab(page, 'review');
  await page.click('#reviewbtn');
  await page.waitForSelector('#review .eval-graph', { timeout: 120000 });
  await closeSheet(page);
  await check('review');
  // The sheet scrolls inside: the Moves tab of a game with a long comment holds more than the
  // sheet; scrolled to its foot, the result is in the sheet and the page has not moved.
  await showTab(page, 'pgn');
  await page.fill('#pgn', BLUNDER.replace('{the h-pawn leaves board A}', `{${'the h-pawn leaves board A, '.repeat(60)}}`));
  await page.click('#importpgn');
  await page.waitForFunction(() => document.getElementById('moves').textContent.length > 1500);
  await showTab(page, 'moves');
  const sheet = await page.evaluate(() => [document.querySelector('aside'), document.getElementById('moves')].map((e) => e.scrollHeight - e.clientHeight));
  assert.ok(Math.max(...sheet) > 0, `the Moves tab fits its sheet (${sheet}): nothing to scroll`);
  await page.locator('#moves .result').scrollIntoViewIfNeeded();
  assert.ok(await page.evaluate(() => document.querySelector('aside').scrollTop + document.getElementById('moves').scrollTop) > 0, 'the sheet scrolled');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll');
  const box = await page.locator('#moves .result').boundingBox();
  const aside = await page.locator('aside').boundingBox();
  assert.ok(box.y >= aside.y && box.y + box.height <= aside.y + aside.height, `the result at ${JSON.stringify(box)} in the sheet ${JSON.stringify(aside)}`);
  assert.ok(await page.evaluate(() => document.scrollingElement.scrollHeight <= window.innerHeight + 1), 'the page under the open sheet does not scroll');
  await page.screenshot({ path: join(SHOTS, 'panels-sheet-scrolled-390x844.png') });
  await closePage(page);
});

test('1024x700: the panel\'s headings (the settings, the setup, FEN and PGN) are one line each, not cut', async () => {
  const page = await openPage(1024, 700);
  await page.click('#looks summary');
  await page.waitForFunction(() => document.getElementById('looks').open);
  const heads = await page.evaluate(() => [...document.querySelectorAll('aside summary')].map((e) => ({
    text: e.textContent,
    height: e.getBoundingClientRect().height,
    line: parseFloat(getComputedStyle(e).lineHeight),
    cut: e.scrollWidth > e.clientWidth,
  })));
  assert.equal(heads.length, 3);
  for (const h of heads) {
    assert.ok(Math.abs(h.height - h.line) <= 0.5, `"${h.text}" is ${h.height} px high, its line ${h.line} px`);
    assert.equal(h.cut, false, `"${h.text}" is cut`);
  }
  await page.locator('#looks').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'panels-settings-1024x700.png') });
  await closePage(page);
});
