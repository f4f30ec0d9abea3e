//! New explicit memories that update or contradict earlier ones, against realistic user
//! messages, one corpus per language in `tests/fixtures/supersede/` (see its README): each case
//! is a workspace memory, a message asking to remember something, and exactly the entries the
//! new memory must leave superseded. Every third case of each file is held out: the rules were
//! written from the others, which must all pass exactly; the held-out cases are measured
//! against the targets (at least 80 % of the updated entries superseded, and no more than one
//! wrong entry superseded in 50 messages).
//!
//! The rules are measured on the texts the phrase tables take, the texts they were written
//! from: what the capture models choose instead is measured by the capture corpora and the
//! blind batch (docs/capture-models.md).

use std::collections::BTreeSet;

use ocmem::domain::capture::explicit::{rule_capture, ExplicitMemory};

/// The memories the phrase tables take from `message`.
fn capture(message: &str) -> Vec<ExplicitMemory> {
    rule_capture(message).memories
}
use ocmem::domain::memory::workspace::{merge, EntryStatus, Merged};
use ocmem::domain::steer::supersede::{replace, updated_by};

mod common;

use common::corpus;
use common::steering_corpus::{self, explicit, Case};

fn cases(language: &str) -> Vec<Case> {
    steering_corpus::cases("supersede", language, "superseded")
}

/// The texts of the entries the message's memories leave superseded, filed as `render` files
/// them; `None` when the message captures nothing (every case must capture).
fn superseded(case: &Case) -> Option<BTreeSet<String>> {
    let captured = capture(&case.message);
    if captured.is_empty() {
        return None;
    }
    let mut memory = case.memory.clone();
    for (n, new) in captured.iter().enumerate() {
        let olds = updated_by(&memory, new.kind, &new.text);
        let now = 1_000 + n as i64;
        if let Merged::Added { id } = merge(&mut memory, explicit(new.kind, &new.text), now) {
            replace(&mut memory, &olds, &id, now);
        }
    }
    Some(
        memory
            .entries
            .iter()
            .filter(|e| e.status == EntryStatus::Superseded)
            .map(|e| e.text.clone())
            .collect(),
    )
}

#[test]
fn every_case_the_rules_were_written_from_passes_exactly() {
    let cases = corpus::in_every_language(cases, |case| !case.held_out);
    corpus::assert_every_case(cases, |case| {
        let got = superseded(case);
        (got.as_ref() != Some(&case.expected)).then(|| {
            format!(
                "{}: expected {:?}, got {:?} (captured {:?})",
                case.id,
                case.expected,
                got,
                capture(&case.message)
            )
        })
    });
}

#[test]
fn every_language_has_updates_and_decoys() {
    for (language, updates, decoys) in
        corpus::expecting_and_decoys(cases, |c| !c.expected.is_empty())
    {
        assert!(
            updates >= 5 && decoys >= 4,
            "{language}: {updates} updates, {decoys} decoys"
        );
    }
}

#[test]
fn held_out_cases_meet_the_targets() {
    let scores = steering_corpus::score_held_out(
        "supersede",
        "superseded",
        ("superseded", "superseded"),
        superseded,
    );
    scores.print();
    let (total, report) = (&scores.total, scores.report());
    assert!(total["expected"] > 0 && total["messages"] >= 25, "{total}");
    assert!(
        total["superseded"] * 100 >= total["expected"] * 80,
        "superseded {} of {} held-out entries:\n{report}",
        total["superseded"],
        total["expected"]
    );
    assert!(
        total["wrong"] * 50 <= total["messages"],
        "{} wrong entries superseded in {} held-out messages:\n{report}",
        total["wrong"],
        total["messages"]
    );
}
