// The phone layout, as on lichess mobile: upright (below 760 px wide) the boards, the players'
// bars, the status, the last move, a horizontal strip of the moves (#moves, variations in
// parentheses) and the engine's best line stay on the screen; the bottom bar (.nav: the page's
// one set of « ◀ ▶ » and the menu ☰) is fixed at the bottom; the menu opens a sheet with tabs
// (#sheet-tabs): the full move list with its tools, the engine's lines, the review, the setup,
// and FEN and PGN, each one tap away; closed, those parts are not on the page at all, so the
// page itself never scrolls (the open sheet scrolls inside). A swipe on the boards' area steps
// one ply: to the right back, to the left forward (a touch that starts on a piece stays a
// move). The setup folds away by itself once a game has begun (New game in any mode, a first
// move between people, the first move of a game against the engine or between engines), and
// its fold is remembered.

const $ = (id) => document.getElementById(id);

/** The sheet's tabs, each with the panel's parts it shows. */
const TABS = {
  moves: ['moves', 'tree-tools', 'marks', 'comment'],
  engine: ['lines'],
  review: ['reviewbar', 'review'],
  setup: ['setup', 'looks'],
  pgn: ['notation'],
};

/** The parts that leave the panel on a phone (the strip and the best line under the boards);
 * the sheet's tab takes its own back while it is open. */
const MOVED = ['lines', 'moves'];

/** Marks each part of the panel with its tab. */
function tagParts() {
  for (const [tab, ids] of Object.entries(TABS)) {
    for (const id of ids) {
      const el = $(id) || document.querySelector(`aside > .${id}`);
      if (el) el.dataset.tab = tab;
    }
  }
}

/** Opens the sheet at `tab` (or closes it: null). */
export function openSheet(tab) {
  const body = document.body;
  const open = !!tab;
  body.classList.toggle('sheet-open', open);
  $('menu').setAttribute('aria-expanded', String(open));
  if (open) body.dataset.sheet = tab;
  for (const b of document.querySelectorAll('#sheet-tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
  if (!body.classList.contains('narrow')) return;
  // The open tab's part goes into the sheet, after the tabs; closed, back under the boards.
  const aside = document.querySelector('aside');
  const play = document.querySelector('.play');
  for (const id of MOVED) {
    const el = $(id);
    if (open && el.dataset.tab === tab) {
      if (el.parentElement !== aside) aside.insertBefore(el, $('sheet-tabs').nextSibling);
    } else if (el.parentElement !== play) {
      play.append(el);
    }
  }
}

/** Puts the strip parts and the bottom bar under the boards (narrow) or back into the panel. */
export function placeParts(narrow) {
  const play = document.querySelector('.play');
  const aside = document.querySelector('aside');
  const nav = document.querySelector('.nav');
  if (narrow && nav.parentElement !== document.body) {
    for (const id of MOVED) {
      const el = $(id);
      el.dataset.home = 'aside';
      play.append(el);
    }
    document.body.append(nav);
  } else if (!narrow && nav.parentElement === document.body) {
    // Back in their desktop order: the nav, the moves, ..., the lines after the review.
    const tools = aside.querySelector('.tree-tools');
    aside.insertBefore(nav, $('moves').parentElement === aside ? $('moves') : tools);
    aside.insertBefore($('moves'), tools);
    aside.insertBefore($('lines'), $('notation'));
    document.body.classList.remove('sheet-open');
    $('menu').setAttribute('aria-expanded', 'false');
  }
}

/** On a desktop or laptop (1000x650 and more) the report goes under the boards, where the
 * free height is; elsewhere (a phone, a small window) it stays in the panel after the moves'
 * tools. */
export function placeReview(w, h) {
  const review = $('review');
  const play = document.querySelector('.play');
  const below = w >= 1000 && h >= 650;
  document.body.classList.toggle('review-below', below);
  if (below && review.parentElement !== play) play.append(review);
  if (!below && review.parentElement === play) document.querySelector('aside').insertBefore(review, $('notation'));
}

/** Keeps the shown move in the middle of the horizontal strip. */
export function centreStrip() {
  const strip = $('moves');
  if (!document.body.classList.contains('narrow')) return;
  const current = strip.querySelector('.current');
  if (!current) {
    strip.scrollLeft = 0;
    return;
  }
  strip.scrollLeft = current.offsetLeft - strip.offsetLeft - strip.clientWidth / 2 + current.offsetWidth / 2;
}

/** The setup's fold, remembered across visits (folded, the panel's moves get its height). */
const SETUP_KEY = 'vorpal-gui-setup-open';

/** Folds the setup away (lichess shows no setup during a game): the fold is remembered, the
 * summary opens it again, and the FEN and PGN fields stay where they are. `closeSheet`: on a
 * phone an open sheet closes too, so that the new game's boards are seen. */
export function foldSetup(closeSheet) {
  if ($('setup').open) $('setup').open = false;
  if (closeSheet && document.body.classList.contains('sheet-open')) openSheet(null);
}

/** Folds the setup away when a game has just begun: against the engine (or between engines)
 * its first move is in `s` and was not in `previous`; between two people the first move was
 * just played (a PGN read in, many moves at once, is no game beginning). New game folds it
 * too (app.js). */
export function foldSetupOnStart(previous, s) {
  if (!previous || (previous.moves?.length ?? 0) !== 0) return;
  const begun = s.mode === 'human' ? s.moves?.length === 1 : (s.mode === 'play' || s.mode === 'watch') && s.moves?.length > 0;
  if (begun) foldSetup(false);
}

function rememberSetupFold() {
  const setup = $('setup');
  try {
    if (localStorage.getItem(SETUP_KEY) === 'false') setup.open = false;
  } catch { /* storage off: open */ }
  const keep = () => {
    try { localStorage.setItem(SETUP_KEY, String(setup.open)); } catch { /* not kept */ }
  };
  setup.addEventListener('toggle', keep);
  // The toggle event comes a task after the click: a page left at once keeps the state too.
  window.addEventListener('pagehide', keep);
}

/** Wires the menu button and the swipe; `step(key)` moves through the game as the keys do. */
export function wireLayout(step) {
  rememberSetupFold();
  tagParts();
  $('menu').addEventListener('click', () => {
    openSheet(document.body.classList.contains('sheet-open') ? null : document.body.dataset.sheet || 'moves');
  });
  for (const b of document.querySelectorAll('#sheet-tabs button')) {
    b.addEventListener('click', () => openSheet(b.dataset.tab));
  }
  const area = $('boards');
  let start = null;
  area.addEventListener('touchstart', (e) => {
    const t = e.touches[0];
    const cell = e.target.closest?.('[data-square]');
    const onPiece = cell && cell.querySelector('.piece');
    start = e.touches.length === 1 && !onPiece ? { x: t.clientX, y: t.clientY } : null;
  }, { passive: true });
  area.addEventListener('touchend', (e) => {
    // A finger leaves no hover behind: the twins' outlines go with it.
    if (e.touches.length === 0) for (const c of area.querySelectorAll('.cell.twin')) c.classList.remove('twin');
    if (!start) return;
    const t = e.changedTouches[0];
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    start = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 2 * Math.abs(dy)) return;
    step(dx > 0 ? 'ArrowLeft' : 'ArrowRight');
  }, { passive: true });
  area.addEventListener('touchcancel', () => { start = null; }, { passive: true });
}

/** lichess's keys, wherever the focus is but in a text field, a menu or a button: `f` turns the
 * boards round, ↑ goes to the start and ↓ to the end of the line, space switches the engine's
 * analysis off (Stop engines) and on again (analysis mode). */
export function wireShortcuts(step) {
  window.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (!['f', 'ArrowUp', 'ArrowDown', ' '].includes(e.key)) return;
    const t = e.target;
    if (t.closest && t.closest('textarea, input, select, button, [contenteditable], [role=button]')) return;
    if (!$('chooser').hidden) return;
    e.preventDefault();
    if (e.key === 'f') $('flip').click();
    else if (e.key === 'ArrowUp') step('Home');
    else if (e.key === 'ArrowDown') step('End');
    else if ($('mode').value === 'analysis') $('stop').click();
    else {
      $('mode').value = 'analysis';
      $('mode').dispatchEvent(new Event('change'));
    }
  });
}
