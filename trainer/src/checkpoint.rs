//! Checkpoints: the whole training state in float, to resume a run.
//!
//! Layout, little-endian: magic `JJCKPT\0\0`, `u32` version (2), `u32`
//! feature set id (as in network files), `u32` inputs, `u32` L1, `u32`
//! output buckets, `u32` epochs done, `u64` Adam steps, then the weights,
//! Adam's first and second moments (each as the four blocks first-layer
//! weights, first-layer biases, output weights, output biases, `f32`), and
//! last the FNV-1a-64 hash of everything before. Version 1, written before
//! there was a choice of feature set, has no feature set field and is read
//! as piece-square. Version 3 is a network with hidden layers: two `u32`
//! more after the output buckets (H1, H2), and each of the three nets has
//! four blocks more after the four (hidden-1 weights and biases, hidden-2
//! weights and biases); a network without them is still written as
//! version 2. Version 4 is version 3 with the skip path (`Arch::skip`):
//! each net has two blocks more, its output weights and biases. Version 5
//! is version 2 with the side accumulator of threat squares (`Arch::side`):
//! its width as a `u32` after the output buckets, and three blocks more
//! in each net (its rows, biases and output weights).

use crate::model::FloatNet;
use crate::train::TrainState;
use jiangjun_engine::nnue::fnv1a64;
use jiangjun_engine::nnue::{Arch, FeatureSet};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"JJCKPT\0\0";
pub const VERSION: u32 = 2;
/// The version of checkpoints of networks with hidden layers.
pub const VERSION_HIDDEN: u32 = 3;
/// The version of checkpoints of networks with hidden layers and a skip path.
pub const VERSION_SKIP: u32 = 4;
/// The version of checkpoints of networks with threat squares.
pub const VERSION_SIDE: u32 = 5;

/// Why a checkpoint could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("checkpoint {path}: {reason}")]
    Invalid { path: String, reason: String },
}

/// The checkpoint's bytes.
pub fn to_bytes(state: &TrainState) -> Vec<u8> {
    let arch = state.net.arch;
    let mut out = Vec::with_capacity(48 + 3 * 4 * state.net.len());
    out.extend_from_slice(&MAGIC);
    let mut header = vec![
        if arch.side != 0 {
            VERSION_SIDE
        } else if arch.skip {
            VERSION_SKIP
        } else if arch.has_hidden() {
            VERSION_HIDDEN
        } else {
            VERSION
        },
        arch.features.id() as u32,
        arch.inputs() as u32,
        arch.l1 as u32,
        arch.output_buckets as u32,
    ];
    if arch.has_hidden() {
        header.extend([arch.hidden[0] as u32, arch.hidden[1] as u32]);
    }
    if arch.side != 0 {
        header.push(arch.side as u32);
    }
    header.push(state.epoch as u32);
    for v in header {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&state.step.to_le_bytes());
    for net in [&state.net, &state.m, &state.v] {
        for block in net.blocks() {
            for x in block {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let hash = fnv1a64(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// Read a checkpoint's bytes; `Err` says what is wrong.
pub fn from_bytes(bytes: &[u8]) -> Result<TrainState, String> {
    if bytes.len() < 12 + 8 || bytes[0..8] != MAGIC {
        return Err("not a Jiangjun trainer checkpoint (bad magic)".into());
    }
    let u32_at = |i: usize| -> Result<u32, String> {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("{} bytes: too short for the header", bytes.len()))
    };
    let version = u32_at(8)?;
    // Version 1 has no feature set field: the header is 4 bytes shorter.
    let (features, at) = match version {
        1 => (FeatureSet::PieceSquare, 12),
        2..=5 => {
            let id = u32_at(12)?;
            let set = u16::try_from(id)
                .ok()
                .and_then(FeatureSet::from_id)
                .ok_or_else(|| format!("feature set {id} is unknown"))?;
            (set, 16)
        }
        v => return Err(format!("version {v} is not supported")),
    };
    let inputs = u32_at(at)? as usize;
    if inputs != features.inputs() {
        return Err(format!(
            "{inputs} inputs, but feature set {features} has {}",
            features.inputs()
        ));
    }
    let arch = Arch::new(features, u32_at(at + 4)? as usize, u32_at(at + 8)? as usize)
        .map_err(|e| e.to_string())?;
    // Versions 3 and 4: the hidden sizes, then the rest as before; version
    // 5: the side width.
    let (arch, at) = if version == VERSION_SIDE {
        let side = u32_at(at + 12)? as usize;
        if side == 0 {
            return Err("a version 5 checkpoint without threat squares".into());
        }
        (arch.with_side(side).map_err(|e| e.to_string())?, at + 4)
    } else if version >= VERSION_HIDDEN {
        let (h1, h2) = (u32_at(at + 12)? as usize, u32_at(at + 16)? as usize);
        if h1 == 0 {
            return Err(format!(
                "a version {version} checkpoint without hidden layers"
            ));
        }
        let arch = arch.with_hidden(h1, h2).map_err(|e| e.to_string())?;
        let arch = if version == VERSION_SKIP {
            arch.with_skip().map_err(|e| e.to_string())?
        } else {
            arch
        };
        (arch, at + 8)
    } else {
        (arch, at)
    };
    let header_len = at + 24;
    let params = FloatNet::zeros(arch).len();
    let expected = header_len + 3 * 4 * params + 8;
    if bytes.len() != expected {
        return Err(format!(
            "{} bytes, expected {expected} for a network of {arch}",
            bytes.len()
        ));
    }
    let (body, hash) = bytes.split_at(expected - 8);
    if fnv1a64(body).to_le_bytes() != hash {
        return Err("checksum mismatch (corrupt file)".into());
    }
    let epoch = u32_at(at + 12)? as usize;
    let step = u64::from_le_bytes(bytes[at + 16..at + 24].try_into().expect("8 bytes"));
    let mut floats = body[header_len..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut read_net = || {
        let mut net = FloatNet::zeros(arch);
        for block in net.blocks_mut() {
            for x in block.iter_mut() {
                *x = floats.next().unwrap_or(0.0);
            }
        }
        net
    };
    let (net, m, v) = (read_net(), read_net(), read_net());
    Ok(TrainState {
        net,
        m,
        v,
        step,
        epoch,
    })
}

/// Write a checkpoint (to a temporary file renamed into place, so a crash
/// never leaves half a checkpoint).
pub fn save(path: &Path, state: &TrainState) -> Result<(), CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, to_bytes(state)).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Read a checkpoint.
pub fn load(path: &Path) -> Result<TrainState, CheckpointError> {
    let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
        path: path.display().to_string(),
        source,
    })?;
    from_bytes(&bytes).map_err(|reason| CheckpointError::Invalid {
        path: path.display().to_string(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejections() {
        let mut state = TrainState::new(4);
        state.m.l1_w[7] = 0.25;
        state.v.out_b[0] = 3.5;
        state.step = 99;
        state.epoch = 3;
        let bytes = to_bytes(&state);
        assert_eq!(from_bytes(&bytes).unwrap(), state);
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(
            from_bytes(&bytes[..bytes.len() - 4])
                .unwrap_err()
                .contains("bytes")
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(from_bytes(&bad).unwrap_err().contains("magic"));
        // A king-bucket state keeps its architecture.
        let arch = Arch::new(FeatureSet::KingBucket6, 64, 8).unwrap();
        let mut kb = TrainState::with_arch(arch, 2);
        kb.v.out_w[9] = 0.5;
        let bytes = to_bytes(&kb);
        assert_eq!(from_bytes(&bytes).unwrap(), kb);
        let mut bad = bytes.clone();
        bad[12] = 7;
        assert!(from_bytes(&bad).unwrap_err().contains("feature set 7"));
        let mut bad = bytes.clone();
        bad[20..24].copy_from_slice(&100u32.to_le_bytes());
        assert!(from_bytes(&bad).unwrap_err().contains("L1 size 100"));
        // A state with hidden layers: version 3, read back whole.
        let arch = Arch::new(FeatureSet::PieceSquare, 128, 2)
            .unwrap()
            .with_hidden(16, 32)
            .unwrap();
        let mut h = TrainState::with_arch(arch, 3);
        h.m.h2_b[5] = 0.75;
        let bytes = to_bytes(&h);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
        assert_eq!(from_bytes(&bytes).unwrap(), h);
        let mut bad = bytes.clone();
        bad[32..36].copy_from_slice(&12u32.to_le_bytes());
        assert!(
            from_bytes(&bad)
                .unwrap_err()
                .contains("hidden layer size 12")
        );
        // Threat inputs with hidden layers: both kept.
        let arch = Arch::new(FeatureSet::PieceSquareThreats, 64, 2)
            .unwrap()
            .with_hidden(8, 16)
            .unwrap();
        let mut th = TrainState::with_arch(arch, 4);
        th.v.l1_w[1260 * 64 + 3] = 0.5;
        assert_eq!(from_bytes(&to_bytes(&th)).unwrap(), th);
        // The skip path: version 4, its two blocks read back, and a
        // version 3 header on its bytes refused by their length.
        let mut sk = TrainState::with_arch(th.net.arch.with_skip().unwrap(), 5);
        sk.m.skip_w[7] = 0.25;
        sk.v.skip_b[1] = 0.125;
        let bytes = to_bytes(&sk);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 4);
        assert_eq!(from_bytes(&bytes).unwrap(), sk);
        let mut bad = bytes.clone();
        bad[8..12].copy_from_slice(&3u32.to_le_bytes());
        assert!(from_bytes(&bad).unwrap_err().contains("bytes"));
        // Threat squares: version 5, the width after the buckets, the
        // three side blocks read back; a width of 0 refused.
        let arch = Arch::new(FeatureSet::PieceSquare, 64, 2)
            .and_then(|a| a.with_side(16))
            .unwrap();
        let mut sd = TrainState::with_arch(arch, 6);
        sd.m.side_w[95_760 * 16 - 1] = 0.5;
        sd.v.side_out[3] = 0.25;
        sd.net.side_b[2] = -0.125;
        let bytes = to_bytes(&sd);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 5);
        assert_eq!(u32::from_le_bytes(bytes[28..32].try_into().unwrap()), 16);
        assert_eq!(from_bytes(&bytes).unwrap(), sd);
        let mut bad = bytes.clone();
        bad[28..32].copy_from_slice(&0u32.to_le_bytes());
        assert!(
            from_bytes(&bad)
                .unwrap_err()
                .contains("without threat squares")
        );
    }

    /// A version-1 checkpoint (no feature set field) still reads.
    #[test]
    fn reads_version_1() {
        let state = TrainState::new(6);
        let v2 = to_bytes(&state);
        let mut v1 = v2[..8].to_vec();
        v1.extend_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v2[16..v2.len() - 8]);
        let hash = fnv1a64(&v1);
        v1.extend_from_slice(&hash.to_le_bytes());
        assert_eq!(from_bytes(&v1).unwrap(), state);
    }
}
