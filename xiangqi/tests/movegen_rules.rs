//! Each rule of piece movement, enforced on composed positions.

mod common;

use common::legal_strings;
use xiangqi::board::Board;

fn legal(fen: &str) -> Vec<String> {
    legal_strings(&Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

/// Legal moves of the pieces standing on `from` squares only.
fn legal_from(fen: &str, from: &[&str]) -> Vec<String> {
    legal(fen)
        .into_iter()
        .filter(|m| from.contains(&&m[0..2]))
        .collect()
}

fn set(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn king_stays_in_palace_and_never_faces_the_other_king() {
    // d0-e0 would face the black king on the open e-file; c0 is outside the palace.
    assert_eq!(legal("4k4/9/9/9/9/9/9/9/9/3K5 w"), set(&["d0d1"]));
    // From d2: d1 and e2; d3 is outside the palace.
    assert_eq!(legal("5k3/9/9/9/9/9/9/3K5/9/9 w"), set(&["d2d1", "d2e2"]));
}

#[test]
fn advisor_moves_diagonally_inside_the_palace() {
    assert_eq!(
        legal_from("5k3/9/9/9/9/9/9/9/4A4/3K5 w", &["e1"]),
        set(&["e1d2", "e1f2", "e1f0"])
    );
}

#[test]
fn elephant_is_blocked_on_its_eye_and_never_crosses_the_river() {
    // The black horse on d3 blocks e2-c4; c4 cannot go to a6 or e6.
    assert_eq!(
        legal_from("5k3/9/9/9/9/2B6/3n5/4B4/9/3K5 w", &["c4", "e2"]),
        set(&["c4a2", "e2c0", "e2g0", "e2g4"])
    );
}

#[test]
fn horse_is_blocked_on_its_leg() {
    // The elephant on c0 blocks b0-d1.
    assert_eq!(
        legal_from("5k3/9/9/9/9/9/9/9/9/1NBK5 w", &["b0"]),
        set(&["b0a2", "b0c2"])
    );
}

#[test]
fn cannon_moves_like_a_rook_and_captures_over_exactly_one_screen() {
    let fen = "5k3/9/1n7/9/1P7/9/9/1C2r2c1/9/3K5 w";
    assert_eq!(
        legal_from(fen, &["b2"]),
        set(&[
            "b2b3", "b2b4", "b2b1", "b2b0", "b2a2", "b2c2", "b2d2", "b2b7", "b2h2"
        ])
    );
}

#[test]
fn pawn_moves_forward_and_sideways_only_after_the_river() {
    let fen = "P4k3/9/9/2P6/9/9/4P4/9/9/3K5 w";
    assert_eq!(
        legal_from(fen, &["e3", "c6", "a9"]),
        set(&["e3e4", "c6c7", "c6b6", "c6d6", "a9b9"])
    );
    // A black pawn across the river moves down and sideways.
    assert_eq!(
        legal_from("5k3/9/9/9/9/4p4/9/9/9/3K5 b", &["e4"]),
        set(&["e4e3", "e4d4", "e4f4"])
    );
}

#[test]
fn piece_between_the_kings_is_pinned_by_the_flying_general() {
    assert_eq!(
        legal("4k4/9/9/9/4N4/9/9/9/9/4K4 w"),
        set(&["e0d0", "e0f0", "e0e1"])
    );
}

#[test]
fn pinned_piece_moves_only_along_the_pin() {
    // The cannon on e3 shields the king from the rook on e7; e0-d0 would face the black king.
    assert_eq!(
        legal("3k5/9/4r4/9/9/9/4C4/9/9/4K4 w"),
        set(&["e0f0", "e0e1", "e3e1", "e3e2", "e3e4", "e3e5", "e3e6"])
    );
}

#[test]
fn cannon_screens_cannot_be_removed_or_added() {
    // Two screens between the black cannon and the king: the horse may not
    // leave (one screen would remain), the pawn may step forward.
    assert_eq!(
        legal_from("3k5/9/4c4/9/9/4P4/9/4N4/9/4K4 w", &["e2", "e4"]),
        set(&["e4e5"])
    );
    // No screen between the black cannon on d7 and the king on d0: the horse
    // may not step onto the d-file and become one.
    assert_eq!(
        legal_from("5k3/9/3c5/9/9/9/1N7/9/9/3K5 w", &["b3"]),
        set(&["b3a1", "b3c1", "b3a5", "b3c5"])
    );
}

#[test]
fn horse_leg_blocker_is_pinned() {
    // The red horse on f1 blocks the leg of the black horse on g1 aimed at e0.
    assert_eq!(
        legal("3k5/9/9/9/9/9/9/9/5Nn2/4K4 w"),
        set(&["e0e1", "e0f0"])
    );
}

#[test]
fn in_check_only_evasions_are_legal() {
    // Rook check on the e-file: step to d0 (f0 would face the black king) or block on e3.
    assert_eq!(
        legal("5k3/9/9/9/4r4/9/R8/9/9/4K4 w"),
        set(&["e0d0", "a3e3"])
    );
    // Cannon check: capture or move the screen? The screen is ours (the horse on e2);
    // moving it off the file is the only horse move that helps, the king can step aside.
    let b = Board::from_fen("3k5/9/4c4/9/9/9/9/4N4/9/4K4 w").unwrap();
    assert!(b.in_check());
    for m in b.legal_moves().iter() {
        let mut c = b.clone();
        c.make_move(m);
        assert!(
            !c.is_in_check(xiangqi::types::Color::Red),
            "{m} leaves the king in check"
        );
    }
}

#[test]
fn stalemate_and_checkmate_have_no_moves() {
    let stalemate = Board::from_fen("3k5/9/3P5/9/9/9/9/9/9/4RK3 b").unwrap();
    assert!(!stalemate.in_check());
    assert!(stalemate.legal_moves().is_empty());
    let mate = Board::from_fen("R2k5/1R7/9/9/9/9/9/9/9/5K3 b").unwrap();
    assert!(mate.in_check());
    assert!(mate.legal_moves().is_empty());
    assert!(!mate.has_legal_move());
}

#[test]
fn gives_check_detects_direct_and_discovered_checks() {
    let gives = |fen: &str, mv: &str| {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
        b.gives_check(m)
    };
    // Moving the horse off the e-file discovers the rook's check.
    let fen = "4k4/9/9/9/9/9/9/4N4/9/3KR4 w";
    assert!(gives(fen, "e2c3"));
    assert!(!gives(fen, "e0e1"));
    // A horse check needs a free leg.
    assert!(gives("4k4/9/9/1N7/9/9/9/9/9/3K5 w", "b6c8"));
    assert!(!gives("4k4/9/9/1N7/9/9/9/9/9/3K5 w", "b6a8"));
    // A piece leaving the leg of a horse aimed at the king discovers its check.
    assert!(gives("4k4/2NR5/9/9/9/9/9/9/9/5K3 w", "d8d5"));
    assert!(!gives("4k4/2NR5/9/9/9/9/9/9/9/5K3 w", "f0f1"));
    // A cannon checks over exactly one screen.
    assert!(gives("4k4/9/9/4p4/9/9/9/7C1/9/3K5 w", "h2e2"));
    assert!(!gives("4k4/9/9/4p4/9/9/9/7C1/9/3K5 w", "h2g2"));
    // A pawn checks sideways once across the river.
    assert!(!gives("4k4/9/2P6/9/9/9/9/9/9/3K5 w", "c7d7"));
    assert!(!gives("3k5/9/9/2P6/9/9/9/9/9/4K4 w", "c6c7"));
    assert!(gives("9/3k5/2P6/9/9/9/9/9/9/4K4 w", "c7c8"));
}

#[test]
fn bad_move_text_is_rejected() {
    let b = Board::startpos();
    assert!(b.parse_move("h2e2").is_ok());
    assert!(b.parse_move("h2e3").is_err());
    assert!(
        b.parse_move("e9e8").is_err(),
        "black piece with red to move"
    );
    assert!(b.parse_move("x").is_err());
    assert!(b.parse_move("").is_err());
    assert!(b.parse_move("a0a0").is_err());
}
