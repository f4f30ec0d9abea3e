//! `ocmem hook claude-code`: every Claude Code hook event, dispatched on its name.
//!
//! Everything a hook prints stays in Claude Code's context for the rest of the session (until
//! a compaction replaces it), so the memory block is printed when a session starts (startup,
//! resume, clear, compact) and the hot state again only when it changed.

use anyhow::Result;

use super::{changed_hot_state, fresh_block, off_at};
use crate::context::Context;
use crate::engine::instructions::instructions;
use crate::engine::promote::promote;
use crate::engine::record::record;
use crate::engine::session_end::ended;
use crate::host::claude_code::{decode, HookEvent};
use crate::host::json::parse_event;

/// What to print for the event in `stdin`.
pub fn execute(ctx: &Context, stdin: &[u8]) -> Result<String> {
    let event = parse_event(stdin)?;
    let event = decode(&event)?;
    if off_at(ctx, event.directory()) {
        return Ok(String::new());
    }
    Ok(match event {
        HookEvent::SessionStart { session, .. } => fresh_block(ctx, session)?,
        HookEvent::UserPromptSubmit(prompt) => changed_hot_state(ctx, prompt, "UserPromptSubmit")?,
        HookEvent::ToolUse(call) => {
            record(ctx, &call)?;
            String::new()
        }
        // Claude Code appends a PreCompact hook's plain output to the summariser's prompt.
        HookEvent::PreCompact(session) => instructions(ctx, session)?,
        HookEvent::PostCompact(compaction) => {
            promote(ctx, compaction)?;
            String::new()
        }
        // A `claude -p` session ends with every process and may be resumed: its state stays
        // until `gc --sweep` finds it idle.
        HookEvent::SessionEnd(session) => {
            ended(ctx, session)?;
            String::new()
        }
        HookEvent::Other { .. } => String::new(),
    })
}
