//! Claude Code's settings files: where they are, and ocmem's hooks merged into one and taken
//! out again. Pure: settings JSON in, settings JSON out.
//!
//! A settings file's hooks are `"hooks": {<event>: [{"matcher"?, "hooks": [{"type": "command",
//! "command", "timeout"}]}]}`: a group's matcher (a regular expression over tool names, for tool
//! events) chooses which occurrences of the event run its handlers, a missing one means all;
//! the command runs in a shell; the timeout is in seconds. ocmem's handler is the one whose
//! command runs `<ocmem binary> hook claude-code`; everything else in the file is the user's.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use crate::domain::base::install_level::Level;
use crate::host::hook_groups::HookSet;

/// The tools whose calls ocmem records (those of `super::TOOLS` that record something): the
/// others are not worth starting a process for.
pub const RECORDED_TOOLS: &str = "Read|Edit|MultiEdit|NotebookEdit|Write|Grep|Bash";

/// Seconds Claude Code lets one ocmem hook run: far above the milliseconds it takes, and short
/// enough that a stuck disk cannot hold a session up for long.
pub const HOOK_TIMEOUT_SECS: u64 = 10;

/// The events ocmem registers, each with the matcher of its group (`None`: every occurrence).
/// None is `async`: a tool call recorded in the background could land after the next prompt's
/// render, which would then miss it.
pub const EVENTS: [(&str, Option<&str>); 7] = [
    ("SessionStart", None),
    ("UserPromptSubmit", None),
    ("PostToolUse", Some(RECORDED_TOOLS)),
    ("PostToolUseFailure", Some(RECORDED_TOOLS)),
    ("PreCompact", None),
    ("PostCompact", None),
    ("SessionEnd", None),
];

/// What ocmem's command runs after the binary's path.
pub const HOOK_ARGS: [&str; 2] = ["hook", "claude-code"];

/// The settings file ocmem's hooks go into: the project's personal, uncommitted
/// `.claude/settings.local.json`, or the user's `settings.json` in `$CLAUDE_CONFIG_DIR`, else
/// `~/.claude`.
pub fn settings_path(
    level: Level,
    project_root: &Path,
    home: Option<&Path>,
    claude_config_dir: Option<&Path>,
) -> Option<PathBuf> {
    match level {
        Level::Project => Some(project_root.join(".claude").join("settings.local.json")),
        Level::User => {
            let dir = match claude_config_dir {
                Some(dir) => dir.to_path_buf(),
                None => home?.join(".claude"),
            };
            Some(dir.join("settings.json"))
        }
    }
}

/// The hook command that runs `binary`, quoted for the shell when its path needs it.
pub fn hook_command(binary: &Path) -> String {
    format!(
        "{} {}",
        shell_quote(&binary.to_string_lossy()),
        HOOK_ARGS.join(" ")
    )
}

pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The program an ocmem hook command runs, unquoted, when `command` is one: `<program> hook
/// claude-code`, with a program whose file name starts with `ocmem`.
pub fn ocmem_program(command: &str) -> Option<String> {
    ocmem_program_before(command, &[&HOOK_ARGS])
}

/// The program `command` runs, unquoted, when the words after it are one of `tails` and its
/// file name starts with `ocmem`.
pub fn ocmem_program_before(command: &str, tails: &[&[&str]]) -> Option<String> {
    let (program, rest) = first_shell_word(command.trim_start())?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    if !tails.iter().any(|tail| words == *tail) {
        return None;
    }
    let name = Path::new(&program).file_name()?.to_string_lossy();
    name.starts_with("ocmem").then_some(program)
}

/// The first word of a shell command with its quotes and escapes undone, and the rest.
pub fn first_shell_word(text: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut quote = None;
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => return Some((word, &text[at..])),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => word.push(chars.next()?.1),
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"'), '\\') => {
                let next = chars.next()?.1;
                if !matches!(next, '"' | '\\' | '$' | '`') {
                    word.push('\\');
                }
                word.push(next);
            }
            (_, c) => word.push(c),
        }
    }
    (quote.is_none() && !word.is_empty()).then_some((word, ""))
}

/// ocmem's hooks in Claude Code's settings (see `host::hook_groups`).
fn hook_set() -> HookSet<'static> {
    HookSet::timed(&EVENTS, HOOK_TIMEOUT_SECS, ocmem_program)
}

/// `settings` with ocmem's hooks running `command` for every event of `EVENTS`: see
/// `HookSet::install`. Fails, saying where, on a shape Claude Code would not accept.
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
}

/// Every handler of ocmem's in `settings`, in file order.
pub fn ocmem_hooks(settings: &Value) -> Vec<FoundHook> {
    hook_set()
        .found(settings)
        .into_iter()
        .map(|found| FoundHook {
            event: found.event.to_string(),
            program: found.program,
        })
        .collect()
}

/// The events of `EVENTS` that have no handler of ocmem's in `found`.
pub fn missing_events(found: &[FoundHook]) -> Vec<&'static str> {
    hook_set().missing(found.iter().map(|f| f.event.as_str()))
}

/// `settings` as the text of a settings file, indented like `like` (the file's text before)
/// and ending in a newline unless `like` did not.
pub fn render(settings: &Value, like: Option<&str>) -> String {
    let indent = like.and_then(indent_of).unwrap_or("  ");
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    settings
        .serialize(&mut serializer)
        .expect("a JSON value always serializes");
    let mut text = String::from_utf8(bytes).expect("serde_json writes UTF-8");
    if like.is_none_or(|t| t.ends_with('\n')) {
        text.push('\n');
    }
    text
}

/// The indentation of the first indented line of a JSON text.
fn indent_of(text: &str) -> Option<&str> {
    text.lines().skip(1).find_map(|line| {
        let body = line.trim_start_matches([' ', '\t']);
        let width = line.len() - body.len();
        (width > 0 && !body.is_empty()).then(|| &line[..width])
    })
}

#[cfg(test)]
mod tests;
