//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves, one shared transposition
//! table, and helper threads (lazy SMP) that search the same root.

pub mod history;
pub mod movepick;

use crate::board::Board;
use crate::eval::evaluate;
use crate::rules::{self, Outcome};
use crate::time::{Clock, Timer, allocate};
use crate::tt::{Bound, TranspositionTable};
use crate::types::{
    MAX_PLY, Move, SCORE_DRAW, SCORE_INFINITE, SCORE_MATE, SCORE_MATE_IN_MAX, Score,
};
use history::Histories;
use movepick::MovePicker;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What a `go` asks for, in engine terms.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub clock: Clock,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: no clock until `ponderhit`.
    pub ponder: bool,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Never these root moves.
    pub banmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead: u64,
}

/// State shared between the protocol and the search threads.
pub struct Shared {
    pub tt: Arc<TranspositionTable>,
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the clock starts.
    pub pondering: AtomicBool,
    /// Nodes of all threads, flushed in batches.
    pub nodes: AtomicU64,
}

impl Shared {
    pub fn new(tt: Arc<TranspositionTable>, ponder: bool) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            nodes: AtomicU64::new(0),
        }
    }
}

/// One line of search output.
pub struct IterationInfo<'a> {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: usize,
    pub pv: &'a [Move],
}

/// Where search output goes (the protocol's printer).
pub trait Reporter: Sync {
    fn iteration(&self, info: &IterationInfo);
    fn currmove(&self, depth: i32, mv: Move, number: usize);
}

/// A reporter that prints nothing (bench, tests, tools).
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Per-thread tables kept from one search to the next.
#[derive(Default)]
pub struct ThreadData {
    pub hist: Histories,
}

impl ThreadData {
    pub fn clear(&mut self) {
        self.hist.clear();
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: Score,
    prev_score: Score,
    seldepth: usize,
    pv: Vec<Move>,
}

pub const fn mate_in(ply: usize) -> Score {
    SCORE_MATE - ply as Score
}

pub const fn mated_in(ply: usize) -> Score {
    -SCORE_MATE + ply as Score
}

const PV_SIZE: usize = MAX_PLY + 2;

struct Worker<'a> {
    id: usize,
    board: Board,
    shared: &'a Shared,
    data: &'a mut ThreadData,
    limits: &'a Limits,
    reporter: &'a dyn Reporter,
    timer: Timer,
    nodes: u64,
    flushed: u64,
    poll_mask: u64,
    seldepth: usize,
    stopped: bool,
    /// Internal stops (time, nodes) are ignored until depth 1 is complete.
    can_stop: bool,
    pv: Vec<Move>,
    pv_len: [usize; PV_SIZE],
    killers: [[Move; 2]; PV_SIZE],
    root_moves: Vec<RootMove>,
    root_depth: i32,
    pv_idx: usize,
    /// Rulings that ended a line with a win or loss (perpetual check or
    /// chase). Their scores depend on the path, so a node whose subtree met
    /// one does not store its score in the shared table.
    rule_hits: u64,
    rule_cache: Vec<Option<(u64, Outcome)>>,
}

const RULE_CACHE: usize = 1024;

/// Search `board` with `threads` threads; returns when the limits are reached
/// or `shared.stop` is set. The first `threads` entries of `pool` are used
/// (the pool grows if needed).
pub fn run(
    board: &Board,
    limits: &Limits,
    shared: &Shared,
    pool: &mut Vec<ThreadData>,
    threads: usize,
    reporter: &dyn Reporter,
) -> SearchResult {
    let threads = threads.max(1);
    while pool.len() < threads {
        pool.push(ThreadData::default());
    }
    shared.tt.new_search();
    let root_moves = root_moves(board, limits);
    if root_moves.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    let (main_data, helpers) = pool.split_first_mut().expect("pool is not empty");
    let result = std::thread::scope(|scope| {
        for (i, data) in helpers.iter_mut().take(threads - 1).enumerate() {
            let rm = root_moves.clone();
            scope.spawn(move || {
                let mut w = Worker::new(i + 1, board, shared, data, limits, &Silent, rm);
                w.iterate();
            });
        }
        let mut main = Worker::new(0, board, shared, main_data, limits, reporter, root_moves);
        let result = main.iterate();
        // Helpers stop when the main thread is done.
        shared.stop.store(true, Ordering::Relaxed);
        result
    });
    SearchResult {
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..result
    }
}

fn root_moves(board: &Board, limits: &Limits) -> Vec<RootMove> {
    let legal = board.legal_moves();
    legal
        .iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .filter(|m| !limits.banmoves.contains(m))
        .map(|m| RootMove {
            mv: m,
            score: -SCORE_INFINITE,
            prev_score: -SCORE_INFINITE,
            seldepth: 0,
            pv: vec![m],
        })
        .collect()
}

impl<'a> Worker<'a> {
    fn new(
        id: usize,
        board: &Board,
        shared: &'a Shared,
        data: &'a mut ThreadData,
        limits: &'a Limits,
        reporter: &'a dyn Reporter,
        root_moves: Vec<RootMove>,
    ) -> Worker<'a> {
        let budget = allocate(&limits.clock, limits.move_overhead);
        let poll_mask = match limits.nodes {
            Some(n) if n < 100_000 => 0,
            _ => 1023,
        };
        Worker {
            id,
            board: board.clone(),
            shared,
            data,
            limits,
            reporter,
            timer: Timer::new(budget),
            nodes: 0,
            flushed: 0,
            poll_mask,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            pv: vec![Move::NONE; PV_SIZE * PV_SIZE],
            pv_len: [0; PV_SIZE],
            killers: [[Move::NONE; 2]; PV_SIZE],
            root_moves,
            root_depth: 0,
            pv_idx: 0,
            rule_hits: 0,
            rule_cache: vec![None; RULE_CACHE],
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening. Returns the best move found.
    fn iterate(&mut self) -> SearchResult {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        let mut last_best = Move::NONE;
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -SCORE_INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.root_search(depth, -SCORE_INFINITE, SCORE_INFINITE);
                // Best first; unsearched moves keep the previous iteration's order.
                self.root_moves[pv_idx..]
                    .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.prev_score)));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            self.can_stop = true;
            // Keep the root in the table too (for `probe` and the next search).
            let best = &self.root_moves[0];
            self.shared.tt.store(
                self.board.key(),
                0,
                best.mv,
                best.score,
                0,
                depth,
                Bound::Exact,
                true,
            );
            if self.is_main() {
                self.report(depth, multipv);
            }
            if !self.is_main() {
                continue;
            }
            let best = &self.root_moves[0];
            if best.mv == last_best {
                stable += 1;
            } else {
                stable = 0;
                last_best = best.mv;
            }
            if let Some(n) = self.limits.mate
                && best.score >= SCORE_MATE_IN_MAX
                && (SCORE_MATE - best.score + 1) / 2 <= n as Score
            {
                break;
            }
            if self.pondering() {
                continue;
            }
            // One legal move: no reason to think on a clock.
            let scale = if self.root_moves.len() == 1 {
                0.05
            } else if stable >= 4 {
                0.35
            } else {
                0.55
            };
            if self.timer.stop_iterating(scale) {
                break;
            }
        }
        // Flush the last nodes so that totals are exact.
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        let best = self.root_moves[0].clone();
        let ponder = match best.pv.get(1) {
            Some(&m) => Some(m),
            None => self.ponder_from_tt(best.mv),
        };
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: if best.score == -SCORE_INFINITE {
                best.prev_score
            } else {
                best.score
            },
            depth: completed,
            nodes: self.nodes,
            pv: best.pv,
        }
    }

    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make_move(best);
        let m = self
            .shared
            .tt
            .probe(self.board.key(), 0)
            .map(|e| e.mv)
            .filter(|&m| self.board.is_legal_move(m));
        self.board.unmake_move();
        m
    }

    fn pondering(&self) -> bool {
        self.shared.pondering.load(Ordering::Relaxed)
    }

    fn report(&self, depth: i32, multipv: usize) {
        let time_ms = self.timer.elapsed().as_millis() as u64;
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed);
        let hashfull = self.shared.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let score = if rm.score == -SCORE_INFINITE {
                rm.prev_score
            } else {
                rm.score
            };
            self.reporter.iteration(&IterationInfo {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: i + 1,
                score,
                bound: Bound::Exact,
                nodes,
                time_ms,
                hashfull,
                pv: &rm.pv,
            });
        }
    }

    /// Count a node and, every so often, look at the clock and the stop flag.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let total = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
            + (self.nodes - self.flushed);
        self.flushed = self.nodes;
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.is_main() || !self.can_stop {
            return;
        }
        if let Some(n) = self.limits.nodes
            && total >= n
        {
            self.stop_all();
        }
        if self.pondering() {
            // The clock starts when the ponder move is played.
            self.timer.restart();
            return;
        }
        if self.timer.out_of_time() {
            self.stop_all();
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child = ply + 1;
        let n = self.pv_len[child];
        self.pv[ply * PV_SIZE] = m;
        for i in 0..n {
            self.pv[ply * PV_SIZE + 1 + i] = self.pv[child * PV_SIZE + i];
        }
        self.pv_len[ply] = n + 1;
    }

    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score) -> Score {
        let mut best = -SCORE_INFINITE;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.is_main() && self.timer.elapsed().as_millis() > 3000 {
                self.reporter.currmove(depth, m, i + 1);
            }
            self.board.make_move(m);
            self.nodes += 1;
            let score = if i == self.pv_idx {
                -self.search(-beta, -alpha, depth - 1, 1, true)
            } else {
                let s = -self.search(-alpha - 1, -alpha, depth - 1, 1, false);
                if s > alpha && s < beta {
                    -self.search(-beta, -alpha, depth - 1, 1, true)
                } else {
                    s
                }
            };
            self.board.unmake_move();
            if self.stopped {
                return best;
            }
            if i == self.pv_idx || score > alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[PV_SIZE..PV_SIZE + self.pv_len[1]]);
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv = pv;
                alpha = alpha.max(score);
            }
            best = best.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The score the rules give this node if the game ends here: a
    /// repetition (ruled for perpetual check and chase), or the natural-move
    /// limit. A repetition counts once its earlier occurrence is inside the
    /// search, or when the position occurred twice before the root.
    fn rule_score(&mut self, ply: usize) -> Option<Score> {
        let hist = self.board.history();
        let key = self.board.key();
        let mut before_root = 0;
        let mut cycle = None;
        for i in (4..=self.board.repetition_window()).step_by(2) {
            if hist[hist.len() - i].key == key {
                if i < ply {
                    cycle = Some(i);
                    break;
                }
                before_root += 1;
                if before_root == 2 {
                    cycle = Some(i);
                    break;
                }
            }
        }
        if let Some(plies) = cycle {
            let outcome = self.cycle_outcome(plies);
            return Some(match outcome {
                Outcome::Win(c, _) => {
                    self.rule_hits += 1;
                    if c == self.board.side_to_move() {
                        mate_in(ply)
                    } else {
                        mated_in(ply)
                    }
                }
                _ => SCORE_DRAW,
            });
        }
        if self.board.rule60() >= 120 {
            return Some(if self.board.has_legal_move() {
                SCORE_DRAW
            } else {
                mated_in(ply)
            });
        }
        None
    }

    /// The ruling of the last `plies` moves, cached by the positions they pass.
    fn cycle_outcome(&mut self, plies: usize) -> Outcome {
        let hist = self.board.history();
        let tag = hist[hist.len() - plies..]
            .iter()
            .fold(self.board.key() ^ plies as u64, |t, u| {
                t.rotate_left(7) ^ u.key
            });
        let slot = (tag as usize) % RULE_CACHE;
        if let Some((t, o)) = self.rule_cache[slot]
            && t == tag
        {
            return o;
        }
        let o = rules::judge_cycle(&mut self.board, plies).outcome();
        self.rule_cache[slot] = Some((tag, o));
        o
    }

    fn search(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(s) = self.rule_score(ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.board);
        }
        // Mate distance pruning: no score here can beat a shorter mate.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = self.board.key();
        let tt = self.shared.tt.probe(key, ply);
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if !pv_node
            && let Some(e) = tt
            && e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
                Bound::None => false,
            }
        {
            return e.score;
        }
        let pins = self.board.pins();
        let mut picker = MovePicker::new(&self.board, tt_move, self.killers[ply], Move::NONE);
        let old_alpha = alpha;
        let hits_at_entry = self.rule_hits;
        let mut best = -SCORE_INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        while let Some(m) = picker.next(&self.board, &self.data.hist, ply, false) {
            if !self.board.is_legal_with(m, &pins) {
                continue;
            }
            legal += 1;
            let capture = self.board.piece_at(m.to()).is_some();
            self.board.make_move(m);
            let score = if legal == 1 {
                -self.search(-beta, -alpha, depth - 1, ply + 1, pv_node)
            } else {
                let s = -self.search(-alpha - 1, -alpha, depth - 1, ply + 1, false);
                if pv_node && s > alpha && s < beta {
                    -self.search(-beta, -alpha, depth - 1, ply + 1, true)
                } else {
                    s
                }
            };
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !capture {
                            self.update_quiet_stats(ply, m, &quiets[..n_quiets], depth);
                        }
                        break;
                    }
                }
            }
            if !capture && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        if legal == 0 {
            // Checkmate or stalemate: both lose.
            return mated_in(ply);
        }
        let bound = if self.rule_hits != hits_at_entry {
            // Only the move: the score rests on a ruling of this path.
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, 0, depth, bound, pv_node);
        best
    }

    fn update_quiet_stats(&mut self, ply: usize, m: Move, tried: &[Move], depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let side = self.board.side_to_move();
        self.data.hist.update_quiets(side, m, tried, depth);
    }

    fn qsearch(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(s) = self.rule_score(ply) {
            return s;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(&self.board) };
        }
        let key = self.board.key();
        let tt = self.shared.tt.probe(key, ply);
        if let Some(e) = tt
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
                Bound::None => false,
            }
        {
            return e.score;
        }
        let mut best = -SCORE_INFINITE;
        let old_alpha = alpha;
        if !in_check {
            let stand_pat = evaluate(&self.board);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let hits_at_entry = self.rule_hits;
        let pins = self.board.pins();
        let mut picker =
            MovePicker::new_qsearch(&self.board, tt.map_or(Move::NONE, |e| e.mv), in_check);
        let mut best_move = Move::NONE;
        let mut legal = 0;
        while let Some(m) = picker.next(&self.board, &self.data.hist, ply, false) {
            if !self.board.is_legal_with(m, &pins) {
                continue;
            }
            legal += 1;
            self.board.make_move(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        let bound = if self.rule_hits != hits_at_entry {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, 0, 0, bound, false);
        best
    }
}

/// Search a position to a fixed depth on one thread with a private table.
/// For tools and tests.
pub fn search_depth(board: &Board, depth: i32, hash_mb: usize) -> SearchResult {
    let shared = Shared::new(Arc::new(TranspositionTable::new(hash_mb)), false);
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let mut pool = Vec::new();
    run(board, &limits, &shared, &mut pool, 1, &Silent)
}
