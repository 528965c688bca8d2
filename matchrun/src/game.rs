//! One game between two engine processes: the runner keeps the clocks,
//! checks every move, rules on the game with `rules::judge`, and applies the
//! optional score adjudication.

use crate::engine::{Engine, Failure, Proto};
use crate::pgn::{GameRecord, MoveRecord};
use std::time::{Duration, Instant};
use xiangqi::board::Board;
use xiangqi::rules::{self, Outcome};
use xiangqi::types::{Color, Move};

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

impl TimeControl {
    /// Parse `10+0.1`, `60`, `40/60`, `40/60+0.5`, `st=0.5`, `nodes=5000`, `depth=6`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let secs = |s: &str| -> Result<u64, String> {
            let v: f64 = s
                .parse()
                .map_err(|_| format!("time control: '{s}' is not a number"))?;
            if !(0.0..1e7).contains(&v) {
                return Err(format!("time control: '{s}' is out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        if let Some(v) = text.strip_prefix("st=") {
            return Ok(TimeControl::MoveTime(secs(v)?.max(1)));
        }
        if let Some(v) = text.strip_prefix("nodes=") {
            return v
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(TimeControl::Nodes)
                .ok_or_else(|| format!("time control: bad node count '{v}'"));
        }
        if let Some(v) = text.strip_prefix("depth=") {
            return v
                .parse()
                .ok()
                .filter(|&d| (1..=100).contains(&d))
                .map(TimeControl::Depth)
                .ok_or_else(|| format!("time control: bad depth '{v}'"));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| format!("time control: bad move count '{m}'"))?,
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
            return Err("time control: the base time must be positive".into());
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

/// Score adjudication settings (engine scores in centipawns, own side's view).
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    /// Resign when, for this many moves of each side, the loser's score is
    /// at most -score and the winner's at least +score.
    pub resign: Option<(u32, i32)>,
    /// Draw after this move number when both sides' scores stay within
    /// +-score for this many moves each.
    pub draw: Option<(u32, u32, i32)>,
}

#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Time control of Red and of Black.
    pub tc: [TimeControl; 2],
    /// Extra time an engine may use beyond its clock before it loses on time.
    pub tolerance: Duration,
    /// How long a node- or depth-limited search may take before it counts as a hang.
    pub hang_timeout: Duration,
    /// Occurrences of a position that end the game by repetition.
    pub fold: usize,
    pub adjudication: Adjudication,
    /// Safety net: the game is drawn after this many plies.
    pub max_plies: usize,
}

/// The end of a game: the result and which engines misbehaved (to restart).
pub struct Played {
    pub record: GameRecord,
    /// Engines (by colour index) that crashed or hung: restart them.
    pub broken: [bool; 2],
}

struct Clock {
    left_ms: i64,
    moves_to_go: Option<u32>,
}

/// Play a game from `fen`; `engines[0]` plays Red.
pub fn play(engines: [&mut Engine; 2], fen: &str, cfg: &GameConfig, round: usize) -> Played {
    let names = [engines[0].spec.name.clone(), engines[1].spec.name.clone()];
    let mut rec = GameRecord {
        round,
        red: names[0].clone(),
        black: names[1].clone(),
        fen: fen.to_string(),
        moves: Vec::new(),
        result: "*",
        termination: "unterminated",
        reason: String::new(),
        time_control: if cfg.tc[0] == cfg.tc[1] {
            cfg.tc[0].to_string()
        } else {
            format!("{} vs {}", cfg.tc[0], cfg.tc[1])
        },
    };
    let mut broken = [false; 2];
    let mut board = match Board::from_fen(fen) {
        Ok(b) => b,
        Err(e) => {
            rec.result = "*";
            rec.termination = "abandoned";
            rec.reason = format!("bad opening FEN: {e}");
            return Played {
                record: rec,
                broken,
            };
        }
    };
    let mut engines = engines;
    for (i, e) in engines.iter_mut().enumerate() {
        if let Err(f) = e.new_game() {
            let loser = Color::from_index(i);
            end_by_failure(&mut rec, loser, &names, f, "starting a new game");
            broken[i] = true;
            return Played {
                record: rec,
                broken,
            };
        }
    }
    let mut clocks: [Clock; 2] = std::array::from_fn(|i| match cfg.tc[i] {
        TimeControl::Clock { base_ms, moves, .. } => Clock {
            left_ms: base_ms as i64,
            moves_to_go: moves,
        },
        _ => Clock {
            left_ms: 0,
            moves_to_go: None,
        },
    });
    // The position sent to the engines: the last irreversible one and the moves since.
    let mut base_fen = fen.to_string();
    let mut since: Vec<Move> = Vec::new();
    let mut losing = [0u32; 2];
    let mut winning = [0u32; 2];
    let mut quiet = [0u32; 2];
    let start_fullmove = board.fullmove();
    loop {
        match rules::judge(&board, cfg.fold) {
            Outcome::Ongoing => {}
            Outcome::Win(c, reason) => {
                rec.result = if c == Color::Red { "1-0" } else { "0-1" };
                rec.termination = "normal";
                rec.reason = format!("{} wins by {reason}", names[c.index()]);
                break;
            }
            Outcome::Draw(reason) => {
                rec.result = "1/2-1/2";
                rec.termination = "normal";
                rec.reason = format!("draw by {reason}");
                break;
            }
        }
        if rec.moves.len() >= cfg.max_plies {
            rec.result = "1/2-1/2";
            rec.termination = "adjudication";
            rec.reason = format!("draw: game reached {} plies", cfg.max_plies);
            break;
        }
        let us = board.side_to_move();
        let s = us.index();
        let go = go_line(
            engines[s].spec.proto,
            engines[s].spec.ucci_seconds,
            &cfg.tc[s],
            us,
            &clocks,
        );
        let wait = match cfg.tc[s] {
            TimeControl::Clock { .. } => {
                Duration::from_millis(clocks[s].left_ms.max(0) as u64) + cfg.tolerance
            }
            TimeControl::MoveTime(ms) => Duration::from_millis(ms) + cfg.tolerance,
            _ => cfg.hang_timeout,
        };
        if let Err(f) = engines[s].position(&base_fen, &since) {
            end_by_failure(&mut rec, us, &names, f, "sending the position");
            broken[s] = true;
            break;
        }
        let reply = match engines[s].go(&go, Instant::now() + wait) {
            Ok(r) => r,
            Err(f) => {
                let timed = !matches!(cfg.tc[s], TimeControl::Nodes(_) | TimeControl::Depth(_));
                if matches!(f, Failure::Timeout) && timed {
                    lose(&mut rec, us, &names, "time forfeit", "lost on time".into());
                } else {
                    end_by_failure(&mut rec, us, &names, f, "thinking");
                }
                broken[s] = true;
                break;
            }
        };
        let used = reply.elapsed.as_millis() as i64;
        match cfg.tc[s] {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let c = &mut clocks[s];
                c.left_ms -= used;
                if c.left_ms < -(cfg.tolerance.as_millis() as i64) {
                    lose(
                        &mut rec,
                        us,
                        &names,
                        "time forfeit",
                        format!("lost on time ({} ms over)", -c.left_ms),
                    );
                    break;
                }
                c.left_ms = c.left_ms.max(0) + inc_ms as i64;
                if let (Some(m), Some(n)) = (moves, c.moves_to_go.as_mut()) {
                    *n -= 1;
                    if *n == 0 {
                        *n = m;
                        c.left_ms += base_ms as i64;
                    }
                }
            }
            TimeControl::MoveTime(ms) if used > (ms + cfg.tolerance.as_millis() as u64) as i64 => {
                lose(
                    &mut rec,
                    us,
                    &names,
                    "time forfeit",
                    format!("took {used} ms of {ms} ms"),
                );
                break;
            }
            _ => {}
        }
        if reply.resign {
            lose(&mut rec, us, &names, "normal", "resigns".into());
            break;
        }
        let Some(text) = reply.mv else {
            lose(
                &mut rec,
                us,
                &names,
                "rules infraction",
                "gave no move with legal moves left".into(),
            );
            break;
        };
        let mv = match board.parse_move(&text) {
            Ok(m) => m,
            Err(_) => {
                lose(
                    &mut rec,
                    us,
                    &names,
                    "rules infraction",
                    format!("illegal move {text}"),
                );
                break;
            }
        };
        let capture = board.piece_at(mv.to()).is_some();
        board.make_move(mv);
        rec.moves.push(MoveRecord {
            mv,
            score: reply.score,
            depth: reply.depth,
            millis: used.max(0) as u64,
        });
        if capture {
            base_fen = board.to_fen();
            since.clear();
        } else {
            since.push(mv);
        }
        // Score adjudication.
        if let Some(sc) = reply.score {
            let adj = &cfg.adjudication;
            if let Some((_, limit)) = adj.resign {
                losing[s] = if sc <= -limit { losing[s] + 1 } else { 0 };
                winning[s] = if sc >= limit { winning[s] + 1 } else { 0 };
            }
            if let Some((_, _, limit)) = adj.draw {
                quiet[s] = if sc.abs() <= limit { quiet[s] + 1 } else { 0 };
            }
        } else {
            losing[s] = 0;
            winning[s] = 0;
            quiet[s] = 0;
        }
        if let Some((count, _)) = cfg.adjudication.resign {
            let o = 1 - s;
            for (l, w) in [(s, o), (o, s)] {
                if losing[l] >= count && winning[w] >= count {
                    let loser = Color::from_index(l);
                    lose(
                        &mut rec,
                        loser,
                        &names,
                        "adjudication",
                        "both engines agree the game is lost".into(),
                    );
                }
            }
            if rec.result != "*" {
                break;
            }
        }
        if let Some((movenumber, count, _)) = cfg.adjudication.draw
            && board.fullmove().saturating_sub(start_fullmove) >= movenumber
            && quiet[0] >= count
            && quiet[1] >= count
        {
            rec.result = "1/2-1/2";
            rec.termination = "adjudication";
            rec.reason = "draw: both engines' scores stayed near zero".into();
            break;
        }
    }
    Played {
        record: rec,
        broken,
    }
}

fn lose(
    rec: &mut GameRecord,
    loser: Color,
    names: &[String; 2],
    termination: &'static str,
    what: String,
) {
    rec.result = if loser == Color::Red { "0-1" } else { "1-0" };
    rec.termination = termination;
    rec.reason = format!("{} {what}", names[loser.index()]);
}

fn end_by_failure(
    rec: &mut GameRecord,
    loser: Color,
    names: &[String; 2],
    f: Failure,
    doing: &str,
) {
    match f {
        Failure::Crash(why) => lose(
            rec,
            loser,
            names,
            "abandoned",
            format!("crashed while {doing}: {why}"),
        ),
        Failure::Timeout => lose(
            rec,
            loser,
            names,
            "abandoned",
            format!("hung while {doing}"),
        ),
    }
}

/// The `go` line for the side to move.
fn go_line(
    proto: Proto,
    seconds: bool,
    tc: &TimeControl,
    us: Color,
    clocks: &[Clock; 2],
) -> String {
    let t = |ms: i64| -> String {
        let ms = ms.max(0);
        if proto == Proto::Ucci && seconds {
            format!("{}", (ms / 1000).max(1))
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
    }
}
