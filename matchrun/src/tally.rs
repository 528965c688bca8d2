//! The running count of a match: W/D/L, game endings, pentanomial pairs
//! and the SPRT, game by game in any order (a pair counts once both of its
//! games are in).

use crate::Summary;
use crate::stats::SprtDecision;
use std::collections::BTreeMap;

/// Running counts: the summary's and the pairs waiting for their partner.
pub(crate) struct Tally {
    pub(crate) summary: Summary,
    /// Points of the first engine in each pair's first finished game.
    pair_half: BTreeMap<usize, f64>,
}

impl Tally {
    /// Nothing counted yet, into `summary` (its names, SPRT and time control set).
    pub(crate) fn new(summary: Summary) -> Tally {
        Tally {
            summary,
            pair_half: BTreeMap::new(),
        }
    }

    /// Count game `index`, whose `result` is from Red's view.
    pub(crate) fn add(&mut self, index: usize, result: &str, a_red: bool, ending: String) {
        let already_decided = self.decided();
        let s = &mut self.summary;
        // Points of the first engine.
        let a = match (result, a_red) {
            ("1-0", true) | ("0-1", false) => Some(1.0),
            ("0-1", true) | ("1-0", false) => Some(0.0),
            ("1/2-1/2", _) => Some(0.5),
            _ => None,
        };
        match a {
            Some(1.0) => s.wdl.wins += 1,
            Some(0.0) => s.wdl.losses += 1,
            Some(_) => s.wdl.draws += 1,
            None => {}
        }
        *s.terminations.entry(ending).or_default() += 1;
        if let Some(a) = a {
            let pair = index / 2;
            if let Some(other) = self.pair_half.remove(&pair) {
                s.penta.counts[Summary::pair_score(a + other)] += 1;
            } else {
                self.pair_half.insert(pair, a);
            }
        }
        if let Some(sp) = s.sprt {
            let llr = if s.penta.pairs() > 0 {
                sp.llr_penta(&s.penta)
            } else {
                sp.llr_wdl(&s.wdl)
            };
            s.llr = Some(llr);
            // The first bound crossed decides, for good: the games still being
            // played when the match stops are counted and may move the ratio
            // back inside the bounds, and a resumed match, counting the PGN in
            // the order its games ended, must reach the same verdict.
            if !already_decided {
                let decision = sp.decide(llr);
                s.decision = Some(decision);
                if decision != SprtDecision::Continue {
                    s.decided_at = Some((s.wdl.games(), llr));
                }
            }
        }
    }

    pub(crate) fn decided(&self) -> bool {
        self.summary
            .decision
            .is_some_and(|d| d != SprtDecision::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Sprt;

    fn sprt_tally() -> Tally {
        Tally::new(Summary {
            sprt: Some(Sprt::parse("elo0=0,elo1=50").unwrap()),
            ..Summary::default()
        })
    }

    /// Game `index` of a pair (the first engine Red in the even one, Black in
    /// the odd one), ended by mate; `first_wins` says for whom.
    fn add_decisive(tally: &mut Tally, index: usize, first_wins: bool) {
        let a_red = index.is_multiple_of(2);
        let result = if a_red == first_wins { "1-0" } else { "0-1" };
        tally.add(index, result, a_red, "checkmate".into());
    }

    /// Games in pairs (first engine Red, then Black) until the first engine's
    /// wins decide for H1, then one lost pair, as games still being played
    /// when the match stops would be: the verdict stays, with when it came.
    #[test]
    fn the_first_bound_crossed_decides_for_good() {
        let mut tally = sprt_tally();
        let mut index = 0;
        while !tally.decided() {
            assert!(index < 400, "never decided");
            add_decisive(&mut tally, index, true);
            index += 1;
        }
        let (games, llr) = tally.summary.decided_at.unwrap();
        assert_eq!(games, index as u64);
        let (_, hi) = tally.summary.sprt.unwrap().bounds();
        assert!(llr >= hi);
        // A lost pair moves the ratio back inside the bounds.
        for _ in 0..2 {
            add_decisive(&mut tally, index, false);
            index += 1;
        }
        let s = &tally.summary;
        assert!(
            s.llr.unwrap() < hi,
            "the test needs the ratio back inside: {:?}",
            s.llr
        );
        assert!(tally.decided());
        assert_eq!(s.decision, Some(SprtDecision::AcceptH1));
        assert_eq!(s.decided_at, Some((games, llr)));
        let report = s.report();
        assert!(
            report.contains(&format!("H1 accepted at game {games} (LLR {llr:.2})")),
            "{report}"
        );
    }

    /// A verdict reached with the last game counted is reported plainly.
    #[test]
    fn a_verdict_at_the_last_game_names_no_game() {
        let mut tally = sprt_tally();
        let mut index = 0;
        while !tally.decided() {
            assert!(index < 400, "never decided");
            tally.add(index, "1/2-1/2", true, "repetition".into());
            index += 1;
        }
        let report = tally.summary.report();
        assert!(report.contains("H0 accepted\n"), "{report}");
    }
}
