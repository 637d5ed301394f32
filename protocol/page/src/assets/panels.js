// The panels beside the boards: the move tree, analysis lines, evaluation bar, players and
// clocks, drawn from the server's state. Clicking a move shows that position; clicking a move
// of an analysis line plays the line up to it.

import { readComment } from './drawings.js';

/** Makes `node` act on a click and, once focused with Tab, on Enter or Space (a control that
 * is not a button is keyboard-reachable too). `key` names it among its panel's controls, so
 * that the focus comes back to it when the panel is redrawn (see app.js `keepFocus`). */
export function actOn(node, fn, key) {
  node.tabIndex = 0;
  if (key) node.dataset.key = key;
  node.setAttribute('role', 'button');
  node.addEventListener('click', fn);
  node.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    fn();
  });
}

/** Fills the move list (`#moves`) with the whole tree, as on lichess: the main line's moves
 * (class `move`), each variation in parentheses after the move it replaces (its moves have the
 * classes `move variation`), comments in braces, the shown move highlighted. */
export function renderMoves(el, state, onGoto) {
  el.replaceChildren();
  const byId = new Map(state.nodes.map((n) => [n.id, n]));
  const root = byId.get(0);
  // Whose move a node's move was, and its move number, from the start position and its ply.
  const numberOf = (node) => {
    const half = node.ply - 1 + (state.startBlack ? 1 : 0);
    return { number: state.startMove + Math.floor(half / 2), black: half % 2 === 1 };
  };
  const moveSpan = (node, variation, forceNumber, parentEl) => {
    const { number, black } = numberOf(node);
    // Spaces between the spans let the lines break there.
    if (!black) parentEl.append(span('num', `${number}.`), ' ');
    else if (forceNumber) parentEl.append(span('num', `${number}…`), ' ');
    const s = span(variation ? 'move variation' : 'move', node.san);
    const mark = markText(node.nags);
    if (mark) s.append(span('nag', mark));
    s.dataset.ply = String(node.ply);
    s.dataset.node = String(node.id);
    if (node.id === state.node) s.classList.add('current');
    actOn(s, () => onGoto(node.id), `move:${node.id}`);
    parentEl.append(s, ' ');
    // The mover's clock after the move, from the PGN's [%clk].
    if (node.clock) parentEl.append(span('clk', node.clock), ' ');
    const text = readComment(node.comment).text;
    if (text) parentEl.append(span('comment', text), ' ');
  };
  // Writes the line after `node` into parentEl; variations nest in their own elements.
  const line = (node, variation, forceNumber, parentEl) => {
    let at = node;
    let force = forceNumber;
    while (at.children.length) {
      const main = byId.get(at.children[0]);
      moveSpan(main, variation, force, parentEl);
      for (const id of at.children.slice(1)) {
        const v = document.createElement('span');
        v.className = 'var';
        const child = byId.get(id);
        moveSpan(child, true, true, v);
        line(child, true, !!child.comment, v);
        parentEl.append(v, ' ');
      }
      force = at.children.length > 1 || !!main.comment;
      at = main;
    }
  };
  const rootText = readComment(root.comment).text;
  if (rootText) el.appendChild(span('comment', rootText));
  line(root, false, true, el);
  if (state.gameResult !== '*') el.appendChild(span('result', state.gameResult));
  const current = el.querySelector('.current');
  if (current) {
    const box = el.getBoundingClientRect();
    const r = current.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) el.scrollTop += r.top - box.top - box.height / 2;
  }
}

/** The move marks by NAG, as PGN numbers them. */
export const MARKS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/** The mark of a move's NAGs (its first NAG from 1 to 6), or ''. */
export function markText(nags) {
  const n = (nags || []).find((g) => g >= 1 && g <= 6);
  return n ? MARKS[n] : '';
}

/** "1.2M", "850k". */
function count(n) {
  if (n === null || n === undefined) return '';
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

/** Fills the analysis lines (`#lines`): the tablebase verdict first when the engine gave one
 * ("Tablebase: mate in 12", class `tablebase`), then the lines; `onPlay(ucis)` plays a line's
 * moves. */
export function renderLines(el, state, onPlay) {
  el.replaceChildren();
  if (state.engineHidden) return;
  if (state.tablebase) {
    const tb = document.createElement('div');
    tb.className = 'tablebase';
    tb.textContent = `Tablebase${state.tablebase.slice('tablebase'.length)}`;
    el.appendChild(tb);
  }
  const fields = state.fen.split(' ');
  const startNumber = Number(fields[5]) || 1;
  const first = state.lines[0];
  if (first) {
    const info = document.createElement('div');
    info.className = 'search-info';
    const parts = [`depth ${first.depth}`];
    if (first.nodes) parts.push(`${count(first.nodes)} nodes`);
    if (first.nps) parts.push(`${count(first.nps)} nodes/s`);
    info.textContent = parts.join(' · ');
    el.appendChild(info);
  }
  state.lines.forEach((line, index) => {
    const row = document.createElement('div');
    row.className = 'line';
    row.dataset.depth = String(line.depth);
    row.appendChild(span('score', line.score ?? ''));
    row.appendChild(span('depth', `d${line.depth}`));
    let number = startNumber;
    let black = state.turn === 'black';
    line.pv.forEach((m, i) => {
      if (!black) row.appendChild(span('num', `${number}.`));
      else if (i === 0) row.appendChild(span('num', `${number}…`));
      const s = span('pv-move', m.san);
      s.title = 'play the line up to this move';
      actOn(s, () => onPlay(line.pv.slice(0, i + 1).map((x) => x.uci)), `pv:${index}:${i}`);
      row.appendChild(s);
      if (black) number += 1;
      black = !black;
    });
    el.appendChild(row);
  });
}

/** Sets the evaluation bar from the first line (White's share of the bar). */
export function renderEval(bar, label, state) {
  const first = state.engineHidden ? null : state.lines[0];
  bar.classList.toggle('idle', !first);
  if (!first || first.cp === null || first.cp === undefined) {
    bar.style.setProperty('--white', '50%');
    label.textContent = '';
    return;
  }
  const share = 100 / (1 + Math.exp(-first.cp / 250));
  bar.style.setProperty('--white', `${share.toFixed(1)}%`);
  label.textContent = first.score;
}

/** The player bars: each side's name and clock beside its side of the boards (Black above
 * unless the boards are turned round). `state.clocks` as received at `receivedAt`. */
export function renderPlayers(top, bottom, state, receivedAt, reversed) {
  const c = state.clocks;
  const sides = reversed ? ['white', 'black'] : ['black', 'white'];
  [top, bottom].forEach((el, i) => {
    const side = sides[i];
    el.dataset.side = side;
    const name = el.querySelector('.name');
    name.textContent = state.players[side === 'white' ? 0 : 1];
    // A name too long for the bar is cut with an ellipsis: the whole of it on hover.
    name.title = name.textContent;
    const clock = el.querySelector('.clock');
    clock.id = `clock-${side}`;
    // A game read from PGN with [%clk] comments: each side's time after its latest move.
    const pgnClock = !c && state.pgnClocks ? state.pgnClocks[side === 'white' ? 0 : 1] : null;
    clock.hidden = !c && !pgnClock;
    el.classList.toggle('to-move', state.turn === side && !state.result);
    clock.classList.toggle('from-pgn', !!pgnClock);
    if (pgnClock) {
      clock.textContent = pgnClock;
      clock.classList.remove('running');
      return;
    }
    if (!c) return;
    const running = c.running && !state.result && c.turn === side;
    const elapsed = running ? performance.now() - receivedAt : 0;
    const ms = c[side] - elapsed;
    clock.textContent = clockText(ms);
    clock.classList.toggle('running', running);
    clock.dataset.ms = String(Math.round(ms));
  });
}

function clockText(ms) {
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  const m = Math.floor(s / 60);
  const tenths = t < 10000 ? `.${Math.floor((t % 1000) / 100)}` : '';
  return `${m}:${String(s % 60).padStart(2, '0')}${tenths}`;
}

function span(cls, text) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}
