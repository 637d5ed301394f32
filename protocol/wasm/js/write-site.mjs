#!/usr/bin/env node
// Writes the static site: node write-site.mjs NPM_DIR SITE_DIR. The page's files are vorpal
// gui's own, read from the built module (vorpal_site_paths / vorpal_site_file), but api.js,
// which is the site's (site/api.js: the page in WebAssembly, engines in Workers); the engine
// package (NPM_DIR) goes to SITE_DIR/engine/.
import { mkdir, readFile, writeFile, copyFile, readdir } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [npm, site] = process.argv.slice(2);
if (!npm || !site) {
  console.error('usage: node write-site.mjs NPM_DIR SITE_DIR');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const bytes = await readFile(join(npm, 'vorpal.wasm'));
const { instance } = await WebAssembly.instantiate(bytes, { vorpal: { now_ms: () => performance.now(), wall_ms: () => Date.now() } });
const x = instance.exports;
const h = x.vorpal_new();
const output = () => new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.vorpal_output_ptr(h), x.vorpal_output_len(h)));
const ask = (path) => {
  const b = new TextEncoder().encode(path);
  new Uint8Array(x.memory.buffer, x.vorpal_input(h, b.length), b.length).set(b);
  x.vorpal_site_file(h);
  return output();
};
x.vorpal_site_paths(h);
const paths = output().split('\n');
for (const path of paths) {
  if (path === '/api.js') continue;
  const body = ask(path);
  if (!body) throw new Error(`no page file ${path}`);
  await mkdir(dirname(join(site, path)), { recursive: true });
  await writeFile(join(site, path), body);
}
await copyFile(join(here, 'site', 'api.js'), join(site, 'api.js'));
await mkdir(join(site, 'engine'), { recursive: true });
for (const name of await readdir(npm)) {
  if (/\.(m?js|wasm)$/.test(name)) await copyFile(join(npm, name), join(site, 'engine', name));
}
console.error(`write-site: ${paths.length} page files and the engine in ${site}`);
