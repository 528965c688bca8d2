//! `--init` and `--grow-from`: training that starts from an engine
//! network's weights.

use super::*;
use clap::Parser;
use jiangjun_engine::nnue::side::{SIDE_INPUTS, SideWeights};
use jiangjun_engine::nnue::{Accumulator, Arch, FeatureSet, Network, evaluate};
use xiangqi::Board;

/// The dequantised start rounds back to the very network it came from, for
/// every kind of architecture: training from it starts where the engine is.
#[test]
fn the_start_rounds_back_to_the_network_it_came_from() {
    let archs = [
        Arch::NET2,
        Arch::new(FeatureSet::PieceSquare, 1024, 8).unwrap(),
        Arch::new(FeatureSet::KingBucket6, 128, 4).unwrap(),
        Arch::new(FeatureSet::PieceSquareThreats, 64, 2).unwrap(),
        Arch::new(FeatureSet::PieceSquare, 256, 8)
            .unwrap()
            .with_hidden(16, 32)
            .unwrap(),
        Arch::new(FeatureSet::PieceSquare, 256, 8)
            .unwrap()
            .with_hidden(16, 32)
            .and_then(|a| a.with_skip())
            .unwrap(),
        Arch::new(FeatureSet::PieceSquare, 128, 8)
            .and_then(|a| a.with_side(16))
            .unwrap(),
    ];
    for (seed, arch) in archs.into_iter().enumerate() {
        let net = Network::random_arch(arch, 40 + seed as u64);
        let state = TrainState::from_network(&net);
        assert_eq!((state.step, state.epoch), (0, 0));
        assert_eq!(state.net.arch, arch);
        assert!(
            state.net.quantise().to_bytes() == net.to_bytes(),
            "{arch}: the start does not round back to the network"
        );
    }
}

/// A run from a trained net's weights starts where that net is: after one
/// epoch its validation loss is below that of one epoch from random
/// weights, and below the loss the trained net ended with.
#[test]
fn the_command_goes_on_from_a_network() {
    let dir = std::env::temp_dir().join(format!("jj-train-init-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.jjdata");
    synth::write_file(&data, 4_000, 23).unwrap();
    let args = |out: &str, epochs: &str| {
        Args::try_parse_from([
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
            "--epochs",
            epochs,
            "--threads",
            "2",
            "--batch-size",
            "200",
            "--lr",
            "0.004",
            "--k",
            "400",
            "--hidden",
            "64",
            "--val-fraction",
            "0.2",
            "--seed",
            "7",
            "--quiet",
        ])
        .unwrap()
    };
    let val_loss = |s: &RunSummary| s.epochs.last().unwrap().val_loss.unwrap();
    let base = run(&args("base.nnue", "4")).unwrap();
    let fresh = run(&args("fresh.nnue", "1")).unwrap();
    let mut more = args("more.nnue", "1");
    more.init = Some(dir.join("base.nnue"));
    let from_base = run(&more).unwrap();
    assert_eq!(from_base.epochs.len(), 1);
    assert_eq!(
        checkpoint::load(&dir.join("more.nnue.ckpt")).unwrap().epoch,
        1
    );
    let (b, f, m) = (val_loss(&base), val_loss(&fresh), val_loss(&from_base));
    eprintln!(
        "val loss: base after 4 epochs {b:.5}, 1 epoch from random {f:.5}, 1 from base {m:.5}"
    );
    assert!(m < f, "from base {m}, from random {f}");
    assert!(m < b, "from base {m}, base after 4 epochs {b}");

    // With validation files, the start's loss is reported: that of the
    // dequantised network, and one epoch lowers it here.
    let val = dir.join("v.jjdata");
    synth::write_file(&val, 800, 29).unwrap();
    let mut checked = more.clone();
    checked.val_data = vec![val.clone()];
    let summary = run(&checked).unwrap();
    let base_net = model::FloatNet::from_network(&Network::load(dir.join("base.nnue")).unwrap());
    let expected = train::mean_loss(&base_net, &data::load_chunks(&val).unwrap(), 1.0, 400.0);
    let start = summary.start_val_loss.unwrap();
    assert!(
        (start - expected).abs() <= 1e-9 * expected,
        "{start} against {expected}"
    );
    assert!(
        val_loss(&summary) < start,
        "{} after, {start} before",
        val_loss(&summary)
    );
    // The written file's loss is the one a run started from that file
    // reports for its start: the net as the engine plays it.
    let written = summary.written_val_loss.unwrap();
    let mut again = checked.clone();
    again.init = Some(checked.out.clone());
    again.out = dir.join("again.nnue");
    assert_eq!(Some(written), run(&again).unwrap().start_val_loss);
    assert_eq!(run(&args("plain.nnue", "1")).unwrap().start_val_loss, None);

    // A network of another architecture than the flags ask for is refused,
    // and so is a start from both a network and a checkpoint.
    let mut wrong = more.clone();
    wrong.hidden = 128;
    let e = run(&wrong).unwrap_err().to_string();
    assert!(e.contains("asked for"), "{e}");
    let both = Args::try_parse_from([
        "train", "--data", "d", "--out", "o", "--init", "a.nnue", "--resume", "a.ckpt",
    ]);
    assert!(both.is_err());
    // A file that is not a network is an error naming why.
    let mut junk = more.clone();
    junk.init = Some(data.clone());
    assert!(run(&junk).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh scratch folder `name`, `old` saved in it as `old.nnue`, and the
/// arguments that grow it with `--epochs 0` into `grown.nnue` there, with
/// the further arguments `more`: (folder, old net's path, arguments).
fn untrained_growth(name: &str, old: &Network, more: &[&str]) -> (PathBuf, PathBuf, Args) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let old_path = dir.join("old.nnue");
    old.save(&old_path).unwrap();
    let out = dir.join("grown.nnue");
    let mut args = vec!["train", "--grow-from", old_path.to_str().unwrap()];
    args.extend(more);
    args.extend(["--epochs", "0", "--out", out.to_str().unwrap(), "--quiet"]);
    let parsed = Args::try_parse_from(args).unwrap();
    (dir, old_path, parsed)
}

/// `args` training `epochs` epochs on 3,000 synthetic positions of seed
/// `seed`, validated on 600 of seed `seed + 6`, written into `dir`.
fn on_synthetic_data(args: &Args, dir: &std::path::Path, epochs: usize, seed: u64) -> Args {
    let data = dir.join("d.jjdata");
    synth::write_file(&data, 3_000, seed).unwrap();
    let val = dir.join("v.jjdata");
    synth::write_file(&val, 600, seed + 6).unwrap();
    let mut trained = args.clone();
    trained.epochs = epochs;
    trained.data = vec![data];
    trained.val_data = vec![val];
    trained.threads = Some(2);
    trained.batch_size = 200;
    trained
}

/// `--grow-from`: with `--epochs 0` the grown network is written as
/// `nnue::grow` makes it, without data; with data, training starts from
/// it exactly where the old net stands (the same validation loss as a
/// start from the old net itself) and goes down from there.
#[test]
fn growing_starts_where_the_old_network_is() {
    let old = Network::random_arch(Arch::new(FeatureSet::PieceSquare, 64, 2).unwrap(), 5);
    let (dir, old_path, untrained) =
        untrained_growth("jj-train-grow", &old, &["--features", "kingbucket9"]);
    let out = untrained.out.clone();
    let summary = run(&untrained).unwrap();
    assert!(summary.epochs.is_empty());
    let to = Arch::new(FeatureSet::KingBucket9, 64, 2).unwrap();
    let grown = jiangjun_engine::nnue::grow(&old, to).unwrap();
    assert_eq!(Network::load(&out).unwrap(), grown);
    // Data is needed to train, and the shape is the old net's.
    let mut no_data = untrained.clone();
    no_data.epochs = 1;
    assert!(run(&no_data).unwrap_err().to_string().contains("--data"));
    let shaped = Args::try_parse_from([
        "train",
        "--grow-from",
        "a.nnue",
        "--out",
        "o",
        "--hidden",
        "128",
    ]);
    assert!(shaped.is_err());

    let trained = on_synthetic_data(&untrained, &dir, 1, 31);
    let from_grown = run(&trained).unwrap();
    assert_eq!(Network::load(&out).unwrap().arch(), to);
    let mut init = trained.clone();
    init.grow_from = None;
    init.init = Some(old_path.clone());
    init.features = FeatureSet::PieceSquare;
    init.hidden = 64;
    init.output_buckets = 2;
    init.out = dir.join("init.nnue");
    let from_old = run(&init).unwrap();
    let (g, o) = (
        from_grown.start_val_loss.unwrap(),
        from_old.start_val_loss.unwrap(),
    );
    assert_eq!(g, o, "grown start {g}, old start {o}");
    let after = from_grown.epochs.last().unwrap().val_loss.unwrap();
    assert!(after < g, "{after} after one epoch, {g} before");

    // Tied, each d-file row and its f-file twin learn alike: the difference
    // the growth gave them stays; untied, it moves.
    let start = TrainState::from_network(&grown).net;
    let drift = |state: &TrainState| {
        let (set, l1, w0, w) = (to.features, 64, &start.l1_w, &state.net.l1_w);
        let mut most = 0.0f32;
        for f in 0..set.piece_inputs() {
            if let Some(t) = set.mirror_twin(f) {
                for j in 0..l1 {
                    let before = w0[f * l1 + j] - w0[t * l1 + j];
                    let after = w[f * l1 + j] - w[t * l1 + j];
                    most = most.max((after - before).abs());
                }
            }
        }
        most
    };
    let ckpt = |a: &Args| {
        let mut p = a.out.clone().into_os_string();
        p.push(".ckpt");
        checkpoint::load(std::path::Path::new(&p)).unwrap()
    };
    let untied = drift(&ckpt(&trained));
    let mut tied = trained.clone();
    tied.tie_mirrored = true;
    tied.out = dir.join("tied.nnue");
    run(&tied).unwrap();
    let tied = drift(&ckpt(&tied));
    eprintln!("twin rows' drift: tied {tied}, untied {untied}");
    assert!(tied < 1e-5 && untied > 1e-3, "tied {tied}, untied {untied}");
    let mut no_twins = init.clone();
    no_twins.tie_mirrored = true;
    assert!(
        run(&no_twins)
            .unwrap_err()
            .to_string()
            .contains("kingbucket9")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `grown` (and its float model `float`, up to the engine's rounding)
/// evaluates every position of 40 seeded random games exactly as `old`,
/// positions of many different values among them.
fn evaluates_as_before(old: &Network, grown: &Network, float: &FloatNet) {
    let mut positions = 0;
    let mut values = std::collections::HashSet::new();
    for game in 0..40u64 {
        let mut rng = xiangqi::rng::SplitMix64::new(game ^ 0x5eed);
        let mut board = Board::startpos();
        for _ in 0..150 {
            let stm = board.side_to_move();
            let [a, b] =
                [old, grown].map(|net| evaluate(net, &Accumulator::from_board(net, &board), stm));
            assert_eq!(a, b, "{}: {}", old.arch(), board.to_fen());
            let f = float.evaluate_board(&board);
            assert!((f - a as f32).abs() < 1.5, "float {f}, engine {a}");
            values.insert(a);
            positions += 1;
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(
        positions > 5_000 && values.len() > 500,
        "{positions} positions, {} values",
        values.len()
    );
}

/// Hidden layers grown beside a net's output layer (`--grow-from` with
/// `--hidden-layers`): the quantised grown net evaluates every position of
/// 40 seeded random games exactly as the old one, for the built-in net
/// and a random net with several buckets; so does its float model, up to
/// the engine's rounding. Trained, the hidden layers then move.
#[test]
fn hidden_layers_grown_beside_the_output_layer_are_exact() {
    let mut nets = vec![Network::random_arch(
        Arch::new(FeatureSet::KingBucket9, 128, 4).unwrap(),
        8,
    )];
    let builtin = jiangjun_engine::nnue::default_network().expect("a network is built in");
    nets.push((*builtin).clone());
    for old in nets {
        let float = FloatNet::from_network(&old)
            .grow_stack(16, 32, &mut crate::rng::Rng::new(3))
            .unwrap();
        let grown = float.quantise();
        assert_eq!(
            grown.arch(),
            old.arch().with_hidden(16, 32).unwrap().with_skip().unwrap()
        );
        assert_eq!(Network::from_bytes(&grown.to_bytes()).unwrap(), grown);
        assert!(
            float.h1_w.iter().any(|&w| w != 0.0),
            "hidden layers left empty"
        );
        evaluates_as_before(&old, &grown, &float);
    }
    // A net with hidden layers already is refused.
    let layered = Arch::new(FeatureSet::PieceSquare, 64, 1)
        .unwrap()
        .with_hidden(8, 8)
        .unwrap();
    let f = FloatNet::from_network(&Network::random_arch(layered, 1));
    assert!(f.grow_stack(8, 8, &mut crate::rng::Rng::new(1)).is_err());
}

/// The command: `--grow-from NET --hidden-layers H1,H2 --epochs 0` writes
/// the grown net (version 3, the old net's evaluations); with data,
/// training starts at the old net's validation loss and goes below it.
#[test]
fn the_command_grows_hidden_layers_and_trains_them() {
    let old = Network::random_arch(Arch::new(FeatureSet::PieceSquare, 128, 2).unwrap(), 11);
    let (dir, old_path, untrained) =
        untrained_growth("jj-train-stack", &old, &["--hidden-layers", "8,16"]);
    let out = untrained.out.clone();
    run(&untrained).unwrap();
    let grown = Network::load(&out).unwrap();
    assert!(grown.arch().skip && grown.arch().hidden == [8, 16]);
    let board = Board::startpos();
    for net in [&old, &grown] {
        assert_eq!(
            evaluate(
                net,
                &Accumulator::from_board(net, &board),
                board.side_to_move()
            ),
            evaluate(
                &old,
                &Accumulator::from_board(&old, &board),
                board.side_to_move()
            )
        );
    }
    let trained = on_synthetic_data(&untrained, &dir, 2, 41);
    let summary = run(&trained).unwrap();
    let start = summary.start_val_loss.unwrap();
    let mut init = trained.clone();
    init.grow_from = None;
    init.hidden_layers = None;
    init.init = Some(old_path);
    init.hidden = 128;
    init.output_buckets = 2;
    init.epochs = 1;
    init.out = dir.join("init.nnue");
    assert_eq!(Some(start), run(&init).unwrap().start_val_loss);
    let after = summary.epochs.last().unwrap().val_loss.unwrap();
    assert!(after < start, "{after} after two epochs, {start} before");
    let trained_net = Network::load(&out).unwrap();
    let stack_out = |net: &Network| -> i64 {
        (0..2)
            .flat_map(|b| net.output_weights(b).iter().map(|&w| (w as i64).abs()))
            .sum()
    };
    assert!(stack_out(&trained_net) > 0);
    // A larger rate for the hidden layers moves them further; zero is refused.
    let mut faster = trained.clone();
    faster.hidden_lr_scale = 10.0;
    faster.out = dir.join("faster.nnue");
    run(&faster).unwrap();
    let (slow, fast) = (
        stack_out(&trained_net),
        stack_out(&Network::load(&faster.out).unwrap()),
    );
    assert!(
        fast > 2 * slow,
        "output weights' sum {fast} at 10 times the rate, {slow} at 1"
    );
    faster.hidden_lr_scale = 0.0;
    assert!(
        run(&faster)
            .unwrap_err()
            .to_string()
            .contains("learning rates")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Threat squares grown beside a net's first layer (`--grow-from` with
/// `--threat-squares`): the quantised grown net evaluates every position of
/// 40 seeded random games exactly as the old one, for the built-in net and
/// a random king-bucket net; so does its float model, up to the engine's
/// rounding. Its side rows start random, its side output at zero.
#[test]
fn threat_squares_grown_beside_the_first_layer_are_exact() {
    let mut nets = vec![Network::random_arch(
        Arch::new(FeatureSet::KingBucket9, 128, 4).unwrap(),
        8,
    )];
    let builtin = jiangjun_engine::nnue::default_network().expect("a network is built in");
    nets.push((*builtin).clone());
    for old in nets {
        let float = FloatNet::from_network(&old)
            .grow_side(16, SideStart::Random, &mut crate::rng::Rng::new(3))
            .unwrap();
        let grown = float.quantise();
        assert_eq!(grown.arch(), old.arch().with_side(16).unwrap());
        assert_eq!(Network::from_bytes(&grown.to_bytes()).unwrap(), grown);
        assert!(float.side_w.iter().filter(|&&w| w != 0.0).count() > 1_000_000);
        assert!(float.side_out.iter().all(|&w| w == 0.0));
        evaluates_as_before(&old, &grown, &float);
        // The quiet start: rows at zero, output weights in opposite pairs,
        // none of them zero, and again the old net's evaluation.
        let float = FloatNet::from_network(&old)
            .grow_side(16, SideStart::Quiet, &mut crate::rng::Rng::new(3))
            .unwrap();
        assert!(float.side_w.iter().all(|&w| w == 0.0));
        assert!(float.side_out.iter().all(|&w| w != 0.0));
        for bucket in float.side_out.chunks_exact(32) {
            let (us, them) = bucket.split_at(16);
            assert!(us.iter().zip(them).all(|(u, t)| *u == -*t));
        }
        let grown = float.quantise();
        evaluates_as_before(&old, &grown, &float);
    }
    // A net that has them already, or hidden layers, is refused.
    let with_side = Arch::new(FeatureSet::PieceSquare, 64, 1)
        .and_then(|a| a.with_side(16))
        .unwrap();
    let layered = Arch::new(FeatureSet::PieceSquare, 64, 1)
        .and_then(|a| a.with_hidden(8, 8))
        .unwrap();
    for arch in [with_side, layered] {
        let f = FloatNet::from_network(&Network::random_arch(arch, 1));
        assert!(
            f.grow_side(16, SideStart::Random, &mut crate::rng::Rng::new(1))
                .is_err()
        );
    }
}

/// The command: `--grow-from NET --threat-squares 16 --epochs 0` writes the
/// grown net (version 4, the old net's evaluation); with data, training
/// starts at the old net's validation loss, goes below it, and moves the
/// side output weights off zero; a trained side net goes on with `--init`.
#[test]
fn the_command_grows_threat_squares_and_trains_them() {
    let old = Network::random_arch(Arch::new(FeatureSet::PieceSquare, 128, 2).unwrap(), 11);
    let (dir, old_path, untrained) =
        untrained_growth("jj-train-side", &old, &["--threat-squares", "16"]);
    let out = untrained.out.clone();
    run(&untrained).unwrap();
    let grown = Network::load(&out).unwrap();
    assert_eq!(grown.arch().side, 16);
    assert_eq!(
        u16::from_le_bytes(grown.to_bytes()[8..10].try_into().unwrap()),
        4
    );
    let board = Board::startpos();
    let eval = |net: &Network| {
        evaluate(
            net,
            &Accumulator::from_board(net, &board),
            board.side_to_move(),
        )
    };
    assert_eq!(eval(&grown), eval(&old));
    let trained = on_synthetic_data(&untrained, &dir, 2, 43);
    let summary = run(&trained).unwrap();
    let start = summary.start_val_loss.unwrap();
    let mut init = trained.clone();
    init.grow_from = None;
    init.threat_squares = None;
    init.init = Some(old_path);
    init.hidden = 128;
    init.output_buckets = 2;
    init.epochs = 1;
    init.out = dir.join("init.nnue");
    assert_eq!(Some(start), run(&init).unwrap().start_val_loss);
    let after = summary.epochs.last().unwrap().val_loss.unwrap();
    assert!(after < start, "{after} after two epochs, {start} before");
    let trained_net = Network::load(&out).unwrap();
    let side_out: i64 = (0..2)
        .flat_map(|b| trained_net.side_output(b).iter().map(|&w| (w as i64).abs()))
        .sum();
    assert!(side_out > 0, "the side output stayed at zero");
    // Started quiet, the rows (all zero at the start) learn too, and the
    // loss falls; the start is refused without `--grow-from`.
    let mut quiet = trained.clone();
    quiet.side_start = SideStart::Quiet;
    quiet.out = dir.join("quiet.nnue");
    let q = run(&quiet).unwrap();
    let q_after = q.epochs.last().unwrap().val_loss.unwrap();
    assert!(
        q_after < start,
        "{q_after} after two epochs, {start} before"
    );
    let quiet_net = Network::load(&quiet.out).unwrap();
    let moved = (0..SIDE_INPUTS)
        .filter(|&i| quiet_net.side_row(i).iter().any(|&w| w != 0))
        .count();
    assert!(moved > 100, "{moved} side rows off zero");
    // The same fresh command parses without `--side-start`, so the refusal
    // is the start's.
    let fresh = [
        "train",
        "--data",
        "d",
        "--out",
        "o",
        "--threat-squares",
        "16",
    ];
    assert!(
        Args::try_parse_from(fresh).is_ok(),
        "a fresh threat-square net"
    );
    let quiet_fresh = [&fresh[..], &["--side-start", "quiet"]].concat();
    assert!(
        Args::try_parse_from(quiet_fresh).is_err(),
        "--side-start without --grow-from"
    );
    // A trained side net starts again from its own weights.
    let mut again = init.clone();
    again.init = Some(out.clone());
    again.threat_squares = Some(16);
    again.out = dir.join("again.nnue");
    let resumed = run(&again).unwrap();
    assert_eq!(resumed.start_val_loss, summary.written_val_loss);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The factor rows fold into the rows the file holds: a side net with
/// random factors, quantised, evaluates as its float model (up to the
/// engine's rounding of random weights) on the positions of random games,
/// and one written without them does not.
#[test]
fn the_threat_square_factors_fold_into_the_file() {
    let arch = Arch::new(FeatureSet::PieceSquare, 128, 4)
        .and_then(|a| a.with_side(16))
        .unwrap();
    let mut rng = crate::rng::Rng::new(21);
    let mut float = FloatNet::random(arch, &mut rng);
    for w in float.side_f1.iter_mut().chain(float.side_f2.iter_mut()) {
        *w = rng.symmetric(0.05);
    }
    let q = float.quantise();
    let folded = crate::side::fold(&float.side());
    assert!(folded.iter().zip(&float.side_w).any(|(a, b)| a != b));
    // The same net written without its factors: what an unfolded file would hold.
    let mut unfolded = float.clone();
    unfolded.side_f1.fill(0.0);
    unfolded.side_f2.fill(0.0);
    let u = unfolded.quantise();
    let mut board = Board::startpos();
    let (mut worst, mut worst_unfolded) = (0.0f32, 0.0f32);
    let mut game = xiangqi::rng::SplitMix64::new(4);
    for _ in 0..300 {
        let f = float.evaluate_board(&board);
        let stm = board.side_to_move();
        let e = evaluate(&q, &Accumulator::from_board(&q, &board), stm);
        worst = worst.max((f - e as f32).abs());
        let e = evaluate(&u, &Accumulator::from_board(&u, &board), stm);
        worst_unfolded = worst_unfolded.max((f - e as f32).abs());
        let moves = board.legal_moves();
        if moves.is_empty() {
            board = Board::startpos();
            continue;
        }
        board.make_move(moves.as_slice()[game.below(moves.len() as u64) as usize]);
    }
    // Measured: 8.6 folded, 60.7 without the factors.
    assert!(
        worst < 20.0 && worst_unfolded > 4.0 * worst,
        "float and engine {worst} apart, {worst_unfolded} without the factors"
    );
}
