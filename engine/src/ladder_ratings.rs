//! The ladder's measured ratings, written by `scripts/calibrate_levels.py`
//! from its match results alone (do not edit by hand; run the script).
//! `None`: not measured yet, and `UCI_Elo` chooses rungs by their nominal
//! ratings (`crate::ladder`).

/// One rung's rating on the anchored scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RungRating {
    /// The rung's node budget when it was measured (0: full strength).
    pub nodes: u64,
    /// Elo, and the half-width of its 95% interval.
    pub elo: i32,
    pub err: i32,
    /// Games the rung played in the calibration.
    pub games: u32,
}

/// A calibration: its conditions and each rung's rating, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// The `jiangjun bench` node count of the engine measured: the
    /// signature of its search and network, either of which moves every
    /// rung (a test holds it equal to the pinned count, so that a change of
    /// either cannot keep ratings measured on another engine).
    pub bench: u64,
    pub time_control: &'static str,
    pub anchor: &'static str,
    pub anchor_elo: i32,
    pub rungs: &'static [RungRating],
}

pub const CALIBRATION: Option<Calibration> = None;
