//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves, one shared transposition
//! table, and helper threads (lazy SMP) that search the same root.

pub mod history;
pub mod movepick;

use crate::eval::evaluate;
use crate::position::Position;
use crate::score::{MAX_PLY, SCORE_DRAW, SCORE_INFINITE, SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use crate::time::{Clock, TimeManager};
use crate::tt::{Bound, TranspositionTable};
use history::Histories;
use movepick::MovePicker;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use xiangqi::board::Board;
use xiangqi::rules::{self, Outcome};
use xiangqi::types::Move;

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
/// The stack is indexed by ply + 2 so that ply - 1 and ply - 2 always exist.
const STACK_OFFSET: usize = 2;

/// The kind of a node: whether it is the root, and whether it is searched
/// with an open window. One search function serves every kind; each kind is
/// compiled on its own, so the branches of the other kinds fold away.
///
/// The root differs from the nodes below it in a few ways: its moves come
/// from the root move list (legal, searched in that order, each counted as a
/// node), it is not counted itself, judged by the rules, looked up in the
/// table, pruned or extended, it reduces only late quiet moves by one ply,
/// and it records every move's score and line in the list instead of
/// storing the node in the table or learning move-ordering statistics.
trait NodeKind {
    const ROOT: bool;
    const PV: bool;
}

/// The root of the search (a PV node).
struct Root;
/// A node searched with an open window, below the root.
struct Pv;
/// A node searched with a null window.
struct NonPv;

impl NodeKind for Root {
    const ROOT: bool = true;
    const PV: bool = true;
}

impl NodeKind for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const ROOT: bool = false;
    const PV: bool = false;
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: Score,
    in_check: bool,
    /// Continuation-history index (piece, target) of the move made at this
    /// ply; `None` for a null move or before the move is known.
    cont: Option<usize>,
    /// A move left out of this node (singular-extension search).
    excluded: Move,
    killers: [Move; 2],
    /// The move made at this ply was a null move.
    null: bool,
}

/// Late-move reductions: `LMR[depth][move number]`, in plies.
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
        }
    }
    t
}

struct Worker<'a> {
    id: usize,
    board: Position,
    shared: &'a Shared,
    data: &'a mut ThreadData,
    limits: &'a Limits,
    reporter: &'a dyn Reporter,
    time: TimeManager,
    nodes: u64,
    flushed: u64,
    poll_mask: u64,
    seldepth: usize,
    stopped: bool,
    /// Internal stops (time, nodes) are ignored until depth 1 is complete.
    can_stop: bool,
    pv: Vec<Move>,
    pv_len: [usize; PV_SIZE],
    stack: Vec<Frame>,
    lmr: Box<[[u8; 64]; 64]>,
    root_moves: Vec<RootMove>,
    root_depth: i32,
    pv_idx: usize,
    completed_depth: i32,
    /// Rulings that ended a line with a win or loss (perpetual check or
    /// chase). Their scores depend on the path, so a node whose subtree met
    /// one does not store its score in the shared table.
    rule_hits: u64,
    rule_cache: Vec<Option<(u64, Outcome)>>,
}

const RULE_CACHE: usize = 1024;

/// What each thread found.
struct ThreadResult {
    result: SearchResult,
    depth: i32,
}

/// Search `board` with `threads` threads; returns when the limits are reached
/// or `shared.stop` is set. The first `threads` entries of `pool` are used
/// (the pool grows if needed). The main thread's move is reported unless a
/// helper beats it: helpers are taken in order, each against the result
/// chosen so far, and a helper is chosen only if it completed a deeper
/// iteration AND has a better score AND that score is not a mate score.
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
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .take(threads - 1)
            .enumerate()
            .map(|(i, data)| {
                let rm = root_moves.clone();
                scope.spawn(move || {
                    let mut w = Worker::new(i + 1, board, shared, data, limits, &Silent, rm);
                    let result = w.iterate();
                    ThreadResult {
                        result,
                        depth: w.completed_depth,
                    }
                })
            })
            .collect();
        let mut main = Worker::new(0, board, shared, main_data, limits, reporter, root_moves);
        let result = main.iterate();
        let mut all = vec![ThreadResult {
            result,
            depth: main.completed_depth,
        }];
        // Helpers stop when the main thread is done.
        shared.stop.store(true, Ordering::Relaxed);
        for h in handles {
            if let Ok(r) = h.join() {
                all.push(r);
            }
        }
        all
    });
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        let b = &results[best];
        if r.result.best.is_some()
            && r.depth > b.depth
            && r.result.score > b.result.score
            && r.result.score.abs() < SCORE_MATE_IN_MAX
        {
            best = i;
        }
    }
    let mut result = results
        .into_iter()
        .nth(best)
        .map(|r| r.result)
        .unwrap_or_default();
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result
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

/// Lazy SMP: helper threads skip some iterations so that they spread over
/// different depths (sizes and phases of the skipped blocks).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

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
        let poll_mask = match limits.nodes {
            Some(n) if n < 100_000 => 0,
            _ => 1023,
        };
        Worker {
            id,
            board: Position::new(board.clone()),
            shared,
            data,
            limits,
            reporter,
            time: TimeManager::new(&limits.clock, limits.move_overhead),
            nodes: 0,
            flushed: 0,
            poll_mask,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            pv: vec![Move::NONE; PV_SIZE * PV_SIZE],
            pv_len: [0; PV_SIZE],
            stack: vec![Frame::default(); PV_SIZE + STACK_OFFSET + 2],
            lmr: lmr_table(),
            root_moves,
            root_depth: 0,
            pv_idx: 0,
            completed_depth: 0,
            rule_hits: 0,
            rule_cache: vec![None; RULE_CACHE],
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    #[inline(always)]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + STACK_OFFSET]
    }

    #[inline(always)]
    fn frame_at(&self, ply: usize) -> &Frame {
        &self.stack[ply + STACK_OFFSET]
    }

    /// Iterative deepening with aspiration windows. Returns the best move found.
    fn iterate(&mut self) -> SearchResult {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        for depth in 1..=max_depth {
            if !self.is_main() && depth > 1 {
                let i = (self.id - 1) % 20;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -SCORE_INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta: Score = 18;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < SCORE_MATE_IN_MAX {
                    (
                        (prev - delta).max(-SCORE_INFINITE),
                        (prev + delta).min(SCORE_INFINITE),
                    )
                } else {
                    (-SCORE_INFINITE, SCORE_INFINITE)
                };
                loop {
                    let score = self.search::<Root>(alpha, beta, depth, 0, false);
                    // Best first; unsearched moves keep the previous iteration's order.
                    self.root_moves[pv_idx..]
                        .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.prev_score)));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-SCORE_INFINITE);
                    } else if score >= beta {
                        beta = (score + delta).min(SCORE_INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 5;
                    if delta > 1500 {
                        alpha = -SCORE_INFINITE;
                        beta = SCORE_INFINITE;
                    }
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
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
            if !self.is_main() {
                continue;
            }
            self.report(depth, multipv);
            let best = &self.root_moves[0];
            let (mv, score) = (best.mv, best.score);
            if let Some(n) = self.limits.mate
                && score >= SCORE_MATE_IN_MAX
                && (SCORE_MATE - score + 1) / 2 <= n as Score
            {
                break;
            }
            let single_move = self.root_moves.len() == 1;
            let pondering = self.pondering();
            if self
                .time
                .iteration_done(depth, mv, score, single_move, pondering)
            {
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
            depth: self.completed_depth,
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
        let time_ms = self.time.elapsed().as_millis() as u64;
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
            self.time.restart();
            return;
        }
        if self.time.out_of_time() {
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

    /// Set the frame of `ply` for the move about to be made there.
    #[inline(always)]
    fn note_move(&mut self, ply: usize, m: Move) {
        let cont = self
            .board
            .piece_at(m.from())
            .map(|p| history::piece_to(p, m.to().index()));
        let f = self.frame(ply);
        f.cont = cont;
        f.null = false;
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
        let o = rules::judge_cycle(self.board.board_mut(), plies).outcome();
        self.rule_cache[slot] = Some((tag, o));
        o
    }

    /// The frame `back` plies before `ply` (the stack has room for two before the root).
    #[inline(always)]
    fn frame_back(&self, ply: usize, back: usize) -> &Frame {
        &self.stack[ply + STACK_OFFSET - back]
    }

    fn context(&self, ply: usize) -> history::Context {
        history::Context {
            cont: [self.frame_back(ply, 1).cont, self.frame_back(ply, 2).cont],
        }
    }

    fn search<N: NodeKind>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        if depth <= 0 {
            return if N::PV {
                self.qsearch::<true>(alpha, beta, ply)
            } else {
                self.qsearch::<false>(alpha, beta, ply)
            };
        }
        if N::ROOT {
            // The root is not counted (its moves are), judged by the rules
            // or cut by mate distance. No move is excluded anywhere yet.
            self.stack.iter_mut().for_each(|f| f.excluded = Move::NONE);
        } else {
            self.pv_len[ply] = 0;
            self.count_node();
            if self.stopped {
                return 0;
            }
            if N::PV && ply > self.seldepth {
                self.seldepth = ply;
            }
            if let Some(s) = self.rule_score(ply) {
                return s;
            }
        }
        let in_check = self.board.in_check();
        if !N::ROOT {
            if ply >= MAX_PLY - 4 {
                return if in_check { 0 } else { evaluate(&self.board) };
            }
            // Mate distance pruning: no score here can beat a shorter mate.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let excluded = self.frame_at(ply).excluded;
        let key = self.board.key();
        // The root has no table entry to use: its moves and their order are
        // the root move list's, and it is stored once an iteration completes.
        let tt = if !N::ROOT && excluded.is_none() {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        // Near the move limit the table's scores may be from before it.
        let rule60_safe = self.board.rule60() < 110;
        if !N::PV
            && rule60_safe
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
        let eval = if in_check {
            -SCORE_INFINITE
        } else if let Some(e) = tt.filter(|e| e.bound != Bound::None || e.mv.is_some()) {
            e.eval
        } else {
            evaluate(&self.board)
        };
        {
            let f = self.frame(ply);
            f.static_eval = eval;
            f.in_check = in_check;
        }
        if !N::ROOT {
            // (The killers of ply 1 carry over from one root move, and one
            // iteration, to the next.)
            self.frame(ply + 1).killers = [Move::NONE; 2];
        }
        let improving = !in_check
            && ply >= 2
            && !self.frame_back(ply, 2).in_check
            && eval > self.frame_back(ply, 2).static_eval;
        let us = self.board.side_to_move();

        if !N::PV && !in_check && excluded.is_none() {
            // Razoring: far below alpha, only captures could save it.
            if depth <= 3 && eval + 200 + 180 * depth < alpha {
                let v = self.qsearch::<false>(alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta, a shallow search would not fall back.
            if depth <= 8
                && eval < SCORE_MATE_IN_MAX
                && eval - (85 * depth - 60 * improving as i32) >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still beats beta, a real move will.
            if depth >= 3
                && eval >= beta
                && !self.frame_back(ply, 1).null
                && self.board.has_major(us)
                && beta > -SCORE_MATE_IN_MAX
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                {
                    let f = self.frame(ply);
                    f.cont = None;
                    f.null = true;
                }
                self.board.make_null();
                let v = -self.search::<NonPv>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.board.unmake_null();
                self.frame(ply).null = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= SCORE_MATE_IN_MAX { beta } else { v };
                }
            }
        }
        // Internal iterative reduction: no hash move, search shallower first.
        if !N::ROOT && depth >= 4 && tt_move.is_none() && (N::PV || cut_node) {
            depth -= 1;
        }

        let ctx = self.context(ply);
        let counter = self.data.hist.counter_move(ctx.cont[0]);
        let killers = self.frame_at(ply).killers;
        let mut picker = MovePicker::new(&self.board, tt_move, killers, counter);
        let pins = self.board.pins();
        let old_alpha = alpha;
        let hits_at_entry = self.rule_hits;
        let mut best = -SCORE_INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; 32];
        let mut n_captures = 0;
        // Quiet moves searched before the rest are pruned (non-PV nodes).
        let lmp_limit = if improving {
            4 + depth * depth
        } else {
            2 + depth * depth / 2
        };
        loop {
            // The root's moves come from its list, in the list's order
            // (best first from the last iteration).
            let m = if N::ROOT {
                match self.root_moves.get(self.pv_idx + move_count) {
                    Some(rm) => rm.mv,
                    None => break,
                }
            } else {
                match picker.next(&self.board, &self.data.hist, &ctx, false) {
                    Some(m) => m,
                    None => break,
                }
            };
            if !N::ROOT && (m == excluded || !self.board.is_legal_with(m, &pins)) {
                continue;
            }
            move_count += 1;
            self.shared.tt.prefetch(self.board.key_after(m));
            let capture = self.board.piece_at(m.to()).is_some();
            let hist_score = if capture { 0 } else { picker.last_score() };
            let r_base = self.lmr[depth.min(63) as usize][move_count.min(63)] as i32;
            if N::ROOT && self.is_main() && self.time.elapsed().as_millis() > 3000 {
                self.reporter.currmove(depth, m, self.pv_idx + move_count);
            }

            // Shallow-depth pruning in non-PV nodes, once a move has been found
            // that is not mated. Checking moves are exempt (tested only when a
            // prune would fire).
            if !N::PV && best > -SCORE_MATE_IN_MAX && self.board.has_major(us) {
                let lmr_depth = (depth - 1 - r_base).max(0);
                if !capture {
                    // Late quiet moves are pruned, checks excepted (checks
                    // decide too many Xiangqi tactics to skip).
                    if move_count as i32 >= lmp_limit && !self.board.gives_check(m) {
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= 8
                        && eval + 110 + 100 * lmr_depth <= alpha
                        && !self.board.gives_check(m)
                    {
                        continue;
                    }
                    if lmr_depth <= 6
                        && move_count > 2
                        && !self.board.see_ge(m, -30 * lmr_depth * lmr_depth)
                        && !self.board.gives_check(m)
                    {
                        continue;
                    }
                } else if depth <= 6 && !self.board.see_ge(m, -100 * depth) {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than every other?
            let mut extension = 0;
            let may_extend = ply < 2 * self.root_depth as usize;
            if may_extend
                && m == tt_move
                && excluded.is_none()
                && depth >= 7
                && let Some(e) = tt
                && e.depth >= depth - 3
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && e.score.abs() < SCORE_MATE_IN_MAX
            {
                let sbeta = e.score - 2 * depth;
                self.frame(ply).excluded = m;
                let v = self.search::<NonPv>(sbeta - 1, sbeta, (depth - 1) / 2, ply, cut_node);
                self.frame(ply).excluded = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if v < sbeta {
                    extension = 1;
                } else if sbeta >= beta {
                    // Several moves beat beta: cut here.
                    return sbeta;
                } else if e.score >= beta {
                    extension = -1;
                }
            }

            self.note_move(ply, m);
            self.board.make_move(m);
            if N::ROOT {
                // Each root move counts as a node (without a poll).
                self.nodes += 1;
            }
            // The board knows after the move whether it checks.
            let gives_check = self.board.in_check();
            if !N::ROOT && extension == 0 && gives_check && may_extend {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;
            let mut score;
            if N::ROOT {
                if move_count > 1 {
                    // Late quiet root moves are searched a ply shallower first.
                    let r = (depth >= 3 && !capture && !gives_check && move_count > 4) as i32;
                    score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                    if score > alpha && r > 0 {
                        score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, true);
                    }
                } else {
                    score = -SCORE_INFINITE;
                }
            } else if depth >= 3 && move_count > 1 + N::PV as usize && (!capture || cut_node) {
                let mut r = r_base;
                r += (!N::PV) as i32 + cut_node as i32;
                r -= improving as i32;
                r -= gives_check as i32;
                if m == killers[0] || m == killers[1] || m == counter {
                    r -= 1;
                }
                r -= hist_score / 6000;
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                score = -self.search::<NonPv>(-alpha - 1, -alpha, d, ply + 1, true);
                if score > alpha && d < new_depth {
                    score =
                        -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !N::PV || move_count > 1 {
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = -SCORE_INFINITE;
            }
            if N::PV && (move_count == 1 || (score > alpha && score < beta)) {
                score = -self.search::<Pv>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if N::ROOT && (move_count == 1 || score > alpha) {
                // The root move keeps its score and line (the first move's
                // even when it fails low).
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[PV_SIZE..PV_SIZE + self.pv_len[1]]);
                let seldepth = self.seldepth;
                let rm = &mut self.root_moves[self.pv_idx + move_count - 1];
                rm.score = score;
                rm.seldepth = seldepth;
                rm.pv = pv;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if N::PV && !N::ROOT {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if N::ROOT {
                            // No move-ordering statistics at the root.
                        } else if capture {
                            self.data.hist.update_captures(
                                &self.board,
                                Some(m),
                                &captures[..n_captures],
                                depth,
                            );
                        } else {
                            let f = self.frame(ply);
                            if f.killers[0] != m {
                                f.killers[1] = f.killers[0];
                                f.killers[0] = m;
                            }
                            self.data.hist.update_quiets(
                                &self.board,
                                &ctx,
                                m,
                                &quiets[..n_quiets],
                                depth,
                            );
                            self.data.hist.update_captures(
                                &self.board,
                                None,
                                &captures[..n_captures],
                                depth,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if capture {
                if n_captures < captures.len() {
                    captures[n_captures] = m;
                    n_captures += 1;
                }
            } else if n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        if move_count == 0 {
            // Checkmate or stalemate: both lose. With a move excluded, the
            // node just failed low.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if !N::ROOT && excluded.is_none() {
            let bound = if self.rule_hits != hits_at_entry {
                // Only the move: the score rests on a ruling of this path.
                Bound::None
            } else if best >= beta {
                Bound::Lower
            } else if N::PV && alpha > old_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                ply,
                best_move,
                best,
                if in_check { 0 } else { eval },
                depth,
                bound,
                N::PV,
            );
        }
        best
    }

    fn qsearch<const PV: bool>(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
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
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { evaluate(&self.board) };
        }
        let key = self.board.key();
        let tt = self.shared.tt.probe(key, ply);
        if !PV
            && self.board.rule60() < 110
            && let Some(e) = tt
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
        let mut eval = 0;
        let mut futility_base = -SCORE_INFINITE;
        if !in_check {
            eval = match tt {
                Some(e) if e.bound != Bound::None || e.mv.is_some() => e.eval,
                _ => evaluate(&self.board),
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            futility_base = eval + 150;
        }
        let hits_at_entry = self.rule_hits;
        let pins = self.board.pins();
        let ctx = history::Context::default();
        let mut picker =
            MovePicker::new_qsearch(&self.board, tt.map_or(Move::NONE, |e| e.mv), in_check);
        let mut best_move = Move::NONE;
        let mut legal = 0;
        while let Some(m) = picker.next(&self.board, &self.data.hist, &ctx, false) {
            if !self.board.is_legal_with(m, &pins) {
                continue;
            }
            legal += 1;
            if !in_check {
                // Losing captures and captures that cannot reach alpha are skipped.
                if !self.board.see_ge(m, 0) {
                    continue;
                }
                let gain = self
                    .board
                    .piece_at(m.to())
                    .map_or(0, |p| crate::eval::psq::see_value(p.kind()));
                if futility_base + gain <= alpha && !self.board.gives_check(m) {
                    best = best.max(futility_base + gain);
                    continue;
                }
            }
            self.board.make_move(m);
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
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
        } else if PV && alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, eval, 0, bound, false);
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
