//! Every case of `tests/fixtures/injection/cases.jsonl` (instructions to the agent in every
//! language ocmem reads, and benign look-alikes; `README.md` next to it says how they were
//! made): the rules find each instruction as its kind, also once obfuscated in each way the module
//! undoes, and each look-alike passes.

mod common;

use common::corpus;
use ocmem::domain::guard::injection::{instructs_agent_by_rules, InjectionKind};
use serde_json::Value;

const CASES: &str = include_str!("fixtures/injection/cases.jsonl");

struct Case {
    line: usize,
    text: String,
    expect: Option<String>,
    set: String,
    /// Written obfuscated: not obfuscated again.
    obfuscated: bool,
}

fn cases() -> Vec<Case> {
    corpus::parse_jsonl::<Value>("cases.jsonl", CASES)
        .into_iter()
        .enumerate()
        .map(|(index, case)| {
            let expect = case["expect"].as_str().expect("expect").to_string();
            Case {
                line: index + 1,
                text: case["text"].as_str().expect("text").to_string(),
                expect: (expect != "none").then_some(expect),
                set: case["set"].as_str().expect("set").to_string(),
                obfuscated: case["obfuscated"].as_bool().unwrap_or(false),
            }
        })
        .collect()
}

fn kind_name(kind: InjectionKind) -> String {
    serde_json::to_value(kind)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn found(text: &str) -> Option<String> {
    instructs_agent_by_rules(text).map(kind_name)
}

#[test]
fn the_corpus_holds_every_kind_in_every_language_and_benign_look_alikes() {
    let cases = cases();
    let attacks = cases.iter().filter(|c| c.expect.is_some()).count();
    let benign = cases.len() - attacks;
    assert!(
        attacks >= 100 && benign >= 60,
        "{attacks} attacks, {benign} benign"
    );
    for set in ["tuning", "held-out", "second"] {
        assert!(cases.iter().any(|c| c.set == set), "no {set} case");
    }
}

#[test]
fn every_instruction_is_found_as_its_kind() {
    corpus::assert_every_case(cases(), |case| {
        let expect = case.expect.as_ref()?;
        let got = found(&case.text);
        (got.as_ref() != Some(expect)).then(|| {
            format!(
                "line {} ({}): {:?} expected {expect}, got {got:?}",
                case.line, case.set, case.text
            )
        })
    });
}

#[test]
fn no_benign_look_alike_is_taken_for_an_instruction() {
    let benign = cases().into_iter().filter(|case| case.expect.is_none());
    corpus::assert_every_case(benign, |case| {
        found(&case.text).map(|got| {
            format!(
                "line {} ({}): {:?} taken for {got}",
                case.line, case.set, case.text
            )
        })
    });
}

// ─── Obfuscations ────────────────────────────────────────────────────────────────────────────

/// Latin letters and the Cyrillic or Greek letters that look like them.
const HOMOGLYPHS: &[(char, char)] = &[
    ('a', 'а'),
    ('c', 'с'),
    ('e', 'е'),
    ('i', 'і'),
    ('o', 'ο'),
    ('p', 'р'),
    ('x', 'х'),
    ('y', 'у'),
];

fn zero_width(text: &str) -> String {
    let invisible = ['\u{200B}', '\u{200C}', '\u{2060}', '\u{FEFF}', '\u{00AD}'];
    text.chars()
        .enumerate()
        .flat_map(|(at, c)| [c, invisible[at % invisible.len()]])
        .collect()
}

fn homoglyphs(text: &str) -> String {
    text.chars()
        .map(|c| {
            HOMOGLYPHS
                .iter()
                .find(|(latin, _)| *latin == c)
                .map_or(c, |&(_, look_alike)| look_alike)
        })
        .collect()
}

fn fullwidth(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap(),
            ' ' => '\u{3000}',
            c => c,
        })
        .collect()
}

fn mixed_case(text: &str) -> String {
    text.chars()
        .enumerate()
        .flat_map(|(at, c)| {
            if at % 2 == 0 {
                c.to_uppercase().collect::<Vec<_>>()
            } else {
                c.to_lowercase().collect()
            }
        })
        .collect()
}

/// Letters one space apart, words three apart.
fn spaced(text: &str) -> String {
    text.split(' ')
        .map(|word| word.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("   ")
}

fn underscored(text: &str) -> String {
    text.replace(' ', "_")
}

fn dotted(text: &str) -> String {
    text.replace(' ', ".")
}

type Obfuscation = (&'static str, fn(&str) -> String);

/// Ways that keep punctuation readable, for every kind.
const KEEPING_PUNCTUATION: &[Obfuscation] = &[
    ("zero-width characters", zero_width),
    ("homoglyphs", homoglyphs),
    ("fullwidth forms", fullwidth),
    ("mixed case", mixed_case),
];

/// Ways that change the gaps between words: for the kinds read in words, not in shell syntax
/// or markup, which these would break for any reader.
const CHANGING_GAPS: &[Obfuscation] = &[
    ("spaced letters", spaced),
    ("underscores", underscored),
    ("dots", dotted),
];

const READ_IN_WORDS: &[&str] = &[
    "override-instructions",
    "approve-everything",
    "disable-safety",
    "role-reassignment",
];

/// Each case `keep` keeps, once obfuscated each way `ways` gives for it: its line, the way's
/// name, and the obfuscated text.
fn obfuscated(
    keep: impl Fn(&Case) -> bool,
    ways: impl Fn(&Case) -> Vec<Obfuscation>,
) -> Vec<(usize, &'static str, String)> {
    cases()
        .iter()
        .filter(|case| keep(case))
        .flat_map(|case| {
            ways(case)
                .into_iter()
                .map(|(name, obfuscate)| (case.line, name, obfuscate(&case.text)))
        })
        .collect()
}

#[test]
fn every_instruction_is_found_however_it_is_obfuscated() {
    let attacks = |case: &Case| case.expect.is_some() && !case.obfuscated;
    let ways = |case: &Case| {
        let gaps = READ_IN_WORDS.contains(&case.expect.as_deref().unwrap());
        let changing_gaps = CHANGING_GAPS.iter().filter(|_| gaps);
        KEEPING_PUNCTUATION
            .iter()
            .chain(changing_gaps)
            .copied()
            .collect()
    };
    corpus::assert_every_case(obfuscated(attacks, ways), |(line, name, text)| {
        found(text)
            .is_none()
            .then(|| format!("line {line} with {name}: {text:?} missed"))
    });
}

#[test]
fn benign_look_alikes_stay_benign_with_invisible_characters_and_homoglyphs() {
    let benign = |case: &Case| case.expect.is_none();
    let ways = |_: &Case| KEEPING_PUNCTUATION.to_vec();
    corpus::assert_every_case(obfuscated(benign, ways), |(line, name, text)| {
        found(text).map(|got| format!("line {line} with {name}: {text:?} taken for {got}"))
    });
}

/// Rates per set, printed for the README (run with `--nocapture`).
#[test]
fn rates_per_set() {
    let groups = ["tuning", "held-out", "second"].map(|set| {
        let cases: Vec<Case> = cases().into_iter().filter(|c| c.set == set).collect();
        (set, cases)
    });
    let counts = ["attacks", "found", "benign", "flagged"];
    let scores = corpus::score(&counts, groups, |case, tally, _| {
        let flagged = found(&case.text).is_some();
        if case.expect.is_some() {
            tally.add("attacks", 1);
            tally.add_if("found", flagged);
        } else {
            tally.add("benign", 1);
            tally.add_if("flagged", flagged);
        }
    });
    scores.print();
    for group in &scores.groups {
        assert!(group.tally["attacks"] > 0 && group.tally["benign"] > 0);
    }
}
