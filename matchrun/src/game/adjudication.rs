//! Score adjudication: the resign and draw rules (`--resign`, `--draw`)
//! and the runs of scores that meet them, counted move by move.

use crate::kv::{KeyValueError, KeyValues};

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
pub(super) struct ScoreRuns {
    losing: [u32; 2],
    winning: [u32; 2],
    quiet: [u32; 2],
}

impl ScoreRuns {
    /// Count the score of the move `side` just played (`None`: no score).
    pub(super) fn record(&mut self, adj: &Adjudication, side: usize, score: Option<i32>) {
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
    pub(super) fn resign_loser(&self, rule: ResignRule, mover: usize) -> Option<usize> {
        let other = 1 - mover;
        let mut loser = None;
        for (l, w) in [(mover, other), (other, mover)] {
            if self.losing[l] >= rule.moves && self.winning[w] >= rule.moves {
                loser = Some(l);
            }
        }
        loser
    }

    pub(super) fn both_quiet(&self, rule: DrawRule) -> bool {
        self.quiet[0] >= rule.moves && self.quiet[1] >= rule.moves
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
}
