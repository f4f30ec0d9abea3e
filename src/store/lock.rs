//! The lock protocol. A store's lock is `<file>.lock`, opened without following a symbolic
//! link and without blocking on a FIFO. Lock files may be removed (by gc, under the lock), so
//! a process that waited on one checks, once it holds it, that the path still names the same
//! file; if not, it locks whatever is there now. Two processes thus never both hold the lock
//! of one store: a waiter on a removed file finds out and starts again.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};

/// How long a hook waits for another process's lock before giving up.
pub const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Exclusive for a read-modify-write, shared for an audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Exclusive,
    Shared,
}

/// What an attempt to lock found at the lock path.
pub enum Locked {
    /// Held, and still the file at the lock path.
    Held(File),
    /// Not a regular file (`what` it is): to be moved aside before trying again.
    NotAFile(&'static str),
    /// No lock file, and `create` was false.
    Missing,
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

/// Locks `lock_path` (creating it when `create`), waiting until `deadline`; `path` is the
/// store, for messages.
pub fn lock(
    path: &Path,
    lock_path: &Path,
    access: Access,
    create: bool,
    deadline: Instant,
) -> Result<Locked> {
    loop {
        let file = match open_lock_file(lock_path, create) {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound && !create => return Ok(Locked::Missing),
            Err(e) => match not_a_file(lock_path) {
                Some(what) => return Ok(Locked::NotAFile(what)),
                None => {
                    return Err(e)
                        .with_context(|| format!("cannot open lock file {}", lock_path.display()))
                }
            },
        };
        let meta = file
            .metadata()
            .with_context(|| format!("cannot inspect {}", lock_path.display()))?;
        if !meta.is_file() {
            return Ok(Locked::NotAFile(describe(&meta.file_type())));
        }
        wait_for(&file, path, lock_path, access, deadline)?;
        if still_at(&meta, lock_path)? {
            return Ok(Locked::Held(file));
        }
        // Removed or replaced while we waited: lock the file there now.
    }
}

/// Locks `file` exclusively if no process holds it, and only while it is still the file at
/// `lock_path`. `None` when it is held or was removed meanwhile.
pub fn try_lock_in_place(file: File, lock_path: &Path) -> Result<Option<File>> {
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Ok(None),
        Err(TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
        }
    }
    let meta = file
        .metadata()
        .with_context(|| format!("cannot inspect {}", lock_path.display()))?;
    Ok(still_at(&meta, lock_path)?.then_some(file))
}

/// Opens an existing lock file for `try_lock_in_place`; `None` when there is none, or when
/// what is there is not a regular file.
pub fn open_existing(lock_path: &Path) -> Result<Option<File>> {
    let file = match open_lock_file(lock_path, false) {
        Ok(file) => file,
        Err(_) if not_a_file(lock_path).is_some() => return Ok(None),
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot open lock file {}", lock_path.display()))
        }
    };
    let is_file = file.metadata().is_ok_and(|m| m.is_file());
    Ok(is_file.then_some(file))
}

/// Retries `try_lock` with a growing pause until it succeeds or `deadline` has passed.
fn wait_for(
    file: &File,
    path: &Path,
    lock_path: &Path,
    access: Access,
    deadline: Instant,
) -> Result<()> {
    let mut pause = Duration::from_millis(1);
    loop {
        let attempt = match access {
            Access::Exclusive => file.try_lock(),
            Access::Shared => file.try_lock_shared(),
        };
        match attempt {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Err(StoreBusy {
                        path: path.to_path_buf(),
                    }
                    .into());
                }
                sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(16));
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
    }
}

/// Whether `lock_path` still names the file whose metadata is `held`.
fn still_at(held: &fs::Metadata, lock_path: &Path) -> Result<bool> {
    match fs::symlink_metadata(lock_path) {
        Ok(now) => Ok(same_file(held, &now)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot inspect {}", lock_path.display())),
    }
}

/// Whether two metadata are of the same file (on Unix: device and inode).
#[cfg(unix)]
pub(super) fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
pub(super) fn same_file(_: &fs::Metadata, b: &fs::Metadata) -> bool {
    b.is_file()
}

/// Opens a lock file for reading and writing, creating it (0600) when `create`. Never
/// follows a symbolic link (which would create a file wherever it points) and never blocks
/// on a FIFO.
fn open_lock_file(lock_path: &Path, create: bool) -> io::Result<File> {
    let mut options = super::private_options();
    options
        .read(true)
        .write(true)
        .create(create)
        .truncate(false);
    no_follow(&mut options);
    options.open(lock_path)
}

/// Adds O_NOFOLLOW and O_NONBLOCK (which changes nothing for a regular file).
pub fn no_follow(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// What is at `path` when it is something other than a regular file.
pub fn not_a_file(path: &Path) -> Option<&'static str> {
    let meta = fs::symlink_metadata(path).ok()?;
    (!meta.is_file()).then(|| describe(&meta.file_type()))
}

/// "a directory", "a FIFO", …: what a file that is not a regular file is.
pub fn describe(file_type: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}
