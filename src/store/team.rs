//! The team file of a repository, `.ocmem/memory.md`: finding the repository and reading it.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::domain::team::{parse, TeamMemory, TEAM_FILE};

/// The team file as read from disk.
#[derive(Debug, Clone, Default)]
pub struct TeamRead {
    /// Where the team file is (or would be).
    pub path: PathBuf,
    /// Its entries and problems; empty when the file is missing or unreadable.
    pub memory: TeamMemory,
    /// Why the file could not be read (not UTF-8, a folder, no permission), if so.
    pub unreadable: Option<String>,
}

/// The root of the repository `dir` belongs to: the nearest ancestor holding `.git` (a folder,
/// or a file in worktrees and submodules), else `dir` itself.
pub fn repository_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|at| at.join(".git").exists())
        .unwrap_or(dir)
        .to_path_buf()
}

/// Reads the team file of the repository at `repository_root`. Never fails: a missing file is
/// empty memory, one that cannot be read is empty memory and the reason.
pub fn read_team(repository_root: &Path) -> TeamRead {
    let path = repository_root.join(TEAM_FILE);
    let (memory, unreadable) = match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (parse(&text), None),
            Err(_) => (TeamMemory::default(), Some("not UTF-8 text".to_string())),
        },
        Err(e) if e.kind() == ErrorKind::NotFound => (TeamMemory::default(), None),
        Err(e) => (TeamMemory::default(), Some(e.to_string())),
    };
    TeamRead {
        path,
        memory,
        unreadable,
    }
}
