//! `ocmem tool-after`: record one finished tool call (OpenCode `tool.execute.after`).

use anyhow::Result;
use serde_json::{json, Value};

use super::{run_hook, Run};
use crate::cli::ToolAfter;
use crate::context::Context;
use crate::domain::event::ToolCall;
use crate::domain::session::SessionState;
use crate::domain::time::format_rfc3339_ms;
use crate::domain::tool_event;
use crate::host::json::parse_event;
use crate::host::opencode;
use crate::store::Updated;

impl Run for ToolAfter {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

/// Applies the event in `stdin`; returns the `--json` line when `json`, else "".
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let call = opencode::tool_call(&event)?;
    Ok(report(json, &record(ctx, &call)?))
}

/// Applies `call` to its session's hot state; returns what changed, as `--json` prints it.
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
            let changes = tool_event::apply(state, call, ctx.now_ms);
            if !changes.is_empty() {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
                if state.session_id.is_empty() {
                    state.session_id = session_id.to_string();
                }
            }
            changes
        },
    )?;
    Ok(match updated {
        Updated::Done { result, written } => {
            let mut line = serde_json::to_value(result)?;
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

fn report(json: bool, line: &Value) -> String {
    if json {
        format!("{line}\n")
    } else {
        String::new()
    }
}
