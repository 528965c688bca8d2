//! UCI, as Pikafish speaks it: `uci`/`uciok`, `setoption name N value V`,
//! clocks in milliseconds, `info ... score cp|mate ...` lines and
//! `bestmove (none)` when there is no move.

use super::command::{self, Command};
use super::dialect::{Dialect, Style};
use super::format::{mate_moves, pv_text, wdl_text};
use super::identity::{ENGINE_AUTHOR, ENGINE_NAME, VERSION};
use super::options::{self, Effect, Kind, OptionDef, Options};
use super::ucci::Ucci;
use jiangjun_engine::Bound;
use jiangjun_engine::Score;
use jiangjun_engine::play::book::Entry;
use jiangjun_engine::{HashEntry, IterationInfo, SearchResult};
use xiangqi::board::Board;

pub struct Uci;

/// An option's UCI line, if UCI announces it.
fn option_line(def: &OptionDef) -> Option<String> {
    let name = def.uci?;
    let default = (def.default)();
    Some(match def.kind {
        Kind::Check => format!("option name {name} type check default {default}"),
        Kind::Spin { min, max, .. } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Combo { .. } => {
            format!(
                "option name {name} type combo default {default} {}",
                def.vars_text()
            )
        }
        Kind::Text => format!("option name {name} type string default {default}"),
        Kind::Button => format!("option name {name} type button"),
    })
}

impl Dialect for Uci {
    fn hello_word(&self) -> &'static str {
        "uci"
    }

    fn handshake(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name {ENGINE_NAME} {VERSION}"),
            format!("id author {ENGINE_AUTHOR}"),
        ];
        lines.extend(options::all().filter_map(option_line));
        lines.push("uciok".into());
        lines
    }

    /// VinXiangQi sends `uci` and `ucci` at once, and its engine settings
    /// form splits an `option` line on single spaces and takes the third
    /// word as the name and the fifth as the type: an option whose name has
    /// several words (`Skill Level`, `Move Overhead`, `Clear Hash`, `Random
    /// Seed`) never appears there. So to that GUI alone the session
    /// announces each of them once more, its spaces written as underscores
    /// (names match ignoring spaces and underscores, so VinXiangQi's
    /// `setoption name Skill_Level value 5` sets `Skill Level`). Pikafish-style
    /// GUIs, which send `uci` alone, see the standard names only. The form
    /// has no field for a `string` option, so those are left out.
    fn second_hello_options(&self) -> Vec<String> {
        options::all()
            .filter(|def| {
                def.uci.is_some_and(|n| n.contains(' ')) && !matches!(def.kind, Kind::Text)
            })
            .filter_map(option_line)
            .filter_map(|line| {
                let name = line.strip_prefix("option name ")?;
                let at = name.find(" type ")?;
                Some(format!(
                    "option name {}{}",
                    name[..at].replace(' ', "_"),
                    &name[at..]
                ))
            })
            .collect()
    }

    /// Besides `setoption name N value V`, the short `setoption N V` with
    /// an option's UCI name (VinXiangQi sends `setoption Threads 4` and
    /// `setoption Clear Hash ` to UCI engines too); other short forms stay
    /// errors, as UCI has no such line.
    fn parse(&self, line: &str) -> Command {
        command::short_setoption(line, |n| options::find_uci(n).is_some())
            .unwrap_or_else(|| command::parse(line))
    }

    /// UCCI's `probe` has no UCI counterpart: it is answered in UCCI's
    /// words, `pophash` with ElephantEye's scores (docs/protocols.md).
    fn probe_lines(&self, board: &Board, entry: Option<HashEntry>) -> Vec<String> {
        Ucci.probe_lines(board, entry)
    }

    fn ms_per_clock_unit(&self, _: &Options) -> f64 {
        1.0
    }

    fn zero_is_engine_choice(&self) -> bool {
        false
    }

    fn unknown_option(&self, name: &str) -> Result<Effect, String> {
        Err(format!("no such option: '{name}'"))
    }

    fn stop_while_idle(&self) -> Option<&'static str> {
        None
    }

    fn farewell(&self) -> Option<&'static str> {
        None
    }

    /// As Stockfish: `go depth 0` searches one ply, so the GUI gets a move.
    fn depth_zero_answer(&self, _: &dyn Fn() -> Score) -> Option<Vec<String>> {
        None
    }

    fn book_lines(&self, entries: &[Entry], total: u32) -> Vec<String> {
        entries
            .iter()
            .map(|e| {
                let mut line = format!(
                    "info string book move {} weight {}%",
                    e.mv,
                    e.weight * 100 / total.max(1)
                );
                // A format without games and scores (ElephantEye's
                // BOOK.DAT) gives 0 for both: neither is stated then.
                if e.games > 0 || e.score != 0 {
                    line.push_str(&format!(" games {} score {}", e.games, e.score));
                }
                line
            })
            .collect()
    }

    fn iteration_lines(&self, info: &IterationInfo, style: Style) -> Vec<String> {
        let nps = info.nodes * 1000 / info.time_ms.max(1);
        let score = match mate_moves(info.score) {
            Some(m) => format!("mate {m}"),
            None => format!("cp {}", info.score),
        };
        let bound = match info.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let wdl = wdl_text(style, info.score);
        let tbhits = info
            .tbhits
            .map_or(String::new(), |n| format!(" tbhits {n}"));
        vec![format!(
            "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {}{tbhits} time {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.nodes,
            info.hashfull,
            info.time_ms,
            pv_text(info.pv)
        )]
    }

    fn final_lines(&self, info: &IterationInfo, style: Style) -> Vec<String> {
        self.iteration_lines(info, style)
    }

    fn answer_lines(&self, result: &SearchResult, _draw_offered: bool) -> Vec<String> {
        let Some(m) = result.best else {
            return vec!["info depth 0 score mate 0".into(), "bestmove (none)".into()];
        };
        vec![match result.ponder {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::play::strength::{ELO_MAX, ELO_MIN};
    use xiangqi::types::Move;

    #[test]
    fn announced_options() {
        let lines = Uci.handshake();
        let elo =
            format!("option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}");
        for want in [
            "option name Threads type spin default 1 min 1 max 256",
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Clear Hash type button",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            &elo,
            "option name UCI_AnalyseMode type check default false",
            "option name Debug Log File type string default <empty>",
            "option name nodestime type spin default 0 min 0 max 10000",
            "option name UCI_Variant type combo default xiangqi var xiangqi",
        ] {
            assert!(lines.iter().any(|l| l == want), "{want}: {lines:#?}");
        }
        assert_eq!(lines.last().map(String::as_str), Some("uciok"));
        assert!(!lines.iter().any(|l| l.contains("randomness")));
    }

    #[test]
    fn final_line_is_an_iteration_line() {
        let pv = [Move::parse("h2e2").unwrap()];
        let info = IterationInfo {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score: 25,
            bound: Bound::Exact,
            nodes: 1000,
            time_ms: 20,
            hashfull: 0,
            tbhits: None,
            pv: &pv,
        };
        let lines = Uci.final_lines(&info, Style::default());
        assert!(lines[0].starts_with("info depth 3 seldepth 5 multipv 1 score cp 25 nodes 1000 "));
    }
}
