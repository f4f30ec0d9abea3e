//! Reading a workspace's repository: its `.git` files directly (which costs a few small reads),
//! and `git rev-list --max-parents=0 HEAD` for the root commits, the one thing the files do
//! not tell cheaply. Git runs only when a workspace store is written without an identity yet
//! (its creation, mostly) and when an adoption is being considered; a missing, failing or
//! slow git means no identity, never an error.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::domain::guard::secrets::scrub;
use crate::domain::memory::repository::{
    fold_remote, packed_ref_exists, parse_head, remote_url, Head, Identity, IDENTITY_FIELD,
};
use crate::domain::memory::workspace::WorkspaceMemory;

/// How long git may take to list the root commits. It runs under a store's lock, which other
/// hooks wait on for at most `LOCK_WAIT`; a history too long to walk in that time gets no
/// identity.
const GIT_TIMEOUT: Duration = Duration::from_millis(1500);

/// Variables that would point git at another repository than the workspace's (a hook may run
/// inside a git hook, which sets them).
const GIT_LOCATION_VARS: [&str; 7] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
];

/// The git directories of the checkout at `root`.
#[derive(Debug, Clone)]
pub struct GitDirs {
    /// Where `HEAD` is: `.git`, or a linked worktree's own directory.
    pub git_dir: PathBuf,
    /// Where refs, objects and `config` are shared.
    pub common_dir: PathBuf,
}

/// The git directories of `root` when it is the top of a checkout (`.git` a directory, or a
/// `gitdir:` file); `None` for anything else.
pub fn git_dirs(root: &Path) -> Option<GitDirs> {
    let dot_git = root.join(".git");
    let meta = fs::metadata(&dot_git).ok()?;
    let git_dir = if meta.is_dir() {
        dot_git
    } else {
        let text = fs::read_to_string(&dot_git).ok()?;
        let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
        root.join(gitdir)
    };
    let common_dir = match fs::read_to_string(git_dir.join("commondir")) {
        Ok(common) => git_dir.join(common.trim()),
        Err(_) => git_dir.clone(),
    };
    Some(GitDirs {
        git_dir,
        common_dir,
    })
}

impl GitDirs {
    /// The folded URL of the remote, from `config`.
    pub fn remote(&self) -> Option<String> {
        let config = fs::read_to_string(self.common_dir.join("config")).ok()?;
        // Folding drops user and password; a token elsewhere in the URL is scrubbed like
        // any stored text.
        let folded = fold_remote(&remote_url(&config)?)?;
        Some(scrub(&folded).into_owned())
    }

    /// Whether HEAD names a commit: an unborn branch (a repository without commits) has no
    /// root commit, and git need not be asked.
    pub fn head_is_born(&self) -> bool {
        let Ok(head) = fs::read_to_string(self.git_dir.join("HEAD")) else {
            return false;
        };
        match parse_head(&head) {
            Some(Head::Detached) => true,
            Some(Head::Branch(name)) => {
                self.common_dir.join(&name).is_file()
                    || self.git_dir.join(&name).is_file()
                    || fs::read_to_string(self.common_dir.join("packed-refs"))
                        .is_ok_and(|packed| packed_ref_exists(&packed, &name))
            }
            None => false,
        }
    }
}

/// The identity of the repository checked out at `root`; `None` when it is not the top of a
/// checkout, has no commit, or git is missing, fails or takes too long.
pub fn identity(root: &Path) -> Option<Identity> {
    let dirs = git_dirs(root)?;
    if !dirs.head_is_born() {
        return None;
    }
    let output = root_commits(root)?;
    Identity::new(&output, dirs.remote())
}

/// `git rev-list --max-parents=0 HEAD` in `root`, within `GIT_TIMEOUT`.
fn root_commits(root: &Path) -> Option<String> {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(root)
        .args(["rev-list", "--max-parents=0", "HEAD"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for var in GIT_LOCATION_VARS {
        command.env_remove(var);
    }
    // Not on PATH, not executable: no identity.
    let mut child = command.spawn().ok()?;
    let deadline = Instant::now() + GIT_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    // A few root commits fit the pipe's buffer: reading after the exit cannot block the child.
    let mut output = String::new();
    child.stdout.take()?.read_to_string(&mut output).ok()?;
    status.success().then_some(output)
}

/// Records the identity of `memory`'s repository when it has none yet: when the store is
/// created, mostly, and once for a store written before identities were kept.
pub fn record_identity(memory: &mut WorkspaceMemory) {
    let workspace = &mut memory.workspace;
    if workspace.root.is_empty() || workspace.extra.contains_key(IDENTITY_FIELD) {
        return;
    }
    if let Some(identity) = identity(Path::new(&workspace.root)) {
        workspace
            .extra
            .insert(IDENTITY_FIELD.into(), identity.to_value());
    }
}
