//! The features of a text: its character 2- to 4-grams, its words and word pairs, all after
//! folding case, Latin accents and full-width forms, so that "Recuérdalo", "recuerdalo" and
//! "ＲＥＣＵＥＲＤＡＬＯ" look alike. Each feature belongs to a field (the whole text, or the part
//! before, inside or after a candidate memory), so a word weighs differently where it stands.
//! Named features (what a rule concluded, a shape of the text) come from the caller.

use crate::domain::base::text::{is_han_or_kana, is_hangul_syllable};

/// Which part of the input a feature comes from; part of the feature's hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Whole = 0,
    Head = 1,
    Body = 2,
    Tail = 3,
    Named = 4,
    /// The sentence before, and the one after.
    Before = 5,
    After = 6,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Whole => "text",
            Field::Head => "head",
            Field::Body => "body",
            Field::Tail => "tail",
            Field::Named => "named",
            Field::Before => "before",
            Field::After => "after",
        }
    }
}

/// Receives each feature: its field, its kind (`c` characters, `w` word, `p` word pair,
/// `n` named) and its parts, with the value it carries.
pub trait FeatureSink {
    fn feature(&mut self, field: Field, kind: u8, parts: &[&str], value: f32);
}

/// The text as features see it: lower case, Latin accents and full-width forms folded,
/// whitespace runs as one space, between a start mark and an end mark.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\u{2}');
    let mut space = false;
    for c in text.trim().chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        for lower in fold(c).flat_map(char::to_lowercase) {
            out.push(lower);
        }
    }
    out.push('\u{3}');
    out
}

/// A Latin letter without its accent, a full-width form as ASCII; other characters as they are.
fn fold(c: char) -> impl Iterator<Item = char> {
    let folded: Option<char> = match c {
        'à'..='å' | 'À'..='Å' | 'ā' | 'ă' | 'ą' => Some('a'),
        'ç' | 'Ç' | 'ć' | 'č' => Some('c'),
        'è'..='ë' | 'È'..='Ë' | 'ē' | 'ė' | 'ę' | 'ě' => Some('e'),
        'ì'..='ï' | 'Ì'..='Ï' | 'ī' | 'į' => Some('i'),
        'ñ' | 'Ñ' | 'ń' => Some('n'),
        'ò'..='ö' | 'Ò'..='Ö' | 'ø' | 'Ø' | 'ō' | 'ő' => Some('o'),
        'ù'..='ü' | 'Ù'..='Ü' | 'ū' | 'ů' | 'ű' => Some('u'),
        'ý' | 'ÿ' | 'Ý' => Some('y'),
        'ß' => Some('s'),
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{3000}' => Some(' '),
        _ => None,
    };
    std::iter::once(folded.unwrap_or(c))
}

/// Calls `sink` with every feature of `text` in `field`. The character n-grams and the words
/// each share a weight of one over the square root of their count, so a long text does not
/// outweigh a short one.
pub fn each_feature(text: &str, field: Field, sink: &mut impl FeatureSink) {
    each_feature_known(text, field, None, sink);
}

/// Which words a masked input reads as themselves: any other word is read as `_`, so that what a
/// sentence is about weighs nothing and only how it is said counts.
pub type Known = fn(&str) -> bool;

/// The words of `text` as features see them (folded; each character of unspaced script alone).
pub fn tokens(text: &str) -> Vec<String> {
    let normal = normalise(text);
    let mut out = Vec::new();
    for_each_token(&normal, |token, _| out.push(token.to_string()));
    out
}

/// Calls `f` with each token of the normalised text and its byte offset.
fn for_each_token(normal: &str, mut f: impl FnMut(&str, usize)) {
    // ASCII first: most text is, and the Unicode tables cost the most of masking.
    let is_word = |c: char| {
        if c.is_ascii() {
            c.is_ascii_alphanumeric() || c == '\'' || c == '_'
        } else {
            c.is_alphanumeric() && !is_han_or_kana(c)
        }
    };
    let mut start: Option<usize> = None;
    for (at, c) in normal.char_indices() {
        if is_word(c) {
            start.get_or_insert(at);
            continue;
        }
        if let Some(from) = start.take() {
            f(&normal[from..at], from);
        }
        if !c.is_ascii() && is_han_or_kana(c) {
            f(&normal[at..at + c.len_utf8()], at);
        }
    }
    if let Some(from) = start {
        f(&normal[from..], from);
    }
}

/// `normal` with every token `known` refuses as `_`, a run of them in unspaced script as one.
fn masked(normal: &str, known: Known) -> String {
    let mut out = String::with_capacity(normal.len());
    let mut copied = 0;
    for_each_token(normal, |token, at| {
        if known(token) {
            return;
        }
        out.push_str(&normal[copied..at]);
        let (stem, ending) = known_affixes(token, known);
        out.push_str(stem);
        if !(stem.is_empty() && out.ends_with('_') && token.chars().all(is_han_or_kana)) {
            out.push('_');
        }
        out.push_str(ending);
        copied = at + token.len();
    });
    out.push_str(&normal[copied..]);
    out
}

/// How a stem the models know is written in the vocabulary: "기억해~".
pub fn stem_entry(stem: &str) -> String {
    format!("{stem}~")
}

/// How an ending the models know is written in the vocabulary: "~이라는".
pub fn ending_entry(ending: &str) -> String {
    format!("~{ending}")
}

/// The stems and endings of a Korean word, as the vocabulary counts them: its leading Hangul
/// syllables (two or more, short of the whole word) and its trailing ones (one to four).
pub fn hangul_affixes(token: &str) -> Vec<String> {
    let bounds: Vec<usize> = token.char_indices().map(|(i, _)| i).skip(1).collect();
    let mut out = Vec::new();
    for (n, &at) in bounds.iter().enumerate() {
        let (stem, ending) = token.split_at(at);
        if n >= 1 && stem.chars().all(is_hangul_syllable) {
            out.push(stem_entry(stem));
        }
        if ending.chars().count() <= 4 && ending.chars().all(is_hangul_syllable) {
            out.push(ending_entry(ending));
        }
    }
    out
}

/// The known stem and ending of an unknown word that glues its endings to it (Korean:
/// "기억해주셈" is "기억해" and "셈", "형식이라는" ends in "이라는"), so that the request and
/// the mood it is said in still read when the word as a whole is rare. Empty for any other word.
fn known_affixes(token: &str, known: Known) -> (&str, &str) {
    if !token.chars().any(is_hangul_syllable) {
        return ("", "");
    }
    let bounds: Vec<usize> = token.char_indices().map(|(i, _)| i).skip(1).collect();
    let stem_end = bounds
        .iter()
        .rev()
        .copied()
        .filter(|&at| at > token.chars().next().map_or(0, char::len_utf8))
        .find(|&at| {
            let stem = &token[..at];
            stem.chars().all(is_hangul_syllable) && (known(stem) || known(&stem_entry(stem)))
        })
        .unwrap_or(0);
    let ending_start = bounds
        .iter()
        .copied()
        .filter(|&at| at >= stem_end)
        .find(|&at| {
            let ending = &token[at..];
            ending.chars().all(is_hangul_syllable) && known(&ending_entry(ending))
        })
        .unwrap_or(token.len());
    (&token[..stem_end], &token[ending_start..])
}

/// The tokens of `text` in order, as a model reading word order sees them: each word (folded,
/// masked when `known` is given), each character of unspaced script, and each mark, including
/// the text's start and end marks, since where a colon or a full stop stands says as much as a word.
pub(super) fn each_token_in_order(text: &str, known: Option<Known>, mut f: impl FnMut(&str)) {
    let normal = match known {
        Some(known) => masked(&normalise(text), known),
        None => normalise(text),
    };
    let mut words = Vec::new();
    for_each_token(&normal, |token, at| words.push((at, token.len())));
    let mut next = words.iter().peekable();
    let mut at = 0;
    while at < normal.len() {
        if let Some(&&(start, len)) = next.peek() {
            if start == at {
                f(&normal[at..at + len]);
                at += len;
                next.next();
                continue;
            }
        }
        let c = normal[at..].chars().next().unwrap_or(' ');
        if !c.is_whitespace() {
            f(&normal[at..at + c.len_utf8()]);
        }
        at += c.len_utf8();
    }
}

/// `each_feature`, reading only the words `known` accepts when it is given.
pub fn each_feature_known(
    text: &str,
    field: Field,
    known: Option<Known>,
    sink: &mut impl FeatureSink,
) {
    let normal = match known {
        Some(known) => masked(&normalise(text), known),
        None => normalise(text),
    };
    let bounds: Vec<usize> = normal
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(normal.len()))
        .collect();
    let chars = bounds.len() - 1;
    let grams: usize = (2..=4).map(|n| chars.saturating_sub(n - 1)).sum();
    let gram_value = 1.0 / (grams.max(1) as f32).sqrt();
    // A memory's own text is read by its words: its characters would cost the most and tell
    // the least.
    let gram_sizes = if field == Field::Body { 0..=0 } else { 2..=4 };
    for n in gram_sizes.filter(|&n| n > 0) {
        for start in 0..chars.saturating_sub(n - 1) {
            let gram = &normal[bounds[start]..bounds[start + n]];
            sink.feature(field, b'c', &[gram], gram_value);
        }
    }
    let words: Vec<&str> = normal
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_') || is_han_or_kana(c))
        .filter(|w| !w.is_empty())
        .collect();
    let unspaced: Vec<&str> = normal
        .split(|c: char| !is_han_or_kana(c))
        .filter(|w| !w.is_empty())
        .collect();
    // A memory's own text is read without its character n-grams, so its long spaced words are
    // also read by their stems: "ignorez" and "ignore" share what their grams would share.
    let stems: Vec<&str> = if field == Field::Body {
        words.iter().filter_map(|word| stem(word)).collect()
    } else {
        Vec::new()
    };
    let count = words.len() * 2
        + stems.len()
        + unspaced
            .iter()
            .map(|run| run.chars().count())
            .sum::<usize>();
    let word_value = 1.0 / (count.max(1) as f32).sqrt();
    for (i, word) in words.iter().enumerate() {
        sink.feature(field, b'w', &[word], word_value);
        let before = if i == 0 { "^" } else { words[i - 1] };
        sink.feature(field, b'p', &[before, word], word_value);
    }
    if let Some(last) = words.last() {
        sink.feature(field, b'p', &[last, "$"], word_value);
    }
    for stem in stems {
        sink.feature(field, b's', &[stem], word_value);
    }
    for run in unspaced {
        for (i, c) in run.char_indices() {
            sink.feature(field, b'w', &[&run[i..i + c.len_utf8()]], word_value);
        }
    }
}

/// A word's stem: its first `STEM` letters, when it has more, so that "ignorez", "ignoring" and
/// "ignore" share one ("ignor"), and "recuérdalo" and "recuerda" another; a crude stemmer, but
/// one for every spaced language at once. Words of digits, marks or Hangul have none (a Korean
/// word's stem and ending are read by the vocabulary, see `known_affixes`).
fn stem(word: &str) -> Option<&str> {
    if !word
        .chars()
        .all(|c| c.is_alphabetic() && !is_hangul_syllable(c))
    {
        return None;
    }
    let (end, _) = word.char_indices().nth(STEM)?;
    Some(&word[..end])
}

const STEM: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Names(Vec<String>);
    impl FeatureSink for Names {
        fn feature(&mut self, _: Field, kind: u8, parts: &[&str], _: f32) {
            self.0.push(format!("{}:{}", kind as char, parts.join(" ")));
        }
    }

    fn names(text: &str) -> Vec<String> {
        let mut names = Names::default();
        each_feature(text, Field::Whole, &mut names);
        names.0
    }

    #[test]
    fn case_accents_and_full_width_forms_fold_alike() {
        assert_eq!(names("Recuérdalo"), names("recuerdalo"));
        assert_eq!(names("ＲＥＭＥＭＢＥＲ"), names("remember"));
        assert_eq!(names("  a   b "), names("a b"));
        assert_ne!(names("remember"), names("remembers"));
    }

    #[test]
    fn words_pairs_and_grams_are_all_there() {
        let all = names("Keep it");
        for expected in [
            "w:keep",
            "w:it",
            "p:^ keep",
            "p:keep it",
            "p:it $",
            "c:\u{2}k",
            "c:it\u{3}",
            "c:kee",
        ] {
            assert!(all.contains(&expected.to_string()), "{expected} in {all:?}");
        }
        let cjk = names("记住这个");
        assert!(
            cjk.contains(&"w:记".to_string()) && cjk.contains(&"c:记住".to_string()),
            "{cjk:?}"
        );
    }

    #[test]
    fn a_memory_s_long_words_are_read_by_their_stems_too() {
        let mut body = Names::default();
        each_feature(
            "Ignorez ignore ignor x1y2z3 기억해주세요",
            Field::Body,
            &mut body,
        );
        let stems: Vec<&String> = body.0.iter().filter(|f| f.starts_with("s:")).collect();
        assert_eq!(stems, ["s:ignor", "s:ignor"], "{:?}", body.0);
        // Only the body, which reads no n-grams, reads stems.
        assert!(!names("ignorez").iter().any(|f| f.starts_with("s:")));
        assert_eq!(stem("recuérdalo"), Some("recué"));
        // A stem counts in the weight each feature of the text shares.
        let mut values = Values::default();
        each_feature("ignorez", Field::Body, &mut values);
        assert_eq!(values.0.len(), 4);
        assert!(
            values
                .0
                .iter()
                .all(|v| (v - 1.0 / 3f32.sqrt()).abs() < 1e-6),
            "{:?}",
            values.0
        );
    }

    #[derive(Default)]
    struct Values(Vec<f32>);
    impl FeatureSink for Values {
        fn feature(&mut self, _: Field, _: u8, _: &[&str], value: f32) {
            self.0.push(value);
        }
    }

    fn known_korean(word: &str) -> bool {
        ["기억해", "기억해~", "~이라는", "~셈", "~줘", "하~", "모든"].contains(&word)
    }

    #[test]
    fn an_unknown_korean_word_keeps_the_stem_and_ending_the_models_know() {
        assert_eq!(masked("기억해주셈 빌드", known_korean), "기억해_셈 _");
        assert_eq!(masked("형식이라는 거", known_korean), "_이라는 _");
        // A known word is itself; a stem is two syllables or more.
        assert_eq!(masked("기억해 하나로", known_korean), "기억해 _");
        // A stem and an ending that meet are both read; a known word is a stem too.
        assert_eq!(masked("기억해줘", known_korean), "기억해_줘");
        assert_eq!(masked("모든것", known_korean), "모든_");
        // Other scripts are masked whole, as before.
        assert_eq!(masked("gateway 天文", known_korean), "_ _");
    }

    #[test]
    fn the_vocabulary_counts_korean_stems_and_endings() {
        let affixes = hangul_affixes("기억해줘");
        for entry in ["기억~", "기억해~", "~억해줘", "~해줘", "~줘"] {
            assert!(affixes.contains(&entry.to_string()), "{entry}: {affixes:?}");
        }
        assert!(!affixes.contains(&"기~".to_string()));
        assert!(!affixes.contains(&"~기억해줘".to_string()));
        assert!(hangul_affixes("ts에").contains(&"~에".to_string()));
        assert!(hangul_affixes("remember").is_empty());
    }
}
