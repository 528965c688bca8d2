//! Endgame tables on the page: the tables the host has fetched (as bytes;
//! the module has no files), and the verdict of a position in them.
//!
//! The host adds a table with `jj_tb_add` (see `lib.rs`) and asks with the
//! rules query `tb POSITION`. The answer names the material of the position
//! and, in `need`, the tables a full answer still lacks: the position's own
//! and those one capture away (the best move and each move's verdict probe
//! them). The host fetches those it has, adds them and asks again; it never
//! needs to know how materials are named or reduced.
//!
//! `{"ok":true,"material":"KRvK","need":[],"probe":{"wdl":"win","dtm":3,
//! "rule":false,"best":"a0a8","moves":[{"iccs":"a0a8","wdl":"win","dtm":3},...]}}`
//! with `wdl` and `dtm` from the side to move's view for the position and
//! from the mover's view for each move (best first); `"material":null`
//! when the position has too many pieces for any table, `"probe":null`
//! while tables are missing or when the position is none the tables hold
//! (say a pawn behind its start); `rule` when the side to move is lost by
//! the perpetual-check rule (a loss in 0 plies with moves left).

use crate::query::{Refusal, json_string, refuse, replay, split_position};
use jiangjun_tablebase::probe::pos_of;
use jiangjun_tablebase::value::{back, better, unpack};
use jiangjun_tablebase::{Material, Tablebases};
use std::cell::RefCell;
use std::fmt::Write;
use xiangqi::{Board, Move};

thread_local! {
    /// The tables added so far; the host calls in from one thread only.
    static TABLES: RefCell<Tablebases> = RefCell::new(Tablebases::new());
}

/// Add a table file's bytes under its file name (`KRvK.jtb`, or the bare
/// material): `{"ok":true,"material":"KRvK","tables":N}`, or refused with
/// the format's message (a damaged or mis-named file adds nothing).
pub fn add(name: &str, bytes: Vec<u8>) -> String {
    let added = TABLES.with(|t| {
        let mut t = t.borrow_mut();
        t.insert_bytes(name, bytes).map(|m| (m, t.len()))
    });
    match added {
        Ok((m, n)) => format!("{{\"ok\":true,\"material\":\"{m}\",\"tables\":{n}}}"),
        Err(e) => format!("{{\"ok\":false,\"error\":{}}}", json_string(&e)),
    }
}

/// The canonical material of a board, if a table could hold it.
fn material_of(board: &Board) -> Option<Material> {
    Some(pos_of(board)?.material().canonical().0)
}

/// The `tb POSITION` query.
pub fn query(position: &str) -> Result<String, Refusal> {
    let (fen, moves) = split_position(position);
    let (_, board, _) = replay(fen, &moves)?;
    let Some(m) = material_of(&board) else {
        return Ok("{\"ok\":true,\"material\":null,\"need\":[],\"probe\":null}".into());
    };
    TABLES.with(|t| {
        let tb = t.borrow();
        let need: Vec<String> = std::iter::once(m)
            .chain(m.captures())
            .filter(|c| !tb.contains(c))
            .map(|c| json_string(&c.to_string()))
            .collect();
        let probe = if need.is_empty() {
            verdict(&tb, &board).map_err(|e| refuse(e, -1))?
        } else {
            None
        };
        Ok(format!(
            "{{\"ok\":true,\"material\":\"{m}\",\"need\":[{}],\"probe\":{}}}",
            need.join(","),
            probe.as_deref().unwrap_or("null")
        ))
    })
}

/// `"wdl":"win","dtm":3` of a packed value.
fn value_json(v: u16) -> String {
    let (wdl, dtm) = unpack(v);
    match dtm {
        Some(d) => format!("\"wdl\":\"{}\",\"dtm\":{d}", wdl.name()),
        None => format!("\"wdl\":\"{}\",\"dtm\":null", wdl.name()),
    }
}

/// The probe object of a board all of whose tables are held, or `None`
/// when the tables hold no such position.
fn verdict(tb: &Tablebases, board: &Board) -> Result<Option<String>, String> {
    let Some(p) = tb.probe(board) else {
        return Ok(None);
    };
    let p = p?;
    // Each move's value for the mover, best first (ties in move order).
    let mut moves: Vec<(Move, u16)> = Vec::new();
    let mut b = board.clone();
    for mv in board.legal_moves() {
        b.make_move(mv);
        let after = tb.probe(&b);
        b.unmake_move();
        match after {
            Some(r) => moves.push((mv, back(r?.value))),
            None => return Err(format!("no table for the position after {mv}")),
        }
    }
    moves.sort_by(|a, b| {
        if better(a.1, b.1) {
            std::cmp::Ordering::Less
        } else if better(b.1, a.1) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let mut out = format!(
        "{{{},\"rule\":{}",
        value_json(p.value),
        p.dtm == Some(0) && !moves.is_empty()
    );
    match moves.first() {
        Some((mv, _)) => {
            let _ = write!(out, ",\"best\":\"{mv}\"");
        }
        None => out.push_str(",\"best\":null"),
    }
    out.push_str(",\"moves\":[");
    for (i, (mv, v)) in moves.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{{\"iccs\":\"{mv}\",{}}}", value_json(*v));
    }
    out.push_str("]}");
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::answer;

    /// `KRvK` and what it needs, built in a temporary directory, as
    /// (file name, bytes).
    fn krvk_files() -> Vec<(String, Vec<u8>)> {
        let dir = std::env::temp_dir().join(format!("jjweb-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let m: Material = "KRvK".parse().unwrap();
        jiangjun_tablebase::build::build(&dir, &[m], |_| {}).unwrap();
        let files = ["KRvK.jtb", "KvK.jtb"]
            .iter()
            .map(|n| (n.to_string(), std::fs::read(dir.join(n)).unwrap()))
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        files
    }

    #[test]
    fn verdicts_come_once_the_tables_are_added() {
        let fen = "tb fen 9/4k4/9/9/9/9/9/9/9/R2K5 w";
        let before = answer(fen);
        assert_eq!(
            before,
            "{\"ok\":true,\"material\":\"KRvK\",\"need\":[\"KRvK\",\"KvK\"],\"probe\":null}"
        );
        let files = krvk_files();
        // Refused: a damaged file, a file under another material's name.
        let mut bad = files[0].1.clone();
        bad[200] ^= 1;
        assert!(add("KRvK.jtb", bad).contains("checksum mismatch"));
        let wrong = add("KRvKA.jtb", files[0].1.clone());
        assert!(wrong.contains("holds the table KRvK"), "{wrong}");
        assert_eq!(answer(fen), before);

        for (name, bytes) in files {
            assert!(add(&name, bytes).starts_with("{\"ok\":true"));
        }
        let a = answer(fen);
        assert!(
            a.starts_with(
                "{\"ok\":true,\"material\":\"KRvK\",\"need\":[],\"probe\":{\"wdl\":\"win\",\"dtm\":3,\"rule\":false,\"best\":\"a0a8\",\"moves\":[{\"iccs\":\"a0a8\",\"wdl\":\"win\",\"dtm\":3},"
            ),
            "{a}"
        );
        // Black to move after the best move: lost in 2.
        let b = answer("tb fen 9/4k4/9/9/9/9/9/9/9/R2K5 w moves a0a8");
        assert!(b.contains("\"probe\":{\"wdl\":\"loss\",\"dtm\":2"), "{b}");
        // Colours swapped: Black's rook, the same table.
        let c = answer("tb fen r2k5/9/9/9/9/9/9/9/4K4/9 b");
        assert!(c.contains("\"wdl\":\"win\",\"dtm\":3"), "{c}");
        // Outside the tables: too many pieces, or a material not added.
        assert_eq!(
            answer("tb startpos"),
            "{\"ok\":true,\"material\":null,\"need\":[],\"probe\":null}"
        );
        let d = answer("tb fen 4k4/9/9/9/9/9/9/9/4A4/3K5 w");
        assert!(d.contains("\"need\":[\"KAvK\"],\"probe\":null"), "{d}");
        assert!(answer("tb fen xyz w").starts_with("{\"ok\":false"));
    }
}
