//! What a `go` means: from what the GUI said (the [`GoRequest`] the
//! protocol read, bounded where it is defined) and the engine's settings
//! ([`PlaySettings`], from the options) to a book move or to a search: the
//! request as sent, and beside it the [`SearchSettings`] this adds (lines,
//! overhead, the strength's cap, pruning and evaluation hook, `nodestime`'s
//! node clock), with the reporter a level answers through.

use super::book::{Book, Entry, Random};
use super::ladder;
use super::nodestime::NodeClock;
use super::strength::{self, Grade, Randomness, Strength};
use crate::search::params::SearchParams;
use crate::search::{GoRequest, Limits, Reporter, SearchResult, SearchSettings};
use std::sync::Arc;
use xiangqi::board::Board;
use xiangqi::types::Move;

/// The options that shape a `go`, as the engine keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaySettings {
    pub multipv: usize,
    pub move_overhead: u64,
    /// Above 0, clock times count nodes (this many per millisecond).
    pub nodestime: u64,
    /// Play from the opening book (when the `go` is for a game move).
    pub own_book: bool,
    /// Analysing, not playing: no book moves.
    pub analyse_mode: bool,
    /// `Skill Level` 0-20 (20: full strength), spread over the ladder.
    pub skill_level: i64,
    /// Play on the rung nearest `elo` instead of `skill_level`'s.
    pub limit_strength: bool,
    pub elo: i64,
    pub randomness: Randomness,
    pub pruning: Grade,
    pub knowledge: Grade,
    /// The search's margins and reductions (set only in a tuning build).
    pub search: SearchParams,
}

impl Default for PlaySettings {
    /// Full strength, the book on.
    fn default() -> Self {
        PlaySettings {
            multipv: 1,
            move_overhead: 10,
            nodestime: 0,
            own_book: true,
            analyse_mode: false,
            skill_level: ladder::MAX_SKILL_LEVEL,
            limit_strength: false,
            elo: ladder::ELO_MIN,
            randomness: Randomness::None,
            pruning: Grade::Large,
            knowledge: Grade::Large,
            search: SearchParams::DEFAULT,
        }
    }
}

impl PlaySettings {
    /// The playing strength, for a search with this seed.
    pub fn strength(&self, seed: u64) -> Strength {
        let rung = if self.limit_strength {
            ladder::rung_from_elo(self.elo)
        } else {
            ladder::rung_from_skill(self.skill_level)
        };
        Strength {
            rung,
            randomness: self.randomness,
            pruning: self.pruning,
            knowledge: self.knowledge,
            seed,
        }
    }
}

/// What a `go` turned into.
pub(crate) enum Prepared {
    /// Answered already (a book move).
    Answered,
    /// A search: its orders (boxed: they are large and a book answer
    /// carries nothing) and the reporter it answers through.
    Search(Box<Limits>, Arc<dyn Reporter>),
}

/// The state a `go` needs beyond the search: the book, the random source
/// of book choices and strength seeds, and the game's node clock.
pub(crate) struct Play {
    pub settings: PlaySettings,
    pub book: Book,
    pub random: Random,
    pub node_clock: NodeClock,
}

impl Default for Play {
    fn default() -> Self {
        Play {
            settings: PlaySettings::default(),
            book: Book::default_book(),
            random: Random::from_time(),
            node_clock: NodeClock::default(),
        }
    }
}

impl Play {
    /// Seed the choices (0: from the clock). Close seeds give unrelated
    /// sequences.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.random = match seed {
            0 => Random::from_time(),
            s => Random::seeded(strength::rng(s).next_u64()),
        };
    }

    /// A book move, or the search: `request` as the GUI sent it, and the
    /// settings added beside it.
    pub(crate) fn prepare(
        &mut self,
        board: &Board,
        request: GoRequest,
        reporter: Arc<dyn Reporter>,
    ) -> Prepared {
        if self.book_move(board, &request, reporter.as_ref()) {
            return Prepared::Answered;
        }
        let s = &self.settings;
        let mut settings = SearchSettings {
            multipv: s.multipv.max(1),
            move_overhead: s.move_overhead,
            // Infinite searches, and those without any limit, answer only
            // when told, in both dialects.
            wait_for_stop: request.infinite || request.has_no_limit(),
            params: s.search,
            ..SearchSettings::default()
        };
        // A new seed for each search.
        let strength = s.strength(self.random.next_u64());
        strength.apply(&mut settings);
        let reporter = strength.reporter(reporter, board, &request, s.multipv, &settings);
        self.node_clock.apply(&request, &mut settings, s.nodestime);
        Prepared::Search(Box::new(Limits { request, settings }), reporter)
    }

    /// Answer from the opening book if it applies: the book is on, the
    /// search is for a game move (a clock or a `movetime`, and no node,
    /// mate, infinite or ponder limit) and the position has book moves
    /// allowed by `searchmoves` and `banmoves` that do not bring back a
    /// position of the game. A depth beside a clock is only a cap on the
    /// search (VinXiangQi sends `go movetime X depth Y` for every move), so
    /// it keeps the book; a depth alone has no clock and asks for the
    /// search's analysis. A move is drawn by weight. Returns true if it
    /// answered.
    fn book_move(&mut self, board: &Board, req: &GoRequest, reporter: &dyn Reporter) -> bool {
        let s = &self.settings;
        if !s.own_book || s.analyse_mode || self.book.is_empty() || !req.is_game_move() {
            return false;
        }
        let allowed = |m: Move| req.allows(m);
        let entries: Vec<Entry> = self
            .book
            .probe(board)
            .into_iter()
            .filter(|e| allowed(e.mv) && e.weight > 0 && !repeats(board, e.mv))
            .collect();
        let Some(&last) = entries.last() else {
            return false;
        };
        let total: u32 = entries.iter().map(|e| e.weight).sum();
        let mut pick = (self.random.next_f64() * total as f64) as u32;
        let mut chosen = last;
        for e in &entries {
            if pick < e.weight {
                chosen = *e;
                break;
            }
            pick -= e.weight;
        }
        reporter.book_moves(&entries, total);
        // The ponder move: the heaviest book reply, if any.
        let mut after = board.clone();
        after.make_move(chosen.mv);
        let ponder = self.book.probe(&after).first().map(|e| e.mv);
        reporter.best_move(&SearchResult {
            best: Some(chosen.mv),
            ponder,
            score: chosen.score as i32,
            ..Default::default()
        });
        true
    }
}

/// Would `mv` bring back a position the game has had (one reached by the
/// moves of the `position` command)? ElephantEye refuses such a book move
/// too: a book line that cycles would otherwise be replayed for ever, and
/// the search knows the repetition rules where the book does not. Keys
/// from before the last capture cannot match (fewer pieces now), so the
/// whole history can be scanned.
fn repeats(board: &Board, mv: Move) -> bool {
    let key = board.key_after(mv);
    board.history().iter().any(|u| u.key_before() == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::IterationInfo;
    use crate::search::time::Clock;
    use std::sync::Mutex;

    /// Records what a `go` answered.
    #[derive(Default)]
    struct Record {
        book: Mutex<Vec<Move>>,
        best: Mutex<Option<SearchResult>>,
    }

    impl Reporter for Record {
        fn iteration(&self, _: &IterationInfo) {}
        fn currmove(&self, _: i32, _: Move, _: usize) {}
        fn best_move(&self, r: &SearchResult) {
            *self.best.lock().unwrap() = Some(r.clone());
        }
        fn book_moves(&self, entries: &[Entry], _: u32) {
            *self.book.lock().unwrap() = entries.iter().map(|e| e.mv).collect();
        }
    }

    fn clock(ms: u64) -> GoRequest {
        GoRequest {
            clock: Clock {
                time: Some(ms),
                ..Clock::default()
            },
            ..GoRequest::default()
        }
    }

    #[test]
    fn a_game_move_comes_from_the_book() {
        let mut play = Play::default();
        play.reseed(7);
        let board = Board::startpos();
        let record = Arc::new(Record::default());
        assert!(matches!(
            play.prepare(&board, clock(60_000), record.clone()),
            Prepared::Answered
        ));
        let best = record.best.lock().unwrap().clone().unwrap().best.unwrap();
        assert!(board.is_legal_move(best));
        assert!(record.book.lock().unwrap().contains(&best));
        // A banned move is never the book's choice; a search limit, the
        // book off or analysis mode mean a search.
        let banned = GoRequest {
            banmoves: record.book.lock().unwrap().clone(),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, banned, Arc::new(Record::default())),
            Prepared::Search(..)
        ));
        // A depth beside a clock or a movetime still plays from the book
        // (VinXiangQi's `go movetime X depth Y`); a depth alone searches.
        let capped = GoRequest {
            depth: Some(20),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, capped, Arc::new(Record::default())),
            Prepared::Answered
        ));
        let capped_movetime = GoRequest {
            depth: Some(20),
            clock: Clock {
                movetime: Some(1000),
                ..Clock::default()
            },
            ..GoRequest::default()
        };
        assert!(matches!(
            play.prepare(&board, capped_movetime, Arc::new(Record::default())),
            Prepared::Answered
        ));
        let deep = GoRequest {
            depth: Some(5),
            ..GoRequest::default()
        };
        assert!(matches!(
            play.prepare(&board, deep, Arc::new(Record::default())),
            Prepared::Search(..)
        ));
        let counted = GoRequest {
            nodes: Some(5000),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, counted, Arc::new(Record::default())),
            Prepared::Search(..)
        ));
        play.settings.own_book = false;
        assert!(matches!(
            play.prepare(&board, clock(60_000), Arc::new(Record::default())),
            Prepared::Search(..)
        ));
    }

    /// A book move back to a position of the game is never played; with
    /// none left, the `go` searches (as ElephantEye does).
    #[test]
    fn a_book_move_that_repeats_the_game_is_skipped() {
        let start = Board::startpos();
        let rec = |mv: &str, weight| super::super::book::Record {
            key: start.key(),
            mv: start.parse_move(mv).unwrap().raw(),
            weight,
            score: 0,
            games: weight,
        };
        let mut play = Play::default();
        play.reseed(3);
        // Back at the start after 1. h0g2 h9g7 2. g2h0 g7h9: h0g2 repeats.
        let mut board = start.clone();
        for mv in ["h0g2", "h9g7", "g2h0", "g7h9"] {
            board.make_move(board.parse_move(mv).unwrap());
        }
        play.book = Book::from_records(vec![rec("h0g2", 1000)]);
        let at_start = Arc::new(Record::default());
        assert!(matches!(
            play.prepare(&start, clock(60_000), at_start.clone()),
            Prepared::Answered
        ));
        assert_eq!(at_start.book.lock().unwrap().len(), 1);
        assert!(matches!(
            play.prepare(&board, clock(60_000), Arc::new(Record::default())),
            Prepared::Search(..)
        ));
        // The light move that does not repeat is the only one offered.
        play.book = Book::from_records(vec![rec("h0g2", 1000), rec("b0c2", 1)]);
        for _ in 0..20 {
            let record = Arc::new(Record::default());
            assert!(matches!(
                play.prepare(&board, clock(60_000), record.clone()),
                Prepared::Answered
            ));
            let best = record.best.lock().unwrap().clone().unwrap().best.unwrap();
            assert_eq!(best.to_string(), "b0c2");
            assert_eq!(*record.book.lock().unwrap(), vec![best]);
        }
    }

    #[test]
    fn the_engine_adds_its_settings_beside_the_request() {
        let mut play = Play::default();
        play.settings.own_book = false;
        let board = Board::startpos();
        let limits = |play: &mut Play, req: GoRequest| match play.prepare(
            &board,
            req,
            Arc::new(Record::default()),
        ) {
            Prepared::Search(l, _) => *l,
            Prepared::Answered => panic!("answered"),
        };
        // No limit at all: until told to stop; the request as sent.
        let l = limits(&mut play, GoRequest::default());
        assert!(l.settings.wait_for_stop && !l.request.infinite);
        assert_eq!(l.request, GoRequest::default());
        // The strength comes from the settings, full by default: no cap;
        // a level's cap is its rung's.
        let l = limits(&mut play, clock(1000));
        assert_eq!(l.request, clock(1000));
        assert!(!l.settings.wait_for_stop);
        assert_eq!(l.settings.node_cap, None);
        let cap = |rung: usize| Some(ladder::RUNGS[rung].nodes);
        play.settings.skill_level = 0;
        assert_eq!(limits(&mut play, clock(1000)).settings.node_cap, cap(0));
        play.settings.skill_level = 19;
        assert_eq!(
            limits(&mut play, clock(1000)).settings.node_cap,
            cap(ladder::rung_from_skill(19))
        );
        // `UCI_Elo` overrides the skill level once strength is limited.
        play.settings.limit_strength = true;
        play.settings.elo = ladder::ELO_MAX;
        assert_eq!(limits(&mut play, clock(1000)).settings.node_cap, None);
        play.settings.elo = ladder::ELO_MIN;
        assert_eq!(limits(&mut play, clock(1000)).settings.node_cap, cap(0));
        play.settings.limit_strength = false;
        play.settings.skill_level = 3;
        // `nodestime` turns the clock into nodes, beside the request.
        play.settings.nodestime = 100;
        let l = limits(&mut play, clock(10_000));
        assert!(l.settings.clock_nodes.is_some_and(|n| n > 0), "{l:?}");
        assert_eq!(l.request, clock(10_000));
    }
}
