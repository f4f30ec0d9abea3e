//! Running the real OpenCode, isolated: its install, its configuration for the scripted model
//! (`model.rs`), and the environment of every `opencode` process.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::model;
use super::process;
use super::workdir::Layout;

/// The installed OpenCode.
pub struct Installed {
    /// The opencode binary.
    pub bin: PathBuf,
    /// The plugin API as OpenCode would install it into a config directory.
    pub plugin_deps: PathBuf,
}

/// Runs `tests/e2e/install-opencode.sh`, which names what it installed on stdout
/// (`opencode=<binary>`, `plugin-deps=<directory>`).
pub fn install(layout: &Layout, timeout: Duration, deadline: Instant) -> Installed {
    let [bin, plugin_deps] = process::install(
        "install-opencode",
        ["opencode", "plugin-deps"],
        &layout.logs,
        timeout,
        deadline,
    );
    Installed { bin, plugin_deps }
}

/// OpenCode's project configuration (`opencode.json`): only the scripted provider at
/// `base_url`, a model with a small context (a reported usage above it makes OpenCode compact),
/// bash and edits allowed, and nothing that phones home.
pub fn config(base_url: &str) -> Value {
    json!({
        "autoupdate": false,
        "share": "disabled",
        "enabled_providers": ["mock"],
        "model": format!("mock/{}", model::MODEL_ID),
        "small_model": format!("mock/{}", model::MODEL_ID),
        "permission": {"bash": "allow", "edit": "allow"},
        "provider": {
            "mock": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Scripted model",
                "options": {"baseURL": base_url, "apiKey": "not-a-real-key"},
                "models": {
                    model::MODEL_ID: {
                        "name": "Scripted model",
                        "tool_call": true,
                        "limit": {"context": 20_000, "output": 4_000}
                    }
                }
            }
        }
    })
}

/// The config directories OpenCode reads here, each of which it installs its plugin API
/// into: its global one and the demo repository's `.opencode/` (`~/.opencode` does not
/// exist, and `OPENCODE_CONFIG_DIR` is not set).
pub fn config_dirs(layout: &Layout) -> [PathBuf; 2] {
    [
        layout.xdg_config.join("opencode"),
        layout.demo.join(".opencode"),
    ]
}

/// Makes `cmd` (an `opencode` command with its arguments, whose inherited environment the
/// caller has already cleaned) run in the demo repository, isolated: HOME, the XDG directories
/// and TMPDIR in the temporary directory, ocmem's data directory named, OpenCode's update checks,
/// sharing, model catalogue and downloads turned off, and npm's registry replaced by `registry`
/// (the tripwire) with no retries. Its log goes to stderr (`--print-logs`): OpenCode's log file
/// loses its tail at exit.
pub fn isolate<'a>(cmd: &'a mut Command, layout: &Layout, registry: &str) -> &'a mut Command {
    // OpenCode takes its directory from PWD when set, as a shell would have it.
    layout
        .confine(cmd.args(["--print-logs", "--log-level", "DEBUG"]))
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_SHARE", "1")
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .env("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
        .env("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1")
        .env("OPENCODE_DISABLE_CLAUDE_CODE", "1")
        .env("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1")
        // OpenCode's installer reads npm's settings from the environment: any download it
        // still attempts goes to the tripwire and fails at once.
        .env("NPM_CONFIG_REGISTRY", registry)
        .env("NPM_CONFIG_FETCH_RETRIES", "0")
        // npm (run by the bash tool) would check for a newer npm and say so in the output.
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("NO_COLOR", "1")
}
