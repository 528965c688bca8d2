//! UCCI 3.0, as ElephantEye speaks it: `ucci`/`ucciok`, `setoption <name>
//! <value>` beside the UCI form, clocks in milliseconds with `usemillisec`
//! (seconds without), `info time .. nodes ..` then `info depth .. score ..
//! pv ..` lines with ElephantEye's mate scores, `nobestmove`, `bye`, the
//! draw and resign words of `bestmove`, and `probe` (answered `pophash`).

use super::command::{self, Command, excerpt};
use super::dialect::{Dialect, Style};
use super::format::{pv_text, wdl_text};
use super::identity::{ENGINE_AUTHOR, ENGINE_NAME, VERSION};
use super::options::{self, Effect, Kind, OptionDef, Options};
use jiangjun_engine::play::book::Entry;
use jiangjun_engine::{Bound, HashEntry, IterationInfo, SearchResult};
use jiangjun_engine::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use xiangqi::board::Board;

pub struct Ucci;

/// ElephantEye's mate score: a mate `n` plies away is `10000 - n` in UCCI
/// (`n - 10000` when mated).
pub const UCCI_MATE: i32 = 10000;
/// ElephantEye's `WIN_VALUE`: UCCI scores beyond ±9800 mean a won (lost)
/// game, so other scores are kept inside.
pub const UCCI_WIN: i32 = 9800;
/// A draw the GUI offered is accepted when the score is this low or lower.
const ACCEPT_DRAW_BELOW: Score = -40;

/// A score as UCCI prints it, in ElephantEye's convention: a mate `n` plies
/// away is `10000 - n` (`n - 10000` when mated); other scores are capped
/// below ±9800 so that they never read as mates.
fn ucci_score(score: Score) -> i32 {
    if score >= SCORE_MATE_IN_MAX {
        UCCI_MATE - (SCORE_MATE - score)
    } else if score <= -SCORE_MATE_IN_MAX {
        -(UCCI_MATE - (SCORE_MATE + score))
    } else {
        score.clamp(-(UCCI_WIN - 1), UCCI_WIN - 1)
    }
}

/// An option's UCCI line, if UCCI announces it.
fn option_line(def: &OptionDef) -> Option<String> {
    let name = def.ucci?;
    let default = (def.default)();
    Some(match def.kind {
        Kind::Check => format!("option {name} type check default {default}"),
        Kind::Spin {
            min,
            max,
            zero_is_engine_choice,
        } => {
            // UCCI lets 0 mean "the engine's choice": accepted, so announced.
            let min = if zero_is_engine_choice { 0 } else { min };
            format!("option {name} type spin min {min} max {max} default {default}")
        }
        Kind::Combo { .. } => {
            format!(
                "option {name} type combo {} default {default}",
                def.vars_text()
            )
        }
        Kind::Text => format!("option {name} type string default {default}"),
        Kind::Button => format!("option {name} type button"),
    })
}

/// A UCCI `info depth` line, with `extra` fields before the PV.
fn depth_line(info: &IterationInfo, style: Style, extra: &str) -> String {
    let multipv = if style.multipv > 1 {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {} score {}{multipv}{}{extra} pv {}",
        info.depth,
        ucci_score(info.score),
        wdl_text(style, info.score),
        pv_text(info.pv)
    )
}

impl Dialect for Ucci {
    fn hello_word(&self) -> &'static str {
        "ucci"
    }

    fn handshake(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name {ENGINE_NAME} {VERSION}"),
            format!("id version {VERSION}"),
            format!("id author {ENGINE_AUTHOR}"),
        ];
        lines.extend(options::all().filter_map(option_line));
        lines.push("ucciok".into());
        lines
    }

    /// `setoption <name> [<value>]` is UCCI's own; the UCI-style
    /// `setoption name N value V` works too (the `cchess` clients send it).
    /// A short form that names no option is taken as the unknown option of
    /// its first word.
    fn parse(&self, line: &str) -> Command {
        if let Some(cmd) = command::short_setoption(line, |n| options::find(n).is_some()) {
            return cmd;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.as_slice() {
            [first, name, rest @ ..]
                if first.eq_ignore_ascii_case("setoption")
                    && !name.eq_ignore_ascii_case("name") =>
            {
                Command::SetOption {
                    name: name.to_string(),
                    value: (!rest.is_empty()).then(|| rest.join(" ")),
                }
            }
            _ => command::parse(line),
        }
    }

    /// `pophash [bestmove M] [lowerbound S depth D] [upperbound S depth D]`,
    /// as ElephantEye answers: the move only if legal here (another
    /// position can share the key), both bounds for an exact score.
    fn probe_lines(&self, board: &Board, entry: Option<HashEntry>) -> Vec<String> {
        let mut s = String::from("pophash");
        if let Some(e) = entry {
            if e.mv.is_some() && board.is_legal_move(e.mv) {
                s.push_str(&format!(" bestmove {}", e.mv));
            }
            let score = ucci_score(e.score);
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                s.push_str(&format!(" lowerbound {score} depth {}", e.depth.max(0)));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                s.push_str(&format!(" upperbound {score} depth {}", e.depth.max(0)));
            }
        }
        vec![s]
    }

    fn ms_per_clock_unit(&self, options: &Options) -> f64 {
        if options.usemillisec { 1.0 } else { 1000.0 }
    }

    fn zero_is_engine_choice(&self) -> bool {
        true
    }

    /// The spec: unknown options (`idle`, `style`, `promotion`, ...) must
    /// not cause an error; the GUI is still told.
    fn unknown_option(&self, name: &str) -> Result<Effect, String> {
        Ok(Effect::Note(format!(
            "unknown option '{}' ignored",
            excerpt(name)
        )))
    }

    fn stop_while_idle(&self) -> Option<&'static str> {
        Some("nobestmove")
    }

    fn farewell(&self) -> Option<&'static str> {
        Some("bye")
    }

    /// As ElephantEye: a static score and no move.
    fn depth_zero_answer(&self, evaluate: &dyn Fn() -> Score) -> Option<Vec<String>> {
        Some(vec![
            format!("info depth 0 score {}", ucci_score(evaluate())),
            "nobestmove".into(),
        ])
    }

    /// ElephantEye announces every book move as a depth-0 line whose
    /// `score` is the move's book weight (not an evaluation), whatever the
    /// book's format.
    fn book_lines(&self, entries: &[Entry], _total: u32) -> Vec<String> {
        entries
            .iter()
            .map(|e| format!("info depth 0 score {} pv {}", e.weight, e.mv))
            .collect()
    }

    fn iteration_lines(&self, info: &IterationInfo, style: Style) -> Vec<String> {
        let tbhits = info
            .tbhits
            .map_or(String::new(), |n| format!(" tbhits {n}"));
        vec![
            format!("info time {} nodes {}{tbhits}", info.time_ms, info.nodes),
            depth_line(info, style, ""),
        ]
    }

    /// One line with everything, right before the answer.
    fn final_lines(&self, info: &IterationInfo, style: Style) -> Vec<String> {
        vec![depth_line(
            info,
            style,
            &format!(
                " time {} nodes {}{}",
                info.time_ms,
                info.nodes,
                info.tbhits
                    .map_or(String::new(), |n| format!(" tbhits {n}"))
            ),
        )]
    }

    fn answer_lines(&self, result: &SearchResult, draw_offered: bool) -> Vec<String> {
        let Some(m) = result.best else {
            return vec!["nobestmove".into()];
        };
        let mut s = format!("bestmove {m}");
        if let Some(p) = result.ponder {
            s.push_str(&format!(" ponder {p}"));
        }
        if result.score <= -SCORE_MATE_IN_MAX {
            s.push_str(" resign");
        } else if draw_offered && result.score <= ACCEPT_DRAW_BELOW {
            s.push_str(" draw");
        }
        vec![s]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::types::Move;

    #[test]
    fn announced_options() {
        let lines = Ucci.handshake();
        for want in [
            "option randomness type combo var none var tiny var small var medium var large var huge default none",
            "option pruning type combo var large var medium var small var none default large",
            "option knowledge type combo var large var medium var small var none default large",
            "option debuglogfile type string default <empty>",
            "option hashsize type spin min 0 max 65536 default 16",
            "option threads type spin min 0 max 256 default 1",
            "option usemillisec type check default true",
            "option newgame type button",
        ] {
            assert!(lines.iter().any(|l| l == want), "{want}: {lines:#?}");
        }
        assert_eq!(lines.last().map(String::as_str), Some("ucciok"));
        assert!(!lines.iter().any(|l| l.contains("Skill Level")));
    }

    #[test]
    fn lines_and_the_final_line() {
        let pv = [Move::parse("h2e2").unwrap()];
        let info = |multipv| IterationInfo {
            depth: 3,
            seldepth: 5,
            multipv,
            score: 25,
            bound: Bound::Exact,
            nodes: 1000,
            time_ms: 20,
            hashfull: 0,
            tbhits: None,
            pv: &pv,
        };
        let one = Style {
            show_wdl: false,
            multipv: 1,
        };
        let two = Style {
            show_wdl: false,
            multipv: 2,
        };
        assert_eq!(
            Ucci.iteration_lines(&info(1), one),
            ["info time 20 nodes 1000", "info depth 3 score 25 pv h2e2"]
        );
        assert_eq!(
            Ucci.iteration_lines(&info(2), two),
            [
                "info time 20 nodes 1000",
                "info depth 3 score 25 multipv 2 pv h2e2"
            ]
        );
        assert_eq!(
            Ucci.final_lines(&info(1), one),
            ["info depth 3 score 25 time 20 nodes 1000 pv h2e2"]
        );
    }

    #[test]
    fn scores_follow_elephanteye() {
        assert_eq!(ucci_score(SCORE_MATE - 3), 9997);
        assert_eq!(ucci_score(-SCORE_MATE + 2), -9998);
        assert_eq!(ucci_score(-SCORE_MATE), -10000);
        assert_eq!(ucci_score(150), 150);
        assert_eq!(ucci_score(-12000), -9799);
        assert_eq!(ucci_score(SCORE_MATE_IN_MAX - 1), 9799);
    }

    #[test]
    fn short_and_long_setoption() {
        assert_eq!(
            Ucci.parse("setoption hashsize 64"),
            Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            Ucci.parse("setoption name Hash value 64"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            Ucci.parse("setoption newgame"),
            Command::SetOption {
                name: "newgame".into(),
                value: None
            }
        );
    }

    /// `probe` is answered `pophash` in ElephantEye's scores, with a move
    /// only if legal here; UCI answers in the same words.
    #[test]
    fn probe_is_answered_pophash() {
        assert!(matches!(
            Ucci.parse("probe startpos moves h2e2"),
            Command::Probe { moves, .. } if moves == ["h2e2"]
        ));
        let board = Board::startpos();
        assert_eq!(Ucci.probe_lines(&board, None), vec!["pophash"]);
        let mv = board.parse_move("h2e2").unwrap();
        let entry = HashEntry {
            mv,
            score: SCORE_MATE - 3,
            eval: 0,
            depth: 7,
            bound: Bound::Exact,
            pv: true,
        };
        assert_eq!(
            Ucci.probe_lines(&board, Some(entry)),
            vec!["pophash bestmove h2e2 lowerbound 9997 depth 7 upperbound 9997 depth 7"]
        );
        // A move of another position with the same key is not offered.
        let black = Board::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        let lower = HashEntry {
            bound: Bound::Lower,
            score: 40,
            ..entry
        };
        assert_eq!(
            Ucci.probe_lines(&black, Some(lower)),
            vec!["pophash lowerbound 40 depth 7"]
        );
        let uci = super::super::uci::Uci;
        assert_eq!(
            uci.probe_lines(&board, Some(entry)),
            Ucci.probe_lines(&board, Some(entry))
        );
    }
}
