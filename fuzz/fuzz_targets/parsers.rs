//! Coverage-guided fuzzing of everything that reads untrusted text: protocol
//! lines in both dialects, FEN strings, moves (coordinates, Chinese, WXF),
//! a position command applied to a board, and the same bytes as each of the
//! Chinese game files (XQF, CBL, CBR, CBF), a game read written as XQF and
//! read back. None of it may panic.
#![no_main]

use jiangjun_protocol::command::{Command, PositionBase};
use jiangjun_protocol::dialects::DIALECTS;
use libfuzzer_sys::fuzz_target;
use xiangqi::{Board, Move};

fuzz_target!(|data: &[u8]| {
    use xiangqi_gamefile::{Format, read_bytes, write_xqf, xqf};
    for format in [Format::Xqf, Format::Cbl, Format::Cbr, Format::Cbf] {
        if let Ok(entries) = read_bytes(format, data) {
            for game in entries.into_iter().flatten() {
                let back = xqf::read(&write_xqf(&game)).expect("own XQF reads");
                assert_eq!(back.main_line(), game.main_line());
            }
        }
    }
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        for dialect in DIALECTS {
            if let Command::Position { base, moves } = dialect.parse(line) {
                let board = match base {
                    PositionBase::Start => Some(Board::startpos()),
                    PositionBase::Fen(f) => Board::from_fen(&f).ok(),
                };
                if let Some(mut b) = board {
                    for m in &moves {
                        match b.parse_move(m) {
                            Ok(mv) => b.make_move(mv),
                            Err(_) => break,
                        }
                    }
                    let _ = b.to_fen();
                    let _ = b.legal_moves();
                }
            }
        }
        if let Ok(b) = Board::from_fen(line) {
            assert!(b.is_consistent());
            let again = Board::from_fen(&b.to_fen()).expect("own FEN parses");
            assert_eq!(again.key(), b.key());
        }
        let _ = Move::parse(line);
        let _ = line.parse::<Move>();
        let _ = line.parse::<xiangqi::Square>();
        let start = Board::startpos();
        let _ = xiangqi::notation::parse_chinese(&start, line);
        let _ = xiangqi::notation::parse_wxf(&start, line);
    }
});
