//! Helpers shared by the integration tests of the workspace: the shared
//! reference data, a seeded generator, random positions and moves.
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

use std::path::PathBuf;

/// The variable that names another folder for the tests' `../shared`:
/// `JIANGJUN_SHARED_DIR=/nonexistent` runs them as in a fresh clone that
/// has none beside it (the tests' lookups only: a tool's own default, such
/// as datagen's openings, still looks beside its working directory).
pub const SHARED_DIR_VAR: &str = "JIANGJUN_SHARED_DIR";

/// `shared/` beside the workspace root, where reference data lives, or the
/// folder [`SHARED_DIR_VAR`] names. The tests of every workspace member use
/// these helpers, so the directory is looked up beside each ancestor of the
/// member's manifest directory.
pub fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(SHARED_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .filter_map(|a| a.parent().map(|p| p.join("shared")))
        .find(|s| s.join("README.md").is_file())
        .unwrap_or_else(|| manifest.join("../shared"))
}

/// Whether the tests run under CI: the `CI` variable is set (GitHub's
/// runners set `CI=true`, `.ci/run` exports `CI=1`) and is not empty, `0`
/// or `false`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// A test that cannot run here, `why` naming what is missing: under CI the
/// test fails, since CI installs every tool and brings every file the tests
/// need, and a test that passes there by not running hides a broken CI.
/// Without CI it prints `SKIPPED: why` on stderr and the caller returns.
pub fn skip(why: &str) {
    assert!(
        !in_ci(),
        "{why}; CI is set, and under CI every test must run (unset CI to skip it)"
    );
    eprintln!("SKIPPED: {why}");
}

/// The variable that names why a CI run has no `../shared` at all (a
/// runner that cannot have the reference data): then, and only when the
/// whole directory is absent, the tests that need it skip under CI too,
/// printing the reason.
pub const SHARED_ABSENT_VAR: &str = "JIANGJUN_SHARED_ABSENT";

/// A file of `../shared` is missing: [`skip`], unless CI has stated why it
/// has no `../shared` ([`SHARED_ABSENT_VAR`]) and the directory is indeed
/// absent.
pub fn skip_without_shared(path: &std::path::Path) {
    let why = format!("{} is missing; the test needs ../shared", path.display());
    if let (true, Ok(reason)) = (in_ci(), std::env::var(SHARED_ABSENT_VAR)) {
        assert!(
            !reason.trim().is_empty(),
            "{SHARED_ABSENT_VAR} is set but empty: it must say why ../shared is absent"
        );
        assert!(
            !shared_dir().join("README.md").is_file(),
            "{why}, although {} exists: {SHARED_ABSENT_VAR} excuses only a run without ../shared",
            shared_dir().display()
        );
        eprintln!("SKIPPED: {why} ({SHARED_ABSENT_VAR}: {reason})");
        return;
    }
    skip(&why);
}

/// A path under `../shared` if it exists, else [`skip_without_shared`] and None.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let path = shared_dir().join(rel);
    if path.exists() {
        Some(path)
    } else {
        skip_without_shared(&path);
        None
    }
}

/// Read a file under `../shared`, or [`skip_without_shared`] and return None.
pub fn shared_file(rel: &str) -> Option<String> {
    let path = shared_path(rel)?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Whether `program args` runs and succeeds (a tool the test needs is
/// installed: `python3 -c "import cchess"`, `parallel --version`).
pub fn runs(program: &str, args: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether python3 can import `module`.
pub fn python_has(module: &str) -> bool {
    runs("python3", &["-c", &format!("import {module}")])
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
