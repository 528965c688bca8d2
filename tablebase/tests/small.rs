//! Builds small tables in a temporary directory and checks them: the
//! verifier passes, probes agree with the rules crate, known results hold.

use jiangjun_tablebase::build::build;
use jiangjun_tablebase::verify::{load_all, verify};
use jiangjun_tablebase::{Material, Tablebases, Wdl};
use std::path::PathBuf;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jjtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn krvk_builds_verifies_and_probes() {
    let dir = tmpdir("krvk");
    let m: Material = "KRvK".parse().unwrap();
    let built = build(&dir, &[m], |b| eprintln!("{b:?}")).unwrap();
    assert!(built.iter().any(|b| b.material == m));
    let set = load_all(&dir).unwrap();
    for mat in m.closure() {
        let r = verify(&set, &mat);
        assert_eq!(r.errors, 0, "{mat}: {:?}", r.messages);
        assert!(r.positions > 0);
    }
    let tb = Tablebases::open(&dir).unwrap();
    let board = xiangqi::Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w").unwrap();
    let p = tb.probe(&board).unwrap().unwrap();
    assert_eq!(p.wdl, Wdl::Win);
    // Every move the root may keep wins as fast as promised; the others do
    // not.
    let (p, keep) = tb.best_moves(&board).unwrap().unwrap();
    assert!(!keep.is_empty());
    let mut b = board.clone();
    for mv in board.legal_moves() {
        b.make_move(mv);
        let after = tb.probe(&b).unwrap().unwrap();
        b.unmake_move();
        let keeps = after.wdl == Wdl::Loss && after.dtm.map(|d| d + 1) == p.dtm;
        assert_eq!(keep.contains(&mv), keeps, "{mv}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
