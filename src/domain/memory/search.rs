//! Ranked lexical search over memory texts, for `ocmem memory search` and `forget --match`.
//!
//! - Terms: the text in NFKC, lowercase. A run of letters and digits outside the CJK scripts is
//!   one term (a word); a run of Han, kana or Hangul, written without spaces, gives its
//!   overlapping pairs of characters (a lone one is a term by itself), so that "中文回复" finds
//!   "用中文回复" and "テストを実行" finds "テストを実行する".
//! - Score: BM25 over the texts searched (k1 1.2, b 0.75). A query word of at least
//!   `PREFIX_MIN_CHARS` characters also matches the words it starts, at half weight
//!   ("type" finds "typecheck"). A text that matches no term is no hit.
//! - Ties go to the order the texts were given in (the caller's rank).

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

/// BM25's term-frequency saturation and length normalisation.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// A query word this long also matches words it is the start of.
const PREFIX_MIN_CHARS: usize = 3;
/// The weight of a prefix match against a whole-word one.
const PREFIX_WEIGHT: f64 = 0.5;

/// One term of a text, and whether it is a word (which prefixes may match) or a CJK pair.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    text: String,
    word: bool,
}

/// Whether `c` belongs to a script written without spaces between words (or, for Hangul,
/// whose words take particles): its text is searched by pairs of characters.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF     // Hangul Jamo
        | 0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3130..=0x318F   // Hangul compatibility Jamo
        | 0x31F0..=0x31FF   // Katakana phonetic extensions
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF   // CJK compatibility ideographs
        | 0xFF66..=0xFF9F   // halfwidth Katakana
        | 0x20000..=0x3FFFF // CJK extensions B and later
    )
}

/// The terms of `text`, in order.
fn terms(text: &str) -> Vec<Term> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, out: &mut Vec<Term>| {
        if !word.is_empty() {
            out.push(Term {
                text: std::mem::take(word),
                word: true,
            });
        }
    };
    let flush_cjk = |cjk: &mut Vec<char>, out: &mut Vec<Term>| {
        match cjk.len() {
            0 => {}
            1 => out.push(Term {
                text: cjk[0].to_string(),
                word: false,
            }),
            _ => out.extend(cjk.windows(2).map(|pair| Term {
                text: pair.iter().collect(),
                word: false,
            })),
        }
        cjk.clear();
    };
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if is_cjk(c) {
            flush_word(&mut word, &mut out);
            cjk.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk, &mut out);
            word.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_cjk(&mut cjk, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_cjk(&mut cjk, &mut out);
    out
}

/// How strongly a text's term matches a query term: 1 for the same term, `PREFIX_WEIGHT` for
/// a word the query word starts, else 0.
fn match_weight(query: &Term, term: &Term) -> f64 {
    if query.text == term.text {
        1.0
    } else if query.word
        && term.word
        && query.text.chars().count() >= PREFIX_MIN_CHARS
        && term.text.starts_with(&query.text)
    {
        PREFIX_WEIGHT
    } else {
        0.0
    }
}

/// What a search reads of an entry: its text, then its rationale.
pub fn document(text: &str, rationale: Option<&str>) -> String {
    match rationale {
        Some(why) => format!("{text} {why}"),
        None => text.to_string(),
    }
}

/// At most `limit` of the texts that match `query`, best first, as `(index into texts, score)`.
pub fn top(query: &str, texts: &[String], limit: usize) -> Vec<(usize, f64)> {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut hits = rank(query, &texts);
    hits.truncate(limit);
    hits
}

/// A score as `--json` and the MCP tools give it: three decimals.
pub fn shown_score(score: f64) -> f64 {
    (score * 1000.0).round() / 1000.0
}

/// The texts that match `query`, best first, as `(index into texts, score)`.
pub fn rank(query: &str, texts: &[&str]) -> Vec<(usize, f64)> {
    let mut query_terms = terms(query);
    let mut seen = std::collections::HashSet::new();
    query_terms.retain(|t| seen.insert(t.text.clone()));
    if query_terms.is_empty() || texts.is_empty() {
        return Vec::new();
    }
    let docs: Vec<Vec<Term>> = texts.iter().map(|t| terms(t)).collect();
    let average = docs.iter().map(Vec::len).sum::<usize>() as f64 / docs.len() as f64;
    // Per query term, its weighted frequency in each text.
    let frequencies: Vec<Vec<f64>> = query_terms
        .iter()
        .map(|q| {
            docs.iter()
                .map(|doc| doc.iter().map(|t| match_weight(q, t)).sum())
                .collect()
        })
        .collect();
    let count = docs.len() as f64;
    let mut scores: HashMap<usize, f64> = HashMap::new();
    for per_doc in &frequencies {
        let df = per_doc.iter().filter(|&&f| f > 0.0).count() as f64;
        if df == 0.0 {
            continue;
        }
        let idf = (1.0 + (count - df + 0.5) / (df + 0.5)).ln();
        for (index, &tf) in per_doc.iter().enumerate() {
            if tf > 0.0 {
                let length = docs[index].len() as f64 / average.max(1.0);
                let saturated = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length));
                *scores.entry(index).or_default() += idf * saturated;
            }
        }
    }
    let mut hits: Vec<(usize, f64)> = scores.into_iter().collect();
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    hits
}

/// Whether `text` holds every term of `query` (a word also as the start of a longer one):
/// what `forget --match` takes as a candidate. A query with no term matches nothing.
pub fn matches_all(query: &str, text: &str) -> bool {
    let wanted = terms(query);
    let have = terms(text);
    !wanted.is_empty()
        && wanted
            .iter()
            .all(|q| have.iter().any(|t| match_weight(q, t) > 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        terms(text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn latin_words_and_cjk_pairs() {
        assert_eq!(words("Use PNPM, not npm!"), ["use", "pnpm", "not", "npm"]);
        assert_eq!(words("用中文回复"), ["用中", "中文", "文回", "回复"]);
        assert_eq!(words("pnpmを使う"), ["pnpm", "を使", "使う"]);
        assert_eq!(words("커밋 전에 테스트"), ["커밋", "전에", "테스", "스트"]);
        // Fullwidth letters fold to ASCII; a lone ideograph is a term.
        assert_eq!(words("ＰＮＰＭ 用"), ["pnpm", "用"]);
        assert!(words(" — … ").is_empty());
    }

    #[test]
    fn rank_prefers_rarer_and_fuller_matches() {
        let texts = [
            "Use pnpm for all packages",
            "Run the typecheck before committing",
            "Deploys go through the staging cluster first",
            "回复用户时请使用中文",
            "Use pnpm workspaces; never run npm install in a package",
        ];
        let hits = rank("pnpm install", &texts);
        assert_eq!(hits[0].0, 4, "{hits:?}");
        assert_eq!(hits[1].0, 0, "{hits:?}");
        assert_eq!(hits.len(), 2, "{hits:?}");
        // A prefix finds the longer word; CJK is found without spaces.
        assert_eq!(rank("type", &texts)[0].0, 1);
        assert_eq!(rank("使用中文", &texts)[0].0, 3);
        // Decoys: nothing shares a term.
        assert!(rank("kubernetes", &texts).is_empty());
        assert!(rank("", &texts).is_empty());
        // Two-letter words are not prefixes: "us" does not find "use".
        assert!(rank("us", &texts).is_empty());
    }

    #[test]
    fn matches_all_needs_every_term() {
        assert!(matches_all("pnpm packages", "Use pnpm for all packages"));
        assert!(matches_all("PNPM", "Use pnpm for all packages"));
        assert!(!matches_all("pnpm yarn", "Use pnpm for all packages"));
        assert!(matches_all("中文", "回复用户时请使用中文"));
        assert!(!matches_all("日文", "回复用户时请使用中文"));
        assert!(!matches_all("…", "anything"));
    }
}
