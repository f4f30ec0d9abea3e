//! Which explicit memories are addressed to every project, against realistic user messages in
//! every captured language (`tests/fixtures/user-scope/`, see its README): each case must
//! capture exactly its memories, with their scope; its decoys stay with the workspace or
//! capture nothing. And no message of the explicit-memory corpus, none of which speaks of
//! other projects, is taken for user memory.

use ocmem::domain::capture::explicit::{capture, Addressee};
use serde_json::Value;

const LANGUAGES: &[&str] = &[
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

fn lines(dir: &str, language: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/fixtures/{dir}/{language}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

fn scope_name(scope: Addressee) -> &'static str {
    match scope {
        Addressee::User => "user",
        Addressee::Workspace => "workspace",
    }
}

#[test]
fn every_case_captures_its_memories_with_their_scope() {
    let mut failures = Vec::new();
    let mut counts = (0, 0, 0);
    for language in LANGUAGES {
        let cases = lines("user-scope", language);
        assert!(cases.len() >= 5, "{language}: too few cases");
        for case in cases {
            assert!(case["source"].as_str().is_some_and(|s| !s.is_empty()));
            let expected: Vec<(String, String)> = case["memories"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["text"].as_str().unwrap().to_owned(),
                        m["scope"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            for (_, scope) in &expected {
                match scope.as_str() {
                    "user" => counts.0 += 1,
                    _ => counts.1 += 1,
                }
            }
            if expected.is_empty() {
                counts.2 += 1;
            }
            let got: Vec<(String, String)> = capture(case["message"].as_str().unwrap())
                .into_iter()
                .map(|m| (m.text, scope_name(m.scope).to_owned()))
                .collect();
            if got != expected {
                failures.push(format!(
                    "{}: expected {expected:?}, got {got:?}",
                    case["id"]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both scopes and the capture-nothing decoys are exercised.
    assert!(
        counts.0 >= 30 && counts.1 >= 15 && counts.2 >= 8,
        "{counts:?}"
    );
}

#[test]
fn no_message_of_the_explicit_corpus_is_taken_for_user_memory() {
    for language in LANGUAGES {
        for case in lines("explicit", language) {
            for memory in capture(case["message"].as_str().unwrap()) {
                assert_eq!(
                    memory.scope,
                    Addressee::Workspace,
                    "{}: {memory:?}",
                    case["id"]
                );
            }
        }
    }
}
