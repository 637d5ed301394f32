// Vorpal, the Alice chess engine, as WebAssembly: the package's ES module.
//
//   Vorpal(options)     an async factory of a UCI engine with postMessage(cmd),
//                       addMessageListener(fn), removeMessageListener(fn) and terminate(),
//                       as fairy-stockfish.wasm gives one (in a browser page the engine runs
//                       in a Web Worker, elsewhere in the calling thread between its events)
//   loadRules(options)  the rules of Alice chess: legal moves, SAN and UCI, FEN checks,
//                       game end, perft
//   runWorker(scope)    serves UCI over postMessage in a Worker (vorpal-worker.js calls it)
//   loadPage(options)   the game page of `vorpal gui` (its commands, views and PGN), whose
//                       engines the caller runs as Workers (the static site's api.js)
//
// Two builds of the module ship: vorpal-simd.wasm (WebAssembly SIMD) where the host
// validates a SIMD instruction, vorpal.wasm elsewhere; both give the same results.

const IDLE = 0;
const SEARCHING = 1;

// A module whose one function uses a SIMD instruction (i8x16.splat): it validates only
// where WebAssembly SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of that type
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // i32.const 0; i8x16.splat
]);

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

/** True where WebAssembly SIMD is supported. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** The file name of the module for this host: `options.simd` (true/false) or detection. */
export function moduleFile(options = {}) {
  const simd = options.simd ?? simdSupported();
  return simd ? 'vorpal-simd.wasm' : 'vorpal.wasm';
}

async function moduleBytes(options) {
  if (options.wasmBytes) return options.wasmBytes;
  const url = options.wasmUrl ?? new URL(moduleFile(options), import.meta.url);
  if (isNode && String(url).startsWith('file:')) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
  return response.arrayBuffer();
}

/** One instance of the module: text in and out of its memory. */
class Instance {
  constructor(instance, make = 'vorpal_new') {
    this.exports = instance.exports;
    this.handle = this.exports[make]();
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  put(text) {
    const bytes = this.encoder.encode(text);
    const at = this.exports.vorpal_input(this.handle, bytes.length);
    new Uint8Array(this.exports.memory.buffer, at, bytes.length).set(bytes);
  }

  output() {
    const at = this.exports.vorpal_output_ptr(this.handle);
    const len = this.exports.vorpal_output_len(this.handle);
    return this.decoder.decode(new Uint8Array(this.exports.memory.buffer, at, len));
  }

  command(line) {
    this.put(line);
    const state = this.exports.vorpal_command(this.handle);
    return [state, this.output()];
  }

  step() {
    const state = this.exports.vorpal_step(this.handle);
    return [state, this.output()];
  }

  rules(query) {
    this.put(query);
    this.exports.vorpal_rules(this.handle);
    return this.output();
  }
}

async function instantiate(options = {}, make = 'vorpal_new') {
  const bytes = await moduleBytes(options);
  const clock = typeof performance === 'object' ? () => performance.now() : () => Date.now();
  const { instance } = await WebAssembly.instantiate(bytes, { vorpal: { now_ms: clock, wall_ms: () => Date.now() } });
  return new Instance(instance, make);
}

// Lets the host's other events in, then calls `fn`: setImmediate in node, a message to
// itself elsewhere (setTimeout would wait at least 4 ms each time).
function yieldThen(fn) {
  if (typeof setImmediate === 'function') {
    setImmediate(fn);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    fn();
  };
  channel.port2.postMessage(null);
}

/**
 * A UCI engine in the calling thread. Commands run at once; a search runs a slice at a
 * time, yielding to the host's events between slices, so `stop` is heard while it runs.
 */
export async function createEngine(options = {}) {
  const core = await instantiate(options);
  const listeners = new Set();
  let scheduled = false;
  let ended = false;
  let idleWaiters = [];

  const emit = (text) => {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      for (const fn of [...listeners]) fn(line);
    }
  };
  let state = IDLE;
  const settle = (next) => {
    state = next;
    if (state === SEARCHING) {
      if (!scheduled) {
        scheduled = true;
        yieldThen(run);
      }
    } else {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
    }
  };
  const run = () => {
    scheduled = false;
    if (ended) return;
    const [next, text] = core.step();
    emit(text);
    settle(next);
  };
  return {
    /** Sends one UCI command (or several, one a line). */
    postMessage(command) {
      if (ended) return;
      const [next, text] = core.command(String(command));
      emit(text);
      settle(next);
    },
    /** Calls `fn(line)` for every line the engine prints. */
    addMessageListener(fn) {
      listeners.add(fn);
    },
    /** Stops calling `fn`. */
    removeMessageListener(fn) {
      listeners.delete(fn);
    },
    /** Resolves once no search runs (`go infinite` holds its bestmove until `stop`). */
    searchDone() {
      if (state !== SEARCHING) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Ends the engine: no more output. */
    terminate() {
      ended = true;
      listeners.clear();
    },
  };
}

/** A UCI engine run in a Web Worker (the package's vorpal-worker.js). */
function workerEngine(options) {
  const url = options.workerUrl ?? new URL('./vorpal-worker.js', import.meta.url);
  const worker = new Worker(url, { type: 'module' });
  const listeners = new Set();
  worker.onmessage = (event) => {
    for (const fn of [...listeners]) fn(event.data);
  };
  return {
    postMessage: (command) => worker.postMessage(String(command)),
    addMessageListener: (fn) => listeners.add(fn),
    removeMessageListener: (fn) => listeners.delete(fn),
    terminate: () => worker.terminate(),
  };
}

/**
 * The async factory fairy-stockfish.wasm's users call: a UCI engine in a Web Worker when
 * the page can start one (`options.worker` false: in this thread), else in this thread.
 */
export async function Vorpal(options = {}) {
  const inPage = typeof window === 'object' && typeof Worker === 'function';
  if (inPage && options.worker !== false) return workerEngine(options);
  return createEngine(options);
}

export default Vorpal;

/** Serves UCI over postMessage in a Worker: one command a message, one line a message. */
export async function runWorker(scope, options = {}) {
  const queue = [];
  scope.onmessage = (event) => queue.push(event.data);
  const engine = await createEngine(options);
  engine.addMessageListener((line) => scope.postMessage(line));
  scope.onmessage = (event) => engine.postMessage(event.data);
  queue.forEach((command) => engine.postMessage(command));
}

/**
 * The rules of Alice chess (`variant`: any of Vorpal's, default `alice`; a FEN in any form
 * Vorpal reads, or `startpos`). Every method throws an Error with the reason on bad input,
 * but validateFen, which returns it.
 */
export async function loadRules(options = {}) {
  const core = await instantiate(options);
  const ask = (op, fen, variant, args = []) => {
    const answer = core.rules([op, variant ?? '', fen ?? 'startpos', ...args].join('\n'));
    const [status, ...lines] = answer.split('\n');
    if (status !== 'ok') throw new Error(lines.join(' '));
    return lines;
  };
  return {
    /** Legal moves: [{ uci, san }], sorted by their UCI text. */
    legalMoves(fen, variant) {
      return ask('moves', fen, variant).map((line) => {
        const [uci, san] = line.split(' ');
        return { uci, san };
      });
    },
    /** The FEN (pipe form) after `moves` (UCI or SAN) from `fen`. */
    play: (fen, moves, variant) => ask('fen', fen, variant, moves)[0],
    /** The SAN of a move given in UCI or SAN (`/A` for a landing on board A). */
    toSan: (fen, move, variant) => ask('san', fen, variant, [move])[0],
    /** The UCI of a move given in SAN (with or without `/A`) or UCI. */
    toUci: (fen, move, variant) => ask('uci', fen, variant, [move])[0],
    /** { valid: true, fen } (the pipe form) or { valid: false, reason }. */
    validateFen(fen, variant) {
      try {
        return { valid: true, fen: ask('fen', fen, variant)[0] };
      } catch (e) {
        return { valid: false, reason: e.message };
      }
    },
    /** After `moves` from `fen`: { over, result ('1-0', '0-1', '1/2-1/2', '*'), reason }. */
    gameEnd(fen, moves = [], variant) {
      const [line] = ask('end', fen, variant, moves);
      const space = line.indexOf(' ');
      const result = line.slice(0, space);
      return { over: result !== '*', result, reason: line.slice(space + 1) };
    },
    /** Leaf nodes at `depth` (at most 7). */
    perft: (fen, depth, variant) => Number(ask('perft', fen, variant, [String(depth)])[0]),
  };
}

/**
 * The game page of `vorpal gui` in this thread: the same commands (JSON objects, as the page
 * sends the server's `/api/cmd`), answers and views. Its engines are the caller's to run:
 * `requests()` says which Worker to start, what to post to it and when to end it
 * (`{do: 'start'|'send'|'end', link, line}`); each line a Worker prints goes back with
 * `engineLine(link, line)`. Call `tick()` about ten times a second.
 */
export async function loadPage(options = {}) {
  const core = await instantiate(options, 'vorpal_page_new');
  const x = core.exports;
  const h = core.handle;
  return {
    /** Runs a command: { done, answer } (the answer as the server's JSON object). */
    command(cmd) {
      core.put(typeof cmd === 'string' ? cmd : JSON.stringify(cmd));
      const done = x.vorpal_page_command(h) === 1;
      return { done, answer: JSON.parse(core.output()) };
    },
    /** The view (the state the server sends the page). */
    view() {
      x.vorpal_page_view(h);
      return JSON.parse(core.output());
    },
    /** The view's version: it changes with every update to show. */
    version: () => x.vorpal_page_version(h),
    /** The game as PGN. */
    pgn() {
      x.vorpal_page_pgn(h);
      return core.output();
    },
    /** Flag falls and engine lines folded into the view. */
    tick: () => x.vorpal_page_tick(h),
    /** A line engine `link`'s Worker printed. */
    engineLine(link, line) {
      core.put(String(line));
      x.vorpal_page_engine_line(h, link);
    },
    /** Engine `link`'s Worker failed. */
    engineFailed(link, why) {
      core.put(String(why));
      x.vorpal_page_engine_failed(h, link);
    },
    /** What to do with the Workers since the last call, in order. */
    requests() {
      x.vorpal_page_requests(h);
      return JSON.parse(core.output());
    },
  };
}
