//! Finding the workspace whose past sessions a person asks about (`ocmem sessions`, `ocmem
//! handoff`).

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};

use crate::store::layout::DIGESTS_DIR;
use crate::store::{Store, Workspace};

/// The workspace `dir` (the command's `--workspace`) belongs to, else the current
/// directory's; found without changing anything. A directory moved or removed still names
/// the workspace whose session digests it left.
pub fn target_workspace(store: &Store, dir: Option<&PathBuf>) -> Result<Workspace> {
    let dir = match dir {
        Some(dir) => {
            let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
            if !dir.is_dir() {
                // A folder moved or removed still names the sessions it had.
                let left = store.locate_workspace(&absolute.to_string_lossy());
                if dir.exists() || !left.dir.join(DIGESTS_DIR).is_dir() {
                    bail!("--workspace {} is not a directory", dir.display());
                }
                return Ok(left);
            }
            absolute
        }
        None => std::env::current_dir()
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    Ok(store.locate_workspace(&dir.to_string_lossy()))
}
