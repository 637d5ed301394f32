// The boards: two (or three) grids of cells side by side, A left, drawn from the server's
// state. Input: click-click and drag-and-drop. A picked-up piece marks its landing cells on
// the other board (captures marked differently); a drop that is no legal move snaps back with
// a short reason. The landing squares come from the server's legal move list, never from rules
// known here. The right button (a long press on touch) draws arrows and circles.

import { PIECES } from './pieces.js';
import { arrowParts, colourOf, drawShapes } from './drawings.js';
import { Premoves } from './premove.js';

/** How long a touch must rest on a cell to start a drawing. */
const LONG_PRESS_MS = 550;

const LETTERS = ['A', 'B', 'C'];
const FILES = 'abcdefgh';

export class Boards {
  /**
   * @param {HTMLElement} root the container of the boards
   * @param {{onMove: (moves: any[]) => void, onReject: (why: {label: string, why: string}) => void,
   *   onNoMove: (text: string) => void, onDraw: (shape: object) => void,
   *   onPromotion: (colour: string) => Promise<string|null>}} hooks
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.layout = '';
    this.flipped = false; // the person's Flip
    this.blackView = false; // the person plays Black: the boards turn round
    this.arrows = []; // the engine's best moves, the first line's first
    this.shapes = []; // the person's arrows and circles on the shown move
    this.drawing = null; // {board, square, colour, touch}: a drawing begun
    this.press = null; // a touch waiting to become a long press
    this.state = null;
    this.selected = null; // {board, square}
    this.drag = null;
    this.cells = new Map(); // "A:e4" -> cell element
    this.premoves = new Premoves(this); // see premove.js
    root.addEventListener('pointerdown', (e) => this.pointerDown(e));
    root.addEventListener('contextmenu', (e) => e.preventDefault());
    window.addEventListener('pointermove', (e) => this.pointerMove(e));
    window.addEventListener('pointerup', (e) => this.pointerUp(e));
    root.addEventListener('keydown', (e) => {
      const cell = e.target.closest && e.target.closest('.cell');
      if (cell && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        this.activate(cell);
      } else if (cell && e.key.toLowerCase() === 'd' && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        this.keyDraw(cell, e);
      } else if (e.key === 'Escape' && this.drawing) {
        this.finishDrawing(null);
      }
    });
    root.addEventListener('focusin', (e) => this.hoverTwin(e, true));
    root.addEventListener('focusout', (e) => this.hoverTwin(e, false));
    root.addEventListener('pointerover', (e) => this.hoverTwin(e, true));
    root.addEventListener('pointerout', (e) => this.hoverTwin(e, false));
  }

  /** Turns the boards round (the person's Flip, on top of the side they play). */
  flip() {
    this.flipped = !this.flipped;
    this.layout = '';
    if (this.state) this.render(this.state);
  }

  /** True when Black is drawn at the bottom. */
  get reversed() {
    return this.flipped !== this.blackView;
  }

  /** Sets whether the person plays Black (the boards then show Black at the bottom). */
  setBlackView(on) {
    if (on === this.blackView) return;
    this.blackView = on;
    this.layout = '';
    if (this.state) this.render(this.state);
  }

  /** Keyboard: Enter on a focused cell acts as a click. */
  activate(cell) {
    const here = { board: cell.dataset.board, square: cell.dataset.square };
    if (this.selected && this.movesTo(cell).length) {
      this.tryMove(cell);
    } else if (this.movesFrom(here).length) {
      this.selected = here;
      this.markSelection();
    } else if (this.selected) {
      const why = this.reason(cell);
      this.selected = null;
      this.markSelection();
      this.hooks.onReject(why);
    }
  }

  build(boards, files) {
    this.root.replaceChildren();
    this.cells.clear();
    for (let b = 0; b < boards; b++) {
      const letter = LETTERS[b];
      const wrap = document.createElement('div');
      wrap.className = `board-wrap board-${letter}`;
      const title = document.createElement('div');
      title.className = 'board-title';
      // On a phone only the letter shows (the label lies over the board's corner cell).
      const word = document.createElement('span');
      word.className = 'board-word';
      word.textContent = 'Board ';
      title.append(word, letter);
      const grid = document.createElement('div');
      grid.className = 'board';
      grid.dataset.boardGrid = letter;
      grid.style.gridTemplateColumns = `repeat(${files}, var(--cell))`;
      for (let row = 0; row < 8; row++) {
        for (let col = 0; col < files; col++) {
          const rank = this.reversed ? row : 7 - row;
          const file = this.reversed ? files - 1 - col : col;
          const square = FILES[file] + (rank + 1);
          const cell = document.createElement('div');
          cell.className = `cell ${(file + rank) % 2 === 0 ? 'dark' : 'light'}`;
          cell.dataset.board = letter;
          cell.dataset.square = square;
          cell.setAttribute('role', 'gridcell');
          cell.tabIndex = 0;
          cell.setAttribute('aria-label', `${square}, board ${letter}, empty`);
          if (col === 0) cell.appendChild(label('rank', String(rank + 1)));
          if (row === 7) cell.appendChild(label('file', FILES[file]));
          grid.appendChild(cell);
          this.cells.set(`${letter}:${square}`, cell);
        }
      }
      wrap.append(title, grid);
      this.root.appendChild(wrap);
    }
  }

  /** Draws `state` (pieces, last move, check, selection). */
  render(state) {
    this.state = state;
    const layout = `${state.boards}x${state.files}:${this.reversed}`;
    if (layout !== this.layout) {
      this.layout = layout;
      this.build(state.boards, state.files);
      this.root.style.setProperty('--files', String(state.files * state.boards));
    }
    const wanted = new Map(state.pieces.map((p) => [`${p.board}:${p.square}`, p.piece]));
    for (const [key, cell] of this.cells) {
      cell.classList.remove('last-from', 'last-to', 'check', 'sel', 'dest', 'dest-capture');
      // A piece that stays is left alone (no flicker); others are replaced.
      const piece = cell.querySelector('.piece');
      if (piece && piece.dataset.piece !== wanted.get(key)) piece.remove();
    }
    for (const p of state.pieces) {
      const cell = this.cells.get(`${p.board}:${p.square}`);
      if (!cell || cell.querySelector('.piece')) continue;
      cell.appendChild(pieceElement(p.piece));
    }
    for (const [key, cell] of this.cells) {
      const code = wanted.get(key);
      const what = code ? `${code[0] === 'w' ? 'white' : 'black'} ${pieceName(code)}` : 'empty';
      cell.setAttribute('aria-label', `${cell.dataset.square}, board ${cell.dataset.board}, ${what}`);
    }
    if (state.last) {
      this.cells.get(`${state.last.fromBoard}:${state.last.from}`)?.classList.add('last-from');
      this.cells.get(`${state.last.toBoard}:${state.last.to}`)?.classList.add('last-to');
    }
    if (state.check) this.cells.get(`${state.check.board}:${state.check.square}`)?.classList.add('check');
    if (this.selected && this.movesFrom(this.selected).length === 0) this.selected = null;
    this.markSelection();
    this.drawArrow();
    this.premoves.after(state);
  }

  /** Shows the person's `shapes` (see drawings.js). */
  setShapes(shapes) {
    this.shapes = shapes;
    this.drawArrow();
  }

  movesFrom(sel) {
    if (!this.state) return [];
    return this.state.legal.filter((m) => m.from === sel.square && m.fromBoard === sel.board);
  }

  markSelection() {
    for (const cell of this.cells.values()) cell.classList.remove('sel', 'dest', 'dest-capture');
    if (!this.selected) return;
    this.cells.get(`${this.selected.board}:${this.selected.square}`)?.classList.add('sel');
    for (const m of this.movesFrom(this.selected)) {
      this.cells.get(`${m.toBoard}:${m.to}`)?.classList.add(m.capture ? 'dest-capture' : 'dest');
    }
  }

  /** The legal moves of the selected piece that a drop or click on `cell` means. */
  movesTo(cell) {
    const board = cell.dataset.board;
    const square = cell.dataset.square;
    const mine = this.movesFrom(this.selected);
    const landing = mine.filter((m) => m.toBoard === board && (m.to === square || (m.castle && m.alt === square)));
    if (landing.length) return landing;
    // A drop on the destination of the piece's own board means the same move.
    return mine.filter((m) => m.fromBoard === board && (m.to === square || (m.castle && m.alt === square)));
  }

  /** Why the selected piece cannot go to `cell`: {label: "Ke3", why: "..."}. */
  reason(cell) {
    const square = cell.dataset.square;
    const others = this.state.pieces.filter((p) => p.square === square && p.board !== this.selected.board);
    const piece = this.state.pieces.find((p) => p.square === this.selected.square && p.board === this.selected.board);
    const name = piece ? pieceName(piece.piece) : 'piece';
    const letter = piece && piece.piece[1] !== 'p' ? piece.piece[1] : '';
    const label = `${letter}${square}`;
    if (others.length && cell.dataset.board === this.selected.board) {
      return { label, why: `the landing square ${square} is occupied on board ${others[0].board}` };
    }
    return { label, why: `the ${name} on ${this.selected.square} of board ${this.selected.board} cannot go to ${square} of board ${cell.dataset.board}` };
  }

  /** Draws an arrow for each of `moves` (moves of the view: the best move of each line,
   * the first line's boldest): from its start to its target on the board it is played on,
   * and a ring on its landing cell on the other board. */
  setArrows(moves) {
    this.arrows = moves.filter(Boolean);
    this.drawArrow();
  }

  /** Draws the engine's arrows and the person's shapes. */
  drawArrow() {
    this.root.querySelector('svg.arrows')?.remove();
    drawShapes(this.root, this.cells, this.shapes);
    if (!this.arrows.length) return;
    const box = this.root.getBoundingClientRect();
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2, r.width];
    };
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'arrows');
    svg.setAttribute('width', String(box.width));
    svg.setAttribute('height', String(box.height));
    // The later lines' arrows first, so that the best one is drawn on top.
    for (const [i, m] of [...this.arrows.entries()].reverse()) {
      const from = this.cells.get(`${m.fromBoard}:${m.from}`);
      const target = this.cells.get(`${m.fromBoard}:${m.alt}`);
      const landing = this.cells.get(`${m.toBoard}:${m.to}`);
      if (!from || !target || !landing) continue;
      const [x1, y1, w] = centre(from);
      const [x3, y3] = centre(landing);
      const cls = i === 0 ? 'best' : 'other';
      const ring = document.createElementNS(ns, 'circle');
      for (const [k, v] of [['cx', x3], ['cy', y3], ['r', w * 0.4], ['stroke-width', w * (i === 0 ? 0.08 : 0.05)]]) ring.setAttribute(k, String(v));
      ring.setAttribute('class', cls);
      svg.append(...arrowParts(ns, [x1, y1], centre(target), i === 0 ? w * 0.6 : w * 0.45, cls), ring);
    }
    svg.dataset.move = this.arrows[0].uci;
    this.root.appendChild(svg);
  }

  cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return el ? el.closest('.cell') : null;
  }

  pointerDown(e) {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    const here = { board: cell.dataset.board, square: cell.dataset.square };
    if (e.button === 2) {
      this.drawing = { ...here, colour: colourOf(e) };
      e.preventDefault();
      return;
    }
    if (e.button !== 0) return;
    if (this.drawing?.touch) {
      // A long press began a drawing: this tap ends it (on the same cell: a circle).
      this.finishDrawing(cell);
      e.preventDefault();
      return;
    }
    if (this.premoves.turn()) {
      this.premoves.at(cell, here);
      e.preventDefault();
      return;
    }
    if (e.pointerType === 'touch') {
      const timer = setTimeout(() => this.longPress(), LONG_PRESS_MS);
      this.press = { ...here, x: e.clientX, y: e.clientY, timer, cell };
    }
    if (this.selected && this.movesTo(cell).length) {
      this.drag = { start: here, x: e.clientX, y: e.clientY, ghost: null, clickTarget: cell };
      return;
    }
    if (this.movesFrom(here).length) {
      const wasSelected = this.selected && this.selected.board === here.board && this.selected.square === here.square;
      this.selected = here;
      this.markSelection();
      this.drag = { start: here, x: e.clientX, y: e.clientY, ghost: null, piece: cell.querySelector('.piece'), wasSelected };
      e.preventDefault();
      return;
    }
    if (this.selected) {
      const why = cell.querySelector('.piece') ? null : this.reason(cell);
      this.selected = null;
      this.markSelection();
      if (why) this.hooks.onReject(why);
      else this.noMove(cell);
      return;
    }
    this.noMove(cell);
  }

  /** Feedback for a piece picked up that has no move now. */
  noMove(cell) {
    const piece = this.state?.pieces.find((p) => p.square === cell.dataset.square && p.board === cell.dataset.board);
    if (!piece || !this.state) return;
    const mine = (piece.piece[0] === 'w') === (this.state.turn === 'white');
    const where = `the ${pieceName(piece.piece)} on ${cell.dataset.square} of board ${cell.dataset.board}`;
    if (!this.state.legal.length) this.hooks.onNoMove('No move can be played in this position.');
    else if (!mine) this.hooks.onNoMove(`It is ${this.state.turn === 'white' ? 'White' : 'Black'}'s move: ${where} is not theirs.`);
    else this.hooks.onNoMove(`${where[0].toUpperCase()}${where.slice(1)} has no legal move.`);
  }

  /** Keyboard drawing: D on a focused cell begins a drawing there (its colour from Shift and
   * Alt, as with the right button); D on another cell of that board ends it with an arrow, D
   * on the same cell with a circle; Escape drops it. */
  keyDraw(cell, e) {
    if (this.drawing && this.drawing.keyboard) {
      this.finishDrawing(cell);
      return;
    }
    this.finishDrawing(null);
    this.drawing = { board: cell.dataset.board, square: cell.dataset.square, colour: colourOf({ shiftKey: e.shiftKey, altKey: e.altKey }), keyboard: true };
    cell.classList.add('draw-from');
  }

  /** A touch rested on a cell: a drawing begins there (a tap on a cell ends it). */
  longPress() {
    const p = this.press;
    this.press = null;
    if (!p) return;
    this.drag = null;
    this.selected = null;
    this.markSelection();
    this.drawing = { board: p.board, square: p.square, colour: 'G', touch: true };
    p.cell.classList.add('draw-from');
  }

  /** Ends a drawing on `cell`: a circle on the start cell, or an arrow on the start's board. */
  finishDrawing(cell) {
    const d = this.drawing;
    this.drawing = null;
    for (const c of this.root.querySelectorAll('.draw-from')) c.classList.remove('draw-from');
    if (!d || !cell) return;
    const square = cell.dataset.square;
    const shape = square === d.square && cell.dataset.board === d.board
      ? { colour: d.colour, board: d.board, from: d.square }
      : { colour: d.colour, board: d.board, from: d.square, to: square };
    this.hooks.onDraw(shape);
  }

  pointerMove(e) {
    if (this.press && Math.hypot(e.clientX - this.press.x, e.clientY - this.press.y) > 8) {
      clearTimeout(this.press.timer);
      this.press = null;
    }
    const d = this.drag;
    if (!d || !d.piece) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 4) {
      d.ghost = d.piece.cloneNode(true);
      d.ghost.className = 'piece ghost';
      const size = d.piece.getBoundingClientRect().width;
      d.ghost.style.width = `${size}px`;
      d.ghost.style.height = `${size}px`;
      document.body.appendChild(d.ghost);
      d.piece.classList.add('lifted');
    }
    if (d.ghost) {
      const size = d.ghost.getBoundingClientRect().width;
      d.ghost.style.left = `${e.clientX - size / 2}px`;
      d.ghost.style.top = `${e.clientY - size / 2}px`;
    }
  }

  pointerUp(e) {
    if (this.press) {
      clearTimeout(this.press.timer);
      this.press = null;
    }
    if (e.button === 2 && this.drawing && !this.drawing.touch) {
      this.finishDrawing(this.cellAt(e.clientX, e.clientY));
      return;
    }
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (d.ghost) {
      d.ghost.remove();
      d.piece?.classList.remove('lifted');
      const cell = this.cellAt(e.clientX, e.clientY);
      const same = cell && cell.dataset.board === d.start.board && cell.dataset.square === d.start.square;
      if (!cell || same) return;
      this.tryMove(cell);
      return;
    }
    if (d.clickTarget) this.tryMove(d.clickTarget);
    else if (d.wasSelected) {
      this.selected = null;
      this.markSelection();
    }
  }

  tryMove(cell) {
    const moves = this.movesTo(cell);
    if (!moves.length) {
      this.hooks.onReject(this.reason(cell));
      this.selected = null;
      this.markSelection();
      return;
    }
    this.selected = null;
    this.markSelection();
    this.hooks.onMove(moves);
  }

  /** Outlines a cell's twins while the mouse is over it or the keyboard's focus is on it (a
   * finger's tap, which focuses the cell too, leaves no outline behind). */
  hoverTwin(e, on) {
    const cell = e.target.closest && e.target.closest('.cell');
    if (!cell) return;
    if (on && e.pointerType === 'touch') return;
    if (on && e.type === 'focusin' && !cell.matches(':focus-visible')) return;
    for (const letter of LETTERS) {
      const twin = this.cells.get(`${letter}:${cell.dataset.square}`);
      if (twin) twin.classList.toggle('twin', on);
    }
  }
}

/** A piece drawn inline: `<span class="piece" data-piece="wN">` holding its SVG. */
export function pieceElement(code) {
  const s = document.createElement('span');
  s.className = 'piece';
  s.dataset.piece = code;
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', `${code[0] === 'w' ? 'white' : 'black'} ${pieceName(code)}`);
  s.innerHTML = PIECES[code] || '';
  return s;
}

function label(kind, text) {
  const s = document.createElement('span');
  s.className = `coord ${kind}`;
  s.textContent = text;
  return s;
}

const NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', p: 'pawn' };

/** "wN" -> "knight". */
export function pieceName(code) {
  return NAMES[code[1]] || 'piece';
}
