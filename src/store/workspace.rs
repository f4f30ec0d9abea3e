//! Workspace identity and the layout of the data directory.
//!
//! The root of a workspace is the canonical path of the directory the agent runs in, or, when
//! that lies inside a git repository, the top level of the repository's main worktree, so
//! that subdirectories and linked worktrees share one memory. It is found by reading `.git`
//! files and directories, never by running git.

use std::fs;
use std::path::{Path, PathBuf};

use crate::domain::base::hash::sha256_hex;

/// Where one workspace's stores live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    pub root: String,
    /// First 16 hex of sha256(root), as the TypeScript plugin computed it.
    pub key: String,
    pub dir: PathBuf,
}

impl Workspace {
    pub fn locate(data_dir: &Path, directory: &str) -> Workspace {
        let root = workspace_root(directory);
        let key = sha256_hex(&root)[..16].to_string();
        let dir = data_dir.join("workspaces").join(&key);
        Workspace { root, key, dir }
    }

    /// `workspace-memory.json`
    pub fn memory_file(&self) -> PathBuf {
        self.dir.join(super::layout::MEMORY_FILE)
    }

    /// `sessions/<first 32 hex of sha256(sessionID)>.json`
    pub fn session_file(&self, session_id: &str) -> PathBuf {
        self.dir
            .join(super::layout::SESSIONS_DIR)
            .join(format!("{}.json", &sha256_hex(session_id)[..32]))
    }
}

/// The workspace root for `directory`; the raw string when it cannot be canonicalised.
pub fn workspace_root(directory: &str) -> String {
    let Ok(canonical) = fs::canonicalize(directory) else {
        return directory.to_string();
    };
    let root = main_worktree_top(&canonical).unwrap_or(canonical);
    root.to_string_lossy().into_owned()
}

/// The project `directory` belongs to, where a host reads its project settings: the top level
/// of the git worktree it lies in (a linked worktree is a project of its own), else the
/// directory itself.
pub fn project_root(directory: &Path) -> PathBuf {
    let canonical = fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
    canonical
        .ancestors()
        .find(|dir| fs::symlink_metadata(dir.join(".git")).is_ok())
        .unwrap_or(&canonical)
        .to_path_buf()
}

/// The top level of the main worktree of the repository `start` lies in, if any.
fn main_worktree_top(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let dot_git = dir.join(".git");
        let Ok(meta) = fs::metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return Some(dir.to_path_buf());
        }
        if meta.is_file() {
            return Some(linked_worktree_main(dir, &dot_git).unwrap_or_else(|| dir.to_path_buf()));
        }
    }
    None
}

/// For a `.git` file (`gitdir: …`): a linked worktree's git dir names the shared repository
/// in its `commondir` file; the main worktree is the parent of that `.git` directory (a bare
/// repository has none, and is itself the shared root). Submodules and separate git dirs
/// have no `commondir`: their own top level is the root.
fn linked_worktree_main(dir: &Path, dot_git: &Path) -> Option<PathBuf> {
    let text = fs::read_to_string(dot_git).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = dir.join(gitdir);
    let common = fs::read_to_string(gitdir.join("commondir")).ok()?;
    let common = fs::canonicalize(gitdir.join(common.trim())).ok()?;
    if common.file_name().is_some_and(|n| n == ".git") {
        common.parent().map(Path::to_path_buf)
    } else {
        Some(common)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_and_session_file_follow_the_plugin_layout() {
        let ws = Workspace::locate(Path::new("/data"), "/nonexistent/ocmem/demo");
        assert_eq!(ws.root, "/nonexistent/ocmem/demo");
        assert_eq!(ws.key, sha256_hex("/nonexistent/ocmem/demo")[..16]);
        assert_eq!(ws.dir, Path::new("/data/workspaces").join(&ws.key));
        let file = ws.session_file("ses_1");
        assert_eq!(file.parent().unwrap(), ws.dir.join("sessions"));
        assert_eq!(file.file_name().unwrap().len(), 32 + 5);
    }

    #[test]
    fn sha256_hex_is_standard() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
