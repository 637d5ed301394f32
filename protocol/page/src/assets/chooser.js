// The page's chooser (#chooser): which piece a pawn becomes, or which of two moves to the same
// cell is meant; also the piece of a premoved promotion (premove.js).

import { pieceElement } from './board.js';

const $ = (id) => document.getElementById(id);

/** The promotion (or landing board) chooser: one button per move (`{uci, san, promo}`; a
 * promotion shows the piece of `colour`, `w` or `b`); resolves to a move or null. Esc closes
 * it. */
export function choose(moves, colour) {
  return new Promise((done) => {
    const box = $('chooser');
    box.replaceChildren();
    const close = (m) => {
      box.hidden = true;
      document.removeEventListener('keydown', onKey, true);
      $('boards').focus({ preventScroll: true });
      done(m);
    };
    const onKey = (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close(null);
      }
    };
    for (const m of moves) {
      const b = document.createElement('button');
      b.dataset.uci = m.uci;
      if (m.promo) {
        b.appendChild(pieceElement(`${colour}${m.promo}`));
      } else {
        b.textContent = m.san;
      }
      b.title = m.san;
      b.addEventListener('click', () => close(m));
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.textContent = '✕';
    cancel.title = 'cancel (Esc)';
    cancel.addEventListener('click', () => close(null));
    box.appendChild(cancel);
    box.hidden = false;
    document.addEventListener('keydown', onKey, true);
    box.querySelector('button').focus();
  });
}


const PROMOTIONS = [['Q', 'queen'], ['R', 'rook'], ['B', 'bishop'], ['N', 'knight']];

/** The piece a premoved pawn becomes: resolves to `Q`, `R`, `B`, `N` or null (cancelled). */
export async function choosePromotion(colour) {
  const picked = await choose(PROMOTIONS.map(([p, name]) => ({ uci: p.toLowerCase(), san: name, promo: p })), colour);
  return picked ? picked.promo : null;
}
