// The board, drawn as SVG by the page itself: lines, river, palaces, and
// pieces as discs with their Chinese characters. It knows nothing of the
// rules: the page tells it the position (a FEN), which squares to mark, and
// hears which point was clicked.

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 60;
// Room around the lines for the discs, the frame and the file numbers.
const MARGIN = 62;
const FILES = 'abcdefghi';

// Red's pieces in upper case (帥仕相傌俥炮兵), Black's in lower (將士象馬車砲卒).
const NAMES = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** The pieces of a FEN's board field: a map from square ('e0') to letter. */
export function piecesOf(fen) {
  const pieces = new Map();
  const ranks = fen.trim().split(/\s+/)[0].split('/');
  ranks.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        pieces.set(`${FILES[file]}${rank}`, ch);
        file += 1;
      }
    }
  });
  return pieces;
}

export class Board {
  /** `onClick(square)` is called with the point clicked ('e0'). */
  constructor(container, onClick) {
    this.flipped = false;
    this.onClick = onClick;
    this.svg = el('svg', {
      viewBox: `0 0 ${8 * CELL + 2 * MARGIN} ${9 * CELL + 2 * MARGIN}`,
      class: 'board',
      role: 'img',
      'aria-label': 'Xiangqi board',
    });
    container.appendChild(this.svg);
    this.grid = el('g', { class: 'grid' }, this.svg);
    this.marks = el('g', { class: 'marks' }, this.svg);
    this.pieceLayer = el('g', { class: 'pieces' }, this.svg);
    this.hits = el('g', { class: 'hits' }, this.svg);
    this.drawGrid();
    this.drawHits();
  }

  /** Screen point of a square, as the board is turned. */
  point(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square[1]);
    const col = this.flipped ? 8 - file : file;
    const row = this.flipped ? rank : 9 - rank;
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  drawGrid() {
    const g = this.grid;
    g.replaceChildren();
    const x0 = MARGIN;
    const y0 = MARGIN;
    const x1 = MARGIN + 8 * CELL;
    const y1 = MARGIN + 9 * CELL;
    const pad = 32;
    el('rect', { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad, class: 'frame' }, g);
    for (let r = 0; r < 10; r++) {
      const y = y0 + r * CELL;
      el('line', { x1: x0, y1: y, x2: x1, y2: y }, g);
    }
    for (let f = 0; f < 9; f++) {
      const x = x0 + f * CELL;
      if (f === 0 || f === 8) {
        el('line', { x1: x, y1: y0, x2: x, y2: y1 }, g);
      } else {
        // The river cuts the inner files.
        el('line', { x1: x, y1: y0, x2: x, y2: y0 + 4 * CELL }, g);
        el('line', { x1: x, y1: y0 + 5 * CELL, x2: x, y2: y1 }, g);
      }
    }
    // Palace diagonals (symmetric, so the same when turned).
    for (const top of [0, 7]) {
      const ya = y0 + top * CELL;
      const yb = ya + 2 * CELL;
      el('line', { x1: x0 + 3 * CELL, y1: ya, x2: x0 + 5 * CELL, y2: yb }, g);
      el('line', { x1: x0 + 5 * CELL, y1: ya, x2: x0 + 3 * CELL, y2: yb }, g);
    }
    const yRiver = y0 + 4.5 * CELL;
    const [left, right] = this.flipped ? ['漢 界', '楚 河'] : ['楚 河', '漢 界'];
    el('text', { x: x0 + 2 * CELL, y: yRiver, class: 'river' }, g).textContent = left;
    el('text', { x: x0 + 6 * CELL, y: yRiver, class: 'river' }, g).textContent = right;
    // File numbers as each side counts them: Red right to left in Chinese
    // numerals, Black in digits from its own right.
    const red = '九八七六五四三二一';
    for (let f = 0; f < 9; f++) {
      const [x] = this.point(`${FILES[f]}0`);
      const bottomIsRed = !this.flipped;
      const redLabel = red[f];
      const blackLabel = String(f + 1);
      el('text', { x, y: y1 + 48, class: 'file-label' }, g).textContent = bottomIsRed ? redLabel : blackLabel;
      el('text', { x, y: y0 - 48, class: 'file-label' }, g).textContent = bottomIsRed ? blackLabel : redLabel;
    }
  }

  drawHits() {
    this.hits.replaceChildren();
    for (let rank = 0; rank < 10; rank++) {
      for (const file of FILES) {
        const square = `${file}${rank}`;
        const [x, y] = this.point(square);
        const hit = el('rect', {
          x: x - CELL / 2,
          y: y - CELL / 2,
          width: CELL,
          height: CELL,
          class: 'hit',
          'data-square': square,
        }, this.hits);
        hit.addEventListener('click', () => this.onClick(square));
      }
    }
  }

  /** Turn the board; the position is drawn again by the next `draw`. */
  setFlipped(flipped) {
    this.flipped = flipped;
    this.svg.dataset.flipped = String(flipped);
    this.drawGrid();
    this.drawHits();
  }

  /**
   * Draw the position: `fen`, and marks: `selected` (a square), `targets`
   * (squares the selected piece can go to), `last` (the last move, ICCS),
   * `check` (the square of a king in check).
   */
  draw(fen, { selected = null, targets = [], last = null, check = null } = {}) {
    this.marks.replaceChildren();
    this.pieceLayer.replaceChildren();
    if (last) {
      for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
        const [x, y] = this.point(sq);
        el('rect', { x: x - 28, y: y - 28, width: 56, height: 56, class: 'last' }, this.marks);
      }
    }
    const pieces = piecesOf(fen);
    for (const [square, letter] of pieces) {
      const [x, y] = this.point(square);
      const red = letter === letter.toUpperCase();
      const g = el('g', {
        class: `piece ${red ? 'red' : 'black'}`,
        'data-square': square,
        'data-piece': letter,
      }, this.pieceLayer);
      el('circle', { cx: x, cy: y, r: 26, class: 'disc' }, g);
      el('circle', { cx: x, cy: y, r: 21, class: 'ring' }, g);
      el('text', { x, y: y + 1, class: 'glyph' }, g).textContent = NAMES[letter] ?? letter;
      if (square === check) g.classList.add('in-check');
      if (square === selected) g.classList.add('selected');
    }
    for (const square of targets) {
      const [x, y] = this.point(square);
      const capture = pieces.has(square);
      el('circle', {
        cx: x,
        cy: y,
        r: capture ? 29 : 8,
        class: capture ? 'target capture' : 'target',
        'data-target': square,
      }, this.marks);
    }
  }
}
