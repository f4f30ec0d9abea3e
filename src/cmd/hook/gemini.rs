//! `ocmem hook gemini`: every Gemini CLI hook event, dispatched on its name.
//!
//! What a hook adds stays in Gemini CLI's history until a compression replaces the history
//! with a summary. No hook fires after a compression, so BeforeAgent looks in the transcript
//! for one it has not seen, and then shows the whole block again; otherwise it shows the hot
//! state only when it changed.

use std::path::Path;

use anyhow::Result;

use super::claude_code::{no_message, shown_if_changed, start_afresh};
use crate::context::Context;
use crate::domain::digest::Ending;
use crate::domain::event::SessionRef;
use crate::domain::session::SessionState;
use crate::domain::time::format_rfc3339_ms;
use crate::engine::record::record;
use crate::engine::render::render;
use crate::host::gemini::{additional_context, decode, latest_compression, Derived, HookEvent};
use crate::host::json::parse_event;
use crate::store::{host_files, Updated};

/// What to print for the event in `stdin`.
pub fn execute(ctx: &Context, stdin: &[u8]) -> Result<String> {
    let event = parse_event(stdin)?;
    let derived = Derived::of(&event);
    let transcript = event["transcript_path"].as_str();
    let event = decode(&event, &derived)?;
    if directory(&event).is_some_and(|dir| crate::cmd::off_for(ctx, dir)) {
        return Ok(String::new());
    }
    Ok(match event {
        HookEvent::SessionStart(session) => {
            start_afresh(ctx, session)?;
            // The block shown now covers any compression the transcript already holds.
            newly_compressed(ctx, session, transcript)?;
            let rendered = render(ctx, no_message(session))?;
            shown_if_changed(ctx, session, &rendered.session)?;
            additional_context("SessionStart", rendered.text().trim_end())
        }
        HookEvent::BeforeAgent {
            prompt,
            transcript_path,
        } => {
            if newly_compressed(ctx, prompt.session, transcript_path)? {
                start_afresh(ctx, prompt.session)?;
                let rendered = render(ctx, prompt)?;
                shown_if_changed(ctx, prompt.session, &rendered.session)?;
                additional_context("BeforeAgent", rendered.text().trim_end())
            } else {
                let rendered = render(ctx, prompt)?;
                match shown_if_changed(ctx, prompt.session, &rendered.session)? {
                    Some(text) => additional_context("BeforeAgent", &text),
                    None => String::new(),
                }
            }
        }
        HookEvent::AfterTool(call) => {
            record(ctx, &call)?;
            String::new()
        }
        // A `gemini -p` session ends with every process and may be resumed: its state stays
        // until `gc --sweep` finds it idle.
        HookEvent::SessionEnd(session) => {
            let store = ctx.store();
            store.note_host_call(&store.workspace(session.directory), session.host);
            store.keep_digest(session, Ending::End, None)?;
            String::new()
        }
        HookEvent::Other { .. } => String::new(),
    })
}

fn directory<'a>(event: &HookEvent<'a>) -> Option<&'a str> {
    match event {
        HookEvent::SessionStart(session) | HookEvent::SessionEnd(session) => {
            Some(session.directory)
        }
        HookEvent::BeforeAgent { prompt, .. } => Some(prompt.session.directory),
        HookEvent::AfterTool(call) => Some(call.session.directory),
        HookEvent::Other { .. } => None,
    }
}

/// Whether the transcript records a compression this session's block was not shown after,
/// noting it as seen. An unreadable transcript records none.
fn newly_compressed(ctx: &Context, session: SessionRef, transcript: Option<&str>) -> Result<bool> {
    let text = transcript
        .and_then(|path| host_files::read(Path::new(path)).ok().flatten())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let Some(digest) = text.as_deref().and_then(latest_compression) else {
        return Ok(false);
    };
    let store = ctx.store();
    let path = store
        .workspace(session.directory)
        .session_file(session.session_id);
    let updated = store.update(
        &path,
        || SessionState::new(session.session_id),
        |state| {
            if state.seen_compression.as_deref() == Some(digest.as_str()) {
                return false;
            }
            state.seen_compression = Some(digest.clone());
            state.updated_at = format_rfc3339_ms(ctx.now_ms);
            true
        },
    )?;
    Ok(match updated {
        Updated::Done { result, .. } => result,
        Updated::LeftNewer => false,
    })
}
