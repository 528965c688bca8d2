//! Before a run: is the engine a tuning build of this very table? Its UCI
//! handshake must announce each parameter tuned, with the range the table
//! here gives (a binary built from another version of the table would be
//! tuned in ranges it does not have, and set to values it clamps).

use jiangjun_engine::search_params::ParamSpec;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The spin options a UCI handshake announces: name to (min, max).
pub fn spins(handshake: &str) -> HashMap<String, (i64, i64)> {
    let mut out = HashMap::new();
    for line in handshake.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [
            "option",
            "name",
            name,
            "type",
            "spin",
            "default",
            _,
            "min",
            min,
            "max",
            max,
        ] = words[..]
        else {
            continue;
        };
        if let (Ok(min), Ok(max)) = (min.parse(), max.parse()) {
            out.insert(name.to_string(), (min, max));
        }
    }
    out
}

/// What is wrong with `specs` as `handshake` announces them, if anything.
pub fn mismatch(handshake: &str, specs: &[ParamSpec]) -> Option<String> {
    let spins = spins(handshake);
    let missing: Vec<&str> = specs
        .iter()
        .filter(|s| !spins.contains_key(s.name))
        .map(|s| s.name)
        .collect();
    if missing.len() == specs.len() && !specs.is_empty() {
        return Some(
            "it announces no search parameters: give a tuning build \
             (cargo build --release --features tune)"
                .into(),
        );
    }
    if !missing.is_empty() {
        return Some(format!("it does not announce {}", missing.join(", ")));
    }
    specs.iter().find_map(|s| {
        let (min, max) = spins[s.name];
        ((min, max) != (s.min as i64, s.max as i64)).then(|| {
            format!(
                "it announces {} in {min}..{max}, this table in {}..{}: \
                 build both from the same source",
                s.name, s.min, s.max
            )
        })
    })
}

/// Run `cmd`'s UCI handshake and check it against `specs`.
pub fn check(cmd: &Path, specs: &[ParamSpec]) -> Result<(), String> {
    let at = |e: String| format!("engine {}: {e}", cmd.display());
    let mut child = Command::new(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| at(e.to_string()))?;
    // `quit` right after `uci`: the engine answers the handshake and exits,
    // so reading its output to the end cannot wait forever on a sound one.
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(b"uci\nquit\n")
            .map_err(|e| at(e.to_string()))?;
    }
    let out = child.wait_with_output().map_err(|e| at(e.to_string()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.lines().any(|l| l.trim() == "uciok") {
        return Err(at("no uciok in its handshake".into()));
    }
    match mismatch(&text, specs) {
        Some(e) => Err(at(e)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::search_params::PARAMS;

    fn handshake(specs: &[ParamSpec]) -> String {
        let mut s = String::from("id name x\noption name Hash type spin default 16 min 1 max 64\n");
        for p in specs {
            s.push_str(&format!(
                "option name {} type spin default {} min {} max {}\n",
                p.name, p.default, p.min, p.max
            ));
        }
        s + "uciok\n"
    }

    #[test]
    fn a_tuning_handshake_passes_and_others_are_named() {
        assert_eq!(mismatch(&handshake(PARAMS), PARAMS), None);
        let plain = handshake(&[]);
        assert!(
            mismatch(&plain, PARAMS)
                .unwrap()
                .contains("--features tune")
        );
        let some = handshake(&PARAMS[1..]);
        let e = mismatch(&some, PARAMS).unwrap();
        assert!(
            e.contains(PARAMS[0].name) && !e.contains(PARAMS[1].name),
            "{e}"
        );
        let mut other = PARAMS[..2].to_vec();
        other[1].max += 1;
        let e = mismatch(&handshake(&other), &PARAMS[..2]).unwrap();
        assert!(e.contains(PARAMS[1].name), "{e}");
        assert_eq!(spins(&plain).get("Hash"), Some(&(1, 64)));
    }
}
