//! The books players own through the `BookFile` (UCI) and `bookfiles`
//! (UCCI) options of the real binary: ElephantEye's `BOOK.DAT` and BHGUI's
//! `.obk` are read by their content, and a missing, truncated or foreign
//! file (a game file too) is refused with an `info string` while the book loaded before
//! stays.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, bestmove_of};
use jiangjun_engine::play::book::{Entry, eleeye, obk};
use std::path::{Path, PathBuf};
use xiangqi::Board;

fn engine(dialect: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send(dialect);
    e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
    e
}

/// `(dialect, the option's line without the value, a game go)`.
const DIALECTS: [(&str, &str, &str); 2] = [
    (
        "uci",
        "setoption name BookFile value",
        "go wtime 60000 btime 60000",
    ),
    ("ucci", "setoption bookfiles", "go time 60000 increment 0"),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// A one-move book for the start position.
fn start_move(mv: &str) -> Vec<(Board, Vec<Entry>)> {
    let b = Board::startpos();
    let entry = Entry {
        mv: b.parse_move(mv).unwrap(),
        weight: 1,
        score: 0,
        games: 1,
    };
    vec![(b, vec![entry])]
}

fn bestmove_after(e: &mut EngineProcess, position: &str, go: &str) -> (Vec<String>, String) {
    e.send(position);
    e.send(go);
    let lines = e.until_prefix("bestmove");
    let best = bestmove_of(lines.last().unwrap()).unwrap();
    (lines, best)
}

/// The one line that confirms a book loaded: its format, path and size.
fn confirmed(lines: &[String], format: &str, path: &Path) -> bool {
    lines.len() == 1
        && lines[0].starts_with(&format!(
            "info string book: {format} from {}, ",
            path.display()
        ))
        && lines[0].ends_with(" records")
}

/// Each format is read by its content (the names say nothing) and its
/// loading confirmed (as `TablebasePath` confirms its tables), and each
/// bad file is refused with one `info string error` naming it, the book
/// before kept. A `BOOK.DAT` move is listed without the games and score
/// that format has not; an `.obk` move with them.
#[test]
fn books_of_every_format_load_and_bad_files_keep_the_old_one() {
    let d = dir();
    let dat = d.join("books-a3a4.bin");
    let records = eleeye::records_of(&start_move("a3a4"));
    std::fs::write(&dat, eleeye::EleeyeBook::from_records(records).to_bytes()).unwrap();
    let obk_file = d.join("books-i3i4.bin2");
    jiangjun_engine::play::book::obk_file::write(&obk_file, &obk::rows_of(&start_move("i3i4")))
        .unwrap();

    let truncated = d.join("books-truncated.dat");
    let bytes = std::fs::read(&dat).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    let foreign = d.join("books-foreign.obk");
    std::fs::write(&foreign, "[Event \"x\"]\n1. h2e2 h9g7 1-0\n").unwrap();
    let fake_sqlite = d.join("books-fake-sqlite.obk");
    std::fs::write(&fake_sqlite, b"SQLite format 3\0\0\0\0\0\0\0\0\0").unwrap();
    let missing = d.join("books-missing.dat");
    // A game file is no book, though an XQF file's bytes could pass for
    // BOOK.DAT records: refused by its name (build a book from it instead).
    let game_file = d.join("books-game.xqf");
    std::fs::write(
        &game_file,
        xiangqi_gamefile::write_xqf(&xiangqi_gamefile::Game::new(Board::startpos())),
    )
    .unwrap();
    let bad: [(&Path, &str); 5] = [
        (
            &truncated,
            "not a whole number of ElephantEye's 8-byte records",
        ),
        (&foreign, "not a book"),
        (&fake_sqlite, "SQLite"),
        (&missing, "No such file"),
        (&game_file, "a game file (.xqf), not a book"),
    ];

    for (dialect, set, go) in DIALECTS {
        let mut e = engine(dialect);
        for (file, want, format) in [
            (&dat, "a3a4", "ElephantEye BOOK.DAT"),
            (&obk_file, "i3i4", "BHGUI .obk"),
        ] {
            e.send(&format!("{set} {}", file.display()));
            let lines = e.sync();
            assert!(confirmed(&lines, format, file), "{dialect}: {lines:#?}");
            let (lines, best) = bestmove_after(&mut e, "position startpos", go);
            assert_eq!(best, want, "{dialect}: {lines:#?}");
            if dialect == "uci" {
                let listed = format!("info string book move {want} weight 100%");
                let listed = if format.ends_with("BOOK.DAT") {
                    listed
                } else {
                    format!("{listed} games ")
                };
                assert!(
                    lines.iter().any(|l| *l == listed || l.starts_with(&listed)),
                    "{dialect} {format}: {lines:#?}"
                );
                assert!(
                    !format.ends_with("BOOK.DAT") || !lines.iter().any(|l| l.contains(" games ")),
                    "{lines:#?}"
                );
            }
            for (path, why) in bad {
                e.send(&format!("{set} {}", path.display()));
                let lines = e.sync();
                assert!(
                    lines.len() == 1
                        && lines[0].starts_with("info string error: ")
                        && lines[0].contains(&path.display().to_string())
                        && lines[0].contains(why)
                        && lines[0].ends_with("keeping the previous book"),
                    "{dialect}: {lines:#?}"
                );
                let (lines, best) = bestmove_after(&mut e, "position startpos", go);
                assert_eq!(best, want, "{dialect}: {lines:#?}");
            }
        }
    }
}

/// ElephantEye's own book, the real file: after `position startpos` the
/// engine plays one of its 16 moves, and in UCCI lists them as ElephantEye
/// does (`info depth 0 score WEIGHT pv MOVE`, the weight in the score).
#[test]
fn book_dat_plays_in_both_dialects() {
    let Some(path) = common::shared_path("data/books/BOOK.DAT") else {
        return;
    };
    let moves = [
        "b2e2", "h2e2", "c3c4", "g3g4", "c0e2", "g0e2", "b0c2", "h0g2", "h2d2", "b2f2", "b2d2",
        "h2f2", "b0a2", "h0i2", "h2c2", "b2g2",
    ];
    for (dialect, set, go) in DIALECTS {
        let mut e = engine(dialect);
        e.send(&format!("{set} {}", path.display()));
        let lines = e.sync();
        assert!(
            confirmed(&lines, "ElephantEye BOOK.DAT", &path),
            "{dialect}: {lines:#?}"
        );
        let (lines, best) = bestmove_after(&mut e, "position startpos", go);
        assert!(moves.contains(&best.as_str()), "{dialect}: {lines:#?}");
        let listed = lines
            .iter()
            .filter(|l| l.contains(" pv ") || l.contains("book move"));
        assert_eq!(listed.count(), 16, "{dialect}: {lines:#?}");
        if dialect == "ucci" {
            // ElephantEye's weights for these moves, heaviest first.
            for want in [
                "info depth 0 score 1473 pv ",
                "info depth 0 score 546 pv c3c4",
                "info depth 0 score 546 pv g3g4",
                "info depth 0 score 2 pv b2g2",
            ] {
                assert!(
                    lines.iter().any(|l| l.starts_with(want)),
                    "{want}: {lines:#?}"
                );
            }
        }
        // After 1. h2e2 the book's replies are h9g7, b9c7 and h7e7.
        let (lines, best) = bestmove_after(&mut e, "position startpos moves h2e2", go);
        assert!(
            ["h9g7", "b9c7", "h7e7"].contains(&best.as_str()),
            "{dialect}: {lines:#?}"
        );
    }
}

/// A book in a folder whose name is not UTF-8 (GBK, as a Chinese GUI
/// using Windows' ANSI code page writes it) or has spaces a word split
/// would lose loads from exactly the bytes sent, in both dialects: no
/// error, and ElephantEye's 16 moves of the start position (the built-in
/// book has fewer).
#[cfg(unix)]
#[test]
fn a_book_loads_from_a_path_as_the_gui_sent_it() {
    use std::os::unix::ffi::OsStrExt;
    let Some(book) = common::shared_path("data/books/BOOK.DAT") else {
        return;
    };
    // "象棋 书库" in GBK; "书  库" (two spaces) in UTF-8.
    let gbk: &[u8] = b"\xcf\xf3\xc6\xe5 \xca\xe9\xbf\xe2";
    for folder in [gbk, "书  库".as_bytes()] {
        let d = dir().join(std::ffi::OsStr::from_bytes(folder));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(&book, d.join("BOOK.DAT")).unwrap();
        let path = [d.as_os_str().as_bytes(), b"/BOOK.DAT"].concat();
        for (dialect, set, go) in DIALECTS {
            let mut e = engine(dialect);
            e.send_raw(&[set.as_bytes(), b" ", &path, b"\n"].concat());
            let lines = e.sync();
            assert!(
                lines.len() == 1
                    && lines[0].starts_with("info string book: ElephantEye BOOK.DAT from "),
                "{dialect}: {lines:#?}"
            );
            let (lines, _) = bestmove_after(&mut e, "position startpos", go);
            let listed = lines
                .iter()
                .filter(|l| l.contains(" pv ") || l.contains("book move"));
            assert_eq!(listed.count(), 16, "{dialect}: {lines:#?}");
        }
    }
}

/// An error about a path sent in GBK gives the path back in GBK, the bytes
/// the GUI sent, which it shows as it showed its own line; before the fix
/// it came back as UTF-8 replacement characters. The output is read as
/// bytes, since it is not UTF-8.
#[cfg(unix)]
#[test]
fn an_error_names_a_path_in_the_bytes_sent() {
    use std::io::Write;
    // A folder "象棋" in GBK that does not exist.
    let path: &[u8] = b"/nonexistent-\xcf\xf3\xc6\xe5/BOOK.DAT";
    for (dialect, set, _) in DIALECTS {
        let input = [
            dialect.as_bytes(),
            b"\n",
            set.as_bytes(),
            b" ",
            path,
            b"\nquit\n",
        ]
        .concat();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let out = child.wait_with_output().unwrap().stdout;
        let errors: Vec<&[u8]> = out
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"info string error: "))
            .collect();
        assert_eq!(
            errors.len(),
            1,
            "{dialect}: {}",
            String::from_utf8_lossy(&out)
        );
        let name = if dialect == "ucci" {
            "bookfiles"
        } else {
            "BookFile"
        };
        let want = [
            format!("info string error: option {name}: ").as_bytes(),
            path,
            b": ",
        ]
        .concat();
        assert!(
            errors[0].starts_with(&want) && errors[0].ends_with(b"; keeping the previous book"),
            "{dialect}: {}",
            String::from_utf8_lossy(errors[0])
        );
    }
}

/// ElephantEye's convention: a `BOOK.DAT` beside the engine's executable
/// is its book with no option set (here a copy of the binary in a folder
/// of its own), and so is an `.obk` there; an info string after the
/// handshake says so, and an empty `BookFile` means that book again. A
/// copy with no book beside it says nothing and plays the built-in book.
#[test]
fn a_book_beside_the_engine_is_used_with_no_option_set() {
    let exe = Path::new(env!("CARGO_BIN_EXE_jiangjun"));
    let base = dir().join(format!("beside-{}", std::process::id()));
    let dat = eleeye::EleeyeBook::from_records(eleeye::records_of(&start_move("a3a4"))).to_bytes();
    for (book, want, format) in [
        (Some("BOOK.DAT"), "a3a4", "ElephantEye BOOK.DAT"),
        (Some("mine.obk"), "i3i4", "BHGUI .obk"),
        (None, "", ""),
    ] {
        let d = base.join(book.unwrap_or("none"));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let copy = d.join(exe.file_name().unwrap());
        std::fs::copy(exe, &copy).unwrap();
        let path = book.map(|name| d.join(name));
        match book {
            Some("BOOK.DAT") => std::fs::write(path.as_ref().unwrap(), &dat).unwrap(),
            Some(_) => {
                let rows = obk::rows_of(&start_move("i3i4"));
                jiangjun_engine::play::book::obk_file::write(path.as_ref().unwrap(), &rows)
                    .unwrap();
            }
            None => {}
        }
        for (dialect, set, go) in DIALECTS {
            let mut e = EngineProcess::start_program(copy.to_str().unwrap(), &[]);
            e.send(dialect);
            e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
            let lines = e.sync();
            let Some(path) = &path else {
                // No book beside: nothing said, the built-in book plays.
                assert_eq!(lines, Vec::<String>::new(), "{dialect}");
                let (lines, _) = bestmove_after(&mut e, "position startpos", go);
                assert!(
                    lines
                        .iter()
                        .any(|l| l.contains(" pv ") || l.contains("book move")),
                    "{dialect}: {lines:#?}"
                );
                continue;
            };
            // The path as the system names the executable's folder (on
            // Linux exactly the one it was started from).
            let said = |lines: &[String]| {
                let name = path.file_name().unwrap().to_str().unwrap();
                lines.len() == 1
                    && lines[0]
                        .starts_with(&format!("info string book: {format} beside the engine, "))
                    && lines[0].ends_with(&format!("{name}, 1 records"))
                    && (!cfg!(target_os = "linux")
                        || lines[0].contains(&path.display().to_string()))
            };
            assert!(said(&lines), "{dialect}: {lines:#?}");
            let (lines, best) = bestmove_after(&mut e, "position startpos", go);
            assert_eq!(best, want, "{dialect}: {lines:#?}");
            // An empty BookFile is that book again, said again.
            e.send(set);
            let lines = e.sync();
            assert!(said(&lines), "{dialect}: {lines:#?}");
            let (lines, best) = bestmove_after(&mut e, "position startpos", go);
            assert_eq!(best, want, "{dialect}: {lines:#?}");
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// ElephantEye never plays a book move back to a position the game has
/// had; neither do we, in either dialect. At the start again after
/// `h0g2 h9g7 g2h0 g7h9`, a book's h0g2 is skipped for its other moves,
/// and with no other move the engine searches.
#[test]
fn a_book_move_back_to_a_position_of_the_game_is_not_played() {
    let d = dir();
    let b = Board::startpos();
    let entry = |mv: &str, weight| Entry {
        mv: b.parse_move(mv).unwrap(),
        weight,
        score: 0,
        games: weight,
    };
    let write = |name: &str, entries: Vec<Entry>| {
        let path = d.join(name);
        let records = eleeye::records_of(&[(b.clone(), entries)]);
        std::fs::write(&path, eleeye::EleeyeBook::from_records(records).to_bytes()).unwrap();
        path
    };
    let only = write("repeat-only.dat", vec![entry("h0g2", 1000)]);
    let two = write(
        "repeat-two.dat",
        vec![entry("h0g2", 1000), entry("b0c2", 1)],
    );
    let back = "position startpos moves h0g2 h9g7 g2h0 g7h9";
    let book_line = |l: &String| l.starts_with("info depth 0 score ") || l.contains("book move");
    for (dialect, set, go) in DIALECTS {
        let mut e = engine(dialect);
        e.send(&format!("{set} {}", two.display()));
        // Unchanged where nothing repeats: the heavy move is offered.
        let (lines, _) = bestmove_after(&mut e, "position startpos", go);
        assert_eq!(
            lines.iter().filter(|l| book_line(l)).count(),
            2,
            "{dialect}: {lines:#?}"
        );
        for _ in 0..5 {
            let (lines, best) = bestmove_after(&mut e, back, go);
            assert_eq!(best, "b0c2", "{dialect}: {lines:#?}");
            let listed: Vec<&String> = lines.iter().filter(|l| book_line(l)).collect();
            assert_eq!(listed.len(), 1, "{dialect}: {lines:#?}");
            assert!(listed[0].contains("b0c2"), "{dialect}: {lines:#?}");
            if dialect == "ucci" {
                assert_eq!(listed[0], "info depth 0 score 1 pv b0c2");
            }
        }
        // Every book move repeats: a search answers (a short one).
        e.send(&format!("{set} {}", only.display()));
        let short = if dialect == "ucci" {
            "go time 2000 increment 0"
        } else {
            "go movetime 200"
        };
        let (lines, best) = bestmove_after(&mut e, back, short);
        assert!(!lines.iter().any(book_line), "{dialect}: {lines:#?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 1")),
            "{dialect}: searched: {lines:#?}"
        );
        let mut board = b.clone();
        for mv in ["h0g2", "h9g7", "g2h0", "g7h9"] {
            board.make_move(board.parse_move(mv).unwrap());
        }
        assert!(board.is_legal_move(board.parse_move(&best).unwrap()));
        // The book off: no book line either way (as before).
        let off = if dialect == "ucci" {
            "setoption usebook false"
        } else {
            "setoption name OwnBook value false"
        };
        e.send(&format!("{set} {}", two.display()));
        e.send(off);
        let (lines, _) = bestmove_after(&mut e, "position startpos", short);
        assert!(!lines.iter().any(book_line), "{dialect}: {lines:#?}");
    }
}

/// The real BOOK.DAT: back at the start after `h2e2 h9g7 e2h2 g7h9`, its
/// h2e2 (weight 1473) would repeat; the other 15 are offered instead.
#[test]
fn book_dat_skips_a_move_that_repeats() {
    let Some(path) = common::shared_path("data/books/BOOK.DAT") else {
        return;
    };
    let back = "position startpos moves h2e2 h9g7 e2h2 g7h9";
    for (dialect, set, go) in DIALECTS {
        let mut e = engine(dialect);
        e.send(&format!("{set} {}", path.display()));
        for _ in 0..3 {
            let (lines, best) = bestmove_after(&mut e, back, go);
            assert_ne!(best, "h2e2", "{dialect}: {lines:#?}");
            let listed: Vec<&String> = lines
                .iter()
                .filter(|l| l.contains(" pv ") || l.contains("book move"))
                .collect();
            assert_eq!(listed.len(), 15, "{dialect}: {lines:#?}");
            assert!(
                !listed.iter().any(|l| l.contains("h2e2")),
                "{dialect}: {lines:#?}"
            );
            assert!(
                listed.iter().any(|l| l.contains(&best)),
                "{dialect}: {lines:#?}"
            );
        }
    }
}
