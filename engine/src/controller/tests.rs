//! The engine handle's tests: searches answered, stopped and waited on,
//! the thread pool, networks.

use super::*;
use std::sync::mpsc::channel;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// Keeps every answer and the thread that gave it.
#[derive(Default)]
struct Record(Mutex<Vec<(SearchResult, ThreadId)>>);

impl Reporter for Record {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
    fn best_move(&self, result: &SearchResult) {
        lock(&self.0).push((result.clone(), std::thread::current().id()));
    }
}

fn depth(d: i32) -> Limits {
    Limits::of(request(d))
}

fn request(d: i32) -> GoRequest {
    GoRequest {
        depth: Some(d),
        ..GoRequest::default()
    }
}

/// `request` searched until told to stop (an infinite `go`'s settings).
fn until_stop(request: GoRequest) -> Limits {
    let mut limits = Limits::of(request);
    limits.settings.wait_for_stop = true;
    limits
}

#[test]
fn a_stopped_search_answers_a_legal_move() {
    let mut engine = Engine::new(4, 1);
    let board = Board::startpos();
    let record = Arc::new(Record::default());
    let limits = Limits::of(GoRequest {
        infinite: true,
        ..request(100)
    });
    engine.go_with_limits(&board, limits, record.clone());
    std::thread::sleep(Duration::from_millis(50));
    assert!(engine.is_searching());
    assert!(lock(&record.0).is_empty(), "no answer before stop");
    assert!(engine.stop());
    engine.wait();
    assert!(!engine.is_searching());
    let answers = lock(&record.0);
    assert_eq!(answers.len(), 1);
    let best = answers[0].0.best.expect("a move");
    assert!(board.is_legal_move(best));
    // Nothing left to stop.
    assert!(!engine.stop());
}

#[test]
fn the_same_threads_run_every_search() {
    let mut engine = Engine::new(4, 2);
    let ids = engine.thread_ids();
    assert_eq!(ids.len(), 2);
    assert!(!ids.contains(&std::thread::current().id()));
    let record = Arc::new(Record::default());
    let board = Board::startpos();
    for _ in 0..4 {
        engine.go_with_limits(&board, depth(4), record.clone());
        engine.wait();
    }
    assert_eq!(engine.thread_ids(), ids);
    let answers = lock(&record.0);
    assert_eq!(answers.len(), 4);
    for (result, thread) in answers.iter() {
        // The answer comes from the main engine thread.
        assert_eq!(*thread, ids[0]);
        assert!(board.is_legal_move(result.best.expect("a move")));
        assert_eq!(result.depth, 4);
    }
}

#[test]
fn set_threads_resizes_the_pool() {
    let mut engine = Engine::new(4, 1);
    let one = engine.thread_ids();
    engine.set_threads(3).unwrap();
    assert_eq!(engine.threads(), 3);
    let three = engine.thread_ids();
    assert_eq!(three.len(), 3);
    assert!(!three.contains(&one[0]), "threads are re-created");
    // The same number changes nothing.
    engine.set_threads(3).unwrap();
    assert_eq!(engine.thread_ids(), three);
    let board = Board::startpos();
    let r = engine.search(&board, depth(5));
    assert!(board.is_legal_move(r.best.expect("a move")));
    engine.set_threads(0).unwrap();
    assert_eq!(engine.threads(), 1);
    let r = engine.search(&board, depth(3));
    assert!(board.is_legal_move(r.best.expect("a move")));
}

#[test]
fn perft_runs_on_the_engine_and_can_be_stopped() {
    let mut engine = Engine::new(1, 1);
    let main = engine.thread_ids()[0];
    let board = Board::startpos();
    let (tx, rx) = channel();
    engine.perft(&board, 3, move |counts| {
        let _ = tx.send((counts, std::thread::current().id()));
    });
    engine.wait();
    let (counts, thread) = rx.recv().unwrap();
    let counts = counts.expect("not stopped");
    assert_eq!(counts.len(), 44);
    assert_eq!(counts.iter().map(|&(_, n)| n).sum::<u64>(), 79_666);
    assert_eq!(thread, main);

    // Far too deep to finish: stopped, it answers `None` at once.
    let (tx, rx) = channel();
    engine.perft(&board, 9, move |counts| {
        let _ = tx.send(counts);
    });
    std::thread::sleep(Duration::from_millis(20));
    let t = Instant::now();
    assert!(engine.stop());
    engine.wait();
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(rx.recv().unwrap(), None);
    assert!(!engine.is_searching());
}

#[test]
fn new_game_forgets_everything() {
    let mut engine = Engine::new(4, 1);
    let board = Board::startpos();
    let first = engine.search(&board, depth(6)).nodes;
    // The table and histories now help: the same search differs.
    assert_ne!(engine.search(&board, depth(6)).nodes, first);
    engine.new_game();
    assert_eq!(engine.search(&board, depth(6)).nodes, first);
}

#[test]
fn finished_infinite_and_ponder_searches_wait_to_answer() {
    let board = Board::startpos();
    let mut engine = Engine::new(4, 2);
    // An infinite search that reaches its depth at once waits for `stop`.
    let record = Arc::new(Record::default());
    let limits = until_stop(GoRequest {
        infinite: true,
        ..request(2)
    });
    engine.go_with_limits(&board, limits, record.clone());
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.is_searching());
    assert!(lock(&record.0).is_empty(), "no answer before stop");
    // `ponderhit` does not release it.
    engine.ponderhit();
    std::thread::sleep(Duration::from_millis(50));
    assert!(engine.is_searching());
    assert!(engine.stop());
    engine.wait();
    assert_eq!(lock(&record.0).len(), 1);

    // A pondering search waits for `ponderhit`.
    let record = Arc::new(Record::default());
    let limits = Limits::of(GoRequest {
        ponder: true,
        ..request(2)
    });
    engine.go_with_limits(&board, limits, record.clone());
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.is_searching());
    assert!(lock(&record.0).is_empty(), "no answer while pondering");
    engine.ponderhit();
    engine.wait();
    assert_eq!(lock(&record.0).len(), 1);
    assert!(board.is_legal_move(lock(&record.0)[0].0.best.expect("a move")));
    assert!(!engine.stop(), "nothing left to stop");
}

#[test]
fn no_move_answers_at_once_or_on_stop() {
    // Red is checkmated: nothing to search.
    let board = Board::from_fen("3k5/9/9/9/9/9/9/9/3r5/3rK4 w - - 0 1").unwrap();
    assert!(board.legal_moves().is_empty());
    let mut engine = Engine::new(1, 2);
    let r = engine.search(&board, depth(5));
    assert_eq!(r.best, None);
    // Told to wait for `stop`, it does.
    let record = Arc::new(Record::default());
    let limits = until_stop(GoRequest {
        infinite: true,
        ..GoRequest::default()
    });
    engine.go_with_limits(&board, limits, record.clone());
    std::thread::sleep(Duration::from_millis(30));
    assert!(engine.is_searching());
    assert!(engine.stop());
    engine.wait();
    assert_eq!(lock(&record.0).len(), 1);
}

/// The interrupt hook is how a host without threads stops a search: a
/// `stop` from it ends an infinite search, and releases a finished
/// search that waits for `stop` (polled with a wait, not spinning); a
/// `ponderhit` releases a finished pondering search.
#[test]
fn the_interrupt_hook_stops_and_releases_searches() {
    use crate::search::Interrupt;
    use std::sync::atomic::AtomicU32;
    static POLLS: AtomicU32 = AtomicU32::new(0);
    static WAITED: AtomicU32 = AtomicU32::new(0);
    static ANSWER: Mutex<Interrupt> = Mutex::new(Interrupt::Stop);
    fn hook(block_ms: u32) -> Interrupt {
        if block_ms > 0 {
            WAITED.fetch_add(1, Ordering::Relaxed);
        }
        if POLLS.fetch_add(1, Ordering::Relaxed) >= 20 {
            *lock(&ANSWER)
        } else {
            Interrupt::None
        }
    }
    let board = Board::startpos();
    let mut engine = Engine::new(4, 1);
    engine.set_interrupt(Some(hook));
    let run = |engine: &mut Engine, limits: Limits| {
        POLLS.store(0, Ordering::Relaxed);
        WAITED.store(0, Ordering::Relaxed);
        let record = Arc::new(Record::default());
        engine.go_with_limits(&board, limits, record.clone());
        engine.wait();
        let answers = lock(&record.0);
        assert_eq!(answers.len(), 1);
        assert!(board.is_legal_move(answers[0].0.best.expect("a move")));
    };
    // Searching until told: the search polls (no waits) until `stop`.
    let infinite = until_stop(GoRequest {
        infinite: true,
        ..request(100)
    });
    run(&mut engine, infinite.clone());
    assert!(POLLS.load(Ordering::Relaxed) > 20);
    assert_eq!(WAITED.load(Ordering::Relaxed), 0);
    // Depth 1 ends at once, then waits for `stop`, polling with waits.
    run(
        &mut engine,
        until_stop(GoRequest {
            infinite: true,
            ..request(1)
        }),
    );
    assert!(WAITED.load(Ordering::Relaxed) > 0);
    // A pondering search answers on `ponderhit`.
    *lock(&ANSWER) = Interrupt::PonderHit;
    run(
        &mut engine,
        Limits::of(GoRequest {
            ponder: true,
            ..request(1)
        }),
    );
    assert!(WAITED.load(Ordering::Relaxed) > 0);
}

/// A network whose every evaluation is `cp` for the side to move: no
/// first-layer weights, only the output bias.
fn constant_network(cp: i32) -> Network {
    use crate::nnue::{Arch, QA, QB, SCALE};
    let bias = (cp * QA * QB / SCALE) as i16;
    let a = Arch::NET2;
    Network::new(
        a,
        &vec![0; a.inputs() * a.l1],
        &vec![0; a.l1],
        &vec![0; a.output_buckets * 2 * a.l1],
        &vec![bias; a.output_buckets],
    )
    .unwrap()
}

/// With a network, the static evaluation is the network's and the
/// search evaluates through it: with every position worth +100 to the
/// side to move, a depth-1 search scores -100 (each reply stands pat
/// on +100); without it, it is the hand-made evaluation's again.
#[test]
fn the_search_evaluates_with_the_network() {
    let board = Board::startpos();
    let mut engine = Engine::new(4, 1);
    assert!(starts_with_the_default_network(&engine));
    engine.set_network(None);
    let hce = engine.search(&board, depth(1));
    assert_ne!(hce.score, -100);
    engine.set_network(Some(Arc::new(constant_network(100))));
    assert_eq!(engine.evaluate(&board), 100);
    let r = engine.search(&board, depth(1));
    assert!(board.is_legal_move(r.best.expect("a move")));
    assert_eq!(r.score, -100);
    engine.set_network(None);
    assert_eq!(
        engine.evaluate(&board),
        crate::eval::evaluate(&Position::new(board.clone()))
    );
    assert_eq!(engine.search(&board, depth(1)).score, hce.score);
}

/// A random network: the engine's static evaluation is `nnue::evaluate`
/// of a freshly computed accumulator, and searches on one and on two
/// threads (sharing the network) answer legal moves.
#[test]
fn searches_with_a_random_network_answer_legal_moves() {
    let net = Arc::new(Network::random(21));
    let mut engine = Engine::new(4, 1);
    engine.set_network(Some(net.clone()));
    for fen in [
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
        "2bak4/4a4/4b4/p7p/9/6R2/P7P/4B4/9/3AK1B2 b - - 0 1",
    ] {
        let board = Board::from_fen(fen).unwrap();
        let acc = crate::nnue::Accumulator::from_board(&net, &board);
        let want = nnue::evaluate(&net, &acc, board.side_to_move());
        let want = crate::eval::endgame_scale(&board, want);
        assert_eq!(engine.evaluate(&board), want, "{fen}");
        for threads in [1, 2] {
            engine.set_threads(threads).unwrap();
            let r = engine.search(&board, depth(6));
            assert!(board.is_legal_move(r.best.expect("a move")), "{fen}");
            assert_eq!(r.depth, 6);
        }
    }
}

/// The engine evaluates with the built-in network, if any.
fn starts_with_the_default_network(engine: &Engine) -> bool {
    match (engine.network(), nnue::default_network()) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, &b),
        _ => false,
    }
}

/// A network file that cannot be read leaves the evaluation as it was.
#[test]
fn a_bad_network_keeps_the_evaluation() {
    let mut engine = Engine::new(1, 1);
    let bytes = Network::random(2).to_bytes();
    assert!(
        engine
            .load_network_bytes(&bytes[..bytes.len() - 2])
            .is_err()
    );
    assert!(starts_with_the_default_network(&engine));
    engine.load_network_bytes(&bytes).unwrap();
    let net = engine.network().unwrap().clone();
    let e = engine
        .load_network_file("/nonexistent/net.nnue")
        .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/net.nnue"), "{e}");
    let mut garbage = bytes.clone();
    garbage[0] = b'?';
    assert!(engine.load_network_bytes(&garbage).is_err());
    assert!(Arc::ptr_eq(engine.network().unwrap(), &net));
}
