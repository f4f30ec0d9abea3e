//! Claude Code's settings files: where they are, and ocmem's hooks merged into one and taken
//! out again. Pure: settings JSON in, settings JSON out.
//!
//! A settings file's hooks are `"hooks": {<event>: [{"matcher"?, "hooks": [{"type": "command",
//! "command", "timeout"}]}]}`: a group's matcher (a regular expression over tool names, for tool
//! events) chooses which occurrences of the event run its handlers, a missing one means all;
//! the command runs in a shell; the timeout is in seconds. ocmem's handler is the one whose
//! command runs `<ocmem binary> hook claude-code`; everything else in the file is the user's.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::domain::install_level::Level;

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
    let (program, rest) = first_shell_word(command.trim_start())?;
    if !rest.split_whitespace().eq(HOOK_ARGS) {
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

/// Whether a handler is ocmem's.
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

/// ocmem's group for one event.
fn ocmem_group(matcher: Option<&str>, command: &str) -> Value {
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), matcher.into());
    }
    let handler = json!({"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECS});
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}

/// `settings` with ocmem's hooks running `command` for every event of `EVENTS`. A group that
/// holds only ocmem's handler is replaced where it is; any other handler of ocmem's is taken
/// out of its group and a group of ocmem's own is added at the end. Everything else, and the
/// order of every key, is kept. Fails, saying where, on a shape Claude Code would not accept.
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

/// Takes ocmem's handlers out of `groups`, and the groups they leave empty. Returns whether
/// there were any.
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
