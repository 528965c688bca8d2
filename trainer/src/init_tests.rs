//! `--init`: training that starts from an engine network's weights.

use super::*;
use clap::Parser;
use jiangjun_engine::nnue::{Arch, FeatureSet, Network};

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

/// `--grow-from`: with `--epochs 0` the grown network is written as
/// `nnue::grow` makes it, without data; with data, training starts from
/// it exactly where the old net stands (the same validation loss as a
/// start from the old net itself) and goes down from there.
#[test]
fn growing_starts_where_the_old_network_is() {
    let dir = std::env::temp_dir().join(format!("jj-train-grow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let old = Network::random_arch(Arch::new(FeatureSet::PieceSquare, 64, 2).unwrap(), 5);
    let old_path = dir.join("old.nnue");
    old.save(&old_path).unwrap();
    let out = dir.join("grown.nnue");
    let untrained = Args::try_parse_from([
        "train",
        "--grow-from",
        old_path.to_str().unwrap(),
        "--features",
        "kingbucket9",
        "--epochs",
        "0",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
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

    let data = dir.join("d.jjdata");
    synth::write_file(&data, 3_000, 31).unwrap();
    let val = dir.join("v.jjdata");
    synth::write_file(&val, 600, 37).unwrap();
    let mut trained = untrained.clone();
    trained.epochs = 1;
    trained.data = vec![data.clone()];
    trained.val_data = vec![val.clone()];
    trained.threads = Some(2);
    trained.batch_size = 200;
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
