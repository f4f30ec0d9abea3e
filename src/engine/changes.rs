//! Showing what changed: for a host that keeps everything a hook adds in its context, the hot
//! state is shown again only when it differs from what the session was last shown.

use anyhow::Result;

use super::render::render;
use crate::context::Context;
use crate::domain::base::hash::sha256_hex;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::prompt::hot_state::hot_state_emptied;
use crate::domain::session::event::{Prompt, SessionRef};
use crate::domain::session::state::SessionState;
use crate::store::Updated;

/// Renders for the user's message `prompt` and returns its hot state when it changed since
/// the session was last shown it (see `shown_if_changed`).
pub fn hot_state_if_changed(ctx: &Context, prompt: Prompt) -> Result<Option<String>> {
    let rendered = render(ctx, prompt)?;
    shown_if_changed(ctx, prompt.session, &rendered.session)
}

/// The hot state to show when it differs from what this session was last shown (an emptied
/// one says so), noting it as shown; `None` when it is unchanged.
pub fn shown_if_changed(
    ctx: &Context,
    session: SessionRef,
    hot_state: &str,
) -> Result<Option<String>> {
    let digest = (!hot_state.is_empty()).then(|| sha256_hex(hot_state)[..16].to_string());
    let shown = update_session(ctx, session, |state| {
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
    })?;
    Ok(shown.flatten())
}

/// Changes the stored state of `session` under its lock, starting from a fresh one when it has
/// none, and returns what `change` did; `None` when a newer ocmem wrote the state and it was
/// left as it is.
pub fn update_session<R>(
    ctx: &Context,
    session: SessionRef,
    change: impl FnOnce(&mut SessionState) -> R,
) -> Result<Option<R>> {
    let store = ctx.store();
    let path = store
        .workspace(session.directory)
        .session_file(session.session_id);
    let updated = store.update(&path, || SessionState::new(session.session_id), change)?;
    Ok(match updated {
        Updated::Done { result, .. } => Some(result),
        Updated::LeftNewer => None,
    })
}
