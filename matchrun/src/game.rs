//! One game between two engine processes: the runner keeps the clocks,
//! checks every move, rules on the game with `rules::judge`, and applies the
//! optional score adjudication.
//!
//! An engine whose spec ponders thinks on its expected reply (the `ponder`
//! move of its `bestmove`) during the opponent's turn, as GUIs do: `position
//! ... X Y` and `go ponder` with the clocks after its move X; then
//! `ponderhit` if the opponent plays Y, its clock running from there, or
//! `stop` (the answer dropped) and a new `go` if not, its clock running from
//! the opponent's move.

use crate::engine::{Engine, Failure, Proto, Reply};
use crate::host;
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

impl GameConfig {
    /// How long an engine may take to answer `stop` before it counts as hung.
    pub fn stop_grace(&self) -> Duration {
        self.hang_timeout
            .clamp(Duration::from_millis(100), Duration::from_secs(5))
    }
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

#[derive(Clone, Copy)]
struct Clock {
    left_ms: i64,
    moves_to_go: Option<u32>,
}

/// Play a game from `fen`; `engines[0]` plays Red, with the time control
/// `tc[0]` and the options `options[0]` (set before the new game, see
/// [`Engine::new_game`]). `round` is the game's number in the PGN.
pub fn play(
    engines: [&mut Engine; 2],
    fen: &str,
    tc: &[TimeControl; 2],
    cfg: &GameConfig,
    round: usize,
    options: [&[(String, String)]; 2],
) -> Played {
    let names = [engines[0].spec.name.clone(), engines[1].spec.name.clone()];
    let mut rec = GameRecord {
        round,
        opening: None,
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
        options: std::array::from_fn(|i| {
            options[i]
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        }),
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
    let [red, black] = engines;
    for (i, e) in [&mut *red, &mut *black].into_iter().enumerate() {
        if let Err(f) = e.new_game(options[i]) {
            let loser = Color::from_index(i);
            end_by_failure(&mut rec, loser, &names, f, "starting a new game");
            broken[i] = true;
            return Played {
                record: rec,
                broken,
            };
        }
    }
    let grace = cfg.stop_grace();
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
    let ponders: [bool; 2] = std::array::from_fn(|i| {
        let spec = if i == 0 { &red.spec } else { &black.spec };
        spec.ponder && matches!(tc[i], TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    });
    // The position sent to the engines: the last irreversible one and the moves since.
    let mut base_fen = fen.to_string();
    let mut since: Vec<Move> = Vec::new();
    let mut runs = ScoreRuns::default();
    let start_fullmove = board.fullmove();
    // The reply each side expects, to ponder on once the game goes on, and
    // the move each side's running ponder search is on.
    let mut to_ponder: [Option<Move>; 2] = [None, None];
    let mut pondering: [Option<Move>; 2] = [None, None];
    // The host's steal at the start of each ply, to tell time losses the
    // hypervisor caused (see `host`).
    let mut steal_at: Vec<Option<u64>> = Vec::new();
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
        let (mover, other) = if s == 0 {
            (&mut *red, &mut *black)
        } else {
            (&mut *black, &mut *red)
        };
        // The side that just moved ponders on the reply it expects, once
        // the side to move thinks.
        let ponder_other = to_ponder[1 - s].take().map(|y| {
            let them = us.flip();
            let go = go_line(
                other.spec.proto,
                other.spec.ucci_seconds,
                &tc[them.index()],
                them,
                &clocks,
            );
            let mut moves = since.clone();
            moves.push(y);
            (y, moves, format!("go ponder{}", &go[2..]))
        });
        // The `go` line when `spent` ms of our clock are gone already.
        let (proto, seconds) = (mover.spec.proto, mover.spec.ucci_seconds);
        let go = |spent: i64| {
            let mut now = clocks;
            now[s].left_ms -= spent;
            let tc_now = match tc[s] {
                TimeControl::MoveTime(ms) => TimeControl::MoveTime(ms.saturating_sub(spent as u64)),
                ref t => t.clone(),
            };
            go_line(proto, seconds, &tc_now, us, &now)
        };
        let wait = match tc[s] {
            TimeControl::Clock { .. } => {
                Duration::from_millis(clocks[s].left_ms.max(0) as u64) + cfg.tolerance
            }
            TimeControl::MoveTime(ms) => Duration::from_millis(ms) + cfg.tolerance,
            _ => cfg.hang_timeout,
        };
        // Our clock runs from here (the opponent's move).
        let t0 = Instant::now();
        steal_at.push(host::steal_ms());
        let asked = Asked {
            pondered: pondering[s].take(),
            last: rec.moves.last().map(|r| r.mv),
            base_fen: &base_fen,
            since: &since,
            go: &go,
            t0,
            deadline: t0 + wait,
            grace,
            ponder_other: ponder_other.as_ref().map(|(_, m, g)| (&m[..], g.as_str())),
        };
        let (result, other_ponders) = think(mover, other, &asked);
        if other_ponders {
            pondering[1 - s] = ponder_other.map(|(y, _, _)| y);
        }
        let reply = match result {
            Ok(r) => r,
            Err((f, doing)) => {
                let timed = !matches!(tc[s], TimeControl::Nodes(_) | TimeControl::Depth(_));
                if matches!(f, Failure::Timeout) && timed {
                    let what = format!("lost on time{}", steal_note(&steal_at));
                    lose(&mut rec, us, &names, "time forfeit", what);
                } else {
                    end_by_failure(&mut rec, us, &names, f, doing);
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
                        format!(
                            "lost on time ({} ms over){}",
                            -c.left_ms,
                            steal_note(&steal_at)
                        ),
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
        // A ponder move that is not legal is not pondered on.
        if ponders[s] {
            to_ponder[s] = reply
                .ponder
                .as_deref()
                .and_then(|p| board.parse_move(p).ok());
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
    // Ponder searches still running end with the game.
    for (i, e) in [red, black].into_iter().enumerate() {
        if e.searching() && e.cancel(grace).is_err() {
            broken[i] = true;
        }
    }
    Played {
        record: rec,
        broken,
    }
}

/// What the side to move is asked.
struct Asked<'a> {
    /// The move its ponder search is on, if one runs.
    pondered: Option<Move>,
    /// The opponent's last move.
    last: Option<Move>,
    base_fen: &'a str,
    since: &'a [Move],
    /// The `go` line, given the milliseconds of its clock already used.
    go: &'a dyn Fn(i64) -> String,
    /// Its clock starts here.
    t0: Instant,
    deadline: Instant,
    grace: Duration,
    /// The opponent's ponder search to start (its moves and `go ponder` line).
    ponder_other: Option<(&'a [Move], &'a str)>,
}

/// Get the move of `mover`: a ponder hit goes on with the running search,
/// a miss stops it and searches anew. Then the opponent's ponder search
/// starts (the bool: it did), and its output is taken while `mover` thinks.
/// A failure comes with what the engine was doing.
fn think(
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

/// Plies over which a time loss is put beside the host's steal: a stall
/// some moves back can have used up the clock.
const STEAL_WINDOW_PLIES: usize = 10;

/// " (host steal N ms in the last 10 plies)", from the steal at the start
/// of each ply; empty where the host's steal cannot be read.
fn steal_note(steal_at: &[Option<u64>]) -> String {
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
        Failure::Hung => lose(
            rec,
            loser,
            names,
            "abandoned",
            format!("hung while {doing} (no answer to stop)"),
        ),
    }
}

/// The `go` line for the side to move (UCCI in seconds when `seconds`).
fn go_line(
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

    #[test]
    fn stop_grace_is_bounded() {
        let mut cfg = GameConfig::default();
        assert_eq!(cfg.stop_grace(), Duration::from_secs(5));
        cfg.hang_timeout = Duration::from_secs(1);
        assert_eq!(cfg.stop_grace(), Duration::from_secs(1));
    }
}
