//! Running the real Claude Code, isolated: its install, a temporary directory that is kept on
//! failure, and the `claude -p` command line.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;

use super::anthropic_model::Exchange;
use super::process::run;

/// The pinned Claude Code release, as `claude --version` prints it.
pub const CLAUDE_CODE_VERSION: &str = "2.1.330";

/// The tools the sessions may use. Claude Code 2.1.330 offers Grep and Glob only when the
/// command line names them (`--tools` or `--allowedTools`; allow rules in settings are not
/// enough), and has no MultiEdit.
pub const TOOLS: &str = "Bash,Read,Edit,Write,NotebookEdit,Grep,Glob";

/// Every hook event Claude Code 2.1.330 reports to command hooks that a session without
/// subagents or permission prompts can reach.
pub const HOOK_EVENTS: [&str; 10] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Notification",
];

// ---------------------------------------------------------------------------------------------
// The temporary directory, kept on failure
// ---------------------------------------------------------------------------------------------

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

    /// Claude Code's own directory: settings, session transcripts, debug logs.
    pub fn claude_dir(&self) -> PathBuf {
        self.home.join(".claude")
    }
}

/// Owns the temporary directory. When the test fails (a panic unwinds through it), it keeps the
/// directory, writes the model requests to `model-requests.json`, and prints where to look.
pub struct KeepOnFailure {
    dir: Option<TempDir>,
    root: PathBuf,
    notes: Vec<(&'static str, PathBuf)>,
    requests: Arc<Mutex<Vec<Exchange>>>,
}

impl KeepOnFailure {
    pub fn new(
        dir: TempDir,
        layout: &Layout,
        requests: Arc<Mutex<Vec<Exchange>>>,
    ) -> KeepOnFailure {
        KeepOnFailure {
            root: layout.root.clone(),
            dir: Some(dir),
            notes: vec![
                ("Claude Code's directory", layout.claude_dir()),
                ("process output", layout.logs.clone()),
                ("ocmem data dir", layout.data.clone()),
                ("demo repository", layout.demo.clone()),
            ],
            requests,
        }
    }
}

impl Drop for KeepOnFailure {
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
        let dump: Vec<Value> = requests
            .iter()
            .map(|e| json!({"method": e.method, "path": e.path, "reply": e.reply, "body": e.body}))
            .collect();
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
            eprintln!("   {i:>3} {} {} -> {}", e.method, e.path, e.reply);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Claude Code
// ---------------------------------------------------------------------------------------------

/// Runs `tests/e2e/install-claude-code.sh`, which names the binary on stdout (`claude=<path>`).
pub fn install(layout: &Layout, timeout: Duration, deadline: Instant) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/install-claude-code.sh");
    let out = run(
        Command::new("bash").arg(&script),
        "install-claude-code",
        &layout.logs,
        timeout,
        deadline,
    );
    out.assert_success("tests/e2e/install-claude-code.sh");
    let bin = out
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("claude="))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            panic!(
                "install-claude-code.sh did not print claude=:\n{}",
                out.stdout
            )
        });
    assert!(
        bin.is_file(),
        "install-claude-code.sh printed claude={}, which does not exist",
        bin.display()
    );
    bin
}

/// `claude <args>` in the demo repository, isolated: a clean environment (PATH and SHELL kept),
/// HOME, the XDG directories and TMPDIR in the temporary directory, the scripted model as the
/// API with a dummy key, no update checks or other traffic, and ocmem's data directory named.
pub fn claude(layout: &Layout, bin: &Path, base_url: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(args).current_dir(&layout.demo).env_clear();
    for kept in ["PATH", "SHELL", "LANG"] {
        if let Some(value) = std::env::var_os(kept) {
            cmd.env(kept, value);
        }
    }
    cmd.env("PWD", &layout.demo)
        .env("HOME", &layout.home)
        .env("XDG_CONFIG_HOME", &layout.xdg_config)
        .env("XDG_DATA_HOME", &layout.xdg_data)
        .env("XDG_CACHE_HOME", &layout.xdg_cache)
        .env("XDG_STATE_HOME", &layout.xdg_state)
        .env("TMPDIR", &layout.tmp)
        .env("ANTHROPIC_BASE_URL", base_url)
        .env("ANTHROPIC_API_KEY", "dummy")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("OCMEM_DATA_DIR", &layout.data)
        // npm (run by the Bash tool) would check for a newer npm and say so in the output.
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("NO_COLOR", "1");
    cmd
}

/// The session id in `claude -p --output-format stream-json` output (every event carries it).
pub fn session_id(stdout: &str) -> String {
    events(stdout)
        .iter()
        .find_map(|event| event["session_id"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no session_id in the output of claude -p:\n{stdout}"))
}

/// The JSON events of `--output-format stream-json` output.
pub fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .collect()
}

/// The final `result` event of a `claude -p` run.
pub fn result_event(stdout: &str) -> Value {
    events(stdout)
        .into_iter()
        .rfind(|event| event["type"] == "result")
        .unwrap_or_else(|| panic!("no result event in the output of claude -p:\n{stdout}"))
}

/// Writes `content` to `dir/relative`, creating the parent directories.
pub fn write(dir: &Path, relative: &str, content: &str) {
    let path = dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// `git init` and one commit per subject in `dir`, with a fixed identity and no user config.
pub fn git_repo(layout: &Layout, subjects: &[&str], timeout: Duration, deadline: Instant) {
    let git = |args: &[&str], name: &str| {
        run(
            Command::new("git")
                .args(args)
                .current_dir(&layout.demo)
                .env("HOME", &layout.home)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_AUTHOR_NAME", "Demo")
                .env("GIT_AUTHOR_EMAIL", "demo@example.com")
                .env("GIT_COMMITTER_NAME", "Demo")
                .env("GIT_COMMITTER_EMAIL", "demo@example.com"),
            name,
            &layout.logs,
            timeout,
            deadline,
        )
        .assert_success(name);
    };
    git(&["init", "-q", "-b", "main"], "git-init");
    git(&["add", "-A"], "git-add");
    for (i, subject) in subjects.iter().enumerate() {
        git(
            &["commit", "-q", "--allow-empty", "-m", subject],
            &format!("git-commit-{i}"),
        );
    }
}

/// A hook command that appends its stdin (one JSON payload) as one line to `record`.
pub fn recording_hook(layout: &Layout, record: &Path) -> PathBuf {
    let script = layout.root.join("record-hook.sh");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\n# Appends the hook's payload as one line.\n{{ cat; echo; }} >> '{}'\n",
            record.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Settings that allow every tool the sessions use, and, when given, run `hook` for every event.
pub fn settings(hook: Option<&Path>) -> Value {
    let allow: Vec<&str> = TOOLS.split(',').collect();
    let mut settings = json!({"permissions": {"allow": allow}});
    if let Some(hook) = hook {
        let command = json!([{"hooks": [{"type": "command", "command": hook}]}]);
        let hooks: serde_json::Map<String, Value> = HOOK_EVENTS
            .iter()
            .map(|event| (event.to_string(), command.clone()))
            .collect();
        settings["hooks"] = Value::Object(hooks);
    }
    settings
}

/// The hook payloads `recording_hook` appended, in order.
pub fn recorded(record: &Path) -> Vec<Value> {
    let text = fs::read_to_string(record).unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("a recorded hook payload is not JSON ({e}): {line}"))
        })
        .collect()
}
