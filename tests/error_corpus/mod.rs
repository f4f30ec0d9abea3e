//! Replays a corpus of real command runs (`tests/fixtures/errors/<ecosystem>/cases.jsonl`,
//! made by the `produce.sh` next to it) through `apply_bash` and scores it: each failure must
//! be recorded once, under its category, with a summary naming what failed; each passing run
//! and query must record nothing.
//!
//! Rows marked `rules` are the ones the rules were written from: every one must pass. Rows
//! marked `held-out` measure the rules on runs they were not written from: at least 95 % of
//! their failures must be recorded, and no passing run or query may record a false error.

use ocmem::domain::session::open_errors::{apply_bash, BashRun};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Case {
    pub id: String,
    pub split: String,
    pub tool: String,
    pub command: String,
    pub exit: i64,
    pub output: String,
    /// A category name, or "nothing".
    pub expect: String,
    pub summary_has: Vec<String>,
}

pub fn cases(corpus: &str) -> Vec<Case> {
    corpus
        .lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(index, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("row {}: {e}", index + 1))
        })
        .collect()
}

/// What one case recorded, or why it is wrong.
fn verdict(case: &Case) -> Result<(), String> {
    let mut errors = Vec::new();
    apply_bash(
        &mut errors,
        BashRun {
            command: &case.command,
            output: &case.output,
            exit: Some(case.exit),
        },
        0,
    );
    let recorded: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}", e.category.as_str(), e.summary))
        .collect();
    if case.expect == "nothing" {
        return match recorded.as_slice() {
            [] => Ok(()),
            _ => Err(format!("false error {recorded:?}")),
        };
    }
    let [error] = errors.as_slice() else {
        return Err(format!(
            "expected one {} error, got {recorded:?}",
            case.expect
        ));
    };
    let missing: Vec<&String> = case
        .summary_has
        .iter()
        .filter(|needle| !error.summary.contains(needle.as_str()))
        .collect();
    if error.category.as_str() != case.expect || !missing.is_empty() {
        return Err(format!(
            "expected {} naming {missing:?}, got {recorded:?}",
            case.expect
        ));
    }
    Ok(())
}

/// Checks the corpus and returns its held-out score line.
pub fn check(ecosystem: &str, corpus: &str) -> String {
    let cases = cases(corpus);
    assert!(
        cases
            .iter()
            .all(|c| ["rules", "held-out"].contains(&c.split.as_str())),
        "{ecosystem}: unknown split"
    );
    let mut rule_failures = Vec::new();
    let (mut failures, mut recorded, mut quiet, mut false_errors) = (0, 0, 0, 0);
    let mut held_out_misses = Vec::new();
    for case in &cases {
        let outcome = verdict(case);
        let describe = |why: &String| {
            format!(
                "{ecosystem}/{} ({}, `{}`, exit {}): {why}",
                case.id, case.tool, case.command, case.exit
            )
        };
        if case.split == "rules" {
            if let Err(why) = &outcome {
                rule_failures.push(describe(why));
            }
            continue;
        }
        if case.expect == "nothing" {
            quiet += 1;
            if outcome.is_err() {
                false_errors += 1;
            }
        } else {
            failures += 1;
            if outcome.is_ok() {
                recorded += 1;
            }
        }
        if let Err(why) = &outcome {
            held_out_misses.push(describe(why));
        }
    }
    let score = format!(
        "{ecosystem}: held-out failures recorded {recorded}/{failures}, false errors {false_errors}/{quiet}"
    );
    assert!(
        rule_failures.is_empty() && false_errors == 0 && recorded * 100 >= failures * 95,
        "{score}\nrules rows failing:\n{}\nheld-out rows failing:\n{}",
        rule_failures.join("\n"),
        held_out_misses.join("\n")
    );
    score
}
