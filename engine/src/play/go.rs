//! What a `go` means: from what the GUI said (the [`Limits`] the protocol
//! filled in, in milliseconds) and the engine's settings ([`PlaySettings`],
//! from the options) to a book move or to the limits the search runs with:
//! the opening book, the strength handicap, `nodestime`'s node clock, and
//! what a `go` without limits does. The protocol converts units and prints;
//! the engine decides, here and nowhere else (the protocol asks
//! [`Limits::has_no_limit`] and [`Limits::ends_only_when_told`] rather than
//! deciding again).

use super::book::{Book, Entry, Random};
use super::ladder;
use super::nodestime::NodeClock;
use super::strength::{self, Grade, Randomness, Strength};
use crate::score::MAX_PLY;
use crate::search::params::SearchParams;
use crate::search::time::Clock;
use crate::search::{Limits, Reporter, SearchResult};
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
    /// Boxed: the limits are large and a book answer carries nothing.
    Search(Box<Limits>),
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

    /// A book move, or the search's limits.
    pub(crate) fn prepare(
        &mut self,
        board: &Board,
        req: Limits,
        reporter: &dyn Reporter,
    ) -> Prepared {
        if self.book_move(board, &req, reporter) {
            return Prepared::Answered;
        }
        let s = &self.settings;
        let depth = req.depth.map(|d| d.clamp(0, MAX_PLY as i32 - 8));
        // A `go` with no limit at all searches until told to stop.
        let infinite = req.infinite || req.has_no_limit();
        // What the GUI asked, bounded; the rest from the settings.
        let mut limits = Limits {
            depth,
            clock: Clock {
                movestogo: req.clock.movestogo.filter(|&m| m > 0).map(|m| m.min(1000)),
                ..req.clock
            },
            infinite,
            mate: req
                .mate
                .filter(|&m| m > 0)
                .map(|m| m.min(MAX_PLY as u32 / 2)),
            multipv: s.multipv,
            move_overhead: s.move_overhead,
            // Infinite searches answer only when told, in both dialects.
            wait_for_stop: infinite,
            // A new seed for each search.
            strength: s.strength(self.random.next_u64()).handicap(),
            params: s.search,
            ..req
        };
        self.node_clock.apply(&mut limits, s.nodestime);
        Prepared::Search(Box::new(limits))
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
    fn book_move(&mut self, board: &Board, req: &Limits, reporter: &dyn Reporter) -> bool {
        let s = &self.settings;
        if !s.own_book
            || s.analyse_mode
            || self.book.is_empty()
            || req.nodes.is_some()
            || req.mate.is_some()
            || req.infinite
            || req.ponder
            || (req.clock.time.is_none() && req.clock.movetime.is_none())
        {
            return false;
        }
        let allowed = |m: Move| {
            !req.banmoves.contains(&m)
                && (req.searchmoves.is_empty() || req.searchmoves.contains(&m))
        };
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

    fn clock(ms: u64) -> Limits {
        Limits {
            clock: Clock {
                time: Some(ms),
                ..Clock::default()
            },
            ..Limits::default()
        }
    }

    #[test]
    fn a_game_move_comes_from_the_book() {
        let mut play = Play::default();
        play.reseed(7);
        let board = Board::startpos();
        let record = Record::default();
        assert!(matches!(
            play.prepare(&board, clock(60_000), &record),
            Prepared::Answered
        ));
        let best = record.best.lock().unwrap().clone().unwrap().best.unwrap();
        assert!(board.is_legal_move(best));
        assert!(record.book.lock().unwrap().contains(&best));
        // A banned move is never the book's choice; a search limit, the
        // book off or analysis mode mean a search.
        let banned = Limits {
            banmoves: record.book.lock().unwrap().clone(),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, banned, &Record::default()),
            Prepared::Search(_)
        ));
        // A depth beside a clock or a movetime still plays from the book
        // (VinXiangQi's `go movetime X depth Y`); a depth alone searches.
        let capped = Limits {
            depth: Some(20),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, capped, &Record::default()),
            Prepared::Answered
        ));
        let capped_movetime = Limits {
            depth: Some(20),
            clock: Clock {
                movetime: Some(1000),
                ..Clock::default()
            },
            ..Limits::default()
        };
        assert!(matches!(
            play.prepare(&board, capped_movetime, &Record::default()),
            Prepared::Answered
        ));
        let deep = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert!(matches!(
            play.prepare(&board, deep, &Record::default()),
            Prepared::Search(_)
        ));
        let counted = Limits {
            nodes: Some(5000),
            ..clock(60_000)
        };
        assert!(matches!(
            play.prepare(&board, counted, &Record::default()),
            Prepared::Search(_)
        ));
        play.settings.own_book = false;
        assert!(matches!(
            play.prepare(&board, clock(60_000), &Record::default()),
            Prepared::Search(_)
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
        let at_start = Record::default();
        assert!(matches!(
            play.prepare(&start, clock(60_000), &at_start),
            Prepared::Answered
        ));
        assert_eq!(at_start.book.lock().unwrap().len(), 1);
        assert!(matches!(
            play.prepare(&board, clock(60_000), &Record::default()),
            Prepared::Search(_)
        ));
        // The light move that does not repeat is the only one offered.
        play.book = Book::from_records(vec![rec("h0g2", 1000), rec("b0c2", 1)]);
        for _ in 0..20 {
            let record = Record::default();
            assert!(matches!(
                play.prepare(&board, clock(60_000), &record),
                Prepared::Answered
            ));
            let best = record.best.lock().unwrap().clone().unwrap().best.unwrap();
            assert_eq!(best.to_string(), "b0c2");
            assert_eq!(*record.book.lock().unwrap(), vec![best]);
        }
    }

    /// What "no limit" means is decided here once: the protocol asks.
    #[test]
    fn a_go_without_limits_ends_only_when_told() {
        let bare = Limits::default();
        assert!(bare.has_no_limit() && bare.ends_only_when_told());
        let timed = clock(1000);
        assert!(!timed.has_no_limit() && !timed.ends_only_when_told());
        let ponder = Limits {
            ponder: true,
            ..clock(1000)
        };
        assert!(!ponder.has_no_limit() && ponder.ends_only_when_told());
        let infinite = Limits {
            infinite: true,
            depth: Some(3),
            ..Limits::default()
        };
        assert!(!infinite.has_no_limit() && infinite.ends_only_when_told());
    }

    #[test]
    fn the_engine_decides_the_limits() {
        let mut play = Play::default();
        play.settings.own_book = false;
        let board = Board::startpos();
        let limits = |play: &mut Play, req| match play.prepare(&board, req, &Record::default()) {
            Prepared::Search(l) => *l,
            Prepared::Answered => panic!("answered"),
        };
        // No limit at all: until told to stop.
        let l = limits(&mut play, Limits::default());
        assert!(l.infinite && l.wait_for_stop);
        // Absurd depths, mates and moves to go are brought into range.
        let l = limits(
            &mut play,
            Limits {
                depth: Some(i32::MAX),
                mate: Some(u32::MAX),
                clock: Clock {
                    movestogo: Some(0),
                    ..clock(1000).clock
                },
                ..clock(1000)
            },
        );
        assert_eq!(l.depth, Some(MAX_PLY as i32 - 8));
        assert_eq!(l.mate, Some(MAX_PLY as u32 / 2));
        assert_eq!(l.clock.movestogo, None);
        assert!(!l.infinite);
        // The strength comes from the settings, full by default; the search
        // is told the level of the rung.
        assert!(!l.strength.limited());
        let level = |rung| {
            Strength {
                rung,
                ..Strength::default()
            }
            .handicap()
            .level
        };
        play.settings.skill_level = 0;
        assert_eq!(limits(&mut play, clock(1000)).strength.level, level(0));
        play.settings.skill_level = 19;
        assert_eq!(
            limits(&mut play, clock(1000)).strength.level,
            level(ladder::rung_from_skill(19))
        );
        // `UCI_Elo` overrides the skill level once strength is limited.
        play.settings.limit_strength = true;
        play.settings.elo = ladder::ELO_MAX;
        assert!(!limits(&mut play, clock(1000)).strength.limited());
        play.settings.elo = ladder::ELO_MIN;
        assert_eq!(limits(&mut play, clock(1000)).strength.level, level(0));
        play.settings.limit_strength = false;
        play.settings.skill_level = 3;
        // `nodestime` turns the clock into a node budget.
        play.settings.nodestime = 100;
        let l = limits(&mut play, clock(10_000));
        assert!(
            l.nodes.is_some_and(|n| n > 0) && l.clock.time.is_none(),
            "{l:?}"
        );
    }
}
