//! Gemini CLI's settings files: where they are, and ocmem's hooks merged into one and taken out
//! again. Pure: settings JSON in, settings JSON out.
//!
//! A settings file's hooks are `"hooks": {<event>: [{"matcher"?, "hooks": [{"type": "command",
//! "command", "timeout"}]}]}`, as in Claude Code's files, but the timeout is in milliseconds and
//! the command runs with `bash -c`. A hook that exits 2 or more denies what it hooks, and one
//! whose binary is missing exits 127 (a refused prompt), so ocmem's command silences the shell
//! and exits 0 whatever happens: `<ocmem binary> hook gemini 2>/dev/null || true`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use crate::domain::base::install_level::Level;
use crate::host::claude_code::settings::{ocmem_program_before, shell_quote};
use crate::host::hook_groups::HookSet;

/// A regular expression over tool names: those of `super::TOOLS`, the others are not worth
/// starting a process for.
pub const RECORDED_TOOLS: &str =
    "^(read_file|replace|write_file|grep_search|glob|run_shell_command)$";

/// Milliseconds Gemini CLI lets one ocmem hook run: far above the milliseconds it takes, and
/// short enough that a stuck disk cannot hold a session up for long.
pub const HOOK_TIMEOUT_MS: u64 = 10_000;

/// The events ocmem registers, each with the matcher of its group (`None`: every occurrence).
pub const EVENTS: [(&str, Option<&str>); 4] = [
    ("SessionStart", None),
    ("BeforeAgent", None),
    ("AfterTool", Some(RECORDED_TOOLS)),
    ("SessionEnd", None),
];

/// What ocmem's command runs after the binary's path.
pub const HOOK_ARGS: [&str; 2] = ["hook", "gemini"];

/// What follows them: no word on stderr and exit 0 when the binary cannot be run.
pub const SILENCER: [&str; 3] = ["2>/dev/null", "||", "true"];

/// The settings file ocmem's hooks go into: the project's `.gemini/settings.json`, or the
/// user's `~/.gemini/settings.json`.
pub fn settings_path(level: Level, project_root: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let dir = match level {
        Level::Project => project_root.to_path_buf(),
        Level::User => home?.to_path_buf(),
    };
    Some(dir.join(".gemini").join("settings.json"))
}

/// The hook command that runs `binary`, quoted for the shell when its path needs it.
pub fn hook_command(binary: &Path) -> String {
    format!(
        "{} {} {}",
        shell_quote(&binary.to_string_lossy()),
        HOOK_ARGS.join(" "),
        SILENCER.join(" ")
    )
}

/// The program an ocmem hook command runs, unquoted, when `command` is one: `<program> hook
/// gemini`, with or without the silencer, with a program whose file name starts with `ocmem`.
pub fn ocmem_program(command: &str) -> Option<String> {
    let silenced: Vec<&str> = HOOK_ARGS.iter().chain(&SILENCER).copied().collect();
    ocmem_program_before(command, &[&HOOK_ARGS, &silenced])
}

/// Whether a command is ocmem's as `init` writes it, the silencer included.
pub fn is_silenced(command: &str) -> bool {
    command
        .split_whitespace()
        .rev()
        .take(SILENCER.len())
        .eq(SILENCER.iter().rev().copied())
}

/// ocmem's hooks in Gemini CLI's settings (see `host::hook_groups`).
fn hook_set() -> HookSet<'static> {
    HookSet::timed(&EVENTS, HOOK_TIMEOUT_MS, ocmem_program)
}

/// `settings` with ocmem's hooks running `command` for every event of `EVENTS`: see
/// `HookSet::install`. Fails, saying where, on a shape Gemini CLI would not accept.
pub fn install(settings: &Value, command: &str) -> Result<Value> {
    hook_set().install(settings, command)
}

/// `settings` without ocmem's handlers: see `HookSet::uninstall`.
pub fn uninstall(settings: &Value) -> Value {
    hook_set().uninstall(settings)
}

/// One of ocmem's handlers found in a settings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundHook {
    pub event: String,
    /// The program it runs, unquoted.
    pub program: String,
    /// Whether it exits 0 silently when the program cannot be run.
    pub silenced: bool,
}

/// Every handler of ocmem's in `settings`, in file order.
pub fn ocmem_hooks(settings: &Value) -> Vec<FoundHook> {
    hook_set()
        .found(settings)
        .into_iter()
        .map(|found| FoundHook {
            event: found.event.to_string(),
            silenced: found.handler["command"].as_str().is_some_and(is_silenced),
            program: found.program,
        })
        .collect()
}

/// The events of `EVENTS` that have no handler of ocmem's in `found`.
pub fn missing_events(found: &[FoundHook]) -> Vec<&'static str> {
    hook_set().missing(found.iter().map(|f| f.event.as_str()))
}

#[cfg(test)]
mod tests;
