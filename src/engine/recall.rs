//! Recall on request: when the user's message asks what happened before, the renders of that
//! message add the previous session's digest to the hot state; any other message removes it,
//! so the block is otherwise what it would have been.

use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

use crate::domain::base::hash::sha256_hex;
use crate::domain::capture::explicit::recall_model::asks_to_recall_learned;
use crate::domain::session::digest::recollection::recollection;
use crate::domain::session::event::SessionRef;
use crate::domain::session::state::SessionState;
use crate::store::{Store, Workspace};

/// Where the session keeps the recollection of the message that asked for it.
const FIELD: &str = "recollection";

/// The recollection a session keeps, read before the render changes anything.
pub fn kept(state: Option<&SessionState>) -> Option<Value> {
    state.and_then(|s| s.extra.get(FIELD)).cloned()
}

/// The hot state `session_block` with the recollection the message `text` asked for, if any.
/// The recollection is made once per message and kept with the session, so every render of
/// that message shows the same bytes.
pub fn with_recollection(
    store: &Store,
    workspace: &Workspace,
    session: SessionRef,
    text: Option<&str>,
    kept: Option<&Value>,
    session_block: String,
) -> Result<String> {
    let Some(text) = text else {
        return Ok(session_block);
    };
    let path = workspace.session_file(session.session_id);
    if !asks_to_recall_learned(text) {
        if kept.is_some() {
            forget_kept(store, &path, session.session_id)?;
        }
        return Ok(session_block);
    }
    let key = sha256_hex(text)[..16].to_string();
    let recalled = match kept.filter(|k| k["for"] == key.as_str()) {
        Some(kept) => kept["text"].as_str().unwrap_or_default().to_string(),
        None => {
            let previous = store
                .digests(workspace)?
                .into_iter()
                .find(|d| d.session_id != session.session_id);
            let recalled = previous.map(|d| recollection(&d)).unwrap_or_default();
            keep(
                store,
                &path,
                session.session_id,
                json!({"for": key, "text": recalled}),
            )?;
            recalled
        }
    };
    Ok(match (session_block.is_empty(), recalled.is_empty()) {
        (_, true) => session_block,
        (true, false) => recalled,
        (false, false) => format!("{session_block}\n\n{recalled}"),
    })
}

fn keep(store: &Store, path: &Path, session_id: &str, value: Value) -> Result<()> {
    // A file a newer version owns is left alone: the recollection is shown, kept nowhere.
    store.update(
        path,
        || SessionState::new(session_id),
        |state| {
            state.extra.insert(FIELD.to_string(), value);
        },
    )?;
    Ok(())
}

fn forget_kept(store: &Store, path: &Path, session_id: &str) -> Result<()> {
    store.update(
        path,
        || SessionState::new(session_id),
        |state| {
            state.extra.remove(FIELD);
        },
    )?;
    Ok(())
}
