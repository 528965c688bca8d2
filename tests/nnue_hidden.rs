//! A network with hidden layers (file version 2), in a session against the
//! real binary: it loads and evaluates as the library does, it searches,
//! and a file whose hidden-layer header is corrupt, or of a version this
//! engine does not know, is refused with the reason while the network in
//! force stays.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, assert_legal_bestmove, scratch_file};
use jiangjun_engine::Position;
use jiangjun_engine::nnue::{Arch, FeatureSet, Network};
use std::sync::Arc;
use xiangqi::Board;

const FEN: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 3";

/// `setoption` and what it prints (up to `readyok`).
fn set(e: &mut EngineProcess, line: &str) -> Vec<String> {
    e.send(line);
    e.sync()
}

/// The side-to-move value of `eval`'s `final evaluation` line.
fn eval_of(e: &mut EngineProcess) -> i32 {
    e.send("eval");
    let lines = e.until_prefix("final evaluation");
    assert!(
        lines.iter().any(|l| l.starts_with("network evaluation")),
        "{lines:#?}"
    );
    let last = lines.last().unwrap();
    last.split_once(", ")
        .and_then(|(_, s)| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no side-to-move score in {last}"))
}

#[test]
fn a_net_with_hidden_layers_loads_and_a_corrupt_one_is_refused() {
    let arch = Arch::new(FeatureSet::PieceSquare, 1024, 8)
        .unwrap()
        .with_hidden(16, 32)
        .unwrap();
    let net = Network::random_arch(arch, 5);
    let bytes = net.to_bytes();
    let board = Board::from_fen(FEN).unwrap();
    let want = Position::with_network(board.clone(), Some(Arc::new(net))).evaluate();
    let valid = scratch_file("hidden-valid.nnue", &bytes);
    let mut bad_size = bytes.clone();
    bad_size[30] = 12;
    let bad_size = scratch_file("hidden-bad-size.nnue", &bad_size);
    let mut bad_version = bytes.clone();
    bad_version[8..10].copy_from_slice(&5u16.to_le_bytes());
    let bad_version = scratch_file("hidden-bad-version.nnue", &bad_version);
    // Version 4 is threat squares: its width byte cannot be these sizes.
    let mut as_side = bytes.clone();
    as_side[8..10].copy_from_slice(&4u16.to_le_bytes());
    let as_side = scratch_file("hidden-as-side.nnue", &as_side);

    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    e.send(&format!("position fen {FEN}"));
    let lines = set(
        &mut e,
        &format!("setoption name EvalFile value {}", valid.display()),
    );
    assert_eq!(
        lines,
        vec![format!(
            "info string NNUE evaluation using {} ({} bytes)",
            valid.display(),
            bytes.len()
        )]
    );
    assert_eq!(eval_of(&mut e), want);
    e.send("go depth 4");
    let answer = e.read_until(|l| l.starts_with("bestmove"));
    assert_legal_bestmove(answer.last().unwrap(), &board);

    for (path, reason) in [
        (&bad_size, "first hidden layer size 12 is not supported"),
        (&bad_version, "version 5 is not supported"),
        (&as_side, "threat-square width in a version 4 file"),
    ] {
        let lines = set(
            &mut e,
            &format!("setoption name EvalFile value {}", path.display()),
        );
        let errs: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errs.len(), 1, "{lines:#?}");
        assert!(
            errs[0].contains(reason)
                && errs[0].contains(&format!("keeping the network {}", valid.display())),
            "{lines:#?}"
        );
        assert_eq!(eval_of(&mut e), want);
    }
    e.send("quit");
}
