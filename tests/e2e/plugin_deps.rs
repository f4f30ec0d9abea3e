//! Keeps OpenCode from installing anything while the test runs.
//!
//! At startup OpenCode 1.18.33 installs its plugin API, `@opencode-ai/plugin` at its own version,
//! into every config directory it reads: its global one (`$XDG_CONFIG_HOME/opencode`), each
//! `.opencode/` from the project up to the worktree root, `~/.opencode` when it exists, and
//! `$OPENCODE_CONFIG_DIR`. It does so with npm's installer (Arborist, built into the binary; not
//! bun), one directory at a time under a lock named after the directory, and waits for it before
//! loading plugins. It skips a directory that is not writable, and one whose `node_modules`
//! exists while every dependency named in its `package.json`, and the plugin API itself, is
//! listed under `packages[""]` of its `package-lock.json`.
//!
//! So the test gives each of its fresh config directories what that install would leave there:
//! `tests/e2e/install-opencode.sh` installs the same pinned package with npm once per machine,
//! and [`seed`] copies its `package.json` and `package-lock.json` and links its `node_modules`.
//! Every OpenCode process is pointed at a [`Tripwire`] instead of the npm registry, with no
//! retries, so an install that still starts fails at once and says so in OpenCode's log; and
//! [`Seeded::assert_untouched`] checks afterwards that the seeded files are as they were.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The files OpenCode reads to decide that a directory's dependencies are installed.
const MANIFESTS: [&str; 2] = ["package.json", "package-lock.json"];

/// A stand-in for the npm registry on 127.0.0.1 that answers every request with 503 and records
/// its request line: any request means something tried to download.
pub struct Tripwire {
    pub url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Tripwire {
    pub fn start() -> Tripwire {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&requests);
        thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut line = String::new();
                let _ = BufReader::new(&stream).read_line(&mut line);
                shared.lock().unwrap().push(line.trim_end().to_string());
                let _ = stream.write_all(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\
                      Connection: close\r\n\r\n",
                );
            }
        });
        Tripwire {
            url: format!("http://127.0.0.1:{port}/"),
            requests,
        }
    }

    /// The request lines received so far.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// One config directory as the test seeded it.
pub struct Seeded {
    dir: PathBuf,
    /// Each manifest's name and the content written.
    manifests: Vec<(&'static str, String)>,
    node_modules: PathBuf,
}

/// Gives `dir` the installed plugin API of `plugin_deps` (a directory the install script
/// filled): copies of its manifests, and a link to its `node_modules`.
pub fn seed(dir: &Path, plugin_deps: &Path) -> Seeded {
    fs::create_dir_all(dir).unwrap();
    let manifests = MANIFESTS
        .iter()
        .map(|name| {
            let from = plugin_deps.join(name);
            let content = fs::read_to_string(&from)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
            fs::write(dir.join(name), &content).unwrap();
            (*name, content)
        })
        .collect();
    let node_modules = plugin_deps.join("node_modules");
    std::os::unix::fs::symlink(&node_modules, dir.join("node_modules")).unwrap();
    Seeded {
        dir: dir.to_path_buf(),
        manifests,
        node_modules,
    }
}

impl Seeded {
    /// Fails unless the manifests hold what was written and `node_modules` still links to the
    /// cached install: an install by OpenCode would have rewritten them.
    pub fn assert_untouched(&self) {
        for (name, written) in &self.manifests {
            let path = self.dir.join(name);
            let now = fs::read_to_string(&path).unwrap_or_default();
            assert!(
                &now == written,
                "{} changed during the run: OpenCode installed dependencies",
                path.display()
            );
        }
        let link = self.dir.join("node_modules");
        assert_eq!(
            fs::read_link(&link).ok().as_deref(),
            Some(self.node_modules.as_path()),
            "{} is no longer the link to the cached install",
            link.display()
        );
    }
}
