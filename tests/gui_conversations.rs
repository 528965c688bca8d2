//! The conversations of the GUIs players use, replayed against the real
//! binary, each asserting the answers that GUI relies on. What each GUI
//! sends, and from which source, is in `docs/gui-conversations.md`.
//!
//! - VinXiangQi 1.3.5 (`EngineHelper.cs`): `uci` and `ucci` at once, then
//!   options in the form of the dialect whose `...ok` it saw, `position fen
//!   <board> <side>` with no moves, `banmoves` even to a UCI engine,
//!   `go [ponder] movetime X depth Y`, `ponderhit`, `stop`.
//! - VinXiangQi's lines in UCCI: its July 2022 builds sent `ucci` alone and
//!   `setoption <key> <value>`; 1.3.5's later lines work the same there.
//! - A UCCI GUI (BHGUI, SharkChess, XQWizard): the UCCI 3.0 conversation,
//!   clocks with `time`/`increment`/`opptime`, `go draw`, `ponderhit draw`,
//!   `probe`, `stop`, `quit`.
//!
//! The engine run is `JIANGJUN_TEST_ENGINE` when set (a Wine wrapper for
//! the Windows build in CI), else this build's; timing bounds are generous,
//! and wider for such a foreign engine.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of, foreign_engine};
use std::time::{Duration, Instant};
use xiangqi::board::Board;

/// The start position as VinXiangQi writes it (`Utils.BoardToFen`): the
/// board and the side to move, no other field.
const START_VIN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
/// Red without the rook of a0: Black is far ahead but no mate is in sight,
/// so Red (to move) takes a draw offered.
const RED_DOWN_A_ROOK: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1";

/// Longest wait for any answer (a Windows build under Wine starts several
/// times slower).
fn patience() -> Duration {
    Duration::from_secs(if foreign_engine() { 600 } else { 120 })
}

/// How late an answer may come after its deadline (a `movetime`, a `stop`).
fn slack() -> Duration {
    Duration::from_millis(if foreign_engine() { 5000 } else { 1500 })
}

/// A GUI's end of the pipes.
struct Gui {
    e: EngineProcess,
}

impl Gui {
    fn start() -> Gui {
        Gui {
            e: EngineProcess::start_test_engine(),
        }
    }

    fn send(&mut self, line: &str) {
        self.e.send(line);
    }

    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.e.read_until_within(patience(), done)
    }

    /// The lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.until(|l| l == "readyok");
        v.pop();
        v
    }

    /// The lines up to the answer of a `go` (`bestmove`, `nobestmove`), and
    /// how long after `since` the answer came.
    fn answer(&mut self, since: Instant) -> (Vec<String>, Duration) {
        let lines = self.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        (lines, since.elapsed())
    }

    /// `go ...` and its answer, with the time it took.
    fn go(&mut self, go: &str) -> (Vec<String>, Duration) {
        let t = Instant::now();
        self.send(go);
        self.answer(t)
    }
}

fn no_errors(lines: &[String]) {
    assert!(
        !lines.iter().any(|l| l.contains("error")),
        "errors: {lines:#?}"
    );
}

/// Every option set was taken: no error, and none ignored as unknown.
fn all_options_taken(lines: &[String]) {
    no_errors(lines);
    assert!(
        !lines.iter().any(|l| l.contains("ignored")),
        "options ignored: {lines:#?}"
    );
}

/// The deepest `depth` of the `info` lines.
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.first() == Some(&"info"))
                .then(|| t.iter().position(|w| *w == "depth"))
                .flatten()
                .and_then(|i| t.get(i + 1)?.parse().ok())
        })
        .max()
        .unwrap_or(0)
}

// ----- what VinXiangQi does with the engine's lines -----

/// The words VinXiangQi takes for keys of an `info` line.
const VIN_INFO_TYPES: [&str; 16] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

/// Read an `info` line as VinXiangQi 1.3.5 does (`HandleOutputLine` and
/// `Engine_InfoEvent`), failing where it would throw: its keys go into a
/// dictionary (a key twice throws), a `score` is shown with its `depth`,
/// `time` and `nps` are parsed as numbers, and the first two moves of a
/// `pv` are cut into squares (`Substring(0, 2)`, `Substring(2, 2)`).
fn vinxiangqi_reads_info(line: &str) {
    let a: Vec<&str> = line.split(' ').collect();
    if a[0] != "info" {
        return;
    }
    let mut keys: Vec<(&str, String)> = Vec::new();
    let mut i = 1;
    while i < a.len() {
        let (key, value) = match a[i] {
            "pv" | "string" => {
                let v = (a[i], a[i + 1..].join(" "));
                i = a.len();
                v
            }
            "score" if matches!(a.get(i + 1), Some(&"cp") | Some(&"mate")) => {
                let v = ("score", a.get(i + 2).unwrap_or(&"").to_string());
                i += 3;
                v
            }
            "score" => {
                let v = ("score", a.get(i + 1).unwrap_or(&"").to_string());
                i += 2;
                v
            }
            k => match a.get(i + 1) {
                Some(v) if !VIN_INFO_TYPES.contains(v) => {
                    i += 2;
                    (k, v.to_string())
                }
                _ => {
                    i += 1;
                    (k, String::new())
                }
            },
        };
        assert!(
            !keys.iter().any(|(k, _)| *k == key),
            "VinXiangQi would throw on the key '{key}' twice: {line}"
        );
        keys.push((key, value));
    }
    let get = |k: &str| keys.iter().find(|(key, _)| *key == k).map(|(_, v)| v);
    if get("score").is_some() {
        let depth = get("depth").unwrap_or_else(|| panic!("score without depth: {line}"));
        assert!(depth.parse::<f64>().is_ok(), "{line}");
        for k in ["time", "nps"] {
            if let Some(v) = get(k) {
                assert!(v.parse::<f64>().is_ok(), "{k} not a number: {line}");
            }
        }
    }
    if let Some(pv) = get("pv") {
        let moves: Vec<&str> = pv.split(' ').collect();
        for m in moves.iter().take(2) {
            assert!(
                m.len() >= 4,
                "VinXiangQi cuts a pv move into squares: {line}"
            );
        }
    }
}

/// VinXiangQi reads `bestmove M` or `bestmove M ponder P` (with three
/// words it reads a fourth and throws).
fn vinxiangqi_reads_bestmove(line: &str) {
    let n = line.split(' ').count();
    assert!(
        n == 2 || (n >= 4 && line.split(' ').nth(2) == Some("ponder")),
        "VinXiangQi cannot read: {line}"
    );
}

/// VinXiangQi's engine settings form (`EngineSettingsForm_Load`): the name
/// runs from the third word to the last `type`; a check's default is the
/// second word after the type, a spin's default, min and max the 2nd, 4th
/// and 6th (min and max parsed as int), a combo's values every other word
/// after the default.
fn vinxiangqi_reads_option(line: &str) {
    let a: Vec<&str> = line.split(' ').collect();
    let ty = a.iter().rposition(|w| *w == "type").expect("type");
    assert!(
        a[1] == "name" && ty > 2,
        "no name where VinXiangQi looks: {line}"
    );
    let p = &a[ty + 2..];
    match a[ty + 1] {
        "check" => assert!(matches!(p.get(1), Some(&"true") | Some(&"false")), "{line}"),
        "spin" => {
            let n = |i: usize| p.get(i).and_then(|v| v.parse::<i32>().ok());
            let (d, min, max) = (n(1), n(3), n(5));
            assert!(
                matches!((d, min, max), (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi),
                "{line}"
            );
        }
        "combo" => {
            let default = p.get(1).expect("combo default");
            let vars: Vec<&&str> = p[2..].iter().skip(1).step_by(2).collect();
            assert!(vars.contains(&default), "{line}");
        }
        "button" | "string" => {}
        other => panic!("unknown type {other}: {line}"),
    }
}

/// The fields VinXiangQi's engine settings form makes of `option` lines, as
/// (name, type): it splits each line on single spaces and takes the third
/// word as the name and the fifth as the type (UCI), and shows only the
/// types check, spin, combo and button; any other line gives no field.
fn vinxiangqi_form_fields<'a>(lines: impl Iterator<Item = &'a String>) -> Vec<(String, String)> {
    lines
        .map(|l| l.split(' ').collect::<Vec<&str>>())
        .filter(|a| a.len() > 4 && a[0] == "option")
        .filter(|a| matches!(a[4], "check" | "spin" | "combo" | "button"))
        .map(|a| (a[2].to_string(), a[4].to_string()))
        .collect()
}

/// A GUI that sends `uci` alone (Pikafish's GUIs) sees each option once,
/// by its standard name; the single-word twins are VinXiangQi's alone.
#[test]
fn a_uci_gui_sees_the_standard_option_names_only() {
    let mut gui = Gui::start();
    gui.send("uci");
    let hello = gui.until(|l| l == "uciok");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Skill Level type spin"))
    );
    let after = gui.sync();
    let options: Vec<&String> = hello
        .iter()
        .chain(&after)
        .filter(|l| l.starts_with("option "))
        .collect();
    assert!(
        !options
            .iter()
            .any(|l| l.contains("Skill_Level") || l.contains("Move_Overhead")),
        "{options:#?}"
    );
    gui.send("quit");
    assert!(gui.e.wait_exit_within(patience()));
}

/// A position as VinXiangQi writes it: the board and the side to move.
fn vin_fen(board: &Board) -> String {
    let fen = board.to_fen();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Every line a VinXiangQi search printed reads as it expects; the answer
/// is a legal move of `board`. Returns the move.
fn vinxiangqi_answer(lines: &[String], board: &Board) -> String {
    for l in lines {
        vinxiangqi_reads_info(l);
    }
    let last = lines.last().unwrap();
    vinxiangqi_reads_bestmove(last);
    assert_legal_bestmove(last, board);
    bestmove_of(last).unwrap()
}

/// The searches VinXiangQi 1.3.5 runs (`StartAnalyze`,
/// `StartAnalyzePonder`, `PonderHit`, `PonderMiss`, `StopAnalyze`), in
/// either dialect.
fn vinxiangqi_searches(gui: &mut Gui) {
    let start = Board::from_fen(START_VIN).unwrap();
    // `go movetime X depth Y` is how VinXiangQi asks for every move: in a
    // book position it plays from the book at once (the depth is only a
    // cap), announcing the book moves as the dialect does.
    gui.send(&format!("position fen {START_VIN}"));
    let (lines, _) = gui.go("go movetime 1000 depth 20");
    let first = vinxiangqi_answer(&lines, &start);
    let announced = |l: &String| {
        l.starts_with(&format!("info string book move {first} "))
            || (l.starts_with("info depth 0 ") && l.ends_with(&format!(" pv {first}")))
    };
    assert!(lines.iter().any(announced), "no book move: {lines:#?}");
    assert_eq!(deepest(&lines), 0, "searched: {lines:#?}");
    // `banmoves` after the position (VinXiangQi bans the move it played
    // three times): the answer is another move.
    gui.send(&format!("position fen {START_VIN}"));
    gui.send(&format!("banmoves {first}"));
    let (lines, _) = gui.go("go movetime 300 depth 200");
    let other = vinxiangqi_answer(&lines, &start);
    assert_ne!(other, first, "banned move played: {lines:#?}");
    // Out of the book, the depth ends the search when it comes first...
    let out_of_book = Board::from_fen(RED_DOWN_A_ROOK).unwrap();
    gui.send(&format!("position fen {}", vin_fen(&out_of_book)));
    let (lines, took) = gui.go("go movetime 60000 depth 5");
    vinxiangqi_answer(&lines, &out_of_book);
    assert_eq!(deepest(&lines), 5, "{lines:#?}");
    assert!(took < Duration::from_secs(30), "depth 5 took {took:?}");
    // ...and the time when it does (VinXiangQi's default depth is 200).
    gui.send(&format!("position fen {}", vin_fen(&out_of_book)));
    let (lines, took) = gui.go("go movetime 1000 depth 200");
    vinxiangqi_answer(&lines, &out_of_book);
    assert!(
        took >= Duration::from_millis(500) && took <= Duration::from_millis(1000) + slack(),
        "movetime 1000 answered after {took:?}"
    );
    // A ban lasts for one position only.
    gui.send(&format!("position fen {START_VIN}"));
    let (lines, _) = gui.go("go movetime 60000 depth 5");
    vinxiangqi_answer(&lines, &start);

    // Background thinking: VinXiangQi sends the position after its move
    // and the predicted reply, `go ponder movetime X depth Y`, which waits
    // for `ponderhit`, then plays within the movetime counted from `go`.
    let board = common::board_after(Some(START_VIN), &["h2e2", "h9g7"]);
    gui.send(&format!("position fen {}", vin_fen(&board)));
    let t = Instant::now();
    gui.send("go ponder movetime 1000 depth 200");
    let early = gui.e.drain(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "answered while pondering: {early:#?}"
    );
    gui.send("ponderhit");
    let (lines, took) = gui.answer(t);
    vinxiangqi_answer(&lines, &board);
    assert!(
        took <= Duration::from_millis(1000) + slack(),
        "ponderhit answered {took:?} after go"
    );
    // A ponder miss: `stop` (VinXiangQi skips its answer), then the
    // position the opponent's real reply made.
    gui.send("go ponder movetime 1000 depth 200");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    gui.send("stop");
    let (lines, took) = gui.answer(t);
    vinxiangqi_answer(&lines, &board);
    assert!(took <= slack(), "stop answered after {took:?}");
    let missed = common::board_after(Some(START_VIN), &["h2e2", "b9c7"]);
    gui.send(&format!("position fen {}", vin_fen(&missed)));
    let (lines, _) = gui.go("go movetime 300 depth 200");
    vinxiangqi_answer(&lines, &missed);
    // Analysis without a time (`go depth 200`), ended by `stop`.
    gui.send(&format!("position fen {START_VIN}"));
    gui.send("go depth 200");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    gui.send("stop");
    let (lines, took) = gui.answer(t);
    vinxiangqi_answer(&lines, &start);
    assert!(took <= slack(), "stop answered after {took:?}");
    no_errors(&gui.sync());
}

#[test]
fn vinxiangqi_gets_one_uci_handshake_and_every_line_works() {
    let mut gui = Gui::start();
    // `Init`: both hello words at once.
    gui.send("uci");
    gui.send("ucci");
    let hello = gui.until(|l| l == "uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name Jiangjun")));
    let options: Vec<&String> = hello.iter().filter(|l| l.starts_with("option ")).collect();
    // VinXiangQi waits (for ever) until it has read an option line.
    assert!(!options.is_empty(), "{hello:#?}");
    for o in &options {
        vinxiangqi_reads_option(o);
    }
    // One handshake: no `ucciok`, so VinXiangQi keeps speaking UCI.
    let after = gui.sync();
    assert!(
        !after.iter().any(|l| l == "ucciok" || l.starts_with("id ")),
        "{after:#?}"
    );
    assert!(after.iter().any(|l| l.contains("'ucci'")), "{after:#?}");
    // What its settings form shows: every `option` line read so far.
    let shown = vinxiangqi_form_fields(hello.iter().chain(&after));
    for (name, ty) in [
        ("Threads", "spin"),
        ("Hash", "spin"),
        ("Skill_Level", "spin"),
        ("Move_Overhead", "spin"),
        ("UCI_LimitStrength", "check"),
        ("UCI_Elo", "spin"),
        ("OwnBook", "check"),
        ("Clear_Hash", "button"),
    ] {
        assert!(
            shown.contains(&(name.to_string(), ty.to_string())),
            "{name} ({ty}) is missing from VinXiangQi's form: {shown:?}"
        );
    }
    // `SetOption` in UCI form: its `Threads`, then the settings form's
    // values (a button's value is empty); a GUI that raced ahead of the
    // `uciok` (or a 2022 build) sends the short form, names of several
    // words included.
    for l in [
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name Skill Level value 20",
        "setoption name UCI_LimitStrength value false",
        "setoption name Clear Hash value ",
        "setoption name Ponder value true",
        "setoption name UCI_Variant value xiangqi",
        "setoption Threads 1",
        "setoption Hash 16",
        "setoption Skill Level 20",
        "setoption Clear Hash ",
        "setoption name Skill_Level value 20",
        "setoption name Move_Overhead value 10",
        "setoption name Clear_Hash value ",
    ] {
        gui.send(l);
    }
    all_options_taken(&gui.sync());
    vinxiangqi_searches(&mut gui);
    // VinXiangQi kills the engine; `quit` ends it too.
    gui.send("quit");
    assert!(gui.e.wait_exit_within(patience()));
}

#[test]
fn vinxiangqi_lines_work_in_ucci() {
    let mut gui = Gui::start();
    // VinXiangQi's builds of July 2022 said `ucci` alone.
    gui.send("ucci");
    let hello = gui.until(|l| l == "ucciok");
    assert!(hello.iter().any(|l| l.starts_with("option ")), "{hello:#?}");
    // `setoption <key> <value>` with the names it keeps (UCI's included:
    // option names are the same option in either dialect).
    for l in [
        "setoption Threads 1",
        "setoption threads 1",
        "setoption hashsize 16",
        "setoption Hash 16",
        "setoption Skill Level 20",
        "setoption Clear Hash ",
        "setoption ponder true",
        "setoption name Threads value 1",
    ] {
        gui.send(l);
    }
    all_options_taken(&gui.sync());
    vinxiangqi_searches(&mut gui);
    gui.send("quit");
    let bye = gui.until(|l| l == "bye");
    assert_eq!(bye, ["bye"]);
    assert!(gui.e.wait_exit_within(patience()));
}

#[test]
fn a_ucci_gui_conversation() {
    let mut gui = Gui::start();
    gui.send("ucci");
    let hello = gui.until(|l| l == "ucciok");
    for want in ["id name Jiangjun", "id version ", "id author "] {
        assert!(
            hello.iter().any(|l| l.starts_with(want)),
            "{want}: {hello:#?}"
        );
    }
    // UCCI's own option lines: `option <name> type ...`.
    for want in [
        "option usemillisec type check",
        "option hashsize type spin",
        "option threads type spin",
        "option bookfiles type string",
        "option usebook type check",
        "option newgame type button",
    ] {
        assert!(
            hello.iter().any(|l| l.starts_with(want)),
            "{want}: {hello:#?}"
        );
    }
    // The options UCCI GUIs set; the spec's options the engine has not
    // (`idle`, `style`, `promotion`) are no error.
    for l in [
        "setoption usemillisec true",
        "setoption batch false",
        "setoption debug false",
        "setoption ponder true",
        "setoption usebook true",
        "setoption hashsize 16",
        "setoption threads 1",
        "setoption idle none",
        "setoption style normal",
        "setoption promotion false",
        "setoption newgame",
    ] {
        gui.send(l);
    }
    let lines = gui.sync();
    no_errors(&lines);
    assert_eq!(
        lines.iter().filter(|l| l.contains("ignored")).count(),
        3,
        "{lines:#?}"
    );
    // A game: the start and the moves played, with the clocks (ms).
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let board = common::board_after(None, &moves);
    gui.send(&format!(
        "position fen {} moves {}",
        Board::startpos().to_fen(),
        moves.join(" ")
    ));
    let (lines, took) = gui.go("go time 60000 increment 0 opptime 60000 oppincrement 0");
    let first = bestmove_of(lines.last().unwrap()).unwrap();
    assert_legal_bestmove(lines.last().unwrap(), &board);
    // One minute for the game: a move takes a few seconds at most.
    assert!(took <= Duration::from_secs(10) + slack(), "{took:?}");
    // `banmoves` (a perpetual check or chase the GUI forbids).
    gui.send(&format!(
        "position fen {} moves {}",
        Board::startpos().to_fen(),
        moves.join(" ")
    ));
    gui.send(&format!("banmoves {first}"));
    let (lines, _) = gui.go("go time 30000 movestogo 20 opptime 30000 oppmovestogo 20");
    assert_legal_bestmove(lines.last().unwrap(), &board);
    assert_ne!(bestmove_of(lines.last().unwrap()).unwrap(), first);
    // Pondering, the predicted reply played.
    gui.send(&format!(
        "position fen {} moves {} {first}",
        Board::startpos().to_fen(),
        moves.join(" ")
    ));
    let t = Instant::now();
    gui.send("go ponder time 60000 increment 0 opptime 60000 oppincrement 0");
    let early = gui.e.drain(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:#?}"
    );
    gui.send("ponderhit");
    let (lines, _) = gui.answer(t);
    let mut pondered = moves.to_vec();
    pondered.push(&first);
    assert_legal_bestmove(lines.last().unwrap(), &common::board_after(None, &pondered));

    // Draw offers: declined when ahead or level, taken when far behind.
    gui.send("position startpos");
    let (lines, _) = gui.go("go draw depth 5");
    let last = lines.last().unwrap();
    assert_legal_bestmove(last, &Board::startpos());
    assert!(!last.ends_with(" draw"), "{last}");
    gui.send(&format!("position fen {RED_DOWN_A_ROOK}"));
    let behind = Board::from_fen(RED_DOWN_A_ROOK).unwrap();
    let (lines, _) = gui.go("go draw depth 5");
    let last = lines.last().unwrap();
    assert_legal_bestmove(last, &behind);
    assert!(last.ends_with(" draw"), "{last}");
    // `ponderhit draw`: the move pondered on was played, with an offer.
    gui.send("go ponder depth 5");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    gui.send("ponderhit draw");
    let (lines, _) = gui.answer(t);
    let last = lines.last().unwrap();
    assert_legal_bestmove(last, &behind);
    assert!(last.ends_with(" draw"), "{last}");

    // `probe`: what the hash table holds for a position, as `pophash`.
    gui.send(&format!("probe fen {RED_DOWN_A_ROOK}"));
    let pop = gui.until(|l| l.starts_with("pophash"));
    let pop = pop.last().unwrap();
    assert!(pop.contains(" bestmove "), "{pop}");
    // `go depth 0`: ElephantEye's static score and no move.
    let (lines, _) = gui.go("go depth 0");
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0].starts_with("info depth 0 score "));
    // Analysis ended by `stop`, answered at once; a `stop` with nothing to
    // stop is answered `nobestmove`.
    gui.send("position startpos");
    gui.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    gui.send("stop");
    let (lines, took) = gui.answer(t);
    assert_legal_bestmove(lines.last().unwrap(), &Board::startpos());
    assert!(took <= slack(), "stop answered after {took:?}");
    gui.send("stop");
    assert_eq!(gui.until(|l| l == "nobestmove"), ["nobestmove"]);
    no_errors(&gui.sync());
    gui.send("quit");
    assert_eq!(gui.until(|l| l == "bye"), ["bye"]);
    assert!(gui.e.wait_exit_within(patience()));
}
