//! Steering memory from the conversation: which entries a forget request means, and which
//! entries a new explicit memory updates or contradicts. Both only ever mark entries
//! `superseded` (with when and why), never delete them.
//!
//! Texts are compared as sets of words (CJK and Hangul as pairs of characters), without
//! function words, words about memory itself, and markers of emphasis or negation (the tables
//! are in `tables.rs`).
//!
//! - **Forget**: each active entry is scored by how much of the request's subject it holds,
//!   rare words weighing more (a word in every entry tells little). The best entry is
//!   forgotten when it holds at least `FORGET_COVERAGE` of the subject (and two of its words
//!   when the subject has several) and no other entry comes within `FORGET_MARGIN` of it;
//!   otherwise nothing is, and the user is asked which one. Entries with the same text (one
//!   memory stored under two types) go together.
//! - **Update**: a new explicit memory supersedes active entries of its type that say the
//!   same thing with the opposite polarity ("do not run the typecheck before committing"
//!   after "always run the typecheck before committing"), with another value of one set of
//!   alternatives ("use bun for all packages" after "use pnpm for all packages"), or that are
//!   about using what it says it replaces ("use bun instead of pnpm"). Entries that merely
//!   share words are left alone.

mod apply;
mod tables;

pub use apply::{apply_forgets, forget_note, replace, ForgetOutcome, UPDATED_REASON};

use crate::domain::steer::edit::{
    Why, SUPERSEDED_AT, SUPERSEDED_BY, SUPERSEDED_REASON, SUPERSEDED_WHY,
};
use std::collections::BTreeSet;

use serde_json::Value;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::workspace::{canonical_key, EntryStatus, MemoryEntry, WorkspaceMemory};
use tables::{
    Replaced, ALTERNATIVES, CJK_STOP_PHRASES, EMPHASIS_MARKERS, HANGUL_PARTICLES,
    HANGUL_VERB_ENDINGS, NEGATIVE_MARKERS, REPLACEMENT_MARKERS, STOPWORDS, USE_VERBS,
};

/// The share of a forget request's subject (weighted by rarity) an entry must hold.
pub const FORGET_COVERAGE: f64 = 0.6;
/// A second entry scoring within this of the best makes the request ambiguous.
pub const FORGET_MARGIN: f64 = 0.15;
/// How alike two texts must be apart from their polarity (Jaccard index of their words).
pub const UPDATE_SIMILARITY: f64 = 0.6;
/// How alike two texts must be apart from the value that changed: nearly the same, since
/// "the staging database listens on port 5433" is no update of "the production database
/// listens on port 5432".
pub const VALUE_SIMILARITY: f64 = 0.8;

/// A text as compared: its words, and whether it says not to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub words: BTreeSet<String>,
    pub negative: bool,
}

/// Lowercase NFKC, accents of Latin letters dropped, apostrophes made plain.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if matches!(c, '’' | 'ʼ' | '‘') {
            out.push('\'');
        } else if (c as u32) < 0x0250 && !c.is_ascii() {
            out.extend(std::iter::once(c).nfd().filter(|c| !is_combining_mark(*c)));
        } else {
            out.push(c);
        }
    }
    out
}

fn is_latin_word_char(c: char) -> bool {
    (c.is_alphanumeric() && (c as u32) < 0x2E80) || c == '\''
}

fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7A3 | 0x1100..=0x11FF | 0x3130..=0x318F)
}

fn is_cjk(c: char) -> bool {
    c.is_alphanumeric() && (c as u32) >= 0x2E80 && !is_hangul(c)
}

/// Byte ranges where `phrase` occurs in `text` (both normalized: the tables are written so,
/// which a test checks, because normalizing them on every read was most of what a capture
/// cost): whole words when the phrase is Latin, anywhere otherwise.
fn occurrences(text: &str, phrase: &str) -> Vec<(usize, usize)> {
    let latin = phrase
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        || phrase
            .chars()
            .next_back()
            .is_some_and(|c| (c as u32) < 0x2E80 && c.is_alphabetic());
    text.match_indices(phrase)
        .map(|(at, m)| (at, at + m.len()))
        .filter(|&(start, end)| {
            !latin
                || (!text[..start]
                    .chars()
                    .next_back()
                    .is_some_and(is_latin_word_char)
                    && !text[end..].chars().next().is_some_and(is_latin_word_char))
        })
        .collect()
}

fn contains_phrase(text: &str, phrase: &str) -> bool {
    !occurrences(text, phrase).is_empty()
}

/// `text` with every occurrence of `phrases` made a space.
fn cut(text: &str, phrases: &[&str]) -> String {
    let mut text = text.to_owned();
    for phrase in phrases {
        let found = occurrences(&text, phrase);
        for &(start, end) in found.iter().rev() {
            text.replace_range(start..end, " ");
        }
    }
    text
}

/// Endings of inflection cut from a Latin word, the first that fits, as long as three letters
/// are left (two for a plural "s"): "kurzen" and "kurz", "packages" and "package", "abras"
/// and "abre", "indenta" and "indente", "PRs" and "PR" compare alike.
const ENDINGS: &[&str] = &[
    "ungen", "ing", "ung", "ies", "ed", "es", "en", "er", "em", "as", "os", "ar", "ir", "an", "s",
    "e", "a", "o",
];
/// A stem keeps this many letters: "committing", "commit" and "commitar" compare alike.
const STEM_CHARS: usize = 6;

fn stem(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_digit()) {
        return word.to_owned();
    }
    let mut stem = word;
    if let Some(ending) = ENDINGS.iter().find(|e| {
        stem.ends_with(*e) && {
            let left = stem[..stem.len() - e.len()].chars().count();
            left >= 3 || (**e == "s" && left >= 2)
        }
    }) {
        stem = &stem[..stem.len() - ending.len()];
    }
    stem.chars().take(STEM_CHARS).collect()
}

/// The words of normalized text: Latin words (stemmed, without stopwords), and pairs of
/// characters of CJK runs and of Hangul words (a run of one character is itself).
fn words_of(text: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let class: fn(char) -> bool = if is_latin_word_char(c) {
            is_latin_word_char
        } else if is_hangul(c) {
            is_hangul
        } else if is_cjk(c) {
            is_cjk
        } else {
            at += 1;
            continue;
        };
        let start = at;
        while at < chars.len() && class(chars[at]) {
            at += 1;
        }
        let run: String = chars[start..at].iter().collect();
        if is_latin_word_char(c) {
            let word = run.trim_matches('\'');
            let keep = !word.is_empty()
                && !STOPWORDS.contains(&word)
                && !USE_VERBS.contains(&word)
                && (word.chars().count() > 1 || word.chars().all(|c| c.is_ascii_digit()));
            if keep {
                let stemmed = stem(word);
                if !STOPWORDS.contains(&stemmed.as_str()) {
                    words.insert(stemmed);
                }
            }
            continue;
        }
        let run = if is_hangul(c) {
            // A particle alone follows a Latin word ("main으로"), an ending alone a noun
            // ("탭으로 해"): nothing of their own.
            if HANGUL_PARTICLES.contains(&run.as_str())
                || HANGUL_VERB_ENDINGS.contains(&run.as_str())
            {
                continue;
            }
            let cut = |word: &str, endings: &[&str]| -> String {
                endings
                    .iter()
                    .filter(|e| word.ends_with(*e) && word.len() > e.len())
                    .max_by_key(|e| e.len())
                    .map_or(word, |e| &word[..word.len() - e.len()])
                    .to_owned()
            };
            cut(&cut(&run, HANGUL_PARTICLES), HANGUL_VERB_ENDINGS)
        } else {
            run
        };
        let run: Vec<char> = run.chars().collect();
        if run.len() == 1 {
            words.insert(run[0].to_string());
        }
        for pair in run.windows(2) {
            words.insert(pair.iter().collect());
        }
    }
    words
}

/// How `text` is compared.
pub fn read(text: &str) -> Reading {
    let text = normalize(text);
    let negative = NEGATIVE_MARKERS.iter().any(|m| contains_phrase(&text, m));
    let text = cut(&text, NEGATIVE_MARKERS);
    let text = cut(&text, EMPHASIS_MARKERS);
    let text = cut(&text, CJK_STOP_PHRASES);
    Reading {
        words: words_of(&text),
        negative,
    }
}

/// Which entries a forget request's subject means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForgetMatch {
    /// These entries (indices into the store): the best one, and any with its very text.
    Entries(Vec<usize>),
    /// No entry holds enough of the subject.
    Weak,
    /// Several entries match about as well (indices, best first): the user must say which.
    Ambiguous(Vec<usize>),
}

/// The active entries `subject` means, by the rules at the top of this module.
pub fn match_forget(memory: &WorkspaceMemory, subject: &str) -> ForgetMatch {
    let query = read(subject).words;
    if query.is_empty() {
        return ForgetMatch::Weak;
    }
    let active: Vec<(usize, BTreeSet<String>)> = memory
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.status == EntryStatus::Active && may_share(&e.text, &query))
        .map(|(at, e)| (at, read(&e.text).words))
        .collect();
    let count = memory
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Active)
        .count() as f64;
    let weight = |word: &String| {
        let df = active
            .iter()
            .filter(|(_, words)| words.contains(word))
            .count();
        // A word no entry holds weighs as much as the rarest one.
        if df == 0 {
            (1.0 + count).ln()
        } else {
            (1.0 + count / df as f64).ln()
        }
    };
    let total: f64 = query.iter().map(weight).sum();
    let needed = query.len().min(2);
    let mut strong: Vec<(usize, f64)> = active
        .iter()
        .filter_map(|(at, words)| {
            let shared: Vec<&String> = query.iter().filter(|w| words.contains(*w)).collect();
            let coverage = shared.iter().map(|w| weight(w)).sum::<f64>() / total;
            let of_entry = shared.len() as f64 / words.len().max(1) as f64;
            (shared.len() >= needed && coverage >= FORGET_COVERAGE)
                .then_some((*at, coverage + 0.25 * of_entry))
        })
        .collect();
    strong.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let Some(&(best, best_score)) = strong.first() else {
        return ForgetMatch::Weak;
    };
    let text_of = |at: usize| canonical_key(MemoryType::Feedback, &memory.entries[at].text);
    let best_text = text_of(best);
    let (same, rivals): (Vec<_>, Vec<_>) = strong
        .iter()
        .partition(|&&(at, _)| text_of(at) == best_text);
    if rivals
        .iter()
        .any(|&&(_, score)| score >= best_score - FORGET_MARGIN)
    {
        return ForgetMatch::Ambiguous(strong.iter().map(|&(at, _)| at).collect());
    }
    ForgetMatch::Entries(same.iter().map(|&&(at, _)| at).collect())
}

/// The active entries of `kind` that a new memory `text` updates or contradicts, by the rules
/// at the top of this module (indices into the store). An entry with the very same text is
/// not among them: merging deduplicates it.
pub fn updated_by(memory: &WorkspaceMemory, kind: MemoryType, text: &str) -> Vec<usize> {
    let new = read(text);
    if new.words.is_empty() {
        return Vec::new();
    }
    let normalized = normalize(text);
    let replaced = replaced_word(&normalized);
    let key = canonical_key(kind, text);
    memory
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.status == EntryStatus::Active && e.kind == kind)
        .filter(|(_, e)| may_share(&e.text, &new.words))
        .filter(|(_, e)| canonical_key(e.kind, &e.text) != key)
        .filter(|(_, e)| {
            let old = read(&e.text);
            flips(&new, &old)
                || changes_value(&new, &old)
                || replaced
                    .as_ref()
                    .is_some_and(|word| replaces(&normalized, &new, word, &e.text, &old))
        })
        .map(|(at, _)| at)
        .collect()
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let shared = a.intersection(b).count();
    let union = a.union(b).count();
    if union == 0 {
        0.0
    } else {
        shared as f64 / union as f64
    }
}

/// The same instruction, the other way round.
fn flips(new: &Reading, old: &Reading) -> bool {
    new.negative != old.negative
        && new.words.intersection(&old.words).count() >= 2
        && jaccard(&new.words, &old.words) >= UPDATE_SIMILARITY
}

/// The same statement with another value of one set of alternatives (or another number).
fn changes_value(new: &Reading, old: &Reading) -> bool {
    if new.negative != old.negative {
        return false;
    }
    let numbers = |r: &Reading| -> BTreeSet<String> {
        r.words
            .iter()
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
            .cloned()
            .collect()
    };
    let alike_without = |drop_new: &Member, drop_old: &Member| {
        let rest_new = drop_new.removed_from(&new.words);
        let rest_old = drop_old.removed_from(&old.words);
        !rest_new.is_empty() && rest_new == rest_old
            || rest_new.intersection(&rest_old).count() >= 2
                && jaccard(&rest_new, &rest_old) >= VALUE_SIMILARITY
    };
    let (new_numbers, old_numbers) = (numbers(new), numbers(old));
    if !new_numbers.is_empty() && !old_numbers.is_empty() && new_numbers != old_numbers {
        return alike_without(&Member::words(new_numbers), &Member::words(old_numbers));
    }
    // Every value of the set each side holds goes, and numbers with them ("2 spaces" → "tabs",
    // "2칸 공백" → "탭").
    let values_of = |r: &Reading, other: &Reading, members: &[Member]| {
        let held: Vec<&Member> = members
            .iter()
            .filter(|m| holds(r, m) && !holds(other, m))
            .collect();
        (!held.is_empty()).then(|| Member {
            words: held
                .iter()
                .flat_map(|m| m.words.iter())
                .chain(&new_numbers)
                .chain(&old_numbers)
                .cloned()
                .collect(),
            chars: held.iter().flat_map(|m| m.chars.iter().copied()).collect(),
        })
    };
    alternatives().iter().any(|members| {
        match (values_of(new, old, members), values_of(old, new, members)) {
            (Some(in_new), Some(in_old)) => alike_without(&in_new, &in_old),
            _ => false,
        }
    })
}

fn holds(reading: &Reading, member: &Member) -> bool {
    !member.words.is_empty() && member.words.is_subset(&reading.words)
}

/// A value that changed, to leave out when comparing the rest.
struct Member {
    words: BTreeSet<String>,
    /// For a CJK value, its characters: the pairs of characters that hold one of them
    /// straddle the value and its neighbours ("用英", "文回" of "用英文回复").
    chars: Vec<char>,
}

impl Member {
    fn words(words: BTreeSet<String>) -> Self {
        Member {
            words,
            chars: Vec::new(),
        }
    }

    /// A value of `ALTERNATIVES`: its words as `read` finds them, without cutting markers
    /// from it (a value holds none, which a test checks).
    fn of(text: &str) -> Self {
        let normalized = normalize(text);
        Member {
            words: words_of(&normalized),
            chars: normalized
                .chars()
                .filter(|&c| is_cjk(c) || is_hangul(c))
                .collect(),
        }
    }

    fn removed_from(&self, words: &BTreeSet<String>) -> BTreeSet<String> {
        words
            .iter()
            .filter(|w| !self.words.contains(*w) && !w.chars().any(|c| self.chars.contains(&c)))
            .cloned()
            .collect()
    }
}

/// Each member of each set of `ALTERNATIVES`, read once.
fn alternatives() -> &'static [Vec<Member>] {
    static READ: std::sync::OnceLock<Vec<Vec<Member>>> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        ALTERNATIVES
            .iter()
            .map(|set| set.iter().map(|m| Member::of(m)).collect())
            .collect()
    })
}

/// Whether `text` may hold one of `words`: a cheap test before reading it, true whenever
/// reading it would find one (words are lowercase pieces of the normalized text).
fn may_share(text: &str, words: &BTreeSet<String>) -> bool {
    let lower = if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        normalize(text)
    };
    // A stem may end differently from its word ("dependency" of "dependencies").
    words.iter().any(|word| {
        let probe = if word.len() > 4 && word.is_ascii() {
            &word[..word.len() - 1]
        } else {
            word.as_str()
        };
        lower.contains(probe)
    })
}

/// The word a replacement marker in `normalized` says is replaced: "instead of pnpm" → pnpm.
fn replaced_word(normalized: &str) -> Option<String> {
    REPLACEMENT_MARKERS.iter().find_map(|&(marker, side)| {
        let &(start, end) = occurrences(normalized, marker).first()?;
        let word = match side {
            Replaced::After => first_word(&normalized[end..]),
            Replaced::Before => last_word(&normalized[..start]),
        }?;
        read(&word).words.into_iter().next().map(|_| word)
    })
}

/// The first word of `text`: a Latin word, or the first two characters of a CJK run.
fn first_word(text: &str) -> Option<String> {
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    let c = text.chars().next()?;
    let word: String = if is_latin_word_char(c) {
        text.chars()
            .take_while(|&c| is_latin_word_char(c))
            .collect()
    } else {
        text.chars()
            .take_while(|&c| is_cjk(c) || is_hangul(c))
            .take(2)
            .collect()
    };
    let read_word = read(&word).words;
    if read_word.is_empty() {
        // An article or particle first ("instead of the old"): the next word.
        let rest = &text[word.len()..];
        return (!rest.is_empty()).then(|| first_word(rest)).flatten();
    }
    Some(word)
}

/// The last word of `text`: a Latin word, or the last two characters of a CJK run.
fn last_word(text: &str) -> Option<String> {
    let text = text.trim_end_matches(|c: char| !c.is_alphanumeric());
    let c = text.chars().next_back()?;
    let word: String = if is_latin_word_char(c) {
        let mut w: Vec<char> = text
            .chars()
            .rev()
            .take_while(|&c| is_latin_word_char(c))
            .collect();
        w.reverse();
        w.into_iter().collect()
    } else {
        let mut w: Vec<char> = text
            .chars()
            .rev()
            .take_while(|&c| is_cjk(c) || is_hangul(c))
            .take(2)
            .collect();
        w.reverse();
        w.into_iter().collect()
    };
    Some(word)
}

/// An old entry about what the new memory says it replaces: it holds the replaced word, and
/// shares another word with the new one or, like it, speaks of using something.
fn replaces(normalized: &str, new: &Reading, word: &str, old_text: &str, old: &Reading) -> bool {
    let replaced = read(word).words;
    if replaced.is_empty() || !replaced.is_subset(&old.words) || old.negative {
        return false;
    }
    let shares_more = new
        .words
        .intersection(&old.words)
        .any(|w| !replaced.contains(w));
    let old_normalized = normalize(old_text);
    let both_use = USE_VERBS
        .iter()
        .any(|verb| contains_phrase(normalized, verb))
        && USE_VERBS
            .iter()
            .any(|verb| contains_phrase(&old_normalized, verb));
    shares_more || both_use
}

/// Marks `entry` superseded at `now_ms`: when, why, and by which entry when one replaced it.
/// The record is kept in fields older readers ignore.
/// The fields are those `ocmem memory` writes (`memory_edit`), so `show` and `restore` read
/// and undo both alike; `reason` keeps the words that asked.
pub fn supersede(entry: &mut MemoryEntry, why: Why, reason: &str, by: Option<&str>, now_ms: i64) {
    let now = format_rfc3339_ms(now_ms);
    entry.status = EntryStatus::Superseded;
    entry.capped = false;
    entry.updated_at = now.clone();
    entry.extra.insert(SUPERSEDED_AT.into(), Value::String(now));
    entry
        .extra
        .insert(SUPERSEDED_WHY.into(), Value::String(why.as_str().into()));
    entry
        .extra
        .insert(SUPERSEDED_REASON.into(), Value::String(reason.to_owned()));
    match by {
        Some(id) => entry
            .extra
            .insert(SUPERSEDED_BY.into(), Value::String(id.to_owned())),
        None => entry.extra.remove(SUPERSEDED_BY),
    };
}

#[cfg(test)]
mod tests;
