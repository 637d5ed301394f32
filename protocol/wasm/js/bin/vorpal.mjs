#!/usr/bin/env node
// Vorpal as a UCI engine over stdin/stdout under node, as the stockfish npm package's bin:
// one command a line in, the engine's lines out. A search runs in slices, so `stop` and
// `isready` are answered while it runs. `quit` or the end of the input stops a running
// search (its bestmove is printed) and exits, as the native `vorpal` does.
import { createInterface } from 'node:readline';
import { createEngine } from '../vorpal.mjs';

const engine = await createEngine();
engine.addMessageListener((line) => process.stdout.write(line + '\n'));
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (line.trim().toLowerCase() === 'quit') input.close();
  else engine.postMessage(line);
});
input.on('close', () => {
  engine.postMessage('stop');
  process.exit(0);
});
