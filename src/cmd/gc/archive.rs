//! The workspace-memory side of `gc`: `--sweep` moves entries superseded long ago to the
//! archive beside the store, and `--restore-archived ID` brings one back. Rules are in
//! `domain::memory::archive`, file handling in `store::archive`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use serde_json::json;

use crate::cli::Gc;
use crate::context::Context;
use crate::domain::memory::archive::Restored;
use crate::store::archive::{archive_due, archive_path, read_archive, restore_archived, Archived};
use crate::store::inventory::{scan, WorkspaceFiles};
use crate::store::Store;

pub(super) use crate::store::archive::ARCHIVE_FILE as ARCHIVE_NAME;

/// Moves the due entries of a workspace's memory store to its archive; the store's path and
/// what moved, or `None` when nothing did.
pub(super) fn archive_memory(
    store: &Store,
    workspace: &WorkspaceFiles,
    now_ms: i64,
    dry_run: bool,
) -> Result<Option<(PathBuf, Archived)>> {
    let Some(memory) = &workspace.memory else {
        return Ok(None);
    };
    Ok(archive_due(store, &memory.path, now_ms, dry_run)?.map(|a| (memory.path.clone(), a)))
}

/// `gc --restore-archived ID`: finds the archive holding `id` (in the workspace `--workspace`
/// names, else in any) and brings the entry back into that workspace's memory.
pub(super) fn restore(ctx: &Context, gc: &Gc, id: &str) -> Result<String> {
    let store = ctx.store();
    let only = gc
        .workspace
        .as_deref()
        .map(|dir| store.locate_workspace(&dir.to_string_lossy()).key);
    let mut holders = Vec::new();
    let mut memory_files: Vec<PathBuf> = scan(&ctx.data_dir, only.as_deref())?
        .iter()
        .map(|workspace| workspace.dir.join(crate::store::layout::MEMORY_FILE))
        .collect();
    // User memory's archive is searched too, unless one workspace was named.
    if only.is_none() {
        memory_files.push(store.user_memory_file());
    }
    for memory_file in memory_files {
        let archive = read_archive(&archive_path(&memory_file))?;
        if archive.is_some_and(|a| a.get(id).is_some()) {
            holders.push(memory_file);
        }
    }
    let memory_file = match holders.as_slice() {
        [one] => one.clone(),
        [] => bail!("no archived entry has the id {id:?}; nothing was changed"),
        _ => bail!(
            "{} workspaces have an archived entry with the id {id:?}; name one with --workspace",
            holders.len()
        ),
    };
    let restored = restore_archived(&store, &memory_file, id, ctx.now_ms)?;
    let (status, superseded) = match &restored {
        Restored::Restored { superseded } => ("restored", superseded.clone()),
        Restored::AlreadyLive => ("already-live", None),
    };
    if gc.json {
        let report =
            json!({"id": id, "status": status, "path": memory_file, "superseded": superseded});
        return Ok(format!("{report:#}\n"));
    }
    Ok(match restored {
        Restored::Restored { superseded } => format!(
            "restored {id} to {}{}\n",
            memory_file.display(),
            superseded.map_or(String::new(), |old| format!(" (superseding {old})"))
        ),
        Restored::AlreadyLive => format!(
            "{id} is in {} already; nothing changed\n",
            memory_file.display()
        ),
    })
}
