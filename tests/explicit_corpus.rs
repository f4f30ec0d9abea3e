//! The explicit-memory rules (the phrase tables alone) against realistic user messages, one
//! corpus per language in `tests/fixtures/explicit/` (see its README). Every third case of each
//! file is held out: the rules were written from the others, which must all pass exactly; the
//! held-out cases are measured against the targets (at least 95 % of memories captured, at
//! most one wrong capture in 50 messages). Capture itself (the tables' memories, and what the
//! models take from the sentences the tables took nothing from) is measured on the same cases
//! against a floor.

mod common;

use common::corpus;
use ocmem::domain::capture::explicit::{capture, rule_capture};

struct Case {
    id: String,
    message: String,
    expected: Vec<(String, String)>,
    held_out: bool,
}

fn cases(language: &str) -> Vec<Case> {
    corpus::held_out_split("explicit", language)
        .into_iter()
        .map(|(case, held_out)| Case {
            id: case["id"].as_str().unwrap().to_owned(),
            message: case["message"].as_str().unwrap().to_owned(),
            expected: case["memories"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["text"].as_str().unwrap().to_owned(),
                        m["type"].as_str().unwrap().to_owned(),
                    )
                })
                .collect(),
            held_out,
        })
        .collect()
}

/// What the phrase tables alone take from `message`.
fn captured(message: &str) -> Vec<(String, String)> {
    rule_capture(message)
        .memories
        .into_iter()
        .map(|m| (m.text, m.kind.as_str().to_owned()))
        .collect()
}

/// What capture keeps from `message`.
fn kept(message: &str) -> Vec<(String, String)> {
    capture(message)
        .into_iter()
        .map(|m| (m.text, m.kind.as_str().to_owned()))
        .collect()
}

/// Capture on every case of the tables' corpus, held out or not: the cases it gets exactly
/// right (text and type), and the ones it does not. The models judge the tables' sentences
/// too, so they may cost a case: a type ("ポート番号は8080だ" as feedback), a habit asked as a
/// one-off is ("never forget to run the migrations in a transaction", left and told to the
/// agent), a trigger kept in the text. The floor is below what the shipped models get (226 of 240),
/// and the misses are printed.
#[test]
fn capture_keeps_the_tables_forms_above_a_floor() {
    let cases = corpus::in_every_language(cases, |_| true);
    let mut misses = Vec::new();
    let total = cases.len();
    for case in &cases {
        let got = kept(&case.message);
        if got != case.expected {
            misses.push(format!(
                "{}: expected {:?}, got {:?}",
                case.id, case.expected, got
            ));
        }
    }
    println!(
        "{} of {total} cases exactly right:\n{}",
        total - misses.len(),
        misses.join("\n")
    );
    assert!(total >= 200, "{total}");
    assert!(
        (total - misses.len()) * 100 >= total * 93,
        "{} of {total} cases exactly right:\n{}",
        total - misses.len(),
        misses.join("\n")
    );
}

#[test]
fn every_case_the_rules_were_written_from_passes_exactly() {
    let cases = corpus::in_every_language(cases, |case| !case.held_out);
    corpus::assert_every_case(cases, |case| {
        let got = captured(&case.message);
        (got != case.expected)
            .then(|| format!("{}: expected {:?}, got {:?}", case.id, case.expected, got))
    });
}

#[test]
fn held_out_cases_meet_the_targets() {
    let counts = ["messages", "expected", "captured", "wrong", "wrong_type"];
    let scores = corpus::score(
        &counts,
        corpus::per_language(cases, |case| case.held_out),
        |case, tally, misses| {
            let got = captured(&case.message);
            tally.add("messages", 1);
            tally.add("expected", case.expected.len());
            for (text, kind) in &got {
                match case.expected.iter().find(|(expected, _)| expected == text) {
                    Some((_, expected_kind)) => {
                        tally.add("captured", 1);
                        if expected_kind != kind {
                            tally.add("wrong_type", 1);
                            misses.push(format!("  {} type {kind} for {text:?}", case.id));
                        }
                    }
                    None => {
                        tally.add("wrong", 1);
                        misses.push(format!("  {} wrong capture {text:?}", case.id));
                    }
                }
            }
            for (text, _) in &case.expected {
                if !got.iter().any(|(captured, _)| captured == text) {
                    misses.push(format!("  {} missed {text:?}", case.id));
                }
            }
        },
    );
    scores.print();
    let (total, report) = (&scores.total, scores.report());
    assert!(total["expected"] > 0 && total["messages"] >= 50, "{total}");
    assert!(
        total["captured"] * 100 >= total["expected"] * 95,
        "captured {} of {} held-out memories:\n{report}",
        total["captured"],
        total["expected"]
    );
    assert!(
        total["wrong"] * 50 <= total["messages"],
        "{} wrong captures in {} held-out messages:\n{report}",
        total["wrong"],
        total["messages"]
    );
}
