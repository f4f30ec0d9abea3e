//! Applying forget requests and updates to a workspace memory, and the one hot-state line that
//! tells the agent what was forgotten.

use super::{match_forget, supersede, ForgetMatch};
use crate::domain::capture::explicit::ForgetRequest;
use crate::domain::guard::injection::instructs_agent;
use crate::domain::memory::workspace::{clean_text, mark_capped, MemoryEntry, WorkspaceMemory};
use crate::domain::steer::edit::Why;
use serde_json::Value;

/// How much of the asking sentence is kept as the reason, and of each text in the note.
const REASON_CHARS: usize = 160;
const NOTE_TEXT_CHARS: usize = 80;

/// The reason recorded on an entry a newer explicit memory replaced.
pub const UPDATED_REASON: &str = "replaced by a newer explicit memory";

/// What one forget request did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForgetOutcome {
    /// These entries (ids, texts) are now superseded.
    Forgotten(Vec<(String, String)>),
    /// Nothing matched the subject well enough; nothing changed.
    Weak { subject: String },
    /// Several entries matched the subject alike; nothing changed.
    Ambiguous { subject: String, texts: Vec<String> },
}

/// Applies `requests` in order: each supersedes the entries it means (see `match_forget`),
/// recording the sentence that asked. Returns what each did.
pub fn apply_forgets(
    memory: &mut WorkspaceMemory,
    requests: &[ForgetRequest],
    now_ms: i64,
) -> Vec<ForgetOutcome> {
    let outcomes: Vec<ForgetOutcome> = requests
        .iter()
        .map(|request| match match_forget(memory, &request.subject) {
            ForgetMatch::Entries(at) => {
                let reason = forget_reason(&request.sentence);
                ForgetOutcome::Forgotten(
                    at.into_iter()
                        .map(|i| {
                            let entry = &mut memory.entries[i];
                            supersede(entry, Why::Asked, &reason, None, now_ms);
                            (entry.id.clone(), entry.text.clone())
                        })
                        .collect(),
                )
            }
            ForgetMatch::Weak => ForgetOutcome::Weak {
                subject: request.subject.clone(),
            },
            ForgetMatch::Ambiguous(at) => ForgetOutcome::Ambiguous {
                subject: request.subject.clone(),
                texts: at.iter().map(|&i| memory.entries[i].text.clone()).collect(),
            },
        })
        .collect();
    if outcomes
        .iter()
        .any(|o| matches!(o, ForgetOutcome::Forgotten(_)))
    {
        mark_capped(memory);
    }
    outcomes
}

/// "forgotten on request: <sentence>", the sentence scrubbed and cut; without it when it
/// reads as an instruction to the agent (it is stored, so it passes the same guard as text).
fn forget_reason(sentence: &str) -> String {
    let said = clean_text(sentence, REASON_CHARS);
    if said.is_empty() || instructs_agent(&said).is_some() {
        "forgotten on request".to_owned()
    } else {
        format!("forgotten on request: {said}")
    }
}

/// Supersedes the entries at `olds` (found by `updated_by` before merging the new memory)
/// by the new entry `new_id`, which records the first of
/// them in `supersedes` (unless it already names one). Returns the replaced entries.
pub fn replace(
    memory: &mut WorkspaceMemory,
    olds: &[usize],
    new_id: &str,
    now_ms: i64,
) -> Vec<MemoryEntry> {
    let mut replaced = Vec::new();
    for &at in olds {
        let entry = &mut memory.entries[at];
        supersede(entry, Why::Updated, UPDATED_REASON, Some(new_id), now_ms);
        replaced.push(entry.clone());
    }
    if let (Some(first), Some(new)) = (
        replaced.first(),
        memory.entries.iter_mut().find(|e| e.id == new_id),
    ) {
        if new.supersedes.is_none() {
            new.supersedes = Some(Value::String(first.id.clone()));
        }
    }
    if !replaced.is_empty() {
        mark_capped(memory);
    }
    replaced
}

/// The one hot-state line about a message's forget requests, or `None` when it made none.
/// It says what was forgotten; when nothing was, why, so that the agent can ask the user
/// which entry they meant (the workspace block shown in this session still lists the
/// forgotten entries: it is frozen until the next session).
pub fn forget_note(outcomes: &[ForgetOutcome]) -> Option<String> {
    let forgotten: Vec<String> = outcomes
        .iter()
        .flat_map(|o| match o {
            ForgetOutcome::Forgotten(entries) => entries.iter().map(|(_, t)| quoted(t)).collect(),
            _ => Vec::new(),
        })
        .collect();
    let unmatched: Vec<String> = outcomes
        .iter()
        .filter_map(|o| match o {
            ForgetOutcome::Weak { subject } => Some(format!(
                "nothing in memory matches {} closely",
                quoted(subject)
            )),
            ForgetOutcome::Ambiguous { subject, texts } => Some(format!(
                "{} matches {} entries alike ({})",
                quoted(subject),
                texts.len(),
                texts
                    .iter()
                    .take(3)
                    .map(|t| quoted(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            ForgetOutcome::Forgotten(_) => None,
        })
        .collect();
    match (forgotten.is_empty(), unmatched.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!(
            "[forgotten] {}: no longer true, do not rely on it",
            forgotten.join(", ")
        )),
        (false, false) => Some(format!(
            "[forgotten] {}: no longer true, do not rely on it; not forgotten: {}: ask the user \
             which entry they mean",
            forgotten.join(", "),
            unmatched.join("; ")
        )),
        (true, false) => Some(format!(
            "[not forgotten] {}: ask the user which entry they mean",
            unmatched.join("; ")
        )),
    }
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", clean_text(text, NOTE_TEXT_CHARS))
}
