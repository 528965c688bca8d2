//! Training data: `jiangjun datagen` writes JJDATA files the trainer reads
//! (round trip, determinism, shards), and `jiangjun train` turns them into
//! a network the engine loads.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun;
use jiangjun::tools::datagen::{Adjudication, Config, End, Target, Written, generate};
use jiangjun_engine::SCORE_MATE_IN_MAX;
use jiangjun_engine::nnue::Network;
use jiangjun_trainer::data::{self, GameResult, RECORD_SIZE};
use std::path::{Path, PathBuf};
use xiangqi::Color;
use xiangqi::rules::Outcome;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("datagen-{name}"))
}

/// The searches evaluate with the configured network: a random one labels
/// the same game's first positions with other scores than the default.
#[test]
fn a_network_labels_the_positions() {
    let dir = scratch("network");
    let cfg = Config {
        max_plies: 20,
        ..small(8)
    };
    let with_net = Config {
        network: Some(std::sync::Arc::new(Network::random(6))),
        ..cfg.clone()
    };
    let read = |cfg: &Config, name: &str| {
        let path = dir.join(name);
        gen_games(cfg, Target::Games(1), 1, &path);
        data::read_records(&path).unwrap()
    };
    let (plain, net) = (read(&cfg, "plain"), read(&with_net, "net"));
    assert!(!plain.is_empty() && !net.is_empty());
    let scores = |r: &[data::Record]| r.iter().map(|r| r.score).collect::<Vec<_>>();
    assert_ne!(scores(&plain), scores(&net));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Short games at a small node budget, from the start position.
fn small(seed: u64) -> Config {
    Config {
        seed,
        nodes: 300,
        start_nodes: 200,
        max_plies: 90,
        hash_mb: 2,
        ..Config::default()
    }
}

/// Generate into `path`; the written games in order.
fn gen_games(cfg: &Config, target: Target, threads: usize, path: &Path) -> Vec<Written> {
    let mut games = Vec::new();
    let totals = generate(cfg, target, threads, path, |w, _| games.push(*w)).unwrap();
    assert_eq!(totals.games, games.len() as u64);
    assert_eq!(
        totals.positions,
        games.iter().map(|g| g.positions as u64).sum::<u64>()
    );
    games
}

#[test]
fn positions_read_back_legal_quiet_and_labelled_by_their_game() {
    let dir = scratch("roundtrip");
    let path = dir.join("d.jjdata");
    let games = gen_games(&small(5), Target::Games(4), 2, &path);
    assert_eq!(games.len(), 4);
    assert_eq!(
        games.iter().map(|g| g.index).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    assert_eq!(len % RECORD_SIZE, 0);
    let records = data::read_records(&path).unwrap();
    let reported: usize = games.iter().map(|g| g.positions).sum();
    assert!(reported > 0);
    assert_eq!(records.len(), reported);
    assert_eq!(len, RECORD_SIZE * (reported + 1), "one header");
    let mut at = 0;
    for g in &games {
        assert!(g.plies <= 90, "{g:?}");
        for r in &records[at..at + g.positions] {
            assert_eq!(r.result, g.result, "game {}", g.index);
            let board = r
                .to_board()
                .unwrap_or_else(|e| panic!("{}: {e}", r.to_fen()));
            assert_eq!(board.side_to_move(), r.side_to_move);
            assert!(!board.in_check(), "{}", r.to_fen());
            assert!((r.score as i32).abs() < SCORE_MATE_IN_MAX, "{}", r.score);
        }
        at += g.positions;
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_bytes_on_any_thread_count() {
    let dir = scratch("determinism");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    gen_games(&small(9), Target::Games(3), 1, &a);
    gen_games(&small(9), Target::Games(3), 2, &b);
    gen_games(&small(10), Target::Games(3), 2, &c);
    let (a, b, c) = (
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        std::fs::read(c).unwrap(),
    );
    assert!(a.len() > RECORD_SIZE);
    assert_eq!(a, b);
    assert_ne!(a, c);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_concatenate_and_appends_add_up() {
    let dir = scratch("shards");
    let (a, b) = (dir.join("a"), dir.join("b"));
    gen_games(&small(1), Target::Games(2), 2, &a);
    gen_games(&small(2), Target::Games(2), 2, &b);
    let (ra, rb) = (
        data::read_records(&a).unwrap(),
        data::read_records(&b).unwrap(),
    );
    // `cat a b > ab`: the second header sits in the middle.
    let cat = dir.join("ab");
    let mut bytes = std::fs::read(&a).unwrap();
    bytes.extend(std::fs::read(&b).unwrap());
    std::fs::write(&cat, bytes).unwrap();
    let both = data::read_records(&cat).unwrap();
    assert_eq!(both.len(), ra.len() + rb.len());
    assert_eq!(both[..ra.len()], ra[..]);
    assert_eq!(both[ra.len()..], rb[..]);
    // Appending a second run to `a` writes no second header.
    gen_games(&small(2), Target::Games(2), 1, &a);
    assert_eq!(data::read_records(&a).unwrap(), both);
    assert_eq!(
        std::fs::metadata(&a).unwrap().len() as usize,
        RECORD_SIZE * (both.len() + 1)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_position_target_stops_after_the_game_that_reaches_it() {
    let dir = scratch("target");
    let path = dir.join("d");
    let games = gen_games(&small(3), Target::Positions(40), 2, &path);
    let total: usize = games.iter().map(|g| g.positions).sum();
    assert!(total >= 40);
    assert!(total - games.last().unwrap().positions < 40);
    assert_eq!(data::read_records(&path).unwrap().len(), total);
    // The games are the first ones of the seed's sequence.
    let again = gen_games(
        &small(3),
        Target::Games(games.len() as u64),
        1,
        &dir.join("e"),
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(dir.join("e")).unwrap()
    );
    assert_eq!(again.len(), games.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_end_by_the_rules_or_adjudication() {
    // Long enough games that some end by mate or adjudication.
    let dir = scratch("results");
    let cfg = Config {
        max_plies: 300,
        ..small(4)
    };
    let games = gen_games(&cfg, Target::Games(4), 2, &dir.join("d"));
    for g in &games {
        match g.end {
            End::PlyCap => {
                assert_eq!(g.plies, 300);
                assert_eq!(g.result, GameResult::Draw);
            }
            End::Rules(Outcome::Win(Color::Red, _)) => assert_eq!(g.result, GameResult::RedWins),
            End::Rules(Outcome::Win(Color::Black, _)) => {
                assert_eq!(g.result, GameResult::BlackWins)
            }
            End::Rules(Outcome::Draw(_)) => assert_eq!(g.result, GameResult::Draw),
            End::Rules(Outcome::Ongoing) => panic!("{g:?}"),
            End::Adjudicated => assert!(g.plies < 300),
            End::Tablebase => panic!("no tables were given: {g:?}"),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fixed_node_search_on_one_thread_repeats_after_new_game() {
    let fens = [
        xiangqi::START_FEN,
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
        "3k5/4a4/9/9/9/9/2R6/9/4A4/4K4 w - - 0 1",
    ];
    let limits = || {
        jiangjun_engine::Limits::of(jiangjun_engine::GoRequest {
            nodes: Some(3000),
            ..Default::default()
        })
    };
    let mut engine = jiangjun_engine::Engine::new(2, 1);
    let mut first = Vec::new();
    for fen in fens {
        let board = xiangqi::Board::from_fen(fen).unwrap();
        let r = engine.search(&board, limits());
        first.push((r.best, r.score, r.nodes, r.pv));
    }
    for mut e in [engine, jiangjun_engine::Engine::new(2, 1)] {
        e.new_game();
        for (fen, want) in fens.iter().zip(&first) {
            let board = xiangqi::Board::from_fen(fen).unwrap();
            let r = e.search(&board, limits());
            assert_eq!(&(r.best, r.score, r.nodes, r.pv), want, "{fen}");
        }
    }
}

#[test]
fn train_is_a_subcommand_with_the_trainers_flags() {
    let (ok, out, _) = run_jiangjun(&["train", "--help"]);
    assert!(ok);
    assert!(out.contains("Usage: jiangjun train"), "{out}");
    for flag in [
        "--data",
        "--out",
        "--epochs",
        "--lambda",
        "--batch-size",
        "--resume",
    ] {
        assert!(out.contains(flag), "{flag}: {out}");
    }
    let (ok, _, err) = run_jiangjun(&["train", "--out", "x.nnue"]);
    assert!(!ok);
    assert!(err.contains("--data"), "{err}");
}

#[test]
fn datagen_then_train_gives_a_network_the_engine_loads() {
    let dir = scratch("cli");
    let data = dir.join("d.jjdata");
    let net = dir.join("net.nnue");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let (ok, _, err) = run_jiangjun(&[
        "datagen",
        "--out",
        d,
        "--games",
        "3",
        "--nodes",
        "300",
        "--start-nodes",
        "200",
        "--max-plies",
        "90",
        "--threads",
        "2",
        "--hash",
        "2",
        "--seed",
        "12",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("seed 12"), "{err}");
    let positions = data::read_records(&data).unwrap().len();
    assert!(
        err.contains(&format!("wrote {positions} positions from 3 games")),
        "{err}"
    );
    assert!(positions >= 2, "{positions}");
    let (ok, _, err) = run_jiangjun(&[
        "train",
        "--data",
        d,
        "--out",
        n,
        "--epochs",
        "1",
        "--threads",
        "1",
        "--batch-size",
        "64",
        "--quiet",
    ]);
    assert!(ok, "{err}");
    Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    // The next round's data comes from the network's own self-play.
    let data2 = dir.join("d2.jjdata");
    let d2 = data2.to_str().unwrap();
    let with_net = |out: &str, evalfile: &str| {
        run_jiangjun(&[
            "datagen",
            "--out",
            out,
            "--games",
            "1",
            "--nodes",
            "300",
            "--start-nodes",
            "200",
            "--max-plies",
            "60",
            "--threads",
            "1",
            "--hash",
            "2",
            "--seed",
            "12",
            "--evalfile",
            evalfile,
        ])
    };
    let (ok, _, err) = with_net(d2, n);
    assert!(ok, "{err}");
    assert!(err.contains(&format!("network {n}")), "{err}");
    assert!(!data::read_records(&data2).unwrap().is_empty());
    let missing = dir.join("missing.nnue");
    let (ok, _, err) = with_net(d2, missing.to_str().unwrap());
    assert!(!ok);
    assert!(err.contains("missing.nnue"), "{err}");
    // Bad options are usage errors.
    let (ok, _, err) = run_jiangjun(&["datagen", "--out", d]);
    assert!(!ok);
    assert!(
        err.contains("--games") || err.contains("--positions"),
        "{err}"
    );
    let (ok, _, err) = run_jiangjun(&[
        "datagen",
        "--out",
        d,
        "--games",
        "1",
        "--openings",
        dir.join("missing.epd").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("missing.epd"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The recipe for many machines (`docs/nnue.md`): `scripts/datagen_shards.sh` runs
/// one `jiangjun datagen --seed N` per shard under GNU parallel and
/// concatenates them. Run here with two shards: each shard equals a direct
/// run of its seed, and the concatenation is the two files, byte for byte
/// and record for record.
#[test]
fn shard_recipe_runs_under_gnu_parallel() {
    if !common::runs("parallel", &["--version"]) {
        return common::skip("GNU parallel is not installed (apt-get install parallel)");
    }
    let dir = scratch("shard-recipe");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        format!("{}\n", xiangqi::Board::startpos().to_fen()),
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_jiangjun");
    let options = [
        "--games",
        "1",
        "--nodes",
        "300",
        "--start-nodes",
        "200",
        "--max-plies",
        "60",
        "--hash",
        "2",
        "--threads",
        "1",
        "--openings",
        openings.to_str().unwrap(),
    ];
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/datagen_shards.sh");
    let out = dir.join("out");
    let status = std::process::Command::new(&script)
        .args(["21", "22", out.to_str().unwrap()])
        .args(options)
        .env("JIANGJUN", bin)
        .env("JOBS", "2")
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let mut both = Vec::new();
    let mut records = Vec::new();
    for seed in ["21", "22"] {
        let direct = dir.join(format!("direct-{seed}.jjdata"));
        let (ok, _, err) = run_jiangjun(
            &[
                &[
                    "datagen",
                    "--out",
                    direct.to_str().unwrap(),
                    "--seed",
                    seed,
                    "--quiet",
                ][..],
                &options[..],
            ]
            .concat(),
        );
        assert!(ok, "{err}");
        let shard = std::fs::read(out.join(format!("shard-{seed}.jjdata"))).unwrap();
        assert_eq!(shard, std::fs::read(&direct).unwrap(), "seed {seed}");
        assert!(shard.len() > 2 * RECORD_SIZE, "seed {seed}: no records");
        both.extend_from_slice(&shard);
        records.extend(data::read_records(&direct).unwrap());
    }
    let all = out.join("all.jjdata");
    assert_eq!(std::fs::read(&all).unwrap(), both);
    assert_eq!(data::read_records(&all).unwrap(), records);
    let joblog = std::fs::read_to_string(out.join("shards.joblog")).unwrap();
    assert!(
        joblog.contains("--seed 21") && joblog.contains("--seed 22"),
        "{joblog}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// FNV-1a (64 bits) of `bytes`: a checksum for the pins below.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Length and checksum of three games of `small(9)` with the built-in
/// network (net 9), on one thread or two.
const NETWORK_PIN: (usize, u64) = (6144, 0x07b7_df76_34e2_a519);

/// The bytes of short runs, pinned (length and checksum, on one and two
/// threads). The shards already made are reproduced from their recorded
/// commands only while a seed and settings give the same file, so a
/// change here must be one that means to change the data (the search, the
/// network, the rules of a game); a speed-up must not. The values are
/// those of net 9 (the network and longer rows; the hand-made one is
/// 18686fe's), and the equivalent commands are
/// `jiangjun datagen --seed S --games G --nodes N --start-nodes M
/// --max-plies P --hash H [--evalfile none]` from the start position.
#[test]
fn datagen_output_is_pinned() {
    let dir = scratch("pinned");
    let hce = Config {
        network: None,
        ..small(9)
    };
    let longer = Config {
        seed: 31,
        nodes: 2000,
        start_nodes: 500,
        max_plies: 200,
        hash_mb: 4,
        ..Config::default()
    };
    let pins: [(&str, Config, u64, usize, u64); 3] = [
        ("network", small(9), 3, NETWORK_PIN.0, NETWORK_PIN.1),
        ("hce", hce, 3, 6144, 0x7c01_22b0_e146_ade8),
        ("longer", longer, 4, 23808, 0x57df_56a5_6a16_9545),
    ];
    for (name, cfg, games, len, sum) in pins {
        for threads in [1, 2] {
            let path = dir.join(format!("{name}-{threads}"));
            gen_games(&cfg, Target::Games(games), threads, &path);
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(
                (bytes.len(), fnv1a(&bytes)),
                (len, sum),
                "{name} on {threads} threads: the output changed"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Looser win adjudication only cuts games short: every game is the
/// default game's first plies, its positions and scores the same.
#[test]
fn looser_win_adjudication_ends_the_same_games_sooner() {
    let dir = scratch("adjudication");
    let strict = Config {
        max_plies: 300,
        ..small(4)
    };
    let loose = Config {
        adjudication: Adjudication {
            win_score: 300,
            ..Adjudication::default()
        },
        ..strict.clone()
    };
    let (a, b) = (dir.join("strict"), dir.join("loose"));
    let (ga, gb) = (
        gen_games(&strict, Target::Games(3), 2, &a),
        gen_games(&loose, Target::Games(3), 2, &b),
    );
    let (ra, rb) = (
        data::read_records(&a).unwrap(),
        data::read_records(&b).unwrap(),
    );
    let (mut at, mut bt) = (0, 0);
    for (x, y) in ga.iter().zip(&gb) {
        assert!(y.plies <= x.plies, "{x:?} {y:?}");
        assert!(y.positions <= x.positions, "{x:?} {y:?}");
        for (p, q) in ra[at..at + y.positions]
            .iter()
            .zip(&rb[bt..bt + y.positions])
        {
            assert_eq!((p.to_fen(), p.score), (q.to_fen(), q.score));
        }
        at += x.positions;
        bt += y.positions;
    }
    assert!(rb.len() < ra.len(), "no game was cut short");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The adjudication flags default to the constants: spelling the defaults
/// out gives the pinned bytes. Run where no default openings file is found
/// (`../shared` of the working directory), so that games start from the
/// start position as the library's do.
#[test]
fn adjudication_flags_default_to_the_constants() {
    let dir = scratch("adjudication-cli");
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = dir.join("d.jjdata");
    let datagen = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .current_dir(&cwd)
            .args(["datagen", "--out", out.to_str().unwrap(), "--quiet"])
            .args(extra)
            .output()
            .unwrap()
    };
    let run = datagen(&[
        "--games",
        "3",
        "--seed",
        "9",
        "--nodes",
        "300",
        "--start-nodes",
        "200",
        "--max-plies",
        "90",
        "--hash",
        "2",
        "--threads",
        "1",
        "--win-plies",
        "4",
        "--win-score",
        "1500",
        "--draw-after",
        "80",
        "--draw-plies",
        "20",
        "--draw-score",
        "10",
    ]);
    assert!(run.status.success(), "{run:?}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!((bytes.len(), fnv1a(&bytes)), NETWORK_PIN);
    let run = datagen(&["--games", "1", "--win-plies", "0"]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("--win-plies"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The node budget a move defaults to 2500
/// (`notes/2026-11-26-cheaper-self-play.md`: a net trained on 2500-node self-play beat one trained on the
/// same CPU time of 5000-node self-play), in the flag and in
/// `Config::default()` alike.
#[test]
fn the_node_budget_defaults_to_2500() {
    assert_eq!(Config::default().nodes, 2500);
    let dir = scratch("nodes-default");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .args(["datagen", "--out", out.to_str().unwrap(), "--quiet"])
            .args(["--games", "1", "--seed", "5", "--max-plies", "24"])
            .args(["--start-nodes", "200", "--hash", "2", "--threads", "1"])
            .args(extra)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read(&out).unwrap()
    };
    let default = run("default.jjdata", &[]);
    assert!(default.len() > 48, "no positions written");
    assert_eq!(default, run("n2500.jjdata", &["--nodes", "2500"]));
    assert_ne!(default, run("n5000.jjdata", &["--nodes", "5000"]));
    std::fs::remove_dir_all(&dir).unwrap();
}
