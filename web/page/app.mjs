// The page: a game against Jiangjun. The rules (legal moves, move names,
// the ruling) come from the engine's rules crate, in an instance of the
// wasm module on this thread; the engine searches in a worker. In the
// endings the page ships tables for, the tables' verdict and best move are
// shown (fetched from ../pkg/tb/ when a game first gets there).
//
// URL parameters (for links and tests): `you=red|black|both`,
// `think=depth8|movetime1000`, `book=0` (no opening book), `fen=...`,
// `lang=zh|en` (see i18n.mjs).
//
// A finished game (played here, or opened from a PGN, XQF, CBR, CBF or CBL
// file) can be analysed whole (review.mjs): the score graph and the marked
// moves, each of which, as any move of the list, shows its position.

import { JiangjunRules, loadModule } from '../pkg/jiangjun.mjs';
import { Board } from './board.mjs';
import { EngineClient } from './engine.mjs';
import { pgn, renderMoves, resultOf } from './record.mjs';
import { initialLanguage, lang, setLanguage, t } from './i18n.mjs';
import { reviewGame } from './review.mjs';
import { readGameFile } from './gamefile.mjs';

const $ = (id) => document.getElementById(id);
const COLORS = { red: () => t('red'), black: () => t('black') };

const state = {
  start: 'startpos', // the FEN the game started from
  moves: [], // ICCS moves played
  game: null, // the rules' answer for start + moves
  selected: null, // the square of the piece picked up
  analysing: false,
  view: null, // the ply shown when not the game's last (a reviewed move)
  review: null, // the last game analysis (the \`judge\` answer)
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
  if (state.view !== null) {
    // A past position: shown, not played from.
    const v = rules.game(state.start, state.moves.slice(0, state.view));
    board.draw(v.fen, {
      selected: null,
      targets: [],
      last: state.moves[state.view - 1] ?? null,
      check: v.check ? kingSquare(v.fen, v.side) : null,
    });
    return;
  }
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
  state.view = null;
  $('back').hidden = true;
  drawBoard();
  renderMoves($('moves'), g.moves, g.start.split(/\s+/)[1] === 'b' ? 'black' : 'red');
  markReviewedMoves();
  $('moves').parentElement.scrollTop = 1e6;
  $('current-fen').value = g.fen;
  document.body.dataset.plies = String(state.moves.length);
  document.body.dataset.side = g.side;
  $('result').textContent = g.outcome ? `${resultOf(g.outcome)}: ${g.outcome.text}` : '';
  document.body.dataset.outcome = g.outcome ? g.outcome.text : '';
  showTablebase();
  if (g.outcome) {
    setStatus(t('gameOver', { text: g.outcome.text }));
    return;
  }
  const who = COLORS[g.side]();
  if (g.side === engineColor()) {
    setStatus(t('thinking', { who }));
    think();
  } else {
    setStatus(t('yourMove', { who, check: g.check ? t('inCheck') : '' }));
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
  setStatus(t('analysing'));
}

/** Drop the searches asked so far: the position they were for is gone. */
function cancelSearches() {
  if (engine.busy) engine.cancelAll();
  state.analysing = false;
  // A game analysis waiting on a search it will never get ends there.
  state.reviewWaiting?.({ cancelled: true });
  state.reviewWaiting = null;
}

function playMove(move) {
  if (!state.game.legal.includes(move)) return false;
  state.moves.push(move);
  update();
  return true;
}

function onSquare(square) {
  const g = state.game;
  if (!g || g.outcome || state.view !== null) return;
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
  const who = `${COLORS[side]()} to move`;
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
  // A game analysis shows its progress, not each search's lines.
  if (search.purpose === 'review') return;
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
  $('score-side').textContent = t('scoresFrom', { who: COLORS[side]() });
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
  if (search.purpose === 'review') {
    search.done?.(search);
    return;
  }
  flushAnalysis();
  if (search.purpose === 'analyse') {
    state.analysing = false;
    const names = move ? pvNames(search, [move]) : [];
    $('bestmove').textContent = move ? `bestmove ${names[0]?.chinese ?? move} (${move})` : t('noMove');
    setStatus(t('analysisStopped'));
    document.body.dataset.bestmove = move ?? '';
    // Analysing on the engine's turn put its move off: the game goes on.
    const g = state.game;
    if (!g.outcome && g.side === engineColor() && !engine.busy) {
      setStatus(t('thinking', { who: COLORS[g.side]() }));
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

function newGame(start = 'startpos', moves = []) {
  cancelSearches();
  state.start = start;
  state.moves = moves;
  clearReview();
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
    message(t('positionRefused', { error: g.error }), 'error');
    return;
  }
  message(t('positionSet', { fen: g.fen }), 'info');
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
  button.textContent = copied ? t('copied') : t('pressCtrlC');
  clearTimeout(copyFen.timer);
  copyFen.timer = setTimeout(() => {
    button.textContent = t('copy');
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

// --- a past position, a game file, the game's analysis --------------------

/** Show the position after `ply` moves (null: the game as it stands). */
function showPly(ply) {
  state.view = ply === null || ply >= state.moves.length ? null : Math.max(0, ply);
  state.selected = null;
  $('back').hidden = state.view === null;
  document.body.dataset.view = state.view === null ? '' : String(state.view);
  for (const td of $('moves').querySelectorAll('td[data-ply]')) {
    td.classList.toggle('viewing', state.view !== null && Number(td.dataset.ply) === state.view - 1);
  }
  if (state.view !== null) message(t('viewing', { n: state.view }), 'info');
  else message('');
  drawBoard();
}

/** Open a game file (PGN, XQF, CBR, CBF, CBL): its first game, to review. */
async function openFile(file) {
  try {
    const game = await readGameFile(file, rules);
    const g = rules.game(game.fen, game.moves);
    if (!g.ok) throw new Error(g.error);
    // Both sides are the file's: the engine only analyses.
    $('you').value = 'both';
    board.setFlipped(false);
    newGame(g.start, game.moves.slice());
    message(t('fileOpened', { name: file.name, n: game.moves.length }), 'info');
    document.body.dataset.opened = file.name;
  } catch (e) {
    message(t('fileRefused', { name: file.name, error: e.message ?? e }), 'error');
  }
}

function clearReview() {
  state.review = null;
  $('review-graph').replaceChildren();
  $('review-marks').replaceChildren();
  $('review-status').textContent = '';
  delete document.body.dataset.review;
}

/** The marks of the last analysis beside the moves of the list. */
function markReviewedMoves() {
  const r = state.review;
  if (!r) return;
  for (const td of $('moves').querySelectorAll('td[data-ply]')) {
    const m = r.moves[Number(td.dataset.ply)];
    if (m?.mark) td.querySelector('.zh')?.append(m.mark);
  }
}

const MARK_CLASS = { '??': 'mark-blunder', '?': 'mark-mistake', '?!': 'mark-inaccuracy' };

function showReview(r) {
  state.review = r;
  $('review-graph').innerHTML = r.svg;
  const list = $('review-marks');
  list.replaceChildren();
  const counts = { '??': 0, '?': 0, '?!': 0 };
  const firstBlack = state.game.start.split(/\s+/)[1] === 'b';
  for (const m of r.moves) {
    if (!m.mark) continue;
    counts[m.mark] += 1;
    const li = document.createElement('li');
    li.dataset.ply = String(m.ply);
    const ply = m.ply + (firstBlack ? 1 : 0);
    const number = `${Math.floor(ply / 2) + 1}${ply % 2 ? '…' : '.'}`;
    const mark = document.createElement('span');
    mark.className = `mark ${MARK_CLASS[m.mark]}`;
    mark.textContent = m.mark;
    const better = document.createElement('span');
    better.className = 'better';
    better.textContent = m.betterChinese
      ? ` ${t('better')} ${m.betterChinese} (${m.line.join(' ')})`
      : '';
    li.append(`${number} ${m.chinese}`, mark, ` ${t('lost', { pct: Math.round(m.loss * 100) })}`, better);
    list.appendChild(li);
  }
  const done = counts['??'] + counts['?'] + counts['?!'];
  $('review-status').textContent = done
    ? t('reviewDone', { blunders: counts['??'], mistakes: counts['?'], inaccuracies: counts['?!'] })
    : t('reviewNothing');
  document.body.dataset.review = 'done';
  document.body.dataset.marks = String(done);
  renderMoves($('moves'), state.game.moves, firstBlack ? 'black' : 'red');
  markReviewedMoves();
}

/** A click on the graph: the position after the move under the pointer. */
function graphClick(e) {
  const svg = $('review-graph').querySelector('svg');
  const plot = svg?.querySelector('rect.plot');
  if (!plot || !state.review) return;
  const box = svg.getBoundingClientRect();
  const x = ((e.clientX - box.left) / box.width) * svg.viewBox.baseVal.width;
  // Plies run across the plot's frame, which the graph marks.
  const plies = Math.max(1, state.review.moves.length);
  const ply = Math.round(((x - plot.x.baseVal.value) / plot.width.baseVal.value) * plies);
  showPly(Math.min(Math.max(ply, 0), plies));
}

/** Analyse the whole game with the "Engine thinks" setting. */
async function runReview() {
  cancelSearches();
  clearAnalysis();
  clearReview();
  strengthOptions(true);
  engine.setOption('MultiPV', 1);
  engine.setOption('OwnBook', 'false');
  const progress = $('review-progress');
  progress.hidden = false;
  document.body.dataset.review = 'running';
  $('review-game').disabled = true;
  const search = (moves, plies) =>
    new Promise((done) => {
      state.reviewWaiting = done;
      engine.go(positionText(moves), $('think').value, 'review', { plies, done });
    });
  const r = await reviewGame(rules, state.start, state.moves.slice(), search, (i, n) => {
    state.reviewWaiting = null;
    progress.max = n;
    progress.value = i;
    $('review-status').textContent = t('reviewRunning', { i: Math.min(i + 1, n), n });
  });
  progress.hidden = true;
  $('review-game').disabled = false;
  strengthOptions(false);
  if (!r.ok) {
    document.body.dataset.review = 'failed';
    $('review-status').textContent = r.error;
    return;
  }
  showReview(r);
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
  setLanguage(initialLanguage());
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
    ? t('threadsOn', { n: threads, s: threads > 1 ? 's' : '' })
    : t('notIsolated');

  $('new-game').onclick = () => newGame(state.start);
  $('review-game').onclick = runReview;
  $('back').onclick = () => showPly(null);
  $('moves').onclick = (e) => {
    const ply = e.target.closest('td[data-ply]')?.dataset.ply;
    if (ply !== undefined) showPly(Number(ply) + 1);
  };
  $('review-marks').onclick = (e) => {
    const ply = e.target.closest('li[data-ply]')?.dataset.ply;
    if (ply !== undefined) showPly(Number(ply) + 1);
  };
  $('review-graph').onclick = graphClick;
  $('open-file').onchange = (e) => {
    const file = e.target.files?.[0];
    if (file) openFile(file);
    e.target.value = '';
  };
  const area = $('board-area');
  area.ondragover = (e) => {
    e.preventDefault();
    area.classList.add('drop');
  };
  area.ondragleave = () => area.classList.remove('drop');
  area.ondrop = (e) => {
    e.preventDefault();
    area.classList.remove('drop');
    const file = e.dataTransfer?.files?.[0];
    if (file) openFile(file);
  };
  $('lang').onclick = () => {
    setLanguage(lang() === 'zh' ? 'en' : 'zh', true);
    update();
    if (state.review) showReview(state.review);
  };
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
    else message(t('positionRefused', { error: g.error }), 'error');
  }
  // For tests and the console: the rules and the game.
  window.jiangjunPage = { rules, state, engine, openFile };
  update();
}

main().catch((e) => {
  document.body.dataset.engine = 'failed';
  message(`The engine could not start: ${e.message ?? e}`, 'error');
  setStatus(t('noEngine'));
});
