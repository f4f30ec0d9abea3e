//! A user's machine in a private temp dir, for running `ocmem init` and `doctor` as a user does:
//! a project (a git repository, run from a subdirectory), HOME, and the places the hosts and
//! ocmem keep their files. Each test adds the paths of its host.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;

use super::PROCESS_TIMEOUT;

pub struct Sandbox {
    pub tmp: TempDir,
    /// Where in the project commands run.
    workdir: &'static str,
}

impl Sandbox {
    /// A new temp dir where `project` is a git repository holding `workdir`, with the
    /// directories `dirs` (relative to the temp dir) made too.
    pub fn new(workdir: &'static str, dirs: &[&str]) -> Sandbox {
        let sandbox = Sandbox {
            tmp: tempfile::tempdir().unwrap(),
            workdir,
        };
        fs::create_dir_all(sandbox.project().join(".git")).unwrap();
        fs::create_dir_all(sandbox.project().join(workdir)).unwrap();
        for dir in dirs {
            fs::create_dir_all(sandbox.path(dir)).unwrap();
        }
        sandbox
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.tmp.path().join(relative)
    }
    pub fn home(&self) -> PathBuf {
        self.path("home")
    }
    pub fn project(&self) -> PathBuf {
        self.path("project")
    }
    pub fn data(&self) -> PathBuf {
        self.path("data")
    }
    pub fn xdg(&self) -> PathBuf {
        self.path("xdg")
    }

    /// `binary` as the user runs it, from the project's working directory: with HOME,
    /// XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR and ocmem's data directory in the temp dir (`home`,
    /// `xdg`, `claude-config`, `data`) and nothing on PATH.
    pub fn command(&self, binary: &Path) -> Command {
        let mut cmd = Command::new(binary);
        cmd.timeout(PROCESS_TIMEOUT)
            .current_dir(self.project().join(self.workdir))
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.xdg())
            .env("CLAUDE_CONFIG_DIR", self.path("claude-config"))
            .env("OCMEM_DATA_DIR", self.data())
            .env("PATH", "/nonexistent");
        cmd
    }
}

/// Runs `cmd`. A binary just copied may be "busy" for a moment: a process another test forked
/// at the same time holds the copy's write handle until it execs. Starting it is tried again then.
pub fn output_once_free(cmd: &mut Command) -> Output {
    let mut tries = 0;
    loop {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
}

/// The built binary, by its canonical path.
pub fn binary() -> PathBuf {
    fs::canonicalize(env!("CARGO_BIN_EXE_ocmem")).unwrap()
}
