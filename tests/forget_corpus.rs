//! Forget requests against realistic user messages, one corpus per language in
//! `tests/fixtures/forget/` (see its README): each case is a workspace memory, a message, and
//! exactly the entries the message must leave superseded. Every third case of each file is
//! held out: the rules were written from the others, which must all pass exactly; the
//! held-out cases are measured against the targets (at least 85 % of the entries asked for
//! forgotten, and no more than one wrong entry forgotten in 50 messages).

use std::collections::BTreeSet;

use ocmem::domain::capture::explicit::forget_requests;
use ocmem::domain::memory::workspace::EntryStatus;
use ocmem::domain::steer::supersede::apply_forgets;

mod common;

use common::corpus;
use common::steering_corpus::{self, Case};

fn cases(language: &str) -> Vec<Case> {
    steering_corpus::cases("forget", language, "forgotten")
}

/// The texts of the entries the message leaves superseded.
fn forgotten(case: &Case) -> BTreeSet<String> {
    let mut memory = case.memory.clone();
    apply_forgets(&mut memory, &forget_requests(&case.message), 1_000);
    memory
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Superseded)
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn every_case_the_rules_were_written_from_passes_exactly() {
    let cases = corpus::in_every_language(cases, |case| !case.held_out);
    corpus::assert_every_case(cases, |case| {
        let got = forgotten(case);
        (got != case.expected).then(|| {
            format!(
                "{}: expected {:?}, got {:?} (requests {:?})",
                case.id,
                case.expected,
                got,
                forget_requests(&case.message)
            )
        })
    });
}

#[test]
fn every_language_has_forgets_and_decoys() {
    for (language, forgets, decoys) in
        corpus::expecting_and_decoys(cases, |c| !c.expected.is_empty())
    {
        assert!(
            forgets >= 8 && decoys >= 5,
            "{language}: {forgets} forgets, {decoys} decoys"
        );
    }
}

#[test]
fn held_out_cases_meet_the_targets() {
    let scores =
        steering_corpus::score_held_out("forget", "forgotten", ("forgotten", "forgot"), |case| {
            Some(forgotten(case))
        });
    scores.print();
    let (total, report) = (&scores.total, scores.report());
    assert!(total["expected"] > 0 && total["messages"] >= 40, "{total}");
    assert!(
        total["forgotten"] * 100 >= total["expected"] * 85,
        "forgot {} of {} held-out entries:\n{report}",
        total["forgotten"],
        total["expected"]
    );
    assert!(
        total["wrong"] * 50 <= total["messages"],
        "{} wrong entries forgotten in {} held-out messages:\n{report}",
        total["wrong"],
        total["messages"]
    );
}
