// The panels beside the boards: move list, analysis lines, evaluation bar and clocks, drawn
// from the server's state. Clicking a move shows that position; clicking a move of an analysis
// line plays the line up to it.

/** Fills the move list (`#moves`): numbered SAN, the shown ply highlighted. */
export function renderMoves(el, state, onGoto) {
  el.replaceChildren();
  let number = state.startMove;
  let black = state.startBlack;
  if (black && state.moves.length) el.appendChild(span('num', `${number}…`));
  state.moves.forEach((m, i) => {
    if (!black) el.appendChild(span('num', `${number}.`));
    const s = span('move', m.san);
    s.dataset.ply = String(i + 1);
    if (i + 1 === state.cursor) s.classList.add('current');
    s.addEventListener('click', () => onGoto(i + 1));
    el.appendChild(s);
    if (black) number += 1;
    black = !black;
  });
  if (state.result) el.appendChild(span('result', state.result.result));
  el.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

/** Fills the analysis lines (`#lines`); `onPlay(ucis)` plays a line's moves. */
export function renderLines(el, state, onPlay) {
  el.replaceChildren();
  const fields = state.fen.split(' ');
  const startNumber = Number(fields[5]) || 1;
  for (const line of state.lines) {
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
      s.addEventListener('click', () => onPlay(line.pv.slice(0, i + 1).map((x) => x.uci)));
      row.appendChild(s);
      if (black) number += 1;
      black = !black;
    });
    el.appendChild(row);
  }
}

/** Sets the evaluation bar from the first line (White's share of the bar). */
export function renderEval(bar, label, state) {
  const first = state.lines[0];
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

/** The clocks: `state.clocks` as received at `receivedAt`, counting down the running side. */
export function renderClocks(whiteEl, blackEl, state, receivedAt) {
  const c = state.clocks;
  for (const el of [whiteEl, blackEl]) el.hidden = !c;
  if (!c) return;
  const elapsed = c.running && !state.result ? performance.now() - receivedAt : 0;
  const w = c.white - (state.turn === 'white' ? elapsed : 0);
  const b = c.black - (state.turn === 'black' ? elapsed : 0);
  whiteEl.textContent = `White ${clockText(w)}`;
  blackEl.textContent = `Black ${clockText(b)}`;
  whiteEl.classList.toggle('running', c.running && state.turn === 'white');
  blackEl.classList.toggle('running', c.running && state.turn === 'black');
  whiteEl.dataset.ms = String(Math.round(w));
  blackEl.dataset.ms = String(Math.round(b));
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
