//! The words the sentence and span models read as themselves: the words of the trigger tables
//! and every word that occurs in at least `MIN_MESSAGES` of the training messages (function
//! words, triggers, the words of one-offs: "this", "branch", "before", "以后"). Any other word
//! (what a memory is about: "gateway", "Authorization", "hectolitre") is read as `_`, so that
//! whether a sentence asks to keep a memory is learned from how it is said, never from its
//! subject. `train_models` writes the list, sorted, one word a line, folded as features fold.

use std::sync::OnceLock;

/// A word is read as itself when this many training messages hold it.
pub const MIN_MESSAGES: usize = 8;
pub const FILE: &str = "src/domain/capture/explicit/vocabulary.txt";
static WORDS: &str = include_str!("vocabulary.txt");

fn words() -> &'static [&'static str] {
    static SORTED: OnceLock<Vec<&'static str>> = OnceLock::new();
    SORTED.get_or_init(|| WORDS.lines().collect())
}

/// Whether the models read `token` (folded) as itself.
pub fn is_known(token: &str) -> bool {
    words().binary_search(&token).is_ok()
}

/// The compiled-in list, as `train_models` compares it with what it would write.
pub fn compiled() -> &'static str {
    WORDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_holds_the_commonest_words() {
        let words = words();
        assert!(words.windows(2).all(|pair| pair[0] < pair[1]));
        for word in ["remember", "the", "this", "记", "覚", "기억해"] {
            assert!(is_known(word), "{word}");
        }
        assert!(!is_known("hectolitre"));
    }
}
