//! The explicit-memory rules against realistic user messages, one corpus per language in
//! `tests/fixtures/explicit/` (see its README). Every third case of each file is held out: the
//! rules were written from the others, which must all pass exactly; the held-out cases are
//! measured against the targets (at least 95 % of memories captured, at most one wrong
//! capture in 50 messages).

use ocmem::domain::capture::explicit::capture;
use serde_json::Value;

const LANGUAGES: &[&str] = &[
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

struct Case {
    id: String,
    message: String,
    expected: Vec<(String, String)>,
    held_out: bool,
}

fn cases(language: &str) -> Vec<Case> {
    let path = format!(
        "{}/tests/fixtures/explicit/{language}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(
                case["source"].as_str().is_some_and(|s| !s.is_empty()),
                "{line}"
            );
            Case {
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
                held_out: index % 3 == 2,
            }
        })
        .collect()
}

fn captured(message: &str) -> Vec<(String, String)> {
    capture(message)
        .into_iter()
        .map(|m| (m.text, m.kind.as_str().to_owned()))
        .collect()
}

#[test]
fn every_case_the_rules_were_written_from_passes_exactly() {
    let mut failures = Vec::new();
    for language in LANGUAGES {
        for case in cases(language).into_iter().filter(|case| !case.held_out) {
            let got = captured(&case.message);
            if got != case.expected {
                failures.push(format!(
                    "{}: expected {:?}, got {:?}",
                    case.id, case.expected, got
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Default, Debug)]
struct Tally {
    messages: usize,
    expected: usize,
    captured: usize,
    wrong: usize,
    wrong_type: usize,
}

#[test]
fn held_out_cases_meet_the_targets() {
    let mut total = Tally::default();
    let mut report = Vec::new();
    for language in LANGUAGES {
        let mut tally = Tally::default();
        for case in cases(language).into_iter().filter(|case| case.held_out) {
            let got = captured(&case.message);
            tally.messages += 1;
            tally.expected += case.expected.len();
            for (text, kind) in &got {
                match case.expected.iter().find(|(expected, _)| expected == text) {
                    Some((_, expected_kind)) => {
                        tally.captured += 1;
                        if expected_kind != kind {
                            tally.wrong_type += 1;
                            report.push(format!("  {} type {kind} for {text:?}", case.id));
                        }
                    }
                    None => {
                        tally.wrong += 1;
                        report.push(format!("  {} wrong capture {text:?}", case.id));
                    }
                }
            }
            for (text, _) in &case.expected {
                if !got.iter().any(|(captured, _)| captured == text) {
                    report.push(format!("  {} missed {text:?}", case.id));
                }
            }
        }
        report.push(format!("{language}: {tally:?}"));
        total.messages += tally.messages;
        total.expected += tally.expected;
        total.captured += tally.captured;
        total.wrong += tally.wrong;
        total.wrong_type += tally.wrong_type;
    }
    let report = report.join("\n");
    eprintln!("{report}\ntotal: {total:?}");
    assert!(total.expected > 0 && total.messages >= 50, "{total:?}");
    assert!(
        total.captured * 100 >= total.expected * 95,
        "captured {} of {} held-out memories:\n{report}",
        total.captured,
        total.expected
    );
    assert!(
        total.wrong * 50 <= total.messages,
        "{} wrong captures in {} held-out messages:\n{report}",
        total.wrong,
        total.messages
    );
}
