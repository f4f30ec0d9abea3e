//! Codex CLI 0.169: its command hooks' payloads (one JSON object on stdin per event, named by
//! `hook_event_name`), decoded into host-neutral events, what its rollout file adds to them,
//! and the JSON it reads back.
//!
//! Facts of the real binary this relies on (see `tests/fixtures/codex-cli-0.169.0/`):
//! - every payload carries `session_id`, `cwd` and `transcript_path` (the session's rollout
//!   file, JSON lines); tool events carry `tool_use_id`, the model's call id;
//! - a shell call is `tool_name: "Bash"` with `tool_input.command`, and its `PostToolUse` fires
//!   whatever the command's exit status, which the payload does not hold: the rollout's
//!   `item_completed` line of a `CommandExecution` item with that id has it as `exit_code`,
//!   already written when the hook runs;
//! - `apply_patch`'s `tool_input.command` is the patch text; a patch that fails fires no
//!   `PostToolUse`;
//! - `PostCompact` carries no summary: the rollout's last `compacted` line holds it, and a
//!   compacted session restarts with `SessionStart` of source `compact`;
//! - `SessionEnd`'s `reason` is always `other`, also when the session is resumed later.

pub mod hooks_file;

use anyhow::{bail, Result};
use serde_json::Value;

pub use super::hook_payload::additional_context;
use super::hook_payload::{self};
use super::json::{optional_object, optional_str, required_id, required_str};
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::{FileChange, Prompt, SessionRef, ShellRun, ToolCall, ToolKind};
use crate::domain::session::state::FileAction;

/// Codex's tool names that record something, and what each is. Any other tool records nothing.
pub const TOOLS: [(&str, ToolKind); 2] =
    [("Bash", ToolKind::Shell), ("apply_patch", ToolKind::Patch)];

/// One hook event of Codex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookEvent<'a> {
    /// `source`: startup, resume, clear, compact or fork.
    SessionStart {
        session: SessionRef<'a>,
        source: &'a str,
        transcript: Option<&'a str>,
    },
    UserPromptSubmit(Prompt<'a>),
    /// `PostToolUse`; a shell call's exit status is still to be looked up in `transcript`.
    ToolUse {
        call: ToolCall<'a>,
        transcript: Option<&'a str>,
    },
    SessionEnd(SessionRef<'a>),
    /// An event ocmem has nothing to do for.
    Other {
        name: &'a str,
    },
}

impl<'a> HookEvent<'a> {
    /// The directory of the session the event belongs to; `None` for an event ocmem ignores.
    pub fn directory(&self) -> Option<&'a str> {
        match self {
            HookEvent::SessionStart { session, .. } | HookEvent::SessionEnd(session) => {
                Some(session.directory)
            }
            HookEvent::UserPromptSubmit(prompt) => Some(prompt.session.directory),
            HookEvent::ToolUse { call, .. } => Some(call.session.directory),
            HookEvent::Other { .. } => None,
        }
    }
}

/// Decodes one hook payload.
pub fn decode(event: &Value) -> Result<HookEvent<'_>> {
    let name = required_str(event, "hook_event_name")?;
    let session = || hook_payload::session(event, HostName::Codex);
    let transcript = || -> Result<Option<&str>> {
        let path = optional_str(event, "transcript_path")?;
        if path.is_some_and(|p| !std::path::Path::new(p).is_absolute()) {
            bail!("bad input: transcript_path must be an absolute path");
        }
        Ok(path)
    };
    Ok(match name {
        "SessionStart" => HookEvent::SessionStart {
            session: session()?,
            source: optional_str(event, "source")?.unwrap_or("startup"),
            transcript: transcript()?,
        },
        // Codex gives a prompt no id of its own: the turn it starts has one.
        "UserPromptSubmit" => HookEvent::UserPromptSubmit(Prompt {
            session: session()?,
            message_id: optional_str(event, "turn_id")?,
            text: optional_str(event, "prompt")?,
        }),
        "PostToolUse" => HookEvent::ToolUse {
            call: tool_call(event, session()?)?,
            transcript: transcript()?,
        },
        "SessionEnd" => HookEvent::SessionEnd(session()?),
        other => HookEvent::Other { name: other },
    })
}

fn tool_call<'a>(event: &'a Value, session: SessionRef<'a>) -> Result<ToolCall<'a>> {
    let tool = required_str(event, "tool_name")?;
    let call_id = required_id(event, "tool_use_id")?;
    let input = optional_object(event, "tool_input")?;
    let kind = TOOLS
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or(ToolKind::Other, |(_, kind)| *kind);
    let command = input["command"].as_str().unwrap_or_default();
    let response = event["tool_response"].as_str().unwrap_or_default();
    let mut call = ToolCall {
        session,
        tool,
        kind,
        call_id,
        files: Vec::new(),
        shell: None,
    };
    match kind {
        ToolKind::Shell => {
            call.shell = Some(ShellRun {
                command,
                exit: None,
                output: response.into(),
            })
        }
        ToolKind::Patch if patch_succeeded(response) => call.files = patch_files(command),
        // A patch that did not apply changed nothing ocmem can tell.
        _ => call.kind = ToolKind::Other,
    }
    Ok(call)
}

/// Whether `apply_patch`'s response (`Exit code: N\nWall time: …\nOutput:\n…`) says it applied.
fn patch_succeeded(response: &str) -> bool {
    let first = response.lines().next().unwrap_or_default();
    first.strip_prefix("Exit code: ").map(str::trim) == Some("0")
}

/// The files of a patch in Codex's format: `*** Add File: p`, `*** Delete File: p`, `*** Update
/// File: p`, the latter maybe followed by `*** Move to: q`. Paths are relative to `cwd`.
pub fn patch_files(patch: &str) -> Vec<FileChange<'_>> {
    let mut changes: Vec<FileChange> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        if let Some(path) = line.strip_prefix("*** Add File: ") {
            changes.push(FileChange::Touched {
                path,
                action: FileAction::Write,
            });
        } else if let Some(path) = line.strip_prefix("*** Update File: ") {
            changes.push(FileChange::Touched {
                path,
                action: FileAction::Edit,
            });
        } else if let Some(path) = line.strip_prefix("*** Delete File: ") {
            changes.push(FileChange::Deleted { path });
        } else if let Some(to) = line.strip_prefix("*** Move to: ") {
            if let Some(FileChange::Touched { path: from, .. }) = changes.last().copied() {
                *changes.last_mut().expect("just read") = FileChange::Moved { from, to };
            }
        }
    }
    changes.retain(|change| match change {
        FileChange::Touched { path, .. } | FileChange::Deleted { path } => !path.is_empty(),
        FileChange::Moved { from, to } => !from.is_empty() && !to.is_empty(),
    });
    changes
}

/// The exit status of the command whose call id is `call_id`, from the rollout's
/// `item_completed` line of its `CommandExecution`; `None` when there is no such line or it has
/// no status (a command that never ran).
pub fn command_exit(rollout: &str, call_id: &str) -> Option<i64> {
    for line in rollout.lines().rev() {
        // Most lines are not the one: parse only those that could be.
        if !line.contains("item_completed") || !line.contains(call_id) {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let payload = &value["payload"];
        let item = &payload["item"];
        if value["type"] == "event_msg"
            && payload["type"] == "item_completed"
            && item["type"] == "CommandExecution"
            && item["id"] == call_id
        {
            return item["exit_code"].as_i64();
        }
    }
    None
}

/// The summary of the session's latest compaction: the `message` of the rollout's last
/// `compacted` line.
pub fn compaction_summary(rollout: &str) -> Option<String> {
    rollout
        .lines()
        .rev()
        .filter(|line| line.contains("\"compacted\""))
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|value| value["type"] == "compacted")
        .and_then(|value| value["payload"]["message"].as_str().map(str::to_owned))
}

#[cfg(test)]
mod tests;
