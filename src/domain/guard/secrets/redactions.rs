//! One pass over a text: every rule's matches, cut down to the value they report, checked,
//! merged where they overlap, and replaced.

use std::ops::Range;

use super::prefilter::Haystacks;
use super::rules::{rule_regex, RULES};
use super::REDACTED_PREFIX;

/// A stretch of text to replace with `[REDACTED:<kind>]`.
pub(super) struct Redaction {
    pub(super) range: Range<usize>,
    pub(super) kind: &'static str,
}

pub(super) fn replace(text: &str, redactions: &[Redaction]) -> String {
    let mut replaced = String::with_capacity(text.len());
    let mut copied_up_to = 0;
    for redaction in redactions {
        replaced.push_str(&text[copied_up_to..redaction.range.start]);
        replaced.push_str(REDACTED_PREFIX);
        replaced.push_str(redaction.kind);
        replaced.push(']');
        copied_up_to = redaction.range.end;
    }
    replaced.push_str(&text[copied_up_to..]);
    replaced
}

/// What to replace, in order and without overlaps.
pub(super) fn find_redactions(text: &str) -> Vec<Redaction> {
    let lowercase = text.to_ascii_lowercase();
    let haystacks = Haystacks::new(text, &lowercase);
    // (rule index, redaction): the index breaks ties between matches at the same start.
    let mut found: Vec<(usize, Redaction)> = Vec::new();
    for (index, rule) in RULES.iter().enumerate() {
        if !rule.triggers.occur_in_haystacks(&haystacks) {
            continue;
        }
        let haystack = rule.triggers.haystack(text, &lowercase);
        let regex = rule_regex(index);
        let mut search_from = 0;
        while search_from <= haystack.len() {
            let Some(captures) = regex.captures_at(haystack.as_bytes(), search_from) else {
                break;
            };
            let whole = captures.get(0).expect("group 0 is the whole match");
            let secret = captures.name("secret");
            let range = secret.map_or(whole.range(), |value| {
                value_range(text, through_ampersands(text, value.range()))
            });
            match text.get(range.clone()) {
                Some(value)
                    if !value.is_empty()
                        && !value.contains(REDACTED_PREFIX)
                        && (rule.accepts)(value) =>
                {
                    search_from = range.end;
                    let redaction = Redaction {
                        range,
                        kind: rule.kind,
                    };
                    found.push((index, redaction));
                }
                // A match may start inside a rejected value (`$x=password$Abc123`); searching on
                // from its end would find it only once the text around it had been scrubbed.
                _ => {
                    let value_start = secret.map_or(whole.start(), |value| value.start());
                    search_from = value_start.max(next_char_boundary(text, whole.start()));
                }
            }
        }
    }
    found.sort_by_key(|(index, redaction)| (redaction.range.start, *index));
    let mut merged: Vec<Redaction> = Vec::with_capacity(found.len());
    for (_, redaction) in found {
        match merged.last_mut() {
            Some(last) if redaction.range.start < last.range.end => {
                last.range.end = last.range.end.max(redaction.range.end);
            }
            _ => merged.push(redaction),
        }
    }
    merged
}

/// The first character boundary after `index`, or past the end.
fn next_char_boundary(text: &str, index: usize) -> usize {
    (index + 1..=text.len())
        .find(|&next| text.is_char_boundary(next))
        .unwrap_or(text.len() + 1)
}

/// `range` of `text` extended over each `&…` that follows it and is not the next parameter of
/// a query string (`name=…`): `Tr0ub4dor&3` is one value, `abc&state=1` is `abc` and more.
/// Patterns cannot tell the two apart without looking ahead, so they stop at `&`.
fn through_ampersands(text: &str, range: Range<usize>) -> Range<usize> {
    const ENDS: &[u8] = b"\"'`,;&)]}";
    let bytes = text.as_bytes();
    let mut range = range;
    if range.is_empty() || matches!(bytes[range.end - 1], b'"' | b'\'') {
        return range;
    }
    while bytes.get(range.end) == Some(&b'&') {
        let rest = &text[range.end + 1..];
        let part = &rest[..rest
            .find(|c: char| c.is_ascii_whitespace() || (c.is_ascii() && ENDS.contains(&(c as u8))))
            .unwrap_or(rest.len())];
        if part.is_empty() || part.contains('=') || part.contains(REDACTED_PREFIX) {
            break;
        }
        range.end += 1 + part.len();
    }
    range
}

/// The value a `secret` group captured in `range` of `text`: without a leading or trailing
/// quote (quotes around a value stay) and ending before any whitespace or full-width
/// punctuation, which patterns cannot exclude (see `rules::RULES`).
fn value_range(text: &str, range: Range<usize>) -> Range<usize> {
    const FULL_WIDTH_PUNCTUATION: &[char] = &[
        '，', '。', '；', '：', '、', '！', '？', '（', '）', '「', '」', '『', '』', '【', '】',
    ];
    let is_quote = |b: u8| b == b'"' || b == b'\'';
    let mut range = range;
    let value = text.get(range.clone()).unwrap_or_default();
    if let Some(end) =
        value.find(|c: char| c.is_whitespace() || FULL_WIDTH_PUNCTUATION.contains(&c))
    {
        range.end = range.start + end;
    }
    let bytes = text.as_bytes();
    if !range.is_empty() && is_quote(bytes[range.start]) {
        range.start += 1;
    }
    if !range.is_empty() && is_quote(bytes[range.end - 1]) {
        range.end -= 1;
    }
    range
}
