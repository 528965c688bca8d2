//! End-to-end tests: learning material from scratch, the quantised engine
//! agreeing with the float network, determinism, resuming, the command.

use super::*;
use clap::Parser;
use jiangjun_engine::bench::POSITIONS;
use jiangjun_engine::nnue::{Arch, FeatureSet, Network};
use xiangqi::Board;

fn synthetic(count: usize, seed: u64) -> Vec<Chunk> {
    let mut v = Vec::with_capacity(count);
    synth::generate(count, seed, |r| v.push(r.pack()));
    v
}

/// Material-learning settings: pure score labels on a wide logistic (K 400
/// keeps a rook's worth of material off the sigmoid's flat tail).
fn material_config() -> TrainConfig {
    TrainConfig {
        epochs: 6,
        batch_size: 512,
        lr: 0.004,
        lambda: 1.0,
        k: 400.0,
        val_fraction: 0.1,
        ..TrainConfig::default()
    }
}

fn trained(config: &TrainConfig, data: Vec<Chunk>) -> (TrainState, Vec<EpochReport>) {
    let mut reports = Vec::new();
    let state = TrainState::with_arch(config.arch, config.seed);
    let trained = train(config, data, state, |r, _| {
        reports.push(r.clone());
        Ok(())
    })
    .unwrap();
    (trained.state, reports)
}

fn eval(net: &model::FloatNet, fen: &str) -> f32 {
    net.evaluate_board(&Board::from_fen(fen).unwrap())
}

#[test]
fn learns_material_from_scratch() {
    let config = material_config();
    let data = synthetic(12_000, 11);
    let untrained = TrainState::new(config.seed);
    let (_, val) = split(data.clone(), config.val_fraction, config.seed);
    let before = train::mean_loss(&untrained.net, &val, config.lambda, config.k);
    let (state, reports) = trained(&config, data);
    let after = reports.last().unwrap().val_loss.unwrap();
    eprintln!(
        "val loss {before:.5} -> {after:.5}: {:?}",
        reports
            .iter()
            .map(|r| r.val_loss.unwrap())
            .collect::<Vec<_>>()
    );
    assert!(after < 0.25 * before, "val loss {before} -> {after}");
    assert!(reports.last().unwrap().train_loss < reports[0].train_loss);

    // Red to move, up a rook, a horse, a pawn; then the same with Black to
    // move (the evaluation is the side to move's).
    let full = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let no_rook = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let no_horse = "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let no_pawn = "rnbakabnr/9/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let (even, rook, horse) = (
        eval(&state.net, &format!("{full} w")),
        eval(&state.net, &format!("{no_rook} w")),
        eval(&state.net, &format!("{no_horse} w")),
    );
    let pawn = eval(&state.net, &format!("{no_pawn} w"));
    eprintln!("even {even:.0}, rook up {rook:.0}, horse up {horse:.0}, pawn up {pawn:.0}");
    assert!(even.abs() < 150.0, "even {even}");
    assert!(
        rook > horse && horse > pawn && pawn > even,
        "{rook} {horse} {pawn} {even}"
    );
    assert!(rook > 500.0, "rook up {rook}");
    assert!(eval(&state.net, &format!("{no_rook} b")) < -500.0);
}

/// After a short training, the engine's integer evaluation of the
/// quantised network agrees with the trainer's float evaluation:
///
/// * of the dequantised weights, exactly up to the engine's two integer
///   truncations (≤ 1.1 units): the two implementations compute the same
///   function (features, layout, formula);
/// * of the float weights themselves, within the rounding noise of the
///   quantisation (measured RMS ≈ 5, largest ≈ 15 on these positions with
///   nearest rounding, less with calibration): each position within
///   2% + 25 units, and an RMS difference below 8 (for wider nets the RMS
///   bound grows as √(L1 / 256); the 1024-wide test widens the per-position
///   one too).
#[test]
fn quantised_engine_agrees_with_the_float_network() {
    quantised_engine_agrees_in(Arch::NET2, 25.0);
}

/// The same for the new architecture: king buckets (6, mirrored), 512
/// units, 8 output buckets. The engine equals the dequantised float network
/// within the same 1.1 units, and the float network within 2% + 25 units
/// per position; the RMS bound grows with the rounding noise, as the
/// square root of the units: 8 · √(512 / 256) ≈ 11.3 (measured RMS ≈ 7.9,
/// largest ≈ 27). With 8 buckets no bucket has the 2 · L1 calibration
/// positions a refit needs, so calibration keeps nearest rounding here.
#[test]
fn quantised_engine_agrees_with_the_float_network_with_king_buckets() {
    quantised_engine_agrees_in(Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap(), 25.0);
}

/// The same for the widest net tried (net 4's candidate d2): piece-square
/// inputs, 1024 units, 8 output buckets. The rounding noise is a sum over
/// 2 · L1 quantised terms, so it grows as √L1 per position as well as in
/// the RMS: the bounds here are 2% + 25 · √(1024 / 256) = 2% + 50 units a
/// position and RMS 8 · √4 = 16. Measured here: RMS 14.5, largest 50.2
/// (inside its 2% share; a fixed 25 units already fails on the start
/// position, 27.4 off); on real positions
/// (1,000 of `net2-s203`, printed by `jiangjun train`) d1, 512 wide, is off
/// by RMS 10.0, largest 35.8, and d2, 1024 wide, by RMS 12.0, largest 51.0.
#[test]
fn quantised_engine_agrees_with_the_float_network_1024_wide() {
    quantised_engine_agrees_in(Arch::new(FeatureSet::PieceSquare, 1024, 8).unwrap(), 50.0);
}

/// The same with threat inputs (`psq+threats`, 18,900 inputs, 256 units,
/// one output bucket so that calibration has its 2 · L1 positions): the
/// engine's two parts (piece-square and threat rows, summed before SCReLU)
/// compute the float network's function, within the same 1.1 units of the
/// dequantised network. Against the float weights the rounding noise is
/// larger than without threats, as about 30 more inputs are active and
/// push more units up SCReLU's slope, where the output weights' rounding
/// counts most: measured RMS 7.4 (nearest) and 6.9 (calibrated on 2,000
/// positions, judged on 2,000 more), largest 32.5, so the per-position
/// bound is 2% + 35 units; the RMS bound stays 8.
#[test]
fn quantised_engine_agrees_with_the_float_network_with_threats() {
    quantised_engine_agrees_in(
        Arch::new(FeatureSet::PieceSquareThreats, 256, 1).unwrap(),
        35.0,
    );
}

/// The calibration positions come from all over the training data, not
/// from its first shard's first games (net 6's first candidate was
/// calibrated on about 80 games that way, and missed a validation
/// position by 411 units).
#[test]
fn the_calibration_sample_spreads_over_all_the_data() {
    let data: Vec<Chunk> = (0..1000u32)
        .map(|i| {
            let mut c = [0u8; data::RECORD_SIZE];
            c[..4].copy_from_slice(&i.to_le_bytes());
            c
        })
        .collect();
    let index = |c: &Chunk| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    let sample: Vec<u32> = spread_sample(&data, 8).iter().map(index).collect();
    assert_eq!(sample, [0, 125, 250, 375, 500, 625, 750, 875]);
    assert_eq!(spread_sample(&data[..5], 8).len(), 5);
}

/// A tiny net with threat inputs learns the synthetic material labels as
/// the piece-square one does (validation loss below a quarter of the
/// untrained net's), and uses its threat rows.
#[test]
fn learns_material_with_threat_inputs() {
    let config = TrainConfig {
        arch: Arch::new(FeatureSet::PieceSquareThreats, 64, 1).unwrap(),
        ..material_config()
    };
    let data = synthetic(12_000, 11);
    let untrained = TrainState::with_arch(config.arch, config.seed);
    let (_, val) = split(data.clone(), config.val_fraction, config.seed);
    let before = train::mean_loss(&untrained.net, &val, config.lambda, config.k);
    let (state, reports) = trained(&config, data);
    let after = reports.last().unwrap().val_loss.unwrap();
    eprintln!("psq+threats 64: val loss {before:.5} -> {after:.5}");
    assert!(after < 0.25 * before, "val loss {before} -> {after}");
    let threat_rows = 1260 * 64..state.net.l1_w.len();
    let moved = untrained.net.l1_w[threat_rows.clone()]
        .iter()
        .zip(&state.net.l1_w[threat_rows])
        .filter(|(a, b)| a != b)
        .count();
    assert!(moved > 10_000, "{moved} threat weights trained");
}

/// `slack`: the units a position may be off beyond 2% of the float evaluation.
fn quantised_engine_agrees_in(arch: Arch, slack: f32) {
    let config = TrainConfig {
        epochs: 2,
        arch,
        ..material_config()
    };
    let (state, _) = trained(&config, synthetic(4_000, 12));
    let mut positions: Vec<Board> = POSITIONS
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    synth::generate(200, 13, |r| positions.push(r.to_board().unwrap()));
    let nearest = state.net.quantise();
    // 2,000 positions fit the output layer and 2,000 judge the fit.
    let calibrated = quantise::quantise_calibrated(&state.net, &synthetic(4_000, 17));
    let mut rms = [0.0f64; 2];
    for (i, q) in [nearest, calibrated].iter().enumerate() {
        let q = Network::from_bytes(&q.to_bytes()).unwrap();
        let exact = model::FloatNet::from_network(&q);
        let (mut worst, mut squares) = (0.0f32, 0.0f64);
        for board in &positions {
            let acc = Accumulator::from_board(&q, board);
            let engine = evaluate(&q, &acc, board.side_to_move()) as f32;
            let dequantised = exact.evaluate_board(board);
            let float = state.net.evaluate_board(board);
            let fen = board.to_fen();
            assert!(
                (engine - dequantised).abs() <= 1.1,
                "{fen}: engine {engine}, dequantised float {dequantised}"
            );
            let diff = (engine - float).abs();
            let allowed = 0.02 * float.abs() + slack;
            assert!(
                diff <= allowed,
                "{fen}: engine {engine}, float {float} (allowed {allowed:.1})"
            );
            worst = worst.max(diff);
            squares += (diff as f64).powi(2);
        }
        rms[i] = (squares / positions.len() as f64).sqrt();
        eprintln!(
            "engine vs float ({}): RMS {:.2}, largest {worst:.2} over {} positions",
            ["nearest", "calibrated"][i],
            rms[i],
            positions.len()
        );
        let bound = 8.0 * (arch.l1 as f64 / 256.0).sqrt();
        assert!(rms[i] < bound, "{arch}: RMS {} (bound {bound:.1})", rms[i]);
    }
    assert!(
        rms[1] <= rms[0],
        "{arch}: calibration did not help: {rms:?}"
    );
}

#[test]
fn training_is_deterministic_and_resumes_exactly() {
    let data = synthetic(3_000, 14);
    let config = TrainConfig {
        epochs: 2,
        batch_size: 256,
        ..material_config()
    };
    let (a, _) = trained(&config, data.clone());
    let (b, _) = trained(&config, data.clone());
    assert_eq!(a, b, "same seed, one thread");
    let (c, _) = trained(
        &TrainConfig {
            seed: 2,
            ..config.clone()
        },
        data.clone(),
    );
    assert_ne!(a.net, c.net);
    // Two threads: reproducible too (fixed parts, summed in order).
    let two = TrainConfig {
        threads: 2,
        ..config.clone()
    };
    assert_eq!(trained(&two, data.clone()).0, trained(&two, data.clone()).0);

    // One epoch, a checkpoint, then the second epoch from it.
    let first = TrainConfig {
        epochs: 1,
        ..config.clone()
    };
    let (half, _) = trained(&first, data.clone());
    let restored = checkpoint::from_bytes(&checkpoint::to_bytes(&half)).unwrap();
    let resumed = train(&config, data, restored, |_, _| Ok(())).unwrap().state;
    assert_eq!(resumed, a);
}

#[test]
fn bad_configurations_are_refused() {
    let data = synthetic(10, 15);
    for bad in [
        TrainConfig {
            lambda: 1.5,
            ..TrainConfig::default()
        },
        TrainConfig {
            threads: 0,
            ..TrainConfig::default()
        },
        TrainConfig {
            batch_size: 0,
            ..TrainConfig::default()
        },
        TrainConfig {
            k: 0.0,
            ..TrainConfig::default()
        },
    ] {
        let e = train(&bad, data.clone(), TrainState::new(1), |_, _| Ok(())).unwrap_err();
        assert!(matches!(e, TrainError::Config(_)), "{e}");
    }
    let e = train(
        &TrainConfig::default(),
        vec![],
        TrainState::new(1),
        |_, _| Ok(()),
    );
    assert!(e.unwrap_err().to_string().contains("too few"));
    // A state of another architecture than the configuration's.
    let e = train(
        &TrainConfig::default(),
        data,
        TrainState::with_arch(Arch::new(FeatureSet::KingBucket6, 64, 1).unwrap(), 1),
        |_, _| Ok(()),
    );
    assert!(e.unwrap_err().to_string().contains("but psq"));
}

#[test]
fn the_command_trains_checkpoints_and_writes_a_network() {
    let dir = std::env::temp_dir().join(format!("jj-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.jjdata");
    synth::write_file(&data, 1_500, 16).unwrap();
    let out = dir.join("net.nnue");
    let args = Args::try_parse_from([
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--threads",
        "2",
        "--batch-size",
        "300",
        "--seed",
        "3",
        "--quiet",
    ])
    .unwrap();
    assert_eq!(args.config().unwrap().threads, 2);
    assert_eq!(args.config().unwrap().arch, Arch::NET2);
    let summary = run(&args).unwrap();
    assert_eq!(summary.epochs.len(), 1);
    assert_eq!(summary.train_positions + summary.val_positions, 1_500);
    assert!(summary.quantisation_error.rms < 10.0);
    Network::load(&out).unwrap();
    let ckpt = dir.join("net.nnue.ckpt");
    assert_eq!(checkpoint::load(&ckpt).unwrap().epoch, 1);

    // Resume to two epochs.
    let mut more = args.clone();
    more.epochs = 2;
    more.resume = Some(ckpt.clone());
    assert_eq!(run(&more).unwrap().epochs.len(), 1);
    assert_eq!(checkpoint::load(&ckpt).unwrap().epoch, 2);

    // A missing data file is an error that names it.
    let mut missing = args.clone();
    missing.data = vec![dir.join("nothing.jjdata")];
    assert!(
        run(&missing)
            .unwrap_err()
            .to_string()
            .contains("nothing.jjdata")
    );
    assert!(Args::try_parse_from(["train", "--out", "x"]).is_err());

    // The architecture flags: the file's header carries them.
    let mut kb = args.clone();
    kb.features = FeatureSet::KingBucket6;
    kb.hidden = 128;
    kb.output_buckets = 4;
    kb.out = dir.join("kb.nnue");
    kb.resume = None;
    run(&kb).unwrap();
    let net = Network::load(&kb.out).unwrap();
    assert_eq!(
        net.arch(),
        Arch::new(FeatureSet::KingBucket6, 128, 4).unwrap()
    );
    // Resuming a checkpoint of another architecture is refused.
    let mut wrong = kb.clone();
    wrong.epochs = 2;
    wrong.resume = Some(ckpt);
    assert!(run(&wrong).unwrap_err().to_string().contains("kingbucket6"));
    let parsed = Args::try_parse_from([
        "train",
        "--data",
        "d",
        "--out",
        "o",
        "--features",
        "kingbucket6",
        "--hidden",
        "512",
        "--output-buckets",
        "8",
    ])
    .unwrap();
    assert_eq!(
        parsed.arch().unwrap(),
        Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap()
    );
    for bad in [
        ["--features", "kings"],
        ["--hidden", "100"],
        ["--output-buckets", "0"],
    ] {
        let a = Args::try_parse_from(["train", "--data", "d", "--out", "o", bad[0], bad[1]]);
        assert!(a.is_err() || a.unwrap().arch().is_err(), "{bad:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shape the issue names: 1024 units, then 16 and 32, 8 layer stacks.
fn hidden_arch(l1: usize, buckets: usize) -> Arch {
    Arch::new(FeatureSet::PieceSquare, l1, buckets)
        .unwrap()
        .with_hidden(16, 32)
        .unwrap()
}

/// With hidden layers, the quantised engine against the float trainer
/// after a short training, on the bench positions and 200 synthetic ones:
///
/// * against the dequantised float network (the same weights): only the
///   engine's rounding of each activation to 1/127 differs; measured mean
///   1.06, largest 9.96 units; bound mean 2, largest 15;
/// * against the float network itself (quantisation included): measured
///   mean 3.63, largest 14.09 units; bound mean 6, largest 25 units (a
///   pawn is about 100; the 1024-wide net without hidden layers is off by
///   RMS 14.5, largest 50.2 in the test above).
#[test]
fn quantised_engine_agrees_with_the_float_network_with_hidden_layers() {
    hidden_layers_agree_in(hidden_arch(1024, 8), 2, [2.0, 15.0, 6.0, 25.0]);
}

/// The same with threat inputs feeding the hidden layers (`psq+threats`,
/// 256 units, then 16 and 32, 4 stacks, 3 epochs): the engine computes
/// the dequantised float net's function within the same bounds (measured
/// mean 1.22, largest 9.90 units). Against the float weights the rounding
/// noise is larger, as with threats and no hidden layers (about 30 more
/// active inputs): measured mean 7.95, largest 32.4, where the same shape
/// without threats gives mean 5.53, largest 21.5; bound mean 10, largest 40.
#[test]
fn quantised_engine_agrees_with_the_float_network_with_threats_and_hidden_layers() {
    let arch = Arch::new(FeatureSet::PieceSquareThreats, 256, 4)
        .unwrap()
        .with_hidden(16, 32)
        .unwrap();
    hidden_layers_agree_in(arch, 3, [2.0, 15.0, 10.0, 40.0]);
}

/// `bounds`: mean and largest difference against the dequantised net, then
/// against the float net.
fn hidden_layers_agree_in(arch: Arch, epochs: usize, bounds: [f32; 4]) {
    let config = TrainConfig {
        epochs,
        arch,
        ..material_config()
    };
    let (state, _) = trained(&config, synthetic(4_000, 12));
    let mut positions: Vec<Board> = POSITIONS
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    synth::generate(200, 13, |r| positions.push(r.to_board().unwrap()));
    let q = quantise::quantise_calibrated(&state.net, &synthetic(500, 17));
    let q = Network::from_bytes(&q.to_bytes()).unwrap();
    assert_eq!(q.arch(), arch);
    let exact = model::FloatNet::from_network(&q);
    let (mut sum, mut worst, mut sum_d, mut worst_d, mut spread) =
        (0.0f64, 0.0f32, 0.0f64, 0.0f32, 0.0f32);
    for board in &positions {
        let acc = Accumulator::from_board(&q, board);
        let engine = evaluate(&q, &acc, board.side_to_move()) as f32;
        let (float, dequantised) = (state.net.evaluate_board(board), exact.evaluate_board(board));
        let (d, dd) = ((engine - float).abs(), (engine - dequantised).abs());
        sum += d as f64;
        sum_d += dd as f64;
        worst = worst.max(d);
        worst_d = worst_d.max(dd);
        spread = spread.max(float.abs());
    }
    let n = positions.len() as f64;
    let (mean, mean_d) = (sum / n, sum_d / n);
    eprintln!(
        "{arch}: engine vs float mean {mean:.2}, largest {worst:.2}; vs dequantised mean {mean_d:.2}, \
         largest {worst_d:.2}; |float| up to {spread:.0}, over {n} positions"
    );
    assert!(
        spread > 300.0,
        "the net learnt too little to test: {spread}"
    );
    let [mean_d_max, worst_d_max, mean_max, worst_max] = bounds;
    assert!(
        mean_d < mean_d_max as f64 && worst_d < worst_d_max,
        "dequantised: {mean_d} {worst_d}"
    );
    assert!(
        mean < mean_max as f64 && worst < worst_max,
        "float: {mean} {worst}"
    );
}

/// A short training with hidden layers learns the synthetic material
/// labels: the validation loss falls to a fraction of the untrained
/// net's, and the material order comes out right.
#[test]
fn learns_material_with_hidden_layers() {
    let config = TrainConfig {
        arch: hidden_arch(256, 4),
        threads: 2,
        ..material_config()
    };
    let data = synthetic(12_000, 11);
    let untrained = TrainState::with_arch(config.arch, config.seed);
    let (_, val) = split(data.clone(), config.val_fraction, config.seed);
    let before = train::mean_loss(&untrained.net, &val, config.lambda, config.k);
    let (state, reports) = trained(&config, data);
    let after = reports.last().unwrap().val_loss.unwrap();
    eprintln!(
        "{}: val loss {before:.5} -> {after:.5}: {:?}",
        config.arch,
        reports
            .iter()
            .map(|r| r.val_loss.unwrap())
            .collect::<Vec<_>>()
    );
    assert!(after < 0.25 * before, "val loss {before} -> {after}");
    let full = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let no_rook = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let (even, rook) = (
        eval(&state.net, &format!("{full} w")),
        eval(&state.net, &format!("{no_rook} w")),
    );
    eprintln!("even {even:.0}, rook up {rook:.0}");
    assert!(rook > even + 300.0, "{rook} {even}");
}

/// `--hidden-layers` reaches the network file, and bad sizes are refused.
#[test]
fn the_command_trains_hidden_layers() {
    let dir = std::env::temp_dir().join(format!("jj-train-hidden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.jjdata");
    synth::write_file(&data, 1_000, 16).unwrap();
    let out = dir.join("h.nnue");
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = Args::try_parse_from([
        "train",
        "--data",
        d,
        "--out",
        o,
        "--epochs",
        "1",
        "--threads",
        "2",
        "--batch-size",
        "200",
        "--hidden",
        "128",
        "--output-buckets",
        "2",
        "--hidden-layers",
        "8,16",
        "--quiet",
    ])
    .unwrap();
    run(&args).unwrap();
    let net = Network::load(&out).unwrap();
    let expected = Arch::new(FeatureSet::PieceSquare, 128, 2)
        .unwrap()
        .with_hidden(8, 16)
        .unwrap();
    assert_eq!(net.arch(), expected);
    let ckpt = checkpoint::load(&dir.join("h.nnue.ckpt")).unwrap();
    assert_eq!(ckpt.net.arch, expected);
    for bad in ["16", "16,32,8", "12,32", "16,x"] {
        let a = Args::try_parse_from(["train", "--data", d, "--out", o, "--hidden-layers", bad]);
        assert!(a.is_err() || a.unwrap().arch().is_err(), "{bad}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A step clamps only the first-layer rows it changes: with a learning
/// rate big enough to throw weights past their limits, the net after each
/// step is already what clipping every weight would make it (threat rows
/// to their own, smaller limit).
#[test]
fn a_step_leaves_every_weight_inside_its_limit() {
    let arch = Arch::new(FeatureSet::PieceSquareThreats, 64, 2).unwrap();
    let config = TrainConfig {
        arch,
        batch_size: 64,
        lr: 5.0,
        threads: 2,
        ..TrainConfig::default()
    };
    let data = synthetic(256, 5);
    let mut trainer = Trainer::new(config, TrainState::with_arch(arch, 3));
    let mut hit_a_limit = false;
    for batch in trainer.epoch_order(data.len(), 0).chunks(64) {
        trainer.step(&data, batch, 5.0);
        let mut clipped = trainer.state.net.clone();
        clipped.clip();
        assert_eq!(clipped, trainer.state.net);
        hit_a_limit |= trainer
            .state
            .net
            .l1_w
            .iter()
            .any(|w| w.abs() == model::L1_LIMIT || w.abs() == model::THREAT_LIMIT);
    }
    assert!(
        hit_a_limit,
        "the learning rate never pushed a weight to a limit"
    );
}

/// `--keep-best` writes the network of the epoch with the lowest validation
/// loss: the same file as a run stopped after that epoch (training is
/// deterministic), and its state in OUT.best.ckpt. The settings overfit a
/// few hundred positions within a few epochs, so the best is not the last.
#[test]
fn keep_best_writes_the_epoch_with_the_lowest_validation_loss() {
    let dir = std::env::temp_dir().join(format!("jj-train-best-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.jjdata");
    synth::write_file(&data, 400, 21).unwrap();
    let (best, last) = (dir.join("best.nnue"), dir.join("last.nnue"));
    let args = |out: &std::path::Path, epochs: &str| {
        Args::try_parse_from([
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            epochs,
            "--threads",
            "2",
            "--batch-size",
            "40",
            "--lr",
            "0.01",
            "--features",
            "psq+threats",
            "--hidden",
            "64",
            "--val-fraction",
            "0.25",
            "--seed",
            "5",
            "--quiet",
        ])
        .unwrap()
    };
    let mut keep = args(&best, "8");
    keep.keep_best = true;
    let summary = run(&keep).unwrap();
    let losses: Vec<f64> = summary.epochs.iter().map(|r| r.val_loss.unwrap()).collect();
    let lowest = (0..losses.len())
        .min_by(|&a, &b| losses[a].total_cmp(&losses[b]))
        .unwrap()
        + 1;
    assert_eq!(summary.best_epoch, Some(lowest), "losses {losses:?}");
    assert!(lowest < 8, "the run did not overfit: {losses:?}");
    let best_ckpt = dir.join("best.nnue.best.ckpt");
    assert_eq!(checkpoint::load(&best_ckpt).unwrap().epoch, lowest);

    // A run that stops at that epoch writes the same network.
    run(&args(&last, &lowest.to_string())).unwrap();
    assert_eq!(std::fs::read(&best).unwrap(), std::fs::read(&last).unwrap());

    // Without validation positions there is nothing to choose by: refused.
    let mut blind = args(&dir.join("blind.nnue"), "2");
    blind.keep_best = true;
    blind.val_fraction = 0.0;
    let e = run(&blind).unwrap_err().to_string();
    assert!(e.contains("--keep-best needs validation"), "{e}");
    assert!(!dir.join("blind.nnue").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
