//! Checkpoints: the whole training state in float, to resume a run.
//!
//! Layout, little-endian: magic `JJCKPT\0\0`, `u32` version (1), `u32`
//! inputs, `u32` L1, `u32` output buckets, `u32` epochs done, `u64` Adam
//! steps, then the weights, Adam's first and second moments (each as the
//! four blocks first-layer weights, first-layer biases, output weights,
//! output biases, `f32`), and last the FNV-1a-64 hash of everything before.

use crate::model::FloatNet;
use crate::train::TrainState;
use jiangjun_engine::nnue::network::fnv1a64;
use jiangjun_engine::nnue::{FEATURES, L1, OUTPUT_BUCKETS};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"JJCKPT\0\0";
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 * 5 + 8;

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
    let mut out = Vec::with_capacity(HEADER_LEN + 3 * 4 * state.net.len() + 8);
    out.extend_from_slice(&MAGIC);
    for v in [
        VERSION,
        FEATURES as u32,
        L1 as u32,
        OUTPUT_BUCKETS as u32,
        state.epoch as u32,
    ] {
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
    let params = FloatNet::zeros().len();
    let expected = HEADER_LEN + 3 * 4 * params + 8;
    if bytes.len() != expected {
        return Err(format!(
            "{} bytes, expected {expected} for this network shape",
            bytes.len()
        ));
    }
    if bytes[0..8] != MAGIC {
        return Err("not a Jiangjun trainer checkpoint (bad magic)".into());
    }
    let (body, hash) = bytes.split_at(expected - 8);
    if fnv1a64(body).to_le_bytes() != hash {
        return Err("checksum mismatch (corrupt file)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    if u32_at(8) != VERSION {
        return Err(format!("version {} is not supported", u32_at(8)));
    }
    for (what, at, want) in [
        ("inputs", 12, FEATURES),
        ("L1", 16, L1),
        ("output buckets", 20, OUTPUT_BUCKETS),
    ] {
        if u32_at(at) as usize != want {
            return Err(format!("{what} {} but this build has {want}", u32_at(at)));
        }
    }
    let epoch = u32_at(24) as usize;
    let step = u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes"));
    let mut floats = body[HEADER_LEN..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")));
    let mut read_net = || {
        let mut net = FloatNet::zeros();
        for block in net.blocks_mut() {
            for x in block.iter_mut() {
                *x = floats.next().expect("length checked");
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
    }
}
