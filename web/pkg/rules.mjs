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
//
// Endgame tables (`.jtb` files; web/build.sh puts the page's set and its
// list, tables.json, in tb/ next to this file), fetched a material at a
// time as a game reaches them:
//
//   const t = await rules.probe(fen, moves);   // fetches what it needs
//   t.shipped;   // false: the position is in no table of the list
//   t.probe;     // null, or {wdl: 'win' | 'draw' | 'loss', dtm: 3 (plies
//                //   to mate, null for a draw), rule (lost by the
//                //   perpetual-check rule), best: 'a0a8', moves: [{iccs,
//                //   wdl, dtm} for each move, best first, from the mover's view]}
//   rules.tablebase(fen, moves);   // the same now, without fetching;
//                                  // `need` lists the tables it lacks
//   rules.addTable('KRvK.jtb', bytes);   // {ok, material} or {ok: false, error}
//
// Option `tablesUrl`: where the tables and tables.json are (default: tb/
// next to this file).

const isNode = typeof process === 'object' && !!process.versions?.node;

/** The bytes at `url` (a file path or file: URL in Node). */
async function fetchBytes(url) {
  if (isNode && !/^https?:/i.test(url)) {
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(/^[a-z][a-z0-9+.-]+:/i.test(url) ? new URL(url) : url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

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

  // Read after the call: the memory may have grown (a new buffer).
  const answer = (len) =>
    JSON.parse(decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.jj_answer(), len)));

  function query(line) {
    const bytes = encoder.encode(line);
    const ptr = wasm.jj_buffer(bytes.length);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    return answer(wasm.jj_rules(bytes.length));
  }

  /** Put `name` and then `bytes` in the module's input buffer: their lengths. */
  function putNamed(name, bytes) {
    const n = encoder.encode(name);
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const ptr = wasm.jj_buffer(n.length + data.length);
    const buffer = new Uint8Array(wasm.memory.buffer, ptr, n.length + data.length);
    buffer.set(n);
    buffer.set(data, n.length);
    return [n.length, data.length];
  }

  /** Add a table file's bytes under its file name ('KRvK.jtb'). */
  function addTable(name, bytes) {
    return answer(wasm.jj_tb_add(...putNamed(name, bytes)));
  }

  /**
   * A game file's games (XQF, CBR, CBF, a CBL library), by its file name
   * and bytes: {ok, games: [{fen, moves (ICCS), red, black, event,
   * result}]} or {ok: false, error}.
   */
  function gameFile(name, bytes) {
    return answer(wasm.jj_game_file(...putNamed(name, bytes)));
  }

  const moveText = (moves) => (moves?.length ? ` moves ${moves.join(' ')}` : '');
  const tablebase = (fen, moves = []) => query(`tb ${position(fen)}${moveText(moves)}`);

  // The tables: their list (fetched once) and each table's fetch (once).
  const tablesUrl = String(options.tablesUrl ?? new URL('./tb/', import.meta.url)).replace(/\/?$/, '/');
  let list = null;
  const fetching = new Map();
  const tableList = () => {
    list ??= fetchBytes(`${tablesUrl}tables.json`).then(
      (b) => JSON.parse(decoder.decode(b)).tables ?? {},
      // No list (the tables were not built or not served): no tables.
      () => ({}),
    );
    return list;
  };
  const fetchTable = (material) => {
    if (!fetching.has(material)) {
      const name = `${material}.jtb`;
      const added = fetchBytes(`${tablesUrl}${name}`).then((bytes) => {
        const a = addTable(name, bytes);
        if (!a.ok) throw new Error(a.error);
      });
      // A failed fetch may be tried again later.
      added.catch(() => fetching.delete(material));
      fetching.set(material, added);
    }
    return fetching.get(material);
  };

  /**
   * The tables' verdict on the position, fetching the tables it needs
   * first when the list has them all: the `tb` answer, with `shipped`
   * (whether the list holds the position's material) and `bytes` (the
   * bytes fetched for it, 0 when all were already here). Rejects if a
   * table cannot be fetched or is refused.
   */
  async function probe(fen, moves = []) {
    let t = tablebase(fen, moves);
    if (!t.ok || t.material === null) return { ...t, shipped: false, bytes: 0 };
    const tables = await tableList();
    if (!t.need.every((m) => m in tables)) return { ...t, shipped: false, bytes: 0 };
    const bytes = t.need.filter((m) => !fetching.has(m)).reduce((sum, m) => sum + tables[m], 0);
    if (t.need.length) {
      await Promise.all(t.need.map(fetchTable));
      t = tablebase(fen, moves);
    }
    return { ...t, shipped: true, bytes };
  }

  return {
    module,
    query,
    addTable,
    gameFile,
    tablebase,
    probe,
    /** The list of tables that can be fetched: {material: bytes}. */
    tableList,
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
