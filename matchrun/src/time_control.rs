//! Time controls: a clock (`base+inc`, `moves/base+inc`), a fixed time per
//! move, or a node or depth limit.

use crate::kv::{KeyValueError, KeyValues};
use thiserror::Error;

/// A time control, as `--tc` gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// `base+inc` or `moves/base+inc` (seconds on the command line).
    Clock {
        base_ms: u64,
        inc_ms: u64,
        moves: Option<u32>,
    },
    /// `st=SECONDS`: a fixed time per move.
    MoveTime(u64),
    /// `nodes=N`.
    Nodes(u64),
    /// `depth=N`.
    Depth(u32),
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeControlError {
    #[error("time control: '{0}' is not a number")]
    NotANumber(String),
    #[error("time control: '{0}' is out of range")]
    OutOfRange(String),
    #[error("time control: bad node count '{0}'")]
    Nodes(String),
    #[error("time control: bad depth '{0}'")]
    Depth(String),
    #[error("time control: bad move count '{0}'")]
    MoveCount(String),
    #[error("time control: the base time must be positive")]
    ZeroBase,
    #[error("time control: {0}")]
    Keyed(#[from] KeyValueError),
    #[error("time control: give one of st=, nodes=, depth=")]
    SeveralKeys,
}

impl TimeControl {
    /// Parse `10+0.1`, `60`, `40/60`, `40/60+0.5`, `st=0.5`, `nodes=5000`, `depth=6`.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let secs = |s: &str| -> Result<u64, TimeControlError> {
            let v: f64 = s
                .parse()
                .map_err(|_| TimeControlError::NotANumber(s.to_string()))?;
            if !(0.0..1e7).contains(&v) {
                return Err(TimeControlError::OutOfRange(s.to_string()));
            }
            Ok((v * 1000.0).round() as u64)
        };
        if text.contains('=') {
            let kv = KeyValues::parse(text, &["st", "nodes", "depth"])?;
            let &[(key, v)] = kv.pairs() else {
                return Err(TimeControlError::SeveralKeys);
            };
            return match key {
                "st" => Ok(TimeControl::MoveTime(secs(v)?.max(1))),
                "nodes" => v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .map(TimeControl::Nodes)
                    .ok_or_else(|| TimeControlError::Nodes(v.to_string())),
                _ => v
                    .parse()
                    .ok()
                    .filter(|&d| (1..=100).contains(&d))
                    .map(TimeControl::Depth)
                    .ok_or_else(|| TimeControlError::Depth(v.to_string())),
            };
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| TimeControlError::MoveCount(m.to_string()))?,
                ),
                r,
            ),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (secs(b)?, secs(i)?),
            None => (secs(rest)?, 0),
        };
        if base == 0 {
            return Err(TimeControlError::ZeroBase);
        }
        Ok(TimeControl::Clock {
            base_ms: base,
            inc_ms: inc,
            moves,
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |ms: u64| {
            let v = ms as f64 / 1000.0;
            format!("{v}")
        };
        match self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", s(*base_ms))?;
                if *inc_ms > 0 {
                    write!(f, "+{}", s(*inc_ms))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(ms) => write!(f, "st={}", s(*ms)),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock {
                base_ms: 10000,
                inc_ms: 100,
                moves: None
            }
        );
        assert_eq!(
            TimeControl::parse("40/60").unwrap(),
            TimeControl::Clock {
                base_ms: 60000,
                inc_ms: 0,
                moves: Some(40)
            }
        );
        assert_eq!(
            TimeControl::parse("st=0.5").unwrap(),
            TimeControl::MoveTime(500)
        );
        assert_eq!(
            TimeControl::parse("nodes=5000").unwrap(),
            TimeControl::Nodes(5000)
        );
        assert_eq!(
            TimeControl::parse("depth=6").unwrap(),
            TimeControl::Depth(6)
        );
        for bad in [
            "", "x", "0", "10+x", "0/10", "nodes=0", "depth=0", "-5", "st=abc",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
        assert_eq!(
            TimeControl::parse("40/60+0.5").unwrap().to_string(),
            "40/60+0.5"
        );
    }

    #[test]
    fn keyed_time_controls_are_checked() {
        assert_eq!(
            TimeControl::parse("x=5").unwrap_err().to_string(),
            "time control: unknown key 'x' (expected one of st, nodes, depth)"
        );
        assert_eq!(
            TimeControl::parse("nodes=5,depth=3")
                .unwrap_err()
                .to_string(),
            "time control: give one of st=, nodes=, depth="
        );
        assert_eq!(
            TimeControl::parse("depth=0").unwrap_err().to_string(),
            "time control: bad depth '0'"
        );
    }
}
