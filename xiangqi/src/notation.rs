//! Move notation: ICCS coordinates, the Chinese notation of game records
//! (炮二平五, 马8进7) and its WXF transcription (`C2.5`, `H8+7`).
//!
//! **ICCS coordinates** are what [`Move`]'s `Display` and [`Move::parse`] use,
//! and what UCI and UCCI send: the origin and target squares as file letter
//! `a`..`i` (from Red's left) and rank digit `0`..`9` (from Red's side), e.g.
//! `h2e2`. [`iccs`] writes the record form `H2-E2`, and [`parse_iccs`] reads
//! both forms.
//!
//! **Chinese and WXF notation** name the piece, the file it stands on, the
//! direction and the target: each side numbers the files 1 to 9 from its own
//! right, so Red's file 1 is file `i` and Black's file 1 is file `a`. A
//! straight mover (king, rook, cannon, pawn) going forward or backward gives
//! the number of ranks moved; any other move gives the target file. When two
//! or more pieces of the same kind stand on one file, a position word
//! (前/中/后, or `+`/`-` in WXF) takes the place of the file number, except for
//! advisors and elephants: the front one can only go back and the rear one
//! only forward, so the file number is kept.
//!
//! ```
//! use xiangqi::Board;
//! use xiangqi::notation::{chinese, iccs, wxf};
//!
//! let board = Board::startpos();
//! let mv = board.parse_move("h2e2")?;
//! assert_eq!(chinese(&board, mv), "炮二平五");
//! assert_eq!(wxf(&board, mv), "C2.5");
//! assert_eq!(iccs(mv), "H2-E2");
//! # Ok::<(), xiangqi::MoveError>(())
//! ```

use crate::board::Board;
use crate::types::{Color, Move, PieceKind, Square};

const RED_NUM: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn number(color: Color, n: usize) -> String {
    match color {
        Color::Red => RED_NUM[n.min(9)].to_string(),
        Color::Black => n.to_string(),
    }
}

fn piece_name(color: Color, kind: PieceKind) -> &'static str {
    match (color, kind) {
        (Color::Red, PieceKind::King) => "帅",
        (Color::Red, PieceKind::Advisor) => "仕",
        (Color::Red, PieceKind::Elephant) => "相",
        (Color::Red, PieceKind::Pawn) => "兵",
        (Color::Black, PieceKind::King) => "将",
        (Color::Black, PieceKind::Advisor) => "士",
        (Color::Black, PieceKind::Elephant) => "象",
        (Color::Black, PieceKind::Pawn) => "卒",
        (_, PieceKind::Horse) => "马",
        (_, PieceKind::Rook) => "车",
        (_, PieceKind::Cannon) => "炮",
    }
}

/// The WXF letter of a piece kind.
fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// The file number a side uses: Red counts 一..九 from its right (file i
/// is 一), Black 1..9 from its right (file a is 1).
fn file_number(color: Color, file: usize) -> usize {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// What the notations share about a move: the mover, its file number, its
/// place among the pieces of its kind on its file, direction and target.
struct Parts {
    color: Color,
    kind: PieceKind,
    /// The file number (1..9, the mover's own count) of the origin.
    file: usize,
    /// How many pieces of the mover's kind stand on its file (1 if the
    /// position word is not used: a lone piece, an advisor or an elephant).
    tandem: usize,
    /// The mover's place among them, 0 for the most advanced.
    place: usize,
    /// Forward (1), sideways (0) or backward (-1), from the mover's side.
    dir: i8,
    /// Ranks moved (straight movers going forward or backward) or the target
    /// file number (all other moves).
    n: usize,
}

fn parts(board: &Board, m: Move) -> Option<Parts> {
    let p = board.piece_at(m.from())?;
    let (color, kind) = (p.color(), p.kind());
    let (from, to) = (m.from(), m.to());
    let mut same: Vec<usize> = if matches!(kind, PieceKind::Advisor | PieceKind::Elephant) {
        Vec::new()
    } else {
        board
            .squares_of(color, kind)
            .filter(|s| s.file() == from.file())
            .map(|s| s.relative_rank(color))
            .collect()
    };
    same.sort_unstable_by(|a, b| b.cmp(a));
    let (r0, r1) = (from.relative_rank(color), to.relative_rank(color));
    let dir = (r1 as isize - r0 as isize).signum() as i8;
    let straight = matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    );
    Some(Parts {
        color,
        kind,
        file: file_number(color, from.file()),
        tandem: same.len().max(1),
        place: same.iter().position(|&r| r == r0).unwrap_or(0),
        dir,
        n: if straight && dir != 0 {
            r0.abs_diff(r1)
        } else {
            file_number(color, to.file())
        },
    })
}

/// Chinese notation of a legal move in `board`, as game records write it:
/// 炮二平五 (Red counts files in Chinese numerals), 马8进7 (Black in digits),
/// 前车进三 (two rooks on one file). Four or five pawns on one file are
/// numbered 一兵..五兵 from the front. If no piece stands on the move's
/// origin, gives the ICCS coordinates instead.
pub fn chinese(board: &Board, m: Move) -> String {
    let Some(p) = parts(board, m) else {
        return m.to_string();
    };
    let (c, k) = (p.color, p.kind);
    let head = if p.tandem >= 2 {
        let word = match (p.tandem, p.place) {
            (2 | 3, 0) => "前",
            (2, _) => "后",
            (3, 1) => "中",
            (3, _) => "后",
            (_, i) => RED_NUM[i + 1],
        };
        format!("{word}{}", piece_name(c, k))
    } else {
        format!("{}{}", piece_name(c, k), number(c, p.file))
    };
    let dir = match p.dir {
        1 => "进",
        -1 => "退",
        _ => "平",
    };
    format!("{head}{dir}{}", number(c, p.n))
}

/// WXF notation of a legal move in `board`: the piece letter (K A E H R C
/// P), the origin file numbered from the mover's right, `+` forward, `-`
/// backward or `.` sideways, and the ranks moved or the target file, as in
/// `C2.5` (炮二平五) and `H8+7` (马8进7).
///
/// Two pieces of a kind on one file are told apart by `+` (front) and `-`
/// (rear) in place of the file number: `R+.3` (前车平三). For pawns the WXF
/// rules go further: of three on a file the middle one keeps its file number
/// (`P7.6`); of four or five the foremost and rearmost are written `++` and
/// `--` without the letter; and when two files each have two or more of the
/// mover's pawns, the file number takes the place of the letter (`7+.6`,
/// `77.6` for a middle pawn). If no piece stands on the move's origin, gives
/// the ICCS coordinates instead.
///
/// ```
/// use xiangqi::Board;
/// use xiangqi::notation::wxf;
///
/// let mut board = Board::startpos();
/// let mut record = Vec::new();
/// for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
///     let mv = board.parse_move(text)?;
///     record.push(wxf(&board, mv));
///     board.make_move(mv);
/// }
/// assert_eq!(record, ["C2.5", "H8+7", "H2+3", "R9.8"]);
/// # Ok::<(), xiangqi::MoveError>(())
/// ```
pub fn wxf(board: &Board, m: Move) -> String {
    let Some(p) = parts(board, m) else {
        return m.to_string();
    };
    let letter = wxf_letter(p.kind);
    let file = char::from(b'0' + p.file as u8);
    let head = match (p.kind, p.tandem, p.place) {
        (_, 1, _) => format!("{letter}{file}"),
        (PieceKind::Pawn, n, i) => {
            // Another file with two or more of the mover's pawns?
            let mut per_file = [0usize; 9];
            for s in board.squares_of(p.color, PieceKind::Pawn) {
                per_file[s.file()] += 1;
            }
            let first = if per_file.iter().filter(|&&c| c >= 2).count() > 1 {
                file
            } else {
                letter
            };
            match (n, i) {
                (2 | 3, 0) => format!("{first}+"),
                (2, _) | (3, 2) => format!("{first}-"),
                (3, _) => format!("{first}{file}"),
                (_, 0) => "++".to_string(),
                (_, 1) => format!("{letter}+"),
                (5, 2) => format!("{letter}{file}"),
                (_, i) if i + 1 == n => "--".to_string(),
                _ => format!("{letter}-"),
            }
        }
        (_, _, 0) => format!("{letter}+"),
        _ => format!("{letter}-"),
    };
    let dir = match p.dir {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    format!("{head}{dir}{}", p.n)
}

/// A move in the ICCS record form, upper case with a dash: `H2-E2` for the
/// move that [`Move`]'s `Display` writes `h2e2`. `Move::NONE` gives `0000`.
pub fn iccs(m: Move) -> String {
    if m.is_none() {
        return m.to_string();
    }
    format!("{}-{}", m.from(), m.to()).to_ascii_uppercase()
}

/// Read ICCS coordinates in either form, `h2e2` or `H2-E2` (any case, the
/// dash optional). Syntax only, like [`Move::parse`]: legality is the
/// board's job ([`Board::parse_move`], [`Board::is_legal_move`]).
///
/// ```
/// use xiangqi::Move;
/// use xiangqi::notation::parse_iccs;
///
/// assert_eq!(parse_iccs("H2-E2"), Move::parse("h2e2"));
/// assert_eq!(parse_iccs("h2e2").map(|m| m.to_string()).as_deref(), Some("h2e2"));
/// assert_eq!(parse_iccs("H2-E"), None);
/// ```
pub fn parse_iccs(text: &str) -> Option<Move> {
    let t = text.trim().to_ascii_lowercase();
    let (from, to) = match t.len() {
        4 if t.is_char_boundary(2) => t.split_at(2),
        5 if t.as_bytes()[2] == b'-' => (&t[..2], &t[3..]),
        _ => return None,
    };
    let (from, to) = (Square::parse(from)?, Square::parse(to)?);
    (from != to).then(|| Move::new(from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Play `moves` from `fen` (or the start), writing each in both notations.
    fn notate(fen: Option<&str>, moves: &[&str]) -> (Vec<String>, Vec<String>) {
        let mut b = match fen {
            Some(f) => Board::from_fen(f).unwrap(),
            None => Board::startpos(),
        };
        let (mut cn, mut wx) = (Vec::new(), Vec::new());
        for m in moves {
            let mv = b.parse_move(m).unwrap();
            cn.push(chinese(&b, mv));
            wx.push(wxf(&b, mv));
            b.make_move(mv);
        }
        (cn, wx)
    }

    fn cn(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
        notate(fen, moves).0
    }

    fn wx(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
        notate(fen, moves).1
    }

    /// Each move played from the same position `fen`, in both notations.
    fn each(fen: &str, moves: &[&str]) -> Vec<(String, String)> {
        moves
            .iter()
            .map(|m| {
                let (c, w) = notate(Some(fen), &[m]);
                (c[0].clone(), w[0].clone())
            })
            .collect()
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|&(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    const OPENING: [&str; 8] = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5",
    ];

    #[test]
    fn opening_moves() {
        assert_eq!(
            cn(None, &OPENING),
            vec![
                "炮二平五",
                "马8进7",
                "马二进三",
                "车9平8",
                "车一平二",
                "马2进3",
                "兵七进一",
                "卒7进1"
            ]
        );
        assert_eq!(
            cn(None, &["c0e2", "g9e7", "f0e1", "d9e8"]),
            vec!["相七进五", "象7进5", "仕四进五", "士4进5"]
        );
        assert_eq!(cn(None, &["h2h9"]), vec!["炮二进七"]);
        assert_eq!(cn(None, &["b2b1"]), vec!["炮八退一"]);
    }

    #[test]
    fn opening_moves_wxf() {
        assert_eq!(
            wx(None, &OPENING),
            vec![
                "C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "H2+3", "P7+1", "P7+1"
            ]
        );
        assert_eq!(
            wx(
                None,
                &["c0e2", "g9e7", "f0e1", "d9e8", "e0f0", "e9d9", "f0f1"]
            ),
            vec!["E7+5", "E7+5", "A4+5", "A4+5", "K5.4", "K5.4", "K4+1"]
        );
        assert_eq!(wx(None, &["b0c2", "b9c7"]), vec!["H8+7", "H2+3"]);
        assert_eq!(wx(None, &["h2h9", "i9h9"]), vec!["C2+7", "R9.8"]);
        assert_eq!(wx(None, &["b2b1"]), vec!["C8-1"]);
        assert_eq!(wx(None, &["h0g2", "b7b0"]), vec!["H2+3", "C2+7"]);
    }

    #[test]
    fn two_pieces_on_a_file() {
        // Two red rooks on the e-file: the front one moves, then the rear one.
        let fen = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w";
        assert_eq!(
            each(fen, &["e5e8", "e2a2", "e2e1", "e5e4"]),
            pairs(&[
                ("前车进三", "R++3"),
                ("后车平九", "R-.9"),
                ("后车退一", "R--1"),
                ("前车退一", "R+-1"),
            ])
        );
        // Two black cannons on file c (Black's 3): the front is the lower one.
        let fen = "4k4/9/2c6/9/9/2c6/9/9/9/3K5 b";
        assert_eq!(
            each(fen, &["c4e4", "c7c9"]),
            pairs(&[("前炮平5", "C+.5"), ("后炮退2", "C--2")])
        );
    }

    #[test]
    fn advisors_and_elephants_keep_the_file() {
        // Advisors on d0 and d2: the front one can only go back, the rear
        // one only forward, so the file number is enough.
        let fen = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w";
        assert_eq!(
            each(fen, &["d2e1", "d0e1"]),
            pairs(&[("仕六退五", "A6-5"), ("仕六进五", "A6+5")])
        );
        let fen = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w";
        assert_eq!(
            each(fen, &["c4e2", "c0e2", "c4a2"]),
            pairs(&[
                ("相七退五", "E7-5"),
                ("相七进五", "E7+5"),
                ("相七退九", "E7-9")
            ])
        );
    }

    #[test]
    fn tandem_pawns() {
        // Three red pawns on file c (Red's 7).
        let fen = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w";
        assert_eq!(
            each(fen, &["c7d7", "c6d6", "c5d5", "c7c8"]),
            pairs(&[
                ("前兵平六", "P+.6"),
                ("中兵平六", "P7.6"),
                ("后兵平六", "P-.6"),
                ("前兵进一", "P++1"),
            ])
        );
        // And two more on file g (Red's 3): the file replaces the letter.
        let fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w";
        assert_eq!(
            each(fen, &["c7d7", "c6d6", "c5d5", "g6f6", "g5f5", "g6g7"])
                .into_iter()
                .map(|p| p.1)
                .collect::<Vec<_>>(),
            vec!["7+.6", "77.6", "7-.6", "3+.4", "3-.4", "3++1"]
        );
        // Five on one file.
        let fen = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w";
        assert_eq!(
            each(fen, &["c9d9", "c8d8", "c7d7", "c6d6", "c5d5"]),
            pairs(&[
                ("一兵平六", "++.6"),
                ("二兵平六", "P+.6"),
                ("三兵平六", "P7.6"),
                ("四兵平六", "P-.6"),
                ("五兵平六", "--.6"),
            ])
        );
        // Four on one file: no middle pawn.
        let fen = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w";
        assert_eq!(
            each(fen, &["c8d8", "c7d7", "c6d6", "c5d5"])
                .into_iter()
                .map(|p| p.1)
                .collect::<Vec<_>>(),
            vec!["++.6", "P+.6", "P-.6", "--.6"]
        );
        // Two black pawns on file c (Black's 3): the front one is lower.
        let fen = "4k4/9/9/9/9/2p6/2p6/9/9/3K5 b";
        assert_eq!(
            each(fen, &["c3d3", "c4d4"]),
            pairs(&[("前卒平4", "P+.4"), ("后卒平4", "P-.4")])
        );
    }

    #[test]
    fn iccs_forms() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(iccs(m), "H2-E2");
        assert_eq!(iccs(Move::NONE), "0000");
        for text in ["h2e2", "H2E2", "H2-E2", "h2-e2", " h2-e2 "] {
            assert_eq!(parse_iccs(text), Some(m), "{text}");
        }
        for text in ["h2-e", "h2+e2", "h2h2", "j2e2", "h2e2e", "ü2e2", "h2ü2"] {
            assert_eq!(parse_iccs(text), None, "{text}");
        }
        // No piece on the origin: the coordinates.
        let b = Board::startpos();
        let empty = Move::parse("e4e5").unwrap();
        assert_eq!(wxf(&b, empty), "e4e5");
        assert_eq!(chinese(&b, empty), "e4e5");
    }
}
