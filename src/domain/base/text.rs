//! Text as a prompt may carry it: invisible characters removed, one line, sizes for people,
//! and lines laid out under a header within a character budget.

/// Lays out `header`, then each of `labels` (display order) with its lines, within `budget`
/// characters (newlines between lines included).
///
/// `lines` are `(index into labels, text)` in priority order: each is admitted whole or not at
/// all, a label costs its own line once its first line is in, and a line that does not fit is
/// skipped so that shorter ones after it may still fit. Within a section, lines keep their
/// priority order. Returns "" when no line fits.
pub fn layout(header: &str, labels: &[&str], lines: &[(usize, String)], budget: usize) -> String {
    let cost = |text: &str| text.chars().count() + 1; // the newline before it
    let mut used = header.chars().count();
    let mut admitted: Vec<Vec<&str>> = vec![Vec::new(); labels.len()];
    for (section, text) in lines {
        let label_cost = if admitted[*section].is_empty() {
            cost(labels[*section])
        } else {
            0
        };
        if used + label_cost + cost(text) <= budget {
            used += label_cost + cost(text);
            admitted[*section].push(text);
        }
    }
    if admitted.iter().all(Vec::is_empty) {
        return String::new();
    }
    let mut out = String::from(header);
    for (label, texts) in labels.iter().zip(&admitted) {
        if texts.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(label);
        for text in texts {
            out.push('\n');
            out.push_str(text);
        }
    }
    out
}

/// A size for people: `512 B`, `2.8 KiB`, `1.2 MiB`.
pub fn human_bytes(bytes: u64) -> String {
    match bytes {
        0..=1023 => format!("{bytes} B"),
        1024..=1_048_575 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// Characters removed from every text ocmem stores or renders. Each is invisible, or changes
/// how the text around it is shown (bidirectional controls), so a text carrying them could
/// say one thing to a person reading the store and another to the model: hidden instructions
/// in tag characters or variation selectors, a reversed file name, a secret split so that the
/// scrubber misses it. This is every format (Cf) character of Unicode 16 and the invisible
/// fillers and selectors of other categories. The zero-width joiner goes too, although emoji
/// sequences use it: kept only between two emoji it could still carry hidden bits, and telling
/// emoji apart needs a table this crate does not have; a family emoji shows as its members.
pub const INVISIBLE: &[(char, char, &str)] = &[
    ('\u{00AD}', '\u{00AD}', "soft hyphen"),
    ('\u{034F}', '\u{034F}', "combining grapheme joiner"),
    ('\u{0600}', '\u{0605}', "Arabic number signs"),
    ('\u{061C}', '\u{061C}', "Arabic letter mark"),
    ('\u{06DD}', '\u{06DD}', "Arabic end of ayah"),
    ('\u{070F}', '\u{070F}', "Syriac abbreviation mark"),
    (
        '\u{0890}',
        '\u{0891}',
        "Arabic pound and piastre marks above",
    ),
    ('\u{08E2}', '\u{08E2}', "Arabic disputed end of ayah"),
    (
        '\u{115F}',
        '\u{1160}',
        "Hangul choseong and jungseong fillers",
    ),
    ('\u{17B4}', '\u{17B5}', "Khmer inherent vowels"),
    (
        '\u{180B}',
        '\u{180F}',
        "Mongolian variation selectors and vowel separator",
    ),
    (
        '\u{200B}',
        '\u{200F}',
        "zero-width space, non-joiner and joiner; LTR and RTL marks",
    ),
    (
        '\u{202A}',
        '\u{202E}',
        "bidirectional embeddings, pop and overrides",
    ),
    (
        '\u{2060}',
        '\u{206F}',
        "word joiner, invisible operators, bidirectional isolates, deprecated format controls",
    ),
    ('\u{3164}', '\u{3164}', "Hangul filler"),
    ('\u{FE00}', '\u{FE0F}', "variation selectors"),
    (
        '\u{FEFF}',
        '\u{FEFF}',
        "zero-width no-break space (byte order mark)",
    ),
    ('\u{FFA0}', '\u{FFA0}', "halfwidth Hangul filler"),
    ('\u{FFF9}', '\u{FFFB}', "interlinear annotation controls"),
    ('\u{110BD}', '\u{110BD}', "Kaithi number sign"),
    ('\u{110CD}', '\u{110CD}', "Kaithi number sign above"),
    (
        '\u{13430}',
        '\u{1343F}',
        "Egyptian hieroglyph format controls",
    ),
    ('\u{1BCA0}', '\u{1BCA3}', "shorthand format controls"),
    ('\u{1D173}', '\u{1D17A}', "musical symbol format controls"),
    ('\u{E0000}', '\u{E007F}', "tag characters"),
    ('\u{E0100}', '\u{E01EF}', "variation selectors supplement"),
];

/// Whether `c` is Chinese or Japanese script, written without spaces between words: kana, and
/// the CJK ideographs (unified, extension A, compatibility).
pub fn is_han_or_kana(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Whether `c` is a Hangul syllable: Korean, spaced between words but gluing its particles to
/// them.
pub fn is_hangul_syllable(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7A3)
}

/// Line and paragraph separators that `char::is_control` does not cover.
const LINE_SEPARATORS: &[char] = &['\u{2028}', '\u{2029}'];

/// Whether `c` is in the `INVISIBLE` table.
pub fn is_invisible(c: char) -> bool {
    // Most text is ASCII, below the table's first character: one comparison, not a search.
    c >= INVISIBLE[0].0
        && INVISIBLE
            .iter()
            .any(|&(first, last, _)| (first..=last).contains(&c))
}

/// `text` without the characters of the `INVISIBLE` table.
pub fn strip_invisible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.is_ascii() && text.chars().any(is_invisible) {
        text.chars().filter(|&c| !is_invisible(c)).collect()
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Text made safe for one rendered line: invisible characters removed, line breaks and other
/// control characters become spaces, runs of spaces fold to one.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_invisible(c) {
            continue;
        }
        let c = if c.is_control() || LINE_SEPARATORS.contains(&c) {
            ' '
        } else {
            c
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(items: &[(usize, &str)]) -> Vec<(usize, String)> {
        items.iter().map(|(i, t)| (*i, t.to_string())).collect()
    }

    #[test]
    fn layout_keeps_display_order_but_fills_by_priority() {
        let b_first = lines(&[(1, "- x"), (0, "- 1234567890"), (0, "- 1234567890")]);
        // header(1) + "\nb:"(3) + "\n- x"(4) = 8; one a line costs 3 + 13 = 16.
        assert_eq!(
            layout("H", &["a:", "b:"], &b_first, 24),
            "H\na:\n- 1234567890\nb:\n- x"
        );
        assert_eq!(layout("H", &["a:", "b:"], &b_first, 23), "H\nb:\n- x");
        let a_first = lines(&[(0, "- 1234567890"), (0, "- 1234567890"), (1, "- x")]);
        assert_eq!(
            layout("H", &["a:", "b:"], &a_first, 23),
            "H\na:\n- 1234567890"
        );
    }

    #[test]
    fn layout_interleaves_sections_by_global_priority() {
        let ranked = lines(&[(1, "- b1"), (0, "- a1"), (1, "- b2"), (0, "- a2")]);
        assert_eq!(
            layout("H", &["a:", "b:"], &ranked, 100),
            "H\na:\n- a1\n- a2\nb:\n- b1\n- b2"
        );
        // 1 + (3 + 5) + (3 + 5) + 5 = 22: room for the first three only.
        assert_eq!(
            layout("H", &["a:", "b:"], &ranked, 22),
            "H\na:\n- a1\nb:\n- b1\n- b2"
        );
    }

    #[test]
    fn layout_skips_a_long_line_but_takes_later_short_ones() {
        let l = lines(&[(0, "- a very very very long line"), (0, "- ok")]);
        assert_eq!(layout("H", &["a:"], &l, 12), "H\na:\n- ok");
    }

    #[test]
    fn layout_renders_nothing_when_nothing_fits() {
        assert_eq!(layout("H", &["a:"], &[], 100), "");
        assert_eq!(layout("H", &["a:"], &lines(&[(0, "- too long")]), 5), "");
    }

    #[test]
    fn invisible_table_is_sorted_so_its_first_character_bounds_the_search() {
        for pair in INVISIBLE.windows(2) {
            assert!(pair[0].0 <= pair[0].1, "{:?}", pair[0]);
            assert!(pair[0].1 < pair[1].0, "{:?} before {:?}", pair[0], pair[1]);
        }
        assert!(!is_invisible('a') && !is_invisible('\u{00AC}') && is_invisible('\u{00AD}'));
        assert_eq!(strip_invisible("plain ascii"), "plain ascii");
    }

    #[test]
    fn the_invisible_table_covers_every_format_character_named_by_the_rules() {
        let named = [
            0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
            0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0xE0000, 0xE0001, 0xE0041,
            0xE007F,
        ];
        for code in named {
            assert!(is_invisible(char::from_u32(code).unwrap()), "{code:X}");
        }
        for visible in ['a', ' ', '用', '—', '…', '\u{2028}', '😀'] {
            assert!(!is_invisible(visible), "{visible:?}");
        }
        for (first, last, _) in INVISIBLE {
            assert!(first <= last);
        }
    }

    #[test]
    fn line_and_paragraph_separators_break_no_line() {
        assert_eq!(one_line("a\u{2028}b\u{2029}c\u{85}d"), "a b c d");
    }

    #[test]
    fn one_line_folds_breaks_and_controls() {
        assert_eq!(one_line("a\nb\r\n\tc  d "), "a b c d");
        assert_eq!(one_line("\n\nx"), "x");
    }
}
