// Browser test of the game report (issue 24): Review on an imported game shows a progress bar,
// then an evaluation graph with one point per ply, the known blunder marked `??` in the move
// list with its better line, both sides' accuracy, a click on the graph going to that move,
// and the annotated PGN exported into the PGN box. Screenshots at 1400x900 and 390x844 go to
// $SCREENSHOT_DIR (review-1400x900.png, review-390x844.png).

import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { launchChromium, startGui } from './launch.mjs';
import { showTab } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const test = (name, fn) => nodeTest(name, { timeout: 180000 }, fn);

// docs/examples/blunder.pgn: 8... h5?? allows 9. Rxh8#.
const BLUNDER = `[Event "Review example"]
[White "Tweedledum"]
[Black "Tweedledee"]
[Result "1-0"]
[Variant "Alice"]

1. e4 d5 2. Qe2 Qd4 3. Qb5/A+ Kd8 4. Qa5+ Ke8/A 5. Qa4/A+ Kd8 6. e5/A Nf6
7. Nc3 Nc6 8. h4 {the h-pawn leaves board A} h5 9. Rxh8# 1-0
`;

let browser;
let server;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `vorpal gui --port port` (see launch.mjs). */
function startServer(port) {
  return startGui(BIN, ['--port', String(port)]);
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

async function openPage(viewport) {
  // bypassCSP: waitForFunction evaluates text, which the page's policy forbids.
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(server.url);
  await page.waitForFunction(() => /to move|wins|Draw/.test(document.getElementById('status').textContent));
  return page;
}

/** Imports the blunder game and reviews it (on a phone through the menu's tabs); resolves when
 * the report is drawn. */
async function review(page) {
  await showTab(page, 'pgn');
  await page.fill('#pgn', BLUNDER);
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 17);
  await showTab(page, 'review');
  await page.click('#reviewbtn');
  await page.waitForSelector('#review .eval-graph', { timeout: 120000 });
}

test('Review on an imported game: graph, marks, better line, accuracy, export', async () => {
  const page = await openPage({ width: 1400, height: 900 });
  await page.fill('#pgn', BLUNDER);
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 17);
  // The Review button sits with the moves' tools in the panel, not alone under the boards.
  const [button, tools] = await page.evaluate(() => ['#reviewbtn', '.tree-tools']
    .map((s) => document.querySelector(s).getBoundingClientRect()).map((r) => ({ left: r.left, top: r.top, bottom: r.bottom })));
  assert.equal(await page.evaluate(() => document.getElementById('reviewbtn').closest('aside') !== null), true, 'the Review button is in the panel');
  assert.ok(button.top >= tools.bottom && button.top - tools.bottom <= 100 && Math.abs(button.left - tools.left) <= 1, `the Review button at ${JSON.stringify(button)}, the tools at ${JSON.stringify(tools)}`);
  assert.equal(await page.locator('.play #review:visible').count(), 0, 'nothing of the report under the boards before a review');
  await page.click('#reviewbtn');
  // The progress bar shows while the server reviews (it may finish before we look).
  const seen = await page.waitForSelector('#review-progress, #review .eval-graph', { timeout: 60000 });
  assert.ok(seen);
  await page.waitForSelector('#review .eval-graph', { timeout: 120000 });
  assert.equal(await page.locator('#review .eval-graph circle.pt').count(), 17, 'one point per ply');
  // The known blunder is marked in the move list, with its colour class.
  const h5 = page.locator('#moves .move[data-ply="16"]');
  assert.equal(await h5.locator('.mark.blunder').textContent(), '??');
  // Its better line is listed and accuracy is shown for both sides.
  const row = page.locator('#review .mistake-row.blunder', { hasText: 'h5??' });
  assert.equal(await row.count(), 1);
  assert.match(await row.locator('.pv').textContent(), /^8\.\.\. /);
  const accuracies = await page.locator('#review .side .acc').allTextContents();
  assert.equal(accuracies.length, 2);
  for (const a of accuracies) assert.match(a, /^\d+\.\d%$/);
  // A click on the graph's column of ply 16 shows the position after 8... h5.
  await page.locator('#review .eval-graph rect.hit').nth(15).click();
  await page.waitForFunction(() => document.querySelector('#moves .move.current')?.dataset.ply === '16');
  assert.equal(await page.locator('#review .mistake-row.current').count(), 1);
  // At 1400x900 the report sits under the boards and takes the free height: the graph on the
  // left, the list of marked moves on the right, both ending inside the window (the list
  // scrolls inside), the graph taller than the 70 px it had in the side panel.
  const [graph, marked] = await page.evaluate(() => ['#review .eval-graph', '#review .marked']
    .map((s) => document.querySelector(s).getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, bottom: r.bottom, height: r.height })));
  assert.ok(marked.bottom <= 900 && graph.bottom <= 900 && graph.right <= marked.left, `graph ${JSON.stringify(graph)}, marked ${JSON.stringify(marked)}`);
  assert.ok(graph.height >= 100 && marked.height >= 80, `graph ${graph.height} px, list ${marked.height} px`);
  assert.equal(await page.evaluate(() => document.querySelector('#review').closest('.play') !== null), true, 'under the boards');
  // The graph takes the free height down to the report's foot and the window's (no empty band
  // under it), drawn at its size (its dots round), and the page does not scroll.
  const foot = await page.evaluate(() => ({
    review: document.getElementById('review').getBoundingClientRect().bottom,
    page: document.scrollingElement.scrollHeight,
    viewBox: document.querySelector('#review .eval-graph').getAttribute('viewBox').split(' ').map(Number),
  }));
  assert.ok(foot.review - graph.bottom <= 16 && 900 - graph.bottom <= 16, `the graph ends at ${graph.bottom}, the report at ${foot.review}, the window at 900`);
  assert.ok(foot.page <= 901, `the page is ${foot.page} px high`);
  assert.ok(Math.abs(foot.viewBox[3] - graph.height) <= 1, `drawn ${foot.viewBox[3]} units high in ${graph.height} px`);
  await page.screenshot({ path: join(SHOTS, 'review-1400x900.png') });
  // Export review fills the PGN box with the annotated game.
  await page.click('#exportreview');
  const pgn = await page.inputValue('#pgn');
  assert.match(pgn, /8\.\.\. h5\?\?/);
  assert.match(pgn, /\[%eval /);
  assert.match(pgn, /\[WhiteAccuracy "/);
  await page.context().close();
});

test('the report on a phone (390x844) fits the width', async () => {
  const page = await openPage({ width: 390, height: 844 });
  await review(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `no sideways scrolling (${wide} px)`);
  await page.locator('#review').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'review-390x844.png'), fullPage: true });
  await page.context().close();
});

test("the players' names fit the report and the bars at 1024x700, 1400x900 and 390x844; only a name longer than its row is cut, whole in its title", async () => {
  const LONG = 'The Red Queen of the Looking-Glass Chessboard, Second Square';
  const page = await openPage({ width: 1024, height: 700 });
  await page.fill('#pgn', BLUNDER.replace('Tweedledum', 'Dumpty, Humpty').replace('Tweedledee', LONG));
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 17);
  await page.click('#reviewbtn');
  await page.waitForSelector('#review .eval-graph', { timeout: 120000 });
  for (const [width, height] of [[1024, 700], [1400, 900], [390, 844]]) {
    await page.setViewportSize({ width, height });
    // The page has laid itself out for the new size (the resize event comes a task later): the
    // report under the boards at 1400x900 and 1024x700, on the phone in the menu's Review tab.
    await page.waitForFunction(([narrow, below]) => document.body.classList.contains('narrow') === narrow
      && document.body.classList.contains('review-below') === below
      && (document.getElementById('review').closest('.play') !== null) === below, [width < 760, width >= 1000 && height >= 650]);
    await showTab(page, 'review');
    await page.waitForTimeout(300);
    const names = await page.evaluate(() => [...document.querySelectorAll('#review .side .who, .player .name')].map((e) => {
      const r = e.getBoundingClientRect();
      const row = e.parentElement.getBoundingClientRect();
      return { text: e.textContent, title: e.title, cut: e.scrollWidth > e.clientWidth, width: r.width, inside: r.left >= row.left - 0.5 && r.right <= row.right + 0.5 };
    }));
    assert.equal(names.length, 4, `two rows of the report and two bars at ${width}x${height}`);
    for (const n of names) {
      assert.equal(n.title, n.text, `the whole name in the title at ${width}x${height}`);
      assert.ok(n.width > 0 && n.inside, `${n.text} inside its row at ${width}x${height}`);
      if (n.text === 'Dumpty, Humpty') assert.ok(!n.cut, `${n.text} is cut at ${width}x${height}`);
    }
    assert.ok(names.some((n) => n.text === LONG && n.cut), `the long name is cut somewhere at ${width}x${height}`);
    // The graph is drawn again at the size the new layout gives it (under the boards on the
    // desktops, as wide as the phone's sheet there).
    const fit = await page.evaluate(() => {
      const g = document.querySelector('#review .eval-graph');
      const r = g.getBoundingClientRect();
      return { box: [r.width, r.height], viewBox: g.getAttribute('viewBox').split(' ').map(Number).slice(2) };
    });
    if (width > 760) assert.ok(Math.abs(fit.viewBox[0] - fit.box[0]) <= 1 && Math.abs(fit.viewBox[1] - fit.box[1]) <= 1, `graph ${fit.box} drawn as ${fit.viewBox}`);
    else assert.deepEqual(fit.viewBox, [600, 120]);
    await page.locator('#review .review-sides').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `review-names-${width}x${height}.png`) });
  }
  await page.context().close();
});
