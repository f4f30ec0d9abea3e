//! The session store's data model: hot state of one agent session, in the TypeScript plugin's
//! on-disk format (camelCase, pretty JSON). Unknown fields are kept in `extra` so that a
//! read-modify-write never drops what another version wrote.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::domain::base::time::parse_rfc3339;
use crate::domain::session::pressure::ContextPressure;
use crate::domain::shell::command::Category;

/// The newest session-store format this build understands.
pub const SESSION_VERSION: u64 = 1;
/// How many applied call ids are remembered for idempotence.
pub const APPLIED_CALLS_KEPT: usize = 64;
/// How many captured message ids are remembered for idempotence.
pub const APPLIED_MESSAGES_KEPT: usize = 32;
/// How many recent decisions the hot state keeps.
pub const RECENT_DECISIONS_KEPT: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionState {
    #[serde(default = "session_version")]
    pub version: u64,
    #[serde(rename = "sessionID", default)]
    pub session_id: String,
    #[serde(default)]
    pub turn: u64,
    #[serde(default)]
    pub updated_at: String,
    #[serde(default)]
    pub active_files: Vec<ActiveFile>,
    #[serde(default)]
    pub open_errors: Vec<OpenError>,
    #[serde(default)]
    pub recent_decisions: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_memories: Option<Vec<Value>>,
    /// Call ids of the tool events already applied, oldest first (at most `APPLIED_CALLS_KEPT`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied_calls: Vec<String>,
    /// Ids of the user messages whose explicit memories were captured (at most
    /// `APPLIED_MESSAGES_KEPT`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied_messages: Vec<String>,
    /// The workspace block as first rendered in this session, reused byte for byte so the
    /// model provider's prompt cache keeps hitting; cleared by `promote`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frozen_workspace_block: Option<String>,
    /// How many more memories than a message may give the latest user message asked for:
    /// rendered, so that the user hears of them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memories_over_limit: usize,
    /// How many memories the latest user message asked for that read as instructions to the
    /// agent and were not stored: rendered, so that the user hears of them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memories_refused: usize,
    /// How many memories the latest user message asked for in the tables' words that read
    /// as requests for the task at hand and were not stored: rendered, so that the agent
    /// saves them if the user meant them to last.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memories_set_aside: usize,
    /// What the latest user message asked to forget, and what was forgotten (or why
    /// nothing was): one line of the hot state, until the next message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forget_note: Option<String>,
    /// A digest of the hot state as last shown to a host that keeps what it is shown for the
    /// rest of the session (Claude Code's additional context), so an unchanged one is not
    /// shown again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_hot_state: Option<String>,
    /// Digests of the verified commands this session counted (see `verified`): each is
    /// counted once per session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verified_counted: Vec<String>,
    /// A digest of the summary of the host's latest compression this session's block was
    /// shown after (Gemini CLI's, which no hook announces), so it is re-sent once per
    /// compression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_compression: Option<String>,
    /// How full the model's context window was when the level last rose (see `pressure`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_pressure: Option<ContextPressure>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn session_version() -> u64 {
    SESSION_VERSION
}

impl SessionState {
    pub fn new(session_id: &str) -> Self {
        SessionState {
            version: SESSION_VERSION,
            session_id: session_id.to_string(),
            turn: 0,
            updated_at: String::new(),
            active_files: Vec::new(),
            open_errors: Vec::new(),
            recent_decisions: Vec::new(),
            pending_memories: None,
            applied_calls: Vec::new(),
            applied_messages: Vec::new(),
            frozen_workspace_block: None,
            memories_over_limit: 0,
            memories_refused: 0,
            memories_set_aside: 0,
            forget_note: None,
            shown_hot_state: None,
            verified_counted: Vec::new(),
            seen_compression: None,
            context_pressure: None,
            extra: Map::new(),
        }
    }

    /// When the session was last used: its `updatedAt`, else the newest time any file or
    /// error of it was seen; `None` when the store tells neither (the caller falls back to
    /// the file's modification time). Idle sessions are swept, and audited, by this.
    pub fn last_used_ms(&self) -> Option<i64> {
        parse_rfc3339(&self.updated_at).or_else(|| {
            let files = self.active_files.iter().map(|f| f.last_seen);
            let errors = self.open_errors.iter().map(|e| e.last_seen);
            files.chain(errors).max()
        })
    }

    pub fn has_applied(&self, call_id: &str) -> bool {
        self.applied_calls.iter().any(|c| c == call_id)
    }

    pub fn remember_applied(&mut self, call_id: &str) {
        push_bounded(
            &mut self.applied_calls,
            call_id.to_string(),
            APPLIED_CALLS_KEPT,
        );
    }

    pub fn has_captured(&self, message_id: &str) -> bool {
        self.applied_messages.iter().any(|m| m == message_id)
    }

    pub fn remember_captured(&mut self, message_id: &str) {
        push_bounded(
            &mut self.applied_messages,
            message_id.to_string(),
            APPLIED_MESSAGES_KEPT,
        );
    }

    /// Lists a memory captured in this session until the next promote; decisions also go to
    /// the recent decisions.
    pub fn add_pending(&mut self, entry: Value, is_decision: bool) {
        if is_decision {
            // The plugin's recent-decision shape: the entry's fields that say what was decided.
            let decision: Map<String, Value> = ["id", "text", "rationale", "source", "createdAt"]
                .into_iter()
                .filter_map(|field| Some((field.to_string(), entry.get(field)?.clone())))
                .filter(|(_, value)| !value.is_null())
                .collect();
            push_bounded(
                &mut self.recent_decisions,
                Value::Object(decision),
                RECENT_DECISIONS_KEPT,
            );
        }
        self.pending_memories
            .get_or_insert_with(Vec::new)
            .push(entry);
    }
}

impl SessionState {
    /// Takes the entries `ids` out of the pending memories and recent decisions: they were
    /// forgotten or replaced since they were captured.
    pub fn drop_pending(&mut self, ids: &[String]) {
        let listed = |value: &Value| {
            value["id"]
                .as_str()
                .is_some_and(|id| ids.iter().any(|i| i == id))
        };
        if let Some(pending) = &mut self.pending_memories {
            pending.retain(|memory| !listed(memory));
        }
        self.recent_decisions.retain(|decision| !listed(decision));
    }
}

/// Appends `item`, dropping the oldest beyond `keep`.
fn push_bounded<T>(list: &mut Vec<T>, item: T, keep: usize) {
    list.push(item);
    let excess = list.len().saturating_sub(keep);
    list.drain(..excess);
}

/// What the agent did to a file; the order is the order of strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileAction {
    Read,
    Grep,
    Write,
    Edit,
}

impl FileAction {
    pub fn as_str(self) -> &'static str {
        match self {
            FileAction::Read => "read",
            FileAction::Grep => "grep",
            FileAction::Write => "write",
            FileAction::Edit => "edit",
        }
    }

    /// Base score of a file whose strongest action is this one.
    pub fn weight(self) -> f64 {
        match self {
            FileAction::Edit => 50.0,
            FileAction::Write => 45.0,
            FileAction::Grep => 30.0,
            FileAction::Read => 20.0,
        }
    }

    pub fn stronger(self, other: FileAction) -> FileAction {
        if other.weight() > self.weight() {
            other
        } else {
            self
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveFile {
    pub path: String,
    pub action: FileAction,
    #[serde(default = "one")]
    pub count: u64,
    #[serde(deserialize_with = "lenient_ms")]
    pub last_seen: i64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn one() -> u64 {
    1
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorStatus {
    Open,
    MaybeFixed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenError {
    pub id: String,
    pub category: Category,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub fingerprint: String,
    pub status: ErrorStatus,
    #[serde(deserialize_with = "lenient_ms")]
    pub first_seen: i64,
    #[serde(deserialize_with = "lenient_ms")]
    pub last_seen: i64,
    #[serde(default = "one")]
    pub seen_count: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Serialize for Category {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Category {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Category::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown error category {text:?}")))
    }
}

/// Timestamps are Unix ms; older writers may have stored an ISO string or a float.
fn lenient_ms<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|f| f as i64))
            .ok_or_else(|| serde::de::Error::custom("timestamp out of range")),
        Value::String(s) => parse_rfc3339(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unreadable timestamp {s:?}"))),
        other => Err(serde::de::Error::custom(format!(
            "timestamp must be a number or a date, not {other}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"version":1,"sessionID":"s","turn":4,"updatedAt":"2026-01-01T00:00:00.000Z",
            "activeFiles":[{"path":"/r/a.ts","action":"edit","count":2,"lastSeen":5,"pinned":true}],
            "openErrors":[{"id":"err_1","category":"test","summary":"x","fingerprint":"1","status":"open",
              "firstSeen":"2026-01-01T00:00:00Z","lastSeen":7.0,"seenCount":1,"origin":"ts"}],
            "recentDecisions":[{"id":"d","text":"t"}],"futureThing":{"a":[1]}}"#;
        let state: SessionState = serde_json::from_str(text).unwrap();
        assert_eq!(state.turn, 4);
        assert_eq!(state.open_errors[0].first_seen, 1_767_225_600_000);
        assert_eq!(state.open_errors[0].last_seen, 7);
        let back = serde_json::to_value(&state).unwrap();
        assert_eq!(back["futureThing"]["a"][0], 1);
        assert_eq!(back["activeFiles"][0]["pinned"], true);
        assert_eq!(back["openErrors"][0]["origin"], "ts");
        assert_eq!(back["recentDecisions"][0]["text"], "t");
        assert!(back.get("pendingMemories").is_none());
    }

    #[test]
    fn wrong_types_do_not_parse() {
        for bad in [
            r#"{"activeFiles":"x"}"#,
            r#"{"openErrors":[{"id":1}]}"#,
            r#"{"activeFiles":[{"path":"a","action":"sniff","lastSeen":1}]}"#,
            "[]",
        ] {
            assert!(serde_json::from_str::<SessionState>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn applied_calls_keep_the_newest() {
        let mut state = SessionState::new("s");
        for i in 0..100 {
            state.remember_applied(&format!("call_{i}"));
        }
        assert_eq!(state.applied_calls.len(), APPLIED_CALLS_KEPT);
        assert!(state.has_applied("call_99"));
        assert!(!state.has_applied("call_35"));
        assert!(state.has_applied("call_36"));
    }

    #[test]
    fn stronger_action_wins() {
        assert_eq!(
            FileAction::Read.stronger(FileAction::Edit),
            FileAction::Edit
        );
        assert_eq!(
            FileAction::Edit.stronger(FileAction::Write),
            FileAction::Edit
        );
        assert_eq!(
            FileAction::Grep.stronger(FileAction::Read),
            FileAction::Grep
        );
    }
}
