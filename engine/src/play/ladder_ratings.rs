//! The ladder's measured ratings, written by `scripts/calibrate_levels.py`
//! from its match results alone (do not edit by hand; run the script).
//! `None`: not measured yet, and `UCI_Elo` chooses rungs by their nominal
//! ratings (`crate::play::ladder`).

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

pub const CALIBRATION: Option<Calibration> = Some(Calibration {
    bench: 2337344,
    time_control: "10+0.1",
    anchor: "Fairy-Stockfish 11.1 (Debian's fairy-stockfish, UCCI, 1 thread, 16 MB hash, full strength)",
    anchor_elo: 2500,
    rungs: &[
        RungRating {
            nodes: 200,
            elo: 1046,
            err: 105,
            games: 1000,
        },
        RungRating {
            nodes: 400,
            elo: 1104,
            err: 103,
            games: 2000,
        },
        RungRating {
            nodes: 800,
            elo: 1180,
            err: 101,
            games: 2000,
        },
        RungRating {
            nodes: 1200,
            elo: 1341,
            err: 99,
            games: 2000,
        },
        RungRating {
            nodes: 520,
            elo: 1463,
            err: 96,
            games: 2000,
        },
        RungRating {
            nodes: 780,
            elo: 1613,
            err: 94,
            games: 2000,
        },
        RungRating {
            nodes: 1120,
            elo: 1750,
            err: 92,
            games: 2000,
        },
        RungRating {
            nodes: 1530,
            elo: 1872,
            err: 90,
            games: 2000,
        },
        RungRating {
            nodes: 2080,
            elo: 2005,
            err: 89,
            games: 2000,
        },
        RungRating {
            nodes: 2900,
            elo: 2155,
            err: 87,
            games: 2000,
        },
        RungRating {
            nodes: 4000,
            elo: 2259,
            err: 85,
            games: 2000,
        },
        RungRating {
            nodes: 5600,
            elo: 2369,
            err: 83,
            games: 1200,
        },
        RungRating {
            nodes: 7800,
            elo: 2446,
            err: 74,
            games: 400,
        },
        RungRating {
            nodes: 11600,
            elo: 2558,
            err: 65,
            games: 400,
        },
        RungRating {
            nodes: 17400,
            elo: 2675,
            err: 55,
            games: 800,
        },
        RungRating {
            nodes: 27700,
            elo: 2804,
            err: 60,
            games: 800,
        },
        RungRating {
            nodes: 45000,
            elo: 2945,
            err: 64,
            games: 500,
        },
        RungRating {
            nodes: 75000,
            elo: 3037,
            err: 75,
            games: 200,
        },
        RungRating {
            nodes: 128000,
            elo: 3164,
            err: 87,
            games: 200,
        },
        RungRating {
            nodes: 224000,
            elo: 3287,
            err: 97,
            games: 200,
        },
        RungRating {
            nodes: 0,
            elo: 3351,
            err: 103,
            games: 100,
        },
    ],
});
