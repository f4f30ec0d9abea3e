//! Gemini CLI's settings files: where they are, and ocmem's hooks merged into one and taken out
//! again. Pure: settings JSON in, settings JSON out.
//!
//! A settings file's hooks are `"hooks": {<event>: [{"matcher"?, "hooks": [{"type": "command",
//! "command", "timeout"}]}]}`, as in Claude Code's files, but the timeout is in milliseconds and
//! the command runs with `bash -c`. A hook that exits 2 or more denies what it hooks, and one
//! whose binary is missing exits 127 (a refused prompt), so ocmem's command silences the shell
//! and exits 0 whatever happens: `<ocmem binary> hook gemini 2>/dev/null || true`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::domain::install_level::Level;
use crate::host::claude_code::settings::{first_shell_word, shell_quote};

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
    let (program, rest) = first_shell_word(command.trim_start())?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let silenced: Vec<&str> = HOOK_ARGS.iter().chain(&SILENCER).copied().collect();
    if words != HOOK_ARGS && words != silenced {
        return None;
    }
    let name = Path::new(&program).file_name()?.to_string_lossy();
    name.starts_with("ocmem").then_some(program)
}

/// Whether a command is ocmem's as `init` writes it, the silencer included.
pub fn is_silenced(command: &str) -> bool {
    command
        .split_whitespace()
        .rev()
        .take(SILENCER.len())
        .eq(SILENCER.iter().rev().copied())
}

fn is_ocmem_handler(handler: &Value) -> bool {
    handler.get("type").and_then(Value::as_str) == Some("command")
        && handler
            .get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| ocmem_program(c).is_some())
}

fn handlers(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn ocmem_group(matcher: Option<&str>, command: &str) -> Value {
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), matcher.into());
    }
    let handler = json!({"type": "command", "command": command, "timeout": HOOK_TIMEOUT_MS});
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}

/// `settings` with ocmem's hooks running `command` for every event of `EVENTS`. A group that
/// holds only ocmem's handler is replaced where it is; any other handler of ocmem's is taken
/// out of its group and a group of ocmem's own is added at the end. Everything else, and the
/// order of every key, is kept. Fails, saying where, on a shape Gemini CLI would not accept.
pub fn install(settings: &Value, command: &str) -> Result<Value> {
    let mut settings = settings.clone();
    let Some(root) = settings.as_object_mut() else {
        bail!("it is not a JSON object");
    };
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("its \"hooks\" is not an object");
    };
    for (event, matcher) in EVENTS {
        let groups = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(groups) = groups.as_array_mut() else {
            bail!("its \"hooks\".\"{event}\" is not an array");
        };
        let wanted = ocmem_group(matcher, command);
        let holding: Vec<usize> = (0..groups.len())
            .filter(|&i| handlers(&groups[i]).iter().any(is_ocmem_handler))
            .collect();
        match holding[..] {
            [only] if handlers(&groups[only]).len() == 1 => groups[only] = wanted,
            _ => {
                remove_ocmem_handlers(groups);
                groups.push(wanted);
            }
        }
    }
    Ok(settings)
}

fn remove_ocmem_handlers(groups: &mut Vec<Value>) -> bool {
    let mut removed = false;
    groups.retain_mut(|group| {
        let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = list.len();
        list.retain(|handler| !is_ocmem_handler(handler));
        if list.len() == before {
            return true;
        }
        removed = true;
        !list.is_empty()
    });
    removed
}

/// `settings` without ocmem's handlers under any event, and without the groups, event lists
/// and `hooks` object that only they filled.
pub fn uninstall(settings: &Value) -> Value {
    let mut settings = settings.clone();
    let Some(root) = settings.as_object_mut() else {
        return settings;
    };
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else {
        return settings;
    };
    let mut emptied = Vec::new();
    let mut removed = false;
    for (event, groups) in hooks.iter_mut() {
        if let Some(groups) = groups.as_array_mut() {
            if remove_ocmem_handlers(groups) {
                removed = true;
                if groups.is_empty() {
                    emptied.push(event.clone());
                }
            }
        }
    }
    for event in emptied {
        hooks.shift_remove(&event);
    }
    if removed && hooks.is_empty() {
        root.shift_remove("hooks");
    }
    settings
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
    let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, groups) in hooks {
        for group in groups.as_array().map_or(&[][..], Vec::as_slice) {
            for handler in handlers(group).iter().filter(|h| is_ocmem_handler(h)) {
                let command = handler.get("command").and_then(Value::as_str);
                if let Some(program) = command.and_then(ocmem_program) {
                    found.push(FoundHook {
                        event: event.clone(),
                        program,
                        silenced: command.is_some_and(is_silenced),
                    });
                }
            }
        }
    }
    found
}

/// The events of `EVENTS` that have no handler of ocmem's in `found`.
pub fn missing_events(found: &[FoundHook]) -> Vec<&'static str> {
    EVENTS
        .iter()
        .map(|(event, _)| *event)
        .filter(|event| !found.iter().any(|f| f.event == *event))
        .collect()
}

#[cfg(test)]
mod tests;
