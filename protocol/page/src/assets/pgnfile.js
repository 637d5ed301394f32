// Whole PGN files: pasted in #pgn, opened with the file button (#openpgn) or dropped on the
// page. The page's Rust code reads every game of the text and answers with one label per game;
// the picker #games (one option per game, file order) then loads the chosen game by its number.

/** The page reads PGN files of up to 8 MiB (the server's limit and the page module's too). */
const PGN_LIMIT = 8 << 20;

const $ = (id) => document.getElementById(id);

/** Wires the PGN buttons, the file input, the picker and dropping a file; `send` runs a page
 * command (resolving to {ok, games}), `notice` shows a refusal. */
export function wirePgnFiles(send, notice) {
  /** The text the picker chooses from (null when the last text had one game). */
  let file = null;

  async function read(text, size = text.length) {
    if (size > PGN_LIMIT) {
      const mib = (size / (1 << 20)).toFixed(1);
      notice(`bad PGN, game unchanged: the PGN file has ${mib} MiB; the page reads files of up to 8 MiB (several thousand games)`);
      return;
    }
    const r = await send({ cmd: 'pgn', text });
    if (!r.ok) return;
    const games = r.games || [];
    file = games.length > 1 ? text : null;
    $('games').replaceChildren(...games.map((label, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = label;
      return o;
    }));
    $('gamepick').hidden = games.length < 2;
  }

  $('importpgn').addEventListener('click', () => read($('pgn').value));
  $('openpgn').addEventListener('click', () => $('pgnfile').click());
  $('pgnfile').addEventListener('change', async () => {
    const chosen = $('pgnfile').files[0];
    $('pgnfile').value = '';
    if (chosen) read(await chosen.text(), chosen.size);
  });
  $('games').addEventListener('change', () => {
    if (file) send({ cmd: 'pgn', text: file, game: Number($('games').value) });
  });
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types?.includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', async (e) => {
    const dropped = e.dataTransfer?.files?.[0];
    if (!dropped) return;
    e.preventDefault();
    read(await dropped.text(), dropped.size);
  });
}
