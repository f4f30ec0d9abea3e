//! From the raw text after (or before) a trigger to the memory text.

use super::text::{is_symbol, longest_at, match_at, skip_chars};
use super::triggers::{all, Language};

/// Counted in chars, not bytes, a CJK or Hangul char counting twice (it carries about a
/// word): "use pnpm" and "用中文回复" are the shortest memories worth keeping.
pub const MIN_BODY_CHARS: usize = 8;

pub fn body_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if (c as u32) >= 0x2E80 && c.is_alphanumeric() {
                2
            } else {
                1
            }
        })
        .sum()
}

/// Stripped when they wrap the whole body, or when a lone one sits at its edge (the other half
/// was outside the body, as in `"please fix it. remember this: use pnpm"`).
const QUOTE_PAIRS: &[(char, char)] = &[
    ('"', '"'),
    ('\'', '\''),
    ('`', '`'),
    ('“', '”'),
    ('‘', '’'),
    ('「', '」'),
    ('『', '』'),
    ('«', '»'),
];

/// One of these is stripped from the end of a body. A comma is among them: a sentence keeps
/// it before a trigger that follows it ("… (앞자리 0 날아가면 안 됨), 이거 기억해 줘").
const TRAILING_PUNCTUATION: &[char] = &[
    '.', '!', '?', '。', '！', '？', ';', '；', '…', '．', ',', '，', '、',
];

/// Whitespace and these are stripped from the end of a body, before its punctuation: a
/// closing emoji or emphasis is no part of the memory.
fn is_trailing_decoration(c: char) -> bool {
    c.is_whitespace() || is_symbol(c) || matches!(c, '*' | '~' | '～' | '♪' | '^')
}

/// The memory text of a raw body, or `None` when it is too short or only about later.
pub(super) fn clean_body(raw: &str) -> Option<String> {
    let folded = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let undecorated = folded.trim_end_matches(is_trailing_decoration);
    let unquoted = strip_quotes(undecorated);
    let unpunctuated = unquoted
        .strip_suffix(TRAILING_PUNCTUATION)
        .unwrap_or(unquoted)
        .trim_end_matches(is_trailing_decoration);
    let body = strip_quotes(unpunctuated);
    let long_enough = body_width(body) >= MIN_BODY_CHARS;
    (long_enough && !is_deferral(body)).then(|| body.to_owned())
}

fn strip_quotes(mut text: &str) -> &str {
    loop {
        let before = text.len();
        for &(open, close) in QUOTE_PAIRS {
            text = strip_quote_pair(text, open, close).trim();
        }
        if text.len() == before {
            return text;
        }
    }
}

/// Strips `open…close` around the whole text, or a lone `open` or `close` at its edge. A quote
/// char that also occurs elsewhere (an apostrophe in "don't") is left alone.
fn strip_quote_pair(text: &str, open: char, close: char) -> &str {
    let opens = text.matches(open).count();
    let closes = text.matches(close).count();
    let wrapped = text.len() > open.len_utf8() && text.starts_with(open) && text.ends_with(close);
    let is_pair = if open == close {
        opens == 2
    } else {
        opens == 1 && closes == 1
    };
    if wrapped && is_pair {
        &text[open.len_utf8()..text.len() - close.len_utf8()]
    } else if text.ends_with(close) && closes == 1 && (open == close || opens == 0) {
        &text[..text.len() - close.len_utf8()]
    } else if text.starts_with(open) && opens == 1 && (open == close || closes == 0) {
        &text[open.len_utf8()..]
    } else {
        text
    }
}

/// What a body says once its words are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pointer {
    /// It holds something to remember.
    Content,
    /// Nothing, "that", "it", or "for next time": the sentence before is the memory.
    Back,
    /// "the following", "these": the lines after are.
    Forward,
    /// "later", "再说": nothing to remember now.
    Deferral,
}

fn trimmed(body: &str) -> &str {
    body.trim_matches(|c: char| {
        is_trailing_decoration(c)
            || TRAILING_PUNCTUATION.contains(&c)
            || matches!(c, ',' | '，' | '、' | ':' | '：' | '_')
    })
}

/// Whether `text` is exactly one of `phrases`, optionally followed by any of `tails`.
fn is_phrase_then_tails<'a>(
    text: &str,
    phrases: impl IntoIterator<Item = &'a str> + Clone,
    tails: impl IntoIterator<Item = &'a str> + Clone,
) -> bool {
    phrases
        .into_iter()
        .filter_map(|phrase| match_at(text, 0, phrase))
        .any(|end| only_tails(&text[end..], tails.clone()))
}

fn only_tails<'a>(rest: &str, tails: impl IntoIterator<Item = &'a str> + Clone) -> bool {
    let mut at = 0;
    // A bounded number of tails: "that for next time please".
    for _ in 0..4 {
        at = skip_chars(rest, at, |c| {
            c.is_whitespace() || matches!(c, ',' | '，' | '、' | '.' | '。' | '!' | '！')
        });
        if at == rest.len() {
            return true;
        }
        match longest_at(rest, at, tails.clone()) {
            Some((end, _)) => at = end,
            None => return false,
        }
    }
    trimmed(&rest[at..]).is_empty()
}

pub(super) fn pointer(body: &str) -> Pointer {
    let body = trimmed(body);
    // "Remember that for all my projects": the scope is no content either.
    let tails = all(|l: &'static Language| l.later_phrases).chain(super::addressee::phrases());
    if is_deferral(body) {
        Pointer::Deferral
    } else if body.is_empty() || only_tails(body, tails.clone()) {
        Pointer::Back
    } else if is_phrase_then_tails(body, all(|l| l.forward_words), tails.clone()) {
        Pointer::Forward
    } else if is_phrase_then_tails(body, all(|l| l.back_words), tails) {
        Pointer::Back
    } else {
        Pointer::Content
    }
}

/// A body that is only a deferral word, after an optional pointing word: "later", "this,
/// later 🙂", "以后再说".
pub(super) fn is_deferral(body: &str) -> bool {
    let body = trimmed(body);
    let deferrals = all(|l: &'static Language| l.deferrals);
    let pointing_then_deferral = all(|l| l.back_words)
        .chain(all(|l| l.forward_words))
        .filter_map(|word| match_at(body, 0, word))
        .any(|end| {
            let rest = trimmed(&body[end..]);
            !rest.is_empty() && only_tails(rest, deferrals.clone())
        });
    is_phrase_then_tails(body, deferrals.clone(), []) || pointing_then_deferral
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_in_every_language() {
        for body in [
            "",
            "that",
            "this for next time",
            "eso",
            "das",
            "ça",
            "isso",
            "这一点",
            "これ",
            "이거",
            "for next time please",
        ] {
            assert_eq!(pointer(body), Pointer::Back, "{body:?}");
        }
        for body in [
            "the following",
            "lo siguiente",
            "Folgendes",
            "ce qui suit",
            "o seguinte",
            "以下几点",
            "以下のこと",
            "다음 사항",
        ] {
            assert_eq!(pointer(body), Pointer::Forward, "{body:?}");
        }
        for body in [
            "later",
            "This, later.",
            "以后再说",
            "這個再說",
            "後で",
            "나중에",
            "later 🙂",
            "luego",
            "später",
            "plus tard",
            "depois",
        ] {
            assert_eq!(pointer(body), Pointer::Deferral, "{body:?}");
        }
        for body in [
            "later we migrate to pnpm",
            "itlater",
            "that the DB is read-only",
        ] {
            assert_eq!(pointer(body), Pointer::Content, "{body:?}");
        }
    }

    #[test]
    fn bodies_lose_quotes_punctuation_and_closing_emoji() {
        let cases = [
            ("\"use pnpm everywhere\"", "use pnpm everywhere"),
            ("“use pnpm everywhere”.", "use pnpm everywhere"),
            ("「使用 pnpm 管理套件」", "使用 pnpm 管理套件"),
            ("use pnpm everywhere!!", "use pnpm everywhere!"),
            ("don't use 'npm' here", "don't use 'npm' here"),
            (
                "\"pnpm\" is the package manager",
                "\"pnpm\" is the package manager",
            ),
            ("  use \t pnpm   everywhere  ", "use pnpm everywhere"),
            ("use pnpm everywhere 🙏", "use pnpm everywhere"),
            (
                "전화번호는 문자열로 저장 (앞자리 0 날아가면 안 됨),",
                "전화번호는 문자열로 저장 (앞자리 0 날아가면 안 됨)",
            ),
            ("订单号一律用字符串，", "订单号一律用字符串"),
            ("use pnpm, not npm, ", "use pnpm, not npm"),
        ];
        for (raw, text) in cases {
            assert_eq!(clean_body(raw).as_deref(), Some(text), "{raw}");
        }
        assert_eq!(clean_body("ok"), None);
    }
}
