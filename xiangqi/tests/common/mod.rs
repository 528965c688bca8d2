//! Helpers shared by the integration tests of the workspace: the shared
//! reference data, a seeded generator, random positions and moves.
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

use std::path::PathBuf;

/// `shared/` beside the workspace root, where reference data lives. The
/// tests of every workspace member use these helpers, so the directory is
/// looked up beside each ancestor of the member's manifest directory.
pub fn shared_dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .filter_map(|a| a.parent().map(|p| p.join("shared")))
        .find(|s| s.join("README.md").is_file())
        .unwrap_or_else(|| manifest.join("../shared"))
}

/// Read a file under `../shared`, or print why the test is skipped and return None.
pub fn shared_file(rel: &str) -> Option<String> {
    let path = shared_dir().join(rel);
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!(
                "SKIPPED: {} is missing ({e}); the test needs ../shared",
                path.display()
            );
            None
        }
    }
}

/// The library's deterministic generator with `usize` ranges, so random
/// tests repeat exactly.
pub struct Rng(xiangqi::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(xiangqi::rng::SplitMix64::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

use xiangqi::{Board, Move, Square};

/// A random legal position built by placing pieces on squares they can
/// reach; about half of the attempts are rejected by the FEN checks.
pub fn random_position(rng: &mut Rng) -> Board {
    loop {
        let mut grid = [['.'; 9]; 10];
        let place = |grid: &mut [[char; 9]; 10],
                     c: char,
                     ok: &dyn Fn(usize, usize) -> bool,
                     rng: &mut Rng| {
            for _ in 0..50 {
                let (f, r) = (rng.below(9), rng.below(10));
                if grid[r][f] == '.' && ok(f, r) {
                    grid[r][f] = c;
                    return;
                }
            }
        };
        for red in [true, false] {
            let rel = move |r: usize| if red { r } else { 9 - r };
            let case = |c: char| if red { c.to_ascii_uppercase() } else { c };
            place(
                &mut grid,
                case('k'),
                &|f, r| (3..=5).contains(&f) && rel(r) <= 2,
                rng,
            );
            for _ in 0..rng.below(3) {
                place(
                    &mut grid,
                    case('a'),
                    &|f, r| (3..=5).contains(&f) && rel(r) <= 2 && (f + rel(r)) % 2 == 1,
                    rng,
                );
            }
            for _ in 0..rng.below(3) {
                place(
                    &mut grid,
                    case('b'),
                    &|f, r| (rel(r) % 4 == 0 && (f == 2 || f == 6)) || (rel(r) == 2 && f % 4 == 0),
                    rng,
                );
            }
            for c in ['n', 'r', 'c'] {
                for _ in 0..rng.below(3) {
                    place(&mut grid, case(c), &|_, _| true, rng);
                }
            }
            for _ in 0..rng.below(6) {
                place(
                    &mut grid,
                    case('p'),
                    &|f, r| rel(r) >= 5 || (rel(r) >= 3 && f % 2 == 0),
                    rng,
                );
            }
        }
        let mut fen = String::new();
        for r in (0..10).rev() {
            let mut empty = 0;
            for &cell in &grid[r] {
                if cell == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(cell);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.chance(50) { " w" } else { " b" });
        if let Ok(b) = Board::from_fen(&fen) {
            return b;
        }
    }
}

/// Pick a random legal move, preferring checks and captures some of the time
/// so that playouts visit positions near checks and with few pieces.
pub fn random_move(board: &Board, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = board.legal_moves().iter().collect();
    if moves.is_empty() {
        return None;
    }
    if rng.chance(30) {
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| board.gives_check(m))
            .collect();
        if !checks.is_empty() {
            return Some(checks[rng.below(checks.len())]);
        }
    }
    if rng.chance(30) {
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| board.piece_at(m.to()).is_some())
            .collect();
        if !caps.is_empty() {
            return Some(caps[rng.below(caps.len())]);
        }
    }
    Some(moves[rng.below(moves.len())])
}

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Sorted legal moves as strings.
pub fn legal_strings(board: &Board) -> Vec<String> {
    let mut v: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}
