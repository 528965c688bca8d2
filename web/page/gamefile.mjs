// Opening a game file on the page: PGN (ICCS, WXF or Chinese moves, in
// UTF-8 or GBK) read here move by move through the rules' `read` query;
// XQF, CBR, CBF and CBL (binary, or GBK XML) read by the module's own
// readers (`rules.gameFile`). The answer is the game's start and its moves
// as ICCS, or an Error saying why.

/** Text of `bytes`: UTF-8 if it is, else GBK (Chinese Windows' encoding). */
function decode(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gbk').decode(bytes);
  }
}

/** The first game of a PGN text: {fen, moves} (ICCS), read by `rules`. */
export function readPgn(text, rules) {
  // The first game only: a new game starts at its own [Event tag.
  const first = text.split(/\n(?=\s*\[Event\s)/)[0];
  const fen = first.match(/\[FEN\s+"([^"]*)"\]/)?.[1] ?? 'startpos';
  const body = first.replace(/^\s*\[[^\]]*\]\s*$/gm, '');
  let depth = 0;
  let clean = '';
  // Comments {…} and ; to the end of a line, variations (…) nested.
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{') {
      const end = body.indexOf('}', i);
      i = end < 0 ? body.length : end;
    } else if (c === ';') {
      const end = body.indexOf('\n', i);
      i = end < 0 ? body.length : end;
    } else if (c === '(') depth += 1;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) clean += c;
  }
  const words = clean
    .split(/\s+/)
    .map((w) => w.replace(/^\d+\.+/, '').replace(/[!?]+$/, ''))
    .filter((w) => w && !/^(1-0|0-1|1\/2-1\/2|\*|\$\d+)$/.test(w));
  const moves = [];
  for (const w of words) {
    const r = rules.read(fen, moves, w);
    if (!r.ok) throw new Error(`move ${moves.length + 1} '${w}': ${r.error}`);
    moves.push(r.move);
  }
  return { fen, moves };
}

/** The game in `file` (a File or {name, bytes}): {fen, moves, games}. */
export async function readGameFile(file, rules) {
  const name = file.name ?? 'game';
  // (A File's own `bytes` is a method: only a plain {name, bytes} has data there.)
  const bytes = file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file.bytes;
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'pgn' || ext === 'txt') return { ...readPgn(decode(bytes), rules), games: 1 };
  if (!rules.gameFile) throw new Error('this build cannot read game files');
  const answer = rules.gameFile(name, bytes);
  if (!answer.ok) throw new Error(answer.error);
  const first = answer.games[0];
  if (!first) throw new Error('no game in the file');
  return { fen: first.fen, moves: first.moves, games: answer.games.length };
}
