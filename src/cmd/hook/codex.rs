//! `ocmem hook codex`: every Codex hook event, dispatched on its name.
//!
//! As with Claude Code, what a hook adds stays in the context for the rest of the session, so
//! the memory block is added when a session starts and the hot state again only when it
//! changed. What Codex's payloads lack (a command's exit status, a compaction's summary) is read
//! from the session's rollout file.

use std::path::Path;

use anyhow::Result;

use super::{changed_hot_state, fresh_block, off_at};
use crate::context::Context;
use crate::domain::session::event::{Compaction, SessionRef, ToolKind};
use crate::engine::promote::promote;
use crate::engine::record::record;
use crate::engine::session_end::ended;
use crate::host::codex::{command_exit, compaction_summary, decode, HookEvent};
use crate::host::json::parse_event;
use crate::store::transcript::read_tail;

/// What to print for the event in `stdin`.
pub fn execute(ctx: &Context, stdin: &[u8]) -> Result<String> {
    let event = parse_event(stdin)?;
    let event = decode(&event)?;
    if off_at(ctx, event.directory()) {
        return Ok(String::new());
    }
    Ok(match event {
        HookEvent::SessionStart {
            session,
            source,
            transcript,
        } => {
            if source == "compact" {
                promote_compaction(ctx, session, transcript)?;
            }
            fresh_block(ctx, session)?
        }
        HookEvent::UserPromptSubmit(prompt) => changed_hot_state(ctx, prompt, "UserPromptSubmit")?,
        HookEvent::ToolUse {
            mut call,
            transcript,
        } => {
            let rollout = match (call.kind, transcript) {
                (ToolKind::Shell, Some(path)) => read_tail(Path::new(path))?,
                _ => None,
            };
            if let (Some(run), Some(rollout)) = (call.shell.as_mut(), rollout.as_deref()) {
                run.exit = command_exit(rollout, call.call_id);
            }
            record(ctx, &call)?;
            String::new()
        }
        // Every `codex exec` process ends its session, also one resumed later: its state stays
        // until `gc --sweep` finds it idle.
        HookEvent::SessionEnd(session) => {
            ended(ctx, session)?;
            String::new()
        }
        HookEvent::Other { .. } => String::new(),
    })
}

/// Files the memory candidates of the compaction that restarted `session`: Codex's hooks carry
/// no summary, its rollout file does.
fn promote_compaction(ctx: &Context, session: SessionRef, transcript: Option<&str>) -> Result<()> {
    let Some(rollout) = transcript
        .map(|path| read_tail(Path::new(path)))
        .transpose()?
    else {
        return Ok(());
    };
    let Some(summary) = rollout.as_deref().and_then(compaction_summary) else {
        return Ok(());
    };
    promote(
        ctx,
        Compaction {
            session,
            summary: &summary,
        },
    )?;
    Ok(())
}
