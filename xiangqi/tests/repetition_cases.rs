//! The repetition rulings against the reference cases in
//! `../shared/data/repetition/`: 33 from Fairy-Stockfish's tests (AXF rules)
//! and 173 from orange-xiangqi (WXF rules). Where the sources agree the
//! engine must agree on at least 98% of the cases; every miss is printed.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use xiangqi::board::Board;
use xiangqi::rules::{Outcome, judge};
use xiangqi::types::Color;

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    /// red, black, draw, or ongoing.
    expected: String,
    /// The other source's ruling, in the same terms; None if unknown.
    other: Option<String>,
}

fn verdict(o: Outcome) -> &'static str {
    match o {
        Outcome::Ongoing => "ongoing",
        Outcome::Draw(_) => "draw",
        Outcome::Win(Color::Red, _) => "red",
        Outcome::Win(Color::Black, _) => "black",
    }
}

/// `stm_wins`-style result (from the side to move after the moves) to a winner.
fn winner(result: &str, stm_after: &str) -> Option<String> {
    let stm = stm_after.to_string();
    let other = if stm == "red" { "black" } else { "red" }.to_string();
    match result {
        r if r.starts_with("stm_wins") => Some(stm),
        r if r.starts_with("stm_loses") => Some(other),
        r if r.starts_with("draw") => Some("draw".into()),
        "no_end" | "no cycle found" => Some("ongoing".into()),
        _ => None,
    }
}

fn load(rel: &str, fen_col: Option<usize>) -> Option<Vec<Case>> {
    let text = common::shared_file(rel)?;
    let mut header: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "id" {
            header = f.iter().map(|s| s.to_string()).collect();
            continue;
        }
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .map(|i| f.get(i).copied().unwrap_or(""))
        };
        let stm_after = col("side_to_move_after").unwrap_or("");
        let expected = match col("winner").unwrap_or("") {
            "red" | "black" | "draw" => col("winner").unwrap().to_string(),
            "-" => "ongoing".into(),
            _ => "?".into(),
        };
        let other = if let Some(ext) = col("pyffish_extended") {
            winner(ext.split('(').next().unwrap_or(ext).trim(), stm_after)
        } else {
            col("pyffish_0.0.90").and_then(|p| winner(p, stm_after))
        };
        let fen_idx = fen_col.unwrap_or_else(|| header.iter().position(|h| h == "fen").unwrap());
        out.push(Case {
            id: f[0].to_string(),
            fen: f[fen_idx].to_string(),
            moves: col("moves")
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect(),
            expected,
            other,
        });
    }
    Some(out)
}

fn rule(case: &Case) -> &'static str {
    let mut b = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
    for m in &case.moves {
        let mv = b
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        b.make_move(mv);
    }
    // The rulings are made at the first recurrence of the position.
    verdict(judge(&b, 2))
}

#[test]
fn reference_repetition_cases() {
    let Some(mut cases) = load("data/repetition/fsf_repetition_cases.tsv", None) else {
        return;
    };
    let Some(orange) = load("data/repetition/orange_xiangqi_repetition_cases.tsv", None) else {
        return;
    };
    cases.extend(orange);
    assert_eq!(cases.len(), 33 + 173);
    let mut agreed = 0;
    let mut hits = 0;
    let mut misses = Vec::new();
    let mut disputed = Vec::new();
    for c in &cases {
        let got = rule(c);
        let sources_agree = c.expected != "?" && c.other.as_deref() == Some(c.expected.as_str());
        if sources_agree {
            agreed += 1;
            if got == c.expected {
                hits += 1;
            } else {
                misses.push(format!("{}: expected {}, ruled {got}", c.id, c.expected));
            }
        } else {
            disputed.push(format!(
                "{}: source {} / other {:?} / ruled {got}",
                c.id, c.expected, c.other
            ));
        }
    }
    eprintln!("{hits} of {agreed} agreed cases ruled as the sources rule");
    for m in &misses {
        eprintln!("  miss {m}");
    }
    for d in &disputed {
        eprintln!("  disputed {d}");
    }
    assert!(agreed >= 195, "only {agreed} cases where the sources agree");
    assert!(hits * 100 >= agreed * 98, "{hits}/{agreed} is below 98%");
}
