// Loads web/pkg (build it with web/build.sh first) and checks the engine
// through its public API: the handshake, a `go depth 5` whose `bestmove` is
// legal, `stop` ending a `go infinite`, UCCI, the rules API, the endgame
// tables' verdicts (web/pkg/tb), and `bench`'s node count, which must be
// the native engine's.
//
// Usage: node web/test/node-test.mjs [--no-bench]
// Legality is checked with the engine's own rules: `go depth 1 searchmoves
// M` on the same position answers M only if M is legal.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import Jiangjun, { JiangjunRules, loadModule } from '../pkg/jiangjun.mjs';

// The pinned count's one source, which the native tests read too.
const BENCH_NODES = Number(
  readFileSync(new URL('../../engine/bench-nodes.txt', import.meta.url), 'utf8').trim(),
);
const FEN = 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1';

if (!existsSync(new URL('../pkg/jiangjun.wasm', import.meta.url))) {
  console.log('SKIP: web/pkg/jiangjun.wasm is missing (run web/build.sh)');
  process.exit(0);
}

const engine = await Jiangjun();
const lines = [];
const waiters = [];
engine.addMessageListener((line) => {
  lines.push(line);
  for (const w of waiters.splice(0)) w();
});

// Send `text`, then wait (up to `ms`) for a line matching `re`; returns it.
async function ask(text, re, ms = 60000) {
  const from = lines.length;
  if (text) engine.postMessage(text);
  const deadline = Date.now() + ms;
  for (;;) {
    const hit = lines.slice(from).find((l) => re.test(l));
    if (hit) return hit;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no line matching ${re} after '${text}'`);
    await new Promise((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, left);
    });
  }
}

function bestmove(line) {
  return line.split(/\s+/)[1];
}

let failed = false;
async function check(name, f) {
  const t = Date.now();
  try {
    await f();
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failed = true;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

await check('uci handshake', async () => {
  await ask('uci', /^uciok$/);
  assert.ok(lines.some((l) => l.startsWith('id name Jiangjun')));
  assert.ok(lines.some((l) => l.startsWith('option name MultiPV')));
  await ask('isready', /^readyok$/);
});

await check('go depth 5 answers a legal move', async () => {
  engine.postMessage(`position fen ${FEN}`);
  const line = await ask('go depth 5', /^bestmove /);
  const move = bestmove(line);
  assert.match(move, /^[a-i][0-9][a-i][0-9]$/);
  assert.ok(lines.some((l) => / depth 5 .* pv /.test(l)), 'a depth 5 line');
  // The engine's rules: a searchmoves list of one legal move answers it.
  const again = await ask(`go depth 1 searchmoves ${move}`, /^bestmove /);
  assert.equal(bestmove(again), move);
  // An illegal move is refused (and the search is over all moves).
  const before = lines.length;
  await ask('go depth 1 searchmoves a0a9', /^bestmove /);
  assert.ok(lines.slice(before).some((l) => l.includes('error')), 'a0a9 reported');
});

await check('MultiPV 3 gives three lines', async () => {
  engine.postMessage('setoption name MultiPV value 3');
  engine.postMessage(`position fen ${FEN}`);
  const from = lines.length;
  await ask('go depth 4', /^bestmove /);
  const pvs = new Set(
    lines.slice(from).filter((l) => / depth 4 /.test(l)).map((l) => l.match(/multipv (\d+)/)?.[1]),
  );
  assert.deepEqual([...pvs].sort(), ['1', '2', '3']);
  engine.postMessage('setoption name MultiPV value 1');
});

await check('stop answers go infinite', async () => {
  assert.ok(engine.canStopSearch, 'SharedArrayBuffer in Node');
  engine.postMessage(`position fen ${FEN}`);
  engine.postMessage('go infinite');
  await ask('', /^info depth 3 /);
  const t = Date.now();
  const from = lines.length;
  const line = await ask('stop', /^bestmove /, 5000);
  assert.ok(Date.now() - t < 2000, `answered ${Date.now() - t} ms after stop`);
  assert.match(bestmove(line), /^[a-i][0-9][a-i][0-9]$/);
  // One answer only, and the engine goes on.
  await ask('isready', /^readyok$/);
  assert.equal(lines.slice(from).filter((l) => l.startsWith('bestmove')).length, 1);
});

await check('ponderhit turns go ponder into a timed search', async () => {
  engine.postMessage(`position fen ${FEN}`);
  const from = lines.length;
  engine.postMessage('go ponder movetime 300');
  await new Promise((resolve) => setTimeout(resolve, 800));
  assert.ok(!lines.slice(from).some((l) => l.startsWith('bestmove')), 'no answer while pondering');
  const t = Date.now();
  await ask('ponderhit', /^bestmove /, 5000);
  assert.ok(Date.now() - t < 1500, `answered ${Date.now() - t} ms after ponderhit`);
});

await check('go movetime 300 ends by itself', async () => {
  const t = Date.now();
  await ask('go movetime 300', /^bestmove /, 5000);
  assert.ok(Date.now() - t < 1500, `took ${Date.now() - t} ms`);
});

// The threaded module (web/pkg/jiangjun-threads.wasm): required when
// JJ_WEB_THREADS=1 (web/test.sh --install, CI), else checked if built.
const threadsBuilt = existsSync(new URL('../pkg/jiangjun-threads.wasm', import.meta.url));
if (process.env.JJ_WEB_THREADS === '1' || threadsBuilt) {
  await check('Threads 2: helpers search too, the move is legal', async () => {
    assert.ok(engine.threads, `the threaded module: ${engine.threadsNote}`);
    // One thread's count at a fixed depth is always the same; the helpers'
    // nodes come on top of the main thread's.
    engine.postMessage('ucinewgame');
    engine.postMessage(`position fen ${FEN}`);
    const from = lines.length;
    await ask('go depth 11', /^bestmove /);
    const nodesOf = (at) => Number(lines.slice(at).filter((l) => / depth 11 .* pv /.test(l)).pop()?.match(/ nodes (\d+)/)?.[1]);
    const one = nodesOf(from);
    const two = lines.length;
    engine.postMessage('setoption name Threads value 2');
    engine.postMessage('ucinewgame');
    engine.postMessage(`position fen ${FEN}`);
    const line = await ask('go depth 11', /^bestmove /);
    assert.ok(!lines.slice(two).some((l) => l.includes('error')), 'no error');
    assert.ok(nodesOf(two) > 0 && nodesOf(two) !== one, `nodes ${nodesOf(two)} with 2 threads, ${one} with 1`);
    const move = bestmove(line);
    const again = await ask(`go depth 1 searchmoves ${move}`, /^bestmove /);
    assert.equal(bestmove(again), move, `${move} is legal`);
    engine.postMessage('setoption name Threads value 1');
    await ask('isready', /^readyok$/);
  });
} else {
  console.log('SKIP: Threads 2 (web/pkg/jiangjun-threads.wasm is not built)');
}

await check('one-thread module: Threads 2 falls back to one thread and says so', async () => {
  const single = await Jiangjun({ threads: false });
  const said = [];
  single.addMessageListener((line) => said.push(line));
  assert.equal(single.threads, false);
  single.postMessage('setoption name Threads value 2\nposition startpos\ngo depth 3');
  const deadline = Date.now() + 30000;
  while (!said.some((l) => l.startsWith('bestmove')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  single.terminate();
  assert.ok(said.some((l) => /^info string one search thread only: /.test(l)), said.join('\n'));
  assert.ok(said.some((l) => /cannot start the search threads.*using 1/.test(l)), said.join('\n'));
  assert.ok(said.some((l) => /^bestmove [a-i][0-9][a-i][0-9]/.test(l)));
});

await check('ucci: stop with nothing running answers nobestmove', async () => {
  await ask('ucci', /^ucciok$/);
  engine.postMessage(`position fen ${FEN}`);
  await ask('go depth 3', /^bestmove /);
  await ask('stop', /^nobestmove$/);
});

await check('rules API: legal moves, Chinese names, rulings', async () => {
  const module = await loadModule();
  const rules = await JiangjunRules({ wasmModule: module });
  assert.equal(rules.game('startpos').legal.length, 44);
  const g = rules.game('startpos', ['h2e2', 'h9g7']);
  assert.equal(g.ok, true);
  assert.deepEqual(g.moves[0], { iccs: 'h2e2', chinese: '炮二平五', wxf: 'C2.5' });
  assert.equal(g.moves[1].chinese, '马8进7');
  assert.equal(g.side, 'red');
  assert.equal(g.outcome, null);
  assert.ok(g.legal.includes('h0g2') && !g.legal.includes('h2e2'));
  const bad = rules.game('rnbakabnr/9/9 w', []);
  assert.equal(bad.ok, false);
  assert.equal(bad.ply, -1);
  assert.match(bad.error, /invalid FEN/);
  assert.equal(rules.game('startpos', ['h2e2', 'e0e1', 'h9g7']).ply, 1);
  const mate = rules.game('3k5/1R7/9/9/9/9/9/9/9/R4K3 w', ['a0a9']);
  assert.deepEqual(mate.outcome, { winner: 'red', reason: 'checkmate', text: 'red (checkmate)' });
  assert.equal(rules.read('startpos', ['h2e2'], '马8进7').move, 'h9g7');
  // An engine from the same compiled module answers too.
  const second = await Jiangjun({ wasmModule: module });
  const answer = new Promise((resolve) => {
    second.addMessageListener((line) => {
      if (line.startsWith('bestmove')) resolve(line.split(/\s+/)[1]);
    });
  });
  second.postMessage('position startpos moves h2e2\ngo depth 3');
  const move = await answer;
  second.terminate();
  assert.ok(rules.game('startpos', ['h2e2']).legal.includes(move), `${move} is legal`);
});

await check('endgame tables: fetched a material at a time, verdicts', async () => {
  if (!existsSync(new URL('../pkg/tb/tables.json', import.meta.url))) {
    console.log('     (skipped: web/pkg/tb is missing; web/build.sh builds it)');
    return;
  }
  const rules = await JiangjunRules({ wasmModule: await loadModule() });
  const fen = '9/4k4/9/9/9/9/9/9/9/R2K5 w';
  // Nothing fetched yet: the answer names the tables it needs.
  assert.deepEqual(rules.tablebase(fen).need, ['KRvK', 'KvK']);
  const t = await rules.probe(fen);
  assert.equal(t.shipped, true);
  assert.equal(t.material, 'KRvK');
  const list = await rules.tableList();
  assert.equal(t.bytes, list.KRvK + list.KvK);
  assert.equal(t.probe.wdl, 'win');
  assert.equal(t.probe.dtm, 3);
  assert.equal(t.probe.best, 'a0a8');
  assert.deepEqual(t.probe.moves[0], { iccs: 'a0a8', wdl: 'win', dtm: 3 });
  // After the best move Black is lost in 2; nothing more to fetch.
  const after = await rules.probe(fen, ['a0a8']);
  assert.equal(after.bytes, 0);
  assert.equal(after.probe.wdl, 'loss');
  assert.equal(after.probe.dtm, 2);
  // The full defence in its home formation holds against a lone rook.
  const formation = await rules.probe('2bakab2/9/9/9/9/9/9/9/9/3K1R3 w');
  assert.equal(formation.material, 'KRvKAABB');
  assert.equal(formation.probe.wdl, 'draw');
  assert.equal(formation.probe.dtm, null);
  // Outside the shipped tables: too many pieces, or a material not shipped.
  const start = await rules.probe('startpos');
  assert.equal(start.shipped, false);
  assert.equal(start.probe, null);
  const krnvk = await rules.probe('4k4/9/9/9/9/9/9/9/9/R2K1N3 w');
  assert.equal(krnvk.material, 'KRNvK');
  assert.equal(krnvk.shipped, false);
  assert.equal(krnvk.probe, null);
  // A damaged table is refused, and changes nothing.
  const bad = rules.addTable('KNvK.jtb', new Uint8Array(300));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /not a Jiangjun tablebase file/);
});

if (!process.argv.includes('--no-bench')) {
  await check(`bench counts ${BENCH_NODES} nodes`, async () => {
    const line = await ask('bench', /^Nodes searched/, 900000);
    const nodes = Number(line.split(':')[1]);
    const nps = await ask('', /^Nodes\/second/);
    console.log(`     ${line}; ${nps}`);
    assert.equal(nodes, BENCH_NODES);
  });
}

await check('quit ends the worker', async () => {
  await ask('quit', /^bye$/);
});
engine.terminate();
console.log(failed ? 'FAILED' : 'all passed');
process.exit(failed ? 1 : 0);
