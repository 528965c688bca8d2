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
            s.decision = Some(sp.decide(llr));
        }
    }

    pub(crate) fn decided(&self) -> bool {
        self.summary
            .decision
            .is_some_and(|d| d != SprtDecision::Continue)
    }
}
