//! The clocks the runner keeps: each side's time left, the `go` line that
//! tells an engine its time, and the host's steal put beside a time loss.

use crate::engine::Proto;
use crate::host;
use crate::time_control::TimeControl;
use xiangqi::types::Color;

/// A side's clock: the time left and the moves to the next time control.
#[derive(Clone, Copy)]
pub(super) struct Clock {
    pub(super) left_ms: i64,
    pub(super) moves_to_go: Option<u32>,
}

/// Plies over which a time loss is put beside the host's steal: a stall
/// some moves back can have used up the clock.
const STEAL_WINDOW_PLIES: usize = 10;

/// " (host steal N ms in the last 10 plies)", from the steal at the start
/// of each ply; empty where the host's steal cannot be read.
pub(super) fn steal_note(steal_at: &[Option<u64>]) -> String {
    let from = steal_at.len().saturating_sub(STEAL_WINDOW_PLIES);
    match (steal_at.get(from).copied().flatten(), host::steal_ms()) {
        (Some(then), Some(now)) => format!(
            " (host steal {} ms in the last {} plies)",
            now.saturating_sub(then),
            steal_at.len() - from
        ),
        _ => String::new(),
    }
}

/// The `go` line for the side to move (UCCI in seconds when `seconds`).
pub(super) fn go_line(
    proto: Proto,
    seconds: bool,
    tc: &TimeControl,
    us: Color,
    clocks: &[Clock; 2],
) -> String {
    // Whole seconds, rounded down: an engine is never told it has more
    // time (or a larger increment) than it has.
    let t = |ms: i64| -> String {
        let ms = ms.max(0);
        if proto == Proto::Ucci && seconds {
            format!("{}", ms / 1000)
        } else {
            ms.to_string()
        }
    };
    match *tc {
        TimeControl::Clock { inc_ms, .. } => {
            let me = &clocks[us.index()];
            let them = &clocks[us.flip().index()];
            let inc = inc_ms as i64;
            match proto {
                Proto::Uci => {
                    let (red, black) = (&clocks[0], &clocks[1]);
                    let mut s = format!(
                        "go wtime {} btime {} winc {} binc {}",
                        t(red.left_ms),
                        t(black.left_ms),
                        t(inc),
                        t(inc)
                    );
                    if let Some(m) = me.moves_to_go {
                        s.push_str(&format!(" movestogo {m}"));
                    }
                    s
                }
                Proto::Ucci => {
                    let mut s = format!("go time {}", t(me.left_ms));
                    match me.moves_to_go {
                        Some(m) => s.push_str(&format!(" movestogo {m}")),
                        None => s.push_str(&format!(" increment {}", t(inc))),
                    }
                    s.push_str(&format!(" opptime {}", t(them.left_ms)));
                    match them.moves_to_go {
                        Some(m) => s.push_str(&format!(" oppmovestogo {m}")),
                        None => s.push_str(&format!(" oppincrement {}", t(inc))),
                    }
                    s
                }
            }
        }
        TimeControl::MoveTime(ms) => match proto {
            Proto::Uci => format!("go movetime {ms}"),
            Proto::Ucci => format!("go time {} movestogo 1", t(ms as i64)),
        },
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines() {
        let clocks = [
            Clock {
                left_ms: 9000,
                moves_to_go: None,
            },
            Clock {
                left_ms: 8000,
                moves_to_go: None,
            },
        ];
        let tc = TimeControl::Clock {
            base_ms: 10000,
            inc_ms: 100,
            moves: None,
        };
        assert_eq!(
            go_line(Proto::Uci, false, &tc, Color::Black, &clocks),
            "go wtime 9000 btime 8000 winc 100 binc 100"
        );
        assert_eq!(
            go_line(Proto::Ucci, false, &tc, Color::Black, &clocks),
            "go time 8000 increment 100 opptime 9000 oppincrement 100"
        );
        assert_eq!(
            go_line(
                Proto::Ucci,
                true,
                &TimeControl::MoveTime(2500),
                Color::Red,
                &clocks
            ),
            "go time 2 movestogo 1"
        );
        // Seconds round down: 10 ms of increment is none, 999 ms is 0 s.
        let short = [
            Clock {
                left_ms: 999,
                moves_to_go: None,
            },
            Clock {
                left_ms: 1500,
                moves_to_go: None,
            },
        ];
        let fast = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 10,
            moves: None,
        };
        assert_eq!(
            go_line(Proto::Ucci, true, &fast, Color::Red, &short),
            "go time 0 increment 0 opptime 1 oppincrement 0"
        );
        assert_eq!(
            go_line(Proto::Ucci, false, &fast, Color::Red, &short),
            "go time 999 increment 10 opptime 1500 oppincrement 10"
        );
    }
}
