//! `jiangjun-train`: the trainer's command line (see `jiangjun_trainer::Args`).

use clap::Parser;
use jiangjun_trainer::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
