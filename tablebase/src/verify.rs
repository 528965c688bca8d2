//! `tb verify`: every position of every table checked against its
//! successors, with the `xiangqi` crate's board and moves (not the
//! generator's), captures into smaller tables included.
//!
//! For each index: if it decodes to a position the `xiangqi` crate accepts
//! (legal, side not to move not in check, kings not facing) the stored value
//! must be a value, else "no position". A position without legal moves is
//! lost in 0. Otherwise the stored value must be the best over its moves
//! (a faster win, a slower loss, a draw over a loss), with one exception,
//! the perpetual-check rule: a loss in 0 with legal moves is accepted when
//! every move loses and at least one checks; and a win in 1 may be a move
//! into such a position, a check included: the repetition that ends the
//! game starts there, so the move entering it is not part of the cycle, and
//! in the cycle the winner answers every check quietly (a cycle back to the
//! position before that move holds at least one of those quiet answers).

use crate::index::Pos;
use crate::material::Material;
use crate::probe::{Tablebases, pos_of};
use crate::table::{Table, TableSet};
use crate::value::{DRAW, INVALID, back, better, is_loss, is_win, mate_in};
use rayon::prelude::*;
use std::path::Path;
use xiangqi::{Board, Color};

/// The outcome of verifying one table.
#[derive(Debug, Default)]
pub struct Report {
    /// Legal positions checked.
    pub positions: u64,
    /// Of which lost by the perpetual-check rule.
    pub rule_losses: u64,
    /// Errors found (the first few described).
    pub errors: u64,
    /// Descriptions of the first errors.
    pub messages: Vec<String>,
}

/// A FEN for a table position.
pub fn fen_of(pos: &Pos) -> String {
    let b = pos.board();
    let mut s = String::with_capacity(96);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let c = b[rank * 9 + file];
            if c == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            let piece =
                xiangqi::Piece::new(crate::geometry::color_of(c), crate::geometry::kind_of(c));
            s.push(piece.fen_char());
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if pos.side == Color::Red { " w" } else { " b" });
    s
}

/// Load every table of `dir` unpacked, checking that the tables their
/// captures need are there too.
pub fn load_all(dir: &Path) -> Result<TableSet, String> {
    load_for(&Tablebases::open(dir)?, &[])
}

/// Load unpacked what verifying `chosen` needs: each chosen table of `tb`
/// and the tables its captures lead to (every table when `chosen` is
/// empty). Verifying one table of a large set no longer unpacks the whole
/// set: `KRBBvKABB` alone in a set of 399 tables took 76 s, mostly spent
/// unpacking, and the set's 7.5 G values would need 15 GB. It takes the
/// opened tables because opening a set checksums every file.
pub fn load_for(tb: &Tablebases, chosen: &[Material]) -> Result<TableSet, String> {
    let mut wanted: Vec<Material> = Vec::new();
    let roots = if chosen.is_empty() {
        tb.materials()
    } else {
        chosen.iter().map(|m| m.canonical().0).collect()
    };
    for m in roots {
        if tb.file(&m).is_none() {
            return Err(format!("{m} is not in the tables"));
        }
        for c in m.captures() {
            if tb.file(&c).is_none() {
                return Err(format!("{m} needs {c}, which is not in the tables"));
            }
            if !wanted.contains(&c) {
                wanted.push(c);
            }
        }
        if !wanted.contains(&m) {
            wanted.push(m);
        }
    }
    let mut set = TableSet::new();
    for m in wanted {
        let file = tb.file(&m).ok_or("table vanished")?;
        set.insert(Table {
            indexer: crate::index::Indexer::new(m),
            values: file.values()?,
        });
    }
    Ok(set)
}

/// Verify the table of `m` in `set`.
pub fn verify(set: &TableSet, m: &Material) -> Report {
    let Some(t) = set.get(m) else {
        return Report {
            errors: 1,
            messages: vec![format!("{m}: no such table")],
            ..Report::default()
        };
    };
    (0..t.values.len())
        .into_par_iter()
        .fold(Report::default, |mut rep, i| {
            match check_one(set, t, i as u64, t.values[i]) {
                Ok(Checked::Illegal) => {}
                Ok(Checked::Legal) => rep.positions += 1,
                Ok(Checked::RuleLoss) => {
                    rep.positions += 1;
                    rep.rule_losses += 1;
                }
                Err(msg) => {
                    rep.positions += 1;
                    rep.errors += 1;
                    if rep.messages.len() < 10 {
                        rep.messages.push(format!("{m} index {i}: {msg}"));
                    }
                }
            }
            rep
        })
        .reduce(Report::default, |mut a, b| {
            a.positions += b.positions;
            a.rule_losses += b.rule_losses;
            a.errors += b.errors;
            a.messages.extend(b.messages);
            a.messages.truncate(10);
            a
        })
}

enum Checked {
    Illegal,
    Legal,
    RuleLoss,
}

fn check_one(set: &TableSet, t: &Table, i: u64, stored: u16) -> Result<Checked, String> {
    let board = t
        .indexer
        .decode(i)
        .and_then(|p| Board::from_fen(&fen_of(&p)).ok());
    let Some(mut board) = board else {
        return if stored == INVALID {
            Ok(Checked::Illegal)
        } else {
            Err("no legal position, but a value is stored".into())
        };
    };
    // The FEN only for messages: writing it for every position cost more
    // than checking it.
    let fen = |b: &Board| b.to_fen();
    if stored == INVALID {
        return Err(format!("{}: legal, but stored as no position", fen(&board)));
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return if stored == mate_in(0) {
            Ok(Checked::Legal)
        } else {
            Err(format!("{}: no legal move, stored {stored}", fen(&board)))
        };
    }
    let mut best: Option<u16> = None;
    let mut any_check = false;
    let mut into_rule_loss = false;
    for mv in moves {
        any_check |= board.gives_check(mv);
        board.make_move(mv);
        let succ = pos_of(&board).and_then(|p| set.lookup(&p));
        let rule_loss = succ == Some(mate_in(0)) && board.has_legal_move();
        board.unmake_move();
        let Some(v) = succ.filter(|&v| v != INVALID) else {
            return Err(format!("{}: no value after {mv}", fen(&board)));
        };
        into_rule_loss |= rule_loss;
        let mine = back(v);
        if best.is_none_or(|b| better(mine, b)) {
            best = Some(mine);
        }
    }
    let best = best.unwrap_or(DRAW);
    if stored == mate_in(0) {
        return if is_loss(best) && any_check {
            Ok(Checked::RuleLoss)
        } else {
            Err(format!(
                "{}: lost in 0 with a move worth {best}",
                fen(&board)
            ))
        };
    }
    // A win in 1 must end in mate, or move into a rule loss.
    if stored == mate_in(1) && !into_rule_loss {
        let mut mates = false;
        for mv in board.legal_moves() {
            board.make_move(mv);
            mates |= !board.has_legal_move();
            board.unmake_move();
        }
        if !mates {
            return Err(format!(
                "{}: win in 1 without a mate or a move into a rule loss",
                fen(&board)
            ));
        }
    }
    if stored == best {
        Ok(Checked::Legal)
    } else {
        Err(format!(
            "{}: stored {stored}, best move gives {best} (win {} loss {})",
            fen(&board),
            is_win(best),
            is_loss(best)
        ))
    }
}
