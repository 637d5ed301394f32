// Talking to the vorpal gui server: one session per page, a long poll for the state, and
// commands that answer with the new state. Nothing here knows the rules of the game.

// Access: the link printed by `vorpal gui` carries the server's token; the server answered it
// with an HttpOnly cookie that every request below sends by itself. The token is dropped from
// the address bar so that it stays out of the history, bookmarks and screenshots.

/** @typedef {{sid: string, version: number, onState: (s: any) => void, onError: (msg: string) => void}} Link */

if (new URLSearchParams(window.location.search).has('token')) {
  window.history.replaceState(null, '', window.location.pathname + window.location.hash);
}

/** This tab's session id, kept so that a reload rejoins its game. */
const SESSION_KEY = 'vorpal-gui-session';
const NO_ACCESS = 'This page has no access to the server: open the link printed by vorpal gui.';

function storedSession() {
  try { return window.sessionStorage.getItem(SESSION_KEY) || ''; } catch { return ''; }
}

function storeSession(sid) {
  try { window.sessionStorage.setItem(SESSION_KEY, sid); } catch { /* storage off: no rejoin */ }
}

const jsonPost = (body) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** This tab's session id from before a reload ('' when none). */
export function savedSession() {
  return storedSession();
}

/** Opens a session (this tab's own again after a reload, while it lives, unless `fresh`);
 * resolves to {sid, rejoined, state} or rejects with the server's reason. */
export async function openSession(fresh = false) {
  const old = fresh ? '' : storedSession();
  const r = await fetch('/api/session', jsonPost(old ? { rejoin: old } : {}));
  const body = await r.json().catch(() => ({ error: `server answered ${r.status}` }));
  if (r.status === 403) throw new Error(NO_ACCESS);
  if (!r.ok) throw new Error(body.error || `server answered ${r.status}`);
  storeSession(body.sid);
  return body;
}

/** Long-polls the state while link.sid stays the same, calling link.onState for each version
 * newer than link.version; link.onGone when the server no longer has the session. */
export async function pollLoop(link) {
  const sid = link.sid;
  while (link.sid === sid) {
    try {
      const r = await fetch(`/api/state?sid=${link.sid}&since=${link.version}`);
      if (r.status === 403) {
        link.onError(NO_ACCESS);
        return;
      }
      if (link.sid !== sid) return;
      // A newer poll of this session took over (this loop is a leftover): it stops quietly.
      if (r.status === 409) return;
      if (r.status === 410) {
        if (link.onGone) link.onGone();
        else link.onError('This page\'s session has ended (the server restarted or the tab was idle). Reload the page.');
        return;
      }
      if (!r.ok) throw new Error(`server answered ${r.status}`);
      const state = await r.json();
      if (state.version > link.version) link.onState(state);
    } catch (e) {
      link.onError(`Lost contact with the server (${e.message}); retrying…`);
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

/** Sends a command; resolves to {ok, error, state, games} (games: a PGN file's labels). */
export async function command(link, cmd) {
  try {
    const r = await fetch(`/api/cmd?sid=${link.sid}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(cmd),
    });
    const text = await r.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      // A refusal before the command is read (413: too large) comes as plain text.
      body = { error: text.trim() ? `the server refused it: ${text.trim()}` : `server answered ${r.status}` };
    }
    return { ok: r.ok, error: body.error, state: body.state, games: body.games };
  } catch (e) {
    return { ok: false, error: `cannot reach the server: ${e.message}` };
  }
}

/** The game as PGN text. */
export async function fetchPgn(link) {
  const r = await fetch(`/api/pgn?sid=${link.sid}`);
  if (!r.ok) throw new Error(`server answered ${r.status}`);
  return r.text();
}

/** Tells the server the page is going away, so its session and engines end in a few seconds
 * (unless the page comes back: a reload rejoins it). */
export function closeSession(link) {
  if (!link.sid) return;
  const url = `/api/close?sid=${link.sid}`;
  const blob = new Blob([JSON.stringify({ sid: link.sid })], { type: 'application/json' });
  let sent = false;
  try { sent = navigator.sendBeacon(url, blob); } catch { sent = false; }
  if (!sent) fetch(url, { ...jsonPost({ sid: link.sid }), keepalive: true }).catch(() => {});
}
