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
//!
//! The game loop is here; the score adjudication, the clocks and the `go`
//! line, and each turn's exchange with the engines (pondering included)
//! are in the submodules.

mod adjudication;
mod clock;
mod turn;

pub use adjudication::{Adjudication, DrawRule, ResignRule};

use crate::engine::{Engine, Failure};
use crate::host;
use crate::pgn::{GameRecord, INTERRUPTED, MoveRecord};
use crate::time_control::TimeControl;
use adjudication::ScoreRuns;
use clock::{Clock, go_line, steal_note};
use std::time::{Duration, Instant};
use turn::{Asked, think};
use xiangqi::board::Board;
use xiangqi::rules::{self, Outcome};
use xiangqi::types::{Color, Move};

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
        // Not a result: the game is played again when the match resumes.
        Failure::Stopped(why) => {
            rec.result = "*";
            rec.termination = INTERRUPTED;
            rec.reason = format!("{} was {why} while {doing}", names[loser.index()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_grace_is_bounded() {
        let mut cfg = GameConfig::default();
        assert_eq!(cfg.stop_grace(), Duration::from_secs(5));
        cfg.hang_timeout = Duration::from_secs(1);
        assert_eq!(cfg.stop_grace(), Duration::from_secs(1));
    }
}
