//! Recording one finished tool call into its session: the hot state it changes, and the
//! validation commands it passed, counted in workspace memory.

use std::path::PathBuf;

use anyhow::Result;

use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::workspace::WorkspaceMemory;
use crate::domain::session::event::ToolCall;
use crate::domain::session::state::{OpenError, SessionState};
use crate::domain::session::tool_event::{self, Changes};
use crate::domain::shell::verified::{self, Step};
use crate::store::{Updated, Workspace};

/// What recording a call did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// The call cannot change the hot state: no store was read or written.
    Untracked,
    /// The session's store belongs to a newer ocmem and was left alone.
    LeftNewer,
    /// The call was applied to its session.
    Applied(Box<Applied>),
}

/// What applying a call to its session changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub changes: Changes,
    /// The validation steps the call passed for the first time in the session, now counted
    /// in workspace memory.
    pub verified_counted: Vec<Step>,
    /// Whether the session's store changed on disk.
    pub written: bool,
    pub session_file: PathBuf,
}

/// Applies `call` to its session's hot state, and counts the validation commands it passed
/// in workspace memory (the first pass of each in the session: see `verified`).
pub fn record(ctx: &Context, call: &ToolCall) -> Result<Recorded> {
    if !call.is_tracked() {
        return Ok(Recorded::Untracked);
    }
    let session_id = call.session.session_id;
    let store = ctx.store();
    let workspace = store.workspace(call.session.directory);
    store.note_host_call(&workspace, call.session.host);
    let path = workspace.session_file(session_id);
    let updated = store.update(
        &path,
        || SessionState::new(session_id),
        |state| {
            let open_before = state.open_errors.clone();
            let changes = tool_event::apply(state, call, ctx.now_ms);
            let fixed = fixed_summaries(&open_before, &changes.errors_cleared);
            let counted = match &call.shell {
                Some(shell) if !changes.duplicate => verified::count_in_session(
                    &mut state.verified_counted,
                    shell.command,
                    &shell.output,
                    shell.exit,
                ),
                _ => Vec::new(),
            };
            if !changes.is_empty() || !counted.is_empty() {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
                if state.session_id.is_empty() {
                    state.session_id = session_id.to_string();
                }
            }
            (changes, counted, fixed)
        },
    )?;
    Ok(match updated {
        Updated::Done {
            result: (changes, counted, fixed),
            written,
        } => {
            count_verified(ctx, &workspace, &counted)?;
            let passed: Vec<&str> = counted.iter().map(|s| s.command.as_str()).collect();
            store.note_outcomes(&workspace, call.session, &fixed, &passed)?;
            Recorded::Applied(Box::new(Applied {
                changes,
                verified_counted: counted,
                written,
                session_file: path,
            }))
        }
        Updated::LeftNewer => Recorded::LeftNewer,
    })
}

/// Adds the steps a session counted for the first time to the workspace's verified commands.
fn count_verified(ctx: &Context, workspace: &Workspace, counted: &[Step]) -> Result<()> {
    if counted.is_empty() {
        return Ok(());
    }
    ctx.store().update(
        &workspace.memory_file(),
        || WorkspaceMemory::new(&workspace.root, &workspace.key),
        |memory| {
            for step in counted {
                verified::record(&mut memory.verified_commands, step, ctx.now_ms);
            }
            memory.updated_at = format_rfc3339_ms(ctx.now_ms);
        },
    )?;
    Ok(())
}

/// The summaries of the errors of `open` whose ids were cleared.
fn fixed_summaries(open: &[OpenError], cleared: &[String]) -> Vec<String> {
    open.iter()
        .filter(|e| cleared.contains(&e.id))
        .map(|e| e.summary.clone())
        .collect()
}
