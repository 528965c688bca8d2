//! A `go` line's words into the engine's request (`GoRequest`), and
//! nothing else: the dialects' keywords (UCCI's `time`/`opptime`, UCI's
//! `wtime`/`btime`), their clock unit and the side to move are the
//! protocol's; every bound on a value, and what a `go` without a limit
//! does, are the engine's (`GoRequest::set`, `GoRequest::settle`). Beside
//! the request: UCCI's draw offer, and a `go perft`, which is not a search.

use super::command::excerpt;
use jiangjun_engine::{GoRequest, GoWord, Settled};
use xiangqi::board::Board;
use xiangqi::types::{Color, Move};

/// A `go perft`, if the line is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perft {
    /// Not a perft: a search.
    None,
    /// Count to this depth (the session checks its range).
    Depth(i64),
    /// `perft` without a whole number: nothing counted.
    Bad,
}

/// What a `go` line asks.
#[derive(Clone, Debug, PartialEq)]
pub struct GoLine {
    pub request: GoRequest,
    /// UCCI's `go draw`: the opponent offers a draw.
    pub draw: bool,
    pub perft: Perft,
    /// Errors: each word dropped, and why (the rest of the `go` stands).
    pub errors: Vec<String>,
    /// What was decided about a missing limit, to tell the GUI.
    pub notes: Vec<String>,
}

/// What reading a `go` needs beyond its words.
pub struct GoContext<'a> {
    /// Milliseconds per clock unit (UCCI: 1000 unless `usemillisec`).
    pub ms_per_unit: f64,
    /// The position searched: the side to move, and `searchmoves`' moves.
    pub board: &'a Board,
    /// The moves `banmoves` left out (UCCI).
    pub banmoves: &'a [Move],
}

const KEYWORDS: [&str; 19] = [
    "ponder",
    "draw",
    "infinite",
    "depth",
    "nodes",
    "mate",
    "perft",
    "movetime",
    "time",
    "increment",
    "movestogo",
    "opptime",
    "oppincrement",
    "oppmovestogo",
    "wtime",
    "btime",
    "winc",
    "binc",
    "searchmoves",
];

fn is_keyword(t: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(t))
}

/// The word a keyword sets, for the side to move (`red`): the other side's
/// clock words only tell that a clock game is played (`true` beside them:
/// a time, not an increment).
fn word_of(key: &str, red: bool) -> Option<(GoWord, bool)> {
    let ours = |w: GoWord, mine: bool| {
        if mine {
            (w, false)
        } else {
            (GoWord::OtherClock, w == GoWord::Time)
        }
    };
    Some(match key {
        "depth" => (GoWord::Depth, false),
        "nodes" => (GoWord::Nodes, false),
        "mate" => (GoWord::Mate, false),
        "movestogo" => (GoWord::MovesToGo, false),
        "movetime" => (GoWord::MoveTime, false),
        "time" => (GoWord::Time, false),
        "increment" => (GoWord::Increment, false),
        "opptime" => (GoWord::OtherClock, true),
        "oppincrement" => (GoWord::OtherClock, false),
        "wtime" => ours(GoWord::Time, red),
        "btime" => ours(GoWord::Time, !red),
        "winc" => ours(GoWord::Increment, red),
        "binc" => ours(GoWord::Increment, !red),
        _ => return None,
    })
}

/// Read a `go`'s words (after `go`), keywords in any order. A keyword whose
/// value is missing or unusable, and an unknown word, are dropped with an
/// error; the rest of the `go` stands, and a `go` left with no limit by a
/// dropped word searches for a second (the engine's rule). `searchmoves`
/// takes the moves up to the next keyword.
pub fn parse_go(words: &[&str], ctx: &GoContext) -> GoLine {
    let red = ctx.board.side_to_move() == Color::Red;
    let mut request = GoRequest {
        banmoves: ctx.banmoves.to_vec(),
        ..GoRequest::default()
    };
    let (mut draw, mut perft) = (false, Perft::None);
    let mut errors = Vec::new();
    let (mut dropped, mut other_clock) = (false, false);
    let mut i = 0;
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        let value = words.get(i + 1).copied().filter(|v| !is_keyword(v));
        // A flag, or a keyword and its value (none if the next word is a
        // keyword: it is not swallowed).
        let mut step = 1 + usize::from(value.is_some());
        let mut drop = |e: String| {
            errors.push(e);
            dropped = true;
        };
        match key.as_str() {
            "ponder" => (request.ponder, step) = (true, 1),
            "draw" => (draw, step) = (true, 1),
            "infinite" => (request.infinite, step) = (true, 1),
            // UCCI's `depth infinite` (the spec's `depth <n> | infinite`).
            "depth"
                if words
                    .get(i + 1)
                    .is_some_and(|v| v.eq_ignore_ascii_case("infinite")) =>
            {
                (request.infinite, step) = (true, 2)
            }
            "perft" => {
                // A negative depth is kept, for the session's range error.
                perft = match value.map(str::parse::<i64>) {
                    Some(Ok(d)) => Perft::Depth(d),
                    _ => {
                        drop(match value {
                            None => "go: 'perft' needs a value".to_string(),
                            Some(v) => {
                                format!("go: 'perft' needs a whole number, got '{}'", excerpt(v))
                            }
                        });
                        Perft::Bad
                    }
                };
            }
            "searchmoves" => {
                let moves: Vec<&str> = words[i + 1..]
                    .iter()
                    .copied()
                    .take_while(|t| !is_keyword(t))
                    .collect();
                step = 1 + moves.len();
                for text in moves {
                    match ctx.board.parse_move(text) {
                        Ok(m) => request.searchmoves.push(m),
                        // A move that cannot be played is reported; the
                        // others are searched.
                        Err(e) => errors.push(format!("searchmoves: {}", excerpt(&e.to_string()))),
                    }
                }
            }
            // Checked like ours, then not used.
            "oppmovestogo" => match value {
                Some(v) => {
                    if let Err(e) = GoRequest::default().set(GoWord::MovesToGo, &key, v, 1.0) {
                        drop(e);
                    }
                }
                None => drop(format!("go: '{key}' needs a value")),
            },
            _ => match (word_of(&key, red), value) {
                (Some((word, other_time)), Some(v)) => {
                    // The unit applies to the times only (`GoRequest::set`).
                    match request.set(word, &key, v, ctx.ms_per_unit) {
                        Ok(()) => other_clock |= other_time,
                        Err(e) => drop(e),
                    }
                }
                (Some(_), None) => drop(format!("go: '{key}' needs a value")),
                (None, _) => {
                    drop(format!(
                        "go: unknown parameter '{}' ignored",
                        excerpt(words[i])
                    ));
                    step = 1;
                }
            },
        }
        i += step;
    }
    let side = if red { "red" } else { "black" };
    let mut notes = Vec::new();
    // A perft is not a search: no limit to settle.
    if perft == Perft::None {
        for said in request.settle(dropped, other_clock, side) {
            match said {
                Settled::Error(text) => errors.push(text),
                Settled::Note(text) => notes.push(text),
            }
        }
    }
    GoLine {
        request,
        draw,
        perft,
        errors,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::time::Clock;
    use jiangjun_engine::{FALLBACK_MOVETIME_MS, MAX_DEPTH};

    fn go_at(line: &str, unit: f64, fen: Option<&str>) -> GoLine {
        let board = match fen {
            Some(f) => Board::from_fen(f).unwrap(),
            None => Board::startpos(),
        };
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        parse_go(
            &words,
            &GoContext {
                ms_per_unit: unit,
                board: &board,
                banmoves: &[],
            },
        )
    }

    fn go(line: &str) -> GoLine {
        go_at(line, 1.0, None)
    }

    fn clock(time: Option<u64>, inc: u64) -> Clock {
        Clock {
            time,
            inc,
            ..Clock::default()
        }
    }

    #[test]
    fn ucci_go_lines_from_real_clients() {
        // Seconds, as UCCI sends them without `usemillisec`.
        let g = go_at(
            "go time 19.98 opptime 19.5 oppincrement 0 increment 0",
            1000.0,
            None,
        );
        assert!(g.errors.is_empty() && g.notes.is_empty());
        assert_eq!(g.request.clock, clock(Some(19_980), 0));
        let g = go_at("go time 300 opptime 300 movestogo 40", 1000.0, None);
        assert_eq!(g.request.clock.movestogo, Some(40));
        let g = go("go time 500 depth 10");
        assert_eq!(
            (g.request.clock.time, g.request.depth),
            (Some(500), Some(10))
        );
        assert!(go("go ponder time 295000 increment 0").request.ponder);
        let g = go("go draw depth 3");
        assert!(g.draw && g.request.depth == Some(3));
    }

    #[test]
    fn uci_go_lines_take_the_side_to_moves_clock() {
        let g = go("go wtime 3000 btime 4000 winc 50 binc 60");
        assert!(g.errors.is_empty());
        assert_eq!(g.request.clock, clock(Some(3000), 50));
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        let g = go_at("go wtime 3000 btime 4000 winc 50 binc 60", 1.0, Some(black));
        assert_eq!(g.request.clock, clock(Some(4000), 60));
        let g = go("go depth 15 movetime 500");
        assert_eq!(
            (g.request.depth, g.request.clock.movetime),
            (Some(15), Some(500))
        );
        let g = go("go infinite searchmoves h2e2 b0c2");
        assert!(g.request.infinite);
        assert_eq!(g.request.searchmoves.len(), 2);
        assert_eq!(go("go perft 3").perft, Perft::Depth(3));
    }

    /// One table of the edge cases a line can carry: negative, zero, huge,
    /// missing, contradictory; what is left of the request, and how many
    /// errors the GUI sees. (The bounds themselves are the engine's, with
    /// their own table in `search::request`.)
    #[test]
    fn every_edge_case_of_a_go_line() {
        let fallback = |r: GoRequest| GoRequest {
            clock: Clock {
                movetime: Some(FALLBACK_MOVETIME_MS),
                ..r.clock
            },
            ..r
        };
        let none = GoRequest::default;
        let cases: Vec<(&str, GoRequest, usize)> = vec![
            // Negative: dropped, and a `go` left without a limit searches 1 s.
            ("go depth -5", fallback(none()), 2),
            ("go nodes -1", fallback(none()), 2),
            ("go mate -1", fallback(none()), 2),
            ("go movetime -100", fallback(none()), 2),
            (
                "go nodes -1 depth 3",
                GoRequest {
                    depth: Some(3),
                    ..none()
                },
                1,
            ),
            (
                "go movestogo -4 wtime 1000",
                GoRequest {
                    clock: clock(Some(1000), 0),
                    ..none()
                },
                1,
            ),
            // A negative clock counts as 0 (GUIs send one after a slow move).
            (
                "go wtime -50 btime 1000",
                GoRequest {
                    clock: clock(Some(0), 0),
                    ..none()
                },
                0,
            ),
            // Zero.
            (
                "go depth 0",
                GoRequest {
                    depth: Some(0),
                    ..none()
                },
                0,
            ),
            ("go mate 0", none(), 0),
            (
                "go movestogo 0 wtime 10",
                GoRequest {
                    clock: clock(Some(10), 0),
                    ..none()
                },
                0,
            ),
            // Huge.
            (
                "go depth 99999",
                GoRequest {
                    depth: Some(MAX_DEPTH),
                    ..none()
                },
                0,
            ),
            ("go depth 99999999999999999999999", fallback(none()), 2),
            ("go movetime 3000000000", fallback(none()), 2),
            ("go time NaN", fallback(none()), 2),
            // Missing values, unknown words, not numbers.
            ("go depth", fallback(none()), 2),
            ("go movetime abc", fallback(none()), 2),
            (
                "go depth x nodes 100",
                GoRequest {
                    nodes: Some(100),
                    ..none()
                },
                1,
            ),
            (
                "go frobnicate 7 depth 2",
                GoRequest {
                    depth: Some(2),
                    ..none()
                },
                2,
            ),
            (
                "go frobnicate depth 2",
                GoRequest {
                    depth: Some(2),
                    ..none()
                },
                1,
            ),
            (
                "go wtime btime 1000 depth",
                GoRequest {
                    depth: None,
                    clock: clock(Some(0), 0),
                    ..none()
                },
                2,
            ),
            // Contradictory or partial: the other side's clock only.
            (
                "go wtime x btime 1000",
                GoRequest {
                    clock: clock(Some(0), 0),
                    ..none()
                },
                1,
            ),
            (
                "go btime 1000 winc 20",
                GoRequest {
                    clock: clock(Some(0), 20),
                    ..none()
                },
                0,
            ),
            (
                "go infinite depth 5",
                GoRequest {
                    infinite: true,
                    depth: Some(5),
                    ..none()
                },
                0,
            ),
            (
                "go depth infinite",
                GoRequest {
                    infinite: true,
                    ..none()
                },
                0,
            ),
            (
                "go frobnicate infinite",
                GoRequest {
                    infinite: true,
                    ..none()
                },
                1,
            ),
            // Nothing at all: until told to stop.
            ("go", none(), 0),
        ];
        for (line, want, errors) in cases {
            let g = go(line);
            assert_eq!(g.request, want, "{line}");
            assert_eq!(g.errors.len(), errors, "{line}: {:?}", g.errors);
        }
        // The other side's clock alone is noted, not an error.
        assert_eq!(go("go btime 1000").notes.len(), 1);
        // A perft without a whole number counts nothing; a negative one is
        // kept for the session's range error.
        for line in ["go perft x", "go perft"] {
            let g = go(line);
            assert_eq!(
                (g.perft, g.errors.len()),
                (Perft::Bad, 1),
                "{line}: {:?}",
                g.errors
            );
        }
        let g = go("go perft -2");
        assert!(g.perft == Perft::Depth(-2) && g.errors.is_empty());
    }

    #[test]
    fn searchmoves_end_at_the_next_keyword() {
        let g = go("go searchmoves h9g7 depth 3");
        // h9g7 is Black's: refused (Red moves); the depth stands.
        assert_eq!(
            (g.request.searchmoves.len(), g.request.depth, g.errors.len()),
            (0, Some(3), 1)
        );
        let g = go("go depth 2 searchmoves a3a4 i3i4 wtime 100 btime 100");
        assert_eq!(g.request.searchmoves.len(), 2);
        assert_eq!(
            (g.request.depth, g.request.clock.time),
            (Some(2), Some(100))
        );
    }
}
