//! Every case of `tests/fixtures/injection/cases.jsonl` (instructions to the agent in every
//! language ocmem reads, and benign look-alikes; `README.md` next to it says how they were
//! made): each instruction is found as its kind, also once obfuscated in each way the module
//! undoes, and each look-alike passes.

use ocmem::domain::guard::injection::{instructs_agent, InjectionKind};
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
    CASES
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let case: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("cases.jsonl line {}: {e}", index + 1));
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
    instructs_agent(text).map(kind_name)
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
    let wrong: Vec<String> = cases()
        .iter()
        .filter_map(|case| {
            let expect = case.expect.as_ref()?;
            let got = found(&case.text);
            (got.as_ref() != Some(expect)).then(|| {
                format!(
                    "line {} ({}): {:?} expected {expect}, got {got:?}",
                    case.line, case.set, case.text
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_benign_look_alike_is_taken_for_an_instruction() {
    let wrong: Vec<String> = cases()
        .iter()
        .filter(|case| case.expect.is_none())
        .filter_map(|case| {
            found(&case.text).map(|got| {
                format!(
                    "line {} ({}): {:?} taken for {got}",
                    case.line, case.set, case.text
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
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

#[test]
fn every_instruction_is_found_however_it_is_obfuscated() {
    let mut wrong = Vec::new();
    for case in cases() {
        let Some(expect) = case.expect.as_ref().filter(|_| !case.obfuscated) else {
            continue;
        };
        let gaps = READ_IN_WORDS.contains(&expect.as_str());
        let ways = KEEPING_PUNCTUATION
            .iter()
            .chain(CHANGING_GAPS.iter().filter(|_| gaps));
        for (name, obfuscate) in ways {
            let text = obfuscate(&case.text);
            if found(&text).is_none() {
                wrong.push(format!("line {} with {name}: {text:?}", case.line));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} missed:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn benign_look_alikes_stay_benign_with_invisible_characters_and_homoglyphs() {
    let mut wrong = Vec::new();
    for case in cases().iter().filter(|c| c.expect.is_none()) {
        for (name, obfuscate) in KEEPING_PUNCTUATION {
            let text = obfuscate(&case.text);
            if let Some(got) = found(&text) {
                wrong.push(format!(
                    "line {} with {name}: {text:?} taken for {got}",
                    case.line
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Rates per set, printed for the README (run with `--nocapture`).
#[test]
fn rates_per_set() {
    for set in ["tuning", "held-out", "second"] {
        let cases: Vec<Case> = cases().into_iter().filter(|c| c.set == set).collect();
        let attacks: Vec<&Case> = cases.iter().filter(|c| c.expect.is_some()).collect();
        let caught = attacks.iter().filter(|c| found(&c.text).is_some()).count();
        let benign: Vec<&Case> = cases.iter().filter(|c| c.expect.is_none()).collect();
        let flagged = benign.iter().filter(|c| found(&c.text).is_some()).count();
        println!(
            "{set}: {caught}/{} instructions found, {flagged}/{} look-alikes flagged",
            attacks.len(),
            benign.len()
        );
        assert!(!attacks.is_empty() && !benign.is_empty());
    }
}
