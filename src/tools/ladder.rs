//! `jiangjun ladder`: print the strength ladder (each rung's budget, skill
//! pick, noise, the `Skill Level` that selects it and its rating) and the
//! calibration's anchor, one record a line, for people and for
//! `scripts/calibrate_levels.py`, which reads it.

use jiangjun_engine::play::ladder::{
    self, ANCHOR_ELO, ANCHOR_NAME, CALIBRATION_TC, RUNGS, RatingSource, TOP,
};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LadderArgs {}

pub fn run(_: &LadderArgs) -> ExitCode {
    let source = match ladder::rating_source() {
        RatingSource::Measured => "measured",
        RatingSource::Nominal => "nominal",
    };
    outln!("anchor\t{ANCHOR_ELO}\t{ANCHOR_NAME}");
    outln!("tc\t{CALIBRATION_TC}");
    outln!("ratings\t{source}");
    outln!("#rung\tnodes\tlines\tweakness\tnoise\tskill\telo\terr\tgames");
    for r in 0..=TOP {
        let (nodes, lines, weakness, noise) = match RUNGS.get(r) {
            Some(x) => (x.nodes.to_string(), x.lines, x.weakness, x.noise),
            None => ("full".to_string(), 1, 0, 0),
        };
        let (err, games) =
            ladder::measured(r).map_or(("-".to_string(), 0), |m| (m.err.to_string(), m.games));
        outln!(
            "{r}\t{nodes}\t{lines}\t{weakness}\t{noise}\t{}\t{}\t{err}\t{games}",
            ladder::skill_for_rung(r),
            ladder::rung_elo(r)
        );
    }
    ExitCode::SUCCESS
}
