// Premove, lichess's way: while the engine thinks in a game against it, the person's first
// click picks one of their pieces and the second names where it goes; the premove is shown,
// cancelled by the next click, and played at once after the engine's reply when it is legal
// then (dropped with a note when not). A premove must have the shape of a move of that piece
// on its board (a knight's jump, a bishop's diagonal, a pawn's step forward or diagonal
// capture, ...; occupancy is not checked, as on lichess), landing on its own board's square or
// the next board's (Alice's transfer); any other is refused at once with the reason. A pawn
// premoved to its last rank becomes a queen (lichess's auto-queen when premoving), or asks for
// its piece (the page's chooser) when the settings say so: the `onPromotion` hook decides.

const NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', p: 'pawn' };
const LETTERS = ['A', 'B', 'C'];
const FILES = 'abcdefgh';

/** Why a premove of `code` (`wN`, `bp`, ...) from `from` to `to` ({board, square}) has no
 * move's shape, or '' when it has one; `boards` is the game's number of boards. */
export function premoveShapeError(code, from, to, boards) {
  const next = LETTERS[(LETTERS.indexOf(from.board) + 1) % boards];
  const name = NAMES[code[1]] || 'piece';
  const where = `the ${name} on ${from.square} of board ${from.board}`;
  if (to.board !== from.board && to.board !== next) {
    return `${where} lands on board ${next}, not ${to.board}`;
  }
  const df = FILES.indexOf(to.square[0]) - FILES.indexOf(from.square[0]);
  const dr = Number(to.square.slice(1)) - Number(from.square.slice(1));
  const ax = Math.abs(df);
  const ay = Math.abs(dr);
  if (ax === 0 && ay === 0) return `${where} must move`;
  const white = code[0] === 'w';
  const rank = Number(from.square.slice(1));
  let ok;
  switch (code[1]) {
    case 'N': ok = (ax === 1 && ay === 2) || (ax === 2 && ay === 1); break;
    case 'B': ok = ax === ay; break;
    case 'R': ok = ax === 0 || ay === 0; break;
    case 'Q': ok = ax === 0 || ay === 0 || ax === ay; break;
    // One step, or along its back rank (castling, Chess960's too).
    case 'K': ok = (ax <= 1 && ay <= 1) || (ay === 0 && rank === (white ? 1 : 8)); break;
    case 'p': {
      const ahead = white ? dr : -dr;
      const start = white ? 2 : 7;
      ok = (ahead === 1 && ax <= 1) || (ahead === 2 && ax === 0 && rank === start);
      break;
    }
    default: ok = true;
  }
  return ok ? '' : `${where} cannot move to ${to.square} (not a ${name}'s move)`;
}

/** True when a pawn premove reaches its last rank. */
export function premovePromotes(code, to) {
  return code[1] === 'p' && to.square.slice(1) === (code[0] === 'w' ? '8' : '1');
}

/** The premove state of the boards: `boards` is the Boards object (its `state`, `cells` and
 * `hooks`: `onMove`, `onNoMove`, and `onPromotion(colour)` resolving to a piece letter or
 * null). */
export class Premoves {
  constructor(boards) {
    this.boards = boards;
    this.from = null; // {board, square, code}: the piece picked
    this.move = null; // {from, to, promo}: the premove set
  }

  /** True while the engine is to move in a game against it: a person's clicks then make a
   * premove. */
  turn() {
    const s = this.boards.state;
    return !!s && s.mode === 'play' && !!s.human && s.turn !== s.human && !s.result && s.legal.length === 0;
  }

  /** A click while the engine thinks: the first on one of the person's pieces picks it, the
   * second names the landing cell; a click with a premove set cancels it. */
  async at(cell, here) {
    const { hooks } = this.boards;
    const code = cell.querySelector('.piece')?.dataset.piece;
    const own = !!code && (code[0] === 'w') === (this.boards.state.human === 'white');
    if (this.move) {
      this.clear();
      hooks.onNoMove('Premove cancelled.');
      return;
    }
    const from = this.from;
    this.clear();
    if (!from || own) {
      if (own && !(from && from.board === here.board && from.square === here.square)) {
        this.from = { ...here, code };
        cell.classList.add('premove');
      }
      return;
    }
    const why = premoveShapeError(from.code, from, here, this.boards.state.boards);
    if (why) {
      hooks.onNoMove(`No premove: ${why}.`);
      return;
    }
    let promo = null;
    if (premovePromotes(from.code, here)) {
      promo = await hooks.onPromotion(from.code[0]);
      if (!promo || !this.turn()) return;
    }
    this.move = { from, to: here, promo };
    this.mark(from);
    this.mark(here);
    const piece = promo ? `=${promo}` : '';
    hooks.onNoMove(`Premove ${from.board}:${from.square} to ${here.board}:${here.square}${piece}: played after the engine's move if legal (click to cancel).`);
  }

  mark(at) {
    this.boards.cells.get(`${at.board}:${at.square}`)?.classList.add('premove');
  }

  clear() {
    this.move = null;
    this.from = null;
    for (const c of this.boards.cells.values()) c.classList.remove('premove');
  }

  /** On the person's turn the premove is played at once when legal, or dropped with a note. */
  after(state) {
    if (!this.move && !this.from) return;
    if (state.mode !== 'play' || state.result) {
      this.clear();
      return;
    }
    if (!this.move || state.turn !== state.human || !state.legal.length) return;
    const { from, to, promo } = this.move;
    this.clear();
    const moves = state.legal.filter((m) => m.from === from.square && m.fromBoard === from.board
      && (m.to === to.square || (m.castle && m.alt === to.square)) && (m.toBoard === to.board || m.fromBoard === to.board)
      && (!promo || (m.promo && m.promo.toUpperCase() === promo)));
    const label = `Premove ${from.board}:${from.square} to ${to.board}:${to.square}${promo ? `=${promo}` : ''}`;
    if (moves.length) this.boards.hooks.onMove([moves[0]]);
    else this.boards.hooks.onNoMove(`${label} dropped: not legal after the engine's move.`);
  }
}
