//! Memory that survives a renamed or moved folder. A workspace's key is a hash of its root's
//! path, so a new path starts without memory. When a workspace has no directory in the data
//! directory yet, and it is the top of a git checkout, the stores of other workspaces are
//! looked at: one whose root no longer exists and whose recorded repository identity is this
//! checkout's (see `domain::memory::repository`) is adopted, by renaming its directory to the new key
//! (sessions, archive and markers go with it) and recording the new root.
//!
//! | the orphan's store                        | outcome                          |
//! |-------------------------------------------|----------------------------------|
//! | its root still exists (a second clone)    | left alone: separate memories    |
//! | no identity, or another repository        | left alone                       |
//! | corrupt, newer format, not a file         | left alone                       |
//! | two or more match                         | none adopted; one line says so   |
//! | exactly one matches                       | adopted; one line says so        |
//!
//! The one cost on an ordinary hook is a `stat` of the workspace directory. Git runs only when
//! an orphan of a compatible remote exists, to read this checkout's root commits.
//!
//! Locks: the orphan's memory lock is taken and held across the rename (its lock file moves
//! with the directory, so it is then the new store's lock), and the store is checked again
//! under it. The rename never replaces a directory a hook of the new workspace made meanwhile:
//! then nothing is adopted.

use std::fs::{self, DirBuilder, File};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result};
use serde::Deserialize;

use super::layout::MEMORY_FILE;
use super::lock::{self, Access, Locked};
use super::repository::{git_dirs, identity};
use super::{
    change_and_write, lock_path, read_contents, read_stored, Contents, Store, Stored, LOCK_WAIT,
};
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::repository::{remotes_agree, Adoption, Identity, ADOPTED_FIELD};
use crate::domain::memory::workspace::{WorkspaceInfo, WorkspaceMemory, MEMORY_VERSION};

use super::Workspace;

/// The store of a workspace whose root is gone.
#[derive(Debug, Clone)]
pub struct Orphan {
    pub dir: PathBuf,
    pub key: String,
    pub root: String,
    pub identity: Identity,
}

/// What a workspace without a store may adopt.
#[derive(Debug, Clone)]
pub enum Candidacy {
    Nothing,
    One(Orphan),
    /// Several orphans are this repository: which one to keep is the user's choice.
    Several(Vec<Orphan>),
}

/// The part of a memory store the search reads; the rest is skipped unparsed.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    version: u64,
    #[serde(default)]
    workspace: WorkspaceInfo,
}

impl Store {
    /// Where `directory`'s stores live, without adopting anything: for audits.
    pub fn locate_workspace(&self, directory: &str) -> Workspace {
        Workspace::locate(&self.data_dir, directory)
    }

    /// Adopts the store of a renamed or moved checkout when `workspace` has none yet (see the
    /// module). A failure is warned about and leaves `workspace` to start afresh.
    pub(super) fn adopt_orphan(&self, workspace: &Workspace) {
        if fs::symlink_metadata(&workspace.dir).is_ok() {
            return;
        }
        let result = match self.candidacy(workspace) {
            Ok(Candidacy::One(orphan)) => self.adopt(workspace, &orphan),
            Ok(Candidacy::Several(orphans)) => {
                let roots: Vec<&str> = orphans.iter().map(|o| o.root.as_str()).collect();
                eprintln!(
                    "ocmem: memories of {} (folders gone, same repository) all match {}; none adopted (`ocmem memory export --workspace <old folder>` and `ocmem memory import` bring one in)",
                    roots.join(", "),
                    workspace.root
                );
                Ok(())
            }
            Ok(Candidacy::Nothing) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            self.warn(&format!(
                "cannot adopt an earlier memory for {}: {e:#}",
                workspace.root
            ));
        }
    }

    /// What `workspace` would adopt. Reads only; runs git only when an orphan with a
    /// compatible remote exists.
    pub fn candidacy(&self, workspace: &Workspace) -> Result<Candidacy> {
        let Some(dirs) = git_dirs(Path::new(&workspace.root)) else {
            return Ok(Candidacy::Nothing);
        };
        let mut orphans = self.orphans(&workspace.key)?;
        if orphans.is_empty() {
            return Ok(Candidacy::Nothing);
        }
        let remote = dirs.remote();
        orphans.retain(|o| remotes_agree(o.identity.remote.as_deref(), remote.as_deref()));
        if orphans.is_empty() {
            return Ok(Candidacy::Nothing);
        }
        let Some(own) = identity(Path::new(&workspace.root)) else {
            return Ok(Candidacy::Nothing);
        };
        orphans.retain(|o| o.identity.same_repository(&own));
        Ok(match orphans.len() {
            0 => Candidacy::Nothing,
            1 => Candidacy::One(orphans.remove(0)),
            _ => Candidacy::Several(orphans),
        })
    }

    /// The stores, other than `key`'s, that carry an identity and whose root is gone.
    fn orphans(&self, key: &str) -> Result<Vec<Orphan>> {
        let workspaces = self.data_dir.join("workspaces");
        let entries = match fs::read_dir(&workspaces) {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot list {}", workspaces.display()))
            }
        };
        let mut orphans = Vec::new();
        for entry in entries.filter_map(|e| e.ok()) {
            // Never through a symbolic link: what it points at is not ours to move.
            if !entry.file_type().is_ok_and(|t| t.is_dir()) || entry.file_name() == key {
                continue;
            }
            if let Some(orphan) = orphan_at(&entry.path())? {
                orphans.push(orphan);
            }
        }
        orphans.sort_by(|a, b| a.root.cmp(&b.root));
        Ok(orphans)
    }

    /// Renames `orphan`'s directory to `workspace`'s and records the new root, under the
    /// orphan's memory lock.
    fn adopt(&self, workspace: &Workspace, orphan: &Orphan) -> Result<()> {
        let old_memory = orphan.dir.join(MEMORY_FILE);
        let Some(lock) = lock_orphan(&old_memory)? else {
            return Ok(());
        };
        let Stored::Ok(mut memory) = read_stored::<WorkspaceMemory>(&old_memory)? else {
            return Ok(());
        };
        if !still_orphan(&memory, orphan) {
            return Ok(());
        }
        let moved = move_dir_unless_taken(&orphan.dir, &workspace.dir).with_context(|| {
            format!(
                "cannot move {} to {}",
                orphan.dir.display(),
                workspace.dir.display()
            )
        })?;
        if !moved {
            return Ok(());
        }
        let adoption = Adoption {
            root: orphan.root.clone(),
            key: orphan.key.clone(),
            at: format_rfc3339_ms(self.now_ms),
        };
        // Still held: the lock file moved with its directory and is the new store's now.
        change_and_write(
            &workspace.memory_file(),
            &mut memory,
            |m| {
                m.workspace.root = workspace.root.clone();
                m.workspace.key = workspace.key.clone();
                m.workspace
                    .extra
                    .insert(ADOPTED_FIELD.into(), adoption.to_value());
            },
            || Ok(()),
        )?;
        drop(lock);
        eprintln!("ocmem: {}", adoption.notice(&workspace.root));
        Ok(())
    }

    /// The adoption `workspace`'s memory records, if any. Reads only.
    pub fn adoption(&self, workspace: &Workspace) -> Result<Option<Adoption>> {
        Ok(
            match self.snapshot::<WorkspaceMemory>(&workspace.memory_file())? {
                Stored::Ok(memory) => Adoption::from_workspace(&memory.workspace.extra),
                _ => None,
            },
        )
    }
}

/// The orphan in the workspace directory `dir`, when its memory store names a root that is
/// gone and carries an identity. A store that does not parse, or is of a newer format, is
/// not one: adopting it would take what cannot be read.
fn orphan_at(dir: &Path) -> Result<Option<Orphan>> {
    let Contents::Bytes(bytes) = read_contents(&dir.join(MEMORY_FILE))? else {
        return Ok(None);
    };
    let Ok(head) = serde_json::from_slice::<Head>(&bytes) else {
        return Ok(None);
    };
    let root = head.workspace.root;
    if head.version > MEMORY_VERSION || root.is_empty() || !is_gone(&root) {
        return Ok(None);
    }
    let Some(identity) = Identity::from_workspace(&head.workspace.extra) else {
        return Ok(None);
    };
    Ok(Some(Orphan {
        dir: dir.to_path_buf(),
        key: dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        root,
        identity,
    }))
}

/// Whether nothing is at `root` (an unreadable parent is not proof of that).
fn is_gone(root: &str) -> bool {
    matches!(fs::symlink_metadata(root), Err(e) if e.kind() == ErrorKind::NotFound)
}

/// Takes the lock of the orphan's memory store at `memory`, without ever making its directory
/// again: `None` when the store went meanwhile (adopted by a concurrent hook, which held the
/// lock while moving the directory away), or its lock path holds something else than a file
/// (left for the store's own hooks to move aside).
fn lock_orphan(memory: &Path) -> Result<Option<File>> {
    let lock_path = lock_path(memory);
    let deadline = Instant::now() + LOCK_WAIT;
    // An existing lock file first; one is made only for a store found without any.
    for create in [false, true] {
        match lock::lock(memory, &lock_path, Access::Exclusive, create, deadline) {
            Ok(Locked::Held(file)) => return Ok(Some(file)),
            Ok(Locked::Missing) => continue,
            Ok(Locked::NotAFile(_)) => return Ok(None),
            Err(_) if fs::symlink_metadata(memory).is_err() => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// Whether the store, read again under its lock, is still the orphan found.
fn still_orphan(memory: &WorkspaceMemory, orphan: &Orphan) -> bool {
    memory.workspace.root == orphan.root
        && is_gone(&orphan.root)
        && Identity::from_workspace(&memory.workspace.extra).as_ref() == Some(&orphan.identity)
}

/// Renames the directory `from` to `to` unless something is at `to` (a hook of the new
/// workspace made it first); returns whether it moved. Never replaces what is there.
fn move_dir_unless_taken(from: &Path, to: &Path) -> std::io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let c_path = |p: &Path| CString::new(p.as_os_str().as_bytes());
        let (from_c, to_c) = (c_path(from)?, c_path(to)?);
        // SAFETY: both are valid NUL-terminated paths, relative to the current directory.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from_c.as_ptr(),
                libc::AT_FDCWD,
                to_c.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if done == 0 {
            return Ok(true);
        }
        let error = std::io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EEXIST) => return Ok(false),
            // A file system or kernel without the flag: claim the name instead.
            Some(libc::EINVAL | libc::ENOSYS) => {}
            _ => return Err(error),
        }
    }
    claim_and_rename(from, to)
}

/// Creates `to` (so that no one else can) and renames `from` onto it, which replaces an empty
/// directory. A hook that sees the claimed directory before the rename starts without the
/// adopted memory; one that wrote into it meanwhile makes the rename fail, and `to` is kept.
fn claim_and_rename(from: &Path, to: &Path) -> std::io::Result<bool> {
    let mut builder = DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    match builder.create(to) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(e),
    }
    match fs::rename(from, to) {
        Ok(()) => Ok(true),
        Err(e) => {
            let _ = fs::remove_dir(to);
            Err(e)
        }
    }
}
