// Starting `vorpal gui` for the browser tests (one helper for every test file).
import { spawn } from 'node:child_process';

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
