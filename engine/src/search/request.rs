//! What a GUI's `go` asks for, in engine terms (milliseconds, the side to
//! move's clock, moves), and every bound on it: the one place that decides
//! which values a `go` may carry and what a `go` without a limit does. The
//! protocol reads each dialect's words and hands their values here as it
//! read them ([`GoRequest::set`]); the engine's own callers fill the fields
//! and [`GoRequest::bounded`] brings them into the same range.

use super::time::Clock;
use crate::score::MAX_PLY;
use xiangqi::types::Move;

/// Largest clock value a `go` may give, in milliseconds (about 24.8 days,
/// the most a 32-bit GUI clock holds): a larger one is refused, since its
/// search would not end by itself in any useful time.
pub const MAX_CLOCK_MS: u64 = i32::MAX as u64;
/// Deepest iteration a `go depth` asks for (deeper ones are this).
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;
/// Longest mate a `go mate` asks for, in moves (longer ones are this).
pub const MAX_MATE: u32 = MAX_PLY as u32 / 2;
/// Most moves to the next time control (more are this).
pub const MAX_MOVESTOGO: u32 = 1000;
/// What a `go` whose limits were all unusable searches for: never for ever.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

/// A word of a `go` that carries a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoWord {
    Depth,
    Nodes,
    Mate,
    MovesToGo,
    MoveTime,
    /// The side to move's clock.
    Time,
    /// The side to move's increment.
    Increment,
    /// The other side's clock or increment: only checked (it has no say
    /// over our time, but tells that a clock game is played).
    OtherClock,
}

/// What one `go` asks for: the GUI's limits, in milliseconds and for the
/// side to move. The engine adds its own settings beside it
/// (`search::Limits`) and never changes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    pub clock: Clock,
    /// Search until told to stop (`go infinite`, UCCI's `depth infinite`).
    pub infinite: bool,
    /// Pondering: the clock (which runs from the `go`) applies only from
    /// `ponderhit` on, and no answer comes before `ponderhit` or `stop`,
    /// however soon the search ends.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Never these root moves.
    pub banmoves: Vec<Move>,
}

/// Untrusted text, shortened for an error message (the protocol's too:
/// `jiangjun_protocol::command::excerpt`).
pub fn excerpt(text: &str) -> String {
    let mut out: String = text.chars().take(60).filter(|c| !c.is_control()).collect();
    if text.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// A whole number, not negative.
fn whole(key: &str, text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(v) => Ok(v),
        Err(_) => match text.parse::<f64>() {
            Ok(x) if x < 0.0 => Err(format!(
                "go: '{key}' must not be negative, got '{}'",
                excerpt(text)
            )),
            Ok(_) => Err(format!("go: '{key}' is out of range: '{}'", excerpt(text))),
            Err(_) => Err(format!(
                "go: '{key}' needs a number, got '{}'",
                excerpt(text)
            )),
        },
    }
}

/// A time in the GUI's unit (`ms_per_unit` milliseconds each), as
/// milliseconds: finite, at most [`MAX_CLOCK_MS`]; a negative clock (some
/// GUIs send one after a slow move) counts as 0 unless `nonnegative`.
fn millis(key: &str, text: &str, ms_per_unit: f64, nonnegative: bool) -> Result<u64, String> {
    let x = text
        .parse::<f64>()
        .map_err(|_| format!("go: '{key}' needs a number, got '{}'", excerpt(text)))?;
    if !x.is_finite() {
        return Err(format!("go: '{key}' is not a finite number"));
    }
    if nonnegative && x < 0.0 {
        return Err(format!("go: '{key}' must not be negative, got '{x}'"));
    }
    let ms = x * ms_per_unit;
    if ms > MAX_CLOCK_MS as f64 {
        return Err(format!(
            "go: '{key}' is beyond the largest clock, {MAX_CLOCK_MS} ms (24.8 days); ignored"
        ));
    }
    Ok(ms.max(0.0) as u64)
}

fn bound_depth(d: i32) -> i32 {
    d.clamp(0, MAX_DEPTH)
}

/// `go mate 0` asks for nothing.
fn bound_mate(m: u32) -> Option<u32> {
    (m > 0).then(|| m.min(MAX_MATE))
}

/// `movestogo 0` is no count.
fn bound_movestogo(m: u32) -> Option<u32> {
    (m > 0).then(|| m.min(MAX_MOVESTOGO))
}

/// What [`GoRequest::settle`] decided about a `go`, for the GUI to see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// A reading the protocols allow, said as an `info`.
    Note(String),
    /// A `go` that asked for something it cannot have, said as an error.
    Error(String),
}

impl GoRequest {
    /// Set `word` from the text the GUI sent after `key` (times in units of
    /// `ms_per_unit` milliseconds). An unusable value (not a number,
    /// negative, out of range, a clock past [`MAX_CLOCK_MS`]) leaves the
    /// request as it was and says why; the rest of the `go` stands.
    pub fn set(
        &mut self,
        word: GoWord,
        key: &str,
        text: &str,
        ms_per_unit: f64,
    ) -> Result<(), String> {
        let clamp_u32 = |v: u64| v.min(u32::MAX as u64) as u32;
        match word {
            GoWord::Depth => {
                self.depth = Some(bound_depth(whole(key, text)?.min(i32::MAX as u64) as i32))
            }
            GoWord::Nodes => self.nodes = Some(whole(key, text)?),
            GoWord::Mate => self.mate = bound_mate(clamp_u32(whole(key, text)?)),
            GoWord::MovesToGo => {
                self.clock.movestogo = bound_movestogo(clamp_u32(whole(key, text)?))
            }
            GoWord::MoveTime => self.clock.movetime = Some(millis(key, text, ms_per_unit, true)?),
            GoWord::Time => self.clock.time = Some(millis(key, text, ms_per_unit, false)?),
            GoWord::Increment => self.clock.inc = millis(key, text, ms_per_unit, false)?,
            GoWord::OtherClock => {
                millis(key, text, ms_per_unit, false)?;
            }
        }
        Ok(())
    }

    /// The same request with every value in its range (for callers that
    /// fill the fields themselves; [`set`](Self::set) bounds as it goes).
    pub fn bounded(mut self) -> GoRequest {
        self.depth = self.depth.map(bound_depth);
        self.mate = self.mate.and_then(bound_mate);
        self.clock.movestogo = self.clock.movestogo.and_then(bound_movestogo);
        self.clock.time = self.clock.time.map(|t| t.min(MAX_CLOCK_MS));
        self.clock.inc = self.clock.inc.min(MAX_CLOCK_MS);
        self.clock.movetime = self.clock.movetime.map(|t| t.min(MAX_CLOCK_MS));
        self
    }

    /// The rules for what is missing, once the words are read: a clock
    /// given for the other side only means ours is empty (0 ms plus the
    /// increment, as Stockfish takes it, rather than no clock at all, which
    /// would search until stopped); a `go` some of whose words were
    /// dropped (`dropped`) and that has no limit left searches
    /// [`FALLBACK_MOVETIME_MS`] rather than for ever. Returns what it
    /// decided, for the GUI to see.
    pub fn settle(&mut self, dropped: bool, other_clock: bool, side_to_move: &str) -> Vec<Settled> {
        let mut said = Vec::new();
        if other_clock && self.clock.time.is_none() && self.clock.movetime.is_none() {
            said.push(Settled::Note(format!(
                "go: no time given for {side_to_move}, the side to move; searching with 0 ms plus increment"
            )));
            self.clock.time = Some(0);
        }
        if dropped && self.has_no_limit() && !self.infinite {
            said.push(Settled::Error(
                "go: no usable limit left; searching for 1 second".to_string(),
            ));
            self.clock.movetime = Some(FALLBACK_MOVETIME_MS);
        }
        said
    }

    /// No depth, node, mate, clock or move-time limit: such a `go` searches
    /// until told to stop, `infinite` or not.
    pub fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.clock.time.is_none()
            && self.clock.movetime.is_none()
    }

    /// The search ends only when told (`stop`, or `ponderhit` for a ponder
    /// search): infinite, pondering, or without any limit.
    pub fn ends_only_when_told(&self) -> bool {
        self.infinite || self.ponder || self.has_no_limit()
    }

    /// A game move on a clock (a `time` or a `movetime`, and no node,
    /// mate, infinite or ponder limit): what the opening book may answer.
    /// A depth beside a clock is only a cap on the search (VinXiangQi sends
    /// `go movetime X depth Y` for every move); a depth alone asks for
    /// analysis.
    pub fn is_game_move(&self) -> bool {
        self.nodes.is_none()
            && self.mate.is_none()
            && !self.infinite
            && !self.ponder
            && (self.clock.time.is_some() || self.clock.movetime.is_some())
    }

    /// May the root play `m`, by `searchmoves` and `banmoves`?
    pub fn allows(&self, m: Move) -> bool {
        (self.searchmoves.is_empty() || self.searchmoves.contains(&m))
            && !self.banmoves.contains(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edge cases of every number a `go` carries: what is kept, what
    /// is bounded, what is refused and why.
    #[test]
    fn every_bound_in_one_table() {
        use GoWord::*;
        let ok = |r: GoRequest| Ok::<GoRequest, &str>(r);
        let req = GoRequest::default;
        let clock = |c: Clock| GoRequest { clock: c, ..req() };
        let cases: &[(GoWord, &str, f64, Result<GoRequest, &str>)] = &[
            // Negative.
            (Depth, "-5", 1.0, Err("must not be negative")),
            (Nodes, "-1", 1.0, Err("must not be negative")),
            (Mate, "-1", 1.0, Err("must not be negative")),
            (MovesToGo, "-4", 1.0, Err("must not be negative")),
            (MoveTime, "-100", 1.0, Err("must not be negative")),
            (
                Time,
                "-50",
                1.0,
                ok(clock(Clock {
                    time: Some(0),
                    ..Clock::default()
                })),
            ),
            (Increment, "-5", 1.0, ok(req())),
            // Zero.
            (
                Depth,
                "0",
                1.0,
                ok(GoRequest {
                    depth: Some(0),
                    ..req()
                }),
            ),
            (
                Nodes,
                "0",
                1.0,
                ok(GoRequest {
                    nodes: Some(0),
                    ..req()
                }),
            ),
            (Mate, "0", 1.0, ok(req())),
            (MovesToGo, "0", 1.0, ok(req())),
            (
                MoveTime,
                "0",
                1.0,
                ok(clock(Clock {
                    movetime: Some(0),
                    ..Clock::default()
                })),
            ),
            // Huge.
            (
                Depth,
                "99999",
                1.0,
                ok(GoRequest {
                    depth: Some(MAX_DEPTH),
                    ..req()
                }),
            ),
            (Depth, "99999999999999999999999", 1.0, Err("out of range")),
            (
                Nodes,
                "18446744073709551615",
                1.0,
                ok(GoRequest {
                    nodes: Some(u64::MAX),
                    ..req()
                }),
            ),
            (
                Mate,
                "4294967295",
                1.0,
                ok(GoRequest {
                    mate: Some(MAX_MATE),
                    ..req()
                }),
            ),
            (
                MovesToGo,
                "5000",
                1.0,
                ok(clock(Clock {
                    movestogo: Some(MAX_MOVESTOGO),
                    ..Clock::default()
                })),
            ),
            (MoveTime, "3000000000", 1.0, Err("beyond the largest clock")),
            (Time, "1e300", 1.0, Err("beyond the largest clock")),
            (Time, "inf", 1.0, Err("not a finite number")),
            (Time, "NaN", 1.0, Err("not a finite number")),
            // UCCI seconds: 3,000,000 s is past the largest clock.
            (Time, "3000000", 1000.0, Err("beyond the largest clock")),
            (
                Time,
                "2.5",
                1000.0,
                ok(clock(Clock {
                    time: Some(2500),
                    ..Clock::default()
                })),
            ),
            // Not numbers.
            (Depth, "x", 1.0, Err("needs a number")),
            (MoveTime, "abc", 1.0, Err("needs a number")),
            (Depth, "2.5", 1.0, Err("out of range")),
            (OtherClock, "abc", 1.0, Err("needs a number")),
            (OtherClock, "1000", 1.0, ok(req())),
        ];
        for (word, text, unit, want) in cases {
            let mut r = GoRequest::default();
            let got = r.set(*word, "key", text, *unit);
            match want {
                Ok(w) => {
                    assert_eq!(got, Ok(()), "{word:?} {text}");
                    assert_eq!(&r, w, "{word:?} {text}");
                }
                Err(e) => {
                    let msg = got.expect_err(text);
                    assert!(msg.contains(e), "{word:?} {text}: {msg}");
                    assert_eq!(r, GoRequest::default(), "{word:?} {text}: left as it was");
                }
            }
        }
        // Filled by hand, the same bounds.
        let r = GoRequest {
            depth: Some(i32::MAX),
            mate: Some(0),
            clock: Clock {
                time: Some(u64::MAX),
                movestogo: Some(0),
                ..Clock::default()
            },
            ..req()
        }
        .bounded();
        assert_eq!(
            (r.depth, r.mate, r.clock.movestogo),
            (Some(MAX_DEPTH), None, None)
        );
        assert_eq!(r.clock.time, Some(MAX_CLOCK_MS));
    }

    /// Missing and contradictory: what no limit means, decided here once.
    #[test]
    fn what_a_go_without_limits_does() {
        // Nothing asked: until told to stop.
        let mut bare = GoRequest::default();
        assert!(bare.settle(false, false, "red").is_empty());
        assert!(bare.has_no_limit() && bare.ends_only_when_told());
        // Every word dropped: one second, never for ever.
        let mut garbled = GoRequest::default();
        let said = garbled.settle(true, false, "red");
        assert!(matches!(said.as_slice(), [Settled::Error(_)]));
        assert_eq!(garbled.clock.movetime, Some(FALLBACK_MOVETIME_MS));
        assert!(!garbled.ends_only_when_told());
        // A dropped word beside `infinite`: still infinite.
        let mut inf = GoRequest {
            infinite: true,
            ..GoRequest::default()
        };
        assert!(inf.settle(true, false, "red").is_empty());
        assert!(inf.ends_only_when_told());
        // The other side's clock only: ours is empty, plus our increment.
        let mut other = GoRequest::default();
        other.clock.inc = 50;
        let said = other.settle(false, true, "black");
        assert!(matches!(&said[0], Settled::Note(text) if text.contains("black")));
        assert_eq!((other.clock.time, other.clock.inc), (Some(0), 50));
        // A move time beside the other clock is our limit.
        let mut fixed = GoRequest::default();
        fixed.clock.movetime = Some(300);
        assert!(fixed.settle(false, true, "red").is_empty());
        assert_eq!(fixed.clock.time, None);
        // Pondering ends only when told, a clock ends by itself.
        let ponder = GoRequest {
            ponder: true,
            clock: Clock {
                time: Some(1000),
                ..Clock::default()
            },
            ..GoRequest::default()
        };
        assert!(!ponder.has_no_limit() && ponder.ends_only_when_told() && !ponder.is_game_move());
        let timed = GoRequest {
            depth: Some(20),
            clock: Clock {
                movetime: Some(1000),
                ..Clock::default()
            },
            ..GoRequest::default()
        };
        assert!(timed.is_game_move() && !timed.ends_only_when_told());
        assert!(
            !GoRequest {
                depth: Some(5),
                ..GoRequest::default()
            }
            .is_game_move()
        );
    }
}
