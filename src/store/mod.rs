//! All disk access. Every store is a pretty-printed JSON file changed only by
//! read-modify-write under an exclusive lock on a separate `<file>.lock` (see `lock` for the
//! protocol), replaced atomically (temp file, rename; fsyncs of the file and the directory
//! only for a `Document::DURABLE` kind), and left alone when nothing changed. A file that does not parse, or that is not a regular file (a
//! directory, a FIFO), is quarantined as `<file>.corrupt-<unix ms>` (newest 3 kept) and
//! replaced by a fresh store; the same goes for a lock path holding anything but a regular
//! file. A file written by a newer format version is never overwritten.
//!
//! A symbolic link at a store path is read through (it may point at a restored copy); a write
//! replaces the link itself with a regular file, leaving its target alone. A lock file is
//! never opened through a link.
//!
//! Every warning goes through `Store::warn`: a line on stderr, and the same in the warnings
//! log (`warnings`), since a hook's stderr is seldom seen. The one warning an audit can give
//! (a lock busy too long) is printed only: an audit writes nothing.

pub mod adopt;
pub mod archive;
pub mod digests;
pub mod host_calls;
pub mod host_files;
pub mod inventory;
pub mod layout;
mod lock;
pub mod memory_top;
pub mod outputs;
mod person;
pub mod repository;
pub mod sessions;
pub mod switch;
pub mod team;
pub mod transcript;
pub mod user_memory;
pub mod warnings;
pub mod workspace;

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub use workspace::Workspace;

use crate::domain::base::host_name::HostName;
use crate::domain::memory::workspace::{block_memory, WorkspaceMemory};
use crate::domain::upkeep::sweep::surplus_quarantined;

use lock::{Access, Locked};
pub use lock::{StoreBusy, LOCK_WAIT};
/// Quarantined copies kept per store.
pub const QUARANTINE_KEPT: usize = 3;

/// A JSON document kept in a store file.
pub trait Document: Serialize + DeserializeOwned + Clone + PartialEq {
    /// What to call it in messages, e.g. "session store".
    const KIND: &'static str;
    /// The newest `version` this build understands.
    const VERSION: u64;
    /// Whether a write is on disk (file data and the rename, both fsynced) before the hook
    /// returns. Without it a write is still atomic for every reader, but a power cut may
    /// lose the last writes, or leave a file empty, which the next hook quarantines.
    const DURABLE: bool;
    /// The `version` this document was read with.
    fn version(&self) -> u64;
    /// Called once `bytes`, this document, replaced the file at `path`, under its lock.
    fn written(&self, _path: &Path, _bytes: &[u8]) {}
    /// Called, under its lock, when a change to this document is about to be written.
    fn completing_write(&mut self) {}
}

/// The hot state of a session is rebuilt by the next tool calls: a power cut may cost a few
/// of them. Memory is what the user asked to keep: never lost.
impl Document for crate::domain::session::state::SessionState {
    const KIND: &'static str = "session store";
    const VERSION: u64 = crate::domain::session::state::SESSION_VERSION;
    const DURABLE: bool = false;
    fn version(&self) -> u64 {
        self.version
    }
}

impl Document for WorkspaceMemory {
    const KIND: &'static str = "workspace memory";
    const VERSION: u64 = crate::domain::memory::workspace::MEMORY_VERSION;
    const DURABLE: bool = true;
    fn version(&self) -> u64 {
        self.version
    }
    fn written(&self, path: &Path, bytes: &[u8]) {
        memory_top::write_top(path, bytes, self);
    }
    fn completing_write(&mut self) {
        repository::record_identity(self);
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

pub use crate::domain::base::stored::Stored;

/// Disk access for one invocation. `now_ms` names quarantined files and dates warnings.
#[derive(Debug, Clone)]
pub struct Store {
    pub data_dir: PathBuf,
    pub now_ms: i64,
    /// The host whose hook is running, for the warnings log; `None` outside a hook.
    pub host: Option<HostName>,
}

impl Store {
    pub fn new(data_dir: PathBuf, now_ms: i64) -> Self {
        Store {
            data_dir,
            now_ms,
            host: None,
        }
    }

    /// The same store, its warnings logged as `host`'s.
    pub fn with_host(self, host: HostName) -> Self {
        Store {
            host: Some(host),
            ..self
        }
    }

    /// Prints a warning on stderr and appends it to the warnings log (see `warnings`).
    pub fn warn(&self, text: &str) {
        print_warning(text);
        self.log_warning(text);
    }

    /// Appends a warning to the warnings log only: for a hook that must stay quiet.
    pub fn log_warning(&self, text: &str) {
        warnings::record(&self.data_dir, self.now_ms, self.host, text);
    }

    /// `log_warning`, unless the log's latest warnings already hold the same text.
    pub fn log_warning_once(&self, text: &str) {
        warnings::record_once(&self.data_dir, self.now_ms, self.host, text);
    }

    /// Where `directory`'s stores live; a renamed or moved checkout's memory is adopted first
    /// (see `adopt`).
    pub fn workspace(&self, directory: &str) -> Workspace {
        let workspace = Workspace::locate(&self.data_dir, directory);
        self.adopt_orphan(&workspace);
        workspace
    }

    /// Reads a store without locking (atomic replace means a reader never sees half a file).
    /// Missing, newer-version and (after quarantining it) corrupt files read as `None`.
    pub fn read<T: Document>(&self, path: &Path) -> Result<Option<T>> {
        match read_stored::<T>(path)? {
            Stored::Ok(doc) => Ok(Some(doc)),
            Stored::Missing => Ok(None),
            Stored::Newer(version) => {
                self.warn_newer::<T>(path, version);
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

    /// Reads workspace memory for its block, like `read`, but from the top entries written
    /// beside it when they were made from the file as it is now (see `memory_top`). The
    /// memory returned holds only the entries `render_block` shows: it is for that alone.
    pub fn read_block_memory(&self, path: &Path) -> Result<Option<WorkspaceMemory>> {
        // Hashed a piece at a time: reading the whole file into memory would cost more than
        // the hash.
        if let Opened::File(file, _) = open_contents(path)? {
            if let Some(top) = memory_top::read_top(path, file) {
                return Ok(Some(top));
            }
        }
        let Contents::Bytes(bytes) = read_contents(path)? else {
            return self.read(path);
        };
        match parse::<WorkspaceMemory>(&bytes) {
            Stored::Ok(memory) => {
                memory_top::write_top(path, &bytes, &memory);
                Ok(Some(block_memory(&memory)))
            }
            // Warned about, or quarantined under the lock, as `read` does.
            Stored::Newer(_) | Stored::Corrupt(_) | Stored::Missing => self.read(path),
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
                self.warn_newer::<T>(path, version);
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
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match lock::lock(path, &lock_path, Access::Exclusive, true, deadline)? {
                Locked::Held(file) => return Ok(file),
                Locked::NotAFile(what) => {
                    self.move_not_a_file_aside(&lock_path, "lock file", what)?
                }
                Locked::Missing => unreachable!("the lock file is created"),
            }
        }
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
        if fs::symlink_metadata(path).is_err() {
            return Ok(None);
        }
        let _lock = self.lock(path)?;
        let stored = read_stored::<T>(path)?;
        if matches!(stored, Stored::Missing) || !remove(&stored) {
            return Ok(None);
        }
        let bytes = if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
            // Never a directory tree: moved aside, as a hook would.
            self.move_not_a_file_aside(path, T::KIND, "a directory")?;
            0
        } else {
            remove_file(path)?
        };
        // Removed while held: a process waiting on this lock file finds, once it holds it,
        // that it is no longer at its path, and locks the one there then (see `lock`).
        let lock_bytes = remove_file(&lock_path)?;
        Ok(Some(bytes + lock_bytes))
    }

    /// Removes the lock file of a store that no longer exists, if no process holds it.
    /// Returns whether it was removed.
    pub fn remove_unused_lock(&self, lock_path: &Path) -> Result<bool> {
        let Some(file) = lock::open_existing(lock_path)? else {
            return Ok(false);
        };
        let Some(_held) = lock::try_lock_in_place(file, lock_path)? else {
            return Ok(false);
        };
        let store = lock_path.with_extension("");
        if fs::symlink_metadata(&store).is_ok() {
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
        let original = match read_contents(path)? {
            Contents::Bytes(bytes) => bytes,
            Contents::Missing => return Ok(Stored::Missing),
            Contents::NotAFile(what) => {
                return Ok(Stored::Corrupt(format!("{what}, not a regular file")))
            }
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
    /// there is no lock file, or something else than a file at its path (creating or moving
    /// one would be a write).
    fn lock_shared_if_present(&self, path: &Path) -> Result<Option<File>> {
        let lock_path = lock_path(path);
        let deadline = Instant::now() + LOCK_WAIT;
        match lock::lock(path, &lock_path, Access::Shared, false, deadline) {
            Ok(Locked::Held(file)) => Ok(Some(file)),
            Ok(Locked::Missing | Locked::NotAFile(_)) => Ok(None),
            // A writer stuck for that long must not stop an audit: replacement is atomic, so
            // the file read without the lock is still a whole version of it.
            // Printed only: an audit writes nothing, not even to the log, and whoever runs
            // one reads its stderr.
            Err(e) if e.is::<StoreBusy>() => {
                print_warning(&format!(
                    "{} is locked by another process (waited {} s); reading it without the lock",
                    path.display(),
                    LOCK_WAIT.as_secs()
                ));
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Moves a corrupt store aside as `<file>.corrupt-<ms>` and keeps the newest copies.
    fn quarantine<T: Document>(&self, path: &Path, reason: &str) -> Result<()> {
        let target = self.move_aside(path)?;
        self.warn(&format!(
            "{} {} could not be read ({}); moved it to {} and started afresh",
            T::KIND,
            path.display(),
            crate::domain::base::text::one_line(reason),
            target.display()
        ));
        prune_quarantined(path)
    }

    /// Moves what is at a store or lock path, which is not a regular file, aside like a
    /// corrupt store. Nothing to do when another process moved it first.
    fn move_not_a_file_aside(&self, path: &Path, kind: &str, what: &str) -> Result<()> {
        // Checked again just before the rename, so that a file that took its place (another
        // process moved it first and made a new one) is left alone.
        if lock::not_a_file(path).is_none() {
            return Ok(());
        }
        let target = match self.move_aside(path) {
            Ok(target) => target,
            Err(_) if fs::symlink_metadata(path).is_err() => return Ok(()),
            Err(e) => return Err(e),
        };
        self.warn(&format!(
            "{kind} {} is {what}, not a regular file; moved it aside to {}",
            path.display(),
            target.display()
        ));
        prune_quarantined(path)
    }

    /// Renames `path` to a free `<file>.corrupt-<ms>` and returns that name.
    fn move_aside(&self, path: &Path) -> Result<PathBuf> {
        let mut stamp = self.now_ms.max(0);
        let target = loop {
            let candidate = sibling(path, &format!(".corrupt-{stamp}"));
            if fs::symlink_metadata(&candidate).is_err() {
                break candidate;
            }
            stamp += 1;
        };
        fs::rename(path, &target).with_context(|| {
            format!(
                "cannot move {} aside to {}",
                path.display(),
                target.display()
            )
        })?;
        Ok(target)
    }

    fn warn_newer<T: Document>(&self, path: &Path, version: u64) {
        self.warn(&format!(
            "{} {} has format version {version}, newer than this ocmem understands ({}); leaving it untouched",
            T::KIND,
            path.display(),
            T::VERSION
        ));
    }
}

fn print_warning(text: &str) {
    eprintln!("ocmem: warning: {text}");
}

/// A store's bytes as a document, or why they are not one (never `Missing`).
fn parse<T: Document>(bytes: &[u8]) -> Stored<T> {
    // Straight into the document first: going through a `Value` tree costs more than twice as
    // much, which on a store of thousands of entries is most of a render. The bytes are checked
    // to be UTF-8 once, not string by string as a parse of bytes would. Anything that does not
    // parse that way, or claims a newer version, is judged by the exact path below.
    let is_object = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if let (true, Ok(text)) = (is_object, std::str::from_utf8(bytes)) {
        if let Ok(doc) = serde_json::from_str::<T>(text) {
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

/// The store at `path` as it is on disk; something other than a regular file there is
/// `Corrupt`, saying what it is.
fn read_stored<T: Document>(path: &Path) -> Result<Stored<T>> {
    Ok(match read_contents(path)? {
        Contents::Missing => Stored::Missing,
        Contents::Bytes(bytes) => parse(&bytes),
        Contents::NotAFile(what) => Stored::Corrupt(format!("{what}, not a regular file")),
    })
}

/// What is at a store path.
enum Contents {
    Missing,
    Bytes(Vec<u8>),
    NotAFile(&'static str),
}

/// Runs `change` on `doc` and, when that changed it, calls `before_write` and replaces the
/// file atomically. Returns the change's result and whether the file was written.
fn change_and_write<T: Document, R>(
    path: &Path,
    doc: &mut T,
    change: impl FnOnce(&mut T) -> R,
    before_write: impl FnOnce() -> Result<()>,
) -> Result<(R, bool)> {
    // A copy compared field by field costs a fraction of serialising the document a second
    // time, and tells the same: a document's JSON is a function of its fields (a change that
    // only reordered unknown fields, or turned 0.0 into -0.0, would go unseen; none does).
    let before = doc.clone();
    let result = change(doc);
    let written = *doc != before;
    if written {
        doc.completing_write();
        before_write()?;
        let bytes = to_pretty_json(doc)?;
        write_atomically(path, bytes.as_bytes(), T::DURABLE)?;
        doc.written(path, bytes.as_bytes());
    }
    Ok((result, written))
}

fn to_pretty_json<T: Serialize>(doc: &T) -> Result<String> {
    let mut text = serde_json::to_string_pretty(doc).context("cannot serialize store")?;
    text.push('\n');
    Ok(text)
}

/// Reads a store's bytes, following a symbolic link but never blocking on a FIFO and never
/// reading a directory or a device: the type comes from the opened file itself.
fn read_contents(path: &Path) -> Result<Contents> {
    let (mut file, len) = match open_contents(path)? {
        Opened::File(file, len) => (file, len),
        Opened::Missing => return Ok(Contents::Missing),
        Opened::NotAFile(what) => return Ok(Contents::NotAFile(what)),
    };
    let mut bytes = Vec::with_capacity(len as usize);
    match file.read_to_end(&mut bytes) {
        Ok(_) => Ok(Contents::Bytes(bytes)),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// What `open_contents` found at a store path.
enum Opened {
    Missing,
    /// A regular file, open for reading, and its length.
    File(File, u64),
    NotAFile(&'static str),
}

/// Opens a store for reading as `read_contents` does.
fn open_contents(path: &Path) -> Result<Opened> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let cannot_read = |e| Err(e).with_context(|| format!("cannot read {}", path.display()));
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Opened::Missing),
        // A socket cannot be opened at all.
        Err(e) => match fs::metadata(path) {
            Ok(meta) if !meta.is_file() => {
                return Ok(Opened::NotAFile(lock::describe(&meta.file_type())))
            }
            _ => return cannot_read(e),
        },
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return cannot_read(e),
    };
    if !meta.is_file() {
        return Ok(Opened::NotAFile(lock::describe(&meta.file_type())));
    }
    Ok(Opened::File(file, meta.len()))
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

/// Replaces `path` with `bytes` through a temp file and a rename; with `durable`, fsyncs the
/// file before the rename and the directory after it. The file is private to the user.
fn write_atomically(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    write_atomically_with(path, bytes, durable, private_options())
}

/// `write_atomically`, creating the file with `options` (its permissions).
fn write_atomically_with(
    path: &Path,
    bytes: &[u8],
    durable: bool,
    mut options: OpenOptions,
) -> Result<()> {
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
        let mut file = options
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| format!("cannot create {}", temp.display()))?;
        file.write_all(bytes)
            .and_then(|()| {
                if durable {
                    synced(file.sync_data())
                } else {
                    Ok(())
                }
            })
            .with_context(|| format!("cannot write {}", temp.display()))?;
        fs::rename(&temp, path).with_context(|| format!("cannot replace {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result?;
    if let Some(dir) = path.parent().filter(|_| durable) {
        // Makes the rename itself durable.
        File::open(dir)
            .and_then(|d| synced(d.sync_all()))
            .with_context(|| format!("cannot sync directory {}", dir.display()))?;
    }
    Ok(())
}

#[cfg(test)]
thread_local! {
    /// fsyncs this thread asked for, so tests can tell which writes are durable.
    static SYNCS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn synced(result: std::io::Result<()>) -> std::io::Result<()> {
    #[cfg(test)]
    SYNCS.with(|n| n.set(n.get() + 1));
    result
}

fn prune_quarantined(path: &Path) -> Result<()> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    let store_name = path.file_name().unwrap_or_default().to_string_lossy();
    let copies: Vec<(u64, PathBuf)> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|entry| entry.ok())
        // A directory moved aside stays: its contents are not ours to remove.
        .filter(|entry| entry.file_type().is_ok_and(|t| !t.is_dir()))
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

/// Removes a directory when it is empty; returns whether it did. A symbolic link to a
/// directory is not one.
pub fn remove_dir_if_empty(dir: &Path) -> Result<bool> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(false);
    }
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

pub(crate) fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::workspace::WorkspaceMemory;
    use crate::domain::session::state::SessionState;

    fn syncs() -> u32 {
        SYNCS.with(|n| n.get())
    }

    #[test]
    fn memory_writes_are_synced_and_session_writes_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().to_path_buf(), 0);
        let workspace = store.workspace("/nonexistent/ocmem/durability");

        let before = syncs();
        let session = workspace.session_file("ses_1");
        store
            .update(
                &session,
                || SessionState::new("ses_1"),
                |s| s.updated_at = "a".into(),
            )
            .unwrap();
        assert_eq!(syncs(), before, "a session write waits for no fsync");
        assert!(session.is_file());

        let memory = workspace.memory_file();
        let fresh = || WorkspaceMemory::new(&workspace.root, &workspace.key);
        store
            .update(&memory, fresh, |m| m.updated_at = "b".into())
            .unwrap();
        assert_eq!(syncs(), before + 2, "file data and the directory");
        // Nothing changed, nothing written, nothing synced.
        store.update(&memory, fresh, |_| ()).unwrap();
        assert_eq!(syncs(), before + 2);
    }

    #[test]
    fn a_store_parses_as_its_bytes_say() {
        let memory = |text: &str| {
            format!(
                r#"{{"version":1,"entries":[{{"id":"mem_1_a","type":"project","text":"{text}","source":"manual","confidence":0.9}}]}}"#
            )
        };
        let read = |bytes: &[u8]| match parse::<WorkspaceMemory>(bytes) {
            Stored::Ok(doc) => Ok(doc.entries[0].text.clone()),
            Stored::Corrupt(reason) => Err(reason),
            _ => Err("neither".into()),
        };
        assert_eq!(
            read(memory(r"使用 pnpm \u00e9\n").as_bytes()),
            Ok("使用 pnpm é\n".to_string())
        );
        // A byte that is not UTF-8, inside a string or outside: corrupt, saying where.
        let mut inside = memory("pnpm").into_bytes();
        let at = inside.windows(4).position(|w| w == b"pnpm").unwrap();
        inside[at + 1] = 0xff;
        let reason = read(&inside).unwrap_err();
        assert!(
            reason.contains("not valid JSON") && reason.contains("line 1"),
            "{reason}"
        );
        let mut outside = memory("pnpm").into_bytes();
        outside.insert(1, 0xc3);
        assert!(read(&outside).unwrap_err().contains("not valid JSON"));
    }

    #[test]
    fn a_store_is_rewritten_only_when_its_document_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().to_path_buf(), 0);
        let path = tmp.path().join("workspace-memory.json");
        // As another writer leaves it: compact, a date in milliseconds, unknown fields.
        let compact = r#"{"version":1,"workspace":{"root":"/r","key":"k"},"limits":{"maxRenderedChars":5200,"maxEntries":28},"entries":[{"id":"mem_1_a","type":"project","text":"Uses pnpm","source":"manual","confidence":0.9,"status":"active","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":1767225600000,"pinnedBy":{"who":"me","at":[1,2.5]}}],"updatedAt":"","pluginVersion":"1.2.3"}"#;
        fs::write(&path, compact).unwrap();
        let fresh = || WorkspaceMemory::new("/r", "k");
        // Changes that leave the document as it was write nothing, even though the file is
        // not in this writer's format.
        for change in [
            (|_: &mut WorkspaceMemory| ()) as fn(&mut WorkspaceMemory),
            |m| m.entries[0].confidence = 0.9,
            |m| {
                let text = std::mem::take(&mut m.entries[0].text);
                m.entries[0].text = text;
            },
        ] {
            let updated = store.update(&path, fresh, change).unwrap();
            assert!(matches!(updated, Updated::Done { written: false, .. }));
            assert_eq!(fs::read_to_string(&path).unwrap(), compact);
        }
        // A change to an unknown field of an entry counts, and the file is the document's
        // pretty JSON.
        let updated = store
            .update(&path, fresh, |m| {
                m.entries[0].extra["pinnedBy"]["at"][1] = serde_json::json!(3);
            })
            .unwrap();
        assert!(matches!(updated, Updated::Done { written: true, .. }));
        let written = fs::read_to_string(&path).unwrap();
        let doc: WorkspaceMemory = serde_json::from_str(&written).unwrap();
        assert_eq!(written, to_pretty_json(&doc).unwrap());
        assert_eq!(doc.entries[0].extra["pinnedBy"]["at"][1], 3);
        assert_eq!(doc.entries[0].updated_at, "2026-01-01T00:00:00.000Z");
    }
}
