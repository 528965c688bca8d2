// The figures in web/README.md: the page's download size, `bench` in
// headless Chromium against the native binary (alternating, in one
// session), and the time from opening the page to the engine's first move
// at `go depth 8`. Wall-clock and CPU seconds (Chromium's processes, or
// the native process), with the load average, since the machine is shared.
//
// Usage: node web/test/browser-measure.mjs [RUNS]   (default 3)
//        node web/test/browser-measure.mjs sizes    (the sizes only)
// Needs what web/test/browser.sh installs, web/pkg/jiangjun.wasm and
// target/release/jiangjun.

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { ROOT, loadAverage, start, treeCpuSeconds } from './browser-lib.mjs';

const RUNS = Number(process.argv[2] ?? 3);
// The pinned count's one source, which the native tests read too.
const BENCH_NODES = Number(readFileSync(`${ROOT}engine/bench-nodes.txt`, 'utf8').trim());

function sizes() {
  const files = [
    ...['jiangjun.wasm', 'jiangjun.mjs', 'rules.mjs', 'worker.mjs'].map((f) => `web/pkg/${f}`),
    ...readdirSync(`${ROOT}web/page`).map((f) => `web/page/${f}`),
  ];
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const bytes = readFileSync(`${ROOT}${f}`);
    const z = gzipSync(bytes, { level: 9 }).length;
    console.log(`  ${f}: ${bytes.length} bytes, gzip -9 ${z}`);
    raw += bytes.length;
    gz += z;
  }
  console.log(`  total: ${raw} bytes, gzip -9 ${gz}`);
}

/** Native `bench`: [ms, nps, CPU seconds] (bash's `times` gives the child's CPU). */
function nativeBench() {
  const out = execFileSync('bash', ['-c', `"${ROOT}target/release/jiangjun" bench 2>&1; times`], {
    encoding: 'utf8',
  });
  const ms = Number(out.match(/Total time \(ms\)\s*:\s*(\d+)/)[1]);
  const nodes = Number(out.match(/Nodes searched\s*:\s*(\d+)/)[1]);
  const nps = Number(out.match(/Nodes\/second\s*:\s*(\d+)/)[1]);
  if (nodes !== BENCH_NODES) throw new Error(`native bench counted ${nodes}`);
  // The last line of `times`: the children's user and system time.
  const [user, sys] = out.trim().split('\n').at(-1).split(/\s+/).map((t) => {
    const [, m, s] = t.match(/(\d+)m([\d.]+)s/);
    return Number(m) * 60 + Number(s);
  });
  return [ms, nps, user + sys];
}

/** `bench` through the loader in a page: [ms, nps, CPU seconds of Chromium]. */
async function browserBench(session) {
  const page = await session.browser.newPage();
  await page.goto(`${session.base}/page/?you=both`);
  await page.waitForFunction(() => document.body.dataset.engine === 'ready', { timeout: 60000 });
  const pid = session.browser.process().pid;
  const cpu0 = treeCpuSeconds(pid);
  const lines = await page.evaluate(async () => {
    const { default: Jiangjun } = await import('/pkg/jiangjun.mjs');
    const engine = await Jiangjun();
    const got = [];
    await new Promise((resolve) => {
      engine.addMessageListener((line) => {
        if (/^(Total time|Nodes|info string error)/.test(line)) got.push(line);
        if (/^(Nodes\/second|info string error)/.test(line)) resolve();
      });
      engine.postMessage('uci');
      engine.postMessage('bench');
    });
    engine.terminate();
    return got;
  });
  const cpu = treeCpuSeconds(pid) - cpu0;
  await page.close();
  const text = lines.join('\n');
  const nodes = Number(text.match(/Nodes searched\s*:\s*(\d+)/)?.[1]);
  if (nodes !== BENCH_NODES) throw new Error(`browser bench: ${text}`);
  const ms = Number(text.match(/Total time \(ms\)\s*:\s*(\d+)/)[1]);
  const nps = Number(text.match(/Nodes\/second\s*:\s*(\d+)/)[1]);
  return [ms, nps, cpu];
}

/**
 * Opening the page (a fresh profile, nothing cached) to the engine's first
 * move at depth 8, searched (the opening book is off).
 */
async function firstMove(session) {
  const context = await session.browser.createBrowserContext();
  const page = await context.newPage();
  const pid = session.browser.process().pid;
  const cpu0 = treeCpuSeconds(pid);
  const t0 = Date.now();
  await page.goto(`${session.base}/page/?you=black&think=depth8&book=0`);
  await page.waitForFunction(() => document.body.dataset.plies === '1', { timeout: 120000, polling: 10 });
  const ms = Date.now() - t0;
  const cpu = treeCpuSeconds(pid) - cpu0;
  // From the navigation's start to the engine's handshake (download, compile, start).
  const ready = await page.evaluate(() => performance.getEntriesByName('jiangjun-ready')[0]?.startTime);
  const move = await page.$eval('#moves .zh', (e) => e.textContent);
  // The analysis is drawn at the next frame; it must show a depth 8 search.
  await page.waitForFunction(() => document.body.dataset.depth === '8', { timeout: 5000 });
  await context.close();
  return [ms, cpu, move, Math.round(ready)];
}

console.log(`download size:`);
sizes();
if (process.argv[2] === 'sizes') process.exit(0);
const session = await start();
console.log(`\nbench, alternating (load average before each run):`);
const ratios = [];
for (let i = 1; i <= RUNS; i++) {
  const l1 = loadAverage();
  const [nms, nnps, ncpu] = nativeBench();
  const l2 = loadAverage();
  const [bms, bnps, bcpu] = await browserBench(session);
  ratios.push(BENCH_NODES / bcpu / (BENCH_NODES / ncpu));
  console.log(
    `| ${i} | ${nms} / ${nnps} | ${ncpu.toFixed(2)} | ${l1} | ${bms} / ${bnps} | ${bcpu.toFixed(2)} | ${l2} |`,
  );
}
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
console.log(`nodes per CPU second, Chromium / native: ${mean(ratios).toFixed(2)} (mean of ${RUNS})`);

console.log(`\nopening the page to the engine's first move (go depth 8):`);
for (let i = 1; i <= RUNS; i++) {
  const load = loadAverage();
  const [ms, cpu, move, ready] = await firstMove(session);
  console.log(`| ${i} | ${ms} ms | ${cpu.toFixed(2)} CPU s | ready at ${ready} ms | ${move} | load ${load} |`);
}
await session.close();
