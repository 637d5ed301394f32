// Vorpal's Web Worker (a module worker): UCI over postMessage, one command a message in,
// one line a message out, as stockfish.wasm's worker speaks it.
//
//   const engine = new Worker(new URL('vorpal-worker.js', base), { type: 'module' });
//   engine.onmessage = (e) => console.log(e.data);
//   engine.postMessage('uci');
import { runWorker } from './vorpal.mjs';

runWorker(self);
