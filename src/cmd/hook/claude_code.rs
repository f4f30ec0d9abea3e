//! `ocmem hook claude-code`: every Claude Code hook event, dispatched on its name.
//!
//! Everything a hook prints stays in Claude Code's context for the rest of the session (until
//! a compaction replaces it), so the memory block is printed when a session starts (startup,
//! resume, clear, compact) and the hot state again only when it changed.

use anyhow::Result;

use crate::context::Context;
use crate::domain::digest::Ending;
use crate::domain::event::{Prompt, SessionRef};
use crate::domain::render::hot_state_emptied;
use crate::domain::session::SessionState;
use crate::domain::time::format_rfc3339_ms;
use crate::engine::instructions::instructions;
use crate::engine::promote::promote;
use crate::engine::record::record;
use crate::engine::render::render;
use crate::host::claude_code::{additional_context, decode, HookEvent};
use crate::host::json::parse_event;
use crate::store::workspace::sha256_hex;
use crate::store::Updated;

/// What to print for the event in `stdin`.
pub fn execute(ctx: &Context, stdin: &[u8]) -> Result<String> {
    let event = parse_event(stdin)?;
    let event = decode(&event)?;
    if directory(&event).is_some_and(|dir| crate::cmd::off_for(ctx, dir)) {
        return Ok(String::new());
    }
    if let HookEvent::SessionEnd(session) = event {
        // The one event with nothing else to do still says the host is calling.
        let store = ctx.store();
        store.note_host_call(&store.workspace(session.directory), session.host);
        store.keep_digest(session, Ending::End, None)?;
    }
    Ok(match event {
        HookEvent::SessionStart { session, .. } => {
            start_afresh(ctx, session)?;
            let rendered = render(ctx, no_message(session))?;
            shown_if_changed(ctx, session, &rendered.session)?;
            additional_context("SessionStart", rendered.text().trim_end())
        }
        HookEvent::UserPromptSubmit(prompt) => {
            let rendered = render(ctx, prompt)?;
            match shown_if_changed(ctx, prompt.session, &rendered.session)? {
                Some(text) => additional_context("UserPromptSubmit", &text),
                None => String::new(),
            }
        }
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
        HookEvent::SessionEnd(_) | HookEvent::Other { .. } => String::new(),
    })
}

/// The directory of the session an event belongs to; `None` for an event ocmem ignores.
fn directory<'a>(event: &HookEvent<'a>) -> Option<&'a str> {
    match event {
        HookEvent::SessionStart { session, .. }
        | HookEvent::PreCompact(session)
        | HookEvent::SessionEnd(session) => Some(session.directory),
        HookEvent::UserPromptSubmit(prompt) => Some(prompt.session.directory),
        HookEvent::ToolUse(call) => Some(call.session.directory),
        HookEvent::PostCompact(compaction) => Some(compaction.session.directory),
        HookEvent::Other { .. } => None,
    }
}

pub fn no_message(session: SessionRef) -> Prompt {
    Prompt {
        session,
        message_id: None,
        text: None,
    }
}

/// A session (re)starts with a context that holds none of ocmem's blocks, or old ones: the
/// block is rendered from memory as it stands now, its pending memories are in it, and the
/// hot state counts as never shown.
pub fn start_afresh(ctx: &Context, session: SessionRef) -> Result<()> {
    let store = ctx.store();
    let path = store
        .workspace(session.directory)
        .session_file(session.session_id);
    store.update(
        &path,
        || SessionState::new(session.session_id),
        |state| {
            let before = state.clone();
            state.frozen_workspace_block = None;
            state.pending_memories = None;
            state.shown_hot_state = None;
            if *state != before {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
            }
        },
    )?;
    Ok(())
}

/// The hot state to show when it differs from what this session was last shown (an emptied
/// one says so), noting it as shown; `None` when it is unchanged.
pub fn shown_if_changed(
    ctx: &Context,
    session: SessionRef,
    hot_state: &str,
) -> Result<Option<String>> {
    let digest = (!hot_state.is_empty()).then(|| sha256_hex(hot_state)[..16].to_string());
    let store = ctx.store();
    let path = store
        .workspace(session.directory)
        .session_file(session.session_id);
    let updated = store.update(
        &path,
        || SessionState::new(session.session_id),
        |state| {
            if state.shown_hot_state == digest {
                return None;
            }
            let was_shown = state.shown_hot_state.is_some();
            state.shown_hot_state = digest.clone();
            state.updated_at = format_rfc3339_ms(ctx.now_ms);
            match (hot_state.is_empty(), was_shown) {
                (false, _) => Some(hot_state.to_string()),
                (true, true) => Some(hot_state_emptied()),
                (true, false) => None,
            }
        },
    )?;
    Ok(match updated {
        Updated::Done { result, .. } => result,
        Updated::LeftNewer => None,
    })
}
