// Runs the Jiangjun wasm module inside a worker (worker_threads in Node, a
// module Web Worker in a browser), so that a search, which runs inside one
// call into the module, never blocks the page or the caller's event loop.
//
// Messages from the loader: {type: 'init', wasmUrl | wasmBinary | wasmModule, flags,
// memory} first, then {type: 'line', line}. Messages back: {type: 'line', line},
// {type: 'ready'}, {type: 'error', message}, {type: 'exit'}, and from the
// threaded module {type: 'spawn', slot, state, region, len}.
//
// The threaded module (jiangjun-threads.wasm) imports `memory`, a shared
// WebAssembly.Memory the loader made. Its Lazy SMP helpers are threads the
// engine asks for (`jj_spawn`): the loader starts each in a worker of its
// own, with {type: 'thread', wasmModule, memory, slot, state, region, len}:
// that worker instantiates the module on the same memory, takes the stack
// and thread-local block in `region` and runs `jj_thread_start(slot)`; when
// it returns (or could not start) it sets the i32 at `state` and posts
// {type: 'thread-exit'}.
//
// `flags` (an Int32Array on a SharedArrayBuffer, or null) is how `stop`,
// `quit` and `ponderhit` reach a running search: the loader counts them in
// it before posting the line, and the search polls it (`jj_poll`) every
// thousand nodes or so. Their line messages queue behind the search, so a
// line whose count a search already took is not handed over again.

const STOP = 0; // `stop` and `quit` sent and not yet taken
const PONDERHIT = 1; // `ponderhit` sent and not yet taken
const BELL = 2; // bumped and notified on every one, to wake a waiting poll

const isNode = typeof process === 'object' && !!process.versions?.node;
let post;
let onMessage;
if (isNode) {
  const { parentPort } = await import('node:worker_threads');
  post = (m) => parentPort.postMessage(m);
  parentPort.on('message', (m) => onMessage(m));
} else {
  post = (m) => self.postMessage(m);
  self.onmessage = (e) => onMessage(e.data);
}

let wasm = null;
let flags = null;
// The module's memory: its own export, or the shared one it imports.
let memory = null;
// Counts taken by a search whose lines have not come yet.
const taken = [0, 0];
const decoder = new TextDecoder();
const encoder = new TextEncoder();
// Lines that arrive before the module is ready.
const early = [];

function write(ptr, len) {
  // A copy: TextDecoder takes no view of a SharedArrayBuffer.
  const bytes = new Uint8Array(memory.buffer, ptr, len).slice();
  post({ type: 'line', line: decoder.decode(bytes) });
}

// Milliseconds on a clock every worker shares (the search threads' clocks
// must agree): from the epoch, not from this worker's start.
function now() {
  return performance.timeOrigin + performance.now();
}

// Slot states (web/src/threads.rs).
const ENDED = 2;
const ABANDONED = 3;

function spawn(slot, state, region, len) {
  post({ type: 'spawn', slot, state, region, len });
  return 0;
}

function take(which) {
  if (Atomics.load(flags, which) > 0) {
    Atomics.sub(flags, which, 1);
    taken[which] += 1;
    return true;
  }
  return false;
}

// 0: nothing; 1: stop; 2: ponderhit. May wait up to `blockMs` for one.
function poll(blockMs) {
  if (!flags) return 0;
  if (blockMs > 0 && Atomics.load(flags, STOP) === 0 && Atomics.load(flags, PONDERHIT) === 0) {
    Atomics.wait(flags, BELL, Atomics.load(flags, BELL), blockMs);
  }
  if (take(STOP)) return 1;
  if (take(PONDERHIT)) return 2;
  return 0;
}

// Which count a line adds to, if any (the loader uses the same rule).
function counter(line) {
  const word = line.trim().split(/\s+/)[0];
  if (word === 'stop' || word === 'quit') return STOP;
  if (word === 'ponderhit') return PONDERHIT;
  return -1;
}

function handle(line) {
  const which = flags ? counter(line) : -1;
  if (which >= 0) {
    if (taken[which] > 0) {
      // A search already acted on it.
      taken[which] -= 1;
      if (which === PONDERHIT) return;
      // `quit` still quits; a taken `stop` is done.
      if (line.trim().split(/\s+/)[0] === 'stop') return;
    } else {
      Atomics.sub(flags, which, 1);
    }
  }
  const bytes = encoder.encode(line);
  const ptr = wasm.exports.jj_buffer(bytes.length);
  new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
  if (wasm.exports.jj_line(bytes.length) !== 0) {
    post({ type: 'exit' });
  }
}

async function load(msg) {
  const imports = { env: { jj_write: write, jj_now: now, jj_poll: poll, jj_spawn: spawn } };
  if (msg.memory) imports.env.memory = msg.memory;
  if (msg.wasmModule) {
    // Compiled by the caller: instantiating a Module gives the instance.
    return WebAssembly.instantiate(msg.wasmModule, imports);
  }
  let bytes = msg.wasmBinary;
  if (!bytes) {
    if (isNode) {
      const { readFile } = await import('node:fs/promises');
      // A URL (file:...), or a plain path.
      const url = msg.wasmUrl;
      bytes = await readFile(/^[a-z][a-z0-9+.-]+:/i.test(url) ? new URL(url) : url);
    } else {
      bytes = await (await fetch(msg.wasmUrl)).arrayBuffer();
    }
  }
  const { instance } = await WebAssembly.instantiate(bytes, imports);
  return instance;
}

// A helper search thread: run `jj_thread_start` on the region's stack, then
// say it has returned (or never started).
async function thread(msg) {
  const state = new Int32Array(msg.memory.buffer, msg.state, 1);
  let started = false;
  try {
    memory = msg.memory;
    const imports = {
      env: { memory, jj_write: write, jj_now: now, jj_poll: () => 0, jj_spawn: () => 1 },
    };
    const instance = await WebAssembly.instantiate(msg.wasmModule, imports);
    const e = instance.exports;
    // The thread-local block at the region's low end (aligned), the stack
    // above it, growing down from the region's end (16-byte aligned).
    const align = e.__tls_align.value;
    const tls = Math.ceil(msg.region / align) * align;
    if (tls + e.__tls_size.value + 65536 > msg.region + msg.len) throw new Error('region too small');
    e.__stack_pointer.value = (msg.region + msg.len) & ~15;
    e.__wasm_init_tls(tls);
    started = true;
    e.jj_thread_start(msg.slot);
    Atomics.store(state, 0, ENDED);
  } catch (err) {
    // Not started: the spawner gives up on it. Started: it trapped.
    if (!started) Atomics.compareExchange(state, 0, 0, ABANDONED);
    else Atomics.store(state, 0, ENDED);
    post({ type: 'error', message: String(err?.stack ?? err) });
  }
  Atomics.notify(state, 0);
  post({ type: 'thread-exit' });
}

onMessage = async (msg) => {
  if (msg.type === 'thread') {
    await thread(msg);
  } else if (msg.type === 'init') {
    try {
      flags = msg.flags ? new Int32Array(msg.flags) : null;
      wasm = await load(msg);
      memory = msg.memory ?? wasm.exports.memory;
      if (wasm.exports.jj_start() !== 0) throw new Error('the engine did not start');
    } catch (e) {
      post({ type: 'error', message: String(e?.stack ?? e) });
      return;
    }
    post({ type: 'ready' });
    for (const line of early.splice(0)) run(line);
  } else if (msg.type === 'line') {
    if (wasm) run(msg.line);
    else early.push(msg.line);
  }
};

function run(line) {
  try {
    handle(line);
  } catch (e) {
    // A trap (a panic aborts the module): nothing more can run.
    post({ type: 'error', message: String(e?.stack ?? e) });
    wasm = null;
  }
}
