//! Move notation: ICCS coordinates (`h2e2`, what UCI and UCCI send) and the
//! Chinese notation of game records (炮二平五, 马8进7).

use crate::board::Board;
use crate::types::{Color, Move, PieceKind};

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

/// The file number a side uses: Red counts 一..九 from its right (file i
/// is 一), Black 1..9 from its right (file a is 1).
fn file_number(color: Color, file: usize) -> usize {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// Chinese notation of a legal move in `board`.
pub fn chinese(board: &Board, m: Move) -> String {
    let Some(p) = board.piece_at(m.from()) else {
        return m.to_string();
    };
    let (c, k) = (p.color(), p.kind());
    let (from, to) = (m.from(), m.to());
    // Pieces of the same kind on the same file, front (most advanced) first.
    let mut same: Vec<usize> = board
        .squares_of(c, k)
        .filter(|s| s.file() == from.file())
        .map(|s| s.relative_rank(c))
        .collect();
    same.sort_unstable_by(|a, b| b.cmp(a));
    let me = from.relative_rank(c);
    let head = if same.len() >= 2 {
        let idx = same.iter().position(|&r| r == me).unwrap_or(0);
        let word = match (same.len(), idx) {
            (2, 0) => "前".to_string(),
            (2, _) => "后".to_string(),
            (3, 0) => "前".to_string(),
            (3, 1) => "中".to_string(),
            (3, _) => "后".to_string(),
            (_, i) => RED_NUM[i + 1].to_string(),
        };
        format!("{word}{}", piece_name(c, k))
    } else {
        format!(
            "{}{}",
            piece_name(c, k),
            number(c, file_number(c, from.file()))
        )
    };
    let (r0, r1) = (from.relative_rank(c), to.relative_rank(c));
    let dir = if r1 > r0 {
        "进"
    } else if r1 < r0 {
        "退"
    } else {
        "平"
    };
    let straight = matches!(
        k,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    );
    let n = if straight && dir != "平" {
        r0.abs_diff(r1)
    } else {
        file_number(c, to.file())
    };
    format!("{head}{dir}{}", number(c, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cn(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
        let mut b = match fen {
            Some(f) => Board::from_fen(f).unwrap(),
            None => Board::startpos(),
        };
        let mut out = Vec::new();
        for m in moves {
            let mv = b.parse_move(m).unwrap();
            out.push(chinese(&b, mv));
            b.make_move(mv);
        }
        out
    }

    #[test]
    fn opening_moves() {
        assert_eq!(
            cn(
                None,
                &[
                    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"
                ]
            ),
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
    fn two_pieces_on_a_file() {
        // Two red rooks on the e-file: the front one moves.
        let fen = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w";
        assert_eq!(cn(Some(fen), &["e5e8"]), vec!["前车进三"]);
        assert_eq!(cn(Some(fen), &["e2a2"]), vec!["后车平九"]);
    }
}
