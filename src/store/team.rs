//! The team file, `.ocmem/memory.md` at the root of a repository (see `domain::memory::team`): found
//! from a workspace directory, read forgivingly, written in canonical form.
//!
//! Only the people's commands write it (`memory add --team`, `share`, `unshare`); the hooks
//! read it at most. A write goes through a temp file in `.ocmem/` and a rename, under a lock
//! kept in the data directory, so that nothing but the team file itself ever shows in
//! `git status`.

use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use super::layout::ORPHAN_TEMP_AGE_MS;
use super::{temp_prefix, write_atomically_with, Store};
use crate::domain::base::hash::sha256_hex;
use crate::domain::memory::team::{self, TeamEntry, TeamMemory, TEAM_FILE};

/// The directory of the team files' locks, under the data directory.
const LOCKS_DIR: &str = "team-locks";

/// The team file as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamRead {
    /// Where it is (or would be).
    pub path: PathBuf,
    /// Its entries and problems; empty when there is no file.
    pub memory: TeamMemory,
    /// Why it could not be read at all (not UTF-8, a directory, no permission), if so.
    pub unreadable: Option<String>,
}

/// The root of the repository `dir` lies in: the nearest ancestor holding `.git` (a directory,
/// or the file of a linked worktree or a submodule, which has a team file of its own), else
/// `dir` itself.
pub fn repository_root(dir: &Path) -> PathBuf {
    let canonical = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    canonical
        .ancestors()
        .find(|at| fs::symlink_metadata(at.join(".git")).is_ok())
        .unwrap_or(&canonical)
        .to_path_buf()
}

/// Reads the team file of the repository at `repository_root`. Never fails: a missing file
/// is an empty memory, and one that cannot be read says why in `unreadable`.
pub fn read_team(repository_root: &Path) -> TeamRead {
    let path = repository_root.join(TEAM_FILE);
    let (memory, unreadable) = match fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (team::parse(&text), None),
            Err(_) => (
                TeamMemory::default(),
                Some("it is not UTF-8 text".to_string()),
            ),
        },
        Err(e) if e.kind() == ErrorKind::NotFound => (TeamMemory::default(), None),
        Err(e) => (TeamMemory::default(), Some(format!("cannot read it: {e}"))),
    };
    TeamRead {
        path,
        memory,
        unreadable,
    }
}

/// What a change to the team file decided.
pub enum TeamChange<R> {
    /// Write these entries, and return `R`.
    Write(Vec<TeamEntry>, R),
    /// Leave the file as it is, and return `R`.
    Keep(R),
}

/// Changes the team file of `repository_root` under its lock: `change` sees the file as it is
/// now and decides. The file is rewritten in canonical form only when its bytes change. A file
/// that cannot be read, or has problems, is refused before `change` runs: rewriting it would
/// drop the lines that were not understood.
pub fn update_team<R>(
    store: &Store,
    repository_root: &Path,
    change: impl FnOnce(&TeamMemory) -> Result<TeamChange<R>>,
) -> Result<R> {
    let _lock = store.lock(&team_lock(&store.data_dir, repository_root))?;
    let read = read_team(repository_root);
    let shown = display(repository_root, &read.path);
    if let Some(why) = &read.unreadable {
        bail!("{shown}: {why}; nothing was changed");
    }
    if let Some(first) = read.memory.problems.first() {
        bail!(
            "{shown} has {} problem(s), the first on line {}: {}; fix the file by hand \
             (`ocmem baseline --check --team` lists them all) before changing it; nothing was changed",
            read.memory.problems.len(),
            first.line,
            first.kind.describe()
        );
    }
    match change(&read.memory)? {
        TeamChange::Keep(result) => Ok(result),
        TeamChange::Write(entries, result) => {
            remove_orphan_temps(&read.path, store.now_ms);
            write_team(&read.path, &team::render(&entries))?;
            Ok(result)
        }
    }
}

/// Removes the temp files that writes of the team file at `path` left behind more than an hour
/// before `now_ms` (their writer died before the rename), so they do not linger in
/// `git status`. Under the team lock, so no live write's temp file is touched; best effort.
fn remove_orphan_temps(path: &Path, now_ms: i64) {
    let Some(dir) = path.parent() else {
        return;
    };
    let prefix = temp_prefix(path);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let modified_ms = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_millis() as i64);
        let orphan = entry.file_name().to_string_lossy().starts_with(&prefix)
            && modified_ms.is_some_and(|m| now_ms - m > ORPHAN_TEMP_AGE_MS);
        if orphan {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Replaces the team file at `path` with `text`, unless it holds exactly that already: a temp
/// file in the same directory (created if missing), synced, then renamed over it. The file
/// gets the usual permissions of a file in a repository, not the data directory's private ones.
pub fn write_team(path: &Path, text: &str) -> Result<()> {
    if fs::read(path).is_ok_and(|bytes| bytes == text.as_bytes()) {
        return Ok(());
    }
    let dir = path.parent().context("the team file has no directory")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_atomically_with(path, text.as_bytes(), true, OpenOptions::new())
}

/// The lock of a repository's team file: in the data directory, keyed by the repository's
/// root as a workspace is keyed by its own.
fn team_lock(data_dir: &Path, repository_root: &Path) -> PathBuf {
    let key = &sha256_hex(&repository_root.to_string_lossy())[..16];
    data_dir.join(LOCKS_DIR).join(key)
}

/// `path` as a person names it: relative to the repository's root.
pub fn display(repository_root: &Path, path: &Path) -> String {
    path.strip_prefix(repository_root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::kind::MemoryType;

    fn entry(kind: MemoryType, text: &str) -> TeamEntry {
        TeamEntry::new(kind, text, None)
    }

    #[test]
    fn the_root_is_the_nearest_ancestor_with_git_else_the_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let sub = repo.join("src/deep");
        fs::create_dir_all(&sub).unwrap();
        fs::create_dir_all(repo.join(".git")).unwrap();
        // A submodule's `.git` is a file: it is a repository of its own.
        let module = repo.join("vendor/lib");
        fs::create_dir_all(module.join("src")).unwrap();
        fs::write(module.join(".git"), "gitdir: ../../.git/modules/lib\n").unwrap();
        let repo = fs::canonicalize(&repo).unwrap();
        assert_eq!(repository_root(&sub), repo);
        assert_eq!(repository_root(&repo), repo);
        assert_eq!(
            repository_root(&module.join("src")),
            repo.join("vendor/lib")
        );
        let plain = tmp.path().join("plain/dir");
        fs::create_dir_all(&plain).unwrap();
        let plain = fs::canonicalize(plain).unwrap();
        assert_eq!(repository_root(&plain), plain);
    }

    #[test]
    fn missing_is_empty_and_unreadable_is_reported_not_failed() {
        let tmp = tempfile::tempdir().unwrap();
        let read = read_team(tmp.path());
        assert_eq!(read.path, tmp.path().join(TEAM_FILE));
        assert!(read.memory.entries.is_empty() && read.unreadable.is_none());
        fs::create_dir_all(tmp.path().join(".ocmem")).unwrap();
        fs::write(tmp.path().join(TEAM_FILE), b"# Team memory\n\xff\xfe\n").unwrap();
        let read = read_team(tmp.path());
        assert!(read.unreadable.unwrap().contains("UTF-8"));
        fs::remove_file(tmp.path().join(TEAM_FILE)).unwrap();
        fs::create_dir(tmp.path().join(TEAM_FILE)).unwrap();
        assert!(read_team(tmp.path()).unreadable.is_some());
    }

    #[test]
    fn an_update_writes_canonically_and_leaves_no_lock_in_the_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        let store = Store::new(tmp.path().join("data"), 0);
        let added = entry(MemoryType::Decision, "Use pnpm, not npm");
        let id = update_team(&store, &repo, |memory| {
            assert!(memory.entries.is_empty());
            Ok(TeamChange::Write(vec![added.clone()], added.id.clone()))
        })
        .unwrap();
        let text = fs::read_to_string(repo.join(TEAM_FILE)).unwrap();
        assert_eq!(text, team::render(std::slice::from_ref(&added)));
        assert!(text.contains(&id));
        let mut names: Vec<String> = fs::read_dir(repo.join(".ocmem"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["memory.md"]);
        assert!(tmp.path().join("data").join(LOCKS_DIR).is_dir());
    }

    #[test]
    fn a_write_removes_temp_files_an_interrupted_write_left_over_an_hour_ago() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::create_dir_all(repo.join(".ocmem")).unwrap();
        let left = repo.join(".ocmem/memory.md.tmp-4242-17");
        let other = repo.join(".ocmem/notes.md.tmp-4242-17");
        fs::write(&left, "half a file").unwrap();
        fs::write(&other, "not ours").unwrap();
        let written_ms = fs::metadata(&left)
            .unwrap()
            .modified()
            .unwrap()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        let write = |now_ms: i64, text: &str| {
            let store = Store::new(tmp.path().join("data"), now_ms);
            let added = entry(MemoryType::Project, text);
            update_team(&store, &repo, |memory| {
                let mut entries = memory.entries.clone();
                entries.push(added.clone());
                Ok(TeamChange::Write(entries, ()))
            })
            .unwrap();
        };
        // Young: it may be a write in progress elsewhere.
        write(written_ms + 60_000, "Docs live in docs/");
        assert!(left.exists());
        write(
            written_ms + ORPHAN_TEMP_AGE_MS + 60_000,
            "Tests run with make test",
        );
        assert!(!left.exists());
        assert!(other.exists(), "only the team file's own temp files go");
    }

    #[test]
    fn a_file_with_problems_is_refused_and_left_byte_for_byte() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        fs::create_dir_all(repo.join(".ocmem")).unwrap();
        let conflicted = "# Team memory\n\n## Decisions\n\n<<<<<<< HEAD\n- Use pnpm <!-- ocmem:0123abcd -->\n=======\n- Use yarn <!-- ocmem:0123abcd -->\n>>>>>>> other\n";
        fs::write(repo.join(TEAM_FILE), conflicted).unwrap();
        let store = Store::new(repo.join("data"), 0);
        let result = update_team(&store, repo, |_| -> Result<TeamChange<()>> {
            panic!("a file with problems is not changed")
        });
        let error = result.unwrap_err().to_string();
        assert!(error.contains("line 5"), "{error}");
        assert_eq!(
            fs::read_to_string(repo.join(TEAM_FILE)).unwrap(),
            conflicted
        );
    }
}
