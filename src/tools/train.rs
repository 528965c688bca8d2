//! `jiangjun train`: the NNUE trainer (`jiangjun_trainer`) as a subcommand.
//! The arguments are the trainer's own (`jiangjun_trainer::Args`).

use crate::tools::fail;
use std::process::ExitCode;

pub use jiangjun_trainer::Args as TrainArgs;

/// Train on the data files and write the network; errors go to stderr.
pub fn run(args: &TrainArgs) -> ExitCode {
    match jiangjun_trainer::run(args) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(1, e),
    }
}
