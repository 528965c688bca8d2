// Jiangjun, a Xiangqi engine, as WebAssembly: the loader.
//
//   import Jiangjun from './jiangjun.mjs';
//   const engine = await Jiangjun();
//   engine.addMessageListener((line) => console.log(line));
//   engine.postMessage('uci');
//
// The engine runs in a worker (worker_threads in Node, a module Web Worker
// in a browser) and speaks UCI or UCCI, as the native binary does on
// stdin/stdout. `stop`, `ponderhit` and `quit` reach a running search
// through a SharedArrayBuffer the search polls; without one (a page that
// is not cross-origin isolated) they wait until the search ends, so
// `go infinite` and `go ponder` cannot be stopped there
// (`engine.canStopSearch` tells which).
//
// Where the page is cross-origin isolated (and in Node), the engine is
// the threaded module (jiangjun-threads.wasm): `setoption name Threads`
// above 1 searches with Lazy SMP helpers, each in a worker of its own on
// the engine's shared memory. Elsewhere it is the one-thread module, and a
// `Threads` above 1 is answered with an `info string` saying why
// (`engine.threads` tells which, `engine.threadsNote` why not).
//
// The rules (legal moves, move names, rulings) are a separate, synchronous
// API on the caller's thread: `JiangjunRules`, see rules.mjs.

export { default as JiangjunRules, loadModule } from './rules.mjs';

const STOP = 0;
const PONDERHIT = 1;
const BELL = 2;

const isNode = typeof process === 'object' && !!process.versions?.node;

function counter(line) {
  const word = line.trim().split(/\s+/)[0];
  if (word === 'stop' || word === 'quit') return STOP;
  if (word === 'ponderhit') return PONDERHIT;
  return -1;
}

function canShare() {
  return (
    typeof SharedArrayBuffer === 'function' &&
    typeof Atomics === 'object' &&
    (isNode || globalThis.crossOriginIsolated === true)
  );
}

function sharedFlags() {
  return canShare() ? new SharedArrayBuffer(3 * 4) : null;
}

// The threaded module's memory (web/build.rs): 64 MiB at first, 4 GiB at most.
const INITIAL_PAGES = 1024;
const MAX_PAGES = 65536;

async function readBytes(url) {
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return readFile(/^[a-z][a-z0-9+.-]+:/i.test(url) ? new URL(url) : url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.arrayBuffer();
}

/**
 * The threaded module and a shared memory for it, or why not:
 * {module, memory} or {note}.
 */
async function threadedModule(options) {
  if (options.threads === false) return { note: 'the caller asked for one thread' };
  if (!canShare()) {
    return { note: 'the page is not cross-origin isolated (no COOP/COEP headers), so no shared memory' };
  }
  try {
    const module =
      options.threadsModule ??
      (await WebAssembly.compile(
        await readBytes(String(options.threadsWasmUrl ?? new URL('./jiangjun-threads.wasm', import.meta.url))),
      ));
    const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAX_PAGES, shared: true });
    return { module, memory };
  } catch (e) {
    return { note: `the threaded module did not load (${e?.message ?? e})` };
  }
}

/**
 * Start an engine. Options: `wasmUrl` (default: jiangjun.wasm next to this
 * file), or `wasmBinary` (the module's bytes), or `wasmModule` (a compiled
 * WebAssembly.Module, so a page that also uses `JiangjunRules` compiles it
 * once): the one-thread module, used where the threaded one cannot be;
 * `threadsWasmUrl` (default: jiangjun-threads.wasm next to this file) or
 * `threadsModule`: the threaded module; `threads: false` for the
 * one-thread module everywhere; `workerUrl` (default: worker.mjs next to
 * this file). Resolves once the module is loaded.
 */
export default async function Jiangjun(options = {}) {
  const wasmUrl = String(options.wasmUrl ?? new URL('./jiangjun.wasm', import.meta.url));
  const workerUrl = options.workerUrl ?? new URL('./worker.mjs', import.meta.url);
  const flagsBuffer = sharedFlags();
  const flags = flagsBuffer ? new Int32Array(flagsBuffer) : null;
  const listeners = new Set();
  const threaded = await threadedModule(options);
  const { Worker } = isNode ? await import('node:worker_threads') : globalThis;

  // A worker running worker.mjs, its messages to `handle`.
  function startWorker(handle) {
    let w;
    if (isNode) {
      w = new Worker(workerUrl);
      w.on('message', (m) => handle(m));
      w.on('error', (e) => handle({ type: 'error', message: String(e?.stack ?? e) }));
    } else {
      w = new Worker(workerUrl, { type: 'module' });
      w.onmessage = (e) => handle(e.data);
      w.onerror = (e) => handle({ type: 'error', message: String(e.message ?? e) });
    }
    return w;
  }

  let onWorkerMessage;
  const worker = startWorker((m) => onWorkerMessage(m));
  // The helper search threads' workers, while they run.
  const helpers = new Set();

  function startHelper(m) {
    const helper = startWorker((h) => {
      if (h.type === 'thread-exit') {
        helpers.delete(helper);
        helper.terminate();
      } else if (h.type === 'line' || h.type === 'error') {
        const line = h.type === 'line' ? h.line : `info string error: search thread: ${h.message}`;
        for (const fn of listeners) fn(line);
      }
    });
    helpers.add(helper);
    helper.postMessage({
      type: 'thread',
      wasmModule: threaded.module,
      memory: threaded.memory,
      slot: m.slot,
      state: m.state,
      region: m.region,
      len: m.len,
    });
  }

  let ready;
  const started = new Promise((resolve, reject) => {
    ready = { resolve, reject };
  });
  let terminated = false;
  let isReady = false;

  const engine = {
    /** Whether `stop`/`ponderhit` reach a running search. */
    canStopSearch: flags !== null,
    /** Whether `Threads` above 1 searches on more threads. */
    threads: !!threaded.module,
    /** Why not, if not. */
    threadsNote: threaded.note ?? null,
    addMessageListener(fn) {
      listeners.add(fn);
    },
    removeMessageListener(fn) {
      listeners.delete(fn);
    },
    /** Send one or more lines (separated by newlines). */
    postMessage(text) {
      if (terminated) return;
      for (const line of String(text).split(/\r?\n/)) {
        if (threaded.note && /^\s*setoption\s+(name\s+)?threads\b/i.test(line)) {
          const note = `info string one search thread only: ${threaded.note}`;
          queueMicrotask(() => {
            for (const fn of listeners) fn(note);
          });
        }
        const which = flags ? counter(line) : -1;
        if (which >= 0) {
          // Counted before it is posted: the search may take it first.
          Atomics.add(flags, which, 1);
          Atomics.add(flags, BELL, 1);
          Atomics.notify(flags, BELL);
        }
        worker.postMessage({ type: 'line', line });
      }
    },
    /** End the worker at once (a running search too). */
    terminate() {
      terminated = true;
      for (const helper of helpers) helper.terminate();
      helpers.clear();
      return worker.terminate();
    },
  };

  onWorkerMessage = (m) => {
    if (m.type === 'spawn') {
      if (!terminated) startHelper(m);
    } else if (m.type === 'line') {
      for (const fn of listeners) fn(m.line);
    } else if (m.type === 'ready') {
      isReady = true;
      ready.resolve(engine);
    } else if (m.type === 'exit') {
      // `quit`: the session is over.
      engine.terminate();
    } else if (m.type === 'error') {
      const line = `info string error: ${m.message}`;
      for (const fn of listeners) fn(line);
      if (!isReady) {
        // Never started: nobody holds the engine to end its worker.
        engine.terminate();
        ready.reject(new Error(m.message));
      }
    }
  };

  const init = { type: 'init', wasmUrl, flags: flagsBuffer };
  if (threaded.module) {
    init.wasmModule = threaded.module;
    init.memory = threaded.memory;
  } else if (options.wasmModule) init.wasmModule = options.wasmModule;
  else if (options.wasmBinary) init.wasmBinary = options.wasmBinary;
  worker.postMessage(init);
  return started;
}
