//! Gemini CLI 0.61: its command hooks' payloads (one JSON object on stdin per event, named by
//! `hook_event_name`), decoded into host-neutral events, and the JSON it reads back.
//!
//! Facts of the real binary this relies on (see `tests/fixtures/gemini-cli-0.61.0/`):
//! - every payload carries `session_id`, `cwd`, `timestamp` and `transcript_path`; none carries
//!   a turn id or a tool call id;
//! - a shell command's exit status exists only as text: `tool_response.llmContent` ends with
//!   `Exit Code: N` (only when N is not 0), then `Signal: …`, `Background PIDs: …` and
//!   `Process Group PGID: …` lines; a cancelled, timed-out or backgrounded command gives a
//!   sentence starting with `Command` instead of `Output: …`;
//! - a tool that fails still fires `AfterTool`, with `tool_response.error`;
//! - `PreCompress` fires before every model call, so it says nothing about a compression; a
//!   compression rewrites the transcript's `messages`: the session's context, then the summary,
//!   a user message holding a `<state_snapshot>`;
//! - only JSON on stdout is read; with nothing on stdout, stderr is parsed instead.

pub mod settings;

use std::borrow::Cow;
use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

pub use super::hook_payload::additional_context;
use super::hook_payload::{self, file_touched, files_found, kind_unless_failed, tool_of};
use super::json::{optional_object, optional_str, required_str};
use crate::domain::base::hash::sha256_hex;
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::{Prompt, SessionRef, ShellRun, ToolCall, ToolKind};
use crate::domain::session::tool_event::SEARCH_FILES;

/// Gemini CLI's tool names, what each is, and the `tool_input` field naming its file. A glob's
/// matches count as files a search found. Any other tool records nothing.
pub const TOOLS: [(&str, ToolKind, &str); 6] = [
    ("read_file", ToolKind::Read, "file_path"),
    ("replace", ToolKind::Edit, "file_path"),
    ("write_file", ToolKind::Write, "file_path"),
    ("grep_search", ToolKind::Grep, ""),
    ("glob", ToolKind::Grep, ""),
    ("run_shell_command", ToolKind::Shell, ""),
];

/// One hook event of Gemini CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookEvent<'a> {
    /// `source`: startup, resume or clear.
    SessionStart(SessionRef<'a>),
    /// A user's prompt, and the transcript that says whether the history was compressed.
    BeforeAgent {
        prompt: Prompt<'a>,
        transcript_path: Option<&'a str>,
    },
    AfterTool(ToolCall<'a>),
    SessionEnd(SessionRef<'a>),
    /// An event ocmem has nothing to do for (PreCompress among them).
    Other {
        name: &'a str,
    },
}

impl<'a> HookEvent<'a> {
    /// The directory of the session the event belongs to; `None` for an event ocmem ignores.
    pub fn directory(&self) -> Option<&'a str> {
        match self {
            HookEvent::SessionStart(session) | HookEvent::SessionEnd(session) => {
                Some(session.directory)
            }
            HookEvent::BeforeAgent { prompt, .. } => Some(prompt.session.directory),
            HookEvent::AfterTool(call) => Some(call.session.directory),
            HookEvent::Other { .. } => None,
        }
    }
}

/// The transcript an event names, which tells whether the history was compressed.
pub fn transcript_path(event: &Value) -> Option<&str> {
    event["transcript_path"].as_str()
}

/// What a tool call's payload implies beyond its fields, worked out before decoding (decoded
/// events borrow from it).
#[derive(Debug, Default)]
pub struct Derived {
    /// The key that stands for the call's id, which Gemini CLI does not give: the same payload
    /// delivered twice has the same key, two calls (even of the same command) have different
    /// timestamps.
    pub call_key: String,
    /// The files a search found, relative to `cwd` or absolute.
    pub found: Vec<String>,
}

impl Derived {
    pub fn of(event: &Value) -> Derived {
        if event["hook_event_name"] != "AfterTool" {
            return Derived::default();
        }
        let material = json!([
            event["session_id"],
            event["timestamp"],
            event["tool_name"],
            event["tool_input"],
            event["tool_response"],
        ]);
        let llm_content = event["tool_response"]["llmContent"]
            .as_str()
            .unwrap_or_default();
        let found = match event["tool_name"].as_str() {
            Some("grep_search") => {
                grep_files(llm_content, event["tool_input"]["dir_path"].as_str())
            }
            Some("glob") => glob_files(llm_content),
            _ => Vec::new(),
        };
        Derived {
            call_key: format!("gemini-{}", &sha256_hex(&material.to_string())[..32]),
            found,
        }
    }
}

/// Decodes one hook payload, with `Derived::of(event)`.
pub fn decode<'a>(event: &'a Value, derived: &'a Derived) -> Result<HookEvent<'a>> {
    let name = required_str(event, "hook_event_name")?;
    let session = || hook_payload::session(event, HostName::GeminiCli);
    Ok(match name {
        "SessionStart" => HookEvent::SessionStart(session()?),
        "BeforeAgent" => HookEvent::BeforeAgent {
            prompt: Prompt {
                session: session()?,
                // One prompt fires BeforeAgent once; its timestamp names it.
                message_id: optional_str(event, "timestamp")?,
                text: optional_str(event, "prompt")?,
            },
            transcript_path: optional_str(event, "transcript_path")?,
        },
        "AfterTool" => HookEvent::AfterTool(tool_call(event, session()?, derived)?),
        "SessionEnd" => HookEvent::SessionEnd(session()?),
        other => HookEvent::Other { name: other },
    })
}

fn tool_call<'a>(
    event: &'a Value,
    session: SessionRef<'a>,
    derived: &'a Derived,
) -> Result<ToolCall<'a>> {
    let tool = required_str(event, "tool_name")?;
    let input = optional_object(event, "tool_input")?;
    let response = &event["tool_response"];
    let failed = !response["error"].is_null();
    let (kind, file_field) = tool_of(&TOOLS, tool);
    let mut call = ToolCall {
        session,
        tool,
        kind: kind_unless_failed(kind, failed),
        call_id: &derived.call_key,
        files: Vec::new(),
        shell: None,
    };
    let llm_content = response["llmContent"].as_str().unwrap_or_default();
    match call.kind {
        ToolKind::Read | ToolKind::Edit | ToolKind::Write => {
            call.files
                .extend(file_touched(call.kind, input, file_field));
        }
        ToolKind::Grep => {
            call.files = files_found(derived.found.iter().map(String::as_str));
        }
        ToolKind::Shell => {
            let command = input["command"].as_str().unwrap_or_default();
            call.shell = Some(if failed {
                ShellRun {
                    command,
                    exit: None,
                    output: Cow::Borrowed(""),
                }
            } else {
                shell_run(command, llm_content)
            });
        }
        ToolKind::Patch | ToolKind::Other => {}
    }
    Ok(call)
}

/// The lines `llmContent` may end with after a command's output and status.
const TRAILERS: [&str; 3] = [
    "Process Group PGID: ",
    "Background PIDs: ",
    "</untrusted_context>",
];

/// A finished `run_shell_command` from its `llmContent`: the status of the last `Exit Code: N`
/// line after the output, 0 without one; unknown when the command was cancelled, timed out,
/// moved to the background or killed by a signal.
pub fn shell_run<'a>(command: &'a str, llm_content: &'a str) -> ShellRun<'a> {
    let body = llm_content
        .strip_prefix("<untrusted_context>\n")
        .unwrap_or(llm_content);
    let Some(body) = body.strip_prefix("Output: ") else {
        return ShellRun {
            command,
            exit: None,
            output: Cow::Borrowed(""),
        };
    };
    let mut lines: Vec<&str> = body.lines().collect();
    let mut exit = Some(0);
    let mut unknown = false;
    while let Some(last) = lines.pop() {
        if let Some(code) = last.strip_prefix("Exit Code: ") {
            exit = code.trim().parse::<i64>().ok();
            if lines.last().is_some_and(|l| l.starts_with("Error: ")) {
                lines.pop();
            }
            break;
        }
        if last.starts_with("Signal: ") || last.starts_with("Error: ") {
            // Killed, or never ran: no status.
            unknown = true;
        } else if !TRAILERS.iter().any(|t| last.starts_with(t)) {
            lines.push(last);
            break;
        }
    }
    if unknown {
        exit = None;
    }
    // Whatever of the body the kept lines cover: the output as the command printed it.
    let kept: usize = lines.iter().map(|l| l.len() + 1).sum();
    let output = &body[..kept.min(body.len())];
    let output = output.strip_suffix('\n').unwrap_or(output);
    ShellRun {
        command,
        exit,
        output: Cow::Borrowed(if output == "(empty)" { "" } else { output }),
    }
}

/// The files a `grep_search` found: its `File: <path>` lines, relative to the searched
/// `dir_path` (itself relative to `cwd`, or absolute), at most `SEARCH_FILES`.
fn grep_files(llm_content: &str, dir_path: Option<&str>) -> Vec<String> {
    let dir = dir_path
        .map(str::trim)
        .filter(|d| !d.is_empty() && *d != ".");
    let mut files: Vec<String> = Vec::new();
    for name in llm_content.lines().filter_map(|l| l.strip_prefix("File: ")) {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let path = match dir {
            Some(dir) => Path::new(dir).join(name).to_string_lossy().into_owned(),
            None => name.to_string(),
        };
        if !files.contains(&path) {
            files.push(path);
            if files.len() == SEARCH_FILES {
                break;
            }
        }
    }
    files
}

/// The files a `glob` matched: the absolute paths listed after its first line.
fn glob_files(llm_content: &str) -> Vec<String> {
    let listed = llm_content.lines().skip(1).map(str::trim);
    listed
        .filter(|line| line.starts_with('/'))
        .take(SEARCH_FILES)
        .map(str::to_owned)
        .collect()
}

/// Where a compression's summary starts: Gemini CLI's summariser writes a `<state_snapshot>`.
const SNAPSHOT_TAG: &str = "<state_snapshot>";

/// A digest of the summary the latest compression recorded in a transcript (JSON lines, each a
/// message or a `{"$set": {"messages": [...]}}` rewrite of the whole history, where the summary
/// is a user message after the session's context), `None` when it records none.
pub fn latest_compression(transcript: &str) -> Option<String> {
    transcript.lines().rev().find_map(|line| {
        if !line.contains(SNAPSHOT_TAG) || !line.contains("\"$set\"") {
            return None;
        }
        let record: Value = serde_json::from_str(line).ok()?;
        let messages = record["$set"]["messages"].as_array()?;
        messages.iter().find_map(|message| {
            let text = first_text(&message["content"]).filter(|_| message["type"] == "user")?;
            text.contains(SNAPSHOT_TAG)
                .then(|| sha256_hex(text)[..16].to_string())
        })
    })
}

/// The text of a message's content: a string, or the first part with a `text`.
fn first_text(content: &Value) -> Option<&str> {
    content.as_str().or_else(|| {
        content
            .as_array()?
            .iter()
            .find_map(|part| part["text"].as_str())
    })
}

#[cfg(test)]
mod tests;
