//! The temporary directory of an end-to-end test: where HOME, the XDG directories, ocmem's data,
//! the logs and the demo repository go, and the guard that keeps it all when the test fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tempfile::TempDir;

/// Where everything of one run lives, all inside one temporary directory.
pub struct Layout {
    pub root: PathBuf,
    pub home: PathBuf,
    pub xdg_config: PathBuf,
    pub xdg_data: PathBuf,
    pub xdg_cache: PathBuf,
    pub xdg_state: PathBuf,
    pub tmp: PathBuf,
    /// ocmem's data directory (`OCMEM_DATA_DIR`).
    pub data: PathBuf,
    /// The stdout and stderr of every process the test runs.
    pub logs: PathBuf,
    /// The demo repository.
    pub demo: PathBuf,
}

impl Layout {
    /// A new temporary directory named `prefix…`, and the layout inside it.
    pub fn temp(prefix: &str) -> (TempDir, Layout) {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir().unwrap();
        let layout = Layout::new(dir.path());
        (dir, layout)
    }

    pub fn new(root: &Path) -> Layout {
        let root = root.canonicalize().unwrap();
        let home = root.join("home");
        let layout = Layout {
            xdg_config: home.join(".config"),
            xdg_data: home.join(".local/share"),
            xdg_cache: home.join(".cache"),
            xdg_state: home.join(".local/state"),
            tmp: root.join("tmp"),
            data: root.join("ocmem-data"),
            logs: root.join("logs"),
            demo: root.join("demo"),
            home,
            root,
        };
        for dir in [
            &layout.xdg_config,
            &layout.xdg_data,
            &layout.xdg_cache,
            &layout.xdg_state,
            &layout.tmp,
            &layout.logs,
            &layout.demo,
        ] {
            fs::create_dir_all(dir).unwrap();
        }
        layout
    }

    /// Makes `cmd` run in the demo repository (PWD too, as a shell would have it), with HOME,
    /// the XDG directories and TMPDIR here and ocmem's data directory named.
    pub fn confine<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        cmd.current_dir(&self.demo)
            .env("PWD", &self.demo)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.xdg_config)
            .env("XDG_DATA_HOME", &self.xdg_data)
            .env("XDG_CACHE_HOME", &self.xdg_cache)
            .env("XDG_STATE_HOME", &self.xdg_state)
            .env("TMPDIR", &self.tmp)
            .env("OCMEM_DATA_DIR", &self.data)
    }
}

/// A request a scripted model server recorded, as a failure report shows it.
pub trait Recorded: Clone {
    /// The request and what it was answered, for `model-requests.json`.
    fn dump(&self) -> Value;
    /// One line: the method, the path and the answer.
    fn summary(&self) -> String;
    /// The method and the path.
    fn request_line(&self) -> String;
    /// Whether the server had no answer for it.
    fn unserved(&self) -> bool;
}

/// Owns the temporary directory. When the test fails (a panic unwinds through it), it keeps the
/// directory, writes the model requests to `model-requests.json`, and prints where to look.
pub struct KeepOnFailure<E: Recorded> {
    dir: Option<TempDir>,
    root: PathBuf,
    notes: Vec<(&'static str, PathBuf)>,
    requests: Arc<Mutex<Vec<E>>>,
}

impl<E: Recorded> KeepOnFailure<E> {
    /// `host` names the agent's own directory (its logs), listed first.
    pub fn new(
        dir: TempDir,
        layout: &Layout,
        host: (&'static str, PathBuf),
        requests: Arc<Mutex<Vec<E>>>,
    ) -> KeepOnFailure<E> {
        KeepOnFailure {
            root: layout.root.clone(),
            dir: Some(dir),
            notes: vec![
                host,
                ("process output", layout.logs.clone()),
                ("ocmem data dir", layout.data.clone()),
                ("demo repository", layout.demo.clone()),
            ],
            requests,
        }
    }
}

impl<E: Recorded> Drop for KeepOnFailure<E> {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return; // the TempDir is removed
        }
        if let Some(dir) = self.dir.take() {
            let _ = dir.keep();
        }
        let requests = match self.requests.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let dump: Vec<Value> = requests.iter().map(Recorded::dump).collect();
        let dump_path = self.root.join("model-requests.json");
        let _ = fs::write(
            &dump_path,
            serde_json::to_string_pretty(&dump).unwrap_or_default(),
        );

        eprintln!("\nocmem e2e: FAILED; kept {}", self.root.display());
        for (what, path) in &self.notes {
            eprintln!("  {what:<24} {}", path.display());
        }
        eprintln!("  {:<24} {}", "model requests (JSON)", dump_path.display());
        eprintln!("  the model server received {} requests:", requests.len());
        for (i, e) in requests.iter().enumerate() {
            eprintln!("   {i:>3} {}", e.summary());
        }
    }
}
