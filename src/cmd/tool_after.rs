//! `ocmem tool-after`: record one finished tool call (OpenCode `tool.execute.after`).

use anyhow::Result;
use serde_json::{json, Value};

use super::{run_hook, Run};
use crate::cli::ToolAfter;
use crate::context::Context;
use crate::engine::prune_output::pruned;
use crate::engine::record::{record, Recorded};
use crate::host::json::parse_event;
use crate::host::opencode;

impl Run for ToolAfter {
    fn run(&self, ctx: &Context) -> Result<()> {
        if self.prune {
            return run_hook(ctx, false, execute_pruning);
        }
        run_hook(ctx, self.json, execute)
    }
}

/// `--prune`: records the call as `execute` does, then returns its output cut down for the
/// model, or "" when it stays as it is (see `engine::prune_output`).
pub fn execute_pruning(ctx: &Context, stdin: &[u8], _json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let call = opencode::tool_call(&event)?;
    if super::off_for(ctx, call.session.directory) {
        return Ok(String::new());
    }
    record(ctx, &call)?;
    Ok(pruned(ctx, &call, opencode::tool_output(&event)))
}

/// Applies the event in `stdin`; returns the `--json` line when `json`, else "".
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let call = opencode::tool_call(&event)?;
    // An untracked call touches no workspace: only its --json line needs the check.
    if (json || call.is_tracked()) && super::off_for(ctx, call.session.directory) {
        return Ok(String::new());
    }
    let recorded = record(ctx, &call)?;
    if !json {
        return Ok(String::new());
    }
    Ok(format!("{}\n", json_line(call.tool, &recorded)?))
}

/// What `--json` prints for a recorded call of `tool`.
fn json_line(tool: &str, recorded: &Recorded) -> Result<Value> {
    Ok(match recorded {
        Recorded::Untracked => json!({"tool": tool, "tracked": false, "written": false}),
        Recorded::LeftNewer => {
            json!({"tool": tool, "tracked": true, "written": false, "leftNewer": true})
        }
        Recorded::Applied(applied) => {
            let mut line = serde_json::to_value(&applied.changes)?;
            if !applied.verified_counted.is_empty() {
                line["verifiedCounted"] = applied
                    .verified_counted
                    .iter()
                    .map(|s| json!({"category": s.category.as_str(), "command": s.command}))
                    .collect();
            }
            line["tool"] = json!(tool);
            line["tracked"] = json!(true);
            line["written"] = json!(applied.written);
            line["sessionFile"] = json!(applied.session_file.display().to_string());
            line
        }
    })
}
