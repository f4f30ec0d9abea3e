//! The output economy: a long bash, grep, glob or list output cut down for the model (rules in
//! `domain::shell::prune`), its whole text saved under the data directory, and one last line saying
//! where. OpenCode's `tool-after --prune` prints it in place of the output.

use anyhow::Result;

use crate::context::{pruning_on, Context};
use crate::domain::base::text::human_bytes;
use crate::domain::session::event::ToolCall;
use crate::domain::session::pressure::prune_limits;
use crate::domain::session::state::SessionState;
use crate::domain::shell::prune::{may_prune, prune};
use crate::store::Stored;

/// What the model gets instead of `output`, or "" when it stays as it is. Never fails: a
/// failure is logged, and the output stays whole.
pub fn pruned(ctx: &Context, call: &ToolCall, output: &str) -> String {
    // Most outputs are short: known without reading the session's store.
    if !pruning_on() || !may_prune(call.tool, output) {
        return String::new();
    }
    match try_pruned(ctx, call, output) {
        Ok(text) => text,
        Err(e) => {
            ctx.store().warn(&format!("tool output left whole: {e:#}"));
            String::new()
        }
    }
}

fn try_pruned(ctx: &Context, call: &ToolCall, output: &str) -> Result<String> {
    let store = ctx.store();
    let workspace = store.locate_workspace(call.session.directory);
    let session_id = call.session.session_id;
    // Read only: an untracked call has no reason to create or repair the session's store.
    let pressure = match store.snapshot::<SessionState>(&workspace.session_file(session_id))? {
        Stored::Ok(state) => state.context_pressure,
        _ => None,
    };
    let Some(pruned) = prune(call.tool, output, prune_limits(pressure.as_ref())) else {
        return Ok(String::new());
    };
    let path = workspace.output_file(session_id, call.call_id);
    let saved = store.save_output(&path, output)?;
    let mut text = pruned.text;
    text.push_str(&format!(
        "[ocmem: {} of {} lines shown. The whole output ({} lines, {}{}) is saved at {}: read it with offset and limit, or grep it]\n",
        pruned.kept_lines,
        pruned.lines,
        saved.lines,
        human_bytes(saved.bytes),
        if saved.cut { ", cut" } else { "" },
        path.display()
    ));
    Ok(text)
}
