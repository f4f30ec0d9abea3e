//! A session's digest: what a session did, kept after its hot state is gone, so that the next
//! session (or a colleague) can pick up from it. Built from the hot state when the session
//! ends, is compacted or goes idle, and from the user's requests as they arrive.

pub mod handoff;
pub mod recollection;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::guard::injection::instructs_agent_by_rules;
use crate::domain::guard::structure::neutralise;
use crate::domain::session::state::{ErrorStatus, FileAction, SessionState};

/// The newest digest format this build understands.
pub const DIGEST_VERSION: u64 = 1;
/// Characters kept of one request, summary or step.
pub const LINE_CHARS: usize = 200;
/// Items kept in each list.
pub const LIST_KEPT: usize = 12;
/// Next steps taken from a compaction summary.
pub const NEXT_STEPS_KEPT: usize = 5;

/// Why a digest was last brought up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The host said the session ended.
    End,
    /// The host compacted the conversation.
    Compaction,
    /// The session went idle: its turn ended and no request followed (yet).
    Idle,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionDigest {
    #[serde(default = "digest_version")]
    pub version: u64,
    #[serde(rename = "sessionID", default)]
    pub session_id: String,
    #[serde(default)]
    pub host: String,
    #[serde(default)]
    pub started_at: String,
    #[serde(default)]
    pub ended_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<Ending>,
    #[serde(default)]
    pub first_request: String,
    #[serde(default)]
    pub latest_request: String,
    #[serde(default)]
    pub requests: u64,
    #[serde(default)]
    pub files_edited: Vec<String>,
    #[serde(default)]
    pub open_errors: Vec<String>,
    #[serde(default)]
    pub fixed_errors: Vec<String>,
    #[serde(default)]
    pub decisions: Vec<String>,
    #[serde(default)]
    pub memories: Vec<String>,
    #[serde(default)]
    pub next_steps: Vec<String>,
    #[serde(default)]
    pub validations: Vec<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn digest_version() -> u64 {
    DIGEST_VERSION
}

impl SessionDigest {
    pub fn new(session_id: &str, host: &str, now_ms: i64) -> Self {
        SessionDigest {
            version: DIGEST_VERSION,
            session_id: session_id.to_string(),
            host: host.to_string(),
            started_at: format_rfc3339_ms(now_ms),
            ended_at: String::new(),
            ended_by: None,
            first_request: String::new(),
            latest_request: String::new(),
            requests: 0,
            files_edited: Vec::new(),
            open_errors: Vec::new(),
            fixed_errors: Vec::new(),
            decisions: Vec::new(),
            memories: Vec::new(),
            next_steps: Vec::new(),
            validations: Vec::new(),
            extra: Map::new(),
        }
    }

    /// Notes a user request: the first one is kept, the latest replaces the one before.
    pub fn note_request(&mut self, text: &str, now_ms: i64) {
        let line = request_line(text);
        // A host may render once per model call: the same request is noted once.
        if line.is_empty() || line == self.latest_request {
            return;
        }
        if self.first_request.is_empty() {
            self.first_request = line.clone();
        }
        self.latest_request = line;
        self.requests += 1;
        self.ended_at = format_rfc3339_ms(now_ms);
    }

    /// Notes a validation command that passed (once each, newest last).
    pub fn note_validation(&mut self, command: &str) {
        push_unique(&mut self.validations, clean(command));
    }

    /// Notes errors a command just fixed: fixed, no longer open.
    pub fn note_fixed(&mut self, summaries: &[String]) {
        for summary in summaries {
            let summary = clean(summary);
            self.open_errors.retain(|e| *e != summary);
            push_unique(&mut self.fixed_errors, summary);
        }
    }

    /// Brings the digest up to date with the session's hot state. Errors the digest had as
    /// open that the state no longer holds open count as fixed.
    pub fn fold(&mut self, state: &SessionState, ending: Ending, now_ms: i64) {
        for file in &state.active_files {
            if matches!(file.action, FileAction::Edit | FileAction::Write) {
                push_unique(&mut self.files_edited, clean(&file.path));
            }
        }
        let open: Vec<String> = state
            .open_errors
            .iter()
            .filter(|e| e.status == ErrorStatus::Open)
            .map(|e| clean(&e.summary))
            .collect();
        let fixed_now = state
            .open_errors
            .iter()
            .filter(|e| e.status == ErrorStatus::MaybeFixed)
            .map(|e| clean(&e.summary));
        let no_longer_open: Vec<String> = self
            .open_errors
            .iter()
            .filter(|e| !open.contains(e))
            .cloned()
            .collect();
        for fixed in fixed_now.chain(no_longer_open) {
            push_unique(&mut self.fixed_errors, fixed);
        }
        self.fixed_errors.retain(|e| !open.contains(e));
        self.open_errors = open;
        self.open_errors.truncate(LIST_KEPT);
        for decision in &state.recent_decisions {
            if let Some(text) = decision.get("text").and_then(Value::as_str) {
                push_unique(&mut self.decisions, clean(text));
            }
        }
        for memory in state.pending_memories.iter().flatten() {
            let is_decision = memory.get("type").and_then(Value::as_str) == Some("decision");
            if let (false, Some(text)) = (is_decision, memory.get("text").and_then(Value::as_str)) {
                push_unique(&mut self.memories, clean(text));
            }
        }
        self.ended_at = format_rfc3339_ms(now_ms);
        self.ended_by = Some(ending);
    }

    /// Takes the next steps a compaction summary states, if it states any.
    pub fn note_summary(&mut self, summary: &str) {
        let steps = next_steps(summary);
        if !steps.is_empty() {
            self.next_steps = steps;
        }
    }

    /// One line naming the session: its first request, else its files, else its id.
    pub fn title(&self) -> String {
        if !self.first_request.is_empty() {
            return cut(&self.first_request, 72);
        }
        if let Some(file) = self.files_edited.first() {
            return format!("edited {file}");
        }
        format!("session {}", cut(&self.session_id, 24))
    }

    /// Counts for a listing: files edited, errors open, errors fixed, decisions, memories.
    pub fn counts(&self) -> String {
        format!(
            "{} edited, {} open, {} fixed, {} decisions, {} memories",
            self.files_edited.len(),
            self.open_errors.len(),
            self.fixed_errors.len(),
            self.decisions.len(),
            self.memories.len()
        )
    }

    /// Whether the digest holds anything worth keeping.
    pub fn is_empty(&self) -> bool {
        self.first_request.is_empty()
            && self.files_edited.is_empty()
            && self.open_errors.is_empty()
            && self.fixed_errors.is_empty()
            && self.decisions.is_empty()
            && self.memories.is_empty()
            && self.next_steps.is_empty()
    }
}

/// Headings and lead-ins under which a summary lists what comes next (any case).
const NEXT_STEP_HEADINGS: &[&str] = &[
    "next step",
    "next steps",
    "remaining work",
    "remaining tasks",
    "to do",
    "todo",
    "pending tasks",
    "still to do",
];

/// The bullets listed under a "Next steps" heading (or after "Next steps:"), or the text
/// after it on the same line; at most `NEXT_STEPS_KEPT`.
pub fn next_steps(summary: &str) -> Vec<String> {
    let mut steps = Vec::new();
    let mut inside = false;
    for line in summary.lines() {
        let trimmed = line.trim();
        let bare = trimmed
            .trim_start_matches(['#', '*', ' '])
            .trim_end_matches(['*', ' ']);
        let lower = bare.to_lowercase();
        let heading = NEXT_STEP_HEADINGS
            .iter()
            .find(|h| lower.starts_with(*h) && is_heading_end(&lower[h.len()..]));
        if let Some(h) = heading {
            inside = true;
            let rest = bare[h.len()..].trim_start_matches([':', ' ', '*']).trim();
            if !rest.is_empty() {
                steps.push(clean(rest));
            }
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(item) = bullet(trimmed) {
            steps.push(clean(item));
        } else if trimmed.starts_with('#') || (!trimmed.is_empty() && !steps.is_empty()) {
            inside = false;
        }
        if steps.len() >= NEXT_STEPS_KEPT {
            break;
        }
    }
    steps.retain(|s| !s.is_empty());
    steps.truncate(NEXT_STEPS_KEPT);
    steps
}

fn is_heading_end(rest: &str) -> bool {
    rest.is_empty() || rest.starts_with(':') || rest.starts_with(' ') || rest.starts_with('*')
}

/// The text of a Markdown list item.
fn bullet(line: &str) -> Option<&str> {
    if let Some(rest) = line.strip_prefix(['-', '*', '+']) {
        return Some(rest.trim_start_matches([' ', '[', ']', 'x']).trim());
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = &line[digits..];
    (digits > 0 && (rest.starts_with('.') || rest.starts_with(')'))).then(|| rest[1..].trim())
}

/// What a digest keeps of a request: the request made safe (see `clean`), or, when it reads
/// as instructions to the agent (a prompt injection), a note that it was not kept, since
/// it would be shown again in a later session.
pub fn request_line(text: &str) -> String {
    if text.trim().is_empty() {
        return String::new();
    }
    if instructs_agent_by_rules(text).is_some() {
        return REQUEST_NOT_KEPT.to_string();
    }
    clean(text)
}

/// Stands for a request that read as instructions to the agent.
pub const REQUEST_NOT_KEPT: &str = "(a request that read as instructions to the agent; not kept)";

/// Made safe to render (secrets scrubbed, one line, nothing that passes for a block's label
/// or closes a prompt section: see `neutralise`), cut to `LINE_CHARS`.
pub fn clean(text: &str) -> String {
    cut(&neutralise(text), LINE_CHARS).trim().to_string()
}

/// At most `max` characters, an ellipsis marking a cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

fn push_unique(list: &mut Vec<String>, item: String) {
    if item.is_empty() || list.contains(&item) {
        return;
    }
    list.push(item);
    if list.len() > LIST_KEPT {
        list.remove(0);
    }
}

#[cfg(test)]
mod tests;
