// The page: connects to the server (rejoining this tab's session, or opening one and
// restoring the game kept in the browser), draws every state it sends, and turns the person's
// actions (moves, navigation, settings, FEN and PGN) into commands.

import { openSession, savedSession, pollLoop, command, fetchPgn, closeSession } from './api.js';
import { Boards } from './board.js';
import { renderMoves, renderLines, renderEval, renderPlayers } from './panels.js';
import { renderReview, markMoves, graphMisfit } from './review.js';
import { wirePgnFiles } from './pgnfile.js';
import { wireLooks, moveSound, autoQueenPremoves } from './looks.js';
import { placeParts, placeReview, centreStrip, foldSetup, foldSetupOnStart, wireLayout, wireShortcuts } from './layout.js';
import { loadGame, saveGame, holdSid, sidTaken, loadPrefs, savePrefs } from './store.js';
import { readComment, writeComment, toggleShape } from './drawings.js';
import { choose, choosePromotion } from './chooser.js';
import { settings, fillSettings, showSettingsFor, fillSelect } from './settings.js';

const $ = (id) => document.getElementById(id);
const link = { sid: '', version: 0, onState: show, onError: notice, onGone: reconnect };
let state = null;
let receivedAt = 0;
let restoring = false;
const prefs = loadPrefs();

const boards = new Boards($('boards'), { onMove: chooseAndPlay, onReject: reject, onNoMove: notice, onDraw: draw, onPromotion: premovePiece });

/** The piece a premoved pawn becomes: a queen at once (auto-queen when premoving, as lichess
 * does by default), or the chooser's answer when the settings say never. */
function premovePiece(colour) {
  return autoQueenPremoves() ? Promise.resolve('Q') : choosePromotion(colour);
}

/** The one place for messages; cleared by the next success. */
function notice(text) {
  $('notice').textContent = text;
}

/** A move the boards refused: "2. Ke3 is illegal: ...". */
function reject(r) {
  if (!r || !state) return;
  const fields = state.fen.split(' ');
  const number = Number(fields[fields.length - 1]) || 1;
  const label = state.turn === 'white' ? `${number}. ${r.label}` : `${number}... ${r.label}`;
  notice(`${label} is illegal: ${r.why}`);
}

/** The shown move's node. */
const shownNode = (s) => s.nodes.find((n) => n.id === s.node);

/** A shape drawn on the boards: toggled in the shown move's comment, which keeps it. */
function draw(shape) {
  if (!state) return;
  const { text, shapes } = readComment(shownNode(state)?.comment);
  send({ cmd: 'comment', node: state.node, text: writeComment(text, toggleShape(shapes, shape)) });
}

/** Runs `redraw` (which rebuilds the move list, the report and the engine lines) and gives the
 * keyboard focus back to the control it was on (same id, or same `data-key`): a keyboard user
 * keeps their place while the engine's lines update several times a second. */
function keepFocus(redraw) {
  const was = document.activeElement;
  const panel = was && was.closest ? was.closest('#moves, #lines, #review, #reviewbar') : null;
  const id = panel ? was.id : '';
  const key = panel ? was.dataset.key : undefined;
  redraw();
  if (!panel) return;
  const back = id ? document.getElementById(id) : key ? panel.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  if (back && document.activeElement !== back) back.focus({ preventScroll: true });
}

/** The comment box's text written into the shown move's comment (its shapes kept). */
function saveComment() {
  if (!state) return;
  const { text, shapes } = readComment(shownNode(state)?.comment);
  const typed = $('comment').value.replace(/\s+/g, ' ').trim();
  if (typed === text) return;
  send({ cmd: 'comment', node: state.node, text: writeComment(typed, shapes) });
}

function show(s) {
  if (state && s.version <= state.version) return;
  const previous = state;
  state = s;
  link.version = s.version;
  receivedAt = performance.now();
  // Playing Black turns the boards round; a mode without a side (analysis, two people) keeps
  // the side they were seen from.
  if (s.human) boards.setBlackView(s.human === 'black');
  boards.render(s);
  $('status-text').textContent = s.status;
  $('status').classList.toggle('over', !!s.result);
  $('lastmove').textContent = lastMoveText(s);
  if (s.message) notice(s.message);
  keepFocus(() => {
    renderMoves($('moves'), s, (node) => send({ cmd: 'goto', node }));
    centreStrip();
    markMoves($('moves'), s);
    renderReview($('review'), $('reviewbar'), s, reviewActions);
    renderLines($('lines'), s, playLine);
  });
  renderEval($('evalbar'), $('evaltext'), s);
  renderPlayers($('player-top'), $('player-bottom'), s, receivedAt, boards.reversed);
  boards.setArrows(s.lines.map((l) => l.best));
  const here = readComment(shownNode(s)?.comment);
  boards.setShapes(here.shapes);
  if (document.activeElement !== $('comment')) $('comment').value = here.text;
  const shownNags = shownNode(s)?.nags || [];
  for (const b of document.querySelectorAll('#marks button')) {
    b.disabled = s.node === 0;
    b.setAttribute('aria-pressed', String(shownNags.includes(Number(b.dataset.nag))));
  }
  $('poslink').href = positionLink(s);
  showGameActions(s);
  showBanner(s);
  fitCells();
  if (document.activeElement !== $('fen')) $('fen').value = s.fen;
  $('restart').hidden = !s.engines.some((e) => e.failed);
  $('promote').disabled = s.mainLine;
  $('delete').disabled = s.node === 0;
  // The rules menu is what the next "New game" will use: it follows the game only when the
  // game's rules change, so an update does not undo a choice not yet applied.
  const rulesChanged = !previous || previous.variant !== s.variant || previous.enPassant !== s.enPassant || previous.chess960 !== s.chess960;
  fillSelect($('variant'), s.variants, rulesChanged ? s.variant : null);
  fillSelect($('engineWhite'), s.configuredEngines.map((_, i) => String(i)), null, s.configuredEngines);
  fillSelect($('engineBlack'), s.configuredEngines.map((_, i) => String(i)), null, s.configuredEngines);
  if (rulesChanged) {
    $('enpassant').value = s.enPassant;
    $('chess960').checked = s.chess960;
  }
  if (!previous || previous.mode !== s.mode) {
    $('mode').value = s.mode;
    if (s.human) $('color').value = s.human;
    showSettingsFor();
  }
  $('showengine').checked = s.showEngine;
  // The Elo field takes the engine's own range when it lists one.
  const range = s.engines.find((e) => e.eloRange)?.eloRange;
  if (range) {
    $('elo').min = String(range[0]);
    $('elo').max = String(range[1]);
    $('elo').placeholder = `off (${range[0]}-${range[1]})`;
  }
  $('engine-names').textContent = s.engines
    .filter((e) => e.name)
    .map((e) => `${e.name}${e.failed ? ' (failed)' : e.ready ? '' : ' (starting)'}`)
    .filter((v, i, a) => a.indexOf(v) === i)
    .join(', ');
  document.body.dataset.mode = s.mode;
  // A game put back after a reload is no game beginning: the remembered fold stays.
  if (!restoring) foldSetupOnStart(previous, s);
  if (previous && previous.node !== s.node && s.moves.length > (previous.moves?.length ?? 0)) moveSound(s);
  if (!restoring) saveGame(s, settings());
}

/** Abort (before both sides have moved), Offer draw and Resign, in a game against the
 * engine that has not ended; Resign asks first, in the page. */
function showGameActions(s) {
  let end = shownNode(s);
  while (end && end.children.length) {
    const next = end.children[0];
    end = s.nodes.find((n) => n.id === next);
  }
  const on = s.mode === 'play' && !s.result;
  const begun = (end?.ply ?? 0) >= 2;
  $('gameactions').hidden = !on;
  $('abort').hidden = begun;
  $('resign').hidden = !begun;
  $('offerdraw').hidden = !begun;
  if (!on) $('confirm').hidden = true;
}

/** This page's address with the shown position in its fragment (`#fen=…&variant=…`): opened
 * on any Vorpal page (its own link and token) or the static site, it shows that position. */
function positionLink(s) {
  const params = new URLSearchParams({ fen: s.fen, variant: s.variant });
  return `${location.origin}${location.pathname}${location.search}#${params}`;
}

/** A position named in the address's fragment: opened once, then the fragment is removed (a
 * reload then keeps the game played from it). */
async function openLinkedPosition() {
  const params = new URLSearchParams(location.hash.slice(1));
  const fen = params.get('fen');
  if (!fen) return;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  const variant = params.get('variant');
  if (variant && state && variant !== state.variant) {
    const r = await send({ cmd: 'new', variant, chess960: false, enPassant: $('enpassant').value });
    if (!r.ok) return;
  }
  $('fen').value = fen;
  await send({ cmd: 'fen', fen });
}

/** The end banner: the result with Rematch and Analyse, when a game against the engine (or
 * between engines) has ended on the shown move. */
function showBanner(s) {
  const on = !!s.result && (s.mode === 'play' || s.mode === 'watch');
  $('banner').hidden = !on;
  if (on) $('banner-text').textContent = `${s.result.text} (${s.result.result})`;
}

/** What the game report's buttons and graph do. */
const reviewActions = {
  goto: (node) => send({ cmd: 'goto', node }),
  start: () => send({ cmd: 'review' }),
  exportPgn: (text) => { $('pgn').value = text; $('notation').open = true; },
};

/** Commands reach the server one at a time, in the order they were given (two quick
 * settings changes must not arrive the other way round). */
let queue = Promise.resolve();
function send(cmd) {
  const result = queue.then(async () => {
    const r = await command(link, cmd);
    if (r.ok) notice('');
    if (r.state) show(r.state);
    if (!r.ok) notice(r.error || 'refused');
    return r;
  });
  queue = result.catch(() => {});
  return result;
}

async function chooseAndPlay(moves) {
  let move = moves[0];
  if (moves.length > 1) move = await choose(moves, state.turn === 'white' ? 'w' : 'b');
  if (!move) return;
  // The marks time a move's round trip; 'move-settled' (also after a failure) tells a waiting
  // caller that no move of the person's is on its way.
  performance.mark('move-sent');
  try {
    await send({ cmd: 'move', uci: move.uci });
    performance.mark('move-shown');
  } finally {
    performance.mark('move-settled');
  }
}

async function playLine(ucis) {
  for (const uci of ucis) {
    const r = await send({ cmd: 'move', uci });
    if (!r.ok) break;
  }
}

const node = (id) => state.nodes.find((n) => n.id === id);

/** Steps through the game: ← parent, → the line's next move, Home start, End line end. */
function step(key) {
  if (!state) return;
  const here = node(state.node);
  let target = state.node;
  if (key === 'ArrowLeft' && here.parent !== null) target = here.parent;
  if (key === 'ArrowRight' && here.children.length) target = here.children[0];
  if (key === 'Home') target = 0;
  if (key === 'End') {
    let n = here;
    while (n.children.length) n = node(n.children[0]);
    target = n.id;
  }
  if (target !== state.node) send({ cmd: 'goto', node: target });
}

/** Sizes the cells so that the boards fit the window beside the panel. Below 760 px (a phone
 * upright) the boards are stacked, A above B, and sized so that both, whose turn it is, the
 * last move and (in analysis) the best line are in view without scrolling; cells stay at
 * least 36 px, large enough to tap. */
function fitCells() {
  if (!state) return;
  const w = document.documentElement.clientWidth;
  const h = window.innerHeight;
  const narrow = w < 760;
  document.body.classList.toggle('narrow', narrow);
  // A phone on its side: the boards take the height, the panel sits beside them.
  document.body.classList.toggle('short', !narrow && h < 500);
  placeParts(narrow);
  placeReview(w, h);
  let cell;
  if (narrow) {
    cell = Math.max(36, Math.min(64, Math.floor((w - 40) / state.files)));
    setCell(cell);
    // Shrink until the last thing under the boards (the strip, the best line, the game's
    // buttons or the end banner) fits the screen, so that the page never scrolls (one pass:
    // the layout below the boards does not depend on the cell size).
    const parts = [...document.querySelector('.play').children, $('lines').querySelector('.line')].filter(Boolean);
    const bottom = Math.max(...parts.map((e) => e.getBoundingClientRect().bottom)) + window.scrollY;
    // The bottom bar (48 px) is fixed below everything.
    const over = bottom + 4 + 48 - h;
    if (over > 0) cell = Math.max(36, cell - Math.ceil(over / (8 * state.boards)));
  } else {
    // The panel takes what the boards can spare: 230 px on small screens, up to 400 px.
    const aside = w >= 1200 ? Math.min(400, Math.round(w * 0.27)) : 230;
    document.documentElement.style.setProperty('--aside', `${aside}px`);
    const columns = state.files * state.boards + (state.boards - 1) * 0.5;
    const byWidth = (w - aside - 20 - 12 - 20 - 4 * state.boards) / columns;
    const byHeight = (h - (h < 500 ? 120 : 190)) / 8;
    cell = Math.max(24, Math.min(88, Math.floor(Math.min(byWidth, byHeight))));
  }
  setCell(cell);
  // The report's graph under the boards is drawn at the size it gets there.
  if (graphMisfit($('review'))) keepFocus(() => renderReview($('review'), $('reviewbar'), state, reviewActions));
  // A phone turned upright (or a window narrowed) keeps the shown move in the strip's view.
  centreStrip();
  boards.drawArrow();
}

function setCell(cell) {
  document.documentElement.style.setProperty('--cell', `${cell}px`);
}

/** "Last move: 12… Nf3/A" for the shown position (its own element, in view on a phone). */
function lastMoveText(s) {
  const here = shownNode(s);
  if (!here || here.ply === 0 || !here.san) return 'Start position';
  const half = here.ply - 1 + (s.startBlack ? 1 : 0);
  const number = s.startMove + Math.floor(half / 2);
  return `Last move: ${number}${half % 2 === 1 ? '…' : '.'} ${here.san}`;
}

function applyTheme() {
  const dark = prefs.theme ? prefs.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

function wire() {
  $('flip').addEventListener('click', () => {
    boards.flip();
    if (state) renderPlayers($('player-top'), $('player-bottom'), state, receivedAt, boards.reversed);
  });
  $('undo').addEventListener('click', () => send({ cmd: 'undo' }));
  $('stop').addEventListener('click', () => send({ cmd: 'stop' }));
  $('restart').addEventListener('click', () => send({ cmd: 'restart' }));
  $('first').addEventListener('click', () => step('Home'));
  $('prev').addEventListener('click', () => step('ArrowLeft'));
  $('next').addEventListener('click', () => step('ArrowRight'));
  $('last').addEventListener('click', () => step('End'));
  wireLayout(step);
  wireShortcuts(step);
  wireLooks(prefs, savePrefs);
  $('promote').addEventListener('click', () => send({ cmd: 'promote', node: state.node }));
  $('delete').addEventListener('click', () => send({ cmd: 'delete', node: state.node }));
  $('newgame').addEventListener('click', () => {
    // On a phone the button is below the boards: show the new game's boards.
    if (document.body.classList.contains('narrow')) window.scrollTo(0, 0);
    return newGame();
  });
  $('rematch').addEventListener('click', async () => {
    $('color').value = $('color').value === 'white' ? 'black' : 'white';
    await send(settings());
    await newGame();
  });
  $('analyse').addEventListener('click', () => {
    $('mode').value = 'analysis';
    showSettingsFor();
    send(settings());
  });
  for (const id of ['mode', 'color', 'limit', 'base', 'inc', 'movetime', 'depth', 'skill', 'elo', 'multipv', 'engineWhite', 'engineBlack']) {
    $(id).addEventListener('change', () => {
      showSettingsFor();
      send(settings());
      // A menu gives the keys back to the boards once chosen.
      if ($(id).tagName === 'SELECT') $('boards').focus({ preventScroll: true });
    });
  }
  for (const id of ['variant', 'enpassant']) {
    $(id).addEventListener('change', () => $('boards').focus({ preventScroll: true }));
  }
  $('showengine').addEventListener('change', () => send({ cmd: 'showEngine', on: $('showengine').checked }));
  $('movebox').addEventListener('keydown', async (e) => {
    if (e.key !== 'Enter') return;
    const text = $('movebox').value.trim();
    if (!text) return;
    const r = await send({ cmd: 'move', san: text });
    if (r.ok) $('movebox').value = '';
  });
  $('loadfen').addEventListener('click', () => send({ cmd: 'fen', fen: $('fen').value }));
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') send({ cmd: 'fen', fen: $('fen').value }); });
  wirePgnFiles(send, notice);
  $('exportpgn').addEventListener('click', async () => {
    try {
      $('pgn').value = await fetchPgn(link);
    } catch (e) {
      notice(`cannot export: ${e.message}`);
    }
  });
  $('savepgn').addEventListener('click', async () => {
    try {
      const text = await fetchPgn(link);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
      a.download = 'alice.pgn';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      notice(`cannot save: ${e.message}`);
    }
  });
  $('theme').addEventListener('click', () => {
    prefs.theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    savePrefs(prefs);
    applyTheme();
  });
  $('sound').checked = !!prefs.sound;
  $('sound').addEventListener('change', () => {
    prefs.sound = $('sound').checked;
    savePrefs(prefs);
  });
  // ← → Home End step through the game wherever the focus is, text fields aside (a focused
  // menu does not change its value).
  window.addEventListener('keydown', (e) => {
    if (!state || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t.closest && t.closest('textarea, input:not([type=checkbox]), [contenteditable]')) return;
    if (!$('chooser').hidden) return;
    e.preventDefault();
    e.stopPropagation();
    step(e.key);
  }, true);
  window.addEventListener('resize', fitCells);
  // A tap on the reason dismisses it (on a phone it lies over the last move and the strip).
  $('notice').addEventListener('click', () => notice(''));
  window.addEventListener('hashchange', openLinkedPosition);
  $('comment').addEventListener('change', saveComment);
  $('abort').addEventListener('click', () => send({ cmd: 'abort' }));
  $('offerdraw').addEventListener('click', () => send({ cmd: 'offerDraw' }));
  $('resign').addEventListener('click', () => {
    $('confirm').hidden = false;
    $('confirm-yes').focus();
  });
  $('confirm-no').addEventListener('click', () => { $('confirm').hidden = true; });
  $('confirm-yes').addEventListener('click', () => {
    $('confirm').hidden = true;
    send({ cmd: 'resign' });
  });
  for (const b of document.querySelectorAll('#marks button')) {
    b.addEventListener('click', () => {
      if (!state || state.node === 0) return;
      const nag = Number(b.dataset.nag);
      const on = (shownNode(state)?.nags || []).includes(nag);
      send({ cmd: 'mark', node: state.node, nag: on ? null : nag });
    });
  }
  $('comment').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      saveComment();
    }
  });
  window.addEventListener('pagehide', () => {
    link.closed = true;
    closeSession(link);
  });
  // Back to a page kept by the browser: its session was closed on leaving, so a new one is
  // opened with the kept game.
  window.addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    link.closed = false;
    link.sid = '';
    reconnect();
  });
  setInterval(() => { if (state) renderPlayers($('player-top'), $('player-bottom'), state, receivedAt, boards.reversed); }, 100);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
}

/** A new game with the setup's rules; once it has begun the setup folds away. */
async function newGame() {
  const n = $('number960').value;
  const r = await send({
    cmd: 'new',
    variant: $('variant').value,
    chess960: $('chess960').checked,
    enPassant: $('enpassant').value,
    number: n === '' ? undefined : Number(n),
  });
  if (r.ok) foldSetup(true);
  return r;
}

/** Opens a session: this tab's own again when the server still has it (a reload), else a new
 * one with the kept game put back into it. `fresh`: never the old one (another tab holds it). */
async function openFresh(fresh = false) {
  const { sid, rejoined, state: first } = await openSession(fresh);
  link.sid = sid;
  link.version = 0;
  state = null;
  holdSid(sid);
  const kept = loadGame();
  if (rejoined) {
    fillSettings(kept?.settings);
    show(first);
  } else if (kept) {
    fillSettings(kept.settings);
    restoring = true;
    show(first);
    const r = await send({ cmd: 'restore', pgn: kept.pgn, path: kept.path, settings: kept.settings, showEngine: kept.showEngine });
    restoring = false;
    if (!r.ok) notice(`The kept game could not be restored (${r.error}); a new game is shown.`);
    if (r.state) saveGame(r.state, settings());
  } else {
    show(first);
  }
}

/** The server no longer has this tab's session (it restarted, or the tab was idle too long):
 * a new one is opened with the kept game. */
async function reconnect() {
  for (;;) {
    if (link.closed) return;
    try {
      await openFresh();
      pollLoop(link);
      return;
    } catch (e) {
      notice(`Lost contact with the server (${e.message}); retrying…`);
      await new Promise((ok) => setTimeout(ok, 2000));
    }
  }
}

async function start() {
  applyTheme();
  wire();
  showSettingsFor();
  try {
    const old = savedSession();
    await openFresh(!!old && (await sidTaken(old)));
    pollLoop(link);
    await openLinkedPosition();
  } catch (e) {
    $('status-text').textContent = `Cannot open a game: ${e.message}`;
  }
}

start();
