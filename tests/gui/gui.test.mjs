// Browser tests of `vorpal gui` in headless Chromium (Playwright driving /usr/bin/chromium).
// Each test opens the page against a server started on a free port and acts as a person would:
// clicks, drags, menus, text fields. Screenshots of each step go to $SCREENSHOT_DIR.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { launchChromium, startGui } from './launch.mjs';
import { openSetup } from './page.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const figures = [];
let browser;
let server;

/** Starts `vorpal gui` on a free port (see launch.mjs). */
function startServer(extra = []) {
  return startGui(BIN, ['--port', '0', ...extra]);
}

/** Opens the page at `url` (the printed link). Playwright's waiting helpers evaluate strings,
 * which the server's Content-Security-Policy forbids, so tests bypass it unless `strictCsp`
 * (the first test loads the page under the real policy and checks that nothing is refused). */
async function openPage(url = server.url, { strictCsp = false } = {}) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 820 }, bypassCSP: !strictCsp });
  page.cspViolations = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) page.cspViolations.push(m.text()); });
  // Closing a tab ends its session on the server (the page says so on pagehide).
  page.close = ((close) => async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
    await close();
  })(page.close.bind(page));
  page.on('pageerror', (e) => { throw e; });
  await page.goto(url);
  if (strictCsp) {
    await page.locator('#status', { hasText: 'to move' }).waitFor();
  } else {
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('to move'));
  }
  return page;
}

const cell = (board, square) => `[data-board="${board}"][data-square="${square}"]`;

async function clickMove(page, from, to) {
  await page.click(cell(...from));
  await page.click(cell(...to));
}

async function dragMove(page, from, to) {
  const a = await page.locator(cell(...from)).boundingBox();
  const b = await page.locator(cell(...to)).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

const moveCount = (page) => page.locator('#moves .move').count();
const pieceAt = (page, board, square) =>
  page.locator(`${cell(board, square)} [data-piece]`).getAttribute('data-piece', { timeout: 2000 }).catch(() => null);

async function shot(page, name) {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** All pieces on the page as "A:e4=wN" strings, sorted. */
function pagePieces(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-piece]')]
      .map((img) => {
        const c = img.closest('.cell');
        return `${c.dataset.board}:${c.dataset.square}=${img.dataset.piece}`;
      })
      .sort());
}

/** The pieces of the engine's `d` output after `moves`, in the same form. */
function enginePieces(moves) {
  const r = spawnSync(BIN, [], { input: `position startpos moves ${moves.join(' ')}\nd\nquit\n`, encoding: 'utf8' });
  const out = [];
  let rank = 8;
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith(' |')) continue;
    const parts = line.split('|').slice(1, -1);
    const cells = [...parts.slice(0, 8), ...parts.slice(9, 17)];
    cells.forEach((text, i) => {
      const t = text.trim();
      if (!t) return;
      const board = i < 8 ? 'A' : 'B';
      const square = 'abcdefgh'[i % 8] + rank;
      const color = t === t.toUpperCase() ? 'w' : 'b';
      const kind = t.toUpperCase() === 'P' ? 'p' : t.toUpperCase();
      out.push(`${board}:${square}=${color}${kind}`);
    });
    rank -= 1;
  }
  return out.sort();
}

/** The status of GET `path` with the given Host header (fetch may not set Host). */
function statusWithHost(base, host, path = '/app.js') {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const req = request({ host: u.hostname, port: u.port, path, headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  assert.ok(BIN, 'VORPAL_BIN must name the vorpal binary');
  browser = await launchChromium();
  server = await startServer();
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  writeFileSync(join(SHOTS, 'figures.json'), JSON.stringify(figures, null, 2));
  for (const f of figures) console.log(`# figure: ${f.name} = ${f.value} ${f.unit}`);
});

test('page loads offline-complete and reports its load time', async () => {
  const page = await openPage(server.url, { strictCsp: true });
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, resources: performance.getEntriesByType('resource').map((r) => r.name) };
  });
  for (const r of timing.resources) assert.ok(r.startsWith(server.base), `asset from elsewhere: ${r}`);
  assert.equal(page.url(), server.base, 'the token is dropped from the address bar');
  assert.deepEqual(page.cspViolations, [], 'the page runs under its Content-Security-Policy');
  assert.equal(await page.locator('[data-board="A"][data-square]').count(), 64);
  assert.equal(await page.locator('[data-board="B"][data-square]').count(), 64);
  assert.equal(await page.locator('[data-piece]').count(), 32);
  figures.push({ name: 'page load (loadEventEnd)', value: timing.load.toFixed(1), unit: 'ms' });
  figures.push({ name: 'page DOMContentLoaded', value: timing.dom.toFixed(1), unit: 'ms' });
  await shot(page, '01-start');
  await page.close();
});

test("fool's mate by clicking: 1. e4 d5 2. Be2 dxe4 3. Bb5#", async () => {
  const page = await openPage();
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await page.waitForSelector(`${cell('B', 'e4')} [data-piece="wp"]`);
  await shot(page, '02-after-e4');
  await clickMove(page, ['A', 'd7'], ['B', 'd5']);
  await page.waitForSelector(`${cell('B', 'd5')} [data-piece="bp"]`);
  // The bishop is dragged: it leaves f1 of A and lands on e2 of B.
  await page.click(cell('A', 'f1'));
  assert.equal(await page.locator(`${cell('B', 'e2')}.dest`).count(), 1, 'e2 of B is marked as a landing cell');
  await page.click(cell('A', 'f1'));
  await dragMove(page, ['A', 'f1'], ['B', 'e2']);
  await page.waitForSelector(`${cell('B', 'e2')} [data-piece="wB"]`);
  await page.click(cell('B', 'd5'));
  assert.equal(await page.locator(`${cell('A', 'e4')}.dest-capture`).count(), 1, 'the capture dxe4 is marked on A');
  await page.click(cell('A', 'e4'));
  await page.waitForSelector(`${cell('A', 'e4')} [data-piece="bp"]`);
  await clickMove(page, ['B', 'e2'], ['A', 'b5']);
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('Checkmate'));
  const status = await page.textContent('#status');
  assert.match(status, /Checkmate: White wins \(1-0\)/);
  const moves = await page.locator('#moves .move').allTextContents();
  assert.deepEqual(moves, ['e4', 'd5', 'Be2', 'dxe4/A', 'Bb5/A#']);
  assert.equal(await page.locator(`${cell('A', 'e8')}.check`).count(), 1, 'the mated king is marked');
  assert.equal(await page.locator(`${cell('B', 'e2')}.last-from`).count(), 1);
  assert.equal(await page.locator(`${cell('A', 'b5')}.last-to`).count(), 1);
  const latencies = await page.evaluate(() => {
    const sent = performance.getEntriesByName('move-sent');
    const shown = performance.getEntriesByName('move-shown');
    return sent.map((s, i) => shown[i].startTime - s.startTime);
  });
  assert.equal(latencies.length, 5);
  figures.push({ name: 'move-to-screen latency (mean of 5 moves)', value: (latencies.reduce((a, b) => a + b, 0) / 5).toFixed(1), unit: 'ms' });
  figures.push({ name: 'move-to-screen latency (max of 5 moves)', value: Math.max(...latencies).toFixed(1), unit: 'ms' });
  await shot(page, '03-fools-mate');
  await page.close();
});

test('an illegal drop snaps back with a reason', async () => {
  const page = await openPage();
  await dragMove(page, ['A', 'e2'], ['B', 'e5']);
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('illegal'));
  assert.equal(await pieceAt(page, 'A', 'e2'), 'wp');
  assert.equal(await moveCount(page), 0);
  await shot(page, '04-illegal-drop');
  await page.close();
});

/** Plays some legal move for the side to move by clicking its pieces until one has targets. */
async function playAnyMove(page, color) {
  const cells = await page.evaluate((c) =>
    [...document.querySelectorAll(`[data-piece^="${c}"]`)].map((img) => {
      const x = img.closest('.cell');
      return [x.dataset.board, x.dataset.square];
    }), color);
  for (const from of cells) {
    await page.click(cell(...from));
    const target = page.locator('.cell.dest, .cell.dest-capture').first();
    if (await target.count()) {
      await target.click();
      return;
    }
  }
  throw new Error('no legal move found');
}

test('three moves against the engine: replies on the right boards, clocks run', async () => {
  const page = await openPage();
  // A setting shows only in the modes where it applies: the mode first.
  await page.selectOption('#mode', 'play');
  await page.selectOption('#limit', 'clock');
  await page.fill('#base', '0.5');
  await page.fill('#inc', '0');
  await page.selectOption('#color', 'white');
  await page.waitForFunction(() => document.getElementById('clock-white').hidden === false);
  for (let i = 0; i < 3; i++) {
    await playAnyMove(page, 'w');
    await page.waitForFunction((n) => document.querySelectorAll('#moves .move').length === n, 2 * i + 2, { timeout: 30000 });
    // The engine's piece stands on its landing cell, and its start cell on the other board is empty.
    const landed = await page.evaluate(() => {
      const to = document.querySelector('.cell.last-to');
      const from = document.querySelector('.cell.last-from');
      return { piece: to?.querySelector('[data-piece]')?.dataset.piece, toBoard: to?.dataset.board, fromBoard: from?.dataset.board, fromEmpty: !from?.querySelector('[data-piece]') };
    });
    assert.ok(landed.piece?.startsWith('b'), `engine reply shows a black piece on its landing cell: ${JSON.stringify(landed)}`);
    assert.notEqual(landed.toBoard, landed.fromBoard, 'a move changes board');
    assert.ok(landed.fromEmpty);
    await shot(page, `05-engine-reply-${i + 1}`);
  }
  const black = Number(await page.getAttribute('#clock-black', 'data-ms'));
  assert.ok(black < 30000, `Black's clock ran: ${black}`);
  const w1 = Number(await page.getAttribute('#clock-white', 'data-ms'));
  await page.waitForTimeout(600);
  const w2 = Number(await page.getAttribute('#clock-white', 'data-ms'));
  assert.ok(w2 < w1, `White's clock runs while White thinks: ${w1} -> ${w2}`);
  await shot(page, '06-clocks');
  await page.close();
});

test('analysis shows a line of depth 10 or more within a few seconds', async () => {
  const page = await openPage();
  const t0 = Date.now();
  await page.selectOption('#mode', 'analysis');
  await page.selectOption('#multipv', '2');
  await page.waitForFunction(
    () => [...document.querySelectorAll('#lines .line')].some((l) => Number(l.dataset.depth) >= 10),
    null,
    { timeout: 15000 },
  );
  figures.push({ name: 'analysis: time to a depth-10 line (start position)', value: Date.now() - t0, unit: 'ms' });
  const line = await page.textContent('#lines .line');
  assert.match(line, /d1\d/);
  assert.ok((await page.locator('#lines .line').count()) >= 1);
  await shot(page, '07-analysis');
  // Clicking the first move of the first line plays it.
  await page.click('#lines .line .pv-move');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await shot(page, '08-analysis-line-played');
  await page.close();
});

test('Yearout-Jelliss: import, step through, compare with the engine\'s d output', async () => {
  const page = await openPage();
  await page.fill('#pgn', readFileSync('yearout-jelliss-1996.pgn', 'utf8'));
  await page.click('#importpgn');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 6);
  const sans = await page.locator('#moves .move').allTextContents();
  assert.deepEqual(sans, ['Nf3', 'e6', 'Ne5/A', 'Bc5', 'Nxf7', 'Bg1/A']);
  const uci = ['g1f3', 'e7e6', 'f3e5', 'f8c5', 'e5f7', 'c5g1'];
  await page.click('#first');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 32 && document.querySelector('#moves .current') === null);
  for (let ply = 1; ply <= 6; ply++) {
    await page.click('#next');
    await page.waitForFunction((p) => document.querySelector('#moves .current')?.dataset.ply === String(p), ply);
    assert.deepEqual(await pagePieces(page), enginePieces(uci.slice(0, ply)), `boards after ply ${ply}`);
  }
  await shot(page, '09-yearout-jelliss-move3');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#moves .current')?.dataset.ply === '5');
  assert.deepEqual(await pagePieces(page), enginePieces(uci.slice(0, 5)));
  await page.close();
});

test('a bad FEN and a bad PGN are refused with a message; the game stays', async () => {
  const page = await openPage();
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  const before = await pagePieces(page);
  await page.fill('#fen', 'rnbqkbnr/pppppppp/8/8 w KQkq - 0 1');
  await page.click('#loadfen');
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('bad FEN'));
  // The reason is part of the status (#status shows a refusal's reason) and written once.
  assert.match(await page.textContent('#status'), /bad FEN/);
  const shown = await page.evaluate(() => document.body.innerText.split('bad FEN').length - 1);
  assert.equal(shown, 1, 'an error is shown in one place');
  assert.deepEqual(await pagePieces(page), before);
  assert.equal(await moveCount(page), 1);
  await shot(page, '10-bad-fen');
  await page.fill('#pgn', '[Variant "Alice"]\n\n1. e4 e5 2. Ke3 *');
  await page.click('#importpgn');
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('bad PGN'));
  assert.match(await page.textContent('#notice'), /2\. Ke3 is illegal/);
  assert.deepEqual(await pagePieces(page), before);
  assert.equal(await moveCount(page), 1);
  await shot(page, '11-bad-pgn');
  // A good FEN in the pipe form is accepted and shown in that form.
  const fen = 'rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3';
  await page.fill('#fen', fen);
  await page.click('#loadfen');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0);
  assert.equal(await page.inputValue('#fen'), fen);
  assert.equal(await pieceAt(page, 'B', 'e2'), 'wB');
  await page.close();
});

test('promotion through the chooser, castling by the king', async () => {
  const page = await openPage();
  await page.fill('#fen', '4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1');
  await page.click('#loadfen');
  await page.waitForSelector(`${cell('A', 'b7')} [data-piece="wp"]`);
  await clickMove(page, ['A', 'b7'], ['B', 'b8']);
  await page.waitForSelector('#chooser:not([hidden])');
  assert.equal(await page.locator('#chooser button[data-uci]').count(), 4);
  await shot(page, '11b-promotion-chooser');
  await page.click('#chooser button[data-uci$="q"]');
  await page.waitForSelector(`${cell('B', 'b8')} [data-piece="wQ"]`);
  assert.deepEqual(await page.locator('#moves .move').allTextContents(), ['b8=Q']);
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 0);
  // Castling: the king is picked up and put on its castling square of the other board.
  await page.click(cell('A', 'e1'));
  assert.equal(await page.locator(`${cell('B', 'g1')}.dest`).count(), 1);
  await page.click(cell('B', 'g1'));
  await page.waitForSelector(`${cell('B', 'g1')} [data-piece="wK"]`);
  assert.equal(await pieceAt(page, 'B', 'f1'), 'wR');
  assert.deepEqual(await page.locator('#moves .move').allTextContents(), ['O-O']);
  await page.close();
});

test('a flag falls: loss on time is announced', async () => {
  const page = await openPage();
  await page.selectOption('#mode', 'play');
  await page.selectOption('#limit', 'clock');
  await page.fill('#base', '0.02');
  await page.fill('#inc', '0');
  await page.selectOption('#color', 'black');
  // The engine (White) moves, then the person's clock runs out.
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('loses on time'), null, { timeout: 20000 });
  assert.match(await page.textContent('#status'), /(White|Black) loses on time \((1-0|0-1)\)/);
  await page.close();
});

test('variants: Mini Alice shows 4x8 boards, alice3 three boards', async () => {
  const page = await openPage();
  await page.selectOption('#variant', 'minialice');
  await page.click('#newgame');
  await page.waitForFunction(() => document.querySelectorAll('[data-board="A"][data-square]').length === 32);
  assert.equal(await page.locator('[data-board="B"][data-square]').count(), 32);
  await shot(page, '12-minialice');
  // New game folded the setup away: opened again, as a person does.
  await openSetup(page);
  await page.selectOption('#variant', 'alice3');
  await page.click('#newgame');
  await page.waitForFunction(() => document.querySelectorAll('[data-board="C"][data-square]').length === 64);
  await shot(page, '13-alice3');
  await page.close();
});

test('an engine that fails: a clear message, the game kept, a restart button', async () => {
  const bad = await startServer(['--engine', 'cmd=/bin/false', 'name=Broken']);
  try {
    const page = await openPage(bad.url);
    await clickMove(page, ['A', 'e2'], ['B', 'e4']);
    // The first move folds the setup away (when its state comes back): wait for it, then
    // open the setup again, as a person does.
    await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
    await page.waitForFunction(() => !document.getElementById('setup').open);
    await openSetup(page);
    await page.selectOption('#mode', 'play');
    await page.selectOption('#color', 'white');
    await page.waitForSelector('#restart:not([hidden])');
    // Read where it is seen: each settings change restarts a failed engine (the status then
    // says whose move it is until the engine fails again).
    const status = await page
      .waitForFunction(() => {
        const text = document.getElementById('status').textContent;
        return text.includes('Engine failed') && text;
      })
      .then((h) => h.jsonValue());
    assert.match(status, /Broken/);
    assert.equal(await moveCount(page), 1);
    await shot(page, '14-engine-failed');
    await page.close();
  } finally {
    bad.child.kill();
  }
});

test('an engine that sends an illegal move is refused; the game is kept', async () => {
  const bad = await startServer(['--engine', 'cmd=fake-engines/illegal.sh', 'name=Illegal']);
  try {
    const page = await openPage(bad.url);
    await page.selectOption('#mode', 'play');
    await clickMove(page, ['A', 'e2'], ['B', 'e4']);
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('illegal move'));
    assert.match(await page.textContent('#status'), /e1e8/);
    assert.equal(await moveCount(page), 1, 'the illegal move was not played');
    assert.equal(await pieceAt(page, 'B', 'e4'), 'wp');
    assert.equal(await page.isVisible('#restart'), true);
    await shot(page, '15-illegal-engine-move');
    await page.close();
  } finally {
    bad.child.kill();
  }
});

// Fairy-Stockfish's `alice` branch, built outside the repository: FSF_ALICE=/path/to/stockfish.
test('drives Fairy-Stockfish (alice branch) over UCI', { skip: !process.env.FSF_ALICE && 'FSF_ALICE not set' }, async () => {
  const fsf = await startServer(['--engine', `cmd=${process.env.FSF_ALICE}`, 'name=FSF-alice']);
  try {
    const page = await openPage(fsf.url);
    await page.waitForFunction(() => document.getElementById('engine-names').textContent.includes('Fairy-Stockfish'));
    assert.deepEqual(await page.$$eval('#variant option', (o) => o.map((x) => x.value)), ['alice']);
    await page.selectOption('#mode', 'play');
    await page.selectOption('#limit', 'movetime');
    await page.fill('#movetime', '300');
    await page.selectOption('#color', 'white');
    for (let i = 0; i < 3; i++) {
      await playAnyMove(page, 'w');
      await page.waitForFunction((n) => document.querySelectorAll('#moves .move').length === n, 2 * i + 2, { timeout: 20000 });
    }
    await shot(page, '16-fsf-alice-play');
    await page.selectOption('#mode', 'analysis');
    await page.waitForFunction(
      () => [...document.querySelectorAll('#lines .line')].some((l) => Number(l.dataset.depth) >= 10),
      null,
      { timeout: 15000 },
    );
    await shot(page, '17-fsf-alice-analysis');
    await page.close();
  } finally {
    fsf.child.kill();
  }
});

test('two tabs at once keep separate games', async () => {
  const [one, two] = [await openPage(), await openPage()];
  await clickMove(one, ['A', 'e2'], ['B', 'e4']);
  await clickMove(two, ['A', 'g1'], ['B', 'f3']);
  await one.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  await two.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  assert.deepEqual(await one.locator('#moves .move').allTextContents(), ['e4']);
  assert.deepEqual(await two.locator('#moves .move').allTextContents(), ['Nf3']);
  await one.close();
  await two.close();
});

test('without the printed link the page says where to find it, and the API refuses', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
  const first = await page.goto(server.base);
  assert.equal(first.status(), 403);
  assert.match(await page.textContent('body'), /link printed by vorpal gui/);
  const api = await page.evaluate(async () => (await fetch('/api/session', { method: 'POST' })).status);
  assert.equal(api, 403);
  await shot(page, '18-no-token');
  await page.close();
});

test('a reloaded page rejoins its game', async () => {
  const page = await openPage();
  await clickMove(page, ['A', 'e2'], ['B', 'e4']);
  await page.waitForSelector(`${cell('B', 'e4')} [data-piece="wp"]`);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  assert.deepEqual(await page.locator('#moves .move').allTextContents(), ['e4']);
  await page.close();
});

test('the server refuses bad requests cleanly', async () => {
  const base = server.base;
  assert.equal((await fetch(`${base}api/state?sid=nope`)).status, 403, 'no token: refused');
  // Scripts send the token in a header; bodies are JSON.
  const auth = { Authorization: `token ${server.token}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const plain = await fetch(`${base}api/session`, { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' });
  assert.equal(plain.status, 415);
  assert.equal((await fetch(`${base}../../etc/passwd`)).status, 404);
  assert.equal((await fetch(`${base}nothing`)).status, 404);
  assert.equal((await fetch(`${base}api/state?sid=nope`, { headers: auth })).status, 410);
  const big = await fetch(`${base}api/cmd?sid=x`, { method: 'POST', headers: json, body: 'x'.repeat(2 << 20) }).catch(() => null);
  assert.ok(big === null || big.status === 410 || big.status === 413);
  assert.equal(await statusWithHost(base, 'example.com'), 403, 'a foreign Host header is refused');
  assert.equal(await statusWithHost(base, 'localhost'), 200);
  const s = await (await fetch(`${base}api/session`, { method: 'POST', headers: auth })).json();
  const r = await fetch(`${base}api/cmd?sid=${s.sid}`, { method: 'POST', headers: json, body: '{not json' });
  assert.equal(r.status, 400);
  const m = await fetch(`${base}api/cmd?sid=${s.sid}`, { method: 'POST', headers: json, body: JSON.stringify({ cmd: 'move', uci: 'e2e5' }) });
  assert.equal(m.status, 400);
  assert.match((await m.json()).error, /illegal/);
  // A client that drops a long poll mid-wait does not disturb the server.
  const ctl = new AbortController();
  const pending = fetch(`${base}api/state?sid=${s.sid}&since=999999`, { headers: auth, signal: ctl.signal }).catch(() => 'aborted');
  ctl.abort();
  assert.equal(await pending, 'aborted');
  assert.equal((await fetch(server.url)).status, 200);
});
