//! One turn's exchange with the engines: the side to move is asked for its
//! move (going on with its ponder search on a hit, searching anew on a
//! miss) while the opponent starts pondering on the reply it expects.

use crate::engine::{Engine, Failure, Reply};
use std::time::{Duration, Instant};
use xiangqi::types::Move;

/// What the side to move is asked.
pub(super) struct Asked<'a> {
    /// The move its ponder search is on, if one runs.
    pub(super) pondered: Option<Move>,
    /// The opponent's last move.
    pub(super) last: Option<Move>,
    pub(super) base_fen: &'a str,
    pub(super) since: &'a [Move],
    /// The `go` line, given the milliseconds of its clock already used.
    pub(super) go: &'a dyn Fn(i64) -> String,
    /// Its clock starts here.
    pub(super) t0: Instant,
    pub(super) deadline: Instant,
    pub(super) grace: Duration,
    /// The opponent's ponder search to start (its moves and `go ponder` line).
    pub(super) ponder_other: Option<(&'a [Move], &'a str)>,
}

/// Get the move of `mover`: a ponder hit goes on with the running search,
/// a miss stops it and searches anew. Then the opponent's ponder search
/// starts (the bool: it did), and its output is taken while `mover` thinks.
/// A failure comes with what the engine was doing.
pub(super) fn think(
    mover: &mut Engine,
    other: &mut Engine,
    a: &Asked,
) -> (Result<Reply, (Failure, &'static str)>, bool) {
    if let Err(e) = begin(mover, a) {
        return (Err(e), false);
    }
    // A failure shows when it is the opponent's turn.
    let other_ponders = a.ponder_other.is_some_and(|(moves, go)| {
        other.position(a.base_fen, moves).is_ok() && other.start_search(go).is_ok()
    });
    let mut idle = || {
        if other.searching() {
            // An engine that fails while pondering loses on its turn.
            let _ = other.poll();
        }
    };
    let reply = mover
        .wait(a.deadline, a.grace, &mut idle)
        .map_err(|f| (f, "thinking"));
    (reply, other_ponders)
}

/// Start (or go on with) the search for the move of `mover`.
fn begin(mover: &mut Engine, a: &Asked) -> Result<(), (Failure, &'static str)> {
    let pondering = |f| (f, "pondering");
    match a.pondered {
        Some(y) if Some(y) == a.last => mover.ponderhit().map_err(pondering)?,
        pondered => {
            if pondered.is_some() {
                mover.cancel(a.grace).map_err(pondering)?;
            }
            mover
                .position(a.base_fen, a.since)
                .map_err(|f| (f, "sending the position"))?;
            // After a miss, the time it took to stop is gone from the clock.
            let spent = a.t0.elapsed().as_millis() as i64;
            mover
                .start_search(&(a.go)(spent))
                .map_err(|f| (f, "thinking"))?;
        }
    }
    mover.start_clock(a.t0);
    Ok(())
}
