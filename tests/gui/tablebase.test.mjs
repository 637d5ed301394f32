// Browser test of `vorpal gui --tb DIR` (issue 26): the 3-man tables are made with
// `vorpal tb generate`, a KQvK position is loaded by FEN and analysed, and the analysis panel
// shows "Tablebase: mate in 4" above the #4 line. Screenshot: tablebase-1400x900.png in
// $SCREENSHOT_DIR.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, startGui } from './launch.mjs';

const BIN = process.env.VORPAL_BIN;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp/vorpal-gui-shots';
const KQK = '8/6|Q1/8/8/8/4|k1K1/8/8 w - - 0 1';

let browser;
let server;
let tables;

/** `vorpal gui --port 0 ARGS` (see launch.mjs). */
function startServer(args) {
  return startGui(BIN, ['--port', '0', ...args]);
}

before(async () => {
  assert.ok(BIN, 'VORPAL_BIN must name the vorpal binary');
  tables = mkdtempSync(join(tmpdir(), 'vorpal-gui-tb-'));
  const made = spawnSync(BIN, ['tb', 'generate', '--all', '3', '--dir', tables], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  browser = await launchChromium();
  server = await startServer(['--tb', tables]);
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  if (tables) rmSync(tables, { recursive: true, force: true });
});

test('analysis of a KQvK position shows the tablebase verdict', { timeout: 60000 }, async () => {
  // bypassCSP: waitForFunction evaluates text, which the page's policy forbids.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('to move'));
  await page.fill('#fen', KQK);
  await page.click('#loadfen');
  await page.selectOption('#mode', 'analysis');
  const verdict = page.locator('#lines .tablebase');
  await verdict.waitFor({ state: 'visible', timeout: 20000 });
  assert.equal((await verdict.textContent()).trim(), 'Tablebase: mate in 4');
  await page.locator('#lines .line .score', { hasText: '#4' }).first().waitFor({ timeout: 10000 });
  const box = await verdict.boundingBox();
  assert.ok(box && box.width > 50 && box.height >= 12, `verdict drawn: ${JSON.stringify(box)}`);
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: join(SHOTS, 'tablebase-1400x900.png') });
  // Another position (not in the tables) drops the verdict.
  await page.fill('#fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.click('#loadfen');
  await page.locator('#lines .line').first().waitFor({ timeout: 20000 });
  // The lines of the old search may be drawn a moment longer: wait for the verdict to go.
  await page.locator('#lines .tablebase').waitFor({ state: 'detached', timeout: 20000 });
  assert.equal(await page.locator('#lines .tablebase').count(), 0);
  await context.close();
});
