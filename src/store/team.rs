//! The team file of a repository, `.ocmem/memory.md`: where it is and what it holds.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::domain::team::{parse, TeamMemory, TEAM_FILE};

/// The team file as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamRead {
    pub path: PathBuf,
    pub memory: TeamMemory,
    /// Why the file could not be read (not UTF-8, a folder, no permission); its memory is
    /// then empty.
    pub unreadable: Option<String>,
}

/// The root of the repository `dir` lies in: the nearest ancestor holding `.git` (a folder,
/// or a file for linked worktrees and submodules), else `dir` itself.
pub fn repository_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|ancestor| fs::symlink_metadata(ancestor.join(".git")).is_ok())
        .unwrap_or(dir)
        .to_path_buf()
}

/// The team file of the repository at `repository_root`. Never fails: a missing file is an
/// empty memory, and one that cannot be read says why in `unreadable`.
pub fn read_team(repository_root: &Path) -> TeamRead {
    let path = repository_root.join(TEAM_FILE);
    let (memory, unreadable) = match fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (parse(&text), None),
            Err(_) => (TeamMemory::default(), Some("it is not UTF-8".to_string())),
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
