//! The strength levels in sessions against the real binary: `Skill Level`
//! and `UCI_LimitStrength`/`UCI_Elo` choose a rung of the ladder, whose
//! node budget no `go` exceeds, whatever the clock; every level plays
//! legal moves and every mate in one; the lowest misses a deeper mate that
//! full strength finds.

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of};
use jiangjun_engine::play::ladder::{self, RUNGS, TOP};
use jiangjun_engine::play::strength::{ELO_MAX, ELO_MIN};
use xiangqi::Board;

/// Red mates in three, starting with the rook sacrifice d8d9.
const MATE_IN_3: &str = "1rbak3r/1N1Ra4/cR2b1N2/9/9/9/9/9/5p3/4K4 w - - 0 1";
const MATE_MOVE: &str = "d8d9";
/// A quiet middlegame, out of the book.
const MIDDLEGAME: &str =
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3";
/// Mates in one (see engine/tests/levels.rs): Red's rook, Red's cannon
/// over its horse, Red leaving the king no move, Black's rook.
const MATES_IN_ONE: [&str; 4] = [
    "4k4/8R/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    "4k4/R8/4N4/9/9/1C7/9/9/9/3K5 w - - 0 1",
    "3k5/8R/9/9/R8/9/9/9/9/5K3 w - - 0 1",
    "r4k3/9/9/9/9/9/9/9/8r/4K4 b - - 0 1",
];

fn uci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    e.send("setoption name OwnBook value false");
    e
}

/// `go` and the lines up to its `bestmove`.
fn go(e: &mut EngineProcess, go: &str) -> Vec<String> {
    e.send(go);
    e.read_until(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
}

/// The value after `key` in an info line.
fn field(line: &str, key: &str) -> Option<u64> {
    let mut t = line.split_whitespace();
    while let Some(w) = t.next() {
        if w == key {
            return t.next().and_then(|v| v.parse().ok());
        }
    }
    None
}

/// The most nodes any info line of a search reported.
fn max_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| field(l, "nodes"))
        .max()
        .unwrap_or(0)
}

/// The deepest `info depth` of a search.
fn max_depth(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| field(l, "depth"))
        .max()
        .unwrap_or(0)
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Does `mv` leave the side to move in `board` without a legal move?
fn mates(board: &Board, mv: &str) -> bool {
    let mut after = board.clone();
    let Ok(m) = after.parse_move(mv) else {
        return false;
    };
    after.make_move(m);
    !after.has_legal_move()
}

#[test]
fn every_skill_level_keeps_to_its_budget_on_any_clock() {
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let mut e = uci();
    e.send("setoption name Threads value 2");
    for level in 0..ladder::MAX_SKILL_LEVEL {
        let budget = RUNGS[ladder::rung_from_skill(level)].nodes;
        e.send(&format!("setoption name Skill Level value {level}"));
        for clock in [
            "go wtime 600000 btime 600000",
            "go wtime 3000 btime 3000 winc 30 binc 30",
            "go movetime 60000",
        ] {
            e.send(&format!("position fen {MIDDLEGAME}"));
            let lines = go(&mut e, clock);
            assert_legal_bestmove(lines.last().unwrap(), &board);
            let nodes = max_nodes(&lines);
            assert!(
                nodes <= budget && nodes > 0,
                "level {level}, {clock}: {nodes} nodes, budget {budget}"
            );
        }
    }
    // Level 20 is full strength: a depth the budgets never reach (from an
    // empty table, which the searches above have filled).
    e.send("setoption name Skill Level value 20");
    e.send("ucinewgame");
    e.send(&format!("position fen {MIDDLEGAME}"));
    // (Depth 14 takes some 350,000 nodes here, above the top rung's budget
    // of 224,000; depth 13 some 150,000.)
    let lines = go(&mut e, "go depth 14");
    assert_eq!(max_depth(&lines), 14);
    assert!(max_nodes(&lines) > RUNGS[TOP - 1].nodes);
    assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
}

#[test]
fn limit_strength_maps_the_elo_onto_the_rungs() {
    let mut e = uci();
    e.send("setoption name UCI_LimitStrength value true");
    for (rung, r) in RUNGS.iter().enumerate() {
        let elo = ladder::rung_elo(rung);
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send(&format!("position fen {MIDDLEGAME}"));
        let nodes = max_nodes(&go(&mut e, "go wtime 600000 btime 600000"));
        let budget = r.nodes;
        assert!(nodes <= budget, "Elo {elo}: {nodes} > {budget}");
        // Its own rung's budget, not a lower one's: most of it is used.
        assert!(nodes * 2 > budget, "Elo {elo}: {nodes} of {budget}");
    }
    // The highest Elo is full strength; without UCI_LimitStrength the
    // skill level counts (20 by default).
    e.send(&format!("setoption name UCI_Elo value {ELO_MAX}"));
    e.send(&format!("position fen {MIDDLEGAME}"));
    assert_eq!(max_depth(&go(&mut e, "go depth 9")), 9);
    e.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(max_depth(&go(&mut e, "go depth 9")), 9);
    assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
}

#[test]
fn every_level_plays_a_mate_in_one() {
    let mut e = uci();
    for level in 0..=ladder::MAX_SKILL_LEVEL {
        e.send(&format!("setoption name Skill Level value {level}"));
        for fen in MATES_IN_ONE {
            let board = Board::from_fen(fen).unwrap();
            e.send(&format!("position fen {fen}"));
            let lines = go(&mut e, "go wtime 10000 btime 10000");
            let best = bestmove_of(lines.last().unwrap()).unwrap();
            assert!(mates(&board, &best), "level {level}: {best} in {fen}");
        }
    }
}

#[test]
fn the_lowest_level_misses_a_mate_that_full_strength_finds() {
    let board = Board::from_fen(MATE_IN_3).unwrap();
    let mut e = uci();
    e.send(&format!("position fen {MATE_IN_3}"));
    let full = go(&mut e, "go depth 8");
    assert_eq!(
        bestmove_of(full.last().unwrap()).as_deref(),
        Some(MATE_MOVE)
    );
    e.send("setoption name Skill Level value 0");
    let mut played = Vec::new();
    for seed in 1..=4 {
        for _ in 0..2 {
            e.send(&format!("setoption name Random Seed value {seed}"));
            e.send("ucinewgame");
            e.send(&format!("position fen {MATE_IN_3}"));
            let weak = go(&mut e, "go wtime 60000 btime 60000");
            assert_legal_bestmove(weak.last().unwrap(), &board);
            assert!(max_nodes(&weak) <= RUNGS[0].nodes);
            // The lines it picks among stay its own: one reported.
            assert!(weak.iter().all(|l| !l.contains(" multipv 2 ")));
            played.push(bestmove_of(weak.last().unwrap()).unwrap());
        }
    }
    assert!(played.iter().all(|m| m != MATE_MOVE), "{played:?}");
    // The same seed plays the same move.
    for pair in played.chunks(2) {
        assert_eq!(pair[0], pair[1], "{played:?}");
    }
    assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
}
