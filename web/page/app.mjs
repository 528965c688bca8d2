// The page: a game against Jiangjun. The rules (legal moves, move names,
// the ruling) come from the engine's rules crate, in an instance of the
// wasm module on this thread; the engine searches in a worker. In the
// endings the page ships tables for, the tables' verdict and best move are
// shown (fetched from ../pkg/tb/ when a game first gets there).
//
// URL parameters (for links and tests): `you=red|black|both`,
// `think=depth8|movetime1000`, `book=0` (no opening book), `fen=...`.

import { JiangjunRules, loadModule } from '../pkg/jiangjun.mjs';
import { Board } from './board.mjs';
import { EngineClient } from './engine.mjs';
import { pgn, renderMoves, resultOf } from './record.mjs';

const $ = (id) => document.getElementById(id);
const COLORS = { red: 'Red', black: 'Black' };

const state = {
  start: 'startpos', // the FEN the game started from
  moves: [], // ICCS moves played
  game: null, // the rules' answer for start + moves
  selected: null, // the square of the piece picked up
  analysing: false,
};
let rules;
let engine;
let board;

function message(text, kind = 'info') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

function setStatus(text) {
  $('status').textContent = text;
}

function human() {
  return $('you').value;
}

/** The colour the engine plays, or null when the user plays both. */
function engineColor() {
  const you = human();
  if (you === 'both') return null;
  return you === 'red' ? 'black' : 'red';
}

/** The position as UCI's `position` takes it. */
function positionText(moves = state.moves) {
  const base = state.start === 'startpos' ? 'startpos' : `fen ${state.start}`;
  return moves.length ? `${base} moves ${moves.join(' ')}` : base;
}

function kingSquare(fen, side) {
  const letter = side === 'red' ? 'K' : 'k';
  const rows = fen.split(/\s+/)[0].split('/');
  for (let i = 0; i < rows.length; i++) {
    let file = 0;
    for (const ch of rows[i]) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (ch === letter) return `${'abcdefghi'[file]}${9 - i}`;
        file += 1;
      }
    }
  }
  return null;
}

function drawBoard() {
  const g = state.game;
  const targets = state.selected
    ? g.legal.filter((m) => m.startsWith(state.selected)).map((m) => m.slice(2, 4))
    : [];
  board.draw(g.fen, {
    selected: state.selected,
    targets,
    last: state.moves.at(-1) ?? null,
    check: g.check ? kingSquare(g.fen, g.side) : null,
  });
}

/** Replay the game with the rules and show it; start the engine if it is to move. */
function update() {
  const g = rules.game(state.start, state.moves);
  if (!g.ok) {
    // Only moves the rules allowed are ever played: this is a bug.
    message(`Internal error: ${g.error}`, 'error');
    return;
  }
  state.game = g;
  state.selected = null;
  drawBoard();
  renderMoves($('moves'), g.moves, g.start.split(/\s+/)[1] === 'b' ? 'black' : 'red');
  $('moves').parentElement.scrollTop = 1e6;
  $('current-fen').value = g.fen;
  document.body.dataset.plies = String(state.moves.length);
  document.body.dataset.side = g.side;
  $('result').textContent = g.outcome ? `${resultOf(g.outcome)}: ${g.outcome.text}` : '';
  document.body.dataset.outcome = g.outcome ? g.outcome.text : '';
  showTablebase();
  if (g.outcome) {
    setStatus(`Game over: ${g.outcome.text}.`);
    return;
  }
  const who = COLORS[g.side];
  if (g.side === engineColor()) {
    setStatus(`${who} to move: Jiangjun is thinking…`);
    think();
  } else {
    setStatus(`${who} to move${g.check ? ' (in check)' : ''}: your move.`);
  }
}

function strengthOptions(full) {
  const limit = !full && $('limit').checked;
  engine.setOption('OwnBook', $('book').checked ? 'true' : 'false');
  engine.setOption('Skill Level', full ? 20 : $('skill').value);
  engine.setOption('UCI_LimitStrength', limit ? 'true' : 'false');
  if (limit) {
    const elo = $('elo');
    const value = Math.min(Math.max(Number(elo.value) || 0, Number(elo.min)), Number(elo.max));
    elo.value = String(value);
    engine.setOption('UCI_Elo', value);
  }
  engine.setOption('MultiPV', $('multipv').value);
}

function think() {
  strengthOptions(false);
  clearAnalysis();
  engine.go(positionText(), $('think').value, 'move', { plies: state.moves.length });
}

function analyse() {
  cancelSearches();
  strengthOptions(true);
  clearAnalysis();
  state.analysing = true;
  engine.go(positionText(), 'infinite', 'analyse', { plies: state.moves.length });
  setStatus('Analysing (Stop ends it).');
}

/** Drop the searches asked so far: the position they were for is gone. */
function cancelSearches() {
  if (engine.busy) engine.cancelAll();
  state.analysing = false;
}

function playMove(move) {
  if (!state.game.legal.includes(move)) return false;
  state.moves.push(move);
  update();
  return true;
}

function onSquare(square) {
  const g = state.game;
  if (!g || g.outcome) return;
  // The engine's turn: clicks wait.
  if (g.side === engineColor()) return;
  if (state.selected) {
    const move = state.selected + square;
    if (g.legal.includes(move)) {
      cancelSearches();
      message('');
      playMove(move);
      return;
    }
  }
  const own = g.legal.some((m) => m.startsWith(square));
  state.selected = own && state.selected !== square ? square : null;
  drawBoard();
}

// --- endgame tables -----------------------------------------------------

// The position the verdict on show (or being fetched) is for.
let tablebaseFor = null;

/** Show the tables' line, or hide it (`state`: the body's data-tb). */
function tablebaseLine(text, tbState, probe = null) {
  $('tablebase-box').hidden = !text;
  $('tablebase').textContent = text;
  document.body.dataset.tb = tbState;
  document.body.dataset.tbBest = probe?.best ?? '';
  const list = $('tb-moves');
  list.replaceChildren();
  $('tb-details').hidden = !probe?.moves.length;
  for (const m of probe?.moves ?? []) {
    const li = document.createElement('li');
    const zh = document.createElement('span');
    zh.textContent = rules.game(state.game.fen, [m.iccs]).moves?.[0]?.chinese ?? m.iccs;
    const iccs = document.createElement('span');
    iccs.className = 'iccs';
    iccs.textContent = m.iccs;
    const verdict = document.createElement('span');
    verdict.className = m.wdl;
    verdict.textContent = m.dtm === null ? m.wdl : `${m.wdl} ${m.dtm}`;
    li.append(zh, iccs, verdict);
    list.appendChild(li);
  }
}

/** The verdict in words, from the side to move's view. */
function verdictText(p, side) {
  const who = `${COLORS[side]} to move`;
  if (p.rule) return `loss (${who}): only perpetual check avoids mate, and perpetual check loses`;
  if (p.wdl === 'draw') return `draw (${who})`;
  return `${p.wdl} in ${p.dtm} plies (${who})`;
}

/**
 * The endgame tables' verdict on the position, when its material is in the
 * tables the page ships: fetched (a material at a time, with the tables
 * its captures lead to) the first time a game gets there.
 */
async function showTablebase() {
  const g = state.game;
  const key = positionText();
  tablebaseFor = key;
  const now = rules.tablebase(state.start, state.moves);
  if (g.outcome || !now.ok || now.material === null) {
    tablebaseLine('', 'none');
    return;
  }
  try {
    const list = await rules.tableList();
    if (tablebaseFor !== key) return;
    if (!now.need.every((m) => m in list)) {
      tablebaseLine('', 'none');
      return;
    }
    if (now.need.length) {
      const kb = Math.round(now.need.reduce((sum, m) => sum + list[m], 0) / 1024);
      tablebaseLine(`Tablebase: fetching ${now.need.join(', ')} (${kb} KB)…`, 'loading');
    }
    const t = await rules.probe(state.start, state.moves);
    if (tablebaseFor !== key) return;
    if (!t.ok || !t.probe) {
      // A position no table holds (a pawn behind its start, say).
      tablebaseLine('', 'none');
      return;
    }
    const p = t.probe;
    const best = p.best ? rules.game(g.fen, [p.best]).moves?.[0]?.chinese ?? p.best : null;
    tablebaseLine(
      `Tablebase (${t.material}): ${verdictText(p, g.side)}${best ? ` · best ${best} (${p.best})` : ''}`,
      p.dtm === null ? p.wdl : `${p.wdl} ${p.dtm}`,
      p,
    );
  } catch (e) {
    if (tablebaseFor !== key) return;
    tablebaseLine(`Tablebase: could not load the tables (${e.message ?? e})`, 'error');
  }
}

// --- analysis display -------------------------------------------------

function clearAnalysis() {
  // A draw still waiting is of the search this clears away.
  pendingDraw = null;
  delete document.body.dataset.depth;
  delete document.body.dataset.scoreSide;
  $('score-side').textContent = '';
  $('search-summary').textContent = '—';
  $('pv-lines').replaceChildren();
  $('bestmove').textContent = '';
}

/**
 * A score as the engine gives it, from the side to move in the searched
 * position ('+1.25', '-M3'): the side the analysis is for, so its best line
 * reads highest whichever colour it plays. The page says which side.
 */
function scoreText(score) {
  if (!score) return '?';
  if ('mate' in score) return `${score.mate > 0 ? '+' : '-'}M${Math.abs(score.mate)}`;
  const v = score.cp / 100;
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
}

/** Chinese names of a PV's moves from the search's position. */
function pvNames(search, pv) {
  const before = state.moves.slice(0, search.plies);
  const g = rules.game(state.start, before.concat(pv));
  if (!g.ok) return pv.map((m) => ({ chinese: m, iccs: m }));
  return g.moves.slice(before.length);
}

// The search whose analysis waits for the next frame, if any.
let pendingDraw = null;
function onInfo(search) {
  // Redraw at most once a frame: info lines come faster than that.
  const scheduled = pendingDraw !== null;
  pendingDraw = search;
  if (!scheduled) requestAnimationFrame(flushAnalysis);
}

/** Draw the analysis that waits for a frame, now. */
function flushAnalysis() {
  const search = pendingDraw;
  pendingDraw = null;
  if (search) drawAnalysis(search);
}

function drawAnalysis(search) {
  if (search.cancelled) return;
  const side = rules.game(state.start, state.moves.slice(0, search.plies)).side;
  const lines = [...search.lines.values()].sort((a, b) => a.multipv - b.multipv);
  const top = lines[0];
  if (!top) return;
  const nps = top.nps ? `${Math.round(top.nps / 1000)} kN/s` : '';
  $('search-summary').textContent =
    `depth ${top.depth}/${top.seldepth ?? top.depth}  score ${scoreText(top.score)}  ` +
    `nodes ${top.nodes ?? '?'}  ${nps}`;
  $('score-side').textContent = `${COLORS[side]} to move: scores from ${COLORS[side]}'s side`;
  document.body.dataset.scoreSide = side;
  document.body.dataset.depth = String(top.depth);
  const list = $('pv-lines');
  list.replaceChildren();
  for (const info of lines) {
    const li = document.createElement('li');
    li.dataset.multipv = String(info.multipv);
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(info.score);
    const names = pvNames(search, info.pv.slice(0, 12));
    const zh = document.createElement('span');
    zh.className = 'zh';
    zh.textContent = names.map((m) => m.chinese).join(' ');
    const iccs = document.createElement('div');
    iccs.className = 'iccs';
    iccs.textContent = `d${info.depth}: ${info.pv.slice(0, 12).join(' ')}`;
    li.append(score, zh, iccs);
    list.appendChild(li);
  }
}

function onBestmove(search, move) {
  // A short search can end before the next frame: show its last lines now,
  // so that the analysis of a move is there when the move is.
  flushAnalysis();
  if (search.purpose === 'analyse') {
    state.analysing = false;
    const names = move ? pvNames(search, [move]) : [];
    $('bestmove').textContent = move ? `bestmove ${names[0]?.chinese ?? move} (${move})` : 'no move';
    setStatus('Analysis stopped.');
    document.body.dataset.bestmove = move ?? '';
    // Analysing on the engine's turn put its move off: the game goes on.
    const g = state.game;
    if (!g.outcome && g.side === engineColor() && !engine.busy) {
      setStatus(`${COLORS[g.side]} to move: Jiangjun is thinking…`);
      think();
    }
    return;
  }
  // The engine's move: only for the position it was asked about.
  if (search.plies !== state.moves.length || state.game.side !== engineColor()) return;
  if (!move || !playMove(move)) {
    message(`The engine answered ${move ?? 'nothing'}, not a legal move here.`, 'error');
  }
}

// --- controls -----------------------------------------------------------

function newGame(start = 'startpos') {
  cancelSearches();
  state.start = start;
  state.moves = [];
  clearAnalysis();
  $('pgn').hidden = true;
  $('download').hidden = true;
  update();
}

function undo() {
  cancelSearches();
  if (state.moves.length === 0) return;
  state.moves.pop();
  // Against the engine, take back to the user's own turn.
  const ec = engineColor();
  if (ec && state.moves.length > 0 && rules.game(state.start, state.moves).side === ec) {
    state.moves.pop();
  }
  message('');
  update();
}

function setFen(event) {
  event.preventDefault();
  const text = $('fen').value.trim();
  if (!text) return;
  const g = rules.game(text, []);
  if (!g.ok) {
    message(`Position refused: ${g.error}`, 'error');
    return;
  }
  message(`Position set: ${g.fen}`, 'info');
  newGame(g.fen);
}

/** Copy the position's FEN; where the clipboard is refused, leave it selected. */
async function copyFen() {
  const field = $('current-fen');
  const button = $('copy-fen');
  field.focus();
  field.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch {
    // No clipboard API here (an insecure origin) or no permission.
    copied = document.execCommand?.('copy') ?? false;
  }
  button.textContent = copied ? 'Copied' : 'Press Ctrl+C';
  clearTimeout(copyFen.timer);
  copyFen.timer = setTimeout(() => {
    button.textContent = 'Copy';
  }, 2000);
}

/** The Elo counts only with "Limit strength" (and then the skill level does not). */
function syncStrength() {
  const limit = $('limit').checked;
  $('elo').disabled = !limit;
  $('skill').disabled = limit;
  $('skill-label').classList.toggle('disabled', limit);
}

function exportPgn() {
  const g = state.game;
  const ec = engineColor();
  const name = (c) => (c === ec ? 'Jiangjun' : 'You');
  const text = pgn(g, { red: name('red'), black: name('black') }, state.start === 'startpos');
  const area = $('pgn');
  area.value = text;
  area.hidden = false;
  const link = $('download');
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  link.hidden = false;
}

function readParams() {
  const p = new URLSearchParams(location.search);
  if (['red', 'black', 'both'].includes(p.get('you'))) $('you').value = p.get('you');
  const think = p.get('think')?.replace(/^(depth|movetime)(\d+)$/, '$1 $2');
  if (think) {
    if (![...$('think').options].some((o) => o.value === think)) {
      $('think').add(new Option(think, think));
    }
    $('think').value = think;
  }
  if (p.get('book') === '0') $('book').checked = false;
  return p.get('fen');
}

/** Search threads: `?threads=N` (1 to 16), else the cores, up to 4. */
function searchThreads() {
  const asked = Number(new URLSearchParams(location.search).get('threads'));
  if (Number.isInteger(asked) && asked >= 1 && asked <= 16) return asked;
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4));
}

/** The Elo range the engine announces bounds the page's Elo field. */
function readOption(line) {
  const m = line.match(/^option name UCI_Elo type spin default (\d+) min (\d+) max (\d+)/);
  if (!m) return;
  const elo = $('elo');
  elo.min = m[2];
  elo.max = m[3];
  elo.title = `${m[2]} to ${m[3]}`;
}

async function main() {
  board = new Board($('board'), onSquare);
  const fen = readParams();
  board.setFlipped(human() === 'black');
  // Compiled once, instantiated twice: rules here, the engine in its worker.
  const module = await loadModule();
  rules = await JiangjunRules({ wasmModule: module });
  engine = new EngineClient(module, {
    onInfo,
    onBestmove,
    onLine: readOption,
    onState: (s) => {
      document.body.dataset.engine = s;
    },
  });
  await engine.start();
  // For measurements: when the page could first search (see browser-measure.mjs).
  performance.mark('jiangjun-ready');
  // Lazy SMP where the page is cross-origin isolated: as many search
  // threads as the machine has cores, up to 4 (`?threads=N` sets it).
  const threads = engine.threaded ? searchThreads() : 1;
  if (threads > 1) engine.setOption('Threads', threads);
  document.body.dataset.threads = String(threads);
  $('isolation').textContent = engine.canStop
    ? `The engine searches on ${threads} thread${threads > 1 ? 's' : ''}.`
    : 'This page is not cross-origin isolated (its server sends no COOP/COEP headers): Stop restarts the engine, and it searches on one thread.';

  $('new-game').onclick = () => newGame(state.start);
  $('undo').onclick = undo;
  $('flip').onclick = () => {
    board.setFlipped(!board.flipped);
    drawBoard();
  };
  $('analyse').onclick = analyse;
  $('stop').onclick = () => engine.stop();
  $('fen-form').onsubmit = setFen;
  $('export').onclick = exportPgn;
  $('copy-fen').onclick = copyFen;
  $('current-fen').onfocus = () => $('current-fen').select();
  $('limit').onchange = syncStrength;
  // A reload may restore the box ticked: the fields follow it from the start.
  syncStrength();
  $('skill').oninput = () => {
    $('skill-value').textContent = $('skill').value;
  };
  $('you').onchange = () => {
    board.setFlipped(human() === 'black');
    cancelSearches();
    update();
  };
  if (fen) {
    const g = rules.game(fen, []);
    if (g.ok) state.start = g.fen;
    else message(`Position refused: ${g.error}`, 'error');
  }
  // For tests and the console: the rules and the game.
  window.jiangjunPage = { rules, state, engine };
  update();
}

main().catch((e) => {
  document.body.dataset.engine = 'failed';
  message(`The engine could not start: ${e.message ?? e}`, 'error');
  setStatus('No engine.');
});
