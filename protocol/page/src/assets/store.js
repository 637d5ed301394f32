// What the page keeps in the browser so that nothing is lost: the game (its PGN with the
// variations, comments and tags, the moves to the shown position, the settings) in
// localStorage, restored after a reload, Back, or a restart of the server on the same port
// when the server no longer has the tab's session (api.js keeps the session id for a rejoin);
// and which session each open tab holds (a duplicated tab, which inherits the id, opens its
// own session instead).

const GAME_KEY = 'vorpal-gui-game';
const PREFS_KEY = 'vorpal-gui-prefs';
const channel = 'BroadcastChannel' in window ? new BroadcastChannel('vorpal-gui-tabs') : null;
let mySid = '';

if (channel) {
  channel.addEventListener('message', (e) => {
    if (e.data && e.data.ask && e.data.ask === mySid) channel.postMessage({ taken: mySid });
  });
}

function read(storage, key) {
  try {
    return JSON.parse(storage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or forbidden (private mode): the game is then only on the server.
  }
}

/** The game kept by the last page: {pgn, path, settings, showEngine} or null. */
export function loadGame() {
  const g = read(localStorage, GAME_KEY);
  return g && typeof g.pgn === 'string' ? g : null;
}

/** Keeps the game shown by `state` with the page's settings. */
export function saveGame(state, settings) {
  const byId = new Map(state.nodes.map((n) => [n.id, n]));
  const path = [];
  for (let n = byId.get(state.node); n && n.parent !== null; n = byId.get(n.parent)) path.unshift(n.uci);
  write(localStorage, GAME_KEY, { pgn: state.pgn, path, settings, showEngine: state.showEngine, saved: Date.now() });
}

/** Answers other tabs that ask whether this tab holds session `sid`. */
export function holdSid(sid) {
  mySid = sid;
}

/** True when another open tab holds session `sid` (asked over a BroadcastChannel). */
export function sidTaken(sid) {
  if (!channel || !sid) return Promise.resolve(false);
  return new Promise((done) => {
    const answer = (e) => {
      if (e.data && e.data.taken === sid) finish(true);
    };
    const finish = (taken) => {
      channel.removeEventListener('message', answer);
      clearTimeout(timer);
      done(taken);
    };
    channel.addEventListener('message', answer);
    const timer = setTimeout(() => finish(false), 150);
    channel.postMessage({ ask: sid });
  });
}

/** The person's display choices (theme, sound). */
export function loadPrefs() {
  return read(localStorage, PREFS_KEY) || {};
}

/** Keeps the person's display choices. */
export function savePrefs(prefs) {
  write(localStorage, PREFS_KEY, prefs);
}
