//! Misspelt trigger words, read as the word they miss: "rememebr", "remembre", "keep in mnid",
//! "recuerdaa". The words of every phrase of `triggers.rs` (in Latin script, of four letters or
//! more) form the lexicon; a word of a text one edit away from a lexicon word (a letter added,
//! dropped, changed, or two neighbours swapped; two edits from a word of seven letters or
//! more), with the same first letter, stands for the nearest. The models read the word it
//! stands for beside the word itself, so a misspelling weighs like the spelling no table lists.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::triggers::triggers;

/// Endings that inflect a word rather than misspell it.
const INFLECTIONS: [&str; 5] = ["s", "es", "d", "ed", "ing"];

/// Shorter words have too many neighbours one edit away.
const MIN_WORD_CHARS: usize = 4;

/// A lexicon word, folded, beside the phrase word it was read from.
struct Entry {
    folded: Vec<char>,
    word: &'static str,
}

fn fold(word: &str) -> Vec<char> {
    word.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à'..='å' => 'a',
            'ç' => 'c',
            'è'..='ë' => 'e',
            'ì'..='ï' => 'i',
            'ñ' => 'n',
            'ò'..='ö' => 'o',
            'ù'..='ü' => 'u',
            'ß' => 's',
            other => other,
        })
        .collect()
}

fn is_latin_word(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_alphabetic() && (c as u32) < 0x250)
}

/// The lexicon, sorted by length then text, without duplicates: read once per process from
/// the trigger tables, a few hundred words.
fn lexicon() -> &'static [Entry] {
    static LEXICON: OnceLock<Vec<Entry>> = OnceLock::new();
    LEXICON.get_or_init(|| {
        let mut entries: Vec<Entry> = triggers()
            .flat_map(|trigger| trigger.phrase.split(|c: char| !c.is_alphabetic()))
            .filter(|word| word.chars().count() >= MIN_WORD_CHARS && is_latin_word(word))
            .map(|word| Entry {
                folded: fold(word),
                word,
            })
            .collect();
        entries.sort_by(|a, b| (a.folded.len(), &a.folded).cmp(&(b.folded.len(), &b.folded)));
        entries.dedup_by(|a, b| a.folded == b.folded);
        entries
    })
}

/// The number of edits from `a` to `b` (a letter added, dropped or changed, or two
/// neighbouring letters swapped), or `None` when it is more than `most`.
fn edits_within(a: &[char], b: &[char], most: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > most {
        return None;
    }
    // Rows of the optimal string alignment distance: two before the current one.
    let width = b.len() + 1;
    let mut rows = vec![vec![0usize; width]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    let mut latest = 0;
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        let mut row_best = i;
        for j in 1..width {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = d;
            row_best = row_best.min(d);
        }
        if row_best > most {
            return None;
        }
        latest = cur;
    }
    let distance = rows[latest][b.len()];
    (distance <= most).then_some(distance)
}

/// The lexicon's words, as features fold them: the vocabulary holds them all.
pub fn trigger_words() -> impl Iterator<Item = &'static str> {
    lexicon().iter().map(|entry| entry.word)
}

/// How many edits a word may be from a lexicon word of `chars` letters: one, two for a long
/// word ("rember" is two letters short of "remember").
fn reach(chars: usize) -> usize {
    if chars >= 7 {
        2
    } else {
        1
    }
}

/// The trigger words the misspelt words of `text` stand for, in order.
pub fn corrections(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphabetic()) {
        if word.chars().count() < MIN_WORD_CHARS || !is_latin_word(word) {
            continue;
        }
        // The proposals of one sentence read the same words many times over: each word is
        // looked up once per process.
        thread_local! {
            static SEEN: RefCell<HashMap<String, Option<&'static str>>> = RefCell::new(HashMap::new());
        }
        let found = SEEN.with(|seen| {
            if let Some(&found) = seen.borrow().get(word) {
                return found;
            }
            let found = correction(word);
            seen.borrow_mut().insert(word.to_string(), found);
            found
        });
        out.extend(found);
    }
    out
}

/// The trigger word `word` is a misspelling of, if any.
fn correction(word: &str) -> Option<&'static str> {
    let lexicon = lexicon();
    let folded = fold(word);
    let near = |entry: &&Entry| entry.folded.len().abs_diff(folded.len()) <= 2;
    if lexicon
        .iter()
        .filter(near)
        .any(|entry| entry.folded == folded)
    {
        return None;
    }
    // A lexicon word with an ending added is that word inflected ("keeps", "remembered",
    // "recuerdas"), not misspelt: "the log keeps times in UTC" asks nothing.
    if lexicon.iter().filter(near).any(|entry| {
        folded.starts_with(&entry.folded)
            && INFLECTIONS.iter().any(|ending| {
                folded[entry.folded.len()..]
                    .iter()
                    .copied()
                    .eq(ending.chars())
            })
    }) {
        return None;
    }
    lexicon
        .iter()
        .filter(near)
        .filter(|entry| entry.folded[0] == folded[0])
        .filter_map(|entry| {
            edits_within(&entry.folded, &folded, reach(entry.folded.len()))
                .map(|distance| (distance, std::cmp::Reverse(entry.folded.len()), entry.word))
        })
        // The nearest, and of those the longest: the tables list a few misspellings too
        // ("remembr"), and "remembre" is as near to "remember".
        .min_by_key(|&(distance, longest, _)| (distance, longest))
        .map(|(_, _, word)| word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn an_edit_is_an_addition_a_removal_a_change_or_a_swap() {
        for (a, b, edits) in [
            ("remember", "remeber", 1),
            ("remember", "rememberr", 1),
            ("remember", "rememver", 1),
            ("remember", "remmeber", 1),
            ("mind", "mnid", 1),
            ("mind", "mindx", 1),
            ("remember", "rember", 2),
            ("remember", "remember", 0),
            ("ab", "ba", 1),
        ] {
            assert_eq!(
                edits_within(&chars(a), &chars(b), 2),
                Some(edits),
                "{a} {b}"
            );
            assert_eq!(
                edits_within(&chars(b), &chars(a), 2),
                Some(edits),
                "{b} {a}"
            );
        }
        for (a, b, most) in [
            ("remember", "xyzember", 2),
            ("remember", "rember", 1),
            ("mind", "nimd", 1),
            ("abcd", "abdcx", 1),
            ("abcdefgh", "abc", 2),
        ] {
            assert_eq!(edits_within(&chars(a), &chars(b), most), None, "{a} {b}");
        }
    }

    #[test]
    fn a_misspelt_trigger_word_stands_for_its_spelling() {
        // The tables list some misspellings ("remeber"); these they do not.
        assert_eq!(corrections("pls rememebr this"), ["remember"]);
        assert_eq!(corrections("pls remembre this"), ["remember"]);
        assert_eq!(corrections("keep in mnid"), ["mind"]);
        assert_eq!(corrections("keep in mnid: x"), ["mind"]);
        assert_eq!(corrections("recuerdaa que x"), ["recuerda"]);
    }

    #[test]
    fn the_lexicon_holds_latin_words_of_four_letters_or_more() {
        let lexicon = lexicon();
        assert!(lexicon.iter().any(|entry| entry.word == "remember"));
        assert!(lexicon
            .iter()
            .all(|entry| entry.folded.len() >= MIN_WORD_CHARS && is_latin_word(entry.word)));
        assert!(is_latin_word("Übersicht") && is_latin_word("\u{24F}bcd"));
        assert!(!is_latin_word("記住") && !is_latin_word("\u{250}bcd") && !is_latin_word("ab1"));
    }

    #[test]
    fn words_spelt_right_short_or_far_stand_for_nothing() {
        assert!(corrections("remember the mind of it, remeber").is_empty());
        assert!(corrections("the cat sat on a mat").is_empty());
        assert!(
            corrections("xemember").is_empty(),
            "the first letter differs"
        );
        assert!(corrections("记住这个").is_empty());
    }

    #[test]
    fn an_inflected_trigger_word_is_not_a_misspelling() {
        for text in [
            "the log keeps times",
            "she noted it",
            "recuerdas eso",
            "keeping it",
        ] {
            assert!(corrections(text).is_empty(), "{text}");
        }
        // One letter more that is no ending is still a misspelling.
        assert_eq!(corrections("keept in mind"), ["keep"]);
    }
}
