// Arrows and circles the person draws on the boards (right button, or a long press on touch),
// kept in the shown move's comment in lichess's form — `[%cal Ge2e4,Rd1h5]`, `[%csl Ye4]` —
// so that they travel with the game in PGN. A colour letter (G green, R red, Y yellow, B
// blue) comes first; a shape on board B (or C) ends in `/B` (`/C`); board A's shapes are
// written exactly as lichess writes them.

const COLOURS = ['G', 'R', 'Y', 'B'];
const SQUARE = '[a-h][1-8]';
const ARROW = new RegExp(`^([GRYB])(${SQUARE})(${SQUARE})(?:/([ABC]))?$`);
const CIRCLE = new RegExp(`^([GRYB])(${SQUARE})(?:/([ABC]))?$`);
const COMMAND = /\[%(cal|csl)\s+([^\]]*)\]/g;

/** The colour a right-button drawing gets from the modifier keys, as on lichess: none green,
 * Shift red, Alt (or Ctrl) blue, both yellow. */
export function colourOf(e) {
  const alt = e.altKey || e.ctrlKey || e.metaKey;
  if (e.shiftKey && alt) return 'Y';
  if (e.shiftKey) return 'R';
  if (alt) return 'B';
  return 'G';
}

/** Splits a comment into its text (the commands removed) and its shapes:
 * `{text, shapes: [{colour, board, from, to?}]}` (`to` only for an arrow). */
export function readComment(comment) {
  const shapes = [];
  const text = (comment || '')
    .replace(COMMAND, (_, kind, list) => {
      for (const token of list.split(',').map((t) => t.trim()).filter(Boolean)) {
        const m = (kind === 'cal' ? ARROW : CIRCLE).exec(token);
        if (!m) continue;
        if (kind === 'cal') shapes.push({ colour: m[1], from: m[2], to: m[3], board: m[4] || 'A' });
        else shapes.push({ colour: m[1], from: m[2], board: m[3] || 'A' });
      }
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return { text, shapes };
}

/** The comment for `text` and `shapes`: the text, then `[%csl …]` and `[%cal …]`. */
export function writeComment(text, shapes) {
  const token = (s) => `${s.colour}${s.from}${s.to || ''}${s.board === 'A' ? '' : `/${s.board}`}`;
  const circles = shapes.filter((s) => !s.to).map(token);
  const arrows = shapes.filter((s) => s.to).map(token);
  const parts = [];
  if (text) parts.push(text);
  if (circles.length) parts.push(`[%csl ${circles.join(',')}]`);
  if (arrows.length) parts.push(`[%cal ${arrows.join(',')}]`);
  return parts.join(' ');
}

/** `shapes` with `shape` added, or removed when the same shape is there (another colour of
 * the same shape replaces it), as on lichess. */
export function toggleShape(shapes, shape) {
  const same = (s) => s.board === shape.board && s.from === shape.from && (s.to || '') === (shape.to || '');
  const old = shapes.find(same);
  const rest = shapes.filter((s) => !same(s));
  return old && old.colour === shape.colour ? rest : [...rest, shape];
}

/** Draws `shapes` over the boards in `root` (`cells`: "A:e4" -> cell element). */
export function drawShapes(root, cells, shapes) {
  root.querySelector('svg.drawings')?.remove();
  if (!shapes.length) return;
  const box = root.getBoundingClientRect();
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('class', 'drawings');
  svg.setAttribute('width', String(box.width));
  svg.setAttribute('height', String(box.height));
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2, r.width];
  };
  for (const s of shapes) {
    const from = cells.get(`${s.board}:${s.from}`);
    const to = s.to && cells.get(`${s.board}:${s.to}`);
    if (!from || (s.to && !to)) continue;
    const colour = `shape-${COLOURS.includes(s.colour) ? s.colour : 'G'}`;
    const [x1, y1, w] = centre(from);
    if (!to) {
      const ring = document.createElementNS(ns, 'circle');
      for (const [k, v] of [['cx', x1], ['cy', y1], ['r', w * 0.44], ['stroke-width', w * 0.07]]) ring.setAttribute(k, String(v));
      ring.setAttribute('class', colour);
      svg.append(ring);
      continue;
    }
    svg.append(...arrowParts(ns, [x1, y1], centre(to), w, colour));
  }
  root.appendChild(svg);
}

/** A shaft and a head from `a` to `b` for cells `w` px wide. */
export function arrowParts(ns, [x1, y1], [x2, y2], w, cls) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const head = w * 0.35;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const line = document.createElementNS(ns, 'line');
  for (const [k, v] of [['x1', x1], ['y1', y1], ['x2', bx], ['y2', by]]) line.setAttribute(k, String(v));
  line.setAttribute('stroke-width', String(w * 0.16));
  const tip = document.createElementNS(ns, 'polygon');
  const px = -uy * head * 0.6;
  const py = ux * head * 0.6;
  tip.setAttribute('points', `${x2},${y2} ${bx + px},${by + py} ${bx - px},${by - py}`);
  for (const el of [line, tip]) el.setAttribute('class', cls);
  return [line, tip];
}
