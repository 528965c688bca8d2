//! The file format refuses wrong, truncated and damaged files with a
//! clear message, and reads back exactly what was written.

use jiangjun_tablebase::build::build;
use jiangjun_tablebase::format::TableFile;
use jiangjun_tablebase::verify::load_all;
use jiangjun_tablebase::{Material, Tablebases};

#[test]
fn damaged_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("jjtb-format-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m: Material = "KNvKA".parse().unwrap();
    build(&dir, &[m], |_| {}).unwrap();
    let path = dir.join("KNvKA.jtb");
    let good = std::fs::read(&path).unwrap();
    // Reads back the same values through the map and from bytes.
    let mapped = TableFile::open(&path).unwrap();
    let owned = TableFile::from_bytes(good.clone(), "KNvKA.jtb").unwrap();
    assert_eq!(mapped.values().unwrap(), owned.values().unwrap());
    let set = load_all(&dir).unwrap();
    assert_eq!(set.get(&m).unwrap().values, mapped.values().unwrap());
    for i in (0..mapped.size()).step_by(997) {
        assert_eq!(
            mapped.get(i).unwrap(),
            set.get(&m).unwrap().values[i as usize]
        );
    }
    assert!(mapped.get(mapped.size()).is_err());

    let err = |bytes: Vec<u8>| {
        TableFile::from_bytes(bytes, "t.jtb")
            .err()
            .unwrap()
            .to_string()
    };
    assert!(err(b"hello".to_vec()).contains("not a Jiangjun tablebase file"));
    let mut v = good.clone();
    v[8] = 9;
    assert!(err(v).contains("format version 9"));
    let mut v = good.clone();
    v.truncate(good.len() - 1);
    assert!(err(v).contains("truncated"));
    let mut v = good.clone();
    let last = v.len() - 3;
    v[last] ^= 0x55;
    assert!(err(v).contains("checksum mismatch"));
    let mut v = good.clone();
    v[16] = b'X';
    assert!(err(v).contains("material"));

    // A directory with a damaged table is refused as a whole, by name.
    let mut v = good.clone();
    v[200] ^= 1;
    std::fs::write(&path, v).unwrap();
    let e = Tablebases::open(&dir).err().unwrap();
    assert!(e.contains("KNvKA.jtb") && e.contains("checksum"), "{e}");
    // A file named for another material is refused too.
    std::fs::write(&path, &good).unwrap();
    std::fs::rename(&path, dir.join("KNvKAA.jtb")).unwrap();
    assert!(
        Tablebases::open(&dir)
            .err()
            .unwrap()
            .contains("holds the table KNvKA")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
