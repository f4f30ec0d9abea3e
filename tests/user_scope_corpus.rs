//! Which explicit memories are addressed to every project, against realistic user messages in
//! every captured language (`tests/fixtures/user-scope/`, see its README): each case must
//! capture exactly its memories, with their scope; its decoys stay with the workspace or
//! capture nothing. And no message of the explicit-memory corpus, none of which speaks of
//! other projects, is taken for user memory.

mod common;

use common::corpus;
use ocmem::domain::capture::explicit::{rule_capture, Addressee};

/// Whom a memory is for is decided by the scope phrases of the tables (`addressee.rs`), for
/// what the tables take and for what the models take alike; the models' own wrong captures
/// are measured with theirs (docs/capture-models.md).
fn capture(message: &str) -> Vec<ocmem::domain::capture::explicit::ExplicitMemory> {
    rule_capture(message).memories
}

fn scope_name(scope: Addressee) -> &'static str {
    match scope {
        Addressee::User => "user",
        Addressee::Workspace => "workspace",
    }
}

#[test]
fn every_case_captures_its_memories_with_their_scope() {
    let counts = ["cases", "user", "workspace", "decoys"];
    let cases = |language: &str| corpus::language_file("user-scope", language);
    let groups = corpus::per_language(cases, |_| true);
    let scores = corpus::score(&counts, groups, |case, tally, misses| {
        assert!(case["source"].as_str().is_some_and(|s| !s.is_empty()));
        tally.add("cases", 1);
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
                "user" => tally.add("user", 1),
                _ => tally.add("workspace", 1),
            }
        }
        tally.add_if("decoys", expected.is_empty());
        let got: Vec<(String, String)> = capture(case["message"].as_str().unwrap())
            .into_iter()
            .map(|m| (m.text, scope_name(m.scope).to_owned()))
            .collect();
        if got != expected {
            misses.push(format!(
                "{}: expected {expected:?}, got {got:?}",
                case["id"]
            ));
        }
    });
    for group in &scores.groups {
        assert!(group.tally["cases"] >= 5, "{}: too few cases", group.name);
    }
    let failures = scores.misses();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both scopes and the capture-nothing decoys are exercised.
    let total = &scores.total;
    assert!(
        total["user"] >= 30 && total["workspace"] >= 15 && total["decoys"] >= 8,
        "{total}"
    );
}

#[test]
fn no_message_of_the_explicit_corpus_is_taken_for_user_memory() {
    let cases = |language: &str| corpus::language_file("explicit", language);
    for case in corpus::in_every_language(cases, |_| true) {
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
