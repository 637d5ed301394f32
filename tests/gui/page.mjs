// What the browser tests share about the page: cells by board and square, waiting for the
// first state, moves by two clicks, counting the moves, closing a page as a person would, and
// a box checked to be in view without scrolling.
import assert from 'node:assert/strict';

/** The selector of the cell `square` of board `board` (`A`, `B`, `C`). */
export const cell = (board, square) => `[data-board="${board}"][data-square="${square}"]`;

/** Resolves once the page shows a game (its status line says whose move it is or the result). */
export const ready = (page) => page.waitForFunction(() => /to move|wins|Draw|loses/.test(document.getElementById('status').textContent));

/** A move by two clicks: the piece's cell, then its landing cell. */
export async function clickMove(page, from, to) {
  await page.click(cell(...from));
  await page.click(cell(...to));
}

/** Waits until the move list holds `n` moves. */
export async function moveCount(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .move').length === k, n, { timeout: 30000 });
}

/** Leaves the page as a tab closing would (its beacon ends the session), then its context. */
export async function closePage(page) {
  const hide = page.evaluate(() => window.dispatchEvent(new Event('pagehide'))).catch(() => {});
  await Promise.race([hide, new Promise((ok) => setTimeout(ok, 3000))]);
  await page.context().close();
}

/** Opens the setup panel (it folds away by itself once a game against the engine has begun), as
 * a person does to change the mode or the limits during a game. */
export async function openSetup(page) {
  if (!(await page.evaluate(() => document.getElementById('setup').open))) await page.click('#setup summary');
}

/** The box of `selector`, asserted inside the w x h window with the page not scrolled. */
export async function inView(page, selector, w, h) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is shown at ${w}x${h}`);
  assert.deepEqual(await page.evaluate(() => [window.scrollX, window.scrollY]), [0, 0], 'the page is not scrolled');
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= w + 0.5 && box.y + box.height <= h + 0.5,
    `${selector} at ${JSON.stringify(box)} is outside the ${w}x${h} window`);
  return box;
}
