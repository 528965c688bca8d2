//! The command model shared by both dialects, and the parser from protocol
//! lines to commands. Parsing never fails hard: a malformed line becomes
//! `Command::Error` (or a command plus warnings) with a message saying what
//! was wrong.

/// Deepest `go perft` (deeper ones run for days).
pub const MAX_PERFT_DEPTH: i64 = 20;

#[derive(Clone, Debug, PartialEq)]
pub enum PositionBase {
    Start,
    Fen(String),
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
    /// A `go` and its words, read where the position and the dialect's
    /// clock unit are known (`crate::go_line`).
    Go(Vec<String>),
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
pub use jiangjun_engine::excerpt;

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
        "go" => Command::Go(rest.iter().map(|s| s.to_string()).collect()),
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

#[cfg(test)]
mod tests {
    use super::*;

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
