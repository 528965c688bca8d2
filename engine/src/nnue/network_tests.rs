//! Tests of the network file format.

use super::*;
use crate::nnue::arch::Arch;
use crate::nnue::features::FeatureSet;

fn file() -> Vec<u8> {
    Network::random(3).to_bytes()
}

/// Rewrite the checksum after editing the payload.
fn reseal(bytes: &mut [u8]) {
    let sum = fnv1a64(&bytes[HEADER_LEN..]);
    bytes[40..48].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn round_trip() {
    let net = Network::random(3);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), HEADER_LEN + Arch::NET2.payload_len());
    assert_eq!(&bytes[0..8], b"JJNNUE\0\0");
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.to_bytes(), bytes);
    assert_ne!(Network::random(4), net);
}

#[test]
fn rejects_short_files() {
    let e = Network::from_bytes(&file()[..20]).unwrap_err();
    assert!(matches!(e, NnueError::TooShort { found: 20 }), "{e}");
    assert!(e.to_string().contains("too short"));
}

#[test]
fn rejects_wrong_magic() {
    let mut b = file();
    b[0] = b'X';
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NnueError::BadMagic { .. }), "{e}");
    assert!(e.to_string().contains("not a Jiangjun network file"));
}

#[test]
fn rejects_other_versions() {
    let mut b = file();
    b[8..10].copy_from_slice(&5u16.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(
        matches!(e, NnueError::UnsupportedVersion { found: 5 }),
        "{e}"
    );
    assert!(e.to_string().contains("version 5 is not supported"), "{e}");
}

/// A net with threat squares is a version 4 file with the side width in
/// byte 30, its three blocks after version 1's, and reads back the same;
/// a width of 0, one not a multiple of 16, a byte 31 not 0 or a version 1
/// header on its payload are refused with the reason.
#[test]
fn threat_squares_round_trip() {
    let arch = Arch::new(FeatureSet::PieceSquare, 128, 8)
        .and_then(|a| a.with_side(16))
        .unwrap();
    let net = Network::random_arch(arch, 12);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), arch.file_len());
    assert_eq!(
        arch.payload_values(),
        1260 * 128 + 128 + 8 * 257 + 95_760 * 16 + 16 + 8 * 32
    );
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_SIDE);
    assert_eq!(&bytes[30..32], &[16, 0]);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(
        arch.to_string(),
        "psq (1260 inputs) x 128 + threat squares (95760 inputs) x 16 -> 8 output buckets"
    );
    for (at, value, why) in [
        (30, 0, "threat-square width"),
        (31, 1, "threat-square width"),
        (30, 24, "threat-square width"),
        (8, 1, "reserved header field"),
    ] {
        let mut b = bytes.clone();
        b[at] = value;
        let e = Network::from_bytes(&b).unwrap_err().to_string();
        assert!(e.contains(why), "byte {at} = {value}: {e}");
    }
    // Hidden layers and threat squares do not go together.
    assert!(arch.with_hidden(16, 32).is_err());
    assert!(hidden_arch().with_side(16).is_err());
    assert!(Arch::max_file_len() >= arch.with_side(64).unwrap().file_len());
}

fn hidden_arch() -> Arch {
    Arch::new(FeatureSet::PieceSquare, 256, 4)
        .unwrap()
        .with_hidden(16, 32)
        .unwrap()
}

/// A net with hidden layers is a version 2 file with its sizes in bytes
/// 30 and 31, and reads back the same; one without stays version 1,
/// byte for byte as before (the built-in net's bytes are its file's).
#[test]
fn hidden_layers_round_trip() {
    let net = Network::random_arch(hidden_arch(), 9);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), hidden_arch().file_len());
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_HIDDEN);
    assert_eq!(&bytes[30..32], &[16, 32]);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.arch(), hidden_arch());
    assert_eq!(back.to_bytes(), bytes);
    // Threat inputs and hidden layers at once: feature set 3 in a version
    // 2 file (see `accumulator_tests` for its evaluation).
    let both = Arch::new(FeatureSet::KingBucket6Threats, 64, 2)
        .unwrap()
        .with_hidden(8, 16)
        .unwrap();
    let net = Network::random_arch(both, 10);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), both.file_len());
    assert_eq!(&bytes[8..12], &[2, 0, 3, 0]);
    assert_eq!(&bytes[30..32], &[8, 16]);
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    assert_eq!(&file()[8..10], &1u16.to_le_bytes());
    if let Some(embedded) = crate::nnue::EMBEDDED_NETWORK {
        assert_eq!(Network::from_bytes(embedded).unwrap().to_bytes(), embedded);
    }
}

/// Hidden sizes that are missing, unsupported or given to a version 1
/// file, and a version 1 header on a hidden net's payload, are refused
/// with the reason.
#[test]
fn rejects_bad_hidden_headers() {
    let good = Network::random_arch(hidden_arch(), 9).to_bytes();
    for (h1, h2, says) in [
        (0, 32, "hidden layer sizes in a version 2 or 3 file"),
        (16, 0, "hidden layer sizes in a version 2 or 3 file"),
        (12, 32, "first hidden layer size 12"),
        (16, 200, "second hidden layer size 200"),
        (16, 16, "does not match its payload"),
    ] {
        let mut b = good.clone();
        b[30] = h1;
        b[31] = h2;
        let e = Network::from_bytes(&b).unwrap_err().to_string();
        assert!(e.contains(says), "{h1} {h2}: {e}");
    }
    // Version 1 with the hidden sizes: the reserved field is not zero.
    let mut b = good.clone();
    b[8..10].copy_from_slice(&VERSION.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(e.contains("reserved header field"), "{e}");
    // A hidden net's int8 weights are checked.
    let mut b = good.clone();
    let at = HEADER_LEN + 2 * (1260 * 256 + 256 + 5);
    b[at..at + 2].copy_from_slice(&128i16.to_le_bytes());
    reseal(&mut b);
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(e.contains("hidden-layer-1 weights[5] = 128"), "{e}");
}

/// The skip path: a version 3 file, version 2's blocks then a version 1
/// output layer; it reads back the same, its output weights are checked
/// against the version 1 limit, and a version 2 header on its payload is
/// refused by the length.
#[test]
fn skip_path_round_trip() {
    let arch = hidden_arch().with_skip().unwrap();
    let net = Network::random_arch(arch, 12);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), arch.file_len());
    assert_eq!(
        bytes.len(),
        hidden_arch().file_len() + 2 * 4 * (2 * 256 + 1)
    );
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_SKIP);
    assert_eq!(&bytes[30..32], &[16, 32]);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.arch(), arch);
    assert!(back.skip_output(3).is_some());
    assert!(
        Network::random_arch(hidden_arch(), 12)
            .skip_output(0)
            .is_none()
    );
    let mut b = bytes.clone();
    b[8..10].copy_from_slice(&VERSION_HIDDEN.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(e.contains("does not match its payload"), "{e}");
    // The skip path's first output weight, beyond the version 1 limit.
    let mut b = bytes.clone();
    let at = HEADER_LEN + 2 * (arch.payload_values() - 4 - 4 * 2 * 256);
    b[at..at + 2].copy_from_slice(&(MAX_OUT_WEIGHT + 1).to_le_bytes());
    reseal(&mut b);
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(e.contains("skip output weights[0]"), "{e}");
}

#[test]
fn rejects_other_dimensions() {
    for (offset, what) in [
        (12, "input count"),
        (24, "QA"),
        (26, "QB"),
        (28, "SCALE"),
        (30, "reserved header field"),
    ] {
        let mut b = file();
        b[offset] = b[offset].wrapping_add(1);
        let e = Network::from_bytes(&b).unwrap_err();
        match &e {
            NnueError::Dimension { what: w, .. } => assert_eq!(*w, what),
            other => panic!("{what}: {other}"),
        }
        assert!(e.to_string().contains("built for"), "{e}");
    }
    let mut b = file();
    b[10..12].copy_from_slice(&9u16.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(
        matches!(e, NnueError::UnknownFeatureSet { found: 9 }),
        "{e}"
    );
    assert!(e.to_string().contains("feature set 9 is unknown"), "{e}");
    // Unsupported widths and bucket counts are named as such.
    for (offset, value, text) in [
        (16, 100u32, "L1 size 100 is not supported"),
        (16, 1 << 30, "L1 size 1073741824 is not supported"),
        (20, 0, "output bucket count 0 is not supported"),
        (20, 99, "output bucket count 99 is not supported"),
    ] {
        let mut b = file();
        b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        let e = Network::from_bytes(&b).unwrap_err().to_string();
        assert!(e.contains(text), "{e}");
    }
}

/// A header whose dimensions are valid but are not those of its payload
/// (an L1 or a bucket count edited, or another feature set) is refused
/// before the payload is read, saying what it would take.
#[test]
fn rejects_headers_that_do_not_match_their_payload() {
    let psq = file();
    let kb =
        Network::random_arch(Arch::new(FeatureSet::KingBucket6, 128, 4).unwrap(), 1).to_bytes();
    for (mut b, offset, value) in [
        (psq.clone(), 16, 512u32),
        (psq.clone(), 20, 8),
        (kb.clone(), 16, 256),
        (kb.clone(), 20, 1),
    ] {
        b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, NnueError::PayloadMismatch { .. }), "{e}");
        assert!(e.to_string().contains("does not match its payload"), "{e}");
    }
    // Another feature set with its own input count: still the wrong payload.
    let mut b = psq.clone();
    b[10..12].copy_from_slice(&1u16.to_le_bytes());
    b[12..16].copy_from_slice(&7560u32.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(
        e.contains("kingbucket6 (7560 inputs) x 256 -> 1 output bucket takes"),
        "{e}"
    );
    // With the payload length edited too, the payload is too short.
    let arch = Arch::new(FeatureSet::KingBucket6, 256, 1).unwrap();
    b[32..40].copy_from_slice(&(arch.payload_len() as u64).to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NnueError::Truncated { .. }), "{e}");
    // A king-bucket file claiming to be piece-square.
    let mut b = kb.clone();
    b[10..12].copy_from_slice(&0u16.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(
        e.contains("input count is 7560, but this engine is built for 1260"),
        "{e}"
    );
}

/// Every supported kind of architecture writes and reads back the same.
#[test]
fn other_architectures_round_trip() {
    for arch in [
        Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap(),
        Arch::new(FeatureSet::PieceSquare, 64, 16).unwrap(),
        Arch::new(FeatureSet::KingBucket6, 64, 1).unwrap(),
        Arch::new(FeatureSet::PieceSquareThreats, 128, 8).unwrap(),
        Arch::new(FeatureSet::KingBucket6Threats, 64, 2).unwrap(),
    ] {
        let net = Network::random_arch(arch, 8);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), arch.file_len());
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.arch(), arch);
        assert_eq!(back, net);
    }
}

#[test]
fn rejects_truncated_and_oversized_files() {
    let b = file();
    let e = Network::from_bytes(&b[..b.len() - 1]).unwrap_err();
    assert!(matches!(e, NnueError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("truncated"));
    let e = Network::from_bytes(&b[..HEADER_LEN]).unwrap_err();
    assert!(matches!(e, NnueError::Truncated { found: 0, .. }), "{e}");
    let mut long = b.clone();
    long.extend_from_slice(&[0, 0, 0]);
    let e = Network::from_bytes(&long).unwrap_err();
    assert!(matches!(e, NnueError::Oversized { extra: 3 }), "{e}");
    assert!(e.to_string().contains("oversized"));
}

#[test]
fn rejects_bad_checksums() {
    let mut b = file();
    let last = b.len() - 1;
    b[last] ^= 0x40;
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NnueError::Checksum { .. }), "{e}");
    assert!(e.to_string().contains("corrupt"));
}

#[test]
fn rejects_weights_beyond_the_limits() {
    // A first-layer weight of 1000 (> 992), correctly checksummed.
    let mut b = file();
    b[HEADER_LEN..HEADER_LEN + 2].copy_from_slice(&1000i16.to_le_bytes());
    reseal(&mut b);
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(
        matches!(
            e,
            NnueError::OutOfRange {
                index: 0,
                value: 1000,
                ..
            }
        ),
        "{e}"
    );
    // An output weight of 129 (> 128).
    let mut b = file();
    let at = HEADER_LEN + 2 * (1260 * 256 + 256 + 5);
    b[at..at + 2].copy_from_slice(&129i16.to_le_bytes());
    reseal(&mut b);
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(e.contains("output weights[5] = 129"), "{e}");
    b[at..at + 2].copy_from_slice(&(-128i16).to_le_bytes());
    reseal(&mut b);
    assert!(Network::from_bytes(&b).is_ok());
}

/// Threat rows have their own, smaller limit (244): a threat weight of
/// 245 is refused where a piece-square weight of 245 is fine; with hidden
/// layers after the accumulator too.
#[test]
fn threat_weights_have_their_own_limit() {
    let arch = Arch::new(FeatureSet::PieceSquareThreats, 64, 1).unwrap();
    for arch in [arch, arch.with_hidden(8, 16).unwrap()] {
        threat_weight_limit_in(arch);
    }
}

fn threat_weight_limit_in(arch: Arch) {
    let bytes = Network::random_arch(arch, 2).to_bytes();
    let first_threat = HEADER_LEN + 2 * 1260 * 64;
    let mut b = bytes.clone();
    b[first_threat..first_threat + 2].copy_from_slice(&245i16.to_le_bytes());
    reseal(&mut b);
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert!(
        e.contains("threat weights[0] = 245 is outside the allowed range ±244"),
        "{e}"
    );
    b[first_threat..first_threat + 2].copy_from_slice(&(-244i16).to_le_bytes());
    let last_psq = first_threat - 2;
    b[last_psq..last_psq + 2].copy_from_slice(&245i16.to_le_bytes());
    reseal(&mut b);
    assert!(Network::from_bytes(&b).is_ok());
}

/// A feature set this engine does not know (as a threat net, id 2 or 3,
/// is to an engine from before them) is refused, naming the ones it reads.
#[test]
fn an_unknown_feature_set_is_refused_with_the_known_ones() {
    let mut b = Network::random_arch(Arch::new(FeatureSet::PieceSquareThreats, 64, 1).unwrap(), 1)
        .to_bytes();
    assert_eq!(&b[10..12], &2u16.to_le_bytes());
    b[10..12].copy_from_slice(&99u16.to_le_bytes());
    let e = Network::from_bytes(&b).unwrap_err().to_string();
    assert_eq!(
        e,
        "network feature set 99 is unknown (this engine reads 0 = psq, 1 = kingbucket6, \
         2 = psq+threats, 3 = kingbucket6+threats, 4 = kingbucket9, 5 = kingbucket3)"
    );
}

#[test]
fn new_checks_lengths() {
    let e = Network::new(Arch::NET2, &[0; 3], &[0; 256], &[0; 512], &[0]).unwrap_err();
    assert!(matches!(e, NnueError::Shape { found: 3, .. }), "{e}");
}

#[test]
fn load_and_save() {
    let dir = std::env::temp_dir().join(format!("jj-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.nnue");
    let net = Network::random(5);
    net.save(&path).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);
    let e = Network::load(dir.join("missing.nnue")).unwrap_err();
    assert!(e.to_string().contains("missing.nnue"), "{e}");
    // A directory or a device is refused before it is read.
    for other in [dir.clone(), "/dev/zero".into()] {
        if other.exists() {
            let e = Network::load(&other).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }
    // A long file is read only so far, but its excess is counted.
    let mut long = net.to_bytes();
    long.extend_from_slice(&[0; 1000]);
    let long_path = dir.join("long.nnue");
    std::fs::write(&long_path, &long).unwrap();
    let e = Network::load(&long_path).unwrap_err();
    assert!(matches!(e, NnueError::Oversized { extra: 1000 }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn names_the_other_kinds_of_file() {
    for (bytes, want) in [
        (
            &b"JJCKPT\0\0 and more bytes of a checkpoint"[..],
            "trainer checkpoint",
        ),
        (&b"JJDATA\x01\0 records follow"[..], "training data"),
        (&b"JJBOOK1\0"[..], "opening book"),
        (
            &b"rnbakabnr/9/1c5c1 w"[..],
            "text file starting \"rnbakabnr/9/1c5c\"",
        ),
        (
            &[0xffu8, 0, 1, 2, 3, 4, 5, 6, 7][..],
            "unknown kind of file (its first bytes are ff 00 01",
        ),
    ] {
        let e = Network::from_bytes(bytes).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
        assert!(!e.contains('['), "no raw byte arrays: {e}");
    }
}
