//! Writing tuned values back into the parameter table's source
//! (`engine/src/search/params.rs`): only the default column of the entries
//! named changes; every other byte of the file stays as it was.
//!
//! An entry is a line `name: default, min, max, c_end, r_end;` inside the
//! `search_params! { ... }` block.

use std::collections::BTreeMap;
use std::path::Path;

const BLOCK_START: &str = "search_params! {";

/// The default written in `line` if it is the entry of a parameter: its
/// name, and the byte range of the default and the range it must lie in.
fn entry(line: &str) -> Option<(&str, std::ops::Range<usize>, i64, i64)> {
    let indent = line.len() - line.trim_start().len();
    let (name, rest) = line[indent..].split_once(':')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let fields: Vec<&str> = rest.trim_end().strip_suffix(';')?.split(',').collect();
    let [default, min, max, _, _] = fields[..] else {
        return None;
    };
    let (min, max) = (min.trim().parse().ok()?, max.trim().parse().ok()?);
    let default_trimmed = default.trim();
    default_trimmed.parse::<i64>().ok()?;
    // The default's bytes: after the colon and the spaces that follow it.
    let start = indent + name.len() + 1 + (default.len() - default.trim_start().len());
    Some((name, start..start + default_trimmed.len(), min, max))
}

/// `source` with the defaults of `values` replaced. Every name must have
/// exactly one entry, and its value must lie in the entry's range.
pub fn rewrite(source: &str, values: &BTreeMap<String, i32>) -> Result<String, String> {
    let mut out = String::with_capacity(source.len());
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    let mut inside = false;
    for line in source.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if !inside {
            inside = body.trim_start().starts_with(BLOCK_START);
            out.push_str(line);
            continue;
        }
        if body.starts_with('}') {
            inside = false;
            out.push_str(line);
            continue;
        }
        match entry(body).and_then(|(name, range, min, max)| {
            let (key, &v) = values.get_key_value(name)?;
            Some((key.as_str(), range, min, max, v))
        }) {
            Some((name, range, min, max, v)) => {
                if !(min..=max).contains(&(v as i64)) {
                    return Err(format!("{name}: {v} is outside {min}..{max}"));
                }
                *found.entry(name).or_default() += 1;
                out.push_str(&line[..range.start]);
                out.push_str(&v.to_string());
                out.push_str(&line[range.end..]);
            }
            None => out.push_str(line),
        }
    }
    for name in values.keys() {
        match found.get(name.as_str()) {
            Some(1) => {}
            Some(n) => return Err(format!("{name} has {n} entries in the table")),
            None => return Err(format!("no entry for {name} in the table")),
        }
    }
    Ok(out)
}

/// Rewrite the defaults of `values` in the file at `path`, in place.
pub fn write_back(path: &Path, values: &BTreeMap<String, i32>) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let source = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
    let new = rewrite(&source, values).map_err(at)?;
    std::fs::write(path, new).map_err(|e| at(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::search_params::PARAMS;

    const TABLE: &str = "// name: default, min, max, c_end, r_end;\n\
        search_params! {\n    \
            /// A doc line: not an entry.\n    \
            razor_depth: 3, 1, 6, 0.5, 0.002;\n    \
            razor_base:  200, 0, 600, 20.0, 0.002;\r\n    \
            asp_delta: 18, 5, 60, 2.0, 0.002;\n\
        }\n\
        fn razor_depth() {}\n";

    fn values(pairs: &[(&str, i32)]) -> BTreeMap<String, i32> {
        pairs.iter().map(|&(n, v)| (n.to_string(), v)).collect()
    }

    #[test]
    fn only_the_defaults_change() {
        let new = rewrite(TABLE, &values(&[("razor_base", 215), ("razor_depth", 4)])).unwrap();
        let want = TABLE
            .replace("razor_depth: 3,", "razor_depth: 4,")
            .replace("razor_base:  200,", "razor_base:  215,");
        assert_eq!(new, want);
        assert_eq!(rewrite(TABLE, &values(&[])).unwrap(), TABLE);
        let negative = rewrite(TABLE, &values(&[("razor_base", 0)])).unwrap();
        assert!(negative.contains("razor_base:  0, 0, 600"));
    }

    #[test]
    fn unknown_duplicate_and_out_of_range_values_are_refused() {
        assert!(rewrite(TABLE, &values(&[("nope", 1)])).is_err());
        assert!(rewrite(TABLE, &values(&[("asp_delta", 61)])).is_err());
        let twice = TABLE.replace(
            "asp_delta: 18",
            "asp_delta: 18, 5, 60, 2.0, 0.002;\n    asp_delta: 18",
        );
        assert!(rewrite(&twice, &values(&[("asp_delta", 20)])).is_err());
        // Outside the block nothing is an entry.
        let outside = format!("{TABLE}    qs_futility: 150, 0, 400, 12.0, 0.002;\n");
        assert!(rewrite(&outside, &values(&[("qs_futility", 100)])).is_err());
    }

    /// The real table: every parameter has exactly one entry, which reads
    /// back as its default, and rewriting the defaults changes nothing.
    #[test]
    fn the_engine_table_is_rewritable() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/src/search/params.rs");
        let source = std::fs::read_to_string(path).unwrap();
        let defaults: BTreeMap<String, i32> = PARAMS
            .iter()
            .map(|p| (p.name.to_string(), p.default))
            .collect();
        assert_eq!(rewrite(&source, &defaults).unwrap(), source);
        let mut moved = defaults.clone();
        for (i, p) in PARAMS.iter().enumerate() {
            let v = if i % 2 == 0 { p.min } else { p.max };
            moved.insert(p.name.to_string(), v);
        }
        let new = rewrite(&source, &moved).unwrap();
        assert_ne!(new, source);
        assert_eq!(new.lines().count(), source.lines().count());
        // Back again: the file is what it was.
        assert_eq!(rewrite(&new, &defaults).unwrap(), source);
    }
}
