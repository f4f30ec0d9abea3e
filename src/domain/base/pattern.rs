//! A pattern that a hook process compiles on first need and runs over a few texts, most of them
//! short. Compiling is then most of the cost: `regex` spends about half a millisecond on a rule
//! of a few hundred alternatives, `regex-lite` a tenth of that but reads a text ten times
//! slower. Texts up to `LITE_MAX_BYTES` go to `regex-lite`, longer ones to `regex`, each engine
//! compiled when first used. Both read the pattern with ASCII classes (`\b`, `\w`, `\s`, `\d`
//! and their negations), `regex-lite`'s only kind, so they find the same matches.

use std::borrow::Cow;
use std::sync::OnceLock;

/// Below where `regex-lite`'s slower reading starts to cost more than `regex`'s compiling
/// (about 3 500 bytes for the injection rules, measured on one machine).
pub const LITE_MAX_BYTES: usize = 2_048;

pub struct Pattern {
    source: Cow<'static, str>,
    lite: OnceLock<regex_lite::Regex>,
    full: OnceLock<regex::Regex>,
}

impl Pattern {
    pub fn new(source: impl Into<Cow<'static, str>>) -> Self {
        Pattern {
            source: source.into(),
            lite: OnceLock::new(),
            full: OnceLock::new(),
        }
    }

    /// The start and end of each match, leftmost first, as `regex` gives them.
    pub fn find_iter<'t>(&'t self, text: &'t str) -> Box<dyn Iterator<Item = (usize, usize)> + 't> {
        if text.len() <= LITE_MAX_BYTES {
            Box::new(self.lite().find_iter(text).map(|m| (m.start(), m.end())))
        } else {
            Box::new(self.full().find_iter(text).map(|m| (m.start(), m.end())))
        }
    }

    pub fn is_match(&self, text: &str) -> bool {
        if text.len() <= LITE_MAX_BYTES {
            self.lite().is_match(text)
        } else {
            self.full().is_match(text)
        }
    }

    /// The pattern as `regex-lite` compiles it (tests compare the two engines with these).
    pub fn lite(&self) -> &regex_lite::Regex {
        self.lite.get_or_init(|| {
            regex_lite::Regex::new(&self.source)
                .unwrap_or_else(|e| panic!("invalid pattern {:?}: {e}", self.source))
        })
    }

    /// The pattern as `regex` compiles it.
    pub fn full(&self) -> &regex::Regex {
        self.full.get_or_init(|| {
            regex::Regex::new(&ascii_classes(&self.source))
                .unwrap_or_else(|e| panic!("invalid pattern {:?}: {e}", self.source))
        })
    }
}

/// `pattern` with its Perl classes and word boundaries made ASCII for `regex`, whose are
/// Unicode: what `regex-lite` reads them as.
fn ascii_classes(pattern: &str) -> String {
    const SPACE: &str = r"\t\n\x0B\x0C\r ";
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push_str(r"(?-u:\b)"),
            Some('B') => out.push_str(r"(?-u:\B)"),
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('s') => out.push_str(&format!("[{SPACE}]")),
            Some('S') => out.push_str(&format!("[^{SPACE}]")),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_ascii_in_both_engines() {
        let pattern = Pattern::new(r"\bé\w+\s\S+\d\b");
        let text = "xé café naïve 1 éab 2\u{a0}c3";
        let lite: Vec<_> = pattern.lite().find_iter(text).map(|m| m.range()).collect();
        let full: Vec<_> = pattern.full().find_iter(text).map(|m| m.range()).collect();
        assert_eq!(lite, full);
        assert_eq!(
            ascii_classes(r"[\s\[]\\b\b"),
            r"[[\t\n\x0B\x0C\r ]\[]\\b(?-u:\b)"
        );
    }

    #[test]
    fn long_texts_go_to_regex_and_short_ones_to_regex_lite() {
        let pattern = Pattern::new(r"ab+c");
        let short = "xx abbc yy abc";
        let long = format!("{}{short}", " ".repeat(LITE_MAX_BYTES));
        assert_eq!(
            pattern.find_iter(short).collect::<Vec<_>>(),
            [(3, 7), (11, 14)]
        );
        assert!(pattern.full.get().is_none(), "a short text compiled regex");
        let offset = LITE_MAX_BYTES;
        assert_eq!(
            pattern.find_iter(&long).collect::<Vec<_>>(),
            [(offset + 3, offset + 7), (offset + 11, offset + 14)]
        );
        assert!(pattern.full.get().is_some());
        assert!(pattern.is_match(&long) && pattern.is_match(short));
        assert!(!pattern.is_match("ac"));
        let pattern = Pattern::new(r"ab+c");
        assert!(pattern.is_match(short) && !pattern.is_match("ac"));
        assert!(pattern.full.get().is_none(), "a short text compiled regex");
    }
}
