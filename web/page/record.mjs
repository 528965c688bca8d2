// The game record: the move list (Chinese and coordinate notation) and the
// game as PGN, in the form Xiangqi databases use (`[Format "ICCS"]`, moves
// written H2-E2), with each move's Chinese name as a comment.

const RESULTS = { red: '1-0', black: '0-1' };

/** The result tag of a ruling (`outcome` from the rules), '*' if ongoing. */
export function resultOf(outcome) {
  if (!outcome) return '*';
  return outcome.winner ? RESULTS[outcome.winner] : '1/2-1/2';
}

/**
 * The moves as rows of a table: number, then Red's and Black's move, each
 * a cell with the Chinese name and the ICCS coordinates. `firstSide` is
 * the side that made the first move.
 */
export function renderMoves(table, moves, firstSide) {
  table.replaceChildren();
  let row = null;
  let number = 1;
  const cell = (move, ply) => {
    const td = document.createElement('td');
    if (!move) return td;
    td.dataset.ply = String(ply);
    const zh = document.createElement('span');
    zh.className = 'zh';
    zh.textContent = move.chinese;
    const iccs = document.createElement('span');
    iccs.className = 'iccs';
    iccs.textContent = move.iccs;
    td.append(zh, ' ', iccs);
    return td;
  };
  const newRow = () => {
    row = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = `${number}.`;
    row.appendChild(th);
    table.appendChild(row);
    number += 1;
  };
  let ply = 0;
  if (firstSide === 'black' && moves.length > 0) {
    newRow();
    row.appendChild(cell(null, -1));
  }
  for (const move of moves) {
    if (row === null || row.children.length === 3) newRow();
    row.appendChild(cell(move, ply));
    ply += 1;
  }
}

function tag(name, value) {
  return `[${name} "${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}

/**
 * The game as PGN. `game` is the rules' answer (start FEN, moves,
 * outcome); `players` gives {red, black} names.
 */
export function pgn(game, players, startpos, date = new Date()) {
  const result = resultOf(game.outcome);
  const d = date.toISOString().slice(0, 10).replace(/-/g, '.');
  const lines = [
    tag('Game', 'Chinese Chess'),
    tag('Event', 'Jiangjun web page'),
    tag('Site', typeof location === 'object' ? location.host || '?' : '?'),
    tag('Date', d),
    tag('Red', players.red),
    tag('Black', players.black),
    tag('Result', result),
  ];
  if (!startpos) lines.push(tag('FEN', game.start));
  lines.push(tag('Format', 'ICCS'));
  if (game.outcome) lines.push(tag('Termination', game.outcome.reason));
  lines.push('');
  const firstBlack = game.start.split(/\s+/)[1] === 'b';
  const words = [];
  game.moves.forEach((m, i) => {
    const ply = i + (firstBlack ? 1 : 0);
    if (ply % 2 === 0) words.push(`${ply / 2 + 1}.`);
    else if (i === 0) words.push(`${(ply + 1) / 2}...`);
    const iccs = `${m.iccs.slice(0, 2)}-${m.iccs.slice(2)}`.toUpperCase();
    words.push(iccs, `{${m.chinese}}`);
  });
  words.push(result);
  // Lines of at most 80 characters, as PGN asks.
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) {
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  lines.push(line, '');
  return lines.join('\n');
}
