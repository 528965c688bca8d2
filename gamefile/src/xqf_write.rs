//! XQF written: version 10, the last one without encryption, which
//! XQStudio, ElephantEye's converters and `cchess` all read. The layout is
//! the reader's ([`crate::xqf`]); here every field is written plain.

use crate::game::{Game, GameResult};
use crate::text::to_gbk;
use crate::xqf::{
    ANNOTATOR, BLACK, DATE, EVENT, HEADER_LEN, RED, RESULT, SITE, SLOT_LETTERS, TITLE,
};
use xiangqi::{Board, Move, START_FEN};

/// The XQF bytes of `game`: header, root record with the game's comment,
/// then every move of the tree in preorder (continuation before
/// alternative). A name longer than its field is cut at a character.
pub fn write(game: &Game) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_LEN];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = 10;
    let slots = piece_slots(&game.start);
    out[0x10..0x30].copy_from_slice(&slots);
    out[RESULT] = match game.headers.result {
        GameResult::Unknown => 0,
        GameResult::RedWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    };
    // The kind of record: 0 a whole game from the start, 3 an endgame
    // (ElephantEye sets up the start position for kinds 0 and 1).
    let standard = game.start.to_fen()
        == Board::from_fen(START_FEN)
            .map(|b| b.to_fen())
            .unwrap_or_default();
    out[0x40] = if standard { 0 } else { 3 };
    let h = &game.headers;
    for (text, place) in [
        (&h.title, TITLE),
        (&h.event, EVENT),
        (&h.date, DATE),
        (&h.site, SITE),
        (&h.red, RED),
        (&h.black, BLACK),
        (&h.annotator, ANNOTATOR),
    ] {
        put_string(&mut out, text, place);
    }

    let root_has_moves = game.nodes.first().is_some_and(|n| !n.children.is_empty());
    put_record(&mut out, Move::NONE, root_has_moves, false, game.comment());
    // Preorder on a stack: a node, then its first reply's subtree, then
    // its next sibling.
    let mut stack: Vec<(usize, usize)> = Vec::new(); // (parent, index among its children)
    if root_has_moves {
        stack.push((0, 0));
    }
    while let Some((parent, k)) = stack.pop() {
        let Some(siblings) = game.nodes.get(parent).map(|p| &p.children) else {
            continue;
        };
        let Some(&id) = siblings.get(k) else { continue };
        let Some(node) = game.nodes.get(id) else {
            continue;
        };
        let has_sibling = k + 1 < siblings.len();
        let has_child = !node.children.is_empty();
        put_record(
            &mut out,
            node.mv,
            has_child,
            has_sibling,
            node.comment.as_deref(),
        );
        if has_sibling {
            stack.push((parent, k + 1));
        }
        if has_child {
            stack.push((id, 0));
        }
    }
    out
}

/// The 32 piece slots of `board`: each piece in the first free slot of its
/// kind and side, 0xFF for a slot with no piece.
fn piece_slots(board: &Board) -> [u8; 32] {
    let mut slots = [0xFFu8; 32];
    for index in 0..90 {
        let Some(sq) = xiangqi::Square::from_index(index) else {
            continue;
        };
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let letter = piece.kind().letter();
        let base = if piece.color() == xiangqi::Color::Red {
            0
        } else {
            16
        };
        let code = (sq.file() * 10 + sq.rank()) as u8;
        if let Some(i) = (0..16).find(|&i| SLOT_LETTERS[i] == letter && slots[base + i] == 0xFF) {
            slots[base + i] = code;
        }
    }
    slots
}

/// A length-prefixed GBK string in its field, cut to fit.
fn put_string(out: &mut [u8], text: &str, (at, room): (usize, usize)) {
    let mut bytes = to_gbk(text);
    let mut cut = text.len();
    while bytes.len() > room - 1 {
        // Drop the last character and encode again, so that no character
        // is cut in half.
        cut = text
            .get(..cut)
            .and_then(|t| t.char_indices().last())
            .map_or(0, |(i, _)| i);
        bytes = to_gbk(text.get(..cut).unwrap_or_default());
    }
    if let Some(dst) = out.get_mut(at..at + 1 + bytes.len()) {
        dst[0] = bytes.len() as u8;
        dst[1..].copy_from_slice(&bytes);
    }
}

/// One version-10 record: squares plus 24 and 32, flags, comment length and text.
fn put_record(out: &mut Vec<u8>, mv: Move, next: bool, var: bool, comment: Option<&str>) {
    let code = |sq: xiangqi::Square| (sq.file() * 10 + sq.rank()) as u8;
    let (from, to) = if mv.is_some() {
        (code(mv.from()), code(mv.to()))
    } else {
        (0, 0)
    };
    let flags = if next { 0xF0 } else { 0 } | if var { 0x0F } else { 0 };
    out.extend_from_slice(&[from + 24, to + 32, flags, 0]);
    let text = comment.map(to_gbk).unwrap_or_default();
    let len = i32::try_from(text.len()).unwrap_or(i32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&text);
}
