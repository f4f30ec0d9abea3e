//! Starting afresh: a session whose context holds none of ocmem's blocks, or old ones (it
//! started, resumed, was cleared or compacted), is shown its whole block again, rendered from
//! memory as it stands now.

use anyhow::Result;

use super::changes::{shown_if_changed, update_session};
use super::render::{render, Rendered};
use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::session::event::{Prompt, SessionRef};

/// Forgets what `session` was shown: the block is rendered from memory as it stands now, its
/// pending memories are in it, and the hot state counts as never shown.
pub fn start_afresh(ctx: &Context, session: SessionRef) -> Result<()> {
    update_session(ctx, session, |state| {
        let before = state.clone();
        state.frozen_workspace_block = None;
        state.pending_memories = None;
        state.shown_hot_state = None;
        if *state != before {
            state.updated_at = format_rfc3339_ms(ctx.now_ms);
        }
    })?;
    Ok(())
}

/// The whole block to show for `prompt` in a context that holds none of it (after
/// `start_afresh`), its hot state noted as shown.
pub fn whole_block(ctx: &Context, prompt: Prompt) -> Result<Rendered> {
    let rendered = render(ctx, prompt)?;
    shown_if_changed(ctx, prompt.session, &rendered.session)?;
    Ok(rendered)
}

/// Whether the compression `digest` names is one `session`'s block was not shown after,
/// noting it as seen: for a host whose compressions fire no hook, and whose transcript tells
/// of them.
pub fn newly_compressed(ctx: &Context, session: SessionRef, digest: &str) -> Result<bool> {
    let newly = update_session(ctx, session, |state| {
        if state.seen_compression.as_deref() == Some(digest) {
            return false;
        }
        state.seen_compression = Some(digest.to_string());
        state.updated_at = format_rfc3339_ms(ctx.now_ms);
        true
    })?;
    Ok(newly.unwrap_or(false))
}
