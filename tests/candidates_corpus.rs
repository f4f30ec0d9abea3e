//! The compaction gate on `tests/fixtures/candidates/<language>.jsonl`: memory-candidate lines
//! in eight languages, each with the verdict it must get (`keep` for a durable fact, `reject`
//! for session narration), written as compaction summaries carry them (the README there says
//! how). The rules were written from the `rules` split; the `holdout` split measures them on
//! lines they were not written from.

mod common;

use common::corpus;
use ocmem::domain::capture::candidates::{gate_at, model, parse_candidates, HotState, JunkOdds};
use serde::Deserialize;

const LANGUAGES: [(&str, &str); 8] = [
    ("english", include_str!("fixtures/candidates/english.jsonl")),
    ("chinese", include_str!("fixtures/candidates/chinese.jsonl")),
    (
        "japanese",
        include_str!("fixtures/candidates/japanese.jsonl"),
    ),
    ("korean", include_str!("fixtures/candidates/korean.jsonl")),
    ("spanish", include_str!("fixtures/candidates/spanish.jsonl")),
    ("german", include_str!("fixtures/candidates/german.jsonl")),
    ("french", include_str!("fixtures/candidates/french.jsonl")),
    (
        "portuguese",
        include_str!("fixtures/candidates/portuguese.jsonl"),
    ),
];

/// Share of the held-out durable facts that must be kept, and of held-out junk rejected.
const HELD_OUT_TARGET: f64 = 0.95;

#[derive(Debug, Deserialize)]
struct Case {
    id: String,
    split: String,
    expect: String,
    kind: String,
    line: String,
    source: String,
}

impl Case {
    fn keep(&self) -> bool {
        self.expect == "keep"
    }
}

fn cases(language: &str, text: &str) -> Vec<Case> {
    corpus::parse_jsonl(&format!("{language}.jsonl"), text)
}

/// The gate's verdict on the case's line under a `Memory candidates:` label: Ok, or the
/// rejection's name as `promote --json` prints it.
fn verdict(case: &Case) -> Result<(), String> {
    let (candidates, unreadable) = parse_candidates(&format!("Memory candidates:\n{}", case.line));
    assert!(unreadable.is_empty(), "{}: {unreadable:?}", case.id);
    assert_eq!(candidates.len(), 1, "{}: one candidate per line", case.id);
    // The rules alone, which this corpus pins: the model, which reads them as features, is
    // measured with its own figures (docs/capture-models.md).
    gate_at(
        JunkOdds::RULES_ALONE,
        &model::weights(),
        &candidates[0],
        HotState::default(),
    )
    .map_err(|rejection| {
        serde_json::to_value(rejection)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    })
}

fn describe(case: &Case, got: &Result<(), String>) -> String {
    let got = match got {
        Ok(()) => "kept".to_string(),
        Err(rule) => format!("rejected ({rule})"),
    };
    format!(
        "{} [{}] expected {}, {got}: {}",
        case.id, case.kind, case.expect, case.line
    )
}

#[test]
fn the_corpus_is_well_formed() {
    let mut ids = std::collections::HashSet::new();
    for (language, text) in LANGUAGES {
        let cases = cases(language, text);
        for case in &cases {
            assert!(ids.insert(case.id.clone()), "duplicate id {}", case.id);
            assert!(
                matches!(case.expect.as_str(), "keep" | "reject"),
                "{}",
                case.id
            );
            assert!(
                matches!(case.split.as_str(), "rules" | "holdout" | "blind"),
                "{}",
                case.id
            );
            assert!(!case.source.is_empty(), "{} names no source", case.id);
        }
        for split in ["rules", "holdout"] {
            for keep in [true, false] {
                let count = cases
                    .iter()
                    .filter(|c| c.split == split && c.keep() == keep)
                    .count();
                assert!(
                    count >= 5,
                    "{language}: {count} {split} cases of keep={keep}"
                );
            }
        }
    }
}

#[test]
fn every_case_the_rules_were_written_from_gets_its_verdict() {
    let cases = LANGUAGES
        .iter()
        .flat_map(|(language, text)| cases(language, text))
        .filter(|c| c.split == "rules");
    corpus::assert_every_case(cases, |case| {
        let got = verdict(case);
        (got.is_ok() != case.keep()).then(|| describe(case, &got))
    });
}

/// Scores one split per language and overall, into the counts kept (of the durable facts),
/// durable, rejected (of the junk) and junk, and prints them.
fn measure(split: &str) -> corpus::Scores {
    let groups = LANGUAGES.map(|(language, text)| {
        let mut cases = cases(language, text);
        cases.retain(|c| c.split == split);
        (language, cases)
    });
    let counts = ["kept", "durable", "rejected", "junk"];
    let scores = corpus::score(&counts, groups, |case, tally, misses| {
        let got = verdict(case);
        if case.keep() {
            tally.add("durable", 1);
            tally.add_if("kept", got.is_ok());
        } else {
            tally.add("junk", 1);
            tally.add_if("rejected", got.is_err());
        }
        if got.is_ok() != case.keep() {
            misses.push(describe(case, &got));
        }
    });
    eprintln!("{split}:");
    scores.print();
    scores
}

fn rate(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

/// Asserts the split's rates meet the targets.
fn assert_targets_met(scores: &corpus::Scores) {
    let total = &scores.total;
    let (kept, durable) = (total["kept"], total["durable"]);
    let (rejected, junk) = (total["rejected"], total["junk"]);
    let misses = scores.misses();
    assert!(
        rate(kept, durable) >= HELD_OUT_TARGET,
        "{kept}/{durable} durable facts kept:\n{}",
        misses.join("\n")
    );
    assert!(
        rate(rejected, junk) >= HELD_OUT_TARGET,
        "{rejected}/{junk} junk rejected:\n{}",
        misses.join("\n")
    );
}

#[test]
fn held_out_cases_meet_the_targets() {
    assert_targets_met(&measure("holdout"));
}

/// The newest batch, written without sight of the rules and not used to change them: its
/// rates are printed (`--nocapture`) as the honest measure, and they must meet the targets.
#[test]
fn blind_cases_meet_the_targets() {
    let scores = measure("blind");
    let (durable, junk) = (scores.total["durable"], scores.total["junk"]);
    assert!(durable > 0 && junk > 0, "no blind cases");
    assert_targets_met(&scores);
}
