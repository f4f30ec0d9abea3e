//! `ocmem render`: print the memory block for the system prompt.

use anyhow::Result;
use serde_json::json;

use super::input::{directory, optional_str, parse_event, required_str};
use super::{run_hook, Run};
use crate::cli::Render;
use crate::context::Context;
use crate::domain::render::hot_state;
use crate::domain::session::SessionState;

impl Run for Render {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

/// The text to print for the event in `stdin`: the block and a newline, or nothing at all.
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let directory = directory(&event)?;
    let session_id = required_str(&event, "sessionID")?;
    // Checked now so a wrongly typed field fails today, not after the next upgrade.
    optional_str(&event, "prompt")?;
    optional_str(&event, "messageID")?;

    let store = ctx.store();
    let workspace = store.workspace(directory);
    let session: Option<SessionState> = store.read(&workspace.session_file(session_id))?;
    let session_block = session
        .map(|state| hot_state(&state, &workspace.root))
        .unwrap_or_default();
    let workspace_block = String::new();

    if json {
        let line = json!({"workspace": workspace_block, "session": session_block});
        return Ok(format!("{line}\n"));
    }
    let blocks: Vec<&str> = [workspace_block.as_str(), session_block.as_str()]
        .into_iter()
        .filter(|b| !b.is_empty())
        .collect();
    if blocks.is_empty() {
        return Ok(String::new());
    }
    Ok(format!("{}\n", blocks.join("\n\n")))
}
