//! OpenCode 1.18: the events its plugin (`integrations/opencode/ocmem.js`) sends to the hook
//! subcommands, decoded into host-neutral events. The plugin passes OpenCode's own shapes
//! (`tool.execute.after`'s input and output) plus the plugin's directory.

pub mod plugin;

use std::borrow::Cow;

use anyhow::Result;
use serde_json::Value;

use super::json::{
    directory, optional_id, optional_object, optional_str, required_id, required_object,
    required_str,
};
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::{
    Compaction, FileChange, Prompt, SessionRef, ShellRun, ToolCall, ToolKind,
};
use crate::domain::session::pressure::ContextUsage;
use crate::domain::session::state::FileAction;
use crate::domain::session::tool_event::SEARCH_FILES;
use crate::domain::shell::extract::{head_lines, OUTPUT_HEAD_BYTES};

/// OpenCode's tool ids, and what each is. Any other tool records nothing.
pub const TOOLS: [(&str, ToolKind); 6] = [
    ("read", ToolKind::Read),
    ("edit", ToolKind::Edit),
    ("write", ToolKind::Write),
    ("apply_patch", ToolKind::Patch),
    ("grep", ToolKind::Grep),
    ("bash", ToolKind::Shell),
];

/// `{"directory", "sessionID"}`: the session of `compact` and of `gc` (session.deleted).
pub fn session(event: &Value) -> Result<SessionRef<'_>> {
    Ok(SessionRef {
        host: HostName::OpenCode,
        directory: directory(event)?,
        session_id: required_id(event, "sessionID")?,
    })
}

/// `{"directory", "sessionID", "prompt"?, "messageID"?}`: the latest user message, for `render`.
pub fn prompt(event: &Value) -> Result<Prompt<'_>> {
    let session = session(event)?;
    let text = optional_str(event, "prompt")?;
    let message_id = optional_id(event, "messageID")?;
    Ok(Prompt {
        session,
        message_id,
        text,
    })
}

/// `{"directory", "sessionID", "summary"?}`: a finished compaction, for `promote`.
pub fn compaction(event: &Value) -> Result<Compaction<'_>> {
    let session = session(event)?;
    let summary = optional_str(event, "summary")?.unwrap_or_default();
    Ok(Compaction { session, summary })
}

/// `render`'s optional `"context": {"tokens", "limit"}`: the latest token counts of the
/// session's assistant messages (`message.updated`'s `info.tokens`) and the model's limits
/// (`system.transform`'s `input.model.limit`), as OpenCode gives them.
///
/// Tokens in use are counted as OpenCode's own compaction check counts them: `total` when it
/// is there, else input + output + cache reads + cache writes (reasoning is not context the
/// next request carries). The window is `limit.input` when the model has one (the cap on what
/// a request may carry, which OpenCode compacts against too), else `limit.context`. A missing
/// or unreadable count gives no usage rather than an error: the block must still render when
/// OpenCode's shapes change. Only a `context` that is not an object is bad input.
pub fn context_usage(event: &Value) -> Result<Option<ContextUsage>> {
    let context = optional_object(event, "context")?;
    let tokens = &context["tokens"];
    let tokens = count(&tokens["total"])
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            [
                &tokens["input"],
                &tokens["output"],
                &tokens["cache"]["read"],
                &tokens["cache"]["write"],
            ]
            .into_iter()
            .filter_map(count)
            .fold(0, u64::saturating_add)
        });
    let limit = &context["limit"];
    let limit = count(&limit["input"])
        .filter(|&n| n > 0)
        .or_else(|| count(&limit["context"]))
        .unwrap_or(0);
    Ok((tokens > 0 && limit > 0).then_some(ContextUsage { tokens, limit }))
}

/// A token count: a whole, non-negative number.
fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < u64::MAX as f64)
            .map(|f| f as u64)
    })
}

/// `{"directory", "input": {"tool", "sessionID", "callID", "args"}, "output": {"title",
/// "output", "metadata"}}`: `tool.execute.after`, for `tool-after`.
pub fn tool_call(event: &Value) -> Result<ToolCall<'_>> {
    let directory = directory(event)?;
    required_object(event, "input")?;
    let tool = required_str(event, "input.tool")?;
    let session_id = required_id(event, "input.sessionID")?;
    let call_id = required_id(event, "input.callID")?;
    let args = optional_object(event, "input.args")?;
    let output = optional_object(event, "output")?;
    let kind = TOOLS
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or(ToolKind::Other, |(_, kind)| *kind);
    let mut call = ToolCall {
        session: SessionRef {
            host: HostName::OpenCode,
            directory,
            session_id,
        },
        tool,
        kind,
        call_id,
        files: Vec::new(),
        shell: None,
    };
    let file_path = non_empty_str(&args["filePath"]);
    match kind {
        ToolKind::Read => call.files.extend(touched(file_path, FileAction::Read)),
        ToolKind::Edit => call.files.extend(touched(file_path, FileAction::Edit)),
        ToolKind::Write => call.files.extend(touched(file_path, FileAction::Write)),
        ToolKind::Patch => call.files = patch_files(output),
        ToolKind::Grep => {
            let text = output["output"].as_str().unwrap_or_default();
            call.files = grep_files(text)
                .into_iter()
                .map(|path| FileChange::Touched {
                    path,
                    action: FileAction::Grep,
                })
                .collect();
        }
        ToolKind::Shell => {
            call.shell = Some(ShellRun {
                command: args["command"].as_str().unwrap_or_default(),
                exit: exit_status(output),
                output: Cow::Borrowed(bash_output(output)),
            })
        }
        ToolKind::Other => {}
    }
    Ok(call)
}

/// The text a tool call gave the model (`output.output`), which `tool-after --prune` may cut
/// down; "" when there is none.
pub fn tool_output(event: &Value) -> &str {
    event["output"]["output"].as_str().unwrap_or_default()
}

fn touched(path: Option<&str>, action: FileAction) -> Option<FileChange<'_>> {
    path.map(|path| FileChange::Touched { path, action })
}

/// `apply_patch`'s `metadata.files`: each with `filePath`, `type` (add, update, move, delete)
/// and, for a move, `movePath`.
fn patch_files(output: &Value) -> Vec<FileChange<'_>> {
    let files = output["metadata"]["files"].as_array();
    let mut changes = Vec::new();
    for file in files.into_iter().flatten() {
        let Some(path) = non_empty_str(&file["filePath"]) else {
            continue;
        };
        changes.push(
            match (file["type"].as_str(), non_empty_str(&file["movePath"])) {
                (Some("delete"), _) => FileChange::Deleted { path },
                (_, Some(to)) => FileChange::Moved { from: path, to },
                (Some("add"), None) => FileChange::Touched {
                    path,
                    action: FileAction::Write,
                },
                _ => FileChange::Touched {
                    path,
                    action: FileAction::Edit,
                },
            },
        );
    }
    changes
}

/// The bash exit status: `metadata.exit` (where OpenCode puts it), else `metadata.exitCode`,
/// else a top-level `exitCode`, when it is a whole number. Anything else is unknown.
pub fn exit_status(output: &Value) -> Option<i64> {
    let metadata = &output["metadata"];
    [
        &metadata["exit"],
        &metadata["exitCode"],
        &output["exitCode"],
    ]
    .into_iter()
    .find(|v| !v.is_null())
    .and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
    })
}

fn non_empty_str(value: &Value) -> Option<&str> {
    value.as_str().filter(|s| !s.is_empty())
}

/// The command's output: `output.output`, else the `metadata.output` preview.
fn bash_output(output: &Value) -> &str {
    non_empty_str(&output["output"])
        .or_else(|| output["metadata"]["output"].as_str())
        .unwrap_or_default()
}

/// The files of OpenCode's grep output: its unindented `/absolute/path:` header lines, within
/// the output's first `OUTPUT_HEAD_BYTES` (OpenCode lists files in order, so the first ten
/// headers are at the start; a huge output costs no more than a small one).
pub fn grep_files(output: &str) -> Vec<&str> {
    let mut files: Vec<&str> = Vec::new();
    for line in head_lines(output, OUTPUT_HEAD_BYTES).lines() {
        let Some(path) = line.strip_suffix(':') else {
            continue;
        };
        if path.starts_with('/') && !path.contains(": ") && !files.contains(&path) {
            files.push(path);
            if files.len() == SEARCH_FILES {
                break;
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decode(tool: &str, args: Value, output: Value) -> ToolCall<'static> {
        let event = json!({
            "directory": "/repo",
            "input": {"tool": tool, "sessionID": "s", "callID": "c", "args": args},
            "output": output,
        });
        let event: &'static Value = Box::leak(Box::new(event));
        tool_call(event).unwrap()
    }

    #[test]
    fn exit_status_comes_from_metadata_exit_first() {
        assert_eq!(
            exit_status(&json!({"metadata": {"exit": 2, "exitCode": 0}})),
            Some(2)
        );
        assert_eq!(exit_status(&json!({"metadata": {"exitCode": 1}})), Some(1));
        assert_eq!(
            exit_status(&json!({"exitCode": 3, "metadata": {}})),
            Some(3)
        );
        assert_eq!(exit_status(&json!({"metadata": {"exit": null}})), None);
        assert_eq!(exit_status(&json!({"metadata": {"exit": "2"}})), None);
        assert_eq!(exit_status(&json!({"metadata": {"exit": 1.5}})), None);
        assert_eq!(exit_status(&json!({"output": "status: 200"})), None);
        assert_eq!(
            exit_status(&json!({"metadata": {"exit_code": 1, "status": 1, "code": 1}})),
            None
        );
    }

    #[test]
    fn file_tools_take_file_path() {
        for (tool, kind, action) in [
            ("read", ToolKind::Read, FileAction::Read),
            ("edit", ToolKind::Edit, FileAction::Edit),
            ("write", ToolKind::Write, FileAction::Write),
        ] {
            let call = decode(tool, json!({"filePath": "src/a.ts"}), json!({}));
            assert_eq!(call.kind, kind);
            assert_eq!(
                call.files,
                [FileChange::Touched {
                    path: "src/a.ts",
                    action
                }]
            );
        }
        assert!(decode("read", json!({"filePath": ""}), json!({}))
            .files
            .is_empty());
    }

    #[test]
    fn apply_patch_lists_adds_updates_moves_and_deletes() {
        let output = json!({"metadata": {"files": [
            {"filePath": "/repo/new.ts", "type": "add"},
            {"filePath": "/repo/kept.ts", "type": "update"},
            {"filePath": "/repo/old.ts", "type": "move", "movePath": "/repo/moved.ts"},
            {"filePath": "/repo/gone.ts", "type": "delete"},
            {"type": "update"}
        ]}});
        let call = decode("apply_patch", json!({"patchText": "…"}), output);
        assert_eq!(
            call.files,
            [
                FileChange::Touched {
                    path: "/repo/new.ts",
                    action: FileAction::Write
                },
                FileChange::Touched {
                    path: "/repo/kept.ts",
                    action: FileAction::Edit
                },
                FileChange::Moved {
                    from: "/repo/old.ts",
                    to: "/repo/moved.ts"
                },
                FileChange::Deleted {
                    path: "/repo/gone.ts"
                },
            ]
        );
    }

    #[test]
    fn bash_takes_the_output_else_the_metadata_preview() {
        let call = decode(
            "bash",
            json!({"command": "npm test"}),
            json!({"output": "", "metadata": {"output": "preview", "exit": 1}}),
        );
        let shell = call.shell.unwrap();
        assert_eq!(
            (shell.command, shell.exit, shell.output.as_ref()),
            ("npm test", Some(1), "preview")
        );
    }

    #[test]
    fn grep_takes_at_most_ten_header_paths() {
        let fixture = "Found 2 matches\n/home/dev/demo/src/util.ts:\n  Line 1: export const x = 1;\n\n\n/home/dev/demo/src/index.ts:\n  Line 1: export function add(a: number, b: number) { return a + b; // sum }\n";
        assert_eq!(
            grep_files(fixture),
            ["/home/dev/demo/src/util.ts", "/home/dev/demo/src/index.ts"]
        );
        let many: String = (0..15)
            .map(|i| format!("/r/f{i}.ts:\n  Line 1: x\n"))
            .collect();
        assert_eq!(grep_files(&many).len(), SEARCH_FILES);
        assert!(grep_files("  /r/indented.ts:\nnot/absolute.ts:\n").is_empty());
        // Only the head of a huge output is read.
        let huge = format!(
            "/r/first.ts:\n{}/r/late.ts:\n",
            "  Line 1: x\n".repeat(10_000)
        );
        assert_eq!(grep_files(&huge), ["/r/first.ts"]);
    }

    #[test]
    fn other_tools_are_not_tracked() {
        for tool in ["glob", "list", "webfetch", "task"] {
            let call = decode(
                tool,
                json!({"pattern": "**/*.ts"}),
                json!({"output": "/repo/a.ts"}),
            );
            assert!(!call.is_tracked(), "{tool}");
            assert!(call.files.is_empty() && call.shell.is_none());
        }
    }

    fn usage(context: Value) -> Option<ContextUsage> {
        context_usage(&json!({"directory": "/repo", "sessionID": "s", "context": context})).unwrap()
    }

    #[test]
    fn context_usage_takes_the_total_else_the_sum_without_reasoning() {
        // As recorded: `total` present.
        let recorded = json!({
            "tokens": {"total": 100005, "input": 100000, "output": 5, "reasoning": 0,
                       "cache": {"write": 0, "read": 0}},
            "limit": {"context": 50000, "output": 1000},
        });
        assert_eq!(
            usage(recorded),
            Some(ContextUsage {
                tokens: 100_005,
                limit: 50_000
            })
        );
        // No total (as in the zero counts a message starts with): the parts, reasoning left
        // out.
        let parts = json!({
            "tokens": {"input": 30000, "output": 2000, "reasoning": 9000,
                       "cache": {"read": 5000, "write": 700}},
            "limit": {"context": 50000, "output": 1000},
        });
        assert_eq!(usage(parts).map(|u| u.tokens), Some(37_700));
        let zero_total = json!({
            "tokens": {"total": 0, "input": 10, "output": 5},
            "limit": {"context": 100},
        });
        assert_eq!(usage(zero_total).map(|u| u.tokens), Some(15));
    }

    #[test]
    fn context_usage_prefers_the_input_limit() {
        let tokens = json!({"total": 40000});
        let with_input =
            json!({"tokens": tokens, "limit": {"context": 200000, "input": 50000, "output": 8000}});
        assert_eq!(usage(with_input).map(|u| u.limit), Some(50_000));
        let zero_input = json!({"tokens": tokens, "limit": {"context": 200000, "input": 0}});
        assert_eq!(usage(zero_input).map(|u| u.limit), Some(200_000));
    }

    #[test]
    fn context_usage_is_none_when_a_count_is_missing_or_unreadable() {
        assert_eq!(
            context_usage(&json!({"directory": "/repo", "sessionID": "s"})).unwrap(),
            None
        );
        for context in [
            json!({"tokens": {"total": 15}}),
            json!({"limit": {"context": 50000}}),
            json!({"tokens": {"input": 0, "output": 0, "cache": {"read": 0, "write": 0}}, "limit": {"context": 50000}}),
            json!({"tokens": {"total": "99999"}, "limit": {"context": 50000}}),
            json!({"tokens": {"total": -5}, "limit": {"context": 50000}}),
            json!({"tokens": {"total": 1.5}, "limit": {"context": 50000}}),
            json!({"tokens": {"total": 15}, "limit": {"context": 0}}),
            json!({"tokens": {"total": 15}, "limit": {"context": "50000"}}),
            json!({"tokens": [15], "limit": 50000}),
        ] {
            assert_eq!(usage(context.clone()), None, "{context}");
        }
        assert!(context_usage(&json!({"context": "full"})).is_err());
    }
}
