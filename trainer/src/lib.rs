//! The Jiangjun NNUE trainer: the training-data format ([`data`]), a float
//! model of the engine's network ([`model`]), mini-batch Adam on the CPU
//! across threads ([`mod@train`]), checkpoints ([`checkpoint`]), synthetic
//! data for tests ([`synth`]), and the command-line entry point [`run`].
//!
//! The engine owns the architecture, the feature indexing and the network
//! file (`jiangjun_engine::nnue`); this crate only produces weights for it:
//! [`model::FloatNet::quantise`] (nearest rounding) or
//! [`quantise::quantise_calibrated`] (what the command uses) turn the float
//! weights into the engine's `Network`, whose `to_bytes` writes the file.
//!
//! A run: load the data files (checked, kept packed, 48 bytes a position),
//! shuffle them with the seed and hold out `--val-fraction`; each epoch,
//! train on a fresh seeded shuffle in batches, print the training and
//! validation losses and write a checkpoint; at the end write the
//! quantised network and report how far the engine's integer evaluation is
//! from the float one.
//!
//! The command is `jiangjun train` (the `jiangjun` binary); its data comes
//! from `jiangjun datagen` (self-play), or for tests from the `synth` example:
//!
//! The architecture is chosen by `--features`, `--hidden`,
//! `--output-buckets` and `--hidden-layers` (net 2's by default) and
//! written into the network file's header, which is all the engine needs
//! to evaluate it; the hidden layers' float model is [`stack`].
//!
//! ```sh
//! jiangjun datagen --out selfplay.jjdata --positions 1000000 --seed 1
//! jiangjun train --data selfplay.jjdata --out net.nnue --epochs 10 --threads 2
//! jiangjun train --data selfplay.jjdata --out net3.nnue --features kingbucket6 --hidden 512 --output-buckets 8
//! jiangjun train --data selfplay.jjdata --out deep.nnue --hidden 1024 --output-buckets 8 --hidden-layers 16,32
//! cargo run --release -p jiangjun-trainer --example synth -- --out synth.jjdata --count 1000000
//! ```

pub mod activation;
pub mod adam;
pub mod checkpoint;
pub mod data;
pub mod inputs;
pub mod model;
pub mod quantise;
pub mod rng;
pub mod side;
pub mod stack;
pub mod synth;
pub mod train;

use checkpoint::CheckpointError;
use data::{Chunk, DataError};
use jiangjun_engine::nnue::{Accumulator, Arch, FeatureSet, Network, NnueError, evaluate};
use model::FloatNet;
use side::SideStart;
use std::path::PathBuf;
use train::{EpochReport, TrainConfig, TrainState, Trainer, split};

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("training data: {0}")]
    Data(#[from] DataError),
    #[error(transparent)]
    Nnue(#[from] NnueError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("{0}")]
    Config(String),
    #[error("cannot start the training threads: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
}

/// `jiangjun train`: train a network on data files and write it in the
/// engine's format.
#[derive(clap::Parser, Clone, Debug)]
#[command(about = "Train the Jiangjun NNUE on JJDATA files and write the engine's network file")]
pub struct Args {
    /// Training data files (JJDATA); several are read as one set. Not
    /// needed to grow a net without training (`--grow-from` with `--epochs 0`).
    #[arg(long, required_unless_present = "grow_from", num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the quantised network.
    #[arg(long)]
    pub out: PathBuf,
    /// Epochs in all (a resumed run continues up to this many).
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Weight of the search score against the game result in the target (0..=1).
    /// 1.0 (the score alone): trained with 0.75, a 1024-wide net scored −203 Elo
    /// against net 3 at equal nodes, the same net with 1.0 +33
    /// (`notes/2026-11-26-net4.md`, candidates d4 and d2).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Training threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch_size: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Learning-rate factor applied after every epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr_decay: f32,
    /// Evaluation units per logistic unit in the loss (see the `train` module).
    #[arg(long, default_value_t = 333.0)]
    pub k: f32,
    /// Share of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    pub val_fraction: f32,
    /// Validate on these files instead (whole games the training never
    /// saw); all of `--data` is then trained on.
    #[arg(long, num_args = 1..)]
    pub val_data: Vec<PathBuf>,
    /// Train on left-right mirror images too (each position mirrored in
    /// about half of the epochs).
    #[arg(long)]
    pub mirror: bool,
    /// Tie each d-file king bucket of `kingbucket9` or `kingbucket3` to its f-file twin
    /// (which sees the board mirrored): both rows take the sum of their
    /// gradients, so they learn as one shared bucket would, and a grown
    /// net keeps the difference it was grown with.
    #[arg(long)]
    pub tie_mirrored: bool,
    /// The hidden layers' learning rate as a multiple of `--lr` (they and
    /// their output layer, or the side accumulator of `--threat-squares`
    /// and its output weights; not the first layer or the skip path):
    /// layers grown fresh beside a trained net learn at a fresh net's rate
    /// while the trained layers go on at a fine-tuning one.
    #[arg(long, default_value_t = 1.0)]
    pub hidden_lr_scale: f32,
    /// Checkpoint written after every epoch (default: OUT.ckpt).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Resume from this checkpoint.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from the weights of this engine network (a `.nnue` file, its
    /// integers divided by their quantisation scales) instead of random
    /// ones: to go on training a built net on new data. Its architecture
    /// must be the one the flags ask for; Adam starts afresh and the epochs
    /// count from 0.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Start from this engine network grown into the feature set of
    /// `--features` (the accumulator width, output buckets and hidden
    /// layers stay the network's): before any step the grown net evaluates
    /// every position exactly as this one (`nnue::grow`; `psq` grows into
    /// `kingbucket9` or `psq+threats`, not into `kingbucket6`). With
    /// `--epochs 0` the grown net is written as it is, without data. With
    /// `--hidden-layers`, a net without hidden layers also grows them,
    /// its output layer kept beside them as the skip path and theirs
    /// starting at zero (`FloatNet::grow_stack`), again exactly.
    #[arg(long, conflicts_with_all = ["resume", "init", "hidden", "output_buckets"])]
    pub grow_from: Option<PathBuf>,
    /// Write the network of the epoch with the lowest validation loss
    /// instead of the last one's (its state is also checkpointed, in
    /// OUT.best.ckpt): a net with many inputs can overfit its data, as the
    /// threat inputs did on 8.4 M positions (`notes/2026-11-27-net6-data.md`).
    /// A resumed run counts only its own epochs. Refused without validation
    /// positions (`--val-fraction 0` and no `--val-data`).
    #[arg(long)]
    pub keep_best: bool,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
    /// Input features: `psq` (1260 piece-square inputs, net 2's),
    /// `kingbucket6` (the same per bucket of the own king's palace square,
    /// 7560 inputs), either with threat inputs (`psq+threats`, 18900;
    /// `kingbucket6+threats`, 25200: "piece X attacks piece Y on square s"),
    /// or `kingbucket9` (the 1260 per palace square of the own king, the
    /// f-file ones mirrored, 11340: what a `psq` net grows into exactly).
    #[arg(long, default_value = "psq", value_parser = parse_features)]
    pub features: FeatureSet,
    /// Accumulator units per perspective (L1): a multiple of 64, 64..=2048.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets, chosen by the number of pieces (1..=16).
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
    /// Two hidden layers after the accumulator, `H1,H2` (8..=64, multiples
    /// of 8; e.g. `16,32`), one stack per output bucket; the accumulator's
    /// halves then feed them through their pairwise product. Default none.
    #[arg(long, value_parser = parse_hidden_layers)]
    pub hidden_layers: Option<[usize; 2]>,
    /// A side accumulator of this many units (16..=64, a multiple of 16)
    /// over threat squares, inputs that name the attacker's square
    /// (`nnue::side`, 95,760 of them), its output added to the first
    /// layer's; for networks without hidden layers. With `--grow-from` it
    /// grows beside the net's first layer with its output weights at zero,
    /// so the grown net evaluates exactly as the old one. Default none.
    #[arg(long, conflicts_with = "hidden_layers")]
    pub threat_squares: Option<usize>,
    /// How grown threat squares start: `random` rows with the output
    /// weights at zero, or `quiet`: rows at zero, biases at 0.5 and each
    /// unit's two output weights opposite, so the rows learn only what the
    /// data asks (`side::quiet_start`). Either way the grown net evaluates
    /// exactly as the old one. Only with `--grow-from` (a fresh net's side
    /// weights start random).
    #[arg(
        long,
        value_enum,
        default_value_t = SideStart::Random,
        requires = "threat_squares",
        requires = "grow_from"
    )]
    pub side_start: SideStart,
}

fn parse_hidden_layers(s: &str) -> Result<[usize; 2], String> {
    let sizes: Vec<&str> = s.split(',').collect();
    match sizes.as_slice() {
        [a, b] => {
            let num = |x: &str| x.trim().parse::<usize>().map_err(|e| format!("{x:?}: {e}"));
            Ok([num(a)?, num(b)?])
        }
        _ => Err(format!("{s:?}: give two sizes, H1,H2 (such as 16,32)")),
    }
}

fn parse_features(name: &str) -> Result<FeatureSet, String> {
    FeatureSet::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = FeatureSet::ALL.iter().map(|f| f.name()).collect();
        format!("unknown feature set {name:?} (one of {})", names.join(", "))
    })
}

impl Args {
    /// The architecture these arguments ask for.
    pub fn arch(&self) -> Result<Arch, TrainError> {
        let [h1, h2] = self.hidden_layers.unwrap_or([0, 0]);
        Arch::new(self.features, self.hidden, self.output_buckets)
            .and_then(|a| a.with_hidden(h1, h2))
            .and_then(|a| a.with_side(self.threat_squares.unwrap_or(0)))
            .map_err(|e| TrainError::Config(e.to_string()))
    }

    /// The training configuration these arguments ask for.
    pub fn config(&self) -> Result<TrainConfig, TrainError> {
        Ok(TrainConfig {
            arch: self.arch()?,
            epochs: self.epochs,
            batch_size: self.batch_size,
            lr: self.lr,
            lr_decay: self.lr_decay,
            lambda: self.lambda,
            k: self.k,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            seed: self.seed,
            val_fraction: if self.val_data.is_empty() {
                self.val_fraction
            } else {
                0.0
            },
            mirror: self.mirror,
            tie_mirrored: self.tie_mirrored,
            hidden_lr_scale: self.hidden_lr_scale,
        })
    }
}

/// What a run did.
#[derive(Debug)]
pub struct RunSummary {
    pub epochs: Vec<EpochReport>,
    /// With `--keep-best`, the epoch whose network was written.
    pub best_epoch: Option<usize>,
    /// With `--init` and `--val-data`, the starting network's validation
    /// loss (before any step).
    pub start_val_loss: Option<f64>,
    /// The validation loss of the file written, read back: what the
    /// engine will play. The epochs report the float network's, which
    /// differs from it by as much as two candidates may differ.
    pub written_val_loss: Option<f64>,
    pub train_positions: usize,
    pub val_positions: usize,
    /// |engine − float| evaluation over (up to 1000) validation positions,
    /// in evaluation units: the cost of quantisation.
    pub quantisation_error: QuantisationError,
}

/// How far the engine's integer evaluation of the quantised network is
/// from the float network's evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuantisationError {
    pub rms: f32,
    pub max: f32,
    /// Largest |float| evaluation among the positions, for scale.
    pub max_eval: f32,
}

/// The result of [`train()`]: the final state and the data as it was split.
#[derive(Debug)]
pub struct Trained {
    pub state: TrainState,
    pub train: Vec<Chunk>,
    pub val: Vec<Chunk>,
}

/// Positions used to calibrate the quantisation (see [`quantise`]): half
/// fit the output layer, half judge the fit. Taken evenly spread over the
/// training data; its first positions are one shard's first games, which
/// cover too few positions of each output bucket.
pub const CALIBRATION_POSITIONS: usize = 65_536;

/// `count` positions at even steps through `data` (all of it if smaller).
pub fn spread_sample(data: &[Chunk], count: usize) -> Vec<Chunk> {
    if data.len() <= count {
        return data.to_vec();
    }
    (0..count)
        .map(|i| data[(i as u64 * data.len() as u64 / count as u64) as usize])
        .collect()
}

/// Train on `data` from `state` up to `config.epochs` epochs, calling
/// `after_epoch` after each (to report, to checkpoint).
pub fn train(
    config: &TrainConfig,
    data: Vec<Chunk>,
    state: TrainState,
    after_epoch: impl FnMut(&EpochReport, &TrainState) -> Result<(), TrainError>,
) -> Result<Trained, TrainError> {
    train_with_validation(config, data, None, state, after_epoch)
}

/// [`train()`], validating on `validation` when given (and then training
/// on all of `data`) instead of holding out `config.val_fraction` of it.
pub fn train_with_validation(
    config: &TrainConfig,
    data: Vec<Chunk>,
    validation: Option<Vec<Chunk>>,
    state: TrainState,
    mut after_epoch: impl FnMut(&EpochReport, &TrainState) -> Result<(), TrainError>,
) -> Result<Trained, TrainError> {
    config.check().map_err(TrainError::Config)?;
    if state.net.arch != config.arch {
        return Err(TrainError::Config(format!(
            "the state to train is a network of {}, but {} was asked for",
            state.net.arch, config.arch
        )));
    }
    if data.len() < 2 {
        return Err(TrainError::Config(format!(
            "{} positions are too few to train on",
            data.len()
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()?;
    let (train_set, val) = match validation {
        Some(val) => (data, val),
        None => split(data, config.val_fraction, config.seed),
    };
    let mut trainer = Trainer::new(config.clone(), state);
    while trainer.state.epoch < trainer.config.epochs {
        let report = pool.install(|| trainer.epoch(&train_set, &val));
        after_epoch(&report, &trainer.state)?;
    }
    Ok(Trained {
        state: trainer.state,
        train: train_set,
        val,
    })
}

/// |engine evaluation of `q` − float evaluation of `net`| over `positions`.
pub fn quantisation_error(
    net: &model::FloatNet,
    q: &Network,
    positions: &[Chunk],
) -> QuantisationError {
    let mut acc = Accumulator::new(q);
    let mut e = QuantisationError::default();
    let mut squares = 0.0f64;
    for c in positions {
        let rec = data::Record::unpack(c, 0).expect("checked when loaded");
        let mut pieces = Vec::with_capacity(32);
        rec.for_each_piece(|p, sq| pieces.push((p, sq)));
        acc.refresh_pieces(q, &pieces);
        let engine = evaluate(q, &acc, rec.side_to_move) as f32;
        let float = net.evaluate(&net.inputs(c, false));
        let d = (engine - float).abs();
        e.max = e.max.max(d);
        e.max_eval = e.max_eval.max(float.abs());
        squares += (d as f64).powi(2);
    }
    e.rms = (squares / positions.len().max(1) as f64).sqrt() as f32;
    e
}

/// The command: load the data, train (resuming if asked), checkpoint after
/// every epoch, write the quantised network.
pub fn run(args: &Args) -> Result<RunSummary, TrainError> {
    let config = args.config()?;
    config.check().map_err(TrainError::Config)?;
    if args.keep_best && args.val_data.is_empty() && config.val_fraction <= 0.0 {
        // Without validation positions there is no loss to choose by, and
        // writing the last epoch's net would pass for the best one.
        return Err(TrainError::Config(
            "--keep-best needs validation positions: give --val-data or a --val-fraction above 0"
                .into(),
        ));
    }
    let say = |line: String| {
        if !args.quiet {
            eprintln!("{line}");
        }
    };
    let mut data = Vec::new();
    for path in &args.data {
        let chunks = data::load_chunks(path)?;
        say(format!("{}: {} positions", path.display(), chunks.len()));
        data.extend(chunks);
    }
    let mut config = config;
    let grown = match &args.grow_from {
        Some(path) => {
            let old = Network::load(path)?;
            let to = Arch {
                features: args.features,
                ..old.arch()
            };
            let net = jiangjun_engine::nnue::grow(&old, to)?;
            let mut float = FloatNet::from_network(&net);
            let net = match (args.hidden_layers, args.threat_squares) {
                (Some([h1, h2]), _) => {
                    let mut rng = rng::Rng::new(config.seed ^ 0x57ac_0000_0000_0001);
                    float = float
                        .grow_stack(h1, h2, &mut rng)
                        .map_err(TrainError::Config)?;
                    float.quantise()
                }
                (None, Some(width)) => {
                    let mut rng = rng::Rng::new(config.seed ^ 0x51de_0000_0000_0001);
                    float = float
                        .grow_side(width, args.side_start, &mut rng)
                        .map_err(TrainError::Config)?;
                    float.quantise()
                }
                (None, None) => net,
            };
            say(format!(
                "grew {} ({}) into {}",
                path.display(),
                old.arch(),
                net.arch()
            ));
            config.arch = net.arch();
            Some((net, float))
        }
        None => None,
    };
    if let Some((net, _)) = &grown
        && config.epochs == 0
    {
        // Written as grown, not through the float model and back: the
        // integers are exactly the old net's evaluation.
        net.save(&args.out)?;
        say(format!(
            "wrote {} ({}), untrained",
            args.out.display(),
            net.arch()
        ));
        return Ok(RunSummary {
            epochs: Vec::new(),
            best_epoch: None,
            start_val_loss: None,
            written_val_loss: None,
            train_positions: 0,
            val_positions: 0,
            quantisation_error: QuantisationError::default(),
        });
    }
    if args.data.is_empty() {
        return Err(TrainError::Config("no --data to train on".into()));
    }
    let grew = grown.is_some();
    let state = match (grown, &args.resume) {
        // The grown float net itself: its new hidden layers keep their
        // float start (quantised, they would round to a few integers).
        (Some((_, float)), _) => TrainState::starting_at(float),
        (None, Some(path)) => {
            let s = checkpoint::load(path)?;
            say(format!(
                "resuming {} after epoch {}",
                path.display(),
                s.epoch
            ));
            s
        }
        (None, None) => match &args.init {
            Some(path) => {
                let net = Network::load(path)?;
                say(format!(
                    "starting from the weights of {} ({})",
                    path.display(),
                    net.arch()
                ));
                TrainState::from_network(&net)
            }
            None => TrainState::with_arch(config.arch, config.seed),
        },
    };
    let ckpt = args.checkpoint.clone().unwrap_or_else(|| {
        let mut p = args.out.clone().into_os_string();
        p.push(".ckpt");
        PathBuf::from(p)
    });
    let mut validation = None;
    for path in &args.val_data {
        let chunks = data::load_chunks(path)?;
        say(format!(
            "{}: {} validation positions",
            path.display(),
            chunks.len()
        ));
        validation.get_or_insert_with(Vec::new).extend(chunks);
    }
    // With --init or --grow-from, where the start stands on the same
    // positions the epochs report on: the figure a run from a built net
    // must improve on.
    let mut start_val_loss = None;
    if let (true, Some(val)) = (args.init.is_some() || grew, &validation) {
        let (l, line) = val_loss_line(&state.net, val, &config);
        say(format!("the start's {line}"));
        start_val_loss = Some(l);
    }
    let total = data.len();
    say(format!(
        "{total} positions, network {}, {} threads, batch {}, lr {}, lambda {}, K {}, seed {}",
        config.arch,
        config.threads,
        config.batch_size,
        config.lr,
        config.lambda,
        config.k,
        config.seed
    ));
    let mut reports = Vec::new();
    let best_ckpt = {
        let mut p = args.out.clone().into_os_string();
        p.push(".best.ckpt");
        PathBuf::from(p)
    };
    // (validation loss, epoch, float net) of the best epoch so far.
    let mut best: Option<(f64, usize, model::FloatNet)> = None;
    let trained = train_with_validation(&config, data, validation, state, |r, state| {
        let loss = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.6}"));
        say(format!(
            "epoch {:>3}/{}  lr {:.6}  train loss {:.6}  val loss {} (score {}, result {})  {:.0} pos/s",
            r.epoch,
            config.epochs,
            r.lr,
            r.train_loss,
            loss(r.val_loss),
            loss(r.val_score_loss),
            loss(r.val_result_loss),
            r.positions_per_second()
        ));
        checkpoint::save(&ckpt, state)?;
        if args.keep_best
            && let Some(loss) = r.val_loss
            && best.as_ref().is_none_or(|(b, _, _)| loss < *b)
        {
            checkpoint::save(&best_ckpt, state)?;
            best = Some((loss, r.epoch, state.net.clone()));
        }
        reports.push(r.clone());
        Ok(())
    })?;
    let (state, val) = (&trained.state, &trained.val);
    let (float, which) = match &best {
        Some((loss, epoch, net)) => (
            net,
            format!(
                " (epoch {epoch} of {}, the lowest validation loss, {loss:.6})",
                state.epoch
            ),
        ),
        None => (&state.net, String::new()),
    };
    let calibration = spread_sample(&trained.train, CALIBRATION_POSITIONS);
    let net = quantise::quantise_calibrated(float, &calibration);
    net.save(&args.out)?;
    let check = &val[..val.len().min(1000)];
    let nearest = quantisation_error(float, &float.quantise(), check);
    let err = quantisation_error(float, &net, check);
    say(format!(
        "wrote {}{which}; engine vs float evaluation on {} validation positions: RMS {:.1}, largest {:.1} \
         (nearest rounding: RMS {:.1}, largest {:.1}; evaluations up to {:.0})",
        args.out.display(),
        check.len(),
        err.rms,
        err.max,
        nearest.rms,
        nearest.max,
        err.max_eval
    ));
    // Read back from the file, so that the figure is the written net's
    // and not the float one's the epochs reported.
    let written_val_loss = if val.is_empty() {
        None
    } else {
        let written = model::FloatNet::from_network(&Network::load(&args.out)?);
        let (l, line) = val_loss_line(&written, val, &config);
        say(format!("the written file's {line}"));
        Some(l)
    };
    Ok(RunSummary {
        epochs: reports,
        best_epoch: best.map(|(_, epoch, _)| epoch),
        start_val_loss,
        written_val_loss,
        train_positions: trained.train.len(),
        val_positions: val.len(),
        quantisation_error: err,
    })
}

/// A network's validation loss at the run's λ, and the line that reports
/// it with the score's and the result's alone (comparable across λ).
fn val_loss_line(net: &model::FloatNet, val: &[Chunk], config: &TrainConfig) -> (f64, String) {
    let [l, score, result] = train::mean_losses(net, val, [config.lambda, 1.0, 0.0], config.k);
    (
        l,
        format!("val loss {l:.6} (score {score:.6}, result {result:.6})"),
    )
}

#[cfg(test)]
mod init_tests;
#[cfg(test)]
mod tests;
