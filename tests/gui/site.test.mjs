// The static site of the browser build (protocol/wasm/build.sh DIR writes DIR/site) in
// headless Chromium, served by a plain static file server: the page loads with no server
// behind it, a move is played by clicks and the engine answers in play mode, analysis shows
// lines, a reload keeps the game, and no request goes to /api/. Also a page that takes the
// engine only through the fairy-stockfish.wasm-style factory (postMessage,
// addMessageListener, removeMessageListener), as pychess-variants' client does.
// Run by tests/wasm/run.sh: VORPAL_SITE=DIR/site node --test site.test.mjs

import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium } from './launch.mjs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { clickMove, moveCount, openSetup, showTab, closeSheet, oneScreen } from './page.mjs';

const SITE = process.env.VORPAL_SITE;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};
const test = (name, fn) => nodeTest(name, { timeout: 180000 }, fn);
let server;
let base;
const requested = [];
let browser;

before(async () => {
  assert.ok(SITE, 'VORPAL_SITE must name the site folder');
  // The fairy-stockfish-style page (served from memory): only the factory's interface.
  const factoryPage = `<!doctype html><meta charset="utf-8"><pre id="out"></pre>
<script type="module">
import Vorpal from './engine/vorpal.mjs';
const engine = await Vorpal();
const out = document.getElementById('out');
const seen = [];
const listener = (line) => { seen.push(line); out.textContent = seen.join('\\n'); };
engine.addMessageListener(listener);
engine.postMessage('uci');
engine.postMessage('setoption name UCI_Variant value alice');
engine.postMessage('position startpos moves e2e4');
engine.postMessage('go depth 6');
const done = () => seen.some((l) => l.startsWith('bestmove'));
while (!done()) await new Promise((ok) => setTimeout(ok, 50));
engine.removeMessageListener(listener);
engine.postMessage('isready');
await new Promise((ok) => setTimeout(ok, 300));
window.factoryDone = { lines: seen.slice(), after: seen.length };
</script>`;
  server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requested.push(path);
    if (path === '/factory-test.html') {
      res.writeHead(200, { 'Content-Type': TYPES['.html'] }).end(factoryPage);
      return;
    }
    const file = normalize(join(SITE, path === '/' ? '/index.html' : path));
    if (!file.startsWith(normalize(SITE))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launchChromium(['--disable-background-networking']);
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openSite(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base);
  await page.waitForFunction(() => /to move/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
  return { page, errors };
}

test('the static site plays, analyses and keeps its game with no server behind it', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const { page, errors } = await openSite(context);
  // Play the engine as White: a move by clicks, the engine's answer.
  await page.selectOption('#mode', 'play');
  await page.click('#newgame');
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await moveCount(page, 2);
  const reply = await page.locator('#moves .move').nth(1).textContent();
  assert.ok(reply.length >= 2, reply);
  // The page stays responsive while the engine thinks (it runs in a Worker).
  // Analysis: the engine's lines (the setup folded away when the game began).
  await openSetup(page);
  await page.selectOption('#mode', 'analysis');
  await page.selectOption('#multipv', '2');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 2, null, { timeout: 60000 });
  await page.waitForFunction(() => Number(document.querySelector('#lines .line')?.dataset.depth) >= 6, null, { timeout: 60000 });
  await page.screenshot({ path: join(SHOTS, 'site-analysis-1400x900.png') });
  assert.equal(await page.locator('#reviewbtn').isVisible(), false, 'no game report offered in the site');
  // A reload keeps the game.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 30000 });
  assert.equal(await page.locator('#moves .move').nth(1).textContent(), reply);
  assert.deepEqual(errors, []);
  assert.deepEqual(requested.filter((p) => p.startsWith('/api/')), [], 'no request to /api/');
  await context.close();
});

test('a page takes the engine through the fairy-stockfish-style factory alone', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}factory-test.html`);
  const result = await page.waitForFunction(() => window.factoryDone, null, { timeout: 60000 }).then((h) => h.jsonValue());
  assert.ok(result.lines.includes('uciok'), result.lines.join('\n'));
  const best = result.lines.find((l) => l.startsWith('bestmove '));
  assert.match(best, /^bestmove [a-h][1-8][a-h][1-8]/);
  assert.ok(result.lines.some((l) => /^info depth 6 .* nodes \d+ .* pv /.test(l)), 'info lines as the native engine prints them');
  assert.equal(result.after, result.lines.length, 'no line after removeMessageListener');
  assert.deepEqual(errors, []);
  await context.close();
});


test('the static site on a phone (390x844): one screen with the boards, bars, status, move strip and bottom bar; a two-game PGN gives the picker; a 48-man FEN is refused', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const { page, errors } = await openSite(context);
  await showTab(page, 'pgn');
  await page.fill('#pgn', '[White "A"]\n\n1. e4 d5 *\n\n[White "B"]\n[Black "C"]\n\n1. e4 {[%clk 0:05:00]} d5 2. Be2 *\n');
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelectorAll('#games option').length === 2);
  await page.selectOption('#games', '1');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 3);
  await closeSheet(page);
  await oneScreen(page, 'the static site');
  for (const s of ['.board-A', '.board-B', '#player-top', '#player-bottom', '#status', '#moves', '#first', '#last', '#menu']) {
    const box = await page.locator(s).first().boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 844.5 && box.x + box.width <= 390.5, `${s} at ${JSON.stringify(box)}`);
  }
  assert.match(await page.textContent('#moves'), /5:00/);
  await showTab(page, 'pgn');
  await page.fill('#fen', 'rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.click('#loadfen');
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('White has 24 men'));
  await closeSheet(page);
  // The reason is in the status line's place, on the first screen.
  const reason = await page.locator('#notice').boundingBox();
  assert.ok(reason && reason.y >= 0 && reason.y + reason.height <= 844 - 48, `the reason at ${JSON.stringify(reason)}`);
  await page.screenshot({ path: join(SHOTS, 'site-phone-390x844.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
