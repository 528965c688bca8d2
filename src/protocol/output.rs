//! Everything the engine writes to stdout goes through `Output`, one whole
//! line at a time and flushed, so lines from the search thread and the
//! command loop never interleave. `Printer` formats search output in the
//! GUI's dialect.

use super::command::Dialect;
use super::debug_log::DebugLog;
use jiangjun_engine::score::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use jiangjun_engine::search::{IterationInfo, Reporter, SearchResult};
use jiangjun_engine::tt::Bound;
use std::io::Write;
use std::sync::{Arc, Mutex};
use xiangqi::types::Move;

/// A line sink: stdout in the engine, a buffer in tests.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    /// Every line written is copied here (`Debug Log File`).
    pub log: DebugLog,
}

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
            log: DebugLog::default(),
        }
    }

    /// Write one line and flush. A broken pipe is ignored: the GUI has gone.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        // Logged first: whatever the GUI sends in reply comes after it.
        self.log.output(text);
        log::debug!("<< {text}");
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }

    /// Write several lines as one block.
    pub fn lines(&self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }

    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    pub fn error(&self, text: &str) {
        self.info_string(&format!("error: {text}"));
    }
}

/// Search output in the dialect of the GUI.
pub struct Printer {
    pub out: Arc<Output>,
    pub dialect: Dialect,
    pub show_wdl: bool,
    /// Lines searched (MultiPV); with more than one, UCCI lines say which.
    pub multipv: usize,
}

/// Mate distance in moves (positive: side to move mates), if the score is a mate.
pub fn mate_moves(score: Score) -> Option<i32> {
    if score >= SCORE_MATE_IN_MAX {
        Some((SCORE_MATE - score + 1) / 2)
    } else if score <= -SCORE_MATE_IN_MAX {
        Some(-(SCORE_MATE + score) / 2)
    } else {
        None
    }
}

/// ElephantEye's mate score: a mate `n` plies away is `10000 - n` in UCCI
/// (`n - 10000` when mated).
pub const UCCI_MATE: i32 = 10000;
/// ElephantEye's `WIN_VALUE`: UCCI scores beyond ±9800 mean a won (lost)
/// game, so other scores are kept inside.
pub const UCCI_WIN: i32 = 9800;

/// A score as UCCI prints it, in ElephantEye's convention: a mate `n` plies
/// away is `10000 - n` (`n - 10000` when mated); other scores are capped
/// below ±9800 so that they never read as mates.
pub fn ucci_score(score: Score) -> i32 {
    if score >= SCORE_MATE_IN_MAX {
        UCCI_MATE - (SCORE_MATE - score)
    } else if score <= -SCORE_MATE_IN_MAX {
        -(UCCI_MATE - (SCORE_MATE + score))
    } else {
        score.clamp(-(UCCI_WIN - 1), UCCI_WIN - 1)
    }
}

/// Win/draw/loss per mille for a score, from a logistic model.
pub fn wdl(score: Score) -> (u32, u32, u32) {
    if let Some(m) = mate_moves(score) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let x = score as f64;
    let w = 1000.0 / (1.0 + ((200.0 - x) / 60.0).exp());
    let l = 1000.0 / (1.0 + ((200.0 + x) / 60.0).exp());
    let (w, l) = (w.round() as u32, l.round() as u32);
    (w, 1000 - w - l, l)
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Printer {
    /// A UCCI `info depth` line, with `extra` fields before the PV.
    /// ` wdl W D L` if a client asked for it (`UCI_ShowWDL`), else nothing.
    fn wdl_text(&self, score: Score) -> String {
        if self.show_wdl {
            let (w, d, l) = wdl(score);
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        }
    }

    fn ucci_depth_line(&self, info: &IterationInfo, extra: &str) {
        let multipv = if self.multipv > 1 {
            format!(" multipv {}", info.multipv)
        } else {
            String::new()
        };
        let wdl_text = self.wdl_text(info.score);
        self.out.line(&format!(
            "info depth {} score {}{multipv}{wdl_text}{extra} pv {}",
            info.depth,
            ucci_score(info.score),
            pv_text(info.pv)
        ));
    }

    pub fn bestmove(&self, result: &SearchResult, draw_offered: bool) {
        match (self.dialect, result.best) {
            (Dialect::Ucci, None) => self.out.line("nobestmove"),
            (Dialect::Uci, None) => {
                self.out.line("info depth 0 score mate 0");
                self.out.line("bestmove (none)");
            }
            (dialect, Some(m)) => {
                let mut s = format!("bestmove {m}");
                if let Some(p) = result.ponder {
                    s.push_str(&format!(" ponder {p}"));
                }
                if dialect == Dialect::Ucci {
                    if result.score <= -SCORE_MATE_IN_MAX {
                        s.push_str(" resign");
                    } else if draw_offered && result.score <= -40 {
                        s.push_str(" draw");
                    }
                }
                self.out.line(&s);
            }
        }
    }
}

impl Reporter for Printer {
    fn iteration(&self, info: &IterationInfo) {
        let nps = info.nodes * 1000 / info.time_ms.max(1);
        match self.dialect {
            Dialect::Ucci => {
                self.out
                    .line(&format!("info time {} nodes {}", info.time_ms, info.nodes));
                self.ucci_depth_line(info, "");
            }
            Dialect::Uci => {
                let score = match mate_moves(info.score) {
                    Some(m) => format!("mate {m}"),
                    None => format!("cp {}", info.score),
                };
                let bound = match info.bound {
                    Bound::Lower => " lowerbound",
                    Bound::Upper => " upperbound",
                    _ => "",
                };
                let wdl_text = self.wdl_text(info.score);
                self.out.line(&format!(
                    "info depth {} seldepth {} multipv {} score {score}{bound}{wdl_text} nodes {} nps {nps} hashfull {} time {} pv {}",
                    info.depth,
                    info.seldepth,
                    info.multipv,
                    info.nodes,
                    info.hashfull,
                    info.time_ms,
                    pv_text(info.pv)
                ));
            }
        }
    }

    fn final_line(&self, info: &IterationInfo) {
        match self.dialect {
            // One line with everything, right before the answer.
            Dialect::Ucci => self.ucci_depth_line(
                info,
                &format!(" time {} nodes {}", info.time_ms, info.nodes),
            ),
            Dialect::Uci => self.iteration(info),
        }
    }

    fn currmove(&self, depth: i32, mv: Move, number: usize) {
        self.out.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distance_in_moves() {
        assert_eq!(mate_moves(SCORE_MATE - 1), Some(1));
        assert_eq!(mate_moves(SCORE_MATE - 3), Some(2));
        assert_eq!(mate_moves(-SCORE_MATE), Some(0));
        assert_eq!(mate_moves(-SCORE_MATE + 2), Some(-1));
        assert_eq!(mate_moves(150), None);
    }

    /// A sink the test can read back.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn printed(dialect: Dialect, multipv: usize, print: impl Fn(&Printer)) -> String {
        let buf = Buffer::default();
        let printer = Printer {
            out: Arc::new(Output::new(Box::new(buf.clone()))),
            dialect,
            show_wdl: false,
            multipv,
        };
        print(&printer);
        String::from_utf8(buf.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn ucci_lines_and_the_final_line() {
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
            pv: &pv,
        };
        assert_eq!(
            printed(Dialect::Ucci, 1, |p| p.iteration(&info(1))),
            "info time 20 nodes 1000\ninfo depth 3 score 25 pv h2e2\n"
        );
        assert_eq!(
            printed(Dialect::Ucci, 2, |p| p.iteration(&info(2))),
            "info time 20 nodes 1000\ninfo depth 3 score 25 multipv 2 pv h2e2\n"
        );
        assert_eq!(
            printed(Dialect::Ucci, 1, |p| p.final_line(&info(1))),
            "info depth 3 score 25 time 20 nodes 1000 pv h2e2\n"
        );
        let uci = printed(Dialect::Uci, 1, |p| p.final_line(&info(1)));
        assert!(uci.starts_with("info depth 3 seldepth 5 multipv 1 score cp 25 nodes 1000 "));
    }

    #[test]
    fn ucci_scores_follow_elephanteye() {
        assert_eq!(ucci_score(SCORE_MATE - 3), 9997);
        assert_eq!(ucci_score(-SCORE_MATE + 2), -9998);
        assert_eq!(ucci_score(-SCORE_MATE), -10000);
        assert_eq!(ucci_score(150), 150);
        assert_eq!(ucci_score(-12000), -9799);
        assert_eq!(ucci_score(SCORE_MATE_IN_MAX - 1), 9799);
    }

    #[test]
    fn wdl_is_a_distribution() {
        for s in [-2000, -300, -50, 0, 50, 300, 2000] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
        }
        assert!(wdl(300).0 > wdl(100).0);
        assert_eq!(wdl(0).0, wdl(0).2);
    }
}
