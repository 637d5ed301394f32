// Browser tests of the lichess habits of `vorpal gui` (issue 36): arrows and circles drawn with
// the right button, a long press or the keyboard and kept in PGN as [%cal]/[%csl], comments written in the
// page, an arrow per engine line, a position link, the side kept from play to analysis,
// feedback for a piece without a move, and a sign that the engine is thinking.

import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { guiFixture, startGui } from './launch.mjs';
import { cell, ready, clickMove, moveCount, closePage, openSetup } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const test = (name, fn) => nodeTest(name, { timeout: 180000 }, fn);

async function openPage(opts = {}) {
  const context = await fixture.browser.newContext({ viewport: opts.viewport || { width: 1400, height: 900 }, bypassCSP: true, hasTouch: !!opts.touch });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(opts.url || fixture.server.url);
  await ready(page);
  return page;
}

/** A right-button drag from one cell to another (the same cell: a right click). */
async function rightDrag(page, from, to, modifiers = []) {
  const a = await page.locator(cell(...from)).boundingBox();
  const b = await page.locator(cell(...to)).boundingBox();
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up({ button: 'right' });
  for (const m of modifiers) await page.keyboard.up(m);
}

async function exportedPgn(page, needle) {
  await page.click('#exportpgn');
  await page.waitForFunction((k) => document.getElementById('pgn').value.includes(k), needle);
  return page.inputValue('#pgn');
}

async function newHumanGame(page) {
  await openSetup(page);
  await page.selectOption('#mode', 'human');
  await page.click('#newgame');
  await moveCount(page, 0);
}

const fixture = guiFixture(BIN);

test('arrows, circles and comments survive export and import, on the start position too', async () => {
  const page = await openPage();
  await newHumanGame(page);
  // On the start position: a green arrow on A, a red circle (Shift) on B.
  await rightDrag(page, ['A', 'e2'], ['A', 'e4']);
  await page.waitForSelector('svg.drawings line', { state: 'attached' });
  await rightDrag(page, ['B', 'd5'], ['B', 'd5'], ['Shift']);
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings circle').length === 1);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 1);
  assert.equal(await page.locator('svg.drawings').count(), 0, "the start position's shapes are not on 1. e4");
  // On 1. e4: a blue arrow (Alt) on B, and a comment typed in the page.
  await rightDrag(page, ['B', 'e4'], ['B', 'e6'], ['Alt']);
  await page.waitForSelector('svg.drawings line.shape-B', { state: 'attached' });
  await page.fill('#comment', 'The usual start');
  await page.locator('#comment').blur();
  await page.waitForFunction(() => document.querySelector('#moves .comment')?.textContent === 'The usual start');
  const pgn = await exportedPgn(page, 'usual');
  assert.match(pgn, /\{\[%csl Rd5\/B\] \[%cal Ge2e4\]\}\s*1\. e4 \{The usual start \[%cal Be4e6\/B\]\}/, pgn);
  // Read back: the shapes are drawn again and the commands are not shown as text.
  await openSetup(page);
  await page.click('#newgame');
  await moveCount(page, 0);
  await page.fill('#pgn', pgn);
  await page.click('#importpgn');
  await moveCount(page, 1);
  await page.waitForSelector('svg.drawings line.shape-B', { state: 'attached' });
  assert.equal(await page.textContent('#moves .comment'), 'The usual start');
  assert.equal(await page.inputValue('#comment'), 'The usual start');
  await page.click('#first');
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings circle.shape-R').length === 1);
  assert.equal(await page.locator('svg.drawings line.shape-G').count(), 1);
  // The same shape again removes it.
  await rightDrag(page, ['A', 'e2'], ['A', 'e4']);
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings line').length === 0);
  await closePage(page);
});

test('a long press draws on touch: a circle, then an arrow', async () => {
  const page = await openPage({ viewport: { width: 390, height: 844 }, touch: true });
  await newHumanGame(page);
  const longPress = async (board, square) => {
    const box = await page.locator(cell(board, square)).boundingBox();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const client = await page.context().newCDPSession(page);
    const point = [{ x, y }];
    await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point });
    await page.waitForTimeout(800);
    await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await client.detach();
  };
  await longPress('A', 'g1');
  await page.waitForSelector('.cell.draw-from');
  await page.tap(cell('A', 'g1'));
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings circle').length === 1);
  await longPress('A', 'g1');
  await page.tap(cell('A', 'f3'));
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings line').length === 1);
  assert.equal(await page.locator('#moves .move').count(), 0, 'no move was played');
  await closePage(page);
});

test('drawings from the keyboard: D on a cell and D on another, Shift for red, Esc drops one', async () => {
  const page = await openPage();
  await newHumanGame(page);
  const press = async (board, square, key) => {
    await page.focus(cell(board, square));
    await page.keyboard.press(key);
  };
  // An arrow g1 -> f3 on board A, green.
  await press('A', 'g1', 'd');
  await page.waitForSelector('.cell.draw-from');
  await press('A', 'f3', 'd');
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings line').length === 1);
  // A red circle on e4 of board B.
  await press('B', 'e4', 'Shift+D');
  await press('B', 'e4', 'Shift+D');
  await page.waitForFunction(() => document.querySelectorAll('svg.drawings circle').length === 1);
  // Begun, then dropped: nothing more is drawn.
  await press('A', 'b1', 'd');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.cell.draw-from').count(), 0);
  const pgn = await exportedPgn(page, '[%cal');
  assert.match(pgn, /\[%csl Re4\/B\]/);
  assert.match(pgn, /\[%cal Gg1f3\]/);
  assert.equal(await page.locator('#moves .move').count(), 0, 'no move was played');
  await closePage(page);
});

test('analysis draws an arrow for each line, the best one boldest', async () => {
  const page = await openPage();
  await newHumanGame(page);
  await openSetup(page);
  await page.selectOption('#mode', 'analysis');
  await page.selectOption('#multipv', '3');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('svg.arrows polygon').length === 3);
  assert.equal(await page.locator('svg.arrows polygon.best').count(), 1);
  await closePage(page);
});

test('a position link opens the same position on another page, and a reload then keeps its game', async () => {
  const page = await openPage();
  await newHumanGame(page);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 1);
  const fen = await page.inputValue('#fen');
  const href = await page.getAttribute('#poslink', 'href');
  assert.ok(href.startsWith(fixture.server.base) && href.includes('#fen='), href);
  await closePage(page);
  // Another browser opens the server's link (its token) with the position's fragment.
  const other = await openPage({ url: fixture.server.url + href.slice(href.indexOf('#')) });
  await other.waitForFunction((f) => document.getElementById('fen').value === f, fen);
  assert.equal(await other.evaluate(() => location.hash), '', 'the fragment is used once');
  await clickMove(other, ['A', 'e7'], ['B', 'e5']);
  await moveCount(other, 1);
  await other.reload();
  await ready(other);
  await moveCount(other, 1);
  await closePage(other);
});

test('the side is kept from play to analysis; a piece without a move says why; the engine is seen thinking', async () => {
  const page = await openPage();
  await page.selectOption('#mode', 'play');
  await page.selectOption('#color', 'black');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '1500');
  await page.dispatchEvent('#movetime', 'change');
  await page.click('#newgame');
  await page.waitForFunction(() => /is thinking/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  await moveCount(page, 1);
  await page.waitForFunction(() => !/thinking/.test(document.getElementById('status').textContent));
  const a8 = await page.locator(cell('A', 'a8')).boundingBox();
  const a1 = await page.locator(cell('A', 'a1')).boundingBox();
  assert.ok(a8.y > a1.y, 'Black at the bottom in play');
  // A White piece, then a Black piece that cannot move (the rook on a8).
  await page.click(cell('A', 'a1'));
  await page.waitForFunction(() => /Black's move/.test(document.getElementById('notice').textContent));
  await page.click(cell('A', 'a8'));
  await page.waitForFunction(() => /rook on a8 of board A has no legal move/i.test(document.getElementById('notice').textContent));
  await openSetup(page);
  await page.selectOption('#mode', 'analysis');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  const b8 = await page.locator(cell('A', 'a8')).boundingBox();
  const b1 = await page.locator(cell('A', 'a1')).boundingBox();
  assert.ok(b8.y > b1.y, 'still Black at the bottom in analysis');
  await closePage(page);
});

test('move marks: kept from import to export, and written with the mark buttons', async () => {
  const page = await openPage();
  await page.fill('#pgn', '1. d4! d5?? 2. c4 $14 *');
  await page.click('#importpgn');
  await moveCount(page, 3);
  assert.deepEqual(await page.locator('#moves .nag').allTextContents(), ['!', '??']);
  let pgn = await exportedPgn(page, 'd4!');
  assert.match(pgn, /1\. d4! d5\?\? 2\. c4 \$14 \*/, pgn);
  // 2. c4 is shown: mark it !?, then ?! replaces it, and the same button again removes it.
  await page.click('#marks button[data-nag="5"]');
  await page.waitForFunction(() => document.querySelector('#moves .current .nag')?.textContent === '!?');
  await page.click('#marks button[data-nag="6"]');
  await page.waitForFunction(() => document.querySelector('#moves .current .nag')?.textContent === '?!');
  pgn = await exportedPgn(page, 'c4?!');
  assert.match(pgn, /2\. c4\?! \$14 \*/, pgn);
  await page.click('#marks button[data-nag="6"]');
  await page.waitForFunction(() => !document.querySelector('#moves .current .nag'));
  // An imported game's result is shown at its end (here Black resigned: 1-0).
  await page.fill('#pgn', '[Result "1-0"]\n\n1. d4 d5 2. c4 1-0');
  await page.click('#importpgn');
  await page.waitForFunction(() => /White won \(1-0/.test(document.getElementById('status').textContent));
  await closePage(page);
});

/** A game against the engine at 300 ms a move, the person White. */
async function playGame(page) {
  await openSetup(page);
  await page.selectOption('#mode', 'play');
  await page.selectOption('#color', 'white');
  await page.selectOption('#limit', 'movetime');
  await page.fill('#movetime', '300');
  await page.dispatchEvent('#movetime', 'change');
  await page.click('#newgame');
  await moveCount(page, 0);
}

test('abort before both sides moved, resign with an in-page confirmation, a draw offer the engine answers', async () => {
  const page = await openPage();
  page.on('dialog', () => assert.fail('no window.confirm'));
  await playGame(page);
  // Abort: only before both sides have moved; the game ends without a result.
  assert.ok(await page.isVisible('#abort'));
  assert.ok(!(await page.isVisible('#resign')));
  await page.click('#abort');
  await page.waitForFunction(() => /aborted/i.test(document.getElementById('status').textContent));
  assert.match(await exportedPgn(page, '*'), /\*\s*$/);
  // Resign: once the game has begun, confirmed by a button in the page named Resign.
  await playGame(page);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 2);
  await page.click('#resign');
  assert.ok(await page.isVisible('#confirm'));
  await page.click('#confirm button:has-text("Resign")');
  await page.waitForFunction(() => /White resigns/.test(document.getElementById('status').textContent));
  let pgn = await exportedPgn(page, '0-1');
  assert.match(pgn, /0-1\s*$/, pgn);
  assert.match(pgn, /\[Result "0-1"\]/, pgn);
  // A draw offer: the engine answers by its evaluation (a draw, or a message why not).
  await playGame(page);
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 2);
  await page.click('#offerdraw');
  await page.waitForFunction(() => /Draw agreed/.test(document.getElementById('status').textContent) || /declines the draw/.test(document.getElementById('notice').textContent));
  if (/Draw agreed/.test(await page.textContent('#status'))) {
    pgn = await exportedPgn(page, '1/2-1/2');
    assert.match(pgn, /1\/2-1\/2\s*$/, pgn);
  } else {
    assert.match(await page.textContent('#notice'), /sees [+-]\d+\.\d\d for itself/);
    assert.ok(await page.isVisible('#resign'), 'the game goes on');
  }
  await closePage(page);
});

test('a server stopped normally is a lost connection, not an engine crash', async () => {
  const own = await startGui(BIN, ['--port', '0']);
  const page = await openPage({ url: own.url });
  await page.selectOption('#mode', 'analysis');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length > 0, null, { timeout: 20000 });
  await new Promise((ok) => { own.child.on('exit', ok); own.child.kill('SIGTERM'); });
  await page.waitForFunction(() => /Lost contact with the server/.test(document.getElementById('notice').textContent), null, { timeout: 20000 });
  // The game's state (the status text, apart from the notice under it) says nothing of a crash.
  assert.doesNotMatch(await page.textContent('#status-text'), /failed|crash/i);
  assert.ok(!(await page.isVisible('#restart')), 'no Restart engine button');
  await page.context().close();
});

test('a PGN with a byte-order mark imports; one over the size limit is refused with the limit', async () => {
  const page = await openPage();
  await page.fill('#pgn', '\ufeff[Event "BOM"]\r\n\r\n1. e4 e5 *\r\n');
  await page.click('#importpgn');
  await moveCount(page, 2);
  // The page reads files of up to 8 MiB (several thousand games); a larger one is refused.
  await page.fill('#pgn', `[Event "big"]\n{${'x'.repeat(8400 * 1024)}}\n1. e4 *`);
  await page.click('#importpgn');
  await page.waitForFunction(() => /the PGN file has 8\.2 MiB; the page reads files of up to 8 MiB/.test(document.getElementById('notice').textContent));
  await moveCount(page, 2);
  await closePage(page);
});
