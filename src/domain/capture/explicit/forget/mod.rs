//! Forget requests: what the user's latest message asks the agent to forget, such as "forget
//! about the old staging URL", "don't remember the proxy setting anymore", "that's no longer
//! true: we deploy on Fridays now", "把 pnpm 那条忘掉吧", "pnpm のルールは忘れて",
//! "olvídate de lo de pnpm" or "vergiss das mit dem Proxy".
//!
//! The phrases are in `phrases.rs`, one table per language. A request is read where
//! a remember trigger would be (the start of a sentence, after decoration and fillers), and
//! is never read from code, quotations, quoted or forwarded lines, or questions. What it
//! yields is only a subject to look for: which entries it supersedes, if any, is decided by
//! `domain::steer::supersede` against the memory itself.
//!
//! Not requests: "I forgot to run the tests", "don't forget to …" (a remember trigger), "forget
//! it" / "forget that, just …" (talk, pointing at nothing), "should I forget the cache?".

mod phrases;

use super::scan::{
    is_opening_decoration, readable_lines, sentences, skip_list_number, Sentence, Spans,
    CLOSING_DECORATIONS, LINE_BREAKS,
};
use super::text::{is_symbol, longest_at, skip_chars, strip_private, MAX_OPENING_WORDS};
use super::triggers::{all, triggers, Language};
use crate::domain::base::text::strip_invisible;
use phrases::{all_forget, ForgetLanguage};

/// At most this many requests are taken from one message.
pub const MAX_FORGETS_PER_MESSAGE: usize = 5;

/// After an opener, one of these makes it talk ("forget that, just run it"), not a request.
const DISMISSING_SEPARATORS: &[char] = &[',', '，', '、'];

/// Before the subject of a statement ("that's no longer true: …").
const SUBJECT_SEPARATORS: &[char] = &[':', '：', ',', '，', '—', '–', '-'];

/// End the clause of a subject.
const CLAUSE_ENDS: &[char] = &[',', '，', '、', ';', '；'];

/// Stripped from both ends of a subject.
const SUBJECT_TRIM: &[char] = &[
    '.', '!', '?', '。', '！', '？', ';', '；', '…', ':', '：', ',', '，', '、', '"', '\'', '“',
    '”', '‘', '’', '「', '」', '『', '』', '«', '»', '(', ')', '（', '）', '*', '_', '~', '～',
    '-', '—', '–',
];

/// A request to forget: the subject to look for in memory, and the sentence that asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgetRequest {
    pub subject: String,
    pub sentence: String,
}

/// The forget requests of one user message, in order, at most `MAX_FORGETS_PER_MESSAGE`,
/// each subject distinct.
pub fn forget_requests(message: &str) -> Vec<ForgetRequest> {
    let visible = strip_invisible(message);
    let text = strip_private(&visible);
    let lines: Vec<&str> = text.split(LINE_BREAKS).collect();
    let readable = readable_lines(&lines);
    let mut requests: Vec<ForgetRequest> = Vec::new();
    for (line, _) in lines.iter().zip(&readable).filter(|(_, r)| **r) {
        let spans = Spans::of(line);
        for sentence in sentences(line) {
            if sentence.is_question {
                continue;
            }
            let Some(subject) = request_in(line, &spans, &sentence) else {
                continue;
            };
            if requests.iter().any(|r| r.subject == subject) {
                continue;
            }
            if requests.len() == MAX_FORGETS_PER_MESSAGE {
                return requests;
            }
            requests.push(ForgetRequest {
                subject,
                sentence: line[sentence.start..sentence.end].trim().to_owned(),
            });
        }
    }
    requests
}

/// Which table a phrase at the start of a sentence came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opened {
    Opener,
    Statement,
    Tailed,
}

/// The subject a sentence asks to forget, if it asks.
fn request_in(line: &str, spans: &Spans, sentence: &Sentence) -> Option<String> {
    let text = &line[..sentence.end];
    let mut at = sentence.start;
    let mut negated = false;
    for _ in 0..MAX_OPENING_WORDS {
        at = skip_list_number(text, skip_chars(text, at, is_opening_decoration));
        let remember = longest_at(text, at, remember_phrases()).map(|(end, _)| end);
        if let Some((end, opened)) = opener_at(text, at) {
            // A tailed opener may be a remember trigger too ("merk dir"): its tail decides.
            if remember.is_none_or(|r| end > r || (opened == Opened::Tailed && end == r)) {
                if negated || spans.in_code(at) || spans.in_quotation(at) {
                    return None;
                }
                return subject_after(text, end, opened);
            }
        }
        if remember.is_some() {
            return None;
        }
        let negation = longest_at(text, at, all_forget(|l| l.negations)).map(|(end, _)| end);
        let filler = longest_at(text, at, all(|l: &'static Language| l.fillers)).map(|(e, _)| e);
        match (negation, filler) {
            (Some(n), Some(f)) if f > n => at = f,
            (Some(n), _) => {
                negated = true;
                at = n;
            }
            (None, Some(f)) => at = f,
            (None, None) => break,
        }
    }
    if negated {
        return None;
    }
    subject_before_closer(text, at, spans)
}

fn remember_phrases() -> impl Iterator<Item = &'static str> + Clone {
    triggers().map(|trigger| trigger.phrase)
}

/// One table of every language.
type Table = fn(&'static ForgetLanguage) -> &'static [&'static str];

/// The longest forget phrase at `at`, and which kind it is.
fn opener_at(text: &str, at: usize) -> Option<(usize, Opened)> {
    let tables: [(Table, Opened); 3] = [
        (|l| l.openers, Opened::Opener),
        (|l| l.statements, Opened::Statement),
        (|l| l.tailed_openers, Opened::Tailed),
    ];
    tables
        .into_iter()
        .filter_map(|(table, opened)| {
            longest_at(text, at, all_forget(table)).map(|(end, _)| (end, opened))
        })
        .max_by_key(|&(end, _)| end)
}

fn subject_after(text: &str, end: usize, opened: Opened) -> Option<String> {
    let rest = text[end..].trim_start_matches(|c: char| c.is_whitespace() || c == '*');
    let rest = match opened {
        Opened::Opener if rest.starts_with(DISMISSING_SEPARATORS) => return None,
        Opened::Opener => rest.strip_prefix([':', '：']).unwrap_or(rest),
        Opened::Statement => rest.strip_prefix(SUBJECT_SEPARATORS)?,
        Opened::Tailed => {
            let lower = rest
                .trim_end_matches(SUBJECT_TRIM)
                .trim_end()
                .to_lowercase();
            let tail = all_forget(|l| l.tails)
                .filter(|tail| ends_with_word(&lower, tail))
                .max_by_key(|tail| tail.len())?;
            let body = rest.trim_end_matches(SUBJECT_TRIM).trim_end();
            body.get(..body.len().checked_sub(tail.len())?)?
        }
    };
    subject(rest)
}

/// A subject before a closing phrase that ends the sentence or one of its clauses: "the old
/// deploy script no longer applies", "把那条忘掉吧，现在可以写了".
fn subject_before_closer(text: &str, from: usize, spans: &Spans) -> Option<String> {
    let clause_ends = text[from..]
        .char_indices()
        .filter(|&(_, c)| CLAUSE_ENDS.contains(&c))
        .map(|(at, _)| from + at);
    clause_ends
        .chain(std::iter::once(text.len()))
        .find_map(|end| subject_before_closer_in(&text[..end], from, spans))
}

fn subject_before_closer_in(text: &str, from: usize, spans: &Spans) -> Option<String> {
    let mut end = text
        .trim_end_matches(|c: char| {
            c.is_whitespace() || CLOSING_DECORATIONS.contains(&c) || is_symbol(c) || is_end_mark(c)
        })
        .len();
    if end <= from {
        return None;
    }
    // The closer is looked for before each ending is cut: "잊어버리세요" is one, and so
    // is "잊어버려" of "잊어버려요".
    let (before, closer) = loop {
        let before = &text[from..end];
        let lower = before.to_lowercase();
        if let Some(closer) = all_forget(|l| l.closers)
            .filter(|closer| ends_with_word(&lower, closer))
            .max_by_key(|closer| closer.len())
        {
            break (before, closer);
        }
        let ending = all_forget(|l| l.closer_endings)
            .filter(|e| ends_with_word(&lower, e))
            .max_by_key(|e| e.len())?;
        if before.len() <= ending.len() {
            return None;
        }
        end = from + before.get(..before.len() - ending.len())?.trim_end().len();
    };
    // Lowercasing may change a text's length: then the phrase is not cut out of it.
    let closer_at = from + before.len().checked_sub(closer.len())?;
    if !text.is_char_boundary(closer_at)
        || spans.in_code(closer_at)
        || spans.in_quotation(closer_at)
    {
        return None;
    }
    subject(&text[from..closer_at])
}

fn is_end_mark(c: char) -> bool {
    matches!(c, '.' | '!' | '。' | '！' | '…')
}

/// Whether `text` (lowercase) ends with `phrase` as whole words (for Latin phrases).
fn ends_with_word(text: &str, phrase: &str) -> bool {
    let Some(before) = text.strip_suffix(phrase) else {
        return false;
    };
    let starts_latin = phrase.chars().next().is_some_and(super::text::is_word_char);
    !(starts_latin
        && before
            .chars()
            .next_back()
            .is_some_and(super::text::is_word_char))
}

/// The subject of a raw span: leads, particles and punctuation dropped; `None` when nothing is
/// left or it points nowhere ("it", "それ").
fn subject(raw: &str) -> Option<String> {
    // The subject ends with its clause: what follows a comma is the reason or the next
    // request ("forget the runbook link, the wiki moved").
    let clause = raw
        .trim()
        .trim_start_matches(SUBJECT_TRIM)
        .split(CLAUSE_ENDS)
        .find(|part| part.chars().any(char::is_alphanumeric))
        .unwrap_or("");
    let mut text = clause.trim().trim_matches(SUBJECT_TRIM).trim();
    for _ in 0..3 {
        let before = text.len();
        if let Some((end, _)) = longest_at(text, 0, all_forget(|l| l.subject_leads)) {
            text = text[end..]
                .trim_start()
                .trim_start_matches(SUBJECT_TRIM)
                .trim_start();
        }
        let lower = text.to_lowercase();
        if let Some(particle) = all_forget(|l| l.subject_particles)
            .filter(|p| lower.ends_with(p) && lower.len() > p.len())
            .max_by_key(|p| p.len())
        {
            text = text[..text.len() - particle.len()].trim_end();
        }
        text = text.trim_matches(SUBJECT_TRIM).trim();
        if text.len() == before {
            break;
        }
    }
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = folded.to_lowercase();
    let dismissed = all_forget(|l| l.dismissals).any(|d| d == lower);
    let has_content = folded.chars().any(char::is_alphanumeric);
    (!dismissed && has_content).then_some(folded)
}

#[cfg(test)]
mod tests;
