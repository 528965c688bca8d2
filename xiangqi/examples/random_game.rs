//! Play a game of random legal moves and print it.
//!
//! ```text
//! cargo run -p xiangqi --example random_game
//! cargo run -p xiangqi --example random_game -- --seed 7
//! cargo run -p xiangqi --example random_game -- "3k5/9/9/9/9/9/9/9/4R4/4K4 w"
//! ```
//!
//! Starts from the start position, or from the FEN given as arguments. Each
//! move is printed in ICCS coordinates, Chinese and WXF notation; the game
//! stops when `rules::judge` rules it over, and the result and its reason are
//! printed. The moves come from a small built-in generator, so the same seed
//! always plays the same game.

use std::io::{self, Write};
use std::process::ExitCode;
use xiangqi::notation::{chinese, wxf};
use xiangqi::rng::SplitMix64;
use xiangqi::rules::{self, Outcome};
use xiangqi::{Board, Color};

/// How many times a position must occur for a repetition to end the game
/// (3, as in matches; 2 ends it at the first recurrence).
const FOLD: usize = 3;

/// A limit in case the rules never end the game (they always do: the
/// natural-move limit ends any game that stops capturing).
const MAX_PLIES: usize = 2000;

fn main() -> ExitCode {
    let mut seed = 1;
    let mut fen_words = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--seed" {
            match args.next().and_then(|s| s.parse().ok()) {
                Some(s) => seed = s,
                None => {
                    eprintln!("--seed needs a number");
                    return ExitCode::from(2);
                }
            }
        } else {
            fen_words.push(arg);
        }
    }

    let mut board = if fen_words.is_empty() {
        Board::startpos()
    } else {
        match Board::from_fen(&fen_words.join(" ")) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("invalid FEN: {e}");
                return ExitCode::from(2);
            }
        }
    };
    // Write through a buffer, and stop quietly if the reader goes away
    // (as `| head` does) instead of panicking like `println!`.
    let mut out = io::BufWriter::new(io::stdout().lock());
    match play(&mut board, seed, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Play the game from `board` and write it to `out`.
fn play(board: &mut Board, seed: u64, out: &mut impl Write) -> io::Result<()> {
    let mut rng = SplitMix64::new(seed);
    writeln!(out, "FEN  {}", board.to_fen())?;
    writeln!(out, "seed {seed}")?;

    let outcome = loop {
        let outcome = rules::judge(board, FOLD);
        if outcome != Outcome::Ongoing || board.history().len() >= MAX_PLIES {
            break outcome;
        }
        // Not over, so there is a legal move.
        let moves = board.legal_moves();
        let mv = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        let number = match board.side_to_move() {
            Color::Red => format!("{:>3}.", board.fullmove()),
            Color::Black => format!("{:>3}...", board.fullmove()),
        };
        writeln!(
            out,
            "{number:<7} {mv}  {}  {}",
            chinese(board, mv),
            wxf(board, mv)
        )?;
        board.make_move(mv);
    };

    writeln!(out, "{board}")?;
    writeln!(out, "FEN  {}", board.to_fen())?;
    let plies = board.history().len();
    match outcome {
        Outcome::Win(winner, reason) => {
            writeln!(out, "result: {winner} wins by {reason} after {plies} plies")?
        }
        Outcome::Draw(reason) => writeln!(out, "result: draw by {reason} after {plies} plies")?,
        Outcome::Ongoing => writeln!(out, "result: stopped after {plies} plies, game not over")?,
    }
    out.flush()
}
