//! Misspelt trigger words, read as the word they miss: "rememebr", "remembre", "keep in mnid",
//! "recuerdaa". The words of every phrase of `triggers.rs` (in Latin script, of four letters or
//! more) form the lexicon; a word of a text one edit away from a lexicon word (a letter added,
//! dropped, changed, or two neighbours swapped; two edits from a word of seven letters or
//! more), with the same first letter, stands for the nearest. The models read the word it
//! stands for beside the word itself, so a misspelling weighs like the spelling no table lists.
//! A Korean trigger typed with the keyboard left in Latin mode ("rldjrgownj", 기억해줘 on the
//! two-set layout) stands for the trigger word its keys spell, and a Hangul word one vowel or
//! one final consonant from a Korean keeping verb ("기엌해줘", "기억헤", "긱억해둬") for that verb.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::triggers::{all, triggers};
use crate::domain::base::text::is_hangul_syllable;

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
        let hangul = word.chars().all(is_hangul_syllable);
        if hangul {
            out.extend(hangul_slip(word));
            continue;
        }
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
    let misspelt = lexicon
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
        .map(|(_, _, word)| word);
    misspelt.or_else(|| typed_in_latin_mode(word))
}

/// The Korean keeping verb (`final_verbs`, of three syllables or more) whose syllables `word`
/// starts with but for one slip: one syllable with another vowel, or a final consonant added,
/// dropped or changed ("기엌해줘", "기억헤", "긱억해둬", "명싱해"). Its initial consonants are
/// the verb's: "기억나세요" (do you remember) is another verb. 하 for 해 is the verb inflected
/// ("저장하고", "기억하는지"), not misspelt.
fn hangul_slip(word: &str) -> Option<&'static str> {
    let syllables: Vec<char> = word.chars().collect();
    if syllables.len() < MIN_SLIP_SYLLABLES || !syllables.iter().all(|&c| is_hangul_syllable(c)) {
        return None;
    }
    let verbs = keeping_verbs();
    if verbs.iter().any(|verb| word.starts_with(verb)) {
        return None;
    }
    verbs
        .iter()
        .filter(|verb| {
            let verb: Vec<char> = verb.chars().collect();
            verb.len() <= syllables.len() && {
                let differing: Vec<(char, char)> = verb
                    .iter()
                    .zip(&syllables)
                    .filter(|(a, b)| a != b)
                    .map(|(&a, &b)| (a, b))
                    .collect();
                matches!(differing.as_slice(), [(meant, typed)] if is_slip(*meant, *typed))
            }
        })
        .max_by_key(|verb| verb.len())
        .copied()
}

/// Keeping verbs are three syllables or more: two-syllable words have too many neighbours one
/// slip away ("기억" and "기업", a company).
const MIN_SLIP_SYLLABLES: usize = 3;

/// Whether the syllable `typed` is `meant` with one slip: the same initial consonant, and either
/// another vowel or another final (added, dropped or changed), not both; and not one form of
/// 하다 for another (하, 해, 할, 한, 했: "기억하고" beside 기억해 and 기억할).
fn is_slip(meant: char, typed: char) -> bool {
    let (initial, medial, last) = jamo(meant);
    let (typed_initial, typed_medial, typed_last) = jamo(typed);
    let inflected = is_form_of_ha(meant) && is_form_of_ha(typed);
    typed_initial == initial && ((medial != typed_medial) != (last != typed_last)) && !inflected
}

/// Whether `syllable` is 하 or 해 with any final: a form of the verb 하다.
fn is_form_of_ha(syllable: char) -> bool {
    let (initial, medial, _) = jamo(syllable);
    initial == JAMO_H && (medial == JAMO_A || medial == JAMO_AE)
}

/// The initial ㅎ and the medial vowels ㅏ and ㅐ, as `jamo` numbers them.
const JAMO_H: u32 = 18;
const JAMO_A: u32 = 0;
const JAMO_AE: u32 = 1;

/// A Hangul syllable's initial consonant, medial vowel and final (0 for none), numbered as
/// Unicode composes them.
fn jamo(syllable: char) -> (u32, u32, u32) {
    let index = syllable as u32 - HANGUL_FIRST;
    (index / (21 * 28), index % (21 * 28) / 28, index % 28)
}

/// The first Hangul syllable, 가.
const HANGUL_FIRST: u32 = 0xAC00;

/// The words of the Korean sentence-final verbs that ask to keep something, of three
/// syllables or more, longest first.
fn keeping_verbs() -> &'static [&'static str] {
    static VERBS: OnceLock<Vec<&'static str>> = OnceLock::new();
    VERBS.get_or_init(|| {
        let mut words: Vec<&'static str> = all(|language| language.final_verbs)
            .flat_map(|phrase| phrase.split(|c: char| !c.is_alphabetic()))
            .filter(|word| {
                word.chars().count() >= MIN_SLIP_SYLLABLES && word.chars().all(is_hangul_syllable)
            })
            .collect();
        words.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        words.dedup();
        words
    })
}

/// The Korean trigger word the keys of `word` spell on the two-set layout, when they spell
/// Hangul that starts with one ("rldjrgownj" is 기억해줘, which starts with 기억해).
fn typed_in_latin_mode(word: &str) -> Option<&'static str> {
    let hangul = hangul_of_keys(word)?;
    hangul_lexicon()
        .iter()
        .filter(|trigger| hangul.starts_with(**trigger))
        .max_by_key(|trigger| trigger.len())
        .copied()
}

/// The Hangul words of the trigger phrases and the sentence-final verbs that ask to keep
/// something, of two syllables or more.
fn hangul_lexicon() -> &'static [&'static str] {
    static LEXICON: OnceLock<Vec<&'static str>> = OnceLock::new();
    LEXICON.get_or_init(|| {
        let mut words: Vec<&'static str> = triggers()
            .map(|trigger| trigger.phrase)
            .chain(all(|language| language.final_verbs))
            .flat_map(|phrase| phrase.split(|c: char| !c.is_alphabetic()))
            .filter(|word| word.chars().count() >= 2 && word.chars().all(is_hangul_syllable))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// A key of the Korean two-set layout: a consonant (its index among the 19 initial
/// consonants) or a vowel (its index among the 21 medial vowels).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Consonant(u32),
    Vowel(u32),
}

fn key(c: char) -> Option<Key> {
    // Shift makes a tense consonant or a second vowel of five keys; of the others it is the
    // key itself.
    let consonant = |index| Some(Key::Consonant(index));
    let vowel = |index| Some(Key::Vowel(index));
    match c {
        'R' => consonant(1),
        'E' => consonant(4),
        'Q' => consonant(8),
        'T' => consonant(10),
        'W' => consonant(13),
        'O' => vowel(3),
        'P' => vowel(7),
        _ => match c.to_ascii_lowercase() {
            'r' => consonant(0),
            's' => consonant(2),
            'e' => consonant(3),
            'f' => consonant(5),
            'a' => consonant(6),
            'q' => consonant(7),
            't' => consonant(9),
            'd' => consonant(11),
            'w' => consonant(12),
            'c' => consonant(14),
            'z' => consonant(15),
            'x' => consonant(16),
            'v' => consonant(17),
            'g' => consonant(18),
            'k' => vowel(0),
            'o' => vowel(1),
            'i' => vowel(2),
            'j' => vowel(4),
            'p' => vowel(5),
            'u' => vowel(6),
            'h' => vowel(8),
            'y' => vowel(12),
            'n' => vowel(13),
            'b' => vowel(17),
            'm' => vowel(18),
            'l' => vowel(20),
            _ => None,
        },
    }
}

/// Two vowel keys typed in a row that make one vowel (ㅗ and ㅏ make ㅘ).
fn compound_vowel(first: u32, second: u32) -> Option<u32> {
    match (first, second) {
        (8, 0) => Some(9),
        (8, 1) => Some(10),
        (8, 20) => Some(11),
        (13, 4) => Some(14),
        (13, 5) => Some(15),
        (13, 20) => Some(16),
        (18, 20) => Some(19),
        _ => None,
    }
}

/// The final-consonant index of an initial consonant (ㄸ, ㅃ and ㅉ end no syllable).
fn final_of(initial: u32) -> Option<u32> {
    const FINALS: [u32; 19] = [
        1, 2, 4, 7, 0, 8, 16, 17, 0, 19, 20, 21, 22, 0, 23, 24, 25, 26, 27,
    ];
    Some(FINALS[initial as usize]).filter(|&index| index != 0)
}

/// Two consonant keys that end a syllable together (ㄹ and ㄱ make ㄺ).
fn final_pair(first: u32, second: u32) -> Option<u32> {
    match (first, second) {
        (0, 9) => Some(3),
        (2, 12) => Some(5),
        (2, 18) => Some(6),
        (5, 0) => Some(9),
        (5, 6) => Some(10),
        (5, 7) => Some(11),
        (5, 9) => Some(12),
        (5, 16) => Some(13),
        (5, 17) => Some(14),
        (5, 18) => Some(15),
        (7, 9) => Some(18),
        _ => None,
    }
}

/// The Hangul syllables the keys of `word` compose, as a Korean input method composes them, or
/// `None` when they leave a letter that is no part of a syllable (as English words do).
fn hangul_of_keys(word: &str) -> Option<String> {
    let keys: Vec<Key> = word.chars().map(key).collect::<Option<_>>()?;
    let consonant_at = |at: usize| match keys.get(at) {
        Some(&Key::Consonant(index)) => Some(index),
        _ => None,
    };
    let vowel_at = |at: usize| match keys.get(at) {
        Some(&Key::Vowel(index)) => Some(index),
        _ => None,
    };
    let mut out = String::new();
    let mut at = 0;
    while at < keys.len() {
        let initial = consonant_at(at)?;
        let mut medial = vowel_at(at + 1)?;
        at += 2;
        if let Some(compound) = vowel_at(at).and_then(|next| compound_vowel(medial, next)) {
            medial = compound;
            at += 1;
        }
        // A consonant followed by a vowel starts the next syllable; one that is not ends this.
        let mut last = 0;
        if let Some(first) = consonant_at(at).filter(|_| vowel_at(at + 1).is_none()) {
            let pair = consonant_at(at + 1)
                .filter(|_| vowel_at(at + 2).is_none())
                .and_then(|second| final_pair(first, second));
            if let Some(pair) = pair {
                last = pair;
                at += 2;
            } else {
                last = final_of(first)?;
                at += 1;
            }
        }
        out.push(char::from_u32(
            0xAC00 + (initial * 21 + medial) * 28 + last,
        )?);
    }
    Some(out)
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
    fn keys_typed_in_latin_mode_compose_the_hangul_they_spell() {
        for (keys, hangul) in [
            ("rldjrgownj", "기억해줘"),
            ("dkssudgktpdy", "안녕하세요"),
            ("apahgo", "메모해"),
            ("ekfrrhkd", "닭광"),
            ("Tkdnwl", "싸우지"),
            ("dmlrus", "의견"),
            ("gkfEo", "할때"),
        ] {
            assert_eq!(hangul_of_keys(keys).as_deref(), Some(hangul), "{keys}");
        }
        for word in ["remember", "that", "rk1", "rkE", "bk"] {
            assert_eq!(hangul_of_keys(word), None, "{word}");
        }
    }

    #[test]
    fn every_key_of_the_two_set_layout_is_its_jamo() {
        let syllables = |text: &str| text.chars().map(String::from).collect::<Vec<_>>();
        let initials = syllables("가까나다따라마바빠사싸아자짜차카타파하");
        for (key, syllable) in "rRseEfaqQtTdwWczxvg".chars().zip(&initials) {
            assert_eq!(
                hangul_of_keys(&format!("{key}k")).as_ref(),
                Some(syllable),
                "{key}"
            );
        }
        let medials = syllables("가개갸걔거게겨계고과괘괴교구궈궤귀규그긔기");
        for (keys, syllable) in [
            "k", "o", "i", "O", "j", "p", "u", "P", "h", "hk", "ho", "hl", "y", "n", "nj", "np",
            "nl", "b", "m", "ml", "l",
        ]
        .iter()
        .zip(&medials)
        {
            assert_eq!(
                hangul_of_keys(&format!("r{keys}")).as_ref(),
                Some(syllable),
                "{keys}"
            );
        }
        let finals = syllables("각갂갃간갅갆갇갈갉갊갋갌갍갎갏감갑값갓갔강갖갗갘같갚갛");
        for (keys, syllable) in [
            "r", "R", "rt", "s", "sw", "sg", "e", "f", "fr", "fa", "fq", "ft", "fx", "fv", "fg",
            "a", "q", "qt", "t", "T", "d", "w", "c", "z", "x", "v", "g",
        ]
        .iter()
        .zip(&finals)
        {
            assert_eq!(
                hangul_of_keys(&format!("rk{keys}")).as_ref(),
                Some(syllable),
                "{keys}"
            );
        }
        // Tense ㄸ, ㅃ and ㅉ end no syllable; upper case of any other key is the key.
        for keys in ["rkE", "rkQ", "rkW"] {
            assert_eq!(hangul_of_keys(keys), None, "{keys}");
        }
        assert_eq!(hangul_of_keys("SK").as_deref(), Some("나"));
    }

    #[test]
    fn a_korean_trigger_typed_in_latin_mode_stands_for_the_trigger() {
        assert_eq!(corrections("rldjrgownj 아 한영키"), ["기억해"]);
        assert_eq!(corrections("이거 rldjrgo 둬"), ["기억해"]);
        // Hangul that is no trigger, and keys that spell none, stand for nothing.
        assert!(corrections("dkssudgktpdy").is_empty());
        assert!(corrections("rkskek").is_empty());
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

    #[test]
    fn a_hangul_slip_of_a_keeping_verb_stands_for_the_verb() {
        for (text, verb) in [
            ("기엌해줘 ㅠ", "기억해"),
            ("이거 기억헤줘", "기억해"),
            ("긱억해둬요", "기억해둬"),
            ("명싱해", "명심해"),
            ("잇지마 제발", "잊지마"),
            ("기억혜줘", "기억해"),
        ] {
            assert_eq!(corrections(text), [verb], "{text}");
        }
    }

    #[test]
    fn a_keeping_verb_spelt_right_inflected_or_far_is_no_slip() {
        for text in [
            // Spelt right: the tables read it already.
            "기억해줘",
            // 하 for 해 is the verb inflected.
            "기억하고",
            "저장하고",
            "기억하는지",
            // Another initial consonant is another verb: "do you remember".
            "기억나세요",
            // Another form of 하다 is an inflection too: 했 for 해.
            "기억했어",
            // A vowel and a final both changed, two syllables changed, or two syllables only.
            "기앆해",
            "기엌헤줘",
            "기엌",
        ] {
            assert!(corrections(text).is_empty(), "{text}");
        }
    }
}
