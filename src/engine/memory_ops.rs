//! The changes `ocmem memory` makes, as plain functions over any store in the workspace memory
//! format (a workspace's `workspace-memory.json`, or another store of the same shape), so that
//! other front ends (the agent's tools, a user-level store) make them the same way: under the
//! store's lock, written atomically, and not at all when a store is corrupt, newer than this
//! ocmem, or the change is refused.

use std::path::Path;

use anyhow::{anyhow, Result};

use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::workspace::{MemoryEntry, Merged, NewMemory, WorkspaceMemory};
use crate::domain::steer::edit::{self, Changed, Edited};
use crate::store::Store;

/// The memory store at `path` as it is; `None` when there is none. A corrupt or newer-version
/// store is an error.
pub fn read_store(store: &Store, path: &Path) -> Result<Option<WorkspaceMemory>> {
    store.read_for_person(path)
}

/// Changes the store at `path` (made by `fresh` when missing), noting the time of a change.
fn change<R>(
    store: &Store,
    path: &Path,
    fresh: impl FnOnce() -> WorkspaceMemory,
    change: impl FnOnce(&mut WorkspaceMemory) -> Result<R, String>,
) -> Result<R> {
    let now = format_rfc3339_ms(store.now_ms);
    let (result, _) = store.update_for_person(path, fresh, |memory| {
        let before = memory.entries.clone();
        let result = change(memory).map_err(|e| anyhow!(e))?;
        if memory.entries != before {
            memory.updated_at = now;
        }
        Ok(result)
    })?;
    Ok(result)
}

/// `change` on the entries of the store at `path`, which ids name: none when it is missing.
fn change_entries<R>(
    store: &Store,
    path: &Path,
    change_them: impl FnOnce(&mut WorkspaceMemory) -> Result<R, String>,
) -> Result<R> {
    change(store, path, || WorkspaceMemory::new("", ""), change_them)
}

/// What `add_to_store` did: the merge's outcome and the entry that now holds the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    pub merged: Merged,
    pub entry: Option<MemoryEntry>,
}

/// Adds `text` as a `manual` entry (see `edit::add`) to the store at `path`, made by
/// `fresh` when there is none yet.
pub fn add_to_store(
    store: &Store,
    path: &Path,
    fresh: impl FnOnce() -> WorkspaceMemory,
    text: &str,
    kind: Option<MemoryType>,
) -> Result<Added> {
    let now_ms = store.now_ms;
    change(store, path, fresh, |memory| {
        let merged = edit::add(memory, text, kind, now_ms)?;
        let entry = merged
            .id()
            .and_then(|id| memory.entries.iter().find(|e| e.id == id).cloned());
        Ok(Added { merged, entry })
    })
}

/// Replaces the text of entry `id` (see `edit::edit`) in the store at `path`.
pub fn edit_in_store(store: &Store, path: &Path, id: &str, text: &str) -> Result<Edited> {
    let now_ms = store.now_ms;
    change_entries(store, path, |memory| {
        let at = edit::find(&memory.entries, id)?;
        edit::edit(memory, at, text, now_ms)
    })
}

/// Forgets the entries `ids` name, all or none; returns each one's id and what happened.
pub fn forget_in_store(
    store: &Store,
    path: &Path,
    ids: &[String],
) -> Result<Vec<(String, Changed)>> {
    let now_ms = store.now_ms;
    change_entries(store, path, |memory| {
        let places = ids
            .iter()
            .map(|id| edit::find(&memory.entries, id))
            .collect::<Result<Vec<usize>, String>>()?;
        Ok(places
            .into_iter()
            .map(|at| {
                let changed = edit::forget(memory, at, now_ms);
                (memory.entries[at].id.clone(), changed)
            })
            .collect())
    })
}

/// Brings entry `id` of the store at `path` back as active; returns its id and what happened.
pub fn restore_in_store(store: &Store, path: &Path, id: &str) -> Result<(String, Changed)> {
    let now_ms = store.now_ms;
    change_entries(store, path, |memory| {
        let at = edit::find(&memory.entries, id)?;
        let changed = edit::restore(memory, at, now_ms);
        Ok((memory.entries[at].id.clone(), changed))
    })
}

/// Merges `news` (see `edit::import`) into the store at `path`, made by `fresh` when
/// there is none; returns what each did or why it was not stored.
pub fn import_into_store(
    store: &Store,
    path: &Path,
    fresh: impl FnOnce() -> WorkspaceMemory,
    news: Vec<NewMemory>,
) -> Result<Vec<Result<Merged, String>>> {
    let now_ms = store.now_ms;
    change(store, path, fresh, |memory| {
        Ok(edit::import(memory, news, now_ms))
    })
}
