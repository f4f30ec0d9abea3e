//! Running the real Gemini CLI, isolated: its install and the `gemini -p` command line.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::process;
use super::workdir::Layout;

/// The model the settings name, and so the path of every model request.
pub const MODEL: &str = "gemini-2.5-pro";

/// Runs `tests/e2e/install-gemini.sh`, which names the CLI's entry point (`gemini=<path>`).
pub fn install(layout: &Layout, timeout: Duration, deadline: Instant) -> PathBuf {
    let [entry] = process::install(
        "install-gemini",
        ["gemini"],
        &layout.logs,
        timeout,
        deadline,
    );
    entry
}

/// The user settings: API-key auth (the key is a dummy, the API the scripted server), no folder
/// trust prompt (headless runs would stop), no telemetry, statistics or update checks.
pub fn user_settings() -> Value {
    json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
        "model": {"name": MODEL, "compressionThreshold": 0.5},
        "telemetry": {"enabled": false},
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
    })
}

/// `node <gemini> <args>` in the demo repository, isolated: a clean environment (PATH kept),
/// HOME, the XDG directories and TMPDIR in the temporary directory, the scripted server as the
/// API with a dummy key, and ocmem's data directory named.
pub fn gemini(layout: &Layout, entry: &Path, base_url: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new("node");
    cmd.arg(entry).args(args).env_clear();
    for kept in ["PATH", "LANG"] {
        if let Some(value) = std::env::var_os(kept) {
            cmd.env(kept, value);
        }
    }
    layout
        .confine(&mut cmd)
        .env("GEMINI_API_KEY", "dummy-key")
        .env("GOOGLE_GEMINI_BASE_URL", base_url)
        // npm (run by the shell tool) would check for a newer npm and say so in the output.
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("NO_COLOR", "1");
    cmd
}
