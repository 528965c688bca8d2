//! The quantisation constants: what a float 1.0 is in each integer layer,
//! and the weight limits that keep the integer arithmetic exact (see the
//! module docs of `nnue`, and `stack` for the hidden layers'). A leaf: the
//! network checks its weights against these, the output layers compute
//! with them, the trainer scales and clips by them.

/// Quantisation of the first layer: float 1.0 = `QA`; also SCReLU's ceiling.
pub const QA: i32 = 255;
/// Quantisation of the output weights: float 1.0 = `QB`.
pub const QB: i32 = 64;
/// Evaluation units (centipawn-like) per unit of the float network's output.
pub const SCALE: i32 = 400;
/// Largest first-layer weight or bias magnitude: bias + 32 pieces fit an `i16`.
pub const MAX_L1_WEIGHT: i16 = (i16::MAX as i32 / 33) as i16;
/// Largest output weight magnitude: `QA · w` fits an `i16` (lazy SCReLU).
pub const MAX_OUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;
/// Largest hidden weight magnitude: int8 (see `stack`).
pub const MAX_HIDDEN_WEIGHT: i16 = i8::MAX as i16;
