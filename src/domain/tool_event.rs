//! Applying one OpenCode `tool.execute.after` call to a session's hot state.
//! Which tool field means what (OpenCode 1.18 tool ids and fields) lives here.

use serde::Serialize;
use serde_json::Value;

use super::active_files;
use super::extract::{head_lines, OUTPUT_HEAD_BYTES};
use super::open_errors::{self, BashRun, ErrorChanges};
use super::paths::{absolute, storable};
use super::session::{FileAction, SessionState};

/// At most this many files are taken from one grep output.
pub const GREP_FILES: usize = 10;

/// One finished tool call, as OpenCode passes it to `tool.execute.after`.
#[derive(Debug, Clone, Copy)]
pub struct ToolCall<'a> {
    pub tool: &'a str,
    pub call_id: &'a str,
    /// `input.args`
    pub args: &'a Value,
    /// `output` (title, output, metadata)
    pub output: &'a Value,
    /// The directory OpenCode runs in: relative paths are relative to it.
    pub directory: &'a str,
}

/// What one call changed, for `tool-after --json`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    /// The call was applied before: nothing was done.
    pub duplicate: bool,
    pub files_touched: Vec<String>,
    pub files_removed: Vec<String>,
    pub errors_added: Vec<String>,
    pub errors_seen_again: Vec<String>,
    pub errors_cleared: Vec<String>,
    pub errors_maybe_fixed: Vec<String>,
}

impl Changes {
    fn absorb(&mut self, errors: ErrorChanges) {
        self.errors_added.extend(errors.added);
        self.errors_seen_again.extend(errors.seen_again);
        self.errors_cleared.extend(errors.cleared);
        self.errors_maybe_fixed.extend(errors.maybe_fixed);
    }

    pub fn is_empty(&self) -> bool {
        self.files_touched.is_empty()
            && self.files_removed.is_empty()
            && self.errors_added.is_empty()
            && self.errors_seen_again.is_empty()
            && self.errors_cleared.is_empty()
            && self.errors_maybe_fixed.is_empty()
    }
}

/// Tools whose calls can change the hot state; the others need no store access at all.
pub fn is_tracked(tool: &str) -> bool {
    matches!(
        tool,
        "read" | "edit" | "write" | "apply_patch" | "grep" | "bash"
    )
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

/// Applies `call` to `state`. A call whose id was applied before changes nothing.
pub fn apply(state: &mut SessionState, call: &ToolCall, now_ms: i64) -> Changes {
    let mut changes = Changes::default();
    if state.has_applied(call.call_id) {
        changes.duplicate = true;
        return changes;
    }
    let dir = call.directory;
    match call.tool {
        "read" | "edit" | "write" => {
            let action = match call.tool {
                "read" => FileAction::Read,
                "edit" => FileAction::Edit,
                _ => FileAction::Write,
            };
            if let Some(path) = non_empty_str(&call.args["filePath"]) {
                touch(state, &mut changes, dir, path, action, now_ms);
            }
        }
        "apply_patch" => {
            let files = call.output["metadata"]["files"].as_array();
            for file in files.into_iter().flatten() {
                let Some(path) = non_empty_str(&file["filePath"]) else {
                    continue;
                };
                match (file["type"].as_str(), non_empty_str(&file["movePath"])) {
                    (Some("delete"), _) => forget(state, &mut changes, dir, path),
                    (_, Some(target)) => {
                        forget(state, &mut changes, dir, path);
                        touch(state, &mut changes, dir, target, FileAction::Edit, now_ms);
                    }
                    (Some("add"), None) => {
                        touch(state, &mut changes, dir, path, FileAction::Write, now_ms)
                    }
                    _ => touch(state, &mut changes, dir, path, FileAction::Edit, now_ms),
                }
            }
        }
        "grep" => {
            let text = call.output["output"].as_str().unwrap_or_default();
            for path in grep_files(text) {
                touch(state, &mut changes, dir, path, FileAction::Grep, now_ms);
            }
        }
        "bash" => {
            let run = BashRun {
                command: call.args["command"].as_str().unwrap_or_default(),
                output: bash_output(call.output),
                exit: exit_status(call.output),
            };
            changes.absorb(open_errors::apply_bash(&mut state.open_errors, run, now_ms));
        }
        _ => {}
    }
    if !changes.is_empty() {
        state.remember_applied(call.call_id);
    }
    changes
}

fn touch(
    state: &mut SessionState,
    changes: &mut Changes,
    directory: &str,
    path: &str,
    action: FileAction,
    now_ms: i64,
) {
    let Some(path) = storable(path) else {
        return;
    };
    let path = absolute(directory, &path);
    active_files::touch(&mut state.active_files, &path, action, now_ms);
    if matches!(action, FileAction::Edit | FileAction::Write) {
        let marked = open_errors::mark_maybe_fixed(&mut state.open_errors, directory, &path);
        changes.errors_maybe_fixed.extend(marked);
    }
    changes.files_touched.push(path);
}

fn forget(state: &mut SessionState, changes: &mut Changes, directory: &str, path: &str) {
    let Some(path) = storable(path) else {
        return;
    };
    let path = absolute(directory, &path);
    if active_files::forget(&mut state.active_files, &path) {
        changes.files_removed.push(path);
    }
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
            if files.len() == GREP_FILES {
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

    fn call<'a>(tool: &'a str, id: &'a str, args: &'a Value, output: &'a Value) -> ToolCall<'a> {
        ToolCall {
            tool,
            call_id: id,
            args,
            output,
            directory: "/repo",
        }
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
    fn read_edit_write_take_file_path_relative_to_the_directory() {
        let mut state = SessionState::new("s");
        let none = json!({});
        apply(
            &mut state,
            &call("read", "1", &json!({"filePath": "src/a.ts"}), &none),
            1,
        );
        apply(
            &mut state,
            &call("edit", "2", &json!({"filePath": "/repo/src/./a.ts"}), &none),
            2,
        );
        apply(
            &mut state,
            &call("write", "3", &json!({"filePath": "/repo/b.ts"}), &none),
            3,
        );
        assert_eq!(state.active_files.len(), 2);
        assert_eq!(state.active_files[0].path, "/repo/src/a.ts");
        assert_eq!(state.active_files[0].count, 2);
        assert_eq!(state.active_files[0].action, FileAction::Edit);
        assert_eq!(state.active_files[1].action, FileAction::Write);
    }

    #[test]
    fn duplicates_change_nothing() {
        let mut state = SessionState::new("s");
        let args = json!({"filePath": "/repo/a.ts"});
        let none = json!({});
        assert!(!apply(&mut state, &call("read", "c1", &args, &none), 1).duplicate);
        let before = state.clone();
        assert!(apply(&mut state, &call("read", "c1", &args, &none), 2).duplicate);
        assert_eq!(state, before);
    }

    #[test]
    fn apply_patch_follows_adds_updates_moves_and_deletes() {
        let mut state = SessionState::new("s");
        let none = json!({});
        apply(
            &mut state,
            &call("read", "0", &json!({"filePath": "/repo/old.ts"}), &none),
            1,
        );
        apply(
            &mut state,
            &call("read", "1", &json!({"filePath": "/repo/gone.ts"}), &none),
            1,
        );
        let output = json!({"metadata": {"files": [
            {"filePath": "/repo/new.ts", "type": "add"},
            {"filePath": "/repo/kept.ts", "type": "update"},
            {"filePath": "/repo/old.ts", "type": "move", "movePath": "/repo/moved.ts"},
            {"filePath": "/repo/gone.ts", "type": "delete"}
        ]}});
        let changes = apply(
            &mut state,
            &call("apply_patch", "2", &json!({"patchText": "…"}), &output),
            2,
        );
        let mut paths: Vec<(&str, FileAction)> = state
            .active_files
            .iter()
            .map(|f| (f.path.as_str(), f.action))
            .collect();
        paths.sort_by_key(|p| p.0);
        assert_eq!(
            paths,
            [
                ("/repo/kept.ts", FileAction::Edit),
                ("/repo/moved.ts", FileAction::Edit),
                ("/repo/new.ts", FileAction::Write)
            ]
        );
        assert_eq!(changes.files_removed, ["/repo/old.ts", "/repo/gone.ts"]);
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
        assert_eq!(grep_files(&many).len(), GREP_FILES);
        assert!(grep_files("  /r/indented.ts:\nnot/absolute.ts:\n").is_empty());
        // Only the head of a huge output is read.
        let huge = format!(
            "/r/first.ts:\n{}/r/late.ts:\n",
            "  Line 1: x\n".repeat(10_000)
        );
        assert_eq!(grep_files(&huge), ["/r/first.ts"]);
    }

    #[test]
    fn other_tools_change_nothing() {
        let mut state = SessionState::new("s");
        let output = json!({"output": "/repo/a.ts\n/repo/b.ts"});
        let changes = apply(
            &mut state,
            &call("glob", "g", &json!({"pattern": "**/*.ts"}), &output),
            1,
        );
        assert!(changes.is_empty());
        assert!(state.applied_calls.is_empty());
    }
}
