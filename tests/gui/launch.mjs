// Starting `vorpal gui` and Chromium for the browser tests (one helper for every test file).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

/** Headless Chromium as every browser test runs it (Debian's, no sandbox, no GPU; `extra`
 * arguments added). */
export function launchChromium(extra = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', ...extra] });
}

/** The usual fixture of a test file, registered as its hooks: Chromium and a `vorpal gui`
 * (`bin` on a free port) started before the file's tests, with the screenshot folder `shots`
 * made, and both closed after them. Its `browser` and `server` are set once the hooks ran. */
export function guiFixture(bin, shots) {
  const fixture = { browser: null, server: null };
  before(async () => {
    assert.ok(bin, 'VORPAL_BIN must name the vorpal binary');
    if (shots) mkdirSync(shots, { recursive: true });
    fixture.browser = await launchChromium();
    fixture.server = await startGui(bin, ['--port', '0']);
  });
  after(async () => {
    await fixture.browser?.close();
    fixture.server?.child.kill();
  });
  return fixture;
}

/** Starts `BIN gui ARGS` with `env` added to the environment; resolves to
 * {url, base, token, child} once it prints its link (`url` is the link with the access token,
 * `base` the server's root) and rejects if it exits first or prints none in 15 s. */
export function startGui(bin, args = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['gui', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from vorpal gui: ${out}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/(http:\/\/[0-9.:]+\/)\?token=([A-Za-z0-9_-]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[0], base: m[1], token: m[2], child });
      }
    });
    child.stderr.on('data', (d) => { out += d; });
    child.on('exit', (code) => reject(new Error(`vorpal gui exited (${code}): ${out}`)));
  });
}
