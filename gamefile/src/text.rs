//! The text encodings of the formats: XQF's GBK (read as GB18030, its
//! superset, as XQStudio writes it) in length-prefixed fields, and
//! CCBridge's UTF-16LE ended by a zero unit.

use encoding_rs::{GB18030, UTF_16LE};

/// GBK bytes to text. A byte sequence that is not GBK becomes U+FFFD rather
/// than an error: a name garbled in one field is no reason to lose a game.
pub fn from_gbk(bytes: &[u8]) -> String {
    let (text, _) = GB18030.decode_without_bom_handling(bytes);
    text.into_owned()
}

/// Text to GB18030 bytes (GBK for every character GBK has).
pub fn to_gbk(text: &str) -> Vec<u8> {
    let (bytes, _, _) = GB18030.encode(text);
    bytes.into_owned()
}

/// An XQF string field: a length byte, then that many GBK bytes (at most
/// the field's room, so a corrupt length cannot reach the next field).
pub(crate) fn pascal(field: &[u8]) -> String {
    match field.split_first() {
        Some((&len, rest)) => {
            let n = usize::from(len).min(rest.len());
            from_gbk(rest.get(..n).unwrap_or_default())
                .trim()
                .to_string()
        }
        None => String::new(),
    }
}

/// A CCBridge string: UTF-16LE up to the first zero unit (or the field's end).
pub(crate) fn utf16z(field: &[u8]) -> String {
    let mut end = field.len() - field.len() % 2;
    for (i, pair) in field.chunks_exact(2).enumerate() {
        if pair == [0, 0] {
            end = i * 2;
            break;
        }
    }
    let (text, _) = UTF_16LE.decode_without_bom_handling(field.get(..end).unwrap_or_default());
    text.trim().to_string()
}
