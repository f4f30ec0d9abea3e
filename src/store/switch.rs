//! The per-workspace off switch: `workspaces/<key>/off`, a marker in the data directory (never
//! a file in the repository). While it is there every hook for the workspace does nothing. A
//! hook pays one `lstat` for it; only a regular file counts, so nothing else left at that path
//! turns memory off by accident.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use super::{create_private_dir, private_options, remove_file, Store, Workspace};

/// The marker's file name in a workspace directory.
pub const OFF_MARKER: &str = "off";

/// `workspaces/<key>/off`
pub fn off_marker(workspace: &Workspace) -> PathBuf {
    workspace.dir.join(OFF_MARKER)
}

/// Whether memory is turned off for `workspace`.
pub fn is_off(workspace: &Workspace) -> bool {
    is_off_in(&workspace.dir)
}

/// Whether memory is turned off for the workspace whose directory is `dir`.
pub fn is_off_in(dir: &Path) -> bool {
    fs::symlink_metadata(dir.join(OFF_MARKER)).is_ok_and(|m| m.is_file())
}

impl Store {
    /// Turns memory off (`off`) or back on for `workspace`; returns whether that changed
    /// anything. The marker holds the workspace's root and when it was made, for whoever finds
    /// it.
    pub fn set_off(&self, workspace: &Workspace, off: bool) -> Result<bool> {
        let marker = off_marker(workspace);
        let present = fs::symlink_metadata(&marker);
        match (off, present) {
            (true, Ok(meta)) if meta.is_file() => Ok(false),
            (_, Ok(meta)) if !meta.is_file() => bail!(
                "{} is not a regular file; move it away first",
                marker.display()
            ),
            (true, _) => {
                create_private_dir(&workspace.dir)?;
                let text = format!(
                    "{{\"root\": {}, \"at\": \"{}\"}}\n",
                    serde_json::Value::String(workspace.root.clone()),
                    crate::domain::base::time::format_rfc3339_ms(self.now_ms)
                );
                let mut options = private_options();
                options.write(true).create_new(true);
                match options.open(&marker) {
                    Ok(mut file) => std::io::Write::write_all(&mut file, text.as_bytes())
                        .with_context(|| format!("cannot write {}", marker.display()))?,
                    // Another process turned it off meanwhile.
                    Err(e) if e.kind() == ErrorKind::AlreadyExists => return Ok(false),
                    Err(e) => {
                        return Err(e)
                            .with_context(|| format!("cannot create {}", marker.display()))
                    }
                }
                Ok(true)
            }
            (false, Ok(_)) => Ok(remove_file(&marker)? > 0 || !marker.exists()),
            (false, Err(_)) => Ok(false),
        }
    }
}
