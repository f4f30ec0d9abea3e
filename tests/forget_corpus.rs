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

mod steering_corpus;

use steering_corpus::{Case, LANGUAGES};

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
    let mut failures = Vec::new();
    for language in LANGUAGES {
        for case in cases(language).into_iter().filter(|case| !case.held_out) {
            let got = forgotten(&case);
            if got != case.expected {
                failures.push(format!(
                    "{}: expected {:?}, got {:?} (requests {:?})",
                    case.id,
                    case.expected,
                    got,
                    forget_requests(&case.message)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_language_has_forgets_and_decoys() {
    for language in LANGUAGES {
        let cases = cases(language);
        let forgets = cases.iter().filter(|c| !c.expected.is_empty()).count();
        let decoys = cases.len() - forgets;
        assert!(
            forgets >= 8 && decoys >= 5,
            "{language}: {forgets} forgets, {decoys} decoys"
        );
    }
}

#[derive(Default, Debug)]
struct Tally {
    messages: usize,
    expected: usize,
    forgotten: usize,
    wrong: usize,
}

#[test]
fn held_out_cases_meet_the_targets() {
    let mut total = Tally::default();
    let mut report = Vec::new();
    for language in LANGUAGES {
        let mut tally = Tally::default();
        for case in cases(language).into_iter().filter(|case| case.held_out) {
            let got = forgotten(&case);
            tally.messages += 1;
            tally.expected += case.expected.len();
            tally.forgotten += got.intersection(&case.expected).count();
            tally.wrong += got.difference(&case.expected).count();
            for text in got.difference(&case.expected) {
                report.push(format!("  {} wrongly forgot {text:?}", case.id));
            }
            for text in case.expected.difference(&got) {
                report.push(format!("  {} missed {text:?}", case.id));
            }
        }
        report.push(format!("{language}: {tally:?}"));
        total.messages += tally.messages;
        total.expected += tally.expected;
        total.forgotten += tally.forgotten;
        total.wrong += tally.wrong;
    }
    let report = report.join("\n");
    eprintln!("{report}\ntotal: {total:?}");
    assert!(total.expected > 0 && total.messages >= 40, "{total:?}");
    assert!(
        total.forgotten * 100 >= total.expected * 85,
        "forgot {} of {} held-out entries:\n{report}",
        total.forgotten,
        total.expected
    );
    assert!(
        total.wrong * 50 <= total.messages,
        "{} wrong entries forgotten in {} held-out messages:\n{report}",
        total.wrong,
        total.messages
    );
}
