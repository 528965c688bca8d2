//! Builds small tables in a temporary directory and checks them: the
//! verifier passes, probes agree with the rules crate, known results hold.

use jiangjun_tablebase::build::build;
use jiangjun_tablebase::verify::{load_all, load_for, verify};
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

/// Verifying chosen tables loads them and their captures' tables, no more;
/// a chosen table that is not in the folder is refused.
#[test]
fn verify_loads_only_what_the_chosen_tables_need() {
    let dir = tmpdir("loadfor");
    let kr: Material = "KRvK".parse().unwrap();
    let kn: Material = "KNvK".parse().unwrap();
    let kvk: Material = "KvK".parse().unwrap();
    build(&dir, &[kr, kn], |_| {}).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let set = load_for(&tb, &[kr]).unwrap();
    assert!(set.get(&kr).is_some());
    assert!(set.get(&kvk).is_some(), "KRvK's capture table");
    assert!(set.get(&kn).is_none(), "KNvK is not needed for KRvK");
    let r = verify(&set, &kr);
    assert_eq!(r.errors, 0, "{:?}", r.messages);
    assert!(r.positions > 0);
    let kc: Material = "KCvK".parse().unwrap();
    let err = load_for(&tb, &[kc]).err().unwrap();
    assert!(err.contains("KCvK is not in"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
