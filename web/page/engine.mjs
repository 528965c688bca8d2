// The page's side of the engine: one Jiangjun worker, the searches asked
// of it in order, and the analysis its `info` lines carry.
//
// The engine answers searches in the order they were started, each with
// one `bestmove`, so the searches wait in a queue: a `bestmove` ends the
// first one, and `info` lines belong to it. A search the page no longer
// wants (the user took a move back, set up a position) is marked
// cancelled and stopped; its answer is dropped when it comes.

import Jiangjun from '../pkg/jiangjun.mjs';

/** One `info` line's fields: depth, multipv, score, nodes, nps, pv. */
export function parseInfo(line) {
  const words = line.split(/\s+/);
  if (words[0] !== 'info' || !words.includes('pv')) return null;
  const info = { multipv: 1 };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === 'pv') {
      info.pv = words.slice(i + 1);
      break;
    }
    if (w === 'score') {
      const kind = words[i + 1];
      const value = Number(words[i + 2]);
      info.score = kind === 'mate' ? { mate: value } : { cp: value };
      i += 2;
      // `lowerbound` / `upperbound` may follow.
      if (words[i + 1] === 'lowerbound' || words[i + 1] === 'upperbound') info.bound = words[++i];
    } else if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull'].includes(w)) {
      info[w] = Number(words[++i]);
    }
  }
  return info.depth && info.pv?.length ? info : null;
}

export class EngineClient {
  /**
   * `wasmModule`: the compiled module. `events`: `onInfo(search, info)`,
   * `onBestmove(search, move)`, `onLine(line)` (every line),
   * `onState(text)` (ready, thinking...).
   */
  constructor(wasmModule, events) {
    this.wasmModule = wasmModule;
    this.events = events;
    this.queue = [];
    this.options = new Map();
    this.engine = null;
    this.starting = null;
    this.nextId = 1;
    // Lines sent while the engine restarts, for the new one.
    this.pending = [];
  }

  send(line) {
    if (this.engine) this.engine.postMessage(line);
    else this.pending.push(line);
  }

  async start() {
    const engine = await Jiangjun({ wasmModule: this.wasmModule });
    // Until the handshake is over, lines for the engine wait in `pending`.
    this.starting = engine;
    const handshake = new Promise((resolve) => {
      this.onUciok = resolve;
    });
    engine.addMessageListener((line) => this.onLine(engine, line));
    engine.postMessage('uci');
    await handshake;
    for (const [name, value] of this.options) engine.postMessage(`setoption name ${name} value ${value}`);
    for (const line of this.pending.splice(0)) engine.postMessage(line);
    this.engine = engine;
    this.starting = null;
    this.events.onState?.(this.busy ? 'thinking' : 'ready');
  }

  /** Whether `Threads` above 1 searches on more threads (the threaded module runs). */
  get threaded() {
    return this.engine?.threads ?? false;
  }

  /** Whether `stop` reaches a running search (the page is cross-origin isolated). */
  get canStop() {
    return this.engine?.canStopSearch ?? false;
  }

  get busy() {
    return this.queue.length > 0;
  }

  /** The search whose lines are coming now, or null. */
  get current() {
    return this.queue[0] ?? null;
  }

  setOption(name, value) {
    if (this.options.get(name) === String(value)) return;
    this.options.set(name, String(value));
    // A restarting engine takes every option when it starts.
    this.engine?.postMessage(`setoption name ${name} value ${value}`);
  }

  /**
   * Search `position` (the text after UCI's `position`) with `goArgs`
   * (after `go`); `purpose` is the caller's ('move', 'analyse'). Returns
   * the search record, whose `lines` map holds the latest info per multipv.
   */
  go(position, goArgs, purpose, data = {}) {
    const search = { id: this.nextId++, purpose, position, goArgs, lines: new Map(), best: null, ...data };
    this.queue.push(search);
    this.send(`position ${position}`);
    this.send(`go ${goArgs}`);
    this.events.onState?.('thinking');
    return search;
  }

  /** Stop the running search: it answers with its best move so far. */
  stop() {
    // While restarting, the engine has nothing running yet.
    if (!this.busy || !this.engine) return;
    if (this.canStop) {
      this.engine.postMessage('stop');
    } else {
      this.restart();
    }
  }

  /** Drop every search asked so far (their answers will be ignored) and stop them. */
  cancelAll() {
    for (const s of this.queue) s.cancelled = true;
    this.stop();
  }

  /**
   * Without a shared buffer a running search cannot be reached: end the
   * worker, answer the first search with the best move its analysis had,
   * drop the others, and start a fresh engine with the same options.
   */
  async restart() {
    const old = this.engine;
    this.engine = null;
    old?.terminate();
    const [first, ...rest] = this.queue.splice(0);
    for (const s of rest) s.cancelled = true;
    this.events.onState?.('restarting');
    // Searches asked for while the engine restarts are sent once it runs.
    await this.start();
    if (first && !first.cancelled) {
      const best = first.lines.get(1)?.pv?.[0] ?? null;
      this.events.onBestmove?.(first, best);
    }
  }

  onLine(engine, line) {
    if (engine !== this.engine && engine !== this.starting) return;
    this.events.onLine?.(line);
    if (line === 'uciok') {
      this.onUciok?.();
      return;
    }
    const search = this.queue[0];
    if (line.startsWith('bestmove')) {
      if (!search) return;
      this.queue.shift();
      const move = line.split(/\s+/)[1];
      search.best = move && move !== '(none)' ? move : null;
      if (!search.cancelled) this.events.onBestmove?.(search, search.best);
      this.events.onState?.(this.busy ? 'thinking' : 'ready');
      return;
    }
    const info = search ? parseInfo(line) : null;
    if (info && !search.cancelled) {
      // A deeper iteration starts the table again.
      if (info.multipv === 1) {
        for (const [k, v] of search.lines) if (v.depth < info.depth) search.lines.delete(k);
      }
      search.lines.set(info.multipv, info);
      this.events.onInfo?.(search, info);
    }
  }
}
