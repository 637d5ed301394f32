// The person's choices of looks and sounds, kept with the other preferences (store.js): the
// piece set (the drawn pieces, or the chess glyphs), the boards' colours (brown and blue, or
// green and grey) and the sounds (a click for each move; with "every event" also a lower one for
// a capture, a double one for a check and a chord at the end of a game; Sound off: none), and
// whether a premoved promotion becomes a queen at once (auto-queen when premoving, lichess's
// default) or asks for its piece.

const $ = (id) => document.getElementById(id);

/** Applies `prefs` to the page and keeps the menus' changes in it (`save` writes it). */
export function wireLooks(prefs, save) {
  const apply = () => {
    document.documentElement.dataset.pieces = prefs.pieces || 'drawn';
    document.documentElement.dataset.boards = prefs.boards || 'classic';
    $('pieceset').value = prefs.pieces || 'drawn';
    $('boardcolours').value = prefs.boards || 'classic';
    $('sounds').value = prefs.sounds || 'moves';
    $('autoqueen').value = prefs.autoQueen || 'premove';
  };
  apply();
  for (const [id, key] of [['pieceset', 'pieces'], ['boardcolours', 'boards'], ['sounds', 'sounds'], ['autoqueen', 'autoQueen']]) {
    $(id).addEventListener('change', () => {
      prefs[key] = $(id).value;
      save(prefs);
      apply();
    });
  }
}

/** True when a premoved promotion becomes a queen without asking (the default). */
export function autoQueenPremoves() {
  return $('autoqueen').value !== 'never';
}

let audio = null;

/** One tone (or a chord) of `ms` milliseconds. */
function tone(freqs, ms, at = 0) {
  audio = audio || new AudioContext();
  const start = audio.currentTime + at / 1000;
  for (const f of freqs) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = f;
    gain.gain.setValueAtTime(0.15 / freqs.length, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + ms / 1000);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + ms / 1000 + 0.01);
  }
}

/** The sound of the move that led to `state` (WebAudio, no sound file), as chosen. */
export function moveSound(state) {
  if (!$('sound').checked) return;
  try {
    if ($('sounds').value !== 'all') {
      tone([520], 120);
      return;
    }
    if (state.result) tone([392, 494, 587], 450);
    else if (state.check) { tone([660], 90); tone([660], 90, 120); }
    else if (state.last && state.last.capture) tone([330], 160);
    else tone([520], 120);
  } catch {
    // No audio here: moves are silent.
  }
}
