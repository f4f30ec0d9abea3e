//! How long a text is, measured so that a fact written in Chinese, Japanese or Korean is not
//! "too short" beside the same fact in a Latin script: an ideograph carries about as much as
//! three Latin letters, a kana or a Hangul syllable about two.

use std::ops::RangeInclusive;

/// A shorter text (in Latin-letter equivalents) rarely states a fact that stands on its own:
/// "Use pnpm", "User prefers tabs"; 用户喜欢简洁的回答 is 27 and passes.
pub(super) const MIN_TEXT_LENGTH: usize = 20;

/// What one character of a script weighs, in Latin letters; every other character weighs one.
const SCRIPT_WEIGHTS: [(RangeInclusive<char>, usize); 9] = [
    // Han ideographs: unified, extension A, compatibility, extensions B and later
    ('\u{4E00}'..='\u{9FFF}', 3),
    ('\u{3400}'..='\u{4DBF}', 3),
    ('\u{F900}'..='\u{FAFF}', 3),
    ('\u{20000}'..='\u{3134F}', 3),
    // kana: hiragana, katakana, halfwidth katakana
    ('\u{3040}'..='\u{309F}', 2),
    ('\u{30A0}'..='\u{30FF}', 2),
    ('\u{FF66}'..='\u{FF9F}', 2),
    // Hangul: syllables and jamo
    ('\u{AC00}'..='\u{D7AF}', 2),
    ('\u{1100}'..='\u{11FF}', 2),
];

/// The length of `text` in Latin-letter equivalents.
pub(super) fn text_length(text: &str) -> usize {
    text.chars()
        .map(|c| {
            SCRIPT_WEIGHTS
                .iter()
                .find(|(range, _)| range.contains(&c))
                .map_or(1, |&(_, weight)| weight)
        })
        .sum()
}

pub(super) fn is_too_short(text: &str) -> bool {
    text_length(text) < MIN_TEXT_LENGTH
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_script_by_what_its_characters_carry() {
        assert_eq!(text_length("Use pnpm"), 8);
        assert_eq!(text_length("ÄÖÜ äöü ß"), 9);
        assert_eq!(text_length("测试数据库"), 15);
        assert_eq!(text_length("テスト"), 6);
        assert_eq!(text_length("테스트"), 6);
        assert_eq!(text_length("本番DBへ"), 10);
    }

    #[test]
    fn complete_short_facts_in_cjk_are_long_enough_and_fragments_are_not() {
        for fact in [
            "测试数据库只能在本地使用",
            "接口返回的金额单位都是分",
            "用户喜欢简洁的回答",
            "本番DBへの直接接続は禁止",
            "回答は日本語で、結論から書く",
            "운영 DB에는 직접 접속하지 않는다",
            "답변은 한국어로, 결론부터 쓴다",
        ] {
            assert!(!is_too_short(fact), "{fact}");
        }
        for fragment in [
            "已修复",
            "用 pnpm",
            "タブを使う",
            "빌드 성공",
            "User prefers tabs",
        ] {
            assert!(is_too_short(fragment), "{fragment}");
        }
    }
}
