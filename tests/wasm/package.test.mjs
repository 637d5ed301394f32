// The WebAssembly package's tests under node: `node tests/wasm/package.test.mjs DIR/npm`
// with VORPAL_BIN naming a native `vorpal` (release) to compare with. The engine is driven
// only through the interface fairy-stockfish.wasm gives pychess-variants' client (an async
// factory; postMessage, addMessageListener, removeMessageListener) and through the
// package's bin; the rules through loadRules. Prints one line per check and the speed
// figures; exits 1 when a check fails.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir] = process.argv.slice(2);
const native = process.env.VORPAL_BIN;
if (!pkgDir || !native) {
  console.error('usage: VORPAL_BIN=target/release/vorpal node tests/wasm/package.test.mjs DIR/npm');
  process.exit(2);
}
const pkg = await import(pathToFileURL(path.resolve(pkgDir, 'vorpal.mjs')).href);
const bin = path.resolve(pkgDir, JSON.parse(readFileSync(path.join(pkgDir, 'package.json'))).bin['vorpal-wasm']);
// A position with pieces on board B (the bench's second).
const BOARD_B_FEN = 'rnbqk1nr/pppp1ppp/4|p3/2|b1N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 2 3';
// Positions of the speed comparison (the start and two middlegames of the bench).
const SPEED_FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r1bq3r/|Rpp1|b|kp1/|n3|p|p1|n/3P3|p/|P1|B5/2|N2|P2/1PPP|Q1PP/2B1K1NR w K - 1 9',
  'r1b1k1nr/p1p2ppp/2|n5/1P|b|p|p3/4q3/8/1PPPBPPP/RNBQK1NR w Kkq - 4 8',
];

let failed = 0;
async function check(name, fn) {
  const started = Date.now();
  try {
    const note = await fn();
    console.log(`ok - ${name} (${Date.now() - started} ms)${note ? ': ' + note : ''}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}: ${e.stack ?? e}`);
  }
}

/** Sends `commands` and resolves with the lines up to the first one `until` accepts. */
function converse(engine, commands, until, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const lines = [];
    const timer = setTimeout(() => {
      engine.removeMessageListener(listen);
      reject(new Error(`timed out; last lines: ${lines.slice(-3).join(' | ')}`));
    }, timeoutMs);
    function listen(line) {
      lines.push(line);
      if (until(line)) {
        clearTimeout(timer);
        engine.removeMessageListener(listen);
        resolve(lines);
      }
    }
    engine.addMessageListener(listen);
    for (const c of commands) engine.postMessage(c);
  });
}

const isBestmove = (line) => line.startsWith('bestmove');

/** Runs a UCI program with `input` on stdin (kept open until `done` sees a line); its stdout lines. */
function runProgram(command, args, input, done, timeoutMs = 300_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const lines = [];
    let rest = '';
    let pending = [...input];
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${command} timed out`));
    }, timeoutMs);
    const next = () => {
      // Commands up to the next `wait` marker go at once; the rest after a line `done` accepts.
      while (pending.length && pending[0] !== 'wait') child.stdin.write(pending.shift() + '\n');
    };
    child.stdout.on('data', (chunk) => {
      rest += chunk;
      const parts = rest.split('\n');
      rest = parts.pop();
      for (const line of parts) {
        lines.push(line);
        if (done(line)) {
          if (pending[0] === 'wait') pending.shift();
          if (pending.length) next();
          else child.stdin.end();
        }
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(lines);
    });
    next();
  });
}

const rules = await pkg.loadRules();

await check('the SIMD probe validates here and the module for this host is the SIMD one', () => {
  assert.equal(pkg.simdSupported(), true);
  assert.equal(pkg.moduleFile(), 'vorpal-simd.wasm');
  assert.equal(pkg.moduleFile({ simd: false }), 'vorpal.wasm');
});

const engine = await pkg.Vorpal();
await check('uci is answered with uciok, without EvalFile', async () => {
  const lines = await converse(engine, ['uci'], (l) => l === 'uciok');
  assert.ok(lines[0].startsWith('id name Vorpal '), lines[0]);
  assert.ok(lines.some((l) => l.startsWith('option name UCI_Variant type combo')));
  assert.ok(!lines.some((l) => l.includes('EvalFile')));
});

await check('position startpos moves e2e4, go depth 8: a legal bestmove', async () => {
  const lines = await converse(engine, ['setoption name MultiPV value 1', 'position startpos moves e2e4', 'go depth 8'], isBestmove);
  const best = lines.at(-1).split(' ')[1];
  const legal = rules.legalMoves(rules.play('startpos', ['e2e4'])).map((m) => m.uci);
  assert.ok(legal.includes(best), `${best} not in ${legal}`);
  assert.ok(lines.some((l) => l.startsWith('info depth 8 ')));
  return `bestmove ${best}`;
});

await check('stop during go infinite is answered by a bestmove promptly', async () => {
  const seen = converse(engine, ['position startpos', 'go infinite'], isBestmove);
  await new Promise((r) => setTimeout(r, 1500));
  const sent = Date.now();
  engine.postMessage('stop');
  const lines = await seen;
  const ms = Date.now() - sent;
  assert.ok(lines.filter((l) => l.startsWith('info depth')).length >= 3, 'it searched while the event loop ran');
  assert.ok(ms < 1000, `bestmove ${ms} ms after stop`);
  return `bestmove ${ms} ms after stop`;
});

await check('isready is answered during a search', async () => {
  const seen = converse(engine, ['position startpos', 'go movetime 1000'], isBestmove);
  await new Promise((r) => setTimeout(r, 300));
  const ready = await converse(engine, ['isready'], (l) => l === 'readyok', 2000);
  const lines = await seen;
  assert.ok(lines.indexOf('readyok') < lines.length - 1, 'readyok before the bestmove');
  assert.equal(ready.at(-1), 'readyok');
});

await check('rules: perft 4 from the start is 219,236', () => {
  assert.equal(rules.perft('startpos', 4), 219236);
});

await check("rules: legal moves of a FEN with board-B pieces equal the native engine's", async () => {
  const nativeLines = execFileSync(native, [], { input: `position fen ${BOARD_B_FEN}\nmoves\nquit\n` })
    .toString()
    .split('\n')
    .filter((l) => /^[a-x][1-8][a-x][1-8]/.test(l) || l.startsWith('Legal moves'));
  const ours = rules.legalMoves(BOARD_B_FEN).map((m) => `${m.uci} ${m.san}`);
  assert.deepEqual([...ours, `Legal moves: ${ours.length}`], nativeLines);
  return `${ours.length} moves`;
});

await check('rules: SAN with /A both ways, and game end', () => {
  const fen = rules.play('startpos', ['Nf3', 'e6']);
  assert.equal(rules.toSan(fen, 'f3e5'), 'Ne5/A');
  assert.equal(rules.toUci(fen, 'Ne5/A'), 'f3e5');
  const mated = 'rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3';
  assert.deepEqual(rules.gameEnd(mated), { over: true, result: '1-0', reason: 'checkmate' });
  const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8'];
  assert.equal(rules.gameEnd('startpos', shuffle).reason, 'threefold repetition');
  assert.equal(rules.gameEnd('startpos', ['e2e4']).over, false);
});

await check('rules: an illegal FEN is refused with its reason', () => {
  const answer = rules.validateFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1');
  assert.equal(answer.valid, false);
  assert.match(answer.reason, /^bad FEN: .+/);
  assert.equal(rules.validateFen(BOARD_B_FEN).valid, true);
  return answer.reason;
});
engine.terminate();

const nodesOf = (lines) => Number(lines.find((l) => l.startsWith('Nodes searched'))?.split(':')[1]);
const nativeBench = nodesOf(execFileSync(native, ['bench'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().split('\n'));
for (const simd of [true, false]) {
  await check(`bench in node equals native (${simd ? 'SIMD' : 'plain'} module)`, async () => {
    const e = await pkg.Vorpal({ simd });
    const lines = await converse(e, ['bench'], (l) => l.startsWith('Total time'), 300_000);
    e.terminate();
    assert.equal(nodesOf(lines), nativeBench);
    return `${nodesOf(lines)} nodes, ${lines.find((l) => l.startsWith('Nodes/second')).split(':')[1].trim()} nodes/s`;
  });
}

await check('the bin: Threads, pipe-form position fen, go perft, go depth', async () => {
  const lines = await runProgram(
    'node',
    [bin],
    ['setoption name Threads value 1', `position fen ${BOARD_B_FEN}`, 'go perft 3', 'wait', 'go depth 6', 'wait'],
    (l) => l.startsWith('Nodes searched') || isBestmove(l),
  );
  const nativeLines = execFileSync(native, [], { input: `position fen ${BOARD_B_FEN}\ngo perft 3\nquit\n`, stdio: ['pipe', 'pipe', 'ignore'] })
    .toString()
    .split('\n');
  assert.equal(lines.find((l) => l.startsWith('Nodes searched')), nativeLines.find((l) => l.startsWith('Nodes searched')));
  assert.ok(lines.some((l) => /^info depth 6 .* nodes \d+ .* time \d+/.test(l)));
  assert.ok(isBestmove(lines.at(-1)));
});

// Speed: each position searched to depth 12 with one thread by the bin and by native vorpal;
// nodes per second from the last `info ... nodes ... time` line of each search.
const speed = async (command, args) => {
  const input = ['setoption name Threads value 1'];
  for (const fen of SPEED_FENS) input.push('ucinewgame', `position fen ${fen}`, 'go depth 12', 'wait');
  const lines = await runProgram(command, args, input, isBestmove);
  let nodes = 0;
  let ms = 0;
  let last = null;
  for (const line of lines) {
    if (/^info depth .* nodes \d+ .* time \d+/.test(line)) last = line;
    if (isBestmove(line) && last) {
      nodes += Number(last.match(/ nodes (\d+)/)[1]);
      ms += Number(last.match(/ time (\d+)/)[1]);
      last = null;
    }
  }
  return { nodes, ms, nps: Math.round((nodes * 1000) / Math.max(ms, 1)) };
};
await check('speed at go depth 12, one thread: the node bin reaches a third of native', async () => {
  const ours = await speed('node', [bin]);
  const theirs = await speed(native, []);
  const ratio = ours.nps / theirs.nps;
  console.log(`speed: node bin ${ours.nps} nodes/s (${ours.nodes} nodes in ${ours.ms} ms), native ${theirs.nps} nodes/s (${theirs.nodes} nodes in ${theirs.ms} ms), ratio ${ratio.toFixed(2)}`);
  assert.ok(ratio >= 1 / 3, `ratio ${ratio.toFixed(2)}`);
  return `ratio ${ratio.toFixed(2)}`;
});

console.log(failed ? `${failed} check(s) failed` : 'all checks passed');
process.exit(failed ? 1 : 0);
