//! Chinese notation (炮二平五, 马8进7, 前车进三): writing and reading.

use super::{Notation, ParseNotationError, Parts, parts, quoted, resolve};
use crate::board::Board;
use crate::types::{Color, Move, PieceKind};

/// The Chinese numerals 一..九 (1..9): Red's file numbers and distances, and
/// the ordinals of four or five pawns on one file.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Where a piece stands among the pieces of its kind on its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// 前: the most advanced of two or three.
    Front,
    /// 中: the middle one of three.
    Middle,
    /// 后: the rearmost of two or three.
    Rear,
    /// 一..五: the n-th from the front (1-based) of four or five pawns.
    Ordinal(usize),
}

/// What comes before the direction: which piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head {
    /// 炮二: the piece and its file number (a piece alone on its file, or
    /// an advisor or elephant).
    PieceFile(PieceKind, usize),
    /// 前车, 中兵, 一兵: the place among its kind on its file.
    PlacePiece(Place, PieceKind),
    /// 前七: a pawn among two or three on its file when another file also
    /// has two or more; the file number replaces the piece name.
    PlaceFile(Place, usize),
}

/// The head the writer gives a move with these parts.
fn head(p: &Parts) -> Head {
    if p.tandem < 2 {
        return Head::PieceFile(p.kind, p.file);
    }
    let place = match (p.tandem, p.place) {
        (2 | 3, 0) => Place::Front,
        (2, _) => Place::Rear,
        (3, 1) => Place::Middle,
        (3, _) => Place::Rear,
        (_, i) => Place::Ordinal(i + 1),
    };
    if p.other_tandem_file && !matches!(place, Place::Ordinal(_)) {
        Head::PlaceFile(place, p.file)
    } else {
        Head::PlacePiece(place, p.kind)
    }
}

fn piece_name(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '将',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Pawn) => '卒',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Rook) => '车',
        (_, PieceKind::Cannon) => '炮',
    }
}

/// The kind a piece name stands for, in simplified or traditional
/// characters and either side's name (帅/将, 仕/士, 相/象, 兵/卒).
fn kind_of_name(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' => PieceKind::Horse,
        '车' | '車' | '俥' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// A number 1..9 written as a Chinese numeral, an ASCII digit or a
/// full-width digit (１..９), as records of either side may use.
fn number_of(c: char) -> Option<usize> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i + 1);
    }
    let digit = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '０' as u32,
        _ => return None,
    };
    Some(digit as usize)
}

fn place_of_word(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '中' => Some(Place::Middle),
        '后' | '後' => Some(Place::Rear),
        _ => None,
    }
}

/// Chinese notation of a legal move in `board`, as game records write it:
/// 炮二平五 (Red counts files in Chinese numerals), 马8进7 (Black in digits),
/// 前车进三 (two rooks on one file). Four or five pawns on one file are
/// numbered 一兵..五兵 from the front; when two files each hold two or more
/// of the mover's pawns, the file number takes the place of the piece name
/// (前七平六). If no piece stands on the move's origin, gives the ICCS
/// coordinates instead. [`parse_chinese`] reads it back.
pub fn chinese(board: &Board, m: Move) -> String {
    let Some(p) = parts(board, m) else {
        return m.to_string();
    };
    let c = p.color;
    // Red writes numbers as Chinese numerals, Black as digits.
    let number = |n: usize| match c {
        Color::Red => NUMERALS[n.clamp(1, 9) - 1],
        Color::Black => char::from(b'0' + n.clamp(1, 9) as u8),
    };
    let place_word = |place: Place| match place {
        Place::Front => '前',
        Place::Middle => '中',
        Place::Rear => '后',
        Place::Ordinal(i) => NUMERALS[i.clamp(1, 9) - 1],
    };
    let (first, second) = match head(&p) {
        Head::PieceFile(k, f) => (piece_name(c, k), number(f)),
        Head::PlacePiece(place, k) => (place_word(place), piece_name(c, k)),
        Head::PlaceFile(place, f) => (place_word(place), number(f)),
    };
    let dir = match p.dir {
        1 => '进',
        -1 => '退',
        _ => '平',
    };
    [first, second, dir, number(p.n)].iter().collect()
}

/// Read a move in Chinese notation, as [`chinese`] writes it, and find it
/// among the legal moves of `board`.
///
/// Besides the writer's forms it accepts traditional characters (車, 馬,
/// 帥, 將, 進, 後; also 俥, 傌, 砲, 包), numbers as Chinese numerals, ASCII
/// or full-width digits for either side (马８进７), either side's name for a
/// piece (士 for a Red advisor), and surrounding whitespace. A piece named
/// by its file where the writer would use a position word (车二进三 with
/// two rooks on file 二) is accepted when only one of them can make the
/// move.
///
/// ```
/// use xiangqi::Board;
/// use xiangqi::notation::{ParseNotationError, parse_chinese};
///
/// let mut board = Board::startpos();
/// for text in ["炮二平五", "马８进７", "馬二進三", "车9平8"] {
///     let mv = parse_chinese(&board, text)?;
///     board.play(mv)?;
/// }
/// assert_eq!(
///     board.to_fen(),
///     "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
/// );
///
/// // Not the shape of a move; the shape but no such move here.
/// let err = parse_chinese(&board, "炮二五").unwrap_err();
/// assert!(matches!(err, ParseNotationError::Syntax { .. }));
/// let err = parse_chinese(&board, "炮二平二").unwrap_err();
/// assert!(matches!(err, ParseNotationError::NoSuchMove { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_chinese(board: &Board, text: &str) -> Result<Move, ParseNotationError> {
    let syntax = || ParseNotationError::Syntax {
        notation: Notation::Chinese,
        text: quoted(text),
    };
    let chars: Vec<char> = text.trim().chars().collect();
    let [c0, c1, c2, c3] = chars[..] else {
        return Err(syntax());
    };
    let parsed = if let (Some(kind), Some(file)) = (kind_of_name(c0), number_of(c1)) {
        Head::PieceFile(kind, file)
    } else if let Some(kind) = kind_of_name(c1) {
        let ordinal = number_of(c0)
            .filter(|n| (1..=5).contains(n))
            .map(Place::Ordinal);
        Head::PlacePiece(place_of_word(c0).or(ordinal).ok_or_else(syntax)?, kind)
    } else if let (Some(place), Some(file)) = (place_of_word(c0), number_of(c1)) {
        Head::PlaceFile(place, file)
    } else {
        return Err(syntax());
    };
    let dir = match c2 {
        '进' | '進' => 1,
        '退' => -1,
        '平' => 0,
        _ => return Err(syntax()),
    };
    let n = number_of(c3).ok_or_else(syntax)?;
    let kind = match parsed {
        Head::PieceFile(kind, _) | Head::PlacePiece(_, kind) => kind,
        Head::PlaceFile(..) => PieceKind::Pawn,
    };
    resolve(
        board,
        text,
        kind,
        |p| head(p) == parsed && p.dir == dir && p.n == n,
        |p| parsed == Head::PieceFile(p.kind, p.file) && p.dir == dir && p.n == n,
    )
}
