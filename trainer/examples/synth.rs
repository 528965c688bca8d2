//! Write synthetic training positions (random games, material labels):
//! `cargo run --release -p jiangjun-trainer --example synth -- --out F --count N [--seed S]`.

use clap::Parser;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
struct Opts {
    /// Data file to append to.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1_000_000)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> Result<(), jiangjun_trainer::data::DataError> {
    let o = Opts::parse();
    let t = Instant::now();
    jiangjun_trainer::synth::write_file(&o.out, o.count, o.seed)?;
    eprintln!(
        "{} positions appended to {} in {:.1} s",
        o.count,
        o.out.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
