//! `ocmem tool-after`: record one finished tool call (OpenCode `tool.execute.after`).

use anyhow::Result;
use serde_json::{json, Value};

use super::input::{
    directory, optional_object, parse_event, required_id, required_object, required_str,
};
use super::{run_hook, Run};
use crate::cli::ToolAfter;
use crate::context::Context;
use crate::domain::session::SessionState;
use crate::domain::time::format_rfc3339_ms;
use crate::domain::tool_event::{self, ToolCall};
use crate::store::Updated;

impl Run for ToolAfter {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

/// Applies the event in `stdin`; returns the `--json` line when `json`, else "".
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let directory = directory(&event)?;
    required_object(&event, "input")?;
    let tool = required_str(&event, "input.tool")?;
    let session_id = required_id(&event, "input.sessionID")?;
    let call_id = required_id(&event, "input.callID")?;
    let args = optional_object(&event, "input.args")?;
    let output = optional_object(&event, "output")?;

    if !tool_event::is_tracked(tool) {
        return Ok(report(
            json,
            &json!({"tool": tool, "tracked": false, "written": false}),
        ));
    }
    let call = ToolCall {
        tool,
        call_id,
        args,
        output,
        directory,
    };
    let store = ctx.store();
    let workspace = store.workspace(directory);
    let path = workspace.session_file(session_id);
    let updated = store.update(
        &path,
        || SessionState::new(session_id),
        |state| {
            let changes = tool_event::apply(state, &call, ctx.now_ms);
            if !changes.is_empty() {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
                if state.session_id.is_empty() {
                    state.session_id = session_id.to_string();
                }
            }
            changes
        },
    )?;
    let line = match updated {
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
    };
    Ok(report(json, &line))
}

fn report(json: bool, line: &Value) -> String {
    if json {
        format!("{line}\n")
    } else {
        String::new()
    }
}
