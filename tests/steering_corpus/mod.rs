//! The cases of the corpora of steering memory from the conversation (`tests/fixtures/forget/`
//! and `tests/fixtures/supersede/`): each line a workspace memory, a message, and exactly the
//! entries the message must leave superseded, under `expected_field`. Every third case of each
//! file is held out.

use std::collections::BTreeSet;

use ocmem::domain::memory::kind::MemoryType;
use ocmem::domain::memory::workspace::{merge, NewMemory, Source, WorkspaceMemory};
use serde_json::Value;

/// The languages each corpus has a file for.
pub const LANGUAGES: &[&str] = &[
    "en", "zh-hans", "zh-hant", "ja", "ko", "es", "de", "fr", "pt",
];

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
    let path = format!(
        "{}/tests/fixtures/{corpus}/{language}.jsonl",
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
                held_out: index % 3 == 2,
            }
        })
        .collect()
}
