//! `ocmem tool-after`: record one finished tool call (OpenCode `tool.execute.after`).

use anyhow::Result;
use serde_json::{json, Value};

use super::{run_hook, Run};
use crate::cli::ToolAfter;
use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::workspace::WorkspaceMemory;
use crate::domain::session::event::ToolCall;
use crate::domain::session::state::{OpenError, SessionState};
use crate::domain::session::tool_event;
use crate::domain::shell::verified::{self, Step};
use crate::host::json::parse_event;
use crate::host::opencode;
use crate::store::Updated;

impl Run for ToolAfter {
    fn run(&self, ctx: &Context) -> Result<()> {
        if self.prune {
            return run_hook(ctx, false, execute_pruning);
        }
        run_hook(ctx, self.json, execute)
    }
}

/// `--prune`: records the call as `execute` does, then returns its output cut down for the
/// model, or "" when it stays as it is (see `prune_output`).
pub fn execute_pruning(ctx: &Context, stdin: &[u8], _json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let call = opencode::tool_call(&event)?;
    if super::off_for(ctx, call.session.directory) {
        return Ok(String::new());
    }
    record(ctx, &call)?;
    Ok(super::prune_output::pruned(
        ctx,
        &call,
        opencode::tool_output(&event),
    ))
}

/// Applies the event in `stdin`; returns the `--json` line when `json`, else "".
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let call = opencode::tool_call(&event)?;
    // An untracked call touches no workspace: only its --json line needs the check.
    if (json || call.is_tracked()) && super::off_for(ctx, call.session.directory) {
        return Ok(String::new());
    }
    Ok(report(json, &record(ctx, &call)?))
}

/// Applies `call` to its session's hot state, and counts the validation commands it passed
/// in workspace memory (the first pass of each in the session: see `verified`); returns what
/// changed, as `--json` prints it.
pub fn record(ctx: &Context, call: &ToolCall) -> Result<Value> {
    let tool = call.tool;
    if !call.is_tracked() {
        return Ok(json!({"tool": tool, "tracked": false, "written": false}));
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
            result: (result, counted, fixed),
            written,
        } => {
            count_verified(ctx, &workspace, &counted)?;
            let passed: Vec<&str> = counted.iter().map(|s| s.command.as_str()).collect();
            store.note_outcomes(&workspace, call.session, &fixed, &passed)?;
            let mut line = serde_json::to_value(result)?;
            if !counted.is_empty() {
                line["verifiedCounted"] = counted
                    .iter()
                    .map(|s| json!({"category": s.category.as_str(), "command": s.command}))
                    .collect();
            }
            line["tool"] = json!(tool);
            line["tracked"] = json!(true);
            line["written"] = json!(written);
            line["sessionFile"] = json!(path.display().to_string());
            line
        }
        Updated::LeftNewer => {
            json!({"tool": tool, "tracked": true, "written": false, "leftNewer": true})
        }
    })
}

/// Adds the steps a session counted for the first time to the workspace's verified commands.
fn count_verified(
    ctx: &Context,
    workspace: &crate::store::Workspace,
    counted: &[Step],
) -> Result<()> {
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

fn report(json: bool, line: &Value) -> String {
    if json {
        format!("{line}\n")
    } else {
        String::new()
    }
}

/// The summaries of the errors of `open` whose ids were cleared.
fn fixed_summaries(open: &[OpenError], cleared: &[String]) -> Vec<String> {
    open.iter()
        .filter(|e| cleared.contains(&e.id))
        .map(|e| e.summary.clone())
        .collect()
}
