//! Every legal move, written in Chinese and in WXF notation, reads back as
//! the same move: in every position of the shared games, and in random
//! positions (which put several pawns on one file far more often).

mod common;

use xiangqi::Board;
use xiangqi::notation::{chinese, parse_chinese, parse_wxf, wxf};

/// Check every legal move of `board`; returns how many were checked.
fn round_trip_all(board: &Board, context: &str) -> usize {
    let moves = board.legal_moves();
    let mut seen_chinese = Vec::new();
    for mv in &moves {
        let text = chinese(board, mv);
        assert_eq!(
            parse_chinese(board, &text),
            Ok(mv),
            "{context}: {} {mv} written {text}",
            board.to_fen()
        );
        let text_wxf = wxf(board, mv);
        assert_eq!(
            parse_wxf(board, &text_wxf),
            Ok(mv),
            "{context}: {} {mv} written {text_wxf}",
            board.to_fen()
        );
        seen_chinese.push(text);
    }
    // No two moves share a text (the readers would have caught it, but say so).
    seen_chinese.sort();
    seen_chinese.dedup();
    assert_eq!(seen_chinese.len(), moves.len(), "{}", board.to_fen());
    moves.len()
}

#[test]
fn every_legal_move_in_the_shared_games_round_trips() {
    let Some(text) = common::shared_file("data/games/games.txt") else {
        return;
    };
    let (mut games, mut positions, mut moves) = (0, 0, 0);
    for (line_no, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(fields.len() >= 7, "line {}: too short", line_no + 1);
        let fen = fields[..6].join(" ");
        let mut board: Board = fen
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        let context = format!("line {}", line_no + 1);
        // The last field is the result.
        for played in &fields[6..fields.len() - 1] {
            moves += round_trip_all(&board, &context);
            positions += 1;
            let mv = played.parse().unwrap_or_else(|e| panic!("{context}: {e}"));
            board.play(mv).unwrap_or_else(|e| panic!("{context}: {e}"));
        }
        moves += round_trip_all(&board, &context);
        positions += 1;
        games += 1;
    }
    eprintln!("{games} games, {positions} positions, {moves} moves written and read back");
    assert!(games >= 700, "only {games} games read");
    assert!(moves > 2_000_000, "only {moves} moves checked");
}

#[test]
fn every_legal_move_in_random_positions_round_trips() {
    let mut rng = common::Rng::new(0x5eed_0a7e);
    let mut tandem_pawn_positions = 0;
    for i in 0..3000 {
        let board = common::random_position(&mut rng);
        round_trip_all(&board, &format!("random position {i}"));
        let has_tandem = board
            .squares_of(board.side_to_move(), xiangqi::PieceKind::Pawn)
            .any(|s| {
                board
                    .squares_of(board.side_to_move(), xiangqi::PieceKind::Pawn)
                    .filter(|t| t.file() == s.file())
                    .count()
                    >= 2
            });
        tandem_pawn_positions += usize::from(has_tandem);
    }
    // The random positions do exercise the position words for pawns.
    assert!(
        tandem_pawn_positions > 300,
        "{tandem_pawn_positions} positions with pawns sharing a file"
    );
}
