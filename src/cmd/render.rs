//! `ocmem render`: print the memory block for the system prompt, and capture what the user's
//! latest message asks to remember.

use anyhow::Result;
use serde_json::json;

use super::{run_hook, Run};
use crate::cli::Render;
use crate::context::Context;
use crate::engine::render::{raise_pressure, render, Rendered};
use crate::host::json::parse_event;
use crate::host::opencode;

impl Run for Render {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

/// The text to print for the event in `stdin`: the workspace block and the hot state,
/// separated by a blank line, and a newline; or nothing at all when both are empty.
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let prompt = opencode::prompt(&event)?;
    let usage = opencode::context_usage(&event)?;
    if super::off_for(ctx, prompt.session.directory) {
        return Ok(String::new());
    }
    if let Some(usage) = usage {
        raise_pressure(ctx, prompt.session, usage)?;
    }
    let rendered = render(ctx, prompt)?;
    if json {
        return Ok(json_line(&rendered));
    }
    Ok(rendered.text())
}

/// What `--json` prints for a render.
fn json_line(rendered: &Rendered) -> String {
    let mut line = json!({"workspace": rendered.workspace, "session": rendered.session});
    if let Some(count) = rendered.memories_over_limit.filter(|&n| n > 0) {
        line["memoriesOverLimit"] = json!(count);
    }
    if let Some(count) = rendered.memories_refused.filter(|&n| n > 0) {
        line["memoriesRefused"] = json!(count);
    }
    if let Some(count) = rendered.memories_set_aside.filter(|&n| n > 0) {
        line["memoriesSetAside"] = json!(count);
    }
    format!("{line}\n")
}
