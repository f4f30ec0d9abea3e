//! Claude Code 2.1: its command hooks' payloads (one JSON object on stdin per event, named by
//! `hook_event_name`), decoded into host-neutral events, and the JSON it reads back.
//!
//! Facts of the real binary this relies on (see `tests/fixtures/claude-code-2.1.330/`):
//! - every payload carries `session_id` and `cwd`; tool events carry `tool_use_id`;
//! - a Bash call that exits non-zero arrives as `PostToolUseFailure`, its `error` starting with
//!   `Exit code N` and followed by the output; a Bash `PostToolUse` means exit 0 (its output
//!   in `tool_response.stdout` and `stderr`);
//! - Grep and Glob name files relative to `cwd`;
//! - `PostCompact`'s `compact_summary` is the summariser's raw reply, with `<analysis>` and
//!   `<summary>` sections.

pub mod settings;

use std::borrow::Cow;

use anyhow::Result;
use serde_json::Value;

pub use super::hook_payload::additional_context;
use super::hook_payload::{self, file_touched, files_found, kind_unless_failed, tool_of};
use super::json::{optional_id, optional_object, optional_str, required_id, required_str};
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::{Compaction, Prompt, SessionRef, ShellRun, ToolCall, ToolKind};
use crate::domain::session::tool_event::SEARCH_FILES;

/// Claude Code's tool names, what each is, and the `tool_input` field naming its file.
/// Any other tool (Glob's listings, web fetches, sub-agents) records nothing.
pub const TOOLS: [(&str, ToolKind, &str); 8] = [
    ("Read", ToolKind::Read, "file_path"),
    ("Edit", ToolKind::Edit, "file_path"),
    ("MultiEdit", ToolKind::Edit, "file_path"),
    ("NotebookEdit", ToolKind::Edit, "notebook_path"),
    ("Write", ToolKind::Write, "file_path"),
    ("Grep", ToolKind::Grep, ""),
    ("Bash", ToolKind::Shell, ""),
    ("Glob", ToolKind::Other, ""),
];

/// One hook event of Claude Code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookEvent<'a> {
    /// `source`: startup, resume, clear or compact.
    SessionStart {
        session: SessionRef<'a>,
        source: &'a str,
    },
    UserPromptSubmit(Prompt<'a>),
    /// `PostToolUse` or `PostToolUseFailure`.
    ToolUse(ToolCall<'a>),
    PreCompact(SessionRef<'a>),
    PostCompact(Compaction<'a>),
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
            HookEvent::SessionStart { session, .. }
            | HookEvent::PreCompact(session)
            | HookEvent::SessionEnd(session) => Some(session.directory),
            HookEvent::UserPromptSubmit(prompt) => Some(prompt.session.directory),
            HookEvent::ToolUse(call) => Some(call.session.directory),
            HookEvent::PostCompact(compaction) => Some(compaction.session.directory),
            HookEvent::Other { .. } => None,
        }
    }
}

/// Decodes one hook payload.
pub fn decode(event: &Value) -> Result<HookEvent<'_>> {
    let name = required_str(event, "hook_event_name")?;
    let session = || hook_payload::session(event, HostName::ClaudeCode);
    Ok(match name {
        "SessionStart" => HookEvent::SessionStart {
            session: session()?,
            source: optional_str(event, "source")?.unwrap_or("startup"),
        },
        "UserPromptSubmit" => HookEvent::UserPromptSubmit(Prompt {
            session: session()?,
            message_id: optional_id(event, "prompt_id")?,
            text: optional_str(event, "prompt")?,
        }),
        "PostToolUse" | "PostToolUseFailure" => {
            HookEvent::ToolUse(tool_call(event, session()?, name == "PostToolUseFailure")?)
        }
        "PreCompact" => HookEvent::PreCompact(session()?),
        "PostCompact" => HookEvent::PostCompact(Compaction {
            session: session()?,
            summary: summary_section(optional_str(event, "compact_summary")?.unwrap_or("")),
        }),
        "SessionEnd" => HookEvent::SessionEnd(session()?),
        other => HookEvent::Other { name: other },
    })
}

fn tool_call<'a>(event: &'a Value, session: SessionRef<'a>, failed: bool) -> Result<ToolCall<'a>> {
    let tool = required_str(event, "tool_name")?;
    let call_id = required_id(event, "tool_use_id")?;
    let input = optional_object(event, "tool_input")?;
    let response = &event["tool_response"];
    let (kind, file_field) = tool_of(&TOOLS, tool);
    let mut call = ToolCall {
        session,
        tool,
        kind: kind_unless_failed(kind, failed),
        call_id,
        files: Vec::new(),
        shell: None,
    };
    match call.kind {
        ToolKind::Read | ToolKind::Edit | ToolKind::Write => {
            call.files
                .extend(file_touched(call.kind, input, file_field));
        }
        ToolKind::Grep => {
            call.files = files_found(grep_files(response));
        }
        ToolKind::Shell => {
            let command = input["command"].as_str().unwrap_or_default();
            call.shell = Some(if failed {
                failed_run(command, event)
            } else {
                passed_run(command, input, response)
            });
        }
        ToolKind::Patch | ToolKind::Other => {}
    }
    Ok(call)
}

/// A `PostToolUseFailure` of Bash: `error` is `Exit code N`, a line break and the output.
/// Anything else (an interrupt, a timeout, a refused command) has no status.
fn failed_run<'a>(command: &'a str, event: &'a Value) -> ShellRun<'a> {
    let error = event["error"].as_str().unwrap_or_default();
    let interrupted = event["is_interrupt"].as_bool().unwrap_or(false);
    let (first, rest) = error.split_once('\n').unwrap_or((error, ""));
    let exit = first
        .strip_prefix("Exit code ")
        .and_then(|n| n.trim().parse::<i64>().ok())
        .filter(|_| !interrupted);
    ShellRun {
        command,
        exit,
        output: Cow::Borrowed(if exit.is_some() { rest } else { error }),
    }
}

/// A `PostToolUse` of Bash: exit 0, unless the command was interrupted or left running in the
/// background (then its status is unknown).
fn passed_run<'a>(command: &'a str, input: &'a Value, response: &'a Value) -> ShellRun<'a> {
    let interrupted = response["interrupted"].as_bool().unwrap_or(false);
    let background = input["run_in_background"].as_bool().unwrap_or(false)
        || !response["backgroundTaskId"].is_null();
    let stdout = response["stdout"].as_str().unwrap_or_default();
    let stderr = response["stderr"].as_str().unwrap_or_default();
    let output = match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => Cow::Borrowed(stdout),
        (true, false) => Cow::Borrowed(stderr),
        (false, false) => Cow::Owned(format!("{stdout}\n{stderr}")),
    };
    ShellRun {
        command,
        exit: (!interrupted && !background).then_some(0),
        output,
    }
}

/// The files a Grep found, relative to `cwd`: its `filenames`, else the file part of the
/// `path:line:text` (content) or `path:count` (count) lines, at most `SEARCH_FILES`.
fn grep_files(response: &Value) -> Vec<&str> {
    let mut files: Vec<&str> = Vec::new();
    let named = response["filenames"].as_array().into_iter().flatten();
    let named = named.filter_map(Value::as_str);
    let content = response["content"].as_str().unwrap_or_default();
    let from_lines = content.lines().filter_map(content_line_file);
    for path in named.chain(from_lines) {
        if !path.is_empty() && !files.contains(&path) {
            files.push(path);
            if files.len() == SEARCH_FILES {
                break;
            }
        }
    }
    files
}

/// `src/a.ts` of `src/a.ts:12:text` or `src/a.ts:3`; `None` for context lines
/// (`src/a.ts-11-text`) and anything else.
fn content_line_file(line: &str) -> Option<&str> {
    let (path, rest) = line.split_once(':')?;
    let digits = rest.split(':').next()?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(path)
}

/// The `<summary>` section of the summariser's reply, when it has one (its `<analysis>` is
/// a draft that may list candidates the summary dropped); else the whole reply.
pub fn summary_section(reply: &str) -> &str {
    let Some(start) = reply.rfind("<summary>") else {
        return reply;
    };
    let body = &reply[start + "<summary>".len()..];
    body.find("</summary>").map_or(body, |end| &body[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_failing_command_has_the_status_of_its_error_line() {
        let event = json!({"error": "Exit code 2\n\n> demo\nsrc/a.ts(1,1): error TS1", "is_interrupt": false});
        let run = failed_run("npm run typecheck", &event);
        assert_eq!(run.exit, Some(2));
        assert_eq!(run.output, "\n> demo\nsrc/a.ts(1,1): error TS1");
        for error in [
            json!({"error": "Exit code 2\nout", "is_interrupt": true}),
            json!({"error": "Command timed out after 2m 0.0s"}),
            json!({"error": "Exit code two\nout"}),
            json!({}),
        ] {
            assert_eq!(failed_run("x", &error).exit, None, "{error}");
        }
        assert_eq!(
            failed_run("x", &json!({"error": "Exit code 127"})).exit,
            Some(127)
        );
    }

    #[test]
    fn a_passing_command_exits_zero_unless_interrupted_or_in_the_background() {
        let input = json!({"command": "npm test"});
        let both = json!({"stdout": "ok", "stderr": "warn"});
        assert_eq!(passed_run("c", &input, &both).exit, Some(0));
        assert_eq!(passed_run("c", &input, &both).output, "ok\nwarn");
        let interrupted = json!({"stdout": "", "stderr": "", "interrupted": true});
        assert_eq!(passed_run("c", &input, &interrupted).exit, None);
        let background = json!({"command": "npm run dev", "run_in_background": true});
        assert_eq!(passed_run("c", &background, &json!({})).exit, None);
        let started = json!({"stdout": "", "backgroundTaskId": "b1"});
        assert_eq!(passed_run("c", &input, &started).exit, None);
    }

    #[test]
    fn grep_files_come_from_filenames_or_content_lines() {
        let named = json!({"mode": "files_with_matches", "filenames": ["src/a.ts", "src/b.ts"]});
        assert_eq!(grep_files(&named), ["src/a.ts", "src/b.ts"]);
        let content = json!({"mode": "content", "filenames": [], "content":
            "src/a.ts:1:x\nsrc/a.ts-2-context\nsrc/b.ts:3:y: z\n--\nplain text"});
        assert_eq!(grep_files(&content), ["src/a.ts", "src/b.ts"]);
        let count = json!({"mode": "count", "filenames": [], "content": "src/a.ts:1\nsrc/c.ts:2"});
        assert_eq!(grep_files(&count), ["src/a.ts", "src/c.ts"]);
        let many: Vec<String> = (0..30).map(|i| format!("f{i}.ts")).collect();
        assert_eq!(grep_files(&json!({"filenames": many})).len(), SEARCH_FILES);
    }

    #[test]
    fn the_summary_section_is_taken_from_the_reply() {
        let reply = "<analysis>Memory candidates:\n- [project] draft</analysis>\n<summary>\nkept\n</summary>";
        assert_eq!(summary_section(reply), "\nkept\n");
        assert_eq!(summary_section("no tags"), "no tags");
        assert_eq!(summary_section("<summary>unclosed"), "unclosed");
    }

    #[test]
    fn additional_context_is_hook_specific_output() {
        let out = additional_context("SessionStart", "<block>");
        let value: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["hookSpecificOutput"]["hookEventName"], "SessionStart");
        assert_eq!(value["hookSpecificOutput"]["additionalContext"], "<block>");
        assert_eq!(additional_context("UserPromptSubmit", ""), "");
    }

    #[test]
    fn the_hooks_matcher_names_exactly_the_tools_that_record_something() {
        let recording: Vec<&str> = TOOLS
            .iter()
            .filter(|(_, kind, _)| *kind != ToolKind::Other)
            .map(|(name, ..)| *name)
            .collect();
        assert_eq!(settings::RECORDED_TOOLS, recording.join("|"));
    }

    #[test]
    fn failed_file_tools_touch_nothing() {
        let event = json!({"hook_event_name": "PostToolUseFailure", "session_id": "s",
            "cwd": "/r", "tool_name": "Edit", "tool_use_id": "t",
            "tool_input": {"file_path": "/r/a.ts"}, "error": "String to replace not found"});
        let HookEvent::ToolUse(call) = decode(&event).unwrap() else {
            panic!("not a tool use")
        };
        assert!(!call.is_tracked() && call.files.is_empty());
    }
}
