//! The archive file beside a workspace memory store (`workspace-memory.archive.jsonl`): moving
//! entries into it and bringing one back, always under the store's lock. Rules are in
//! `domain::memory::archive`.
//!
//! Order makes it crash-safe: the entries are appended to the archive and synced before the
//! store is rewritten without them, so a crash in between leaves an entry in both places
//! (read back by id), never in neither.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use super::{Store, Stored, Updated};
use crate::domain::memory::archive::{
    archive_lines, is_due, put_back, restore, take_due, Archive, Restored,
};
use crate::domain::memory::workspace::WorkspaceMemory;

/// The archive's file name, beside `workspace-memory.json`.
pub const ARCHIVE_FILE: &str = "workspace-memory.archive.jsonl";

/// The archive of the memory store at `memory_file`.
pub fn archive_path(memory_file: &Path) -> PathBuf {
    // User memory's archive is named after it, beside it in the data directory.
    if memory_file.file_name() == Some(std::ffi::OsStr::new(super::user_memory::USER_MEMORY_FILE)) {
        return memory_file.with_file_name(USER_ARCHIVE_FILE);
    }
    memory_file.with_file_name(ARCHIVE_FILE)
}

/// The archive of user memory (`user-memory.json`).
pub const USER_ARCHIVE_FILE: &str = "user-memory.archive.jsonl";

/// What moving entries to the archive did (or, in a dry run, would do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Archived {
    pub entries: usize,
    /// How much smaller the live store got.
    pub bytes: u64,
}

/// Moves the entries of the memory store at `memory_file` that are due (superseded long ago)
/// to its archive. `None` when none is due, or the store is missing, corrupt or newer.
pub fn archive_due(
    store: &Store,
    memory_file: &Path,
    now_ms: i64,
    dry_run: bool,
) -> Result<Option<Archived>> {
    let Stored::Ok(mut snapshot) = store.snapshot::<WorkspaceMemory>(memory_file)? else {
        return Ok(None);
    };
    let size = |path: &Path| fs::metadata(path).map_or(0, |m| m.len());
    let before = size(memory_file);
    if dry_run {
        let due = take_due(&mut snapshot, now_ms);
        if due.is_empty() {
            return Ok(None);
        }
        let after = serde_json::to_string_pretty(&snapshot).map_or(0, |t| t.len() as u64 + 1);
        return Ok(Some(Archived {
            entries: due.len(),
            bytes: before.saturating_sub(after),
        }));
    }
    if !snapshot.entries.iter().any(|e| is_due(e, now_ms)) {
        return Ok(None);
    }
    let archive = archive_path(memory_file);
    let updated = store.update(
        memory_file,
        || WorkspaceMemory::new("", ""),
        |memory| {
            let due = take_due(memory, now_ms);
            if due.is_empty() {
                return Ok(0);
            }
            let lines = archive_lines(due.iter().map(|(_, e)| e), now_ms);
            match append_synced(&archive, lines.as_bytes()) {
                Ok(()) => Ok(due.len()),
                Err(e) => {
                    // Unchanged, so the store is not rewritten: nothing leaves it.
                    put_back(memory, due);
                    Err(e)
                }
            }
        },
    )?;
    match updated {
        Updated::Done { result, .. } => {
            let entries = result?;
            Ok((entries > 0).then(|| Archived {
                entries,
                bytes: before.saturating_sub(size(memory_file)),
            }))
        }
        Updated::LeftNewer => Ok(None),
    }
}

/// Brings the archived entry `id` back into the memory store at `memory_file`, under its lock.
pub fn restore_archived(
    store: &Store,
    memory_file: &Path,
    id: &str,
    now_ms: i64,
) -> Result<Restored> {
    let archive_file = archive_path(memory_file);
    let updated = store.update(
        memory_file,
        || WorkspaceMemory::new("", ""),
        |memory| {
            let archive = read_archive(&archive_file)?.unwrap_or_default();
            restore(memory, &archive, id, now_ms).map_err(anyhow::Error::msg)
        },
    )?;
    match updated {
        Updated::Done { result, .. } => result,
        Updated::LeftNewer => bail!(
            "{} was written by a newer ocmem; nothing was restored",
            memory_file.display()
        ),
    }
}

/// The archive at `path`, read-only; `None` when there is none.
pub fn read_archive(path: &Path) -> Result<Option<Archive>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(Archive::read(&String::from_utf8_lossy(&bytes)))),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Appends `bytes` (whole lines) to the archive, starting on a new line when a torn write
/// left the last one unfinished, and syncs it (and, for a new file, its directory).
fn append_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let created = !path.exists();
    let mut file = private_append()
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let torn = ends_without_newline(&mut file)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut text = Vec::with_capacity(bytes.len() + 1);
    if torn {
        text.push(b'\n');
    }
    text.extend_from_slice(bytes);
    file.write_all(&text)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot append to {}", path.display()))?;
    if created {
        if let Some(dir) = path.parent() {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .with_context(|| format!("cannot sync directory {}", dir.display()))?;
        }
    }
    Ok(())
}

fn ends_without_newline(file: &mut File) -> std::io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

fn private_append() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}
