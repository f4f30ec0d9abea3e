//! Running the real Claude Code, isolated: its install, the `claude -p` command line and its
//! output, and the settings and hook that record its payloads.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::process;
use super::workdir::Layout;

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
// Claude Code
// ---------------------------------------------------------------------------------------------

/// Claude Code's own directory: settings, session transcripts, debug logs.
pub fn claude_dir(layout: &Layout) -> PathBuf {
    layout.home.join(".claude")
}

/// Runs `tests/e2e/install-claude-code.sh`, which names the binary on stdout (`claude=<path>`).
pub fn install(layout: &Layout, timeout: Duration, deadline: Instant) -> PathBuf {
    let [bin] = process::install(
        "install-claude-code",
        ["claude"],
        &layout.logs,
        timeout,
        deadline,
    );
    bin
}

/// `claude <args>` in the demo repository, isolated: a clean environment (PATH and SHELL kept),
/// HOME, the XDG directories and TMPDIR in the temporary directory, the scripted model as the
/// API with a dummy key, no update checks or other traffic, and ocmem's data directory named.
pub fn claude(layout: &Layout, bin: &Path, base_url: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(args).env_clear();
    for kept in ["PATH", "SHELL", "LANG"] {
        if let Some(value) = std::env::var_os(kept) {
            cmd.env(kept, value);
        }
    }
    layout
        .confine(&mut cmd)
        .env("ANTHROPIC_BASE_URL", base_url)
        .env("ANTHROPIC_API_KEY", "dummy")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
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
