//! All disk access. Every store is a pretty-printed JSON file changed only by
//! read-modify-write under an exclusive lock on a separate `<file>.lock` (never renamed, so
//! every process locks the same inode), replaced atomically (temp file, fsync, rename, fsync
//! of the directory), and left alone when nothing changed. A file that does not parse is
//! quarantined as `<file>.corrupt-<unix ms>` (newest 3 kept) and replaced by a fresh store; a
//! file written by a newer format version is never overwritten.

pub mod archive;
pub mod inventory;
pub mod workspace;

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use fs2::FileExt;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub use workspace::Workspace;

use crate::domain::sweep::surplus_quarantined;

/// How long a hook waits for another process's lock before giving up.
pub const LOCK_WAIT: Duration = Duration::from_secs(2);
/// Quarantined copies kept per store.
pub const QUARANTINE_KEPT: usize = 3;

/// A JSON document kept in a store file.
pub trait Document: Serialize + DeserializeOwned {
    /// What to call it in messages, e.g. "session store".
    const KIND: &'static str;
    /// The newest `version` this build understands.
    const VERSION: u64;
    /// The `version` this document was read with.
    fn version(&self) -> u64;
}

impl Document for crate::domain::session::SessionState {
    const KIND: &'static str = "session store";
    const VERSION: u64 = crate::domain::session::SESSION_VERSION;
    fn version(&self) -> u64 {
        self.version
    }
}

impl Document for crate::domain::memory::WorkspaceMemory {
    const KIND: &'static str = "workspace memory";
    const VERSION: u64 = crate::domain::memory::MEMORY_VERSION;
    fn version(&self) -> u64 {
        self.version
    }
}

/// The result of a read-modify-write.
#[derive(Debug)]
pub enum Updated<R> {
    /// The change ran; `written` tells whether the file changed on disk.
    Done { result: R, written: bool },
    /// The file was written by a newer format version and was left untouched.
    LeftNewer,
}

pub use crate::domain::stored::Stored;

/// Disk access for one invocation. `now_ms` names quarantined files.
#[derive(Debug, Clone)]
pub struct Store {
    pub data_dir: PathBuf,
    pub now_ms: i64,
}

impl Store {
    pub fn new(data_dir: PathBuf, now_ms: i64) -> Self {
        Store { data_dir, now_ms }
    }

    pub fn workspace(&self, directory: &str) -> Workspace {
        Workspace::locate(&self.data_dir, directory)
    }

    /// Reads a store without locking (atomic replace means a reader never sees half a file).
    /// Missing, newer-version and (after quarantining it) corrupt files read as `None`.
    pub fn read<T: Document>(&self, path: &Path) -> Result<Option<T>> {
        match read_stored::<T>(path)? {
            Stored::Ok(doc) => Ok(Some(doc)),
            Stored::Missing => Ok(None),
            Stored::Newer(version) => {
                warn_newer::<T>(path, version);
                Ok(None)
            }
            Stored::Corrupt(_) => {
                // Quarantine under the lock, and only if it is still corrupt by then.
                let _lock = self.lock(path)?;
                match read_stored::<T>(path)? {
                    Stored::Ok(doc) => return Ok(Some(doc)),
                    Stored::Corrupt(reason) => self.quarantine::<T>(path, &reason)?,
                    Stored::Missing | Stored::Newer(_) => {}
                }
                Ok(None)
            }
        }
    }

    /// Reads a store for an audit: under a shared lock when its lock file exists (so a
    /// read-modify-write in progress finishes first), never creating, quarantining or
    /// changing anything.
    pub fn snapshot<T: Document>(&self, path: &Path) -> Result<Stored<T>> {
        let _lock = self.lock_shared_if_present(path)?;
        read_stored(path)
    }

    /// Locks `path`, reads it (or starts from `fresh()`), runs `change`, and writes the
    /// result back only when it differs from what was read.
    pub fn update<T: Document, R>(
        &self,
        path: &Path,
        fresh: impl FnOnce() -> T,
        change: impl FnOnce(&mut T) -> R,
    ) -> Result<Updated<R>> {
        let dir = path.parent().context("store path has no directory")?;
        create_private_dir(dir)?;
        let _lock = self.lock(path)?;
        let mut doc = match read_stored::<T>(path)? {
            Stored::Ok(doc) => doc,
            Stored::Missing => fresh(),
            Stored::Newer(version) => {
                warn_newer::<T>(path, version);
                return Ok(Updated::LeftNewer);
            }
            Stored::Corrupt(reason) => {
                self.quarantine::<T>(path, &reason)?;
                fresh()
            }
        };
        let (result, written) = change_and_write(path, &mut doc, change, || Ok(()))?;
        Ok(Updated::Done { result, written })
    }

    /// Takes the exclusive lock of `path`, waiting at most `LOCK_WAIT`.
    fn lock(&self, path: &Path) -> Result<File> {
        let lock_path = lock_path(path);
        if let Some(dir) = lock_path.parent() {
            create_private_dir(dir)?;
        }
        let file = private_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .with_context(|| format!("cannot open lock file {}", lock_path.display()))?;
        wait_for_lock(&file, path, &lock_path, FileExt::try_lock_exclusive)?;
        Ok(file)
    }

    /// Removes a store and its lock file, under the lock, when `remove(&snapshot)` still holds
    /// once the lock is taken (a hook may have used the store meanwhile). Returns the bytes
    /// removed, or `None` when it was kept or already gone.
    pub fn remove_store_if<T: Document>(
        &self,
        path: &Path,
        remove: impl FnOnce(&Stored<T>) -> bool,
    ) -> Result<Option<u64>> {
        let lock_path = lock_path(path);
        if !path.exists() {
            return Ok(None);
        }
        let _lock = self.lock(path)?;
        let stored = read_stored::<T>(path)?;
        if matches!(stored, Stored::Missing) || !remove(&stored) {
            return Ok(None);
        }
        let bytes = remove_file(path)?;
        // Removing the lock file while holding it: a process that opened it meanwhile
        // finds the store gone and starts afresh, as it would after the removal anyway.
        let lock_bytes = remove_file(&lock_path)?;
        Ok(Some(bytes + lock_bytes))
    }

    /// Removes the lock file of a store that no longer exists, if no process holds it.
    /// Returns whether it was removed.
    pub fn remove_unused_lock(&self, lock_path: &Path) -> Result<bool> {
        let file = match File::open(lock_path) {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot open lock file {}", lock_path.display()))
            }
        };
        if FileExt::try_lock_exclusive(&file).is_err() {
            return Ok(false);
        }
        let store = lock_path.with_extension("");
        if store.exists() {
            return Ok(false);
        }
        remove_file(lock_path)?;
        Ok(true)
    }

    /// Changes a store under its lock like `update`, but first copies the file as it was
    /// to `backup` (created afresh, never overwritten) when the change alters it. Corrupt
    /// and newer-version stores are left alone.
    pub fn update_with_backup<T: Document, R>(
        &self,
        path: &Path,
        backup: &Path,
        change: impl FnOnce(&mut T) -> R,
    ) -> Result<Stored<(R, bool)>> {
        let _lock = self.lock(path)?;
        let Some(original) = read_if_exists(path)? else {
            return Ok(Stored::Missing);
        };
        let mut doc = match parse::<T>(&original) {
            Stored::Ok(doc) => doc,
            Stored::Missing => return Ok(Stored::Missing),
            Stored::Corrupt(reason) => return Ok(Stored::Corrupt(reason)),
            Stored::Newer(version) => return Ok(Stored::Newer(version)),
        };
        let outcome = change_and_write(path, &mut doc, change, || write_backup(backup, &original))?;
        Ok(Stored::Ok(outcome))
    }

    /// A shared lock on `path`'s existing lock file, waiting at most `LOCK_WAIT`; `None` when
    /// there is no lock file (creating one would be a write).
    fn lock_shared_if_present(&self, path: &Path) -> Result<Option<File>> {
        let lock_path = lock_path(path);
        let file = match File::open(&lock_path) {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot open lock file {}", lock_path.display()))
            }
        };
        match wait_for_lock(&file, path, &lock_path, FileExt::try_lock_shared) {
            Ok(()) => Ok(Some(file)),
            // A writer stuck for that long must not stop an audit: replacement is atomic, so
            // the file read without the lock is still a whole version of it.
            Err(e) if e.is::<StoreBusy>() => {
                eprintln!(
                    "ocmem: warning: {} is locked by another process (waited {} s); reading it without the lock",
                    path.display(),
                    LOCK_WAIT.as_secs()
                );
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Moves a corrupt store aside as `<file>.corrupt-<ms>` and keeps the newest copies.
    fn quarantine<T: Document>(&self, path: &Path, reason: &str) -> Result<()> {
        let mut stamp = self.now_ms.max(0);
        let target = loop {
            let candidate = sibling(path, &format!(".corrupt-{stamp}"));
            if !candidate.exists() {
                break candidate;
            }
            stamp += 1;
        };
        fs::rename(path, &target).with_context(|| {
            format!(
                "cannot move corrupt {} aside to {}",
                path.display(),
                target.display()
            )
        })?;
        eprintln!(
            "ocmem: warning: {} {} could not be read ({}); moved it to {} and started afresh",
            T::KIND,
            path.display(),
            crate::domain::render::one_line(reason),
            target.display()
        );
        prune_quarantined(path)
    }
}

/// Another process held a store's lock for all of `LOCK_WAIT`.
#[derive(Debug)]
pub struct StoreBusy {
    pub path: PathBuf,
}

impl std::fmt::Display for StoreBusy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "store busy: {} is locked by another process (waited {} s); nothing was changed",
            self.path.display(),
            LOCK_WAIT.as_secs()
        )
    }
}

impl std::error::Error for StoreBusy {}

/// Retries `try_lock` with a growing pause until it succeeds or `LOCK_WAIT` has passed.
fn wait_for_lock(
    file: &File,
    path: &Path,
    lock_path: &Path,
    try_lock: fn(&File) -> std::io::Result<()>,
) -> Result<()> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match try_lock(file) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == ErrorKind::WouldBlock || is_contended(&e) => {
                if started.elapsed() >= LOCK_WAIT {
                    return Err(StoreBusy {
                        path: path.to_path_buf(),
                    }
                    .into());
                }
                sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(16));
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
    }
}

fn is_contended(e: &std::io::Error) -> bool {
    // fs2 reports a held lock as its own error kind on some platforms.
    e.raw_os_error() == fs2::lock_contended_error().raw_os_error()
}

fn warn_newer<T: Document>(path: &Path, version: u64) {
    eprintln!(
        "ocmem: warning: {} {} has format version {version}, newer than this ocmem understands ({}); leaving it untouched",
        T::KIND,
        path.display(),
        T::VERSION
    );
}

/// A store's bytes as a document, or why they are not one (never `Missing`).
fn parse<T: Document>(bytes: &[u8]) -> Stored<T> {
    // Straight into the document first: going through a `Value` tree costs more than twice as
    // much, which on a store of thousands of entries is most of a render. Anything that does
    // not parse that way, or claims a newer version, is judged by the exact path below.
    let is_object = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_object {
        if let Ok(doc) = serde_json::from_slice::<T>(bytes) {
            if doc.version() <= T::VERSION {
                return Stored::Ok(doc);
            }
        }
    }
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => return Stored::Corrupt(format!("not valid JSON: {e}")),
    };
    if !value.is_object() {
        return Stored::Corrupt("not a JSON object".into());
    }
    match value.get("version") {
        None => {}
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) if v > T::VERSION => return Stored::Newer(v),
            Some(_) => {}
            None => return Stored::Corrupt(format!("bad version {n}")),
        },
        Some(other) => return Stored::Corrupt(format!("bad version {other}")),
    }
    match serde_json::from_value(value) {
        Ok(doc) => Stored::Ok(doc),
        Err(e) => Stored::Corrupt(e.to_string()),
    }
}

/// The store at `path` as it is on disk.
fn read_stored<T: Document>(path: &Path) -> Result<Stored<T>> {
    Ok(match read_if_exists(path)? {
        None => Stored::Missing,
        Some(bytes) => parse(&bytes),
    })
}

/// Runs `change` on `doc` and, when that changed its JSON, calls `before_write` and replaces
/// the file atomically. Returns the change's result and whether the file was written.
fn change_and_write<T: Serialize, R>(
    path: &Path,
    doc: &mut T,
    change: impl FnOnce(&mut T) -> R,
    before_write: impl FnOnce() -> Result<()>,
) -> Result<(R, bool)> {
    let before = to_pretty_json(doc)?;
    let result = change(doc);
    let after = to_pretty_json(doc)?;
    let written = before != after;
    if written {
        before_write()?;
        write_atomically(path, after.as_bytes())?;
    }
    Ok((result, written))
}

fn to_pretty_json<T: Serialize>(doc: &T) -> Result<String> {
    let mut text = serde_json::to_string_pretty(doc).context("cannot serialize store")?;
    text.push('\n');
    Ok(text)
}

fn read_if_exists(path: &Path) -> Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The lock file of the store at `path`: `<file>.lock`, never renamed.
pub fn lock_path(path: &Path) -> PathBuf {
    sibling(path, ".lock")
}

/// `path` with `suffix` appended to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The name prefix of temp files written next to `path` (`inventory::classify` knows it).
fn temp_prefix(path: &Path) -> String {
    format!(
        "{}.tmp-",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let unique = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let temp = path.with_file_name(format!(
        "{}{}-{unique}",
        temp_prefix(path),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut file = private_options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| format!("cannot create {}", temp.display()))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_data())
            .with_context(|| format!("cannot write {}", temp.display()))?;
        fs::rename(&temp, path).with_context(|| format!("cannot replace {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result?;
    if let Some(dir) = path.parent() {
        // Makes the rename itself durable.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .with_context(|| format!("cannot sync directory {}", dir.display()))?;
    }
    Ok(())
}

fn prune_quarantined(path: &Path) -> Result<()> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    let store_name = path.file_name().unwrap_or_default().to_string_lossy();
    let copies: Vec<(u64, PathBuf)> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            match inventory::quarantined_copy(&name)? {
                (store, stamp) if store == store_name => Some((stamp, entry.path())),
                _ => None,
            }
        })
        .collect();
    let stamps: Vec<u64> = copies.iter().map(|(stamp, _)| *stamp).collect();
    for index in surplus_quarantined(&stamps, QUARANTINE_KEPT) {
        let old = &copies[index].1;
        fs::remove_file(old).with_context(|| format!("cannot remove {}", old.display()))?;
    }
    Ok(())
}

/// Removes a file; returns its size, or 0 when it was already gone.
pub fn remove_file(path: &Path) -> Result<u64> {
    let bytes = match fs::symlink_metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("cannot inspect {}", path.display())),
    };
    match fs::remove_file(path) {
        Ok(()) => Ok(bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// Removes a directory when it is empty; returns whether it did.
pub fn remove_dir_if_empty(dir: &Path) -> Result<bool> {
    match fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Ok(false);
            }
        }
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    }
    match fs::remove_dir(dir) {
        Ok(()) => Ok(true),
        // Something was created meanwhile: keep it.
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(_) if fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot remove directory {}", dir.display())),
    }
}

/// Writes a backup copy, durably, refusing to replace an existing file.
fn write_backup(backup: &Path, bytes: &[u8]) -> Result<()> {
    let dir = backup.parent().context("backup path has no directory")?;
    create_private_dir(dir)?;
    let mut file = private_options()
        .write(true)
        .create_new(true)
        .open(backup)
        .with_context(|| format!("cannot create backup {}", backup.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write backup {}", backup.display()))
}

fn create_private_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))
}

fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}
