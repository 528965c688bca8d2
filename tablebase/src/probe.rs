//! Probing: the tables of a directory (or of byte buffers, for the web
//! build), asked about a `xiangqi` board.

use crate::format::TableFile;
use crate::index::{Indexer, MAX_PIECES, Pos};
use crate::material::Material;
use crate::value::{INVALID, Wdl, back, better, unpack};
use std::collections::HashMap;
use std::path::Path;
use xiangqi::{Board, Color, Move, Piece, PieceKind};

/// The tables found in a directory.
pub struct Tablebases {
    tables: HashMap<Material, (Indexer, TableFile)>,
    /// The most pieces of any table (a search skips bigger positions).
    max_pieces: usize,
}

/// A probe's answer, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to mate (none for a draw).
    pub dtm: Option<u16>,
    /// The packed value (see [`crate::value`]).
    pub value: u16,
}

/// The generator's position of a board, if it has few enough pieces.
///
/// Read from the board's piece lists rather than square by square: `tb
/// verify` calls this for every move of every position.
pub fn pos_of(board: &Board) -> Option<Pos> {
    let mut p = Pos {
        side: board.side_to_move(),
        n: 0,
        code: [0; MAX_PIECES],
        sq: [0; MAX_PIECES],
    };
    for color in [Color::Red, Color::Black] {
        for kind in PieceKind::ALL {
            let code = Piece::new(color, kind).index() as u8 + 1;
            for s in board.squares_of(color, kind) {
                if p.n == MAX_PIECES {
                    return None;
                }
                // Kept in square order, as a mailbox scan gives them
                // (insertion: at most MAX_PIECES pieces).
                let s = s.index() as u8;
                let mut i = p.n;
                while i > 0 && p.sq[i - 1] > s {
                    p.sq[i] = p.sq[i - 1];
                    p.code[i] = p.code[i - 1];
                    i -= 1;
                }
                p.sq[i] = s;
                p.code[i] = code;
                p.n += 1;
            }
        }
    }
    Some(p)
}

/// A table's file name (without `.jtb`) must be its material's.
fn check_name(stem: &str, file: &TableFile) -> Result<(), String> {
    let m = file.material();
    if stem == m.to_string() {
        Ok(())
    } else {
        Err(format!("holds the table {m}"))
    }
}

impl Default for Tablebases {
    fn default() -> Tablebases {
        Tablebases::new()
    }
}

impl std::fmt::Debug for Tablebases {
    /// The materials held, not their contents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("materials", &self.materials())
            .finish()
    }
}

impl Tablebases {
    /// Every `.jtb` file of `dir`. Fails if the directory cannot be read
    /// or a table in it is bad (a damaged table is never half-used).
    pub fn open(dir: &Path) -> Result<Tablebases, String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut tb = Tablebases::new();
        for e in entries {
            let path = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.extension().is_none_or(|x| x != "jtb") {
                continue;
            }
            let file = TableFile::open(&path).map_err(|e| e.to_string())?;
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            check_name(stem, &file).map_err(|e| format!("{}: {e}", path.display()))?;
            tb.insert(file);
        }
        Ok(tb)
    }

    /// No tables yet: add them with [`Tablebases::insert`].
    pub fn new() -> Tablebases {
        Tablebases {
            tables: HashMap::new(),
            max_pieces: 0,
        }
    }

    /// Tables from their files' bytes, each named as its file is
    /// (`KRvK.jtb`, or the bare material `KRvK`): where no files can be
    /// mapped (the web build, which fetches them). Each is checked as
    /// [`Tablebases::open`] checks a file, and one bad table refuses the
    /// whole set, naming it.
    pub fn from_bytes(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
    ) -> Result<Tablebases, String> {
        let mut tb = Tablebases::new();
        for (name, bytes) in files {
            tb.insert_bytes(&name, bytes)?;
        }
        Ok(tb)
    }

    /// Add one table from its file's bytes, named as in
    /// [`Tablebases::from_bytes`] and checked as there; its material. A
    /// refused table changes nothing.
    pub fn insert_bytes(&mut self, name: &str, bytes: Vec<u8>) -> Result<Material, String> {
        let file = TableFile::from_bytes(bytes, name).map_err(|e| e.to_string())?;
        let stem = name.strip_suffix(".jtb").unwrap_or(name);
        check_name(stem, &file).map_err(|e| format!("{name}: {e}"))?;
        let m = file.material();
        self.insert(file);
        Ok(m)
    }

    /// Add a checked table (replacing one of the same material): how a
    /// page adds the tables it fetches as a game reaches them.
    pub fn insert(&mut self, file: TableFile) {
        let m = file.material();
        self.max_pieces = self.max_pieces.max(m.pieces());
        self.tables.insert(m, (Indexer::new(m), file));
    }

    /// Whether the table of a (canonical) material is held.
    pub fn contains(&self, m: &Material) -> bool {
        self.tables.contains_key(m)
    }

    /// The most pieces (kings included) of any table held.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// How many tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The materials held, sorted by name.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().copied().collect();
        v.sort_by_key(|m| m.to_string());
        v
    }

    /// The table file of a (canonical) material.
    pub fn file(&self, m: &Material) -> Option<&TableFile> {
        self.tables.get(m).map(|(_, f)| f)
    }

    /// The packed value of a position, if its material is held and the
    /// position legal. `Err` if the file is damaged.
    pub fn value(&self, pos: &Pos) -> Option<Result<u16, String>> {
        let (m, flip) = pos.material().canonical();
        let (ix, file) = self.tables.get(&m)?;
        let p = if flip { pos.flipped() } else { *pos };
        let idx = ix.encode(&p)?;
        match file.get(idx) {
            Ok(INVALID) => None,
            r => Some(r),
        }
    }

    /// The value of a board's position.
    pub fn probe(&self, board: &Board) -> Option<Result<Probe, String>> {
        let v = self.value(&pos_of(board)?)?;
        Some(v.map(|value| {
            let (wdl, dtm) = unpack(value);
            Probe { wdl, dtm, value }
        }))
    }

    /// The value and the best move: the fastest win, the slowest loss, a
    /// move that keeps the draw (`None` with no legal move). `Err` if a
    /// table is damaged or one a capture leads to is missing.
    pub fn best_move(&self, board: &Board) -> Option<Result<(Probe, Option<Move>), String>> {
        Some(
            self.best_moves(board)?
                .map(|(p, moves)| (p, moves.first().copied())),
        )
    }

    /// The value and every move as good as the best one (all the fastest
    /// wins, all the slowest losses, all the moves keeping a draw), in
    /// move generation order: what a search's root may keep.
    pub fn best_moves(&self, board: &Board) -> Option<Result<(Probe, Vec<Move>), String>> {
        let probe = match self.probe(board)? {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let mut b = board.clone();
        let mut best: Option<u16> = None;
        let mut moves = Vec::new();
        for mv in board.legal_moves() {
            b.make_move(mv);
            let v = self.probe(&b);
            b.unmake_move();
            let v = match v {
                Some(Ok(p)) => back(p.value),
                Some(Err(e)) => return Some(Err(e)),
                None => return Some(Err(format!("no table for the position after {mv}"))),
            };
            if best.is_none_or(|bv| better(v, bv)) {
                best = Some(v);
                moves.clear();
            }
            if best == Some(v) {
                moves.push(mv);
            }
        }
        Some(Ok((probe, moves)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{EMPTY, SQUARES};

    /// The piece-list reading gives the same position as scanning the
    /// board square by square, for positions of every size up to the
    /// limit and one over it.
    #[test]
    fn pos_of_equals_the_mailbox_scan() {
        let fens = [
            "4k4/9/9/9/9/9/9/9/9/3K1R3 w",
            "3akab2/9/4b4/9/2p6/9/9/4B4/4A4/2BAKR3 b",
            "2bakab2/9/4c4/9/9/9/4P4/9/9/2BAKAB2 w",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let mut b = [EMPTY; SQUARES];
            for (s, cell) in b.iter_mut().enumerate() {
                if let Some(p) = board.piece_at(xiangqi::Square::from_index(s).unwrap()) {
                    *cell = p.index() as u8 + 1;
                }
            }
            let want = Pos::from_board(&b, board.side_to_move());
            let got = pos_of(&board);
            match (want, got) {
                (Some(w), Some(g)) => {
                    assert_eq!((w.side, w.n), (g.side, g.n), "{fen}");
                    assert_eq!(w.code, g.code, "{fen}");
                    assert_eq!(w.sq, g.sq, "{fen}");
                }
                (None, None) => {}
                (w, g) => panic!("{fen}: mailbox {w:?}, piece lists {g:?}"),
            }
        }
        assert!(pos_of(&Board::from_fen(fens[3]).unwrap()).is_none());
    }
}
