// The page: connects to the server, draws every state it sends, and turns the person's
// actions (moves, navigation, settings, FEN and PGN) into commands.

import { openSession, pollLoop, command, fetchPgn, closeSession } from './api.js';
import { Boards, pieceElement } from './board.js';
import { renderMoves, renderLines, renderEval, renderClocks } from './panels.js';

const $ = (id) => document.getElementById(id);
const link = { sid: '', version: 0, onState: show, onError: notice };
let state = null;
let receivedAt = 0;
let noticeTimer = 0;

const boards = new Boards($('boards'), { onMove: chooseAndPlay, onReject: notice });

function notice(text) {
  $('notice').textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { $('notice').textContent = ''; }, 6000);
}

function show(s) {
  if (state && s.version <= state.version) return;
  const previous = state;
  state = s;
  link.version = s.version;
  receivedAt = performance.now();
  boards.render(s);
  fitCells();
  $('status').textContent = s.status;
  $('status').classList.toggle('over', !!s.result);
  renderMoves($('moves'), s, (ply) => send({ cmd: 'goto', ply }));
  renderLines($('lines'), s, playLine);
  renderEval($('evalbar'), $('evaltext'), s);
  renderClocks($('clock-white'), $('clock-black'), s, receivedAt);
  if (document.activeElement !== $('fen')) $('fen').value = s.fen;
  $('restart').hidden = !s.engines.some((e) => e.failed);
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
  if (!previous || previous.mode !== s.mode) $('mode').value = s.mode;
  $('engine-names').textContent = s.engines
    .filter((e) => e.name)
    .map((e) => `${e.name}${e.failed ? ' (failed)' : e.ready ? '' : ' (starting)'}`)
    .filter((v, i, a) => a.indexOf(v) === i)
    .join(', ');
  document.body.dataset.mode = s.mode;
}

function fillSelect(sel, values, current, labels) {
  const key = values.join('|');
  if (sel.dataset.key !== key) {
    const keep = sel.value;
    sel.replaceChildren(...values.map((v, i) => new Option(labels ? labels[i] : v, v)));
    sel.dataset.key = key;
    if (values.includes(keep)) sel.value = keep;
  }
  if (current !== null && current !== undefined) sel.value = current;
}

/** Commands reach the server one at a time, in the order they were given (two quick
 * settings changes must not arrive the other way round). */
let queue = Promise.resolve();
function send(cmd) {
  const result = queue.then(async () => {
    const r = await command(link, cmd);
    if (r.state) show(r.state);
    if (!r.ok) notice(r.error || 'refused');
    return r;
  });
  queue = result.catch(() => {});
  return result;
}

async function chooseAndPlay(moves) {
  let move = moves[0];
  if (moves.length > 1) move = await choose(moves);
  if (!move) return;
  performance.mark('move-sent');
  await send({ cmd: 'move', uci: move.uci });
  performance.mark('move-shown');
}

/** The promotion (or landing board) chooser; resolves to a move or null. */
function choose(moves) {
  return new Promise((done) => {
    const box = $('chooser');
    box.replaceChildren();
    const color = state.turn === 'white' ? 'w' : 'b';
    for (const m of moves) {
      const b = document.createElement('button');
      b.dataset.uci = m.uci;
      if (m.promo) {
        b.appendChild(pieceElement(`${color}${m.promo}`));
      } else {
        b.textContent = m.san;
      }
      b.title = m.san;
      b.addEventListener('click', () => { box.hidden = true; done(m); });
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.textContent = '✕';
    cancel.title = 'cancel';
    cancel.addEventListener('click', () => { box.hidden = true; done(null); });
    box.appendChild(cancel);
    box.hidden = false;
  });
}

async function playLine(ucis) {
  for (const uci of ucis) {
    const r = await send({ cmd: 'move', uci });
    if (!r.ok) break;
  }
}

function settings() {
  const num = (id) => ($(id).value === '' ? null : Number($(id).value));
  return {
    cmd: 'settings',
    mode: $('mode').value,
    color: $('color').value,
    limit: $('limit').value,
    base: Math.round((num('base') ?? 3) * 60000),
    inc: Math.round((num('inc') ?? 0) * 1000),
    movetime: num('movetime'),
    depth: num('depth'),
    skill: num('skill'),
    elo: num('elo'),
    multipv: Number($('multipv').value),
    engineWhite: Number($('engineWhite').value || 0),
    engineBlack: Number($('engineBlack').value || 0),
  };
}

function goto(ply) {
  if (!state) return;
  const n = Math.max(0, Math.min(state.moves.length, ply));
  if (n !== state.cursor) send({ cmd: 'goto', ply: n });
}

/** Sizes the cells so that all boards and the side panel fit the window. */
function fitCells() {
  if (!state) return;
  const columns = state.files * state.boards + (state.boards - 1) * 0.7 + 1;
  const aside = window.innerWidth > 900 ? 380 : 0;
  const byWidth = (window.innerWidth - aside - 48) / columns;
  const byHeight = (window.innerHeight - 190) / 8.6;
  const cell = Math.max(24, Math.min(84, Math.floor(Math.min(byWidth, byHeight))));
  document.documentElement.style.setProperty('--cell', `${cell}px`);
}

function wire() {
  $('flip').addEventListener('click', () => boards.flip());
  $('undo').addEventListener('click', () => send({ cmd: 'undo' }));
  $('stop').addEventListener('click', () => send({ cmd: 'stop' }));
  $('restart').addEventListener('click', () => send({ cmd: 'restart' }));
  $('first').addEventListener('click', () => goto(0));
  $('prev').addEventListener('click', () => goto(state.cursor - 1));
  $('next').addEventListener('click', () => goto(state.cursor + 1));
  $('last').addEventListener('click', () => goto(state.moves.length));
  $('newgame').addEventListener('click', () => {
    const n = $('number960').value;
    send({
      cmd: 'new',
      variant: $('variant').value,
      chess960: $('chess960').checked,
      enPassant: $('enpassant').value,
      number: n === '' ? undefined : Number(n),
    });
  });
  for (const id of ['mode', 'color', 'limit', 'base', 'inc', 'movetime', 'depth', 'skill', 'elo', 'multipv', 'engineWhite', 'engineBlack']) {
    $(id).addEventListener('change', () => send(settings()));
  }
  $('loadfen').addEventListener('click', () => send({ cmd: 'fen', fen: $('fen').value }));
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') send({ cmd: 'fen', fen: $('fen').value }); });
  $('importpgn').addEventListener('click', () => send({ cmd: 'pgn', text: $('pgn').value }));
  $('exportpgn').addEventListener('click', async () => {
    try {
      const text = await fetchPgn(link);
      $('pgn').value = text;
      const a = $('savepgn');
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
      a.hidden = false;
    } catch (e) {
      notice(`cannot export: ${e.message}`);
    }
  });
  document.addEventListener('keydown', (e) => {
    if (!state || e.target.closest('input, textarea, select')) return;
    const keys = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length };
    if (e.key in keys) {
      e.preventDefault();
      goto(keys[e.key]);
    }
  });
  window.addEventListener('resize', fitCells);
  window.addEventListener('pagehide', () => closeSession(link));
  setInterval(() => { if (state) renderClocks($('clock-white'), $('clock-black'), state, receivedAt); }, 100);
}

async function start() {
  wire();
  try {
    const { sid, state: first } = await openSession();
    link.sid = sid;
    show(first);
    pollLoop(link);
  } catch (e) {
    $('status').textContent = `Cannot open a game: ${e.message}`;
  }
}

start();
