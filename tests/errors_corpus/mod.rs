//! Runs real tool outputs (`tests/fixtures/errors/<ecosystem>/cases.jsonl`, one JSON object a
//! line; each directory's README.md says how its cases were produced) through the open-errors
//! rules, as a `bash` tool call would reach them.
//!
//! A case with an expected category is a real failure: exactly one error must be recorded, of
//! that category, whose summary holds every expected fragment (the failing test and its
//! assertion, the missing symbol, the compiler's error line). A case without one records
//! nothing, and a passing run clears what the same command recorded before.
#![allow(dead_code)]

use ocmem::domain::session::open_errors::{apply_bash, BashRun};
use ocmem::domain::session::state::OpenError;
use ocmem::domain::shell::command::Category;
use serde_json::Value;

pub struct Case {
    pub id: String,
    pub source: String,
    pub command: String,
    pub exit: i64,
    pub output: String,
    pub category: Option<Category>,
    pub summary_contains: Vec<String>,
    /// "rules" cases were read while writing the rules; "holdout" ones only measured them.
    pub split: String,
}

pub fn load(jsonl: &str) -> Vec<Case> {
    jsonl
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", index + 1));
            let text = |key: &str| value[key].as_str().unwrap_or_default().to_string();
            let expect = &value["expect"];
            let category = expect["category"].as_str().map(|name| {
                Category::parse(name).unwrap_or_else(|| panic!("line {}: {name}", index + 1))
            });
            Case {
                id: text("id"),
                source: text("source"),
                command: text("command"),
                exit: value["exit"].as_i64().expect("exit status"),
                output: text("output"),
                category,
                summary_contains: expect["summary_contains"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|fragment| fragment.as_str().unwrap().to_string())
                    .collect(),
                split: text("split"),
            }
        })
        .collect()
}

const NOW_MS: i64 = 1_790_000_000_000;

/// What the rules made of one case: None when it behaved as expected, else why not.
pub fn mismatch(case: &Case) -> Option<String> {
    let run = BashRun {
        command: &case.command,
        output: &case.output,
        exit: Some(case.exit),
    };
    match case.category {
        Some(expected) => {
            let mut errors: Vec<OpenError> = Vec::new();
            apply_bash(&mut errors, run, NOW_MS);
            let [error] = errors.as_slice() else {
                return Some(format!("{} errors recorded, expected 1", errors.len()));
            };
            let missing: Vec<&String> = case
                .summary_contains
                .iter()
                .filter(|fragment| !error.summary.contains(fragment.as_str()))
                .collect();
            if error.category != expected || !missing.is_empty() {
                return Some(format!(
                    "recorded [{}] {:?}; expected [{}] with {missing:?}",
                    error.category.as_str(),
                    error.summary,
                    expected.as_str()
                ));
            }
            None
        }
        None => {
            // An earlier failure of the same command, which this run must clear if it passed.
            let mut errors: Vec<OpenError> = Vec::new();
            let earlier = BashRun {
                command: &case.command,
                output: "error: earlier failure",
                exit: Some(1),
            };
            let seeded = apply_bash(&mut errors, earlier, NOW_MS - 1).added;
            let changes = apply_bash(&mut errors, run, NOW_MS);
            if !changes.added.is_empty() || !changes.seen_again.is_empty() {
                let summaries: Vec<&str> = errors.iter().map(|e| e.summary.as_str()).collect();
                return Some(format!("false error recorded: {summaries:?}"));
            }
            // A command that records nothing (`find … | xargs php -l`) has nothing to clear.
            if case.exit == 0 && !seeded.is_empty() && !errors.is_empty() {
                return Some(format!(
                    "a passing run left {} errors open (seeded {})",
                    errors.len(),
                    seeded.len()
                ));
            }
            None
        }
    }
}

/// Checks every case of one ecosystem's corpus and reports the rates per split on stderr
/// (`cargo test --test errors_<ecosystem> -- --nocapture`).
pub fn check(ecosystem: &str, jsonl: &str) {
    let cases = load(jsonl);
    assert_well_formed(ecosystem, &cases);
    let mut failures = Vec::new();
    for split in ["rules", "holdout"] {
        let in_split: Vec<&Case> = cases.iter().filter(|c| c.split == split).collect();
        let real = in_split.iter().filter(|c| c.category.is_some()).count();
        let mut recorded = 0;
        let mut false_errors = 0;
        for case in &in_split {
            match mismatch(case) {
                None if case.category.is_some() => recorded += 1,
                None => {}
                Some(why) => {
                    if case.category.is_none() {
                        false_errors += 1;
                    }
                    failures.push(format!("{ecosystem}/{} ({split}): {why}", case.id));
                }
            }
        }
        eprintln!(
            "{ecosystem} {split}: {recorded}/{real} failures recorded as expected, {false_errors} false errors in {} passing runs",
            in_split.len() - real
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn assert_well_formed(ecosystem: &str, cases: &[Case]) {
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(
        ids.len(),
        cases.len(),
        "{ecosystem}: case ids must be unique"
    );
    for case in cases {
        let where_from = format!("{ecosystem}/{}", case.id);
        assert!(!case.source.is_empty(), "{where_from}: no source");
        assert!(
            ["rules", "holdout"].contains(&case.split.as_str()),
            "{where_from}: split"
        );
        match case.category {
            Some(_) => {
                assert_ne!(case.exit, 0, "{where_from}: a failure exits non-zero");
                assert!(
                    !case.summary_contains.is_empty(),
                    "{where_from}: nothing expected"
                );
                for fragment in &case.summary_contains {
                    assert!(
                        case.output.contains(fragment.as_str()),
                        "{where_from}: {fragment:?} is not in the output"
                    );
                }
            }
            None => assert!(case.summary_contains.is_empty(), "{where_from}"),
        }
    }
    for split in ["rules", "holdout"] {
        for failing in [true, false] {
            assert!(
                cases
                    .iter()
                    .any(|c| c.split == split && c.category.is_some() == failing),
                "{ecosystem}: the {split} split needs failures and passes"
            );
        }
    }
}
