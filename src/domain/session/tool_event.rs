//! Applying one finished tool call, decoded by its host (`src/host/`), to a session's hot
//! state: reads, edits, writes, greps and patches make files active; shell commands open and
//! clear errors (see `open_errors`).

use serde::Serialize;

use crate::domain::base::paths::{absolute, storable};
use crate::domain::session::active_files;
use crate::domain::session::event::{FileChange, ToolCall};
use crate::domain::session::open_errors::{self, BashRun, ErrorChanges};
use crate::domain::session::state::{FileAction, SessionState};

/// At most this many files are taken from one search: the first are the best matches, and a
/// search is a weak sign of work on a file.
pub const SEARCH_FILES: usize = 10;

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

/// Applies `call` to `state`. A call whose id was applied before changes nothing.
pub fn apply(state: &mut SessionState, call: &ToolCall, now_ms: i64) -> Changes {
    let mut changes = Changes::default();
    if state.has_applied(call.call_id) {
        changes.duplicate = true;
        return changes;
    }
    let dir = call.session.directory;
    for file in &call.files {
        match *file {
            FileChange::Touched { path, action } => {
                touch(state, &mut changes, dir, path, action, now_ms)
            }
            FileChange::Deleted { path } => forget(state, &mut changes, dir, path),
            FileChange::Moved { from, to } => {
                forget(state, &mut changes, dir, from);
                touch(state, &mut changes, dir, to, FileAction::Edit, now_ms);
            }
        }
    }
    if let Some(shell) = &call.shell {
        let run = BashRun {
            command: shell.command,
            output: &shell.output,
            exit: shell.exit,
        };
        changes.absorb(open_errors::apply_bash(&mut state.open_errors, run, now_ms));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::session::event::{SessionRef, ShellRun, ToolKind};

    const SESSION: SessionRef = SessionRef {
        host: crate::domain::base::host_name::HostName::OpenCode,
        directory: "/repo",
        session_id: "s",
    };

    fn call<'a>(kind: ToolKind, id: &'a str, files: Vec<FileChange<'a>>) -> ToolCall<'a> {
        ToolCall {
            session: SESSION,
            tool: "t",
            kind,
            call_id: id,
            files,
            shell: None,
        }
    }

    fn touched(path: &str, action: FileAction) -> FileChange<'_> {
        FileChange::Touched { path, action }
    }

    #[test]
    fn files_are_taken_relative_to_the_directory() {
        let mut state = SessionState::new("s");
        let read = call(
            ToolKind::Read,
            "1",
            vec![touched("src/a.ts", FileAction::Read)],
        );
        apply(&mut state, &read, 1);
        let edit = call(
            ToolKind::Edit,
            "2",
            vec![touched("/repo/src/./a.ts", FileAction::Edit)],
        );
        apply(&mut state, &edit, 2);
        let write = call(
            ToolKind::Write,
            "3",
            vec![touched("/repo/b.ts", FileAction::Write)],
        );
        apply(&mut state, &write, 3);
        assert_eq!(state.active_files.len(), 2);
        assert_eq!(state.active_files[0].path, "/repo/src/a.ts");
        assert_eq!(state.active_files[0].count, 2);
        assert_eq!(state.active_files[0].action, FileAction::Edit);
        assert_eq!(state.active_files[1].action, FileAction::Write);
    }

    #[test]
    fn duplicates_change_nothing() {
        let mut state = SessionState::new("s");
        let read = call(
            ToolKind::Read,
            "c1",
            vec![touched("/repo/a.ts", FileAction::Read)],
        );
        assert!(!apply(&mut state, &read, 1).duplicate);
        let before = state.clone();
        assert!(apply(&mut state, &read, 2).duplicate);
        assert_eq!(state, before);
    }

    #[test]
    fn patches_follow_adds_updates_moves_and_deletes() {
        let mut state = SessionState::new("s");
        for (id, path) in [("0", "/repo/old.ts"), ("1", "/repo/gone.ts")] {
            let read = call(ToolKind::Read, id, vec![touched(path, FileAction::Read)]);
            apply(&mut state, &read, 1);
        }
        let patch = call(
            ToolKind::Patch,
            "2",
            vec![
                touched("/repo/new.ts", FileAction::Write),
                touched("/repo/kept.ts", FileAction::Edit),
                FileChange::Moved {
                    from: "/repo/old.ts",
                    to: "/repo/moved.ts",
                },
                FileChange::Deleted {
                    path: "/repo/gone.ts",
                },
            ],
        );
        let changes = apply(&mut state, &patch, 2);
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
    fn shell_runs_open_and_clear_errors() {
        let mut state = SessionState::new("s");
        let mut run = |id: &'static str, exit: Option<i64>, output: &'static str| {
            let mut shell = call(ToolKind::Shell, id, Vec::new());
            shell.shell = Some(ShellRun {
                command: "npm run typecheck",
                exit,
                output: output.into(),
            });
            apply(&mut state, &shell, 1)
        };
        let tsc = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable.";
        assert!(
            run("a", None, tsc).is_empty(),
            "unknown status records nothing"
        );
        assert_eq!(run("b", Some(2), tsc).errors_added.len(), 1);
        assert_eq!(run("c", Some(0), "no errors").errors_cleared.len(), 1);
        assert!(state.open_errors.is_empty());
    }

    #[test]
    fn calls_that_touch_nothing_are_not_remembered() {
        let mut state = SessionState::new("s");
        let changes = apply(&mut state, &call(ToolKind::Other, "g", Vec::new()), 1);
        assert!(changes.is_empty());
        assert!(state.applied_calls.is_empty());
    }
}
