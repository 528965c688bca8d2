//! Real client software drives the engine: the PyPI `cchess` library's
//! `UcciEngine` and `UciEngine` play a short game (every move checked by
//! cchess's own rules).

mod common;

use std::process::Command;

#[test]
fn cchess_ucci_and_uci_drivers_play_a_game() {
    if !common::python_has("cchess") {
        return common::skip("python3 with cchess is not installed (pip install cchess)");
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/cchess_game.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_jiangjun"), "30"])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "cchess game failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("legal moves:"), "{stdout}");
    let n: usize = stdout
        .lines()
        .find_map(|l| l.split(" legal moves").next()?.parse().ok())
        .unwrap_or(0);
    assert!(n >= 10, "only {n} moves played:\n{stdout}");
}
