// The static site's stand-in for vorpal gui's api.js: the same exports, answered by the game
// page compiled to WebAssembly in this page (the server's own tree, PGN, views and commands,
// engine/vorpal.mjs's loadPage) instead of a server; the engine runs in Web Workers
// (engine/vorpal-worker.js), so the page never freezes. Nothing is requested from a server
// but the site's own files. The game is kept in the browser as vorpal gui's page keeps it
// (store.js): a reload opens a new page and puts the kept game back.

import { loadPage } from './engine/vorpal.mjs';

const WORKER = new URL('./engine/vorpal-worker.js', import.meta.url);
// The game report runs in vorpal gui only: the site's page does not offer it (style.css).
document.documentElement.classList.add('static-site');
let page = null;
const workers = new Map();
let waiting = [];

/** Wakes the poll loop (the view may have changed). */
function changed() {
  const w = waiting;
  waiting = [];
  w.forEach((wake) => wake());
}

/** Carries the page's requests to the Workers. */
function pump() {
  for (const r of page.requests()) {
    if (r.do === 'start') {
      const worker = new Worker(WORKER, { type: 'module' });
      worker.onmessage = (e) => {
        page.engineLine(r.link, e.data);
        pump();
      };
      worker.onerror = (e) => {
        e.preventDefault();
        page.engineFailed(r.link, e.message || 'the engine could not start');
        pump();
      };
      workers.set(r.link, worker);
    } else if (r.do === 'send') {
      workers.get(r.link)?.postMessage(r.line);
    } else if (r.do === 'end') {
      workers.get(r.link)?.terminate();
      workers.delete(r.link);
    }
  }
  changed();
}

async function thePage() {
  if (!page) {
    page = await loadPage();
    setInterval(() => {
      page.tick();
      pump();
    }, 100);
  }
  return page;
}

/** No session outlives the page here: a reload starts afresh with the kept game. */
export function savedSession() {
  return '';
}

/** The page's game (a new one; the caller puts the kept game back). */
export async function openSession() {
  const p = await thePage();
  return { sid: 'page', rejoined: false, state: p.view() };
}

/** Calls link.onState with each newer view while link.sid stays the same. */
export async function pollLoop(link) {
  const sid = link.sid;
  while (link.sid === sid) {
    if (page.version() > link.version) link.onState(page.view());
    await new Promise((wake) => waiting.push(wake));
  }
}

/** Runs a command; resolves to {ok, error, state, games}. */
export async function command(link, cmd) {
  const p = await thePage();
  const { done, answer } = p.command(cmd);
  pump();
  return { ok: done, error: answer.error, state: answer.state, games: answer.games };
}

/** The game as PGN. */
export async function fetchPgn() {
  return (await thePage()).pgn();
}

/** The page is going away: its engines end. */
export function closeSession() {
  for (const worker of workers.values()) worker.terminate();
  workers.clear();
}
