//! A session going idle, ending or deleted: what it did is kept in its digest (see
//! `store::digests`), which outlives its hot state.

use std::path::PathBuf;

use anyhow::Result;

use crate::context::Context;
use crate::domain::session::digest::Ending;
use crate::domain::session::event::SessionRef;
use crate::domain::session::state::SessionState;
use crate::store::{remove_dir_if_empty, Stored};

/// `session` ended: its digest is brought up to date as ended. Its hot state stays (a session
/// may be resumed) until `gc --sweep` finds it idle. The one event with nothing else to do
/// still says the host is calling.
pub fn ended(ctx: &Context, session: SessionRef) -> Result<()> {
    let store = ctx.store();
    store.note_host_call(&store.workspace(session.directory), session.host);
    store.keep_digest(session, Ending::End, None)?;
    Ok(())
}

/// `session` went idle: its digest catches up with its hot state.
pub fn went_idle(ctx: &Context, session: SessionRef) -> Result<()> {
    ctx.store().keep_digest(session, Ending::Idle, None)?;
    Ok(())
}

/// What deleting a session removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// The session's store.
    pub path: PathBuf,
    /// The bytes of the store removed; `None` when there was none.
    pub removed: Option<u64>,
    /// The tool outputs saved for the session, each with its bytes.
    pub outputs: Vec<(PathBuf, u64)>,
}

/// `session` was deleted: its digest is kept as ended, and its store, lock and saved tool
/// outputs are removed.
pub fn deleted(ctx: &Context, session: SessionRef) -> Result<Deleted> {
    let (directory, session_id) = (session.directory, session.session_id);
    let store = ctx.store();
    let workspace = store.workspace(directory);
    let path = workspace.session_file(session_id);
    // What the session did outlives its hot state.
    if let Stored::Ok(state) = store.snapshot::<SessionState>(&path)? {
        store.fold_digest(&workspace, session, Some(&state), Ending::End, None)?;
    }
    let removed = store.remove_store_if::<SessionState>(&path, |_| true)?;
    if let Some(sessions_dir) = path.parent() {
        // The workspace directory itself stays: it holds the workspace memory, or is swept.
        remove_dir_if_empty(sessions_dir)?;
    }
    let outputs = store.remove_session_outputs(&workspace, session_id)?;
    Ok(Deleted {
        path,
        removed,
        outputs,
    })
}
