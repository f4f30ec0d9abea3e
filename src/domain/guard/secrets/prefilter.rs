//! The cheap test that decides whether a rule's regex is needed at all: literals searched
//! for in the text before anything is compiled.

/// The literals a text must contain before a rule's regex is compiled and run on it.
pub(super) enum Triggers {
    /// Compared byte for byte; the pattern is matched against the text as it is. For vendor
    /// prefixes such as `ghp_`.
    Exact(&'static [&'static str]),
    /// Like `Exact`, but only where the literal starts a word (at the start of the text or after
    /// a byte that is not an ASCII letter, digit or `_`), as the pattern's `\b` requires: for
    /// prefixes short enough to occur inside words, such as `s.` (`tests.`) or `SK` (`TASK`).
    Word(&'static [&'static str]),
    /// Compared ignoring ASCII case; the pattern is matched against the text with its ASCII
    /// letters lowercased (same byte offsets). Triggers and pattern are written in lowercase:
    /// `(?i)` would make the regex several times slower to compile.
    AnyCase(&'static [&'static str]),
    /// Like `AnyCase`, for words used as a name or label: the word must be followed, after more
    /// name characters, an optional quote and spaces, by `:`, `=` or `：`. Prose that merely
    /// mentions a password or a token ("rotate the token weekly") then compiles nothing.
    Name(&'static [&'static str]),
}

/// Which pairs of adjacent bytes a text holds, hashed into 4 096 bits: a literal one of whose
/// pairs is missing is not in the text, which this says without searching for it. A text is
/// scrubbed against some 200 literals; most of them are decided here.
pub(super) struct BytePairs([u64; 64]);

impl BytePairs {
    pub(super) fn of(text: &str) -> Self {
        let mut bits = [0u64; 64];
        for pair in text.as_bytes().windows(2) {
            let at = pair_bit(pair[0], pair[1]);
            bits[at / 64] |= 1 << (at % 64);
        }
        BytePairs(bits)
    }

    /// False only when `literal` cannot occur in the text.
    pub(super) fn may_hold(&self, literal: &str) -> bool {
        literal.as_bytes().windows(2).all(|pair| {
            let at = pair_bit(pair[0], pair[1]);
            self.0[at / 64] & (1 << (at % 64)) != 0
        })
    }
}

fn pair_bit(first: u8, second: u8) -> usize {
    (usize::from(first) * 31 + usize::from(second)) % 4096
}

/// A text as the triggers read it: as it is and with its ASCII letters lowercased, each with
/// its byte pairs.
pub(super) struct Haystacks<'t> {
    text: &'t str,
    lowercase: &'t str,
    text_pairs: BytePairs,
    lowercase_pairs: BytePairs,
}

impl<'t> Haystacks<'t> {
    pub(super) fn new(text: &'t str, lowercase: &'t str) -> Self {
        Haystacks {
            text,
            lowercase,
            text_pairs: BytePairs::of(text),
            lowercase_pairs: BytePairs::of(lowercase),
        }
    }
}

impl Triggers {
    /// `occur_in`, skipping the search for literals whose byte pairs `haystacks` lack.
    pub(super) fn occur_in_haystacks(&self, haystacks: &Haystacks) -> bool {
        let (literals, text, pairs) = match self {
            Triggers::Exact(l) | Triggers::Word(l) => (l, haystacks.text, &haystacks.text_pairs),
            Triggers::AnyCase(l) | Triggers::Name(l) => {
                (l, haystacks.lowercase, &haystacks.lowercase_pairs)
            }
        };
        literals.iter().any(|literal| {
            pairs.may_hold(literal)
                && match self {
                    Triggers::Exact(_) | Triggers::AnyCase(_) => text.contains(literal),
                    Triggers::Word(_) => occurs_at_word_start(text, literal),
                    Triggers::Name(_) => occurs_as_name(text, literal),
                }
        })
    }

    /// The plain search, without the byte-pair shortcut: what the tests hold it to.
    #[cfg(test)]
    pub(super) fn occur_in(&self, text: &str, lowercase_text: &str) -> bool {
        match self {
            Triggers::Exact(literals) => literals.iter().any(|literal| text.contains(literal)),
            Triggers::Word(literals) => literals
                .iter()
                .any(|literal| occurs_at_word_start(text, literal)),
            Triggers::AnyCase(words) => words.iter().any(|word| lowercase_text.contains(word)),
            Triggers::Name(words) => words
                .iter()
                .any(|word| occurs_as_name(lowercase_text, word)),
        }
    }

    /// What the rule's pattern is matched against.
    pub(super) fn haystack<'t>(&self, text: &'t str, lowercase_text: &'t str) -> &'t str {
        match self {
            Triggers::Exact(_) | Triggers::Word(_) => text,
            Triggers::AnyCase(_) | Triggers::Name(_) => lowercase_text,
        }
    }
}

/// Whether `literal` occurs at the start of the text or after a byte that is not an ASCII
/// letter, digit or `_`.
pub(super) fn occurs_at_word_start(text: &str, literal: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(literal)
        .any(|(at, _)| at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
}

/// Whether `word` occurs followed, after more name characters, an optional quote and spaces or
/// tabs, by `:`, `=` or `：`.
pub(super) fn occurs_as_name(lowercase_text: &str, word: &str) -> bool {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    // The end of the last run of name characters looked at: an occurrence inside it would
    // reach the same end, so each character is looked at once.
    let mut looked_up_to = 0;
    for (at, _) in lowercase_text.match_indices(word) {
        let word_end = at + word.len();
        if word_end <= looked_up_to {
            continue;
        }
        let after_word = &lowercase_text[word_end..];
        let after_name = after_word.trim_start_matches(is_name_char);
        looked_up_to = lowercase_text.len() - after_name.len();
        let after_quote = after_name.strip_prefix(['"', '\'']).unwrap_or(after_name);
        if after_quote
            .trim_start_matches([' ', '\t'])
            .starts_with([':', '=', '：'])
        {
            return true;
        }
    }
    false
}
