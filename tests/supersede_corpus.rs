//! New explicit memories that update or contradict earlier ones, against realistic user
//! messages, one corpus per language in `tests/fixtures/supersede/` (see its README): each case
//! is a workspace memory, a message asking to remember something, and exactly the entries the
//! new memory must leave superseded. Every third case of each file is held out: the rules were
//! written from the others, which must all pass exactly; the held-out cases are measured
//! against the targets (at least 80 % of the updated entries superseded, and no more than one
//! wrong entry superseded in 50 messages).

use std::collections::BTreeSet;

use ocmem::domain::capture::explicit::capture;
use ocmem::domain::memory::workspace::{merge, EntryStatus, Merged};
use ocmem::domain::steer::supersede::{replace, updated_by};

mod steering_corpus;

use steering_corpus::{explicit, Case, LANGUAGES};

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
    let mut failures = Vec::new();
    for language in LANGUAGES {
        for case in cases(language).into_iter().filter(|case| !case.held_out) {
            let got = superseded(&case);
            if got.as_ref() != Some(&case.expected) {
                failures.push(format!(
                    "{}: expected {:?}, got {:?} (captured {:?})",
                    case.id,
                    case.expected,
                    got,
                    capture(&case.message)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_language_has_updates_and_decoys() {
    for language in LANGUAGES {
        let cases = cases(language);
        let updates = cases.iter().filter(|c| !c.expected.is_empty()).count();
        let decoys = cases.len() - updates;
        assert!(
            updates >= 5 && decoys >= 4,
            "{language}: {updates} updates, {decoys} decoys"
        );
    }
}

#[derive(Default, Debug)]
struct Tally {
    messages: usize,
    not_captured: usize,
    expected: usize,
    superseded: usize,
    wrong: usize,
}

#[test]
fn held_out_cases_meet_the_targets() {
    let mut total = Tally::default();
    let mut report = Vec::new();
    for language in LANGUAGES {
        let mut tally = Tally::default();
        for case in cases(language).into_iter().filter(|case| case.held_out) {
            tally.messages += 1;
            tally.expected += case.expected.len();
            let Some(got) = superseded(&case) else {
                tally.not_captured += 1;
                report.push(format!("  {} captured nothing", case.id));
                continue;
            };
            tally.superseded += got.intersection(&case.expected).count();
            tally.wrong += got.difference(&case.expected).count();
            for text in got.difference(&case.expected) {
                report.push(format!("  {} wrongly superseded {text:?}", case.id));
            }
            for text in case.expected.difference(&got) {
                report.push(format!("  {} missed {text:?}", case.id));
            }
        }
        report.push(format!("{language}: {tally:?}"));
        total.messages += tally.messages;
        total.not_captured += tally.not_captured;
        total.expected += tally.expected;
        total.superseded += tally.superseded;
        total.wrong += tally.wrong;
    }
    let report = report.join("\n");
    eprintln!("{report}\ntotal: {total:?}");
    assert!(total.expected > 0 && total.messages >= 25, "{total:?}");
    assert!(
        total.superseded * 100 >= total.expected * 80,
        "superseded {} of {} held-out entries:\n{report}",
        total.superseded,
        total.expected
    );
    assert!(
        total.wrong * 50 <= total.messages,
        "{} wrong entries superseded in {} held-out messages:\n{report}",
        total.wrong,
        total.messages
    );
}
