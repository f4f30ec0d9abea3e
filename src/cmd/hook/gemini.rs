//! `ocmem hook gemini`: every Gemini CLI hook event, dispatched on its name.
//!
//! What a hook adds stays in Gemini CLI's history until a compression replaces the history
//! with a summary. No hook fires after a compression, so BeforeAgent looks in the transcript
//! for one it has not seen, and then shows the whole block again; otherwise it shows the hot
//! state only when it changed.

use std::path::Path;

use anyhow::Result;

use super::{changed_hot_state, off_at};
use crate::context::Context;
use crate::domain::session::event::SessionRef;
use crate::engine::fresh_start::{newly_compressed, start_afresh, whole_block};
use crate::engine::record::record;
use crate::engine::render::no_message;
use crate::engine::session_end::ended;
use crate::host::gemini::{
    additional_context, decode, latest_compression, transcript_path, Derived, HookEvent,
};
use crate::host::json::parse_event;
use crate::store::host_files;

/// What to print for the event in `stdin`.
pub fn execute(ctx: &Context, stdin: &[u8]) -> Result<String> {
    let event = parse_event(stdin)?;
    let derived = Derived::of(&event);
    let transcript = transcript_path(&event);
    let event = decode(&event, &derived)?;
    if off_at(ctx, event.directory()) {
        return Ok(String::new());
    }
    Ok(match event {
        HookEvent::SessionStart(session) => {
            start_afresh(ctx, session)?;
            // The block shown now covers any compression the transcript already holds.
            compressed(ctx, session, transcript)?;
            let rendered = whole_block(ctx, no_message(session))?;
            additional_context("SessionStart", rendered.text().trim_end())
        }
        HookEvent::BeforeAgent {
            prompt,
            transcript_path,
        } => {
            if compressed(ctx, prompt.session, transcript_path)? {
                start_afresh(ctx, prompt.session)?;
                let rendered = whole_block(ctx, prompt)?;
                additional_context("BeforeAgent", rendered.text().trim_end())
            } else {
                changed_hot_state(ctx, prompt, "BeforeAgent")?
            }
        }
        HookEvent::AfterTool(call) => {
            record(ctx, &call)?;
            String::new()
        }
        // A `gemini -p` session ends with every process and may be resumed: its state stays
        // until `gc --sweep` finds it idle.
        HookEvent::SessionEnd(session) => {
            ended(ctx, session)?;
            String::new()
        }
        HookEvent::Other { .. } => String::new(),
    })
}

/// Whether the transcript records a compression this session's block was not shown after,
/// noting it as seen. An unreadable transcript records none.
fn compressed(ctx: &Context, session: SessionRef, transcript: Option<&str>) -> Result<bool> {
    let text = transcript
        .and_then(|path| host_files::read(Path::new(path)).ok().flatten())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let Some(digest) = text.as_deref().and_then(latest_compression) else {
        return Ok(false);
    };
    newly_compressed(ctx, session, &digest)
}
