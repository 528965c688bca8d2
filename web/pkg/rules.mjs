// Jiangjun's rules for a GUI: legal moves, move names and game rulings,
// answered synchronously by the engine's own rules crate in the same wasm
// module, instantiated a second time on the caller's thread (no session is
// started there, so it stays small and never searches).
//
//   import { JiangjunRules } from './jiangjun.mjs';
//   const rules = await JiangjunRules();          // same options as Jiangjun()
//   const g = rules.game('startpos', ['h2e2']);   // synchronous from here on
//   g.legal;      // ['a9a8', ...]: the legal moves of the position reached
//   g.moves[0];   // {iccs: 'h2e2', chinese: '炮二平五', wxf: 'C2.5'}
//   g.fen, g.side ('red' | 'black'), g.check, g.start (the start FEN)
//   g.outcome;    // null, or {winner: 'red' | 'black' | null, reason, text}
//   rules.read('startpos', [], '炮二平五');   // {ok: true, move: 'h2e2', ...}
//
// A refused query (a bad FEN, an illegal move) answers
// {ok: false, error, ply}, ply being the index of the refused move (-1: the
// FEN). `rules.query(line)` sends a raw query (see web/src/rules.rs).

const isNode = typeof process === 'object' && !!process.versions?.node;

/** The module's bytes, or a compiled module, from the options. */
export async function loadModule(options = {}) {
  if (options.wasmModule) return options.wasmModule;
  if (options.wasmBinary) return WebAssembly.compile(options.wasmBinary);
  const url = String(options.wasmUrl ?? new URL('./jiangjun.wasm', import.meta.url));
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(/^[a-z][a-z0-9+.-]+:/i.test(url) ? new URL(url) : url);
    return WebAssembly.compile(bytes);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  // Streaming compilation needs the wasm MIME type; not every server sends it.
  if (response.headers.get('Content-Type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

function position(fen) {
  const f = String(fen ?? 'startpos').trim();
  return f === '' || f === 'startpos' ? 'startpos' : `fen ${f}`;
}

/**
 * Instantiate the rules. Options: `wasmModule` (a compiled
 * WebAssembly.Module, e.g. the one the page gave `Jiangjun()`), or
 * `wasmBinary` / `wasmUrl` as for `Jiangjun()`.
 */
export default async function JiangjunRules(options = {}) {
  const module = await loadModule(options);
  // The session's imports are never called by the rules functions; they
  // are given so the module links.
  const imports = {
    env: {
      jj_write: () => {},
      jj_now: () => performance.now(),
      jj_poll: () => 0,
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  const wasm = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function query(line) {
    const bytes = encoder.encode(line);
    const ptr = wasm.jj_buffer(bytes.length);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    const len = wasm.jj_rules(bytes.length);
    // Read after the call: the memory may have grown (a new buffer).
    const answer = new Uint8Array(wasm.memory.buffer, wasm.jj_answer(), len);
    return JSON.parse(decoder.decode(answer));
  }

  const moveText = (moves) => (moves?.length ? ` moves ${moves.join(' ')}` : '');
  return {
    module,
    query,
    /** The game from `fen` ('startpos' or a FEN) after `moves` (ICCS). */
    game(fen, moves = []) {
      return query(`game ${position(fen)}${moveText(moves)}`);
    },
    /** `text` (Chinese, WXF or ICCS) as a legal move after `moves`. */
    read(fen, moves, text) {
      return query(`read ${position(fen)}${moveText(moves)} notation ${text}`);
    },
  };
}
