// The game report: the Review button, the progress of a review running on the server and Export
// review with the moves' tools (`#reviewbar`), then in `#review` the evaluation graph (one point
// per main-line ply; click one to go there; under the boards it takes the free height, drawn at
// its size), both sides' accuracy, the marked moves with the engine's better lines, the marks
// `?!` `?` `??` in the move list, and the annotated PGN for export.

import { actOn } from './panels.js';

const SVG = 'http://www.w3.org/2000/svg';
/** The graph's drawing size where its height follows its width (the side panel, a phone's sheet). */
const GRAPH_W = 600;
const GRAPH_H = 120;

/** The size to draw `g` at: its own box's (in pixels) under the boards, where the page gives it
 * the free height, else the drawing size (scaled to the width). */
function wantedSize(g) {
  const r = g.getBoundingClientRect();
  if (!g.closest('.play') || r.width < 20 || r.height < 20) return [GRAPH_W, GRAPH_H];
  return [Math.round(r.width), Math.round(r.height)];
}

/** Appends the graph drawn by `draw(size)` to `box`, at the size the page gives it there. */
function placeGraph(box, draw) {
  const g = draw([GRAPH_W, GRAPH_H]);
  box.append(g);
  const size = wantedSize(g);
  if (size[0] !== GRAPH_W || size[1] !== GRAPH_H) g.replaceWith(draw(size));
}

/** True when a graph in `box` is drawn at another size than the page now gives it (the window
 * was resized, or the report moved between the panel and the boards' foot). */
export function graphMisfit(box) {
  return [...box.querySelectorAll('svg.eval-graph')].some((g) => g.getAttribute('viewBox') !== `0 0 ${wantedSize(g).join(' ')}`);
}

/** White's winning chances (-1..1) of clamped centipawns, as the review's model has them. */
function chances(cp) {
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** The number of moves on the main line. */
function mainLineLength(state) {
  const byId = new Map(state.nodes.map((n) => [n.id, n]));
  let n = 0;
  for (let at = byId.get(0); at && at.children.length; at = byId.get(at.children[0])) n += 1;
  return n;
}

/** True when the page offers a review: a finished game, or a game that nobody is playing
 * against the engine now (an imported game, two people, analysis). */
function reviewOffered(state) {
  if (mainLineLength(state) === 0) return false;
  return state.gameResult !== '*' || state.mode === 'human' || state.mode === 'analysis';
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The move's text with its number: `8… h5??`. */
function moveLabel(state, m) {
  const half = m.ply - 1 + (state.startBlack ? 1 : 0);
  const number = state.startMove + Math.floor(half / 2);
  return `${number}${half % 2 ? '…' : '.'} ${m.san}${m.mark ?? ''}`;
}

/** The main line's `[%eval]` values read from PGN as graph points (null when none). */
function pgnEvals(state) {
  const byId = new Map(state.nodes.map((n) => [n.id, n]));
  const points = [];
  for (let at = byId.get(0); at && at.children.length;) {
    at = byId.get(at.children[0]);
    if (at && at.evalCp !== undefined && at.evalCp !== null) {
      points.push({ node: at.id, ply: at.ply, san: at.san, cp: Math.max(-1500, Math.min(1500, at.evalCp)), eval: at.eval });
    }
  }
  return points.length ? points : null;
}

/** The evaluation graph: White's winning chances after every ply (mates at the edge), drawn
 * `width` x `height` units large. */
function graph(state, review, onGoto, [width, height] = [GRAPH_W, GRAPH_H]) {
  const moves = review.moves;
  const box = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'eval-graph', role: 'img', preserveAspectRatio: 'none' });
  box.setAttribute('aria-label', 'Evaluation after every move (White above the middle)');
  const step = width / moves.length;
  const x = (i) => (i + 0.5) * step;
  const y = (cp) => height / 2 - chances(cp) * (height / 2 - 6);
  const points = moves.map((m, i) => `${x(i).toFixed(1)},${y(m.cp).toFixed(1)}`);
  const area = [`${x(0).toFixed(1)},${height}`, ...points, `${x(moves.length - 1).toFixed(1)},${height}`];
  box.append(svg('rect', { x: 0, y: 0, width, height, class: 'bg' }));
  box.append(svg('polygon', { points: area.join(' '), class: 'white-area' }));
  box.append(svg('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'mid' }));
  box.append(svg('polyline', { points: points.join(' '), class: 'curve' }));
  moves.forEach((m, i) => {
    if (m.node === state.node) {
      box.append(svg('line', { x1: x(i), y1: 0, x2: x(i), y2: height, class: 'cursor' }));
    }
  });
  moves.forEach((m, i) => {
    const dot = svg('circle', { cx: x(i), cy: y(m.cp), r: m.judgement ? 4.5 : 2.5, class: `pt ${m.judgement ?? ''}` });
    dot.dataset.ply = String(m.ply);
    dot.dataset.node = String(m.node);
    const title = svg('title', {});
    title.textContent = `${moveLabel(state, m)} ${m.eval}`;
    dot.append(title);
    box.append(dot);
  });
  // Wide click targets, one column per ply, over the dots.
  moves.forEach((m, i) => {
    const hit = svg('rect', { x: i * step, y: 0, width: step, height, class: 'hit' });
    hit.addEventListener('click', () => onGoto(m.node));
    const title = svg('title', {});
    title.textContent = `${moveLabel(state, m)} ${m.eval}`;
    hit.append(title);
    box.append(hit);
  });
  return box;
}

/** One side's totals: `White` over `91.2% · ACPL 23 · 1?! 0? 1??`. */
function sideRow(name, side) {
  const row = el('div', 'side');
  const who = el('span', 'who', name);
  who.title = name;
  row.append(who);
  row.append(el('span', 'acc', side.accuracy === null ? '—' : `${side.accuracy.toFixed(1)}%`));
  row.append(el('span', 'acpl', side.acpl === null ? '' : `ACPL ${side.acpl}`));
  const counts = el('span', 'counts');
  counts.append(el('span', 'inaccuracy', `${side.inaccuracies}?!`), ' ');
  counts.append(el('span', 'mistake', `${side.mistakes}?`), ' ');
  counts.append(el('span', 'blunder', `${side.blunders}??`));
  row.append(counts);
  return row;
}

/** The marked moves, each with the engine's better line; the shown one stands out. */
function markedList(state, review, onGoto) {
  const list = el('div', 'marked');
  for (const m of review.moves.filter((mv) => mv.judgement)) {
    const row = el('div', `mistake-row ${m.judgement}`);
    row.dataset.node = String(m.node);
    if (m.node === state.node) row.classList.add('current');
    row.append(el('span', `label ${m.judgement}`, moveLabel(state, m)));
    if (m.best) row.append(el('span', 'best', `${m.best} was best`));
    if (m.line) row.append(el('span', 'pv', m.line));
    actOn(row, () => onGoto(m.node), `row:${m.node}`);
    list.append(row);
  }
  return list;
}

/** Fills `#review` (`box`) and the Review button's row (`bar`); `on` has goto(node), start() and
 * exportPgn(text). */
export function renderReview(box, barBox, state, on) {
  box.replaceChildren();
  barBox.replaceChildren();
  const review = state.review;
  const offered = reviewOffered(state);
  const fromPgn = review ? null : pgnEvals(state);
  if (fromPgn) {
    placeGraph(box, (size) => {
      const g = graph(state, { moves: fromPgn }, on.goto, size);
      g.classList.add('from-pgn');
      g.setAttribute('aria-label', "The PGN's evaluations after every move (White above the middle)");
      return g;
    });
  }
  if (!review && !offered) return;
  const bar = el('div', 'review-bar');
  const running = review && review.state === 'running';
  if (offered || review) {
    const button = el('button', '', review && review.state === 'done' ? 'Review again' : 'Review');
    button.id = 'reviewbtn';
    button.title = `Review the main line: ${review?.nodes ?? 100000} nodes per position`;
    button.disabled = !!running;
    button.addEventListener('click', () => on.start());
    bar.append(button);
  }
  if (running) {
    const progress = el('progress');
    progress.id = 'review-progress';
    progress.max = review.total;
    progress.value = review.done;
    bar.append(progress, el('span', 'review-count', `${review.done}/${review.total}`));
  }
  if (review && review.state === 'done') {
    const exp = el('button', '', 'Export review');
    exp.id = 'exportreview';
    exp.title = 'Put the annotated game in the PGN box';
    exp.addEventListener('click', () => on.exportPgn(review.pgn));
    bar.append(exp);
  }
  barBox.append(bar);
  if (!review) return;
  if (review.state === 'failed') {
    box.append(el('div', 'review-error', review.message));
    return;
  }
  if (review.state !== 'done') return;
  placeGraph(box, (size) => graph(state, review, on.goto, size));
  const sides = el('div', 'review-sides');
  sides.append(sideRow(state.players[0] || 'White', review.white), sideRow(state.players[1] || 'Black', review.black));
  box.append(sides);
  box.append(markedList(state, review, on.goto));
}

/** Adds the review's marks to the move list's main-line moves. */
export function markMoves(movesEl, state) {
  const review = state.review;
  if (!review || review.state !== 'done') return;
  for (const m of review.moves) {
    if (!m.mark) continue;
    const span = movesEl.querySelector(`.move[data-node="${m.node}"]`);
    if (!span) continue;
    const mark = el('span', `mark ${m.judgement}`, m.mark);
    mark.title = m.best ? `${m.judgement}: ${m.best} was best` : m.judgement;
    span.append(mark);
  }
}
