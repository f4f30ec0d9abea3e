//! Running the real Codex CLI in the end-to-end test: its install, its config (the scripted
//! Responses API as the model provider, no approvals, no sandbox), and one `codex exec`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::process;
use super::workdir::Layout;

/// Codex's home (`CODEX_HOME`): config, hooks, sessions (the rollout files), logs.
pub fn codex_home(layout: &Layout) -> PathBuf {
    layout.home.join(".codex")
}

/// Runs `tests/e2e/install-codex.sh`, which names the binary on stdout (`codex=<path>`).
pub fn install(layout: &Layout, timeout: Duration, deadline: Instant) -> PathBuf {
    let [bin] = process::install("install-codex", ["codex"], &layout.logs, timeout, deadline);
    bin
}

/// Codex's `config.toml`: the scripted model at `base_url`, compaction once a reply reports
/// more than `compact_limit` tokens, no approvals or sandbox, nothing sent anywhere else.
pub fn write_config(layout: &Layout, base_url: &str, compact_limit: u64) {
    let dir = codex_home(layout);
    fs::create_dir_all(&dir).unwrap();
    let config = format!(
        "model = \"gpt-5.5\"\n\
         model_provider = \"mock\"\n\
         approval_policy = \"never\"\n\
         sandbox_mode = \"danger-full-access\"\n\
         model_auto_compact_token_limit = {compact_limit}\n\
         check_for_update_on_startup = false\n\
         \n\
         [analytics]\nenabled = false\n\
         \n\
         [model_providers.mock]\n\
         name = \"mock\"\n\
         base_url = \"{base_url}\"\n\
         wire_api = \"responses\"\n\
         requires_openai_auth = false\n\
         supports_websockets = false\n"
    );
    fs::write(dir.join("config.toml"), config).unwrap();
}

/// `codex exec --json <args>` in the demo repository, isolated: a clean environment (PATH
/// kept), HOME, CODEX_HOME, the XDG directories and TMPDIR in the temporary directory, and
/// ocmem's data directory named.
pub fn exec(layout: &Layout, bin: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("exec")
        .arg("--json")
        .arg("--skip-git-repo-check")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("CODEX_HOME", codex_home(layout))
        .env("RUST_LOG", "warn");
    layout.confine(&mut cmd);
    cmd
}

/// The events `codex exec --json` printed, one JSON object a line.
pub fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The session (thread) id of a run.
pub fn thread_id(stdout: &str) -> String {
    events(stdout)
        .iter()
        .find(|e| e["type"] == "thread.started")
        .and_then(|e| e["thread_id"].as_str())
        .unwrap_or_else(|| panic!("codex exec printed no thread.started event:\n{stdout}"))
        .to_string()
}

/// The agent's last message of a run.
pub fn last_message(stdout: &str) -> String {
    events(stdout)
        .iter()
        .rev()
        .find(|e| e["type"] == "item.completed" && e["item"]["type"] == "agent_message")
        .and_then(|e| e["item"]["text"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// The error items of a run (Codex reports a failed or misconfigured hook as one).
pub fn errors(stdout: &str) -> Vec<String> {
    events(stdout)
        .iter()
        .filter(|e| e["type"] == "error" || e["item"]["type"] == "error")
        .map(Value::to_string)
        .collect()
}
