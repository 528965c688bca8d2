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

function sharedFlags() {
  const shareable =
    typeof SharedArrayBuffer === 'function' &&
    typeof Atomics === 'object' &&
    (isNode || globalThis.crossOriginIsolated === true);
  return shareable ? new SharedArrayBuffer(3 * 4) : null;
}

/**
 * Start an engine. Options: `wasmUrl` (default: jiangjun.wasm next to this
 * file), or `wasmBinary` (the module's bytes), or `wasmModule` (a compiled
 * WebAssembly.Module, so a page that also uses `JiangjunRules` compiles it
 * once), `workerUrl` (default: worker.mjs next to this file). Resolves once
 * the module is loaded.
 */
export default async function Jiangjun(options = {}) {
  const wasmUrl = String(options.wasmUrl ?? new URL('./jiangjun.wasm', import.meta.url));
  const workerUrl = options.workerUrl ?? new URL('./worker.mjs', import.meta.url);
  const flagsBuffer = sharedFlags();
  const flags = flagsBuffer ? new Int32Array(flagsBuffer) : null;
  const listeners = new Set();

  let worker;
  let onWorkerMessage;
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    worker = new Worker(workerUrl);
    worker.on('message', (m) => onWorkerMessage(m));
    worker.on('error', (e) => onWorkerMessage({ type: 'error', message: String(e?.stack ?? e) }));
  } else {
    worker = new Worker(workerUrl, { type: 'module' });
    worker.onmessage = (e) => onWorkerMessage(e.data);
    worker.onerror = (e) => onWorkerMessage({ type: 'error', message: String(e.message ?? e) });
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
      return worker.terminate();
    },
  };

  onWorkerMessage = (m) => {
    if (m.type === 'line') {
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
  if (options.wasmModule) init.wasmModule = options.wasmModule;
  else if (options.wasmBinary) init.wasmBinary = options.wasmBinary;
  worker.postMessage(init);
  return started;
}
