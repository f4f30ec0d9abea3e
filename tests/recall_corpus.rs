//! Recall requests against realistic user messages, one corpus per language in
//! `tests/fixtures/recall/` (see its README): each case is a message and whether it asks what
//! happened in an earlier session. Every case must pass, the decoys as much as the requests.

use ocmem::domain::capture::explicit::recall::asks_to_recall;
use serde_json::Value;

const LANGUAGES: &[&str] = &[
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

fn cases(language: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recall")
        .join(format!("{language}.jsonl"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn every_language_has_requests_and_decoys() {
    for language in LANGUAGES {
        let cases = cases(language);
        let requests = cases.iter().filter(|c| c["recall"] == true).count();
        let decoys = cases.len() - requests;
        assert!(requests >= 5, "{language}: {requests} requests");
        assert!(decoys >= 4, "{language}: {decoys} decoys");
    }
}

#[test]
fn every_case_is_read_as_written() {
    let mut wrong = Vec::new();
    for language in LANGUAGES {
        for case in cases(language) {
            let message = case["message"].as_str().unwrap();
            let expected = case["recall"].as_bool().unwrap();
            if asks_to_recall(message) != expected {
                wrong.push(format!("{} ({}): {message}", case["id"], case["source"]));
            }
        }
    }
    assert!(wrong.is_empty(), "misread:\n{}", wrong.join("\n"));
}
