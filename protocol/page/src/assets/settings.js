// The setup form's settings: the command made of its choices, kept settings put back into it,
// the fields shown for the chosen mode and limit, and filling its menus.

const $ = (id) => document.getElementById(id);

/** Fills a menu with `values` (shown as `labels`), keeping the chosen value when it is still
 * offered; `current` (when given) is chosen. */
export function fillSelect(sel, values, current, labels) {
  const key = values.join('|');
  if (sel.dataset.key !== key) {
    const keep = sel.value;
    sel.replaceChildren(...values.map((v, i) => new Option(labels ? labels[i] : v, v)));
    sel.dataset.key = key;
    if (values.includes(keep)) sel.value = keep;
  }
  if (current !== null && current !== undefined) sel.value = current;
}

/** A setting shows only in the modes (and for the limit) where it applies. */
export function showSettingsFor() {
  const mode = $('mode').value;
  const limit = $('limit').value;
  for (const el of document.querySelectorAll('[data-modes]')) {
    const modes = el.dataset.modes.split(' ');
    el.hidden = !modes.includes(mode) || (el.dataset.limit && el.dataset.limit !== limit);
  }
  document.querySelector('.engine-label').textContent = mode === 'watch' ? 'White engine' : 'Engine';
}

/** The settings command of the form's choices. */
export function settings() {
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

/** Puts kept settings back into the form. */
export function fillSettings(s) {
  if (!s) return;
  const set = (id, v) => { if (v !== null && v !== undefined) $(id).value = String(v); };
  set('mode', s.mode);
  set('color', s.color);
  set('limit', s.limit);
  if (s.base) set('base', s.base / 60000);
  if (s.inc !== undefined) set('inc', s.inc / 1000);
  set('movetime', s.movetime);
  set('depth', s.depth);
  set('skill', s.skill);
  set('elo', s.elo);
  set('multipv', s.multipv);
  showSettingsFor();
}
