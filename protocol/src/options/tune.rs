//! A tuning build's extra options (feature `tune`): one spin per entry of
//! the search's parameter table (`jiangjun_engine::search_params`), named
//! as the entry, with its default and range, setting the value the next
//! `go` searches with. The normal build has none of them.

use super::model::{Effect, Kind, OptionDef, Options, Value};
use jiangjun_engine::search_params::PARAMS;

/// The spin option of entry `I`. A const generic gives each entry its own
/// setter, since a setter is a plain `fn` and cannot capture the index.
const fn param_option<const I: usize>() -> OptionDef {
    let spec = &PARAMS[I];
    OptionDef {
        uci: Some(spec.name),
        ucci: Some(spec.name),
        aliases: &[],
        kind: Kind::Spin {
            min: spec.min as i64,
            max: spec.max as i64,
            zero_is_engine_choice: false,
        },
        default: default_of::<I>,
        set: set_param::<I>,
    }
}

fn default_of<const I: usize>() -> String {
    PARAMS[I].default.to_string()
}

fn set_param<const I: usize>(o: &mut Options, v: Value) -> Result<Effect, String> {
    let Value::Spin(n) = v else {
        return Err("not a number".into());
    };
    // The value was checked against the range, so it fits an i32.
    o.play.search.set(I, n as i32);
    Ok(Effect::None)
}

macro_rules! param_options {
    ($($i:literal)*) => { [$(param_option::<$i>(),)*] };
}

/// One option per parameter, in table order. The array's length is the
/// table's: an entry added to the table without an index here (or the
/// other way round) does not compile.
pub static PARAM_OPTIONS: [OptionDef; PARAMS.len()] = param_options!(
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
    30 31 32 33 34 35 36 37 38 39 40 41 42
);
