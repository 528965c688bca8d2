//! `key=value,key=value` lists: the one syntax of engine specs
//! (`name=A,cmd=PATH,...`), SPRT and adjudication settings
//! (`elo0=0,elo1=5`) and keyed time controls (`nodes=5000`).

use std::str::FromStr;
use thiserror::Error;

/// A `key=value` list that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KeyValueError {
    /// An item without `=`.
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    /// A key outside the allowed set.
    #[error("unknown key '{key}' (expected one of {expected})")]
    UnknownKey {
        key: String,
        /// The allowed keys, comma-separated.
        expected: String,
    },
    /// A value that should be a number and is not.
    #[error("{key}: '{value}' is not a number")]
    NotANumber { key: String, value: String },
}

/// The `key=value` items of a comma-separated list, in order. Empty items
/// (`a=1,,b=2`, a trailing comma) are skipped; a key may repeat; a value
/// may contain `=` (only the first one splits).
pub fn parse(text: &str) -> Result<Vec<(&str, &str)>, KeyValueError> {
    text.split(',')
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.split_once('=')
                .ok_or_else(|| KeyValueError::NotKeyValue(item.to_string()))
        })
        .collect()
}

/// A `key=value` list whose keys were checked against a fixed set, for
/// settings that are each given at most once (the last one counts).
#[derive(Clone, Debug)]
pub struct KeyValues<'a> {
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> KeyValues<'a> {
    /// Parse `text` (see [`parse`]); any key not in `allowed` is an error.
    pub fn parse(text: &'a str, allowed: &[&str]) -> Result<KeyValues<'a>, KeyValueError> {
        let pairs = parse(text)?;
        if let Some((key, _)) = pairs.iter().find(|(k, _)| !allowed.contains(k)) {
            return Err(KeyValueError::UnknownKey {
                key: key.to_string(),
                expected: allowed.join(", "),
            });
        }
        Ok(KeyValues { pairs })
    }

    /// The items in order.
    pub fn pairs(&self) -> &[(&'a str, &'a str)] {
        &self.pairs
    }

    /// The value of `key` (the last one if it was given more than once).
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// The value of `key` as a number, `None` if it was not given.
    pub fn number<T: FromStr>(&self, key: &str) -> Result<Option<T>, KeyValueError> {
        self.get(key)
            .map(|v| {
                v.parse().map_err(|_| KeyValueError::NotANumber {
                    key: key.to_string(),
                    value: v.to_string(),
                })
            })
            .transpose()
    }

    /// The value of `key` as a number, or `default` if it was not given.
    pub fn number_or<T: FromStr>(&self, key: &str, default: T) -> Result<T, KeyValueError> {
        Ok(self.number(key)?.unwrap_or(default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_in_order_with_repeats() {
        assert_eq!(
            parse("cmd=x,arg=-a,arg=b=c,,").unwrap(),
            vec![("cmd", "x"), ("arg", "-a"), ("arg", "b=c")]
        );
        assert_eq!(parse("").unwrap(), vec![]);
        assert_eq!(
            parse("a=1,bogus").unwrap_err().to_string(),
            "'bogus' is not key=value"
        );
        assert_eq!(parse("a=").unwrap(), vec![("a", "")]);
    }

    #[test]
    fn checked_keys_and_numbers() {
        let kv = KeyValues::parse("elo0=1,elo1=5,elo0=2", &["elo0", "elo1", "alpha"]).unwrap();
        assert_eq!(kv.get("elo0"), Some("2"));
        assert_eq!(kv.number::<f64>("elo1").unwrap(), Some(5.0));
        assert_eq!(kv.number::<f64>("alpha").unwrap(), None);
        assert_eq!(kv.number_or("alpha", 0.05).unwrap(), 0.05);
        let e = KeyValues::parse("elo2=1", &["elo0", "elo1"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown key 'elo2' (expected one of elo0, elo1)"
        );
        let kv = KeyValues::parse("score=x", &["score"]).unwrap();
        assert_eq!(
            kv.number::<i32>("score").unwrap_err().to_string(),
            "score: 'x' is not a number"
        );
    }
}
