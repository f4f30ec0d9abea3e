//! Matching phrases in a message: case-insensitive, on word boundaries, one whitespace run for
//! each space of a phrase, typographic apostrophes equal to plain ones.

use std::borrow::Cow;

/// Matched case-insensitively. Spans nest; an unclosed span hides the rest of the message.
const PRIVATE_OPEN: &str = "<private>";
const PRIVATE_CLOSE: &str = "</private>";

const APOSTROPHES: &[char] = &['\'', '’', 'ʼ'];

/// At most this many filler or negation words are read before a trigger, a forget opener or a
/// scope phrase: enough for "ok so please also", and a bound on the work at each clause start.
pub(super) const MAX_OPENING_WORDS: usize = 8;

#[cfg(test)]
thread_local! {
    /// Chars looked at by the matching below: the tests' measure of work, which must grow
    /// linearly with the message.
    pub(super) static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

pub(super) fn count_work(_chars: usize) {
    #[cfg(test)]
    WORK.with(|work| work.set(work.get() + 1 + _chars as u64));
}

/// A letter or digit of an alphabetic script: a phrase ending in one must not run on into
/// another ("remember" is not the start of "remembered"). CJK and Hangul have no spaces
/// between words, so a phrase ending in one of them may be followed by anything.
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && (c as u32) < 0x2E80
}

fn same_char(text: char, phrase: char) -> bool {
    if text.is_ascii() && phrase.is_ascii() {
        return text.eq_ignore_ascii_case(&phrase);
    }
    // Kana, CJK ideographs and Hangul have no case: equal or not, without case tables.
    let caseless = |c: char| matches!(c as u32, 0x3040..=0x9FFF | 0xAC00..=0xD7A3);
    if caseless(text) || caseless(phrase) {
        return text == phrase;
    }
    text == phrase
        || (APOSTROPHES.contains(&text) && APOSTROPHES.contains(&phrase))
        || text.to_lowercase().eq(phrase.to_lowercase())
}

/// The end of `phrase` when it occurs at byte `at` of `text` and does not run on into a longer
/// word. A space in the phrase matches one run of whitespace.
pub(super) fn match_at(text: &str, at: usize, phrase: &str) -> Option<usize> {
    count_work(phrase.len());
    let from = text.get(at..)?;
    // Nearly every phrase tried fails on its first character: the tables are tried at every
    // word of a message, and this test is most of what capture costs.
    if let (Some(wanted), Some(c)) = (phrase.chars().next(), from.chars().next()) {
        if wanted != ' ' && !same_char(c, wanted) {
            return None;
        }
    }
    let mut rest = from.char_indices().peekable();
    let mut end = at;
    for wanted in phrase.chars() {
        let (offset, c) = rest.next()?;
        if wanted == ' ' {
            if !c.is_whitespace() {
                return None;
            }
            while rest.peek().is_some_and(|&(_, next)| next.is_whitespace()) {
                rest.next();
            }
            end = at + rest.peek().map_or(text.len() - at, |&(offset, _)| offset);
            continue;
        }
        if !same_char(c, wanted) {
            return None;
        }
        end = at + offset + c.len_utf8();
    }
    let ends_in_word = phrase.chars().last().is_some_and(is_word_char);
    let runs_on = text[end..]
        .chars()
        .next()
        .is_some_and(|c| is_word_char(c) || APOSTROPHES.contains(&c));
    (!(ends_in_word && runs_on)).then_some(end)
}

/// The end of the longest of `phrases` at `at`, with the phrase.
pub(super) fn longest_at<'a>(
    text: &str,
    at: usize,
    phrases: impl IntoIterator<Item = &'a str>,
) -> Option<(usize, &'a str)> {
    phrases
        .into_iter()
        .filter_map(|phrase| match_at(text, at, phrase).map(|end| (end, phrase)))
        .max_by_key(|&(end, _)| end)
}

pub(super) fn skip_chars(text: &str, at: usize, skip: impl Fn(char) -> bool) -> usize {
    let rest = &text[at..];
    let skipped = rest.len() - rest.trim_start_matches(skip).len();
    count_work(skipped);
    at + skipped
}

/// Pictographs, dingbats, arrows and other symbols people put before or after a sentence.
pub(super) fn is_symbol(c: char) -> bool {
    matches!(c as u32,
        0x2190..=0x21FF | 0x2300..=0x23FF | 0x25A0..=0x27BF | 0x2B00..=0x2BFF
        | 0x1F000..=0x1FAFF | 0xFE0F | 0x200D)
}

/// `message` without `<private>…</private>` spans (case-insensitive tags); an unclosed
/// `<private>` hides the rest of the message. Nested spans end at the matching close tag; a
/// stray close tag stays as it is.
pub fn strip_private(message: &str) -> Cow<'_, str> {
    let Some(first_open) = find_tag(message, 0, PRIVATE_OPEN) else {
        return Cow::Borrowed(message);
    };
    let mut visible = String::with_capacity(message.len());
    let mut visible_from = 0;
    let mut next_open = Some(first_open);
    while let Some(open) = next_open {
        visible.push_str(&message[visible_from..open]);
        let Some(end) = private_span_end(message, open) else {
            return Cow::Owned(visible);
        };
        visible_from = end;
        next_open = find_tag(message, end, PRIVATE_OPEN);
    }
    visible.push_str(&message[visible_from..]);
    Cow::Owned(visible)
}

/// Gemini CLI repeats the context a hook gave earlier turns inside the prompt, wrapped in
/// these tags: it is ocmem's own block, never something the user said.
const HOST_CONTEXT_OPEN: &str = "<hook_context>";
const HOST_CONTEXT_CLOSE: &str = "</hook_context>";

/// `message` without the context a host repeats from its hooks (`<hook_context>…
/// </hook_context>`, case-insensitive); an unclosed one hides the rest of the message.
pub fn strip_host_context(message: &str) -> Cow<'_, str> {
    let Some(mut open) = find_tag(message, 0, HOST_CONTEXT_OPEN) else {
        return Cow::Borrowed(message);
    };
    let mut visible = String::with_capacity(message.len());
    let mut visible_from = 0;
    loop {
        visible.push_str(&message[visible_from..open]);
        let Some(close) = find_tag(message, open, HOST_CONTEXT_CLOSE) else {
            return Cow::Owned(visible);
        };
        visible_from = close + HOST_CONTEXT_CLOSE.len();
        match find_tag(message, visible_from, HOST_CONTEXT_OPEN) {
            Some(next) => open = next,
            None => break,
        }
    }
    visible.push_str(&message[visible_from..]);
    Cow::Owned(visible)
}

fn tag_at(message: &str, at: usize, tag: &str) -> bool {
    message
        .as_bytes()
        .get(at..at + tag.len())
        .is_some_and(|candidate| candidate.eq_ignore_ascii_case(tag.as_bytes()))
}

fn find_tag(message: &str, from: usize, tag: &str) -> Option<usize> {
    message[from..]
        .match_indices('<')
        .map(|(offset, _)| from + offset)
        .find(|&at| tag_at(message, at, tag))
}

/// The end of the private span opened at `open`: just after its matching close tag.
fn private_span_end(message: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = open;
    while let Some(offset) = message[at..].find('<') {
        let tag_at_ = at + offset;
        if tag_at(message, tag_at_, PRIVATE_OPEN) {
            depth += 1;
            at = tag_at_ + PRIVATE_OPEN.len();
        } else if tag_at(message, tag_at_, PRIVATE_CLOSE) {
            depth -= 1;
            at = tag_at_ + PRIVATE_CLOSE.len();
            if depth == 0 {
                return Some(at);
            }
        } else {
            at = tag_at_ + 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_case_apostrophes_and_whitespace_runs() {
        assert_eq!(match_at("Don’t  Forget: x", 0, "don't forget"), Some(15));
        assert_eq!(match_at("DÉSORMAIS, x", 0, "désormais"), Some(10));
        assert_eq!(match_at("remembered", 0, "remember"), None);
        assert_eq!(match_at("that's", 0, "that"), None);
        assert_eq!(match_at("记住用pnpm", 0, "记住"), Some(6));
        assert_eq!(match_at("기억해줘", 0, "기억해"), Some(9));
        // A space matches any whitespace run, at a phrase's start too.
        assert_eq!(match_at("\t\tx", 0, " x"), Some(3));
    }

    /// The shortcuts of `same_char` decide as the case tables would, on every pair of a
    /// sample of characters from each script the tables hold.
    #[test]
    fn same_char_shortcuts_agree_with_the_case_tables() {
        let sample = "aAzZ'’ʼ éÉßẞİıKKÅåΣσς记住記憶きおくキオク기억해ＡａΩΩ 1_-";
        for text in sample.chars() {
            for phrase in sample.chars() {
                let general = text == phrase
                    || (APOSTROPHES.contains(&text) && APOSTROPHES.contains(&phrase))
                    || text.to_lowercase().eq(phrase.to_lowercase());
                assert_eq!(same_char(text, phrase), general, "{text:?} {phrase:?}");
            }
        }
    }

    #[test]
    fn strip_private_borrows_when_there_is_no_tag() {
        assert!(matches!(strip_private("a < b"), Cow::Borrowed("a < b")));
    }

    #[test]
    fn strip_private_removes_every_span_case_insensitively() {
        assert_eq!(
            strip_private("a<private>x</private>b<PRIVATE>y</Private>c"),
            "abc"
        );
        assert_eq!(strip_private("keep <private>hide everything"), "keep ");
        assert_eq!(
            strip_private("a<private>x<private>y</private>z</private>b"),
            "ab"
        );
        assert_eq!(strip_private("a</private>b"), "a</private>b");
        assert_eq!(strip_private("秘密<private>密码</private>结束"), "秘密结束");
    }
}
