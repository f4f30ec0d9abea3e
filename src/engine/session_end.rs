//! A session ending: what it did is kept in its digest (see `store::digests`), which outlives
//! its hot state.

use anyhow::Result;

use crate::context::Context;
use crate::domain::digest::Ending;
use crate::domain::event::SessionRef;

/// `session` ended: its digest is brought up to date as ended. Its hot state stays (a session
/// may be resumed) until `gc --sweep` finds it idle. The one event with nothing else to do
/// still says the host is calling.
pub fn ended(ctx: &Context, session: SessionRef) -> Result<()> {
    let store = ctx.store();
    store.note_host_call(&store.workspace(session.directory), session.host);
    store.keep_digest(session, Ending::End, None)?;
    Ok(())
}
