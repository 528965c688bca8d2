//! Reads every game file given (a folder: the game files in it) and says
//! how many games, moves and variations it found, and how long reading took:
//! `cargo run --release -p xiangqi-gamefile --example read_games -- DIR...`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_gamefile::{Format, read_path};

fn main() -> ExitCode {
    let mut files: Vec<PathBuf> = Vec::new();
    for arg in std::env::args_os().skip(1) {
        let path = PathBuf::from(arg);
        match std::fs::read_dir(&path) {
            Ok(entries) => {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| Format::of_path(p).is_some())
                    .collect();
                found.sort();
                files.extend(found);
            }
            Err(_) => files.push(path),
        }
    }
    let start = Instant::now();
    let (mut games, mut moves, mut branches) = (0usize, 0usize, 0usize);
    for f in &files {
        match read_path(f) {
            Ok(list) => {
                games += list.len();
                for g in &list {
                    moves += g.nodes.len() - 1;
                    branches += g.branch_points();
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let took = start.elapsed();
    println!(
        "{} files, {games} games, {moves} moves ({branches} branch points) read in {:.1} ms",
        files.len(),
        took.as_secs_f64() * 1000.0
    );
    ExitCode::SUCCESS
}
