// The page's words in English and Chinese. The language is the one the
// URL asks for (`?lang=zh` or `?lang=en`), else the one chosen last with
// the switch (kept in localStorage), else the browser's: Chinese when its
// first preferred language is Chinese. Static text carries
// `data-i18n="key"` (its text), `data-i18n-title` or
// `data-i18n-placeholder`; the page's code asks `t(key, values)`.

const WORDS = {
  en: {
    title: 'Jiangjun — Xiangqi',
    loading: 'Loading the engine…',
    newGame: 'New game',
    undo: 'Undo',
    flip: 'Flip',
    analyse: 'Analyse',
    stop: 'Stop',
    position: 'Position',
    copy: 'Copy',
    copied: 'Copied',
    pressCtrlC: 'Press Ctrl+C',
    setFen: 'Set FEN',
    setPosition: 'Set position',
    game: 'Game',
    youPlay: 'You play',
    youRed: 'Red (you move first)',
    youBlack: 'Black (engine moves first)',
    youBoth: 'Both sides (engine only analyses)',
    engineThinks: 'Engine thinks',
    oneSecond: '1 second',
    threeSeconds: '3 seconds',
    tenSeconds: '10 seconds',
    skillLevel: 'Skill Level',
    limitElo: 'Limit strength to Elo',
    openingBook: 'Opening book',
    lines: 'Lines (MultiPV)',
    analysis: 'Analysis',
    tablebase: 'Endgame tables',
    everyMove: 'Every move',
    moves: 'Moves',
    exportPgn: 'Export PGN',
    openGame: 'Open game…',
    dropHint: 'or drop a PGN, XQF, CBR, CBF or CBL file on the board',
    review: 'Game analysis',
    reviewGame: 'Analyse game',
    reviewHint: 'Every move searched with the "Engine thinks" setting; moves that lost marked ?? (blunder), ? (mistake), ?! (inaccuracy).',
    reviewRunning: 'Analysing the game: position {i} of {n}…',
    reviewDone: 'Game analysed: {blunders} blunders, {mistakes} mistakes, {inaccuracies} inaccuracies.',
    reviewNothing: 'No move was marked.',
    better: 'better',
    lost: 'lost {pct}%',
    backToGame: 'Back to the game',
    viewing: 'Showing the position after move {n}.',
    red: 'Red',
    black: 'Black',
    gameOver: 'Game over: {text}.',
    thinking: '{who} to move: Jiangjun is thinking…',
    yourMove: '{who} to move{check}: your move.',
    inCheck: ' (in check)',
    analysing: 'Analysing (Stop ends it).',
    analysisStopped: 'Analysis stopped.',
    scoresFrom: '{who} to move: scores from {who}\'s side',
    noMove: 'no move',
    positionRefused: 'Position refused: {error}',
    positionSet: 'Position set: {fen}',
    fileRefused: '{name}: {error}',
    fileOpened: '{name}: {n} moves',
    noEngine: 'No engine.',
    language: '中文',
    footer: "Jiangjun runs in your browser as WebAssembly, in a Web Worker. Legal moves, move names and rulings come from its rules library in the same module; in an ending of one rook, horse, cannon or pawn against a king with any advisors and elephants, the verdict comes from Jiangjun's own endgame tables, fetched when the game gets there.",
    fenPlaceholder: 'paste a FEN, e.g. rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    threadsOn: 'The engine searches on {n} thread{s}.',
    notIsolated: 'This page is not cross-origin isolated (its server sends no COOP/COEP headers): Stop restarts the engine, and it searches on one thread.',
  },
  zh: {
    title: '将军 — 中国象棋',
    loading: '正在加载引擎…',
    newGame: '新局',
    undo: '悔棋',
    flip: '翻转棋盘',
    analyse: '分析',
    stop: '停止',
    position: '局面',
    copy: '复制',
    copied: '已复制',
    pressCtrlC: '请按 Ctrl+C',
    setFen: '设置 FEN',
    setPosition: '设置局面',
    game: '对局',
    youPlay: '您执',
    youRed: '红方（您先走）',
    youBlack: '黑方（引擎先走）',
    youBoth: '双方（引擎只分析）',
    engineThinks: '引擎思考',
    oneSecond: '1 秒',
    threeSeconds: '3 秒',
    tenSeconds: '10 秒',
    skillLevel: '棋力等级',
    limitElo: '限制棋力（等级分）',
    openingBook: '开局库',
    lines: '变例数（MultiPV）',
    analysis: '分析',
    tablebase: '残局库',
    everyMove: '每一步',
    moves: '着法',
    exportPgn: '导出 PGN',
    openGame: '打开棋谱…',
    dropHint: '或将 PGN、XQF、CBR、CBF、CBL 文件拖到棋盘上',
    review: '复盘分析',
    reviewGame: '分析全局',
    reviewHint: '按“引擎思考”的设置逐步搜索；失分的着法标为 ??（败着）、?（错着）、?!（疑问手）。',
    reviewRunning: '正在分析全局：第 {i} / {n} 个局面…',
    reviewDone: '分析完成：败着 {blunders} 步，错着 {mistakes} 步，疑问手 {inaccuracies} 步。',
    reviewNothing: '没有标记的着法。',
    better: '应走',
    lost: '失分 {pct}%',
    backToGame: '回到对局',
    viewing: '显示第 {n} 步之后的局面。',
    red: '红方',
    black: '黑方',
    gameOver: '对局结束：{text}。',
    thinking: '{who}走棋：将军正在思考…',
    yourMove: '{who}走棋{check}：请您走棋。',
    inCheck: '（被将军）',
    analysing: '正在分析（按“停止”结束）。',
    analysisStopped: '分析已停止。',
    scoresFrom: '{who}走棋：分数以{who}为准',
    noMove: '无着法',
    positionRefused: '局面无效：{error}',
    positionSet: '已设置局面：{fen}',
    fileRefused: '{name}：{error}',
    fileOpened: '{name}：{n} 步',
    noEngine: '没有引擎。',
    language: 'English',
    footer: '将军以 WebAssembly 在您的浏览器中运行（Web Worker）。合法着法、着法名称和裁决都来自同一模块中的规则库；在单车、单马、单炮或单兵对士象全（或缺士象）的残局中，判断来自将军自己的残局库，对局走到时才下载。',
    fenPlaceholder: '粘贴 FEN，例如 rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    threadsOn: '引擎使用 {n} 个线程搜索。',
    notIsolated: '此页面没有跨源隔离（服务器未发送 COOP/COEP 头）：“停止”会重启引擎，且只用一个线程搜索。',
  },
};

const STORE = 'jiangjun-lang';

/** The language the page starts in: 'zh' or 'en'. */
export function initialLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'zh' || asked === 'en') return asked;
  let saved = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    // Storage refused (a private window): the browser's language decides.
  }
  if (saved === 'zh' || saved === 'en') return saved;
  const first = (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase();
  return first.startsWith('zh') ? 'zh' : 'en';
}

let language = 'en';

/** The current language. */
export function lang() {
  return language;
}

/** The text of `key` in the current language, `{name}`s filled from `values`. */
export function t(key, values = {}) {
  const text = WORDS[language][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

/** Switch to `to` ('zh' or 'en'), rewrite the static text, remember it. */
export function setLanguage(to, remember = false) {
  language = to === 'zh' ? 'zh' : 'en';
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  document.title = t('title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  if (remember) {
    try {
      localStorage.setItem(STORE, language);
    } catch {
      // Not remembered: the switch still works for this visit.
    }
  }
}
