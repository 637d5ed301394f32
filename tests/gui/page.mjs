// What the browser tests share about the page: cells by board and square, waiting for the
// first state, moves by two clicks, counting the moves, closing a page as a person would, and
// a box checked to be in view without scrolling.
import assert from 'node:assert/strict';

/** The selector of the cell `square` of board `board` (`A`, `B`, `C`). */
export const cell = (board, square) => `[data-board="${board}"][data-square="${square}"]`;

/** Resolves once the page shows a game (its status line says whose move it is or the result). */
export const ready = (page) => page.waitForFunction(() => /to move|wins|Draw|loses/.test(document.getElementById('status').textContent));

/** Waits until no move of the person's is on its way to the server: the board still shows the
 * position before it, so a click made now would be read in that position (a person sees the
 * board change first). */
export const settled = (page) => page.waitForFunction(
  () => performance.getEntriesByName('move-sent').length === performance.getEntriesByName('move-settled').length,
);

/** A move by two clicks, once the previous move is on the board: the piece's cell, then its
 * landing cell. */
export async function clickMove(page, from, to) {
  await settled(page);
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

/** On a phone (the page's narrow layout, where the panel's parts are only in the menu's sheet)
 * opens the sheet at `tab` (`moves`, `engine`, `review`, `setup`, `pgn`) as a person does, with
 * the menu and the tab, and waits until it shows; elsewhere the parts are in view already. */
export async function showTab(page, tab) {
  const at = () => page.evaluate(() => ({
    narrow: document.body.classList.contains('narrow'),
    open: document.body.classList.contains('sheet-open'),
    tab: document.body.dataset.sheet,
  }));
  const now = await at();
  if (!now.narrow || (now.open && now.tab === tab)) return;
  if (!now.open) {
    await page.click('#menu');
    await page.waitForFunction(() => document.body.classList.contains('sheet-open'));
  }
  await page.click(`#sheet-tabs [data-tab="${tab}"]`);
  await page.waitForFunction((t) => document.body.classList.contains('sheet-open') && document.body.dataset.sheet === t, tab);
}

/** Closes a phone's sheet with the menu (nothing when it is closed) and waits until it is. */
export async function closeSheet(page) {
  if (!(await page.evaluate(() => document.body.classList.contains('sheet-open')))) return;
  await page.click('#menu');
  await page.waitForFunction(() => !document.body.classList.contains('sheet-open'));
}

/** Opens the setup panel (it folds away by itself once a game against the engine has begun), as
 * a person does to change the mode or the limits during a game; on a phone through the menu's
 * Setup tab first. Waits until it is open (its toggle is a task later than the click). */
export async function openSetup(page) {
  await showTab(page, 'setup');
  if (!(await page.evaluate(() => document.getElementById('setup').open))) await page.click('#setup summary');
  await page.waitForFunction(() => document.getElementById('setup').open);
}

/** Asserts that the page itself does not scroll (its height is the window's) and that none of
 * the panel's parts that live in a phone's sheet can be seen or reached while it is closed. */
export async function oneScreen(page, label) {
  const m = await page.evaluate(() => {
    const parts = ['sheet-tabs', 'setup', 'notation', 'looks', 'review', 'marks', 'comment', 'movebox', 'newgame', 'pgn', 'fen'];
    return {
      height: document.scrollingElement.scrollHeight,
      window: window.innerHeight,
      shown: parts.filter((id) => { const e = document.getElementById(id); return e && e.getClientRects().length > 0; }),
    };
  });
  assert.ok(m.height <= m.window + 1, `${label}: the page is ${m.height} px high in a ${m.window} px window`);
  assert.deepEqual(m.shown, [], `${label}: parts of the closed sheet on the page`);
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
