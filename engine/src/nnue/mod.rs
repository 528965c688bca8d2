//! NNUE evaluation: an efficiently updatable neural network over sparse
//! piece-square inputs, evaluated in integers.
//!
//! # Architecture
//!
//! ```text
//!   board ──features──▶ N sparse inputs (stm view) ──┐   shared weights
//!                                                    ├─▶ L1 units per view (the accumulators)
//!   board ──features──▶ N sparse inputs (other view) ┘
//!   [acc(stm) ‖ acc(other)] ──SCReLU──▶ 2·L1 ──▶ 1 output (of B output buckets, chosen by piece count)
//! ```
//!
//! The network file's header chooses the architecture ([`Arch`]); one
//! engine evaluates every one of them:
//!
//! | | feature set | N inputs | L1 | B |
//! |---|---|---|---|---|
//! | net 2 ([`Arch::NET2`]) | `psq` (id 0) | 1260 | 256 | 1 |
//! | net 3 (built in; `jiangjun train --features psq --hidden 512 --output-buckets 8`) | `psq` (id 0) | 1260 | 512 | 8 |
//! | king-bucketed candidates (`--features kingbucket6`) | `kingbucket6` (id 1) | 7560 | 512 | 8 |
//! | threat inputs (see [`threats`]) | `psq+threats` (id 2), `kingbucket6+threats` (id 3) | 18900, 25200 | any | any |
//! | a `psq` net grown into king buckets (`jiangjun train --grow-from`, [`grow`]) | `kingbucket9` (id 4) | 11340 | the old net's | the old net's |
//! | the same, a bucket per file of the king | `kingbucket3` (id 5) | 3780 | the old net's | the old net's |
//! | threat squares beside the first layer ([`side`], file version 4) | any | its own, and 95,760 into a side accumulator of 16..=64 units | any | any |
//! | any other | any | its own | 64..=2048, a multiple of 64 | 1..=16 |
//!
//! A network of any feature set, threat inputs included, may also have two
//! hidden layers after the accumulator, one stack of them per output
//! bucket (`jiangjun train --hidden-layers 16,32`, file version 2): the
//! accumulator's output is then the pairwise product of its halves, and
//! the layers are int8 ([`stack`]). Without them (version 1, every net so
//! far) the output is as below.
//!
//! * **Features** ([`features`]): one input per (own/their × 7 kinds) × 90
//!   squares, from each side's perspective. Red sees the board as it is;
//!   Black sees it flipped top to bottom (rank r → 9 − r) with the colours
//!   swapped, so a position and its colour-flipped twin give the same
//!   inputs. `kingbucket6` has these 1260 once per bucket of the
//!   perspective's own king: its palace square, the d and f files merged by
//!   mirroring the board left to right for a king on the f file, 9 squares
//!   in 6 buckets.
//! * **Accumulator** ([`Accumulator`], [`AccumulatorStack`]): the first
//!   layer's output for both perspectives, `bias + Σ weight[feature]`, kept
//!   incrementally as pieces move (a move touches 2 or 3 features per
//!   perspective). A king move
//!   into another bucket (or mirror) recomputes that king's perspective
//!   only, from the refresh cache ([`finny`]: the half as it was when the
//!   king last stood in that view, plus the pieces changed since); the
//!   other is updated as usual. The search's stack of accumulators applies
//!   the updates lazily, when a position is evaluated, so that the many
//!   nodes that never evaluate (table cutoffs, checks, repetitions) cost
//!   no update.
//! * **Output**: the side to move's accumulator, then the other's, through
//!   SCReLU (clamp to [0, 1], square) into one linear output per bucket;
//!   the number of pieces on the board picks the bucket
//!   ([`output_bucket`]: 2..=32 pieces cut into B equal ranges).
//!
//! The loops run over blocks of 64 `i16` whatever L1 is; [`simd`] compiles
//! them for AVX2 when the CPU has it, and they stay plain Rust (the portable
//! fallback) otherwise.
//!
//! # Quantisation and the exact integer formula
//!
//! The float network (as the trainer keeps it) evaluates
//! `out = Σ_j w2[j] · screlu(a[j]) + b2` with `screlu(x) = clamp(x, 0, 1)²`
//! and the evaluation is `SCALE · out` centipawns. In the engine:
//!
//! * first layer weights and biases are `round(w · QA)` as `i16`, so an
//!   accumulator entry is `A = round-ish(a · QA)`;
//! * output weights are `round(w2 · QB)` as `i16`, the output bias
//!   `round(b2 · QA · QB)`;
//! * `c = clamp(A, 0, QA)`, `sum = Σ_j c_j · (c_j · W2_j)` (≈ `QA² · QB · Σ w2 · screlu`),
//!   accumulated exactly in `i64`;
//! * **`eval = (sum / QA + B2) · SCALE / (QA · QB)`**, both divisions
//!   truncating toward zero (Rust's `/` on `i64`).
//!
//! With `QA = 255`, `QB = 64` and `SCALE = 400`. The product `c · W2` is done
//! in `i16` ("lazy SCReLU"), which is exact because `c ≤ 255` and
//! `|W2| ≤ MAX_OUT_WEIGHT = 128`. First-layer weights and biases are limited
//! to `|w| ≤ MAX_L1_WEIGHT = 992`, so bias plus 32 pieces never overflows an
//! `i16` accumulator. [`Network::new`] and [`Network::from_bytes`] enforce
//! both limits; the trainer clips its float weights to the matching ranges.
//!
//! # Network file
//!
//! See [`Network`]: a 48-byte little-endian header (magic `JJNNUE\0\0`,
//! version, feature set, dimensions, quantisation constants, payload length,
//! FNV-1a-64 checksum of the payload) then the payload of `i16` LE values.
//! The feature set, L1 and the bucket count in the header choose the
//! architecture; the input count and the payload length must follow from
//! them, so a file of another shape, or whose header does not match its
//! payload, is refused with the reason, never misread.
//!
//! # In the engine
//!
//! `Position` keeps an [`AccumulatorStack`] when it is given a network and
//! evaluates through it (`Position::evaluate`); `Engine` holds the network
//! (`Engine::set_network`, `load_network_file`, `load_network_bytes`) and
//! starts with [`default_network`]. [`EvalSource`] is what the options name:
//! the hand-made evaluation, the built-in network or a network file.

// The layers, lowest first; each imports only from those before it (and
// `simd`, `rows`, the kernels), none from this file (`tests/layers.rs`):
// `block` (the contract of an input block, a leaf), `quant` (the
// quantisation constants, a leaf), `psq` (the piece-square block, its king
// layouts and views) and `threats` (the attack list and its block),
// `attack_change` (the attacks a move's two squares change, over `threats`),
// `side` (the threat squares: their pairs and the side accumulator, over
// `threats` and `attack_change`), `features` (every feature set's declaration: ids, names and
// the list of its blocks), `arch` (a network's shape), `network` (its
// weights and file), `grow` (a network into a richer shape), `finny` (the
// refresh cache), `apart` (the accumulator's part for the block a set keeps
// apart from the piece-square rows), `stack` and `output` (the layers after the accumulator),
// `accumulator` (the first layer, kept incrementally, and the evaluation
// through the others).
mod accumulator;
mod apart;
mod arch;
mod attack_change;
pub mod block;
pub mod features;
pub mod finny;
mod grow;
mod network;
mod output;
mod psq;
mod quant;
mod rows;
pub mod side;
pub mod simd;
pub mod stack;
pub mod threats;

pub use accumulator::{Accumulator, AccumulatorStack, evaluate};
pub use arch::{Arch, NnueError};
pub use features::{FEATURES, FeatureSet, feature_index, output_bucket};
pub use grow::grow;
pub use network::{Network, fnv1a64};
pub use quant::{MAX_L1_WEIGHT, MAX_OUT_WEIGHT, QA, QB, SCALE};

use std::ffi::OsStr;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The network file built into the binary: `engine/nets/jiangjun-9.nnue`,
/// described in `engine/nets/README.md`; its provenance (data, seeds, node
/// budget, trainer command and commit, matches) is in
/// `notes/2026-12-04-net11.md` (candidate N12) and `notes/2026-12-05-net9.md`.
///
/// This is the one place that embeds a net: every `Engine` starts with it
/// (the bench node count is the net's, pinned in
/// `engine/tests/bench_signature.rs`), and [`EvalSource`] gives the options
/// their meaning: the protocol's `EvalFile` (UCCI `evalfile`) is announced
/// with the default `<built-in>`, which (like an empty value) selects this
/// net, `none` or `hce` the hand-made evaluation, and a path a network file;
/// a file that cannot be used is an error and the evaluation in force (this
/// net, at first) stays. The tools' `--evalfile` (`bench`, `datagen`) read
/// the same values and default to this net too. `None` here would make the
/// hand-made evaluation the default again.
pub const EMBEDDED_NETWORK: Option<&[u8]> = Some(include_bytes!("../../nets/jiangjun-9.nnue"));

/// The network engines start with: the embedded one, read once and shared,
/// or `None` (the hand-made evaluation) when none is embedded.
pub fn default_network() -> Option<Arc<Network>> {
    static DEFAULT: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            EMBEDDED_NETWORK.map(|bytes| {
                // Built in at compile time and checked by a unit test.
                Arc::new(Network::from_bytes(bytes).expect("the embedded network is valid"))
            })
        })
        .clone()
}

/// The option value naming the network built into the binary.
pub const BUILTIN_NETWORK: &str = "<built-in>";
/// Option values naming the hand-made evaluation (in any case).
pub const HAND_MADE_NAMES: [&str; 2] = ["none", "hce"];
/// UCCI's spelling of an empty string value, which means the default.
const EMPTY_VALUE: &str = "<empty>";

/// An evaluation to search with, as an `EvalFile` option or a tool's
/// `--evalfile` names it. [`EvalSource::parse`] is the one place that gives
/// the values their meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSource {
    /// The hand-made evaluation (`none`, `hce`).
    HandMade,
    /// The network built into the binary (`<built-in>`).
    BuiltIn,
    /// A network file.
    File(PathBuf),
}

impl EvalSource {
    /// The evaluation engines start with when `embedded` is the built-in
    /// network file (see [`EMBEDDED_NETWORK`]): that network, or the
    /// hand-made evaluation when there is none.
    pub fn default_for(embedded: Option<&[u8]>) -> EvalSource {
        match embedded {
            Some(_) => EvalSource::BuiltIn,
            None => EvalSource::HandMade,
        }
    }

    /// What an option value selects when `embedded` is the built-in network
    /// file: empty (or `<empty>`) the default ([`EvalSource::default_for`]),
    /// `<built-in>` the built-in network, `none` or `hce` the hand-made
    /// evaluation, anything else a network file (`./none` is a file called
    /// `none`). The value is trimmed, and the names match in any case.
    /// `<built-in>` without a built-in network is an error.
    pub fn parse(value: &str, embedded: Option<&[u8]>) -> Result<EvalSource, NnueError> {
        let v = value.trim();
        if v.is_empty() || v.eq_ignore_ascii_case(EMPTY_VALUE) {
            Ok(EvalSource::default_for(embedded))
        } else if v.eq_ignore_ascii_case(BUILTIN_NETWORK) {
            match embedded {
                Some(_) => Ok(EvalSource::BuiltIn),
                None => Err(NnueError::NoneBuiltIn),
            }
        } else if HAND_MADE_NAMES.iter().any(|n| v.eq_ignore_ascii_case(n)) {
            Ok(EvalSource::HandMade)
        } else {
            Ok(EvalSource::File(PathBuf::from(v)))
        }
    }

    /// [`EvalSource::parse`] for a command-line argument: one that is not
    /// UTF-8 can only be a file.
    pub fn parse_os(value: &OsStr, embedded: Option<&[u8]>) -> Result<EvalSource, NnueError> {
        match value.to_str() {
            Some(v) => EvalSource::parse(v, embedded),
            None => Ok(EvalSource::File(PathBuf::from(value))),
        }
    }

    /// The network to evaluate with (`None`: the hand-made evaluation): the
    /// file is read now; the built-in network is [`default_network`].
    pub fn network(&self) -> Result<Option<Arc<Network>>, NnueError> {
        match self {
            EvalSource::HandMade => Ok(None),
            EvalSource::BuiltIn => default_network().map(Some).ok_or(NnueError::NoneBuiltIn),
            EvalSource::File(path) => Network::load(path).map(|n| Some(Arc::new(n))),
        }
    }
}

/// For messages: `the hand-made evaluation`, `the built-in network`,
/// `the network PATH`.
impl fmt::Display for EvalSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalSource::HandMade => f.write_str("the hand-made evaluation"),
            EvalSource::BuiltIn => f.write_str("the built-in network"),
            EvalSource::File(path) => write!(f, "the network {}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use side::SideWeights;
    use xiangqi::{Board, Color};

    /// The integer formula computed the slow, obvious way.
    fn reference_eval(net: &Network, board: &Board) -> i64 {
        let l1 = net.l1();
        let mut acc = vec![vec![0i64; l1]; 2];
        let mut pieces = 0;
        features::for_each_piece(board, |_, _| pieces += 1);
        for persp in Color::BOTH {
            for (j, a) in acc[persp.index()].iter_mut().enumerate() {
                *a = net.l1_bias()[j] as i64;
            }
            for f in features::active_features(net.features(), board, persp) {
                for (j, a) in acc[persp.index()].iter_mut().enumerate() {
                    *a += net.l1_row(f)[j] as i64;
                }
            }
        }
        let stm = board.side_to_move();
        let bucket = output_bucket(pieces, net.arch().output_buckets);
        let w = net.output_weights(bucket);
        let mut sum = 0i64;
        for (half, persp) in [stm, stm.flip()].into_iter().enumerate() {
            for j in 0..l1 {
                let c = acc[persp.index()][j].clamp(0, QA as i64);
                sum += c * c * w[half * l1 + j] as i64;
            }
        }
        // The side accumulator's units, into the same sum.
        let width = net.arch().side;
        let attacks = side::AttackList::of(&features::squares_of(board));
        for (half, persp) in [stm, stm.flip()].into_iter().enumerate() {
            for j in 0..width {
                let mut v = net.side_bias()[j] as i64;
                for &a in attacks.as_slice() {
                    if let Some(i) = side::side_index(persp, a) {
                        v += net.side_row(i)[j] as i64;
                    }
                }
                let c = v.clamp(0, QA as i64);
                sum += c * c * net.side_output(bucket)[half * width + j] as i64;
            }
        }
        (sum / QA as i64 + net.output_bias(bucket) as i64) * SCALE as i64 / (QA as i64 * QB as i64)
    }

    fn test_networks() -> [Network; 6] {
        let psq = Arch::new(FeatureSet::PieceSquare, 256, 8).unwrap();
        [
            Network::random_arch(psq.with_side(16).unwrap(), 10),
            Network::random_arch(
                Arch::new(FeatureSet::KingBucket9, 128, 3)
                    .and_then(|a| a.with_side(64))
                    .unwrap(),
                11,
            ),
            Network::random(7),
            Network::random_arch(Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap(), 7),
            Network::random_arch(Arch::new(FeatureSet::KingBucket6, 192, 3).unwrap(), 8),
            Network::random_arch(
                Arch::new(FeatureSet::KingBucket6Threats, 256, 8).unwrap(),
                9,
            ),
        ]
    }

    #[test]
    fn evaluate_matches_the_documented_formula() {
        for net in test_networks() {
            for fen in [
                xiangqi::START_FEN,
                "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 b - - 0 1",
                "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
            ] {
                let board = Board::from_fen(fen).unwrap();
                let mut acc = Accumulator::new(&net);
                acc.refresh(&net, &board);
                let e = evaluate(&net, &acc, board.side_to_move());
                assert_eq!(e as i64, reference_eval(&net, &board), "{fen}");
            }
        }
    }

    /// The embedded network is one this engine reads, of nets 6 to 9's shape.
    #[test]
    fn the_default_network_is_the_embedded_one() {
        match EMBEDDED_NETWORK {
            None => assert!(default_network().is_none()),
            Some(bytes) => {
                let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(*default_network().unwrap(), net);
                // Net 9 (nets 6 to 8's shape): piece-square inputs, 1024
                // units, 8 output buckets.
                let shape = Arch::new(features::FeatureSet::PieceSquare, 1024, 8).unwrap();
                assert_eq!(net.arch(), shape);
            }
        }
    }

    /// Option values with a network built in and without one (the bytes
    /// are not read: any will do).
    #[test]
    fn eval_source_values() {
        let net: &[u8] = b"a network file";
        let file = |p: &str| Some(EvalSource::File(PathBuf::from(p)));
        for embedded in [None, Some(net)] {
            let default = EvalSource::default_for(embedded);
            for value in ["", "  ", "<empty>", "<EMPTY>"] {
                assert_eq!(
                    EvalSource::parse(value, embedded).ok(),
                    Some(default.clone()),
                    "{value:?}"
                );
            }
            for value in ["none", "None", " hce ", "HCE"] {
                assert_eq!(
                    EvalSource::parse(value, embedded).ok(),
                    Some(EvalSource::HandMade),
                    "{value:?}"
                );
            }
            for (value, path) in [
                (" /nets/a b.nnue ", "/nets/a b.nnue"),
                ("./none", "./none"),
                ("none.nnue", "none.nnue"),
                ("built-in", "built-in"),
            ] {
                assert_eq!(EvalSource::parse(value, embedded).ok(), file(path));
            }
            assert_eq!(
                EvalSource::parse_os(OsStr::new("hce"), embedded).ok(),
                Some(EvalSource::HandMade)
            );
        }
        // With a network built in, it is the default and `<built-in>` names it.
        assert_eq!(EvalSource::default_for(Some(net)), EvalSource::BuiltIn);
        for value in ["<built-in>", " <Built-In> "] {
            assert_eq!(
                EvalSource::parse(value, Some(net)).ok(),
                Some(EvalSource::BuiltIn)
            );
        }
        // Without one, the hand-made evaluation is, and `<built-in>` is an error.
        assert_eq!(EvalSource::default_for(None), EvalSource::HandMade);
        let e = EvalSource::parse("<built-in>", None).unwrap_err();
        assert!(matches!(e, NnueError::NoneBuiltIn), "{e}");
        assert!(e.to_string().contains("no network is built in"), "{e}");
    }

    #[test]
    fn eval_sources_give_their_networks() {
        assert_eq!(EvalSource::HandMade.network().unwrap(), None);
        assert_eq!(
            EvalSource::BuiltIn.network().ok().flatten(),
            default_network()
        );
        assert_eq!(
            EvalSource::BuiltIn.network().is_err(),
            EMBEDDED_NETWORK.is_none()
        );
        let missing = EvalSource::File(PathBuf::from("/nonexistent/net.nnue"));
        let e = missing.network().unwrap_err().to_string();
        assert!(e.contains("/nonexistent/net.nnue"), "{e}");
        assert_eq!(
            [
                EvalSource::HandMade.to_string(),
                EvalSource::BuiltIn.to_string(),
                missing.to_string()
            ],
            [
                "the hand-made evaluation",
                "the built-in network",
                "the network /nonexistent/net.nnue"
            ]
        );
    }

    /// A position and its colour-flipped twin (ranks mirrored, colours and
    /// side to move swapped) get the same evaluation.
    #[test]
    fn colour_flipped_twins_evaluate_the_same() {
        for net in test_networks() {
            for fen in [
                xiangqi::START_FEN,
                "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 b - - 0 1",
            ] {
                let board = Board::from_fen(fen).unwrap();
                let twin = Board::from_fen(&features::colour_flipped_fen(fen)).unwrap();
                let eval_of = |b: &Board| {
                    let mut acc = Accumulator::new(&net);
                    acc.refresh(&net, b);
                    evaluate(&net, &acc, b.side_to_move())
                };
                assert_eq!(eval_of(&board), eval_of(&twin), "{fen}");
            }
        }
    }
}
