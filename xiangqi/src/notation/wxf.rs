//! WXF notation (`C2.5`, `H8+7`, `R+.3`): writing and reading.

use super::{Notation, ParseNotationError, Parts, parts, quoted, resolve};
use crate::board::Board;
use crate::types::{Move, PieceKind};

/// What comes before the direction: which piece moves. `true` is the `+`
/// (front) marker, `false` the `-` (rear) one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head {
    /// `C2`: the letter and the file number (a piece alone on its file, an
    /// advisor or elephant, or the middle pawn of three or five).
    LetterFile(PieceKind, usize),
    /// `R+`, `P-`: the letter and a marker (front or rear of two or three;
    /// for pawns of four or five, the second from the front or the back).
    LetterMarker(PieceKind, bool),
    /// `7+`: a pawn among two or three on its file when another file also
    /// has two or more; the file number replaces the letter.
    FileMarker(usize, bool),
    /// `77`: the middle pawn of three in that case.
    FileFile(usize),
    /// `++`, `--`: the foremost or rearmost of four or five pawns.
    DoubleMarker(bool),
}

/// The head the writer gives a move with these parts.
fn head(p: &Parts) -> Head {
    let front = p.place == 0;
    match (p.kind, p.tandem, p.place) {
        (_, 1, _) => Head::LetterFile(p.kind, p.file),
        (PieceKind::Pawn, n, i) => {
            // Two or three on the file: `+`, `-` and the file for the middle
            // one, after the letter or, with another such file, the file.
            let marker = |front: bool| match p.other_tandem_file {
                true => Head::FileMarker(p.file, front),
                false => Head::LetterMarker(PieceKind::Pawn, front),
            };
            match (n, i) {
                (2 | 3, 0) => marker(true),
                (2, _) | (3, 2) => marker(false),
                (3, _) if p.other_tandem_file => Head::FileFile(p.file),
                (3, _) => Head::LetterFile(PieceKind::Pawn, p.file),
                (_, 0) => Head::DoubleMarker(true),
                (_, 1) => Head::LetterMarker(PieceKind::Pawn, true),
                (5, 2) => Head::LetterFile(PieceKind::Pawn, p.file),
                (_, i) if i + 1 == n => Head::DoubleMarker(false),
                _ => Head::LetterMarker(PieceKind::Pawn, false),
            }
        }
        _ => Head::LetterMarker(p.kind, front),
    }
}

/// The WXF letter of a piece kind.
fn letter(kind: PieceKind) -> char {
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

/// The kind of a WXF letter, either case; `B` and `N` (the FEN letters) are
/// read as elephant and horse too.
fn kind_of_letter(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'K' => PieceKind::King,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Rook,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Pawn,
        _ => return None,
    })
}

fn digit_of(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '0' as usize),
        _ => None,
    }
}

fn marker_of(c: char) -> Option<bool> {
    match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    }
}

fn digit(n: usize) -> char {
    char::from(b'0' + n.clamp(1, 9) as u8)
}

fn marker(front: bool) -> char {
    if front { '+' } else { '-' }
}

/// WXF notation of a legal move in `board`: the piece letter (K A E H R C
/// P), the origin file numbered from the mover's right, `+` forward, `-`
/// backward or `.` sideways, and the ranks moved or the target file, as in
/// `C2.5` (炮二平五) and `H8+7` (马8进7). [`parse_wxf`] reads it back.
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
    let (first, second) = match head(&p) {
        Head::LetterFile(k, f) => (letter(k), digit(f)),
        Head::LetterMarker(k, front) => (letter(k), marker(front)),
        Head::FileMarker(f, front) => (digit(f), marker(front)),
        Head::FileFile(f) => (digit(f), digit(f)),
        Head::DoubleMarker(front) => (marker(front), marker(front)),
    };
    let dir = match p.dir {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    [first, second, dir, digit(p.n)].iter().collect()
}

/// Read a move in WXF notation, as [`wxf`] writes it, and find it among the
/// legal moves of `board`.
///
/// Besides the writer's forms it accepts lower case letters, `=` for
/// sideways (`C2=5`, as some records write it), `B` and `N` for elephant
/// and horse, the marker before the letter (`+R.3` for `R+.3`), and
/// surrounding whitespace. A piece named by its file where the writer would
/// use a marker (`R2+3` with two rooks on file 2) is accepted when only one
/// of them can make the move.
///
/// ```
/// use xiangqi::Board;
/// use xiangqi::notation::{ParseNotationError, parse_wxf, wxf};
///
/// let mut board = Board::startpos();
/// for text in ["C2=5", "H8+7", "h2+3", "R9.8"] {
///     let mv = parse_wxf(&board, text)?;
///     board.play(mv)?;
/// }
/// assert_eq!(board.history()[3].mv().to_string(), "i9h9");
///
/// // Two rooks on one file: the front one is `R+`.
/// let board: Board = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w".parse()?;
/// let mv = parse_wxf(&board, "R+.9")?;
/// assert_eq!(mv.to_string(), "e5a5");
/// assert_eq!(wxf(&board, mv), "R+.9");
/// assert!(matches!(
///     parse_wxf(&board, "R5.9"),
///     Err(ParseNotationError::Ambiguous { .. })
/// ));
/// assert!(matches!(parse_wxf(&board, "R5.0"), Err(ParseNotationError::Syntax { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_wxf(board: &Board, text: &str) -> Result<Move, ParseNotationError> {
    let syntax = || ParseNotationError::Syntax {
        notation: Notation::Wxf,
        text: quoted(text),
    };
    let chars: Vec<char> = text.trim().chars().collect();
    let [c0, c1, c2, c3] = chars[..] else {
        return Err(syntax());
    };
    let parsed = if let Some(kind) = kind_of_letter(c0) {
        match (digit_of(c1), marker_of(c1)) {
            (Some(file), _) => Head::LetterFile(kind, file),
            (_, Some(front)) => Head::LetterMarker(kind, front),
            _ => return Err(syntax()),
        }
    } else if let Some(file) = digit_of(c0) {
        match marker_of(c1) {
            Some(front) => Head::FileMarker(file, front),
            None if digit_of(c1) == Some(file) => Head::FileFile(file),
            None => return Err(syntax()),
        }
    } else if let Some(front) = marker_of(c0) {
        match (marker_of(c1), kind_of_letter(c1)) {
            (Some(second), _) if second == front => Head::DoubleMarker(front),
            (_, Some(kind)) => Head::LetterMarker(kind, front),
            _ => return Err(syntax()),
        }
    } else {
        return Err(syntax());
    };
    let dir = match c2 {
        '+' => 1,
        '-' => -1,
        '.' | '=' => 0,
        _ => return Err(syntax()),
    };
    let n = digit_of(c3).ok_or_else(syntax)?;
    let kind = match parsed {
        Head::LetterFile(kind, _) | Head::LetterMarker(kind, _) => kind,
        Head::FileMarker(..) | Head::FileFile(_) | Head::DoubleMarker(_) => PieceKind::Pawn,
    };
    resolve(
        board,
        text,
        kind,
        |p| head(p) == parsed && p.dir == dir && p.n == n,
        |p| parsed == Head::LetterFile(p.kind, p.file) && p.dir == dir && p.n == n,
    )
}
