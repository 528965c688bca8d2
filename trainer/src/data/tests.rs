use super::*;
use crate::rng::Rng;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jj-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Positions along a random game, with made-up labels.
fn sample_records(seed: u64, n: usize) -> Vec<Record> {
    let mut rng = Rng::new(seed);
    let mut board = Board::startpos();
    let mut out = Vec::new();
    while out.len() < n {
        let moves = board.legal_moves();
        if moves.is_empty() || board.history().len() > 120 {
            board = Board::startpos();
            continue;
        }
        board.make_move(moves.as_slice()[rng.below(moves.len())]);
        let result = [GameResult::BlackWins, GameResult::Draw, GameResult::RedWins][rng.below(3)];
        out.push(Record::from_board(
            &board,
            result,
            rng.below(4001) as i16 - 2000,
        ));
    }
    out
}

#[test]
fn packing_follows_the_documented_layout() {
    let board = Board::startpos();
    let r = Record::from_board(&board, GameResult::RedWins, -300);
    let b = r.pack();
    // a0 red rook (1 + 4) low nibble, b0 red horse (1 + 3) high nibble.
    assert_eq!(b[0], 0x45);
    // e0 (square 4) red king (1 + 0) in the low nibble of byte 2, d0 advisor above.
    assert_eq!(b[2], 0x21);
    // i9 (square 89) black rook (1 + 11) in the high nibble of byte 44.
    assert_eq!(b[44] >> 4, 12);
    assert_eq!(b[45], 0b100);
    assert_eq!(i16::from_le_bytes([b[46], b[47]]), -300);
    let mut black = board.clone();
    black.make_move(board.parse_move("h2e2").unwrap());
    assert_eq!(
        Record::from_board(&black, GameResult::Draw, 0).pack()[45],
        0b011
    );
    assert_eq!(Record::unpack(&b, 0).unwrap(), r);
    assert_eq!(r.to_board().unwrap().to_fen(), board.to_fen());
}

#[test]
fn header_layout() {
    let h = header_chunk();
    assert_eq!(&h[0..6], b"JJDATA");
    assert_eq!(u16::from_le_bytes([h[6], h[7]]), 1);
    assert_eq!(u16::from_le_bytes([h[8], h[9]]), 48);
    assert_eq!(h[45], 0xFF);
    assert!(is_header(&h));
    check_header(&h, 0).unwrap();
}

#[test]
fn write_and_read_back() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("a.jjdata");
    let records = sample_records(1, 500);
    let mut w = DataWriter::append(&path).unwrap();
    for r in &records {
        w.write(r).unwrap();
    }
    assert_eq!(w.written(), 500);
    w.finish().unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 48 * 501);
    let back = read_records(&path).unwrap();
    assert_eq!(back, records);
    for (r, b) in back.iter().zip(&records).take(50) {
        assert_eq!(
            r.to_board().unwrap().to_fen(),
            b.to_board().unwrap().to_fen()
        );
    }
    let chunks = load_chunks(&path).unwrap();
    assert_eq!(chunks.len(), 500);
    assert_eq!(chunks[7], records[7].pack());

    // Appending again adds records and no second header.
    let more = sample_records(2, 20);
    let mut w = DataWriter::append(&path).unwrap();
    for r in &more {
        w.write(r).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 48 * 521);
    let all = read_records(&path).unwrap();
    assert_eq!(all[..500], records[..]);
    assert_eq!(all[500..], more[..]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flush_makes_what_was_written_readable_while_writing_goes_on() {
    let dir = temp_dir("flush");
    let path = dir.join("a.jjdata");
    let records = sample_records(3, 30);
    let mut w = DataWriter::append(&path).unwrap();
    for r in &records[..10] {
        w.write(r).unwrap();
    }
    w.flush().unwrap();
    // Another reader sees the header and the ten records.
    assert_eq!(read_records(&path).unwrap(), records[..10]);
    for r in &records[10..] {
        w.write(r).unwrap();
    }
    w.flush().unwrap();
    assert_eq!(read_records(&path).unwrap(), records);
    w.finish().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn concatenated_files_read_as_one() {
    let dir = temp_dir("cat");
    let (a, b) = (sample_records(3, 40), sample_records(4, 60));
    for (name, recs) in [("a", &a), ("b", &b)] {
        let mut w = DataWriter::append(dir.join(name)).unwrap();
        for r in recs {
            w.write(r).unwrap();
        }
        w.finish().unwrap();
    }
    let mut bytes = std::fs::read(dir.join("a")).unwrap();
    bytes.extend(std::fs::read(dir.join("b")).unwrap());
    std::fs::write(dir.join("ab"), &bytes).unwrap();
    let all = read_records(dir.join("ab")).unwrap();
    assert_eq!(all.len(), 100);
    assert_eq!(all[..40], a[..]);
    assert_eq!(all[40..], b[..]);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn read_bytes(bytes: &[u8]) -> Result<Vec<Record>, DataError> {
    DataReader::new(bytes).collect()
}

fn file_with(record: Chunk) -> Vec<u8> {
    let mut v = header_chunk().to_vec();
    v.extend_from_slice(&record);
    v
}

#[test]
fn malformed_data_is_rejected() {
    let good = sample_records(5, 1)[0].pack();
    assert_eq!(read_bytes(&file_with(good)).unwrap().len(), 1);

    // No header first.
    let e = read_bytes(&good).unwrap_err();
    assert!(
        e.to_string()
            .contains("does not start with a JJDATA header"),
        "{e}"
    );
    // Unknown version.
    let mut v = file_with(good);
    v[6] = 9;
    let e = read_bytes(&v).unwrap_err();
    assert!(
        matches!(
            e,
            DataError::UnsupportedVersion {
                offset: 0,
                version: 9
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("version 9 is not supported"));
    // Header mark without the magic.
    let mut v = file_with(good);
    v[0] = b'X';
    let e = read_bytes(&v).unwrap_err();
    assert!(matches!(e, DataError::BadHeader { .. }), "{e}");
    // Another record size.
    let mut v = file_with(good);
    v[8] = 64;
    assert!(
        read_bytes(&v)
            .unwrap_err()
            .to_string()
            .contains("record size 64")
    );
    // Truncated in the middle of a record.
    let v = file_with(good);
    let e = read_bytes(&v[..v.len() - 5]).unwrap_err();
    assert!(matches!(e, DataError::Truncated { offset: 48 }), "{e}");
    // Bad piece code, bad result, reserved bits, wrong king count.
    let mut r = good;
    r[10] |= 0x0f;
    assert!(
        read_bytes(&file_with(r))
            .unwrap_err()
            .to_string()
            .contains("piece code 15")
    );
    let mut r = good;
    r[45] = 0b110;
    assert!(
        read_bytes(&file_with(r))
            .unwrap_err()
            .to_string()
            .contains("game result 3")
    );
    let mut r = good;
    r[45] |= 0x10;
    assert!(
        read_bytes(&file_with(r))
            .unwrap_err()
            .to_string()
            .contains("reserved bits")
    );
    let mut r = Record::from_board(&Board::startpos(), GameResult::Draw, 0);
    r.cells[40] = 1;
    let e = read_bytes(&file_with(r.pack())).unwrap_err();
    assert!(e.to_string().contains("2 red and 1 black kings"), "{e}");
    assert!(matches!(e, DataError::BadRecord { offset: 48, .. }));
}

#[test]
fn malformed_files_are_rejected() {
    let dir = temp_dir("malformed");
    let path = dir.join("odd");
    let mut v = file_with(sample_records(6, 1)[0].pack());
    v.push(0);
    std::fs::write(&path, &v).unwrap();
    let e = read_records(&path).unwrap_err();
    assert!(matches!(e, DataError::BadLength { len: 97, .. }), "{e}");
    assert!(e.to_string().contains("not a multiple of 48"));
    // The writer refuses to append to it.
    assert!(matches!(
        DataWriter::append(&path),
        Err(DataError::BadLength { .. })
    ));
    // Errors inside a file name it.
    let mut v = file_with(sample_records(6, 1)[0].pack());
    v[6] = 2;
    std::fs::write(&path, &v).unwrap();
    let e = load_chunks(&path).unwrap_err();
    assert!(e.to_string().contains("odd"), "{e}");
    assert!(matches!(
        e.inner(),
        DataError::UnsupportedVersion { version: 2, .. }
    ));
    let e = read_records(dir.join("missing")).unwrap_err();
    assert!(matches!(e, DataError::Io { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
