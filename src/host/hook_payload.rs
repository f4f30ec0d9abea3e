//! What the command hooks of Claude Code, Codex and Gemini CLI have in common: the session a
//! payload names, how a file tool's call becomes the files it touched, and the JSON that adds
//! text to the model's context.

use anyhow::{bail, Result};
use serde_json::{json, Value};

use super::json::{required_id, required_str};
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::{FileChange, SessionRef, ToolKind};
use crate::domain::session::state::FileAction;

/// The session of a hook payload: its `session_id`, and its `cwd`, which must be absolute.
pub fn session(event: &Value, host: HostName) -> Result<SessionRef<'_>> {
    let directory = required_str(event, "cwd")?;
    if !std::path::Path::new(directory).is_absolute() {
        bail!("bad input: cwd must be an absolute path, not {directory:?}");
    }
    Ok(SessionRef {
        host,
        directory,
        session_id: required_id(event, "session_id")?,
    })
}

/// A tool's kind and the `tool_input` field naming its file, from a host's table of tools
/// (name, kind, field); a tool the table does not name is `Other`.
pub fn tool_of(tools: &[(&str, ToolKind, &'static str)], tool: &str) -> (ToolKind, &'static str) {
    tools
        .iter()
        .find(|(name, ..)| *name == tool)
        .map_or((ToolKind::Other, ""), |(_, kind, field)| (*kind, *field))
}

/// The kind a call is recorded as: a failed call changed no file, so only a failed command
/// still says something.
pub fn kind_unless_failed(kind: ToolKind, failed: bool) -> ToolKind {
    if failed && kind != ToolKind::Shell {
        ToolKind::Other
    } else {
        kind
    }
}

/// The file a Read, Edit or Write call touched: the non-empty string at `input[field]`.
pub fn file_touched<'a>(kind: ToolKind, input: &'a Value, field: &str) -> Option<FileChange<'a>> {
    let action = match kind {
        ToolKind::Read => FileAction::Read,
        ToolKind::Edit => FileAction::Edit,
        ToolKind::Write => FileAction::Write,
        _ => return None,
    };
    let path = input[field].as_str().filter(|p| !p.is_empty())?;
    Some(FileChange::Touched { path, action })
}

/// The files a search found, as files it touched.
pub fn files_found<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<FileChange<'a>> {
    paths
        .into_iter()
        .map(|path| FileChange::Touched {
            path,
            action: FileAction::Grep,
        })
        .collect()
}

/// The JSON that adds `text` to the model's context at `event` (SessionStart, or the event a
/// prompt fires), with a newline; nothing when `text` is empty.
pub fn additional_context(event: &str, text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let output = json!({
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": text}
    });
    format!("{output}\n")
}
