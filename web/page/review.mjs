// "Analyse game": every position of the game searched in turn by the
// page's engine with the "Engine thinks" setting (full strength, one line,
// no book: a book move has no score), then the moves judged by the rules
// module's `judge` query: the same judging as `jiangjun analyse`
// (`jiangjun_engine::analysis`), the marks, better lines and score graph.

/** The `judge` verdict text of a finished search (side to move's view). */
export function verdictText(search) {
  const top = search.lines.get(1);
  const best = search.best ?? '-';
  if (!top?.score) return `0 ${best}`;
  const score = 'mate' in top.score ? `mate ${top.score.mate}` : String(top.score.cp);
  // The line from the best move on (the judge checks it from the position).
  const pv = top.pv?.length && top.pv[0] === search.best ? ` ${top.pv.slice(0, 7).join(' ')}` : '';
  return `${score} ${best}${pv}`;
}

/**
 * Analyse the game `start` + `moves` (ICCS): `search(position, plies)`
 * returns a promise of a finished search; `onProgress(i, n)` is told each
 * position. Resolves to the `judge` answer (or {ok: false, error}).
 */
export async function reviewGame(rules, start, moves, search, onProgress) {
  const verdicts = [];
  const n = moves.length + 1;
  for (let i = 0; i < n; i++) {
    onProgress(i, n);
    const g = rules.game(start, moves.slice(0, i));
    if (!g.ok) return g;
    if (g.outcome) {
      // Over, no search: won or lost (mated, stalemated, or by a
      // repetition ruling) from the side to move's view, or drawn.
      if (!g.outcome.winner) verdicts.push('0 -');
      else verdicts.push(g.outcome.winner === g.side ? 'mate 1 -' : 'mate 0 -');
      continue;
    }
    const s = await search(moves.slice(0, i), i);
    if (s.cancelled) return { ok: false, error: 'cancelled' };
    verdicts.push(verdictText(s));
  }
  onProgress(n, n);
  const position = start === 'startpos' ? 'startpos' : `fen ${start}`;
  const moveText = moves.length ? ` moves ${moves.join(' ')}` : '';
  return rules.query(`judge ${position}${moveText} verdicts ${verdicts.join(' | ')}`);
}
