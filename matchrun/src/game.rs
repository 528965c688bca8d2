//! One game between two engine processes: the runner keeps the clocks,
//! checks every move, rules on the game with `rules::judge`, and applies the
//! optional score adjudication.

use crate::engine::{Engine, Failure, Proto};
use crate::kv::{KeyValueError, KeyValues};
use crate::pgn::{GameRecord, MoveRecord};
use crate::time_control::TimeControl;
use std::time::{Duration, Instant};
use xiangqi::board::Board;
use xiangqi::rules::{self, Outcome};
use xiangqi::types::{Color, Move};

/// Resign adjudication: the game is lost for a side when, for `moves`
/// moves of each side, its score is at most -`score` and the opponent's at
/// least `score` (`--resign movecount=N,score=CP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
}

/// Draw adjudication: the game is drawn after `after_move` moves when both
/// sides' scores stay within +-`score` for `moves` moves each
/// (`--draw movenumber=N,movecount=M,score=CP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub after_move: u32,
    pub moves: u32,
    pub score: i32,
}

impl ResignRule {
    /// Parse `movecount=N,score=CP` (defaults 3 and 1000).
    pub fn parse(text: &str) -> Result<ResignRule, KeyValueError> {
        let kv = KeyValues::parse(text, &["movecount", "score"])?;
        Ok(ResignRule {
            moves: kv.number_or("movecount", 3)?,
            score: kv.number_or("score", 1000)?,
        })
    }
}

impl DrawRule {
    /// Parse `movenumber=N,movecount=M,score=CP` (defaults 40, 8 and 10).
    pub fn parse(text: &str) -> Result<DrawRule, KeyValueError> {
        let kv = KeyValues::parse(text, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            after_move: kv.number_or("movenumber", 40)?,
            moves: kv.number_or("movecount", 8)?,
            score: kv.number_or("score", 10)?,
        })
    }
}

/// Score adjudication settings (engine scores in centipawns, own side's view).
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// How many moves in a row each side's score has met each adjudication rule.
#[derive(Debug, Default)]
struct ScoreRuns {
    losing: [u32; 2],
    winning: [u32; 2],
    quiet: [u32; 2],
}

impl ScoreRuns {
    /// Count the score of the move `side` just played (`None`: no score).
    fn record(&mut self, adj: &Adjudication, side: usize, score: Option<i32>) {
        let Some(sc) = score.map(i64::from) else {
            self.losing[side] = 0;
            self.winning[side] = 0;
            self.quiet[side] = 0;
            return;
        };
        let run = |n: u32, kept: bool| if kept { n.saturating_add(1) } else { 0 };
        if let Some(r) = adj.resign {
            let limit = i64::from(r.score);
            self.losing[side] = run(self.losing[side], sc <= -limit);
            self.winning[side] = run(self.winning[side], sc >= limit);
        }
        if let Some(d) = adj.draw {
            self.quiet[side] = run(self.quiet[side], sc.abs() <= i64::from(d.score));
        }
    }

    /// The side (colour index) the resign rule gives the game against;
    /// `mover` just moved.
    fn resign_loser(&self, rule: ResignRule, mover: usize) -> Option<usize> {
        let other = 1 - mover;
        let mut loser = None;
        for (l, w) in [(mover, other), (other, mover)] {
            if self.losing[l] >= rule.moves && self.winning[w] >= rule.moves {
                loser = Some(l);
            }
        }
        loser
    }

    fn both_quiet(&self, rule: DrawRule) -> bool {
        self.quiet[0] >= rule.moves && self.quiet[1] >= rule.moves
    }
}

/// Settings of a game but its time controls.
#[derive(Clone, Debug)]
pub struct GameConfig {
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

impl Default for GameConfig {
    /// 100 ms tolerance, 60 s hang timeout, threefold repetition, no
    /// adjudication, a draw at 1000 plies.
    fn default() -> GameConfig {
        GameConfig {
            tolerance: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(60),
            fold: 3,
            adjudication: Adjudication::default(),
            max_plies: 1000,
        }
    }
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

/// Play a game from `fen`; `engines[0]` plays Red, with the time control
/// `tc[0]`. `round` is the game's number in the PGN.
pub fn play(
    engines: [&mut Engine; 2],
    fen: &str,
    tc: &[TimeControl; 2],
    cfg: &GameConfig,
    round: usize,
) -> Played {
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
        time_control: if tc[0] == tc[1] {
            tc[0].to_string()
        } else {
            format!("{} vs {}", tc[0], tc[1])
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
    let mut clocks: [Clock; 2] = std::array::from_fn(|i| match tc[i] {
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
    let mut runs = ScoreRuns::default();
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
            &tc[s],
            us,
            &clocks,
        );
        let wait = match tc[s] {
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
                let timed = !matches!(tc[s], TimeControl::Nodes(_) | TimeControl::Depth(_));
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
        match tc[s] {
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
        let adj = &cfg.adjudication;
        runs.record(adj, s, reply.score);
        if let Some(rule) = adj.resign
            && let Some(l) = runs.resign_loser(rule, s)
        {
            lose(
                &mut rec,
                Color::from_index(l),
                &names,
                "adjudication",
                "both engines agree the game is lost".into(),
            );
            break;
        }
        if let Some(rule) = adj.draw
            && board.fullmove().saturating_sub(start_fullmove) >= rule.after_move
            && runs.both_quiet(rule)
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
    fn adjudication_rules() {
        assert_eq!(
            ResignRule::parse("movecount=5").unwrap(),
            ResignRule {
                moves: 5,
                score: 1000
            }
        );
        assert_eq!(
            DrawRule::parse("").unwrap(),
            DrawRule {
                after_move: 40,
                moves: 8,
                score: 10
            }
        );
        assert_eq!(
            ResignRule::parse("movecount=5,scor=3")
                .unwrap_err()
                .to_string(),
            "unknown key 'scor' (expected one of movecount, score)"
        );
        assert_eq!(
            DrawRule::parse("score=x").unwrap_err().to_string(),
            "score: 'x' is not a number"
        );
    }

    #[test]
    fn score_runs_take_any_score() {
        let adj = Adjudication {
            resign: Some(ResignRule {
                moves: 2,
                score: 500,
            }),
            draw: Some(DrawRule {
                after_move: 0,
                moves: 2,
                score: 10,
            }),
        };
        let mut runs = ScoreRuns::default();
        for (side, score) in [(0, -600), (1, 700), (0, -900), (1, 800)] {
            runs.record(&adj, side, Some(score));
        }
        assert_eq!(runs.resign_loser(adj.resign.unwrap(), 1), Some(0));
        runs.record(&adj, 0, None);
        assert_eq!(runs.resign_loser(adj.resign.unwrap(), 0), None);
        // Extreme scores and limits neither overflow nor panic.
        let adj = Adjudication {
            resign: Some(ResignRule {
                moves: 1,
                score: i32::MIN,
            }),
            draw: Some(DrawRule {
                after_move: 0,
                moves: 1,
                score: i32::MAX,
            }),
        };
        let mut runs = ScoreRuns::default();
        runs.record(&adj, 0, Some(i32::MIN));
        runs.record(&adj, 1, Some(i32::MAX));
        assert_eq!(runs.quiet, [0, 1]);
        assert!(runs.resign_loser(adj.resign.unwrap(), 1).is_some());
        let mut runs = ScoreRuns {
            quiet: [u32::MAX; 2],
            ..ScoreRuns::default()
        };
        runs.record(&adj, 0, Some(0));
        assert_eq!(runs.quiet[0], u32::MAX);
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
