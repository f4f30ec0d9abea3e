//! Codex's `hooks.json` and the trust entries of its `config.toml`: where they are, ocmem's
//! hooks merged into one and taken out again, and the entries that make Codex run them. Pure:
//! file contents in, file contents out.
//!
//! `hooks.json` is `{"hooks": {<event>: [{"matcher"?, "hooks": [{"type": "command",
//! "command", "timeout"}]}]}}`, the shape Claude Code's settings have. Codex skips a hook it has
//! not been told to trust, silently: `config.toml` must hold `[hooks.state."<key>"]` with
//! `trusted_hash = "<hash>"`, where the key is `<hooks.json path>:<event in snake case>:<group
//! index>:<handler index>` and the hash is `sha256:` and the hex SHA-256 of the compact JSON,
//! keys sorted, of `{"event_name", "hooks": [<handler with "async" and "timeout" filled in>],
//! "matcher"?}` (both checked against what `codex app-server` reports in `hooks/list`). A
//! project's `.codex/` is ignored while the project is not trusted: `[projects."<dir>"]` with
//! `trust_level = "trusted"`. Both are written as Codex's own config writer lays them out: a
//! blank line, then the table.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::domain::base::install_level::Level;
use crate::host::claude_code::settings::{ocmem_program_before, shell_quote};
use crate::host::hook_groups::HookSet;
use crate::host::mcp::toml_string;

/// The tools whose calls ocmem records (those of `super::TOOLS`), as the group's matcher: a
/// regular expression over tool names.
pub const RECORDED_TOOLS: &str = "Bash|apply_patch";

/// Seconds Codex lets one ocmem hook run.
pub const HOOK_TIMEOUT_SECS: u64 = 10;

/// Codex's timeout of a handler that names none, which its trust hash includes.
const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// Codex's limit on a SessionEnd hook's timeout: it clamps a longer one and reports that as an
/// error item of every `codex exec` run.
pub const SESSION_END_TIMEOUT_SECS: u64 = 3;

/// The events ocmem registers, their names in trust keys, the matcher of their group, and the
/// handler's timeout in seconds.
pub const EVENTS: [(&str, &str, Option<&str>, u64); 4] = [
    ("SessionStart", "session_start", None, HOOK_TIMEOUT_SECS),
    (
        "UserPromptSubmit",
        "user_prompt_submit",
        None,
        HOOK_TIMEOUT_SECS,
    ),
    (
        "PostToolUse",
        "post_tool_use",
        Some(RECORDED_TOOLS),
        HOOK_TIMEOUT_SECS,
    ),
    ("SessionEnd", "session_end", None, SESSION_END_TIMEOUT_SECS),
];

/// What ocmem's command runs after the binary's path.
pub const HOOK_ARGS: [&str; 2] = ["hook", "codex"];

/// The hook command that runs `binary`, quoted for the shell when its path needs it.
pub fn hook_command(binary: &Path) -> String {
    format!(
        "{} {}",
        shell_quote(&binary.to_string_lossy()),
        HOOK_ARGS.join(" ")
    )
}

/// Codex's home: `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home(home: Option<&Path>, codex_home: Option<&Path>) -> Option<PathBuf> {
    match codex_home {
        Some(dir) => Some(dir.to_path_buf()),
        None => Some(home?.join(".codex")),
    }
}

/// The `hooks.json` ocmem's hooks go into: the project's `.codex/hooks.json`, or the user's in
/// Codex's home.
pub fn hooks_path(level: Level, project_root: &Path, codex_home: &Path) -> PathBuf {
    match level {
        Level::Project => project_root.join(".codex").join("hooks.json"),
        Level::User => codex_home.join("hooks.json"),
    }
}

/// The program an ocmem hook command runs, unquoted, when `command` is `<program> hook codex`
/// with a program whose file name starts with `ocmem`.
pub fn ocmem_program(command: &str) -> Option<String> {
    ocmem_program_before(command, &[&HOOK_ARGS])
}

/// ocmem's hooks in Codex's `hooks.json` (see `host::hook_groups`).
fn hook_set() -> HookSet<'static> {
    HookSet {
        events: EVENTS
            .iter()
            .map(|&(event, _, matcher, timeout)| (event, matcher, timeout))
            .collect(),
        ocmem_program,
    }
}

/// `file` with ocmem's hooks running `command` for every event of `EVENTS`: see
/// `HookSet::install`.
pub fn install(file: &Value, command: &str) -> Result<Value> {
    hook_set().install(file, command)
}

/// `file` without ocmem's handlers: see `HookSet::uninstall`.
pub fn uninstall(file: &Value) -> Value {
    hook_set().uninstall(file)
}

/// One handler of ocmem's in a `hooks.json`, with what Codex's trust entry for it must say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundHook {
    pub event: String,
    /// The program it runs, unquoted.
    pub program: String,
    /// Its `[hooks.state]` key.
    pub key: String,
    /// The `trusted_hash` that makes Codex run it as it stands.
    pub hash: String,
}

/// Every handler of ocmem's in `file` (the `hooks.json` at `path`), in file order.
pub fn ocmem_hooks(path: &Path, file: &Value) -> Vec<FoundHook> {
    hook_set()
        .found(file)
        .into_iter()
        .filter_map(|found| {
            let snake = EVENTS.iter().find(|(name, ..)| *name == found.event)?.1;
            Some(FoundHook {
                event: found.event.to_string(),
                key: format!(
                    "{}:{snake}:{}:{}",
                    path.display(),
                    found.group_index,
                    found.handler_index
                ),
                hash: trust_hash(snake, found.group["matcher"].as_str(), found.handler),
                program: found.program,
            })
        })
        .collect()
}

/// The events of `EVENTS` with no handler of ocmem's in `found`.
pub fn missing_events(found: &[FoundHook]) -> Vec<&'static str> {
    hook_set().missing(found.iter().map(|f| f.event.as_str()))
}

/// Codex's hash of one command handler of a group (see the module's documentation).
pub fn trust_hash(snake_event: &str, matcher: Option<&str>, handler: &Value) -> String {
    let mut normalized = handler.as_object().cloned().unwrap_or_default();
    normalized.entry("async").or_insert(Value::Bool(false));
    normalized
        .entry("timeout")
        .or_insert(DEFAULT_TIMEOUT_SECS.into());
    let mut identity =
        json!({"event_name": snake_event, "hooks": [sorted(&Value::Object(normalized))]});
    if let Some(matcher) = matcher {
        identity["matcher"] = matcher.into();
    }
    let canonical = sorted(&identity).to_string();
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `value` with every object's keys in sorted order (serde_json keeps insertion order here).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

fn trust_header(key: &str) -> String {
    format!("[hooks.state.{}]", toml_string(key))
}

fn project_header(dir: &Path) -> String {
    format!("[projects.{}]", toml_string(&dir.to_string_lossy()))
}

/// The `key = value` lines of the table whose header line is `header`, when `config` has it.
fn table_lines<'a>(config: &'a str, header: &str) -> Option<Vec<&'a str>> {
    let mut lines = config.lines();
    lines.find(|line| line.trim() == header)?;
    Some(
        lines
            .take_while(|line| !line.trim_start().starts_with('['))
            .collect(),
    )
}

/// The value of `key` in `lines`, as written (a quoted string stays quoted).
fn value_of<'a>(lines: &[&'a str], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|line| {
        let (name, value) = line.split_once('=')?;
        (name.trim() == key).then(|| value.trim())
    })
}

/// Whether `config` tells Codex to trust `hook` as it stands.
pub fn is_trusted(config: &str, hook: &FoundHook) -> bool {
    table_lines(config, &trust_header(&hook.key))
        .is_some_and(|lines| value_of(&lines, "trusted_hash") == Some(&toml_string(&hook.hash)))
}

/// Whether `config` trusts the project `dir`: `Some(false)` when it says it is untrusted.
pub fn project_trust(config: &str, dir: &Path) -> Option<bool> {
    let lines = table_lines(config, &project_header(dir))?;
    value_of(&lines, "trust_level").map(|level| level == toml_string("trusted"))
}

/// `config` without the trust entries of `keys`, nor the blank line before each, nor a
/// `[hooks.state]` header they leave without entries.
pub fn without_trust(config: &str, keys: &[&str]) -> String {
    let headers: Vec<String> = keys.iter().map(|key| trust_header(key)).collect();
    without_tables(config, &headers)
}

/// `config` without the table that trusts the project `dir`.
pub fn without_project(config: &str, dir: &Path) -> String {
    without_tables(config, &[project_header(dir)])
}

/// Whether two config texts say the same once blank lines are left aside: what ocmem appends
/// and takes out again may leave a blank line more or less.
pub fn same_but_blank_lines(a: &str, b: &str) -> bool {
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim_end().to_string())
            .collect()
    };
    lines(a) == lines(b)
}

fn without_tables(config: &str, headers: &[String]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let mut skipping = false;
    for line in config.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            skipping = headers.iter().any(|h| h == trimmed);
            if skipping && kept.last().is_some_and(|l| l.trim().is_empty()) {
                kept.pop();
            }
        }
        if !skipping {
            kept.push(line);
        }
    }
    // A bare `[hooks.state]` with no table under it any more.
    let has_entries = kept
        .iter()
        .any(|l| l.trim_start().starts_with("[hooks.state."));
    if !has_entries {
        if let Some(at) = kept.iter().position(|l| l.trim() == "[hooks.state]") {
            let bare = kept[at + 1..]
                .iter()
                .take_while(|l| !l.trim_start().starts_with('['))
                .all(|l| l.trim().is_empty());
            if bare {
                let end = at
                    + 1
                    + kept[at + 1..]
                        .iter()
                        .take_while(|l| l.trim().is_empty())
                        .count();
                let start = if at > 0 && kept[at - 1].trim().is_empty() {
                    at - 1
                } else {
                    at
                };
                kept.drain(start..end);
            }
        }
    }
    kept.concat()
}

/// `config` with trust entries for `hooks` (replacing any older ones of theirs) and, when
/// `project` is given, that project trusted, appended as Codex's config writer appends them.
pub fn with_trust(config: &str, hooks: &[FoundHook], project: Option<&Path>) -> String {
    let keys: Vec<&str> = hooks.iter().map(|h| h.key.as_str()).collect();
    let mut text = without_trust(config, &keys);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if let Some(dir) = project.filter(|dir| project_trust(&text, dir).is_none()) {
        text.push_str(&format!(
            "\n{}\ntrust_level = \"trusted\"\n",
            project_header(dir)
        ));
    }
    if !hooks.is_empty() && !text.lines().any(|l| l.trim() == "[hooks.state]") {
        text.push_str("\n[hooks.state]\n");
    }
    for hook in hooks {
        text.push_str(&format!(
            "\n{}\ntrusted_hash = {}\n",
            trust_header(&hook.key),
            toml_string(&hook.hash)
        ));
    }
    text
}

/// The `compact_prompt = …` line of `config` (a top-level key: before the first table).
fn compact_prompt_line(config: &str) -> Option<&str> {
    config
        .lines()
        .take_while(|line| !line.trim_start().starts_with('['))
        .find(|line| {
            line.split_once('=')
                .is_some_and(|(key, _)| key.trim() == "compact_prompt")
        })
}

/// `config` with Codex's compaction prompt set to `prompt`; fails when it sets another one,
/// which is the user's.
pub fn with_compact_prompt(config: &str, prompt: &str) -> Result<String> {
    let wanted = format!("compact_prompt = {}", toml_string(prompt));
    match compact_prompt_line(config) {
        Some(line) if line.trim() == wanted => return Ok(config.to_string()),
        Some(_) => bail!("it sets a compact_prompt of its own already; ocmem leaves it as it is"),
        None => {}
    }
    // Top-level keys go before the first table, as Codex's own writer puts them.
    let at = config
        .split_inclusive('\n')
        .take_while(|line| !line.trim_start().starts_with('['))
        .map(str::len)
        .sum::<usize>();
    let (head, tables) = config.split_at(at);
    let head_trimmed = head.trim_end_matches('\n');
    let mut text = String::from(head_trimmed);
    if !head_trimmed.is_empty() {
        text.push('\n');
    }
    text.push_str(&wanted);
    text.push('\n');
    if !tables.is_empty() {
        text.push('\n');
        text.push_str(tables);
    }
    Ok(text)
}

/// `config` without the compaction prompt `prompt` (ocmem's), when it sets exactly that one.
pub fn without_compact_prompt(config: &str, prompt: &str) -> String {
    let wanted = format!("compact_prompt = {}", toml_string(prompt));
    let mut kept: Vec<&str> = Vec::new();
    let mut removed = false;
    for line in config.split_inclusive('\n') {
        if !removed && line.trim() == wanted {
            removed = true;
            continue;
        }
        kept.push(line);
    }
    kept.concat()
}

#[cfg(test)]
mod tests;
