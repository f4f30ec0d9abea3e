//! Running the real Claude Code, isolated: its install, the `claude -p` command line and its
//! output, and the settings and hook that record its payloads.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;

use super::anthropic_model::{self, Reply};
use super::process;
use super::workdir::{KeepOnFailure, Layout};

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

/// Input tokens reported with the last tool call before a compaction: close to the default
/// model's context window (1 000 000 tokens), so Claude Code compacts before its next request.
pub const FULL_CONTEXT: u64 = 990_000;

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

/// `claude -p <prompt>` printing JSON events, with the tools the sessions use and the settings
/// file `settings`, then `more` arguments.
pub fn claude_p(
    layout: &Layout,
    bin: &Path,
    base_url: &str,
    prompt: &str,
    settings: &Path,
    more: &[&str],
) -> Command {
    let settings = settings.to_string_lossy();
    let mut args = vec![
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--tools",
        TOOLS,
        "--settings",
        &settings,
    ];
    args.extend(more);
    claude(layout, bin, base_url, &args)
}

/// Keeps the temporary directory `dir` if the test fails, naming Claude Code's directory and the
/// requests `server` received.
pub fn keep_on_failure(
    dir: TempDir,
    layout: &Layout,
    server: &anthropic_model::Server,
) -> KeepOnFailure<anthropic_model::Exchange> {
    KeepOnFailure::new(
        dir,
        layout,
        ("Claude Code's directory", claude_dir(layout)),
        server.log(),
    )
}

/// The reply at step `done` of a scripted turn: the call `calls[done]`, with the id `id`, which
/// reports `FULL_CONTEXT` input tokens if it is the last and `full_at_end`; or `finish` once every
/// call is done.
pub fn step(
    calls: Vec<(&'static str, Value)>,
    done: usize,
    id: &str,
    finish: &str,
    full_at_end: bool,
) -> Reply {
    let count = calls.len();
    match calls.into_iter().nth(done) {
        Some((name, input)) => {
            let mut reply = Reply::tool(id, name, input);
            if full_at_end && done + 1 == count {
                if let Reply::Tool { input_tokens, .. } = &mut reply {
                    *input_tokens = FULL_CONTEXT;
                }
            }
            reply
        }
        None => Reply::text(finish),
    }
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

/// Writes `permissions.json`, settings that allow every tool the sessions use, and returns its
/// path.
pub fn write_permissions(layout: &Layout) -> PathBuf {
    let permissions = layout.root.join("permissions.json");
    fs::write(&permissions, settings(None).to_string()).unwrap();
    permissions
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
