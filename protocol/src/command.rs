//! The command model shared by both dialects, and the parser from protocol
//! lines to commands. Parsing never fails hard: a malformed line becomes
//! `Command::Error` (or a command plus warnings) with a message saying what
//! was wrong.

/// Deepest `go perft` (deeper ones run for days).
pub const MAX_PERFT_DEPTH: i64 = 20;

/// Largest clock value a `go` may give, in milliseconds (about 24.8 days,
/// the most a 32-bit GUI clock holds): a `go` with a larger one is refused,
/// since its search would not end by itself in any useful time.
pub const MAX_CLOCK_MS: u64 = i32::MAX as u64;

#[derive(Clone, Debug, PartialEq)]
pub enum PositionBase {
    Start,
    Fen(String),
}

/// The numbers of a `go` line as sent (times in the dialect's unit).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    pub ponder: bool,
    pub draw: bool,
    pub infinite: bool,
    pub depth: Option<i64>,
    pub nodes: Option<u64>,
    pub mate: Option<i64>,
    pub movetime: Option<f64>,
    /// UCCI `time`, or the side to move's UCI `wtime`/`btime` (resolved later).
    pub time: Option<f64>,
    pub increment: Option<f64>,
    pub movestogo: Option<i64>,
    pub opptime: Option<f64>,
    pub oppincrement: Option<f64>,
    pub oppmovestogo: Option<i64>,
    pub wtime: Option<f64>,
    pub btime: Option<f64>,
    pub winc: Option<f64>,
    pub binc: Option<f64>,
    pub searchmoves: Vec<String>,
    pub perft: Option<i64>,
    /// `perft` came without a whole number (see the warnings): nothing is
    /// counted, and nothing searched either.
    pub bad_perft: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The hello word of a dialect (`uci`, `ucci`): speak it from now on.
    Hello(&'static str),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    BanMoves(Vec<String>),
    /// A `go`, with messages about parameters that were dropped.
    Go {
        params: Box<GoParams>,
        warnings: Vec<String>,
    },
    Stop,
    PonderHit {
        draw: bool,
    },
    Quit,
    Probe {
        base: PositionBase,
        moves: Vec<String>,
    },
    Display,
    Eval,
    Bench(Vec<String>),
    Error(String),
}

/// Shorten untrusted text for an error message.
pub fn excerpt(s: &str) -> String {
    let mut out: String = s.chars().take(60).filter(|c| !c.is_control()).collect();
    if s.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// Parse one line (already trimmed, not empty) as both dialects have it;
/// a dialect parses its own forms first (the short `setoption`).
pub fn parse(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return Command::Error("empty line".into());
    };
    let rest = &tokens[1..];
    match first.to_ascii_lowercase().as_str() {
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(rest),
        "ucinewgame" | "uccinewgame" => Command::NewGame,
        "position" => match parse_position(rest) {
            Ok((base, moves)) => Command::Position { base, moves },
            Err(e) => Command::Error(format!("position: {e}")),
        },
        // UCI "Cyclone" dialect (XBoard's uci2wb): the position without the keyword.
        "fen" | "startpos" => match parse_position(&tokens) {
            Ok((base, moves)) => Command::Position { base, moves },
            Err(e) => Command::Error(format!("{first}: {e}")),
        },
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
        "go" => {
            let (params, warnings) = parse_go(rest);
            Command::Go {
                params: Box::new(params),
                warnings,
            }
        }
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit {
            draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")),
        },
        "quit" => Command::Quit,
        // UCCI's; parsed (and answered in UCCI's words) in both dialects.
        "probe" => match parse_position(rest) {
            Ok((base, moves)) => Command::Probe { base, moves },
            Err(e) => Command::Error(format!("probe: {e}")),
        },
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(rest.iter().map(|s| s.to_string()).collect()),
        _ => Command::Error(format!("unknown command '{}'", excerpt(line))),
    }
}

/// `setoption name <N> [value <V>]` (a dialect parses its short form
/// first: [`short_setoption`]).
fn parse_setoption(rest: &[&str]) -> Command {
    if rest.is_empty() {
        return Command::Error("setoption: missing option name".into());
    }
    if rest[0].eq_ignore_ascii_case("name") {
        let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name_end = value_at.unwrap_or(rest.len());
        let name = rest[1..name_end].join(" ");
        if name.is_empty() {
            return Command::Error("setoption: missing option name".into());
        }
        let value = value_at.map(|i| rest[i + 1..].join(" "));
        return Command::SetOption { name, value };
    }
    Command::Error(format!(
        "setoption: expected 'setoption name <id> [value <x>]', got '{}'",
        excerpt(&rest.join(" "))
    ))
}

/// The short `setoption <N> [<V>]` (UCCI's own; VinXiangQi sends it in
/// either dialect), if `line` is one whose leading words `names` an option:
/// the name is the longest such run of words (so `setoption Clear Hash` and
/// `setoption Skill Level 20` name `Clear Hash` and `Skill Level`), the
/// rest, if any, the value. `None` for the long form, another command, or
/// no name `names` accepts.
pub fn short_setoption(line: &str, names: impl Fn(&str) -> bool) -> Option<Command> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let rest = match tokens.as_slice() {
        [first, rest @ ..]
            if first.eq_ignore_ascii_case("setoption")
                && rest
                    .first()
                    .is_some_and(|w| !w.eq_ignore_ascii_case("name")) =>
        {
            rest
        }
        _ => return None,
    };
    let n = (1..=rest.len())
        .rev()
        .find(|&n| names(&rest[..n].join(" ")))?;
    let value = &rest[n..];
    Some(Command::SetOption {
        name: rest[..n].join(" "),
        value: (!value.is_empty()).then(|| value.join(" ")),
    })
}

/// `startpos [moves ...]` or `fen <FEN fields> [moves ...]`.
fn parse_position(rest: &[&str]) -> Result<(PositionBase, Vec<String>), String> {
    let Some(&kind) = rest.first() else {
        return Err("expected 'startpos' or 'fen'".into());
    };
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let head_end = moves_at.unwrap_or(rest.len());
    let moves: Vec<String> = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let base = match kind.to_ascii_lowercase().as_str() {
        "startpos" => {
            if head_end > 1 {
                return Err(format!(
                    "unexpected '{}' after startpos",
                    excerpt(&rest[1..head_end].join(" "))
                ));
            }
            PositionBase::Start
        }
        "fen" => {
            if head_end < 2 {
                return Err("fen: missing FEN".into());
            }
            PositionBase::Fen(rest[1..head_end].join(" "))
        }
        other => {
            return Err(format!(
                "expected 'startpos' or 'fen', got '{}'",
                excerpt(other)
            ));
        }
    };
    Ok((base, moves))
}

/// The value of a `go` keyword, or why it is unusable: none given (the
/// line ends, or the next word is a keyword), not a number, negative or out
/// of range. Either way the keyword is dropped with a warning and the rest
/// of the `go` stands.
fn go_value<T: std::str::FromStr>(key: &str, v: Option<&&str>) -> Result<T, String> {
    let Some(t) = v.filter(|t| !is_go_keyword(t)) else {
        return Err(format!("go: '{key}' needs a value"));
    };
    t.parse::<T>().map_err(|_| {
        if t.parse::<f64>().is_ok() {
            format!("go: '{key}' is out of range: '{}'", excerpt(t))
        } else {
            format!("go: '{key}' needs a number, got '{}'", excerpt(t))
        }
    })
}

/// Report a bad value, which is then dropped.
fn report<T>(value: Result<T, String>, w: &mut Vec<String>) -> Option<T> {
    match value {
        Ok(v) => Some(v),
        Err(e) => {
            w.push(e);
            None
        }
    }
}

/// A limit (depth, nodes, mate, perft, moves to go): a whole number, not
/// negative. A missing or wrong value is reported and dropped.
fn limit<T: std::str::FromStr>(key: &str, v: Option<&&str>, w: &mut Vec<String>) -> Option<T> {
    let value = match v {
        Some(t) if t.starts_with('-') && t.parse::<f64>().is_ok() => Err(format!(
            "go: '{key}' must not be negative, got '{}'",
            excerpt(t)
        )),
        _ => go_value::<T>(key, v),
    };
    report(value, w)
}

/// A time or increment: a finite number, possibly fractional. A clock that
/// is negative (some GUIs send one after a slow move) counts as 0 later; a
/// negative `movetime` (`nonnegative`) is wrong, as is a non-numeric value.
fn time_value(key: &str, v: Option<&&str>, nonnegative: bool, w: &mut Vec<String>) -> Option<f64> {
    let value = go_value::<f64>(key, v).and_then(|x| {
        if !x.is_finite() {
            Err(format!("go: '{key}' is not a finite number"))
        } else if nonnegative && x < 0.0 {
            Err(format!("go: '{key}' must not be negative, got '{x}'"))
        } else {
            Ok(x)
        }
    });
    report(value, w)
}

/// Keywords in any order. A keyword whose value is missing, not a number,
/// negative or out of range, and an unknown word, are dropped with a
/// warning; the rest of the `go` stands (and the session answers it: a
/// `go` left with no limit searches for one second). `perft` without a
/// whole number is the exception: `bad_perft`, nothing counted.
/// `searchmoves` takes the moves up to the next keyword.
pub fn parse_go(rest: &[&str]) -> (GoParams, Vec<String>) {
    let mut p = GoParams::default();
    let mut w = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let val = rest.get(i + 1);
        let mut takes_value = true;
        let w = &mut w;
        match key.as_str() {
            "ponder" => {
                p.ponder = true;
                takes_value = false;
            }
            "draw" => {
                p.draw = true;
                takes_value = false;
            }
            "infinite" => {
                p.infinite = true;
                takes_value = false;
            }
            // UCCI's `depth infinite` (the spec's `depth <n> | infinite`).
            "depth" if val.is_some_and(|v| v.eq_ignore_ascii_case("infinite")) => {
                p.infinite = true;
            }
            "depth" => p.depth = limit(&key, val, w),
            "nodes" => p.nodes = limit(&key, val, w),
            "mate" => p.mate = limit(&key, val, w),
            "perft" => {
                // A negative depth is kept, for the session's range error.
                p.perft = report(go_value(&key, val), w);
                p.bad_perft |= p.perft.is_none();
            }
            "movetime" => p.movetime = time_value(&key, val, true, w),
            "time" => p.time = time_value(&key, val, false, w),
            "increment" => p.increment = time_value(&key, val, false, w),
            "movestogo" => p.movestogo = limit(&key, val, w),
            "opptime" => p.opptime = time_value(&key, val, false, w),
            "oppincrement" => p.oppincrement = time_value(&key, val, false, w),
            "oppmovestogo" => p.oppmovestogo = limit(&key, val, w),
            "wtime" => p.wtime = time_value(&key, val, false, w),
            "btime" => p.btime = time_value(&key, val, false, w),
            "winc" => p.winc = time_value(&key, val, false, w),
            "binc" => p.binc = time_value(&key, val, false, w),
            "searchmoves" => {
                // Moves up to the next keyword.
                let moves: Vec<String> = rest[i + 1..]
                    .iter()
                    .take_while(|t| !is_go_keyword(t))
                    .map(|s| s.to_string())
                    .collect();
                i += 1 + moves.len();
                p.searchmoves.extend(moves);
                continue;
            }
            _ => {
                w.push(format!(
                    "go: unknown parameter '{}' ignored",
                    excerpt(rest[i])
                ));
                takes_value = false;
            }
        }
        // A value that is itself a keyword was missing: do not swallow the keyword.
        if takes_value {
            if val.is_some_and(|v| v.parse::<f64>().is_ok()) {
                i += 2;
            } else {
                i += 1;
                if val.is_some_and(|v| !is_go_keyword(v)) {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    (p, w)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t.to_ascii_lowercase().as_str(),
        "ponder"
            | "draw"
            | "infinite"
            | "depth"
            | "nodes"
            | "mate"
            | "perft"
            | "movetime"
            | "time"
            | "increment"
            | "movestogo"
            | "opptime"
            | "oppincrement"
            | "oppmovestogo"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> (GoParams, Vec<String>) {
        match parse(line) {
            Command::Go { params, warnings } => (*params, warnings),
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn ucci_go_lines_from_real_clients() {
        let (p, w) = go("go time 19980 opptime 19500 oppincrement 0 increment 0");
        assert!(w.is_empty());
        assert_eq!(
            (p.time, p.opptime, p.increment, p.oppincrement),
            (Some(19980.0), Some(19500.0), Some(0.0), Some(0.0))
        );
        let (p, _) = go("go time 300000 opptime 300000 movestogo 40");
        assert_eq!(p.movestogo, Some(40));
        let (p, _) = go("go time 500 depth 10");
        assert_eq!((p.time, p.depth), (Some(500.0), Some(10)));
        let (p, _) = go("go ponder time 295000 increment 0");
        assert!(p.ponder);
        let (p, _) = go("go draw depth 3");
        assert!(p.draw);
        assert_eq!(p.depth, Some(3));
    }

    #[test]
    fn uci_go_lines() {
        let (p, w) = go("go wtime 3000 btime 3000 winc 50 binc 50");
        assert!(w.is_empty());
        assert_eq!((p.wtime, p.binc), (Some(3000.0), Some(50.0)));
        let (p, _) = go("go depth 15 movetime 500");
        assert_eq!((p.depth, p.movetime), (Some(15), Some(500.0)));
        let (p, _) = go("go infinite searchmoves h2e2 b0c2");
        assert!(p.infinite);
        assert_eq!(p.searchmoves, vec!["h2e2", "b0c2"]);
        let (p, _) = go("go perft 3");
        assert_eq!(p.perft, Some(3));
    }

    #[test]
    fn bad_go_values_are_dropped_with_a_warning() {
        let (p, w) = go("go depth");
        assert_eq!(p.depth, None);
        assert_eq!(w.len(), 1);
        let (p, w) = go("go depth x nodes 100");
        assert_eq!((p.depth, p.nodes), (None, Some(100)));
        assert_eq!(w.len(), 1);
        let (p, w) = go("go wtime btime 1000");
        assert_eq!((p.wtime, p.btime), (None, Some(1000.0)));
        assert_eq!(w.len(), 1);
        let (_, w) = go("go frobnicate 7 depth 2");
        assert!(!w.is_empty());
        let (p, _) = go("go nodes -5");
        assert_eq!(p.nodes, None);
        let (p, _) = go("go depth 99999999999999999999999");
        assert_eq!(p.depth, None);
    }

    #[test]
    fn bad_limits_are_dropped_and_the_rest_stands() {
        for (line, left) in [
            ("go depth -3", GoParams::default()),
            ("go nodes -5", GoParams::default()),
            ("go depth x", GoParams::default()),
            ("go movetime -100", GoParams::default()),
            ("go movetime abc", GoParams::default()),
            ("go mate -1", GoParams::default()),
            (
                "go movestogo -4 wtime 1000",
                GoParams {
                    wtime: Some(1000.0),
                    ..GoParams::default()
                },
            ),
            (
                "go wtime abc btime 1000",
                GoParams {
                    btime: Some(1000.0),
                    ..GoParams::default()
                },
            ),
            ("go time NaN", GoParams::default()),
            (
                "go nodes -1 depth 3",
                GoParams {
                    depth: Some(3),
                    ..GoParams::default()
                },
            ),
        ] {
            let (p, w) = go(line);
            assert_eq!(p, left, "{line}");
            assert_eq!(w.len(), 1, "{line}: {w:?}");
        }
        // A perft without a whole number counts nothing; a negative one is
        // kept for the session's range error.
        for line in ["go perft x", "go perft"] {
            let (p, w) = go(line);
            assert!(p.bad_perft && p.perft.is_none() && w.len() == 1, "{line}");
        }
        let (p, w) = go("go perft -2");
        assert!(!p.bad_perft && p.perft == Some(-2) && w.is_empty());
        // Unknown words and missing values are warned about too; negative
        // clocks are kept (they count as 0).
        let (p, w) = go("go frobnicate depth 2");
        assert!(p.depth == Some(2) && w.len() == 1);
        let (p, w) = go("go wtime btime 1000 depth");
        assert_eq!(w.len(), 2);
        assert_eq!((p.wtime, p.btime, p.depth), (None, Some(1000.0), None));
        let (p, w) = go("go wtime -50 btime 1000");
        assert!(w.is_empty());
        assert_eq!(p.wtime, Some(-50.0));
        // UCCI's `depth infinite`.
        let (p, w) = go("go depth infinite");
        assert!(p.infinite && w.is_empty());
    }

    #[test]
    fn searchmoves_end_at_the_next_keyword() {
        let (p, w) = go("go searchmoves h9g7 depth 3");
        assert!(w.is_empty());
        assert_eq!(
            (p.searchmoves, p.depth),
            (vec!["h9g7".to_string()], Some(3))
        );
        let (p, _) = go("go depth 2 searchmoves a3a4 i3i4 wtime 100 btime 100");
        assert_eq!(p.searchmoves, vec!["a3a4", "i3i4"]);
        assert_eq!(
            (p.depth, p.wtime, p.btime),
            (Some(2), Some(100.0), Some(100.0))
        );
    }

    /// The common parser has the long form only; the short one is
    /// [`short_setoption`]'s, for the names a dialect accepts.
    #[test]
    fn setoption_name_value() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(parse("setoption hashsize 64"), Command::Error(_)));
        assert!(matches!(parse("setoption"), Command::Error(_)));
    }

    /// Names of several words, as VinXiangQi sends them.
    #[test]
    fn short_setoption_takes_the_longest_name() {
        let known = |n: &str| ["Clear Hash", "Skill Level", "Hash", "Debug Log File"].contains(&n);
        let set = |name: &str, value: Option<&str>| {
            Some(Command::SetOption {
                name: name.into(),
                value: value.map(String::from),
            })
        };
        assert_eq!(
            short_setoption("setoption Hash 16", known),
            set("Hash", Some("16"))
        );
        assert_eq!(
            short_setoption("setoption Clear Hash", known),
            set("Clear Hash", None)
        );
        assert_eq!(
            short_setoption("setoption Skill Level 20", known),
            set("Skill Level", Some("20"))
        );
        assert_eq!(
            short_setoption("setoption Debug Log File /tmp/a b.log", known),
            set("Debug Log File", Some("/tmp/a b.log"))
        );
        assert_eq!(short_setoption("setoption style risky", known), None);
        assert_eq!(short_setoption("setoption name Hash value 1", known), None);
        assert_eq!(short_setoption("setoption", known), None);
        assert_eq!(short_setoption("isready", known), None);
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves h2e2 h9g7"),
            Command::Position {
                base: PositionBase::Start,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }
        );
        assert_eq!(
            parse("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves"),
            Command::Position {
                base: PositionBase::Fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert_eq!(
            parse("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2"),
            Command::Position {
                base: PositionBase::Fen(
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r".into()
                ),
                moves: vec!["h2e2".into()]
            }
        );
        assert!(matches!(parse("position"), Command::Error(_)));
        assert!(matches!(parse("position fen"), Command::Error(_)));
        assert!(matches!(parse("position foo"), Command::Error(_)));
        assert!(matches!(parse("position startpos junk"), Command::Error(_)));
    }

    #[test]
    fn unknown_and_garbage() {
        assert!(matches!(parse("frobnicate"), Command::Error(_)));
        assert!(matches!(parse("\u{1}\u{2}"), Command::Error(_)));
        assert_eq!(parse("PONDERHIT draw"), Command::PonderHit { draw: true });
    }
}
