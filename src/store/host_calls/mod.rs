//! When each host last called ocmem for a workspace, for `doctor`.
//!
//! One empty marker file per host, `workspaces/<key>/hosts/<host>`, whose modification time is
//! the host's last call. A hook costs one `lstat` when its host's marker was touched in the
//! last minute, and a `utime` at most once a minute otherwise. The directories are made on
//! the first call; a marker, `hosts/` or workspace directory that is a symbolic link (or
//! anything but what ocmem makes) is never written through.

use std::fs::{self, DirBuilder};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use crate::domain::base::host_name::HostName;

use super::layout::HOSTS_DIR;
use super::{Store, Workspace};

/// A marker younger than this is not touched again.
pub const HOST_CALL_REFRESH_MS: i64 = 60 * 1000;

impl Store {
    /// Notes that `host` called ocmem for `workspace` now. Best effort, and cheap when it
    /// was noted recently.
    pub fn note_host_call(&self, workspace: &Workspace, host: HostName) {
        let marker = host_marker(workspace, host);
        match fs::symlink_metadata(&marker) {
            Ok(meta) if meta.is_file() => {
                let age = modified_ms(&meta).map(|m| self.now_ms - m);
                if age.is_some_and(|age| (0..HOST_CALL_REFRESH_MS).contains(&age)) {
                    return;
                }
            }
            // A link, a directory, a FIFO: not ours to write through.
            Ok(_) => return,
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(_) => return,
        }
        let _ = touch(workspace, &marker, self.now_ms);
    }

    /// Each host that called ocmem for `workspace`, with the Unix milliseconds of its last call.
    pub fn host_calls(&self, workspace: &Workspace) -> Vec<(HostName, i64)> {
        let hosts_dir = workspace.dir.join(HOSTS_DIR);
        if !is_real_dir(&workspace.dir) || !is_real_dir(&hosts_dir) {
            return Vec::new();
        }
        HostName::ALL
            .into_iter()
            .filter_map(|host| {
                let meta = fs::symlink_metadata(host_marker(workspace, host))
                    .ok()
                    .filter(|m| m.is_file())?;
                Some((host, modified_ms(&meta)?))
            })
            .collect()
    }
}

/// `workspaces/<key>/hosts/<host>`
pub fn host_marker(workspace: &Workspace, host: HostName) -> PathBuf {
    workspace.dir.join(HOSTS_DIR).join(host.as_str())
}

/// Creates the marker (and its directories) if missing and sets its modification time to
/// `now_ms`.
fn touch(workspace: &Workspace, marker: &Path, now_ms: i64) -> std::io::Result<()> {
    let hosts_dir = workspace.dir.join(HOSTS_DIR);
    ensure_real_dir(&workspace.dir, true)?;
    ensure_real_dir(&hosts_dir, false)?;
    let mut options = super::private_options();
    options.write(true).create(true).truncate(false);
    super::lock::no_follow(&mut options);
    let file = options.open(marker)?;
    if !file.metadata()?.is_file() {
        return Ok(());
    }
    let Ok(ms) = u64::try_from(now_ms) else {
        return Ok(());
    };
    file.set_modified(UNIX_EPOCH + Duration::from_millis(ms))
}

/// Makes `dir` (0700) when missing; an error when something other than a directory, a link
/// to one included, is there.
fn ensure_real_dir(dir: &Path, recursive: bool) -> std::io::Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => return Err(std::io::Error::other("not a directory")),
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut builder = DirBuilder::new();
    builder.recursive(recursive);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    match builder.create(dir) {
        // Made by another process meanwhile.
        Err(e) if e.kind() == ErrorKind::AlreadyExists && is_real_dir(dir) => Ok(()),
        other => other,
    }
}

fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

fn modified_ms(meta: &fs::Metadata) -> Option<i64> {
    let since = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    i64::try_from(since.as_millis()).ok()
}

#[cfg(test)]
mod tests;
