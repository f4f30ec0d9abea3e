//! The cases of the corpora of steering memory from the conversation (`tests/fixtures/forget/`
//! and `tests/fixtures/supersede/`): each line a workspace memory, a message, and exactly the
//! entries the message must leave superseded, under `expected_field`. Every third case of each
//! file is held out.

use std::collections::BTreeSet;

use ocmem::domain::memory::kind::MemoryType;
use ocmem::domain::memory::workspace::{merge, NewMemory, Source, WorkspaceMemory};

use super::corpus;

pub struct Case {
    pub id: String,
    pub memory: WorkspaceMemory,
    pub message: String,
    pub expected: BTreeSet<String>,
    pub held_out: bool,
}

pub fn kind(name: &str) -> MemoryType {
    MemoryType::ALL
        .into_iter()
        .find(|t| t.as_str() == name)
        .unwrap_or_else(|| panic!("type {name}"))
}

/// A memory the user asked for, as capture files it.
pub fn explicit(kind: MemoryType, text: &str) -> NewMemory {
    NewMemory {
        kind,
        text: text.to_owned(),
        rationale: None,
        source: Source::Explicit,
        confidence: 1.0,
    }
}

/// The cases of `tests/fixtures/<corpus>/<language>.jsonl`.
pub fn cases(corpus: &str, language: &str, expected_field: &str) -> Vec<Case> {
    corpus::held_out_split(corpus, language)
        .into_iter()
        .map(|(case, held_out)| {
            let mut memory = WorkspaceMemory::new("/repo", "key");
            for (n, entry) in case["memory"].as_array().unwrap().iter().enumerate() {
                let new = explicit(
                    kind(entry["type"].as_str().unwrap()),
                    entry["text"].as_str().unwrap(),
                );
                merge(&mut memory, new, n as i64);
            }
            Case {
                id: case["id"].as_str().unwrap().to_owned(),
                memory,
                message: case["message"].as_str().unwrap().to_owned(),
                expected: case[expected_field]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_owned())
                    .collect(),
                held_out,
            }
        })
        .collect()
}

/// Scores the held-out cases of `corpus` per language by the entries `superseded` leaves
/// superseded (`None` when the message captured nothing), into the counts `messages`,
/// `not_captured`, `expected`, `done` (those of the expected entries it superseded) and
/// `wrong`; `verb` says what it did to a wrong entry.
pub fn score_held_out(
    corpus: &str,
    expected_field: &str,
    (done, verb): (&'static str, &str),
    superseded: impl Fn(&Case) -> Option<BTreeSet<String>>,
) -> corpus::Scores {
    let counts = ["messages", "not_captured", "expected", done, "wrong"];
    let cases = |language: &str| cases(corpus, language, expected_field);
    let groups = corpus::per_language(cases, |case| case.held_out);
    corpus::score(&counts, groups, |case, tally, misses| {
        tally.add("messages", 1);
        tally.add("expected", case.expected.len());
        let Some(got) = superseded(case) else {
            tally.add("not_captured", 1);
            misses.push(format!("  {} captured nothing", case.id));
            return;
        };
        tally.add(done, got.intersection(&case.expected).count());
        tally.add("wrong", got.difference(&case.expected).count());
        for text in got.difference(&case.expected) {
            misses.push(format!("  {} wrongly {verb} {text:?}", case.id));
        }
        for text in case.expected.difference(&got) {
            misses.push(format!("  {} missed {text:?}", case.id));
        }
    })
}
