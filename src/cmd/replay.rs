//! `ocmem replay FILE`: feed a recorded OpenCode hook log through the subcommands, in order,
//! and show what `render` returns after each user turn and at the end.
//!
//! The log holds one `{"k": hook, "v": payload}` object per line, as OpenCode passed them to a
//! plugin: `init` (directory), `chat.message`, `system.transform`, `tool.execute.after`,
//! `compacting` and `event` (a `session.deleted` event runs `gc` for the session). As the
//! plugin does, each render carries the latest token counts of the session's assistant
//! messages and the model's limits. The clock follows the times recorded in the events, so a
//! replay is the same on every run.

use std::fs;
use std::path::Path;

use anyhow::{bail, Context as _, Result};
use serde_json::{json, Value};

use super::{print, OpenCodeHook, Run};
use crate::cli::Replay;
use crate::context::Context;

impl Run for Replay {
    fn run(&self, ctx: &Context) -> Result<()> {
        let out = execute(ctx, &self.file)?;
        print(&out)
    }
}

/// One hook of the log, with its 1-based line number.
struct Hook {
    line: usize,
    kind: String,
    payload: Value,
}

/// A user turn of one session.
struct Turn {
    number: usize,
    prompt: String,
    message_id: Option<String>,
    tool_calls: usize,
    renders: usize,
    shown: bool,
}

struct SessionLog {
    id: String,
    turn: Option<Turn>,
    turns: usize,
    /// The compaction summary being written: its message id and its text parts by part id.
    summary_message: Option<String>,
    summary_parts: Vec<(String, String)>,
    /// Deleted by `session.deleted`: rendering it again would bring its store back.
    deleted: bool,
    /// The latest non-zero token counts of an assistant message, sent with each render as the
    /// plugin sends them; forgotten at compaction.
    tokens: Option<Value>,
}

pub fn execute(ctx: &Context, file: &Path) -> Result<String> {
    let hooks = read_log(file)?;
    let scratch = if ctx.data_dir_from_flag {
        None
    } else {
        Some(ScratchDir::create()?)
    };
    let mut inner = ctx.clone();
    if let Some(dir) = &scratch {
        inner.data_dir = dir.path().to_path_buf();
    }

    let mut out = format!(
        "Replaying {} ({} hooks) with data dir {}\n",
        file.display(),
        hooks.len(),
        match &scratch {
            Some(_) => "(temporary)".to_string(),
            None => inner.data_dir.display().to_string(),
        }
    );
    let mut directory: Option<String> = None;
    let mut sessions: Vec<SessionLog> = Vec::new();

    for hook in &hooks {
        let at = |e: anyhow::Error| e.context(format!("{}:{}", file.display(), hook.line));
        let v = &hook.payload;
        if let Some(time) = recorded_time(v) {
            inner.now_ms = inner.now_ms.max(time);
        }
        match hook.kind.as_str() {
            "init" => {
                let dir = v["directory"].as_str().filter(|d| !d.is_empty());
                directory = Some(
                    dir.context("init has no directory")
                        .map_err(at)?
                        .to_string(),
                );
            }
            "chat.message" => {
                let Some(session_id) = v["input"]["sessionID"].as_str() else {
                    continue;
                };
                let message = &v["output"]["message"];
                if message["role"].as_str().is_some_and(|r| r != "user") {
                    continue;
                }
                let session = session_entry(&mut sessions, session_id);
                if let Some(turn) = &session.turn {
                    if !turn.shown {
                        show_turn(&inner, &mut out, directory.as_deref(), session).map_err(at)?;
                    }
                }
                session.turns += 1;
                session.turn = Some(Turn {
                    number: session.turns,
                    prompt: user_text(&v["output"]["parts"]),
                    message_id: message["id"].as_str().map(str::to_string),
                    tool_calls: 0,
                    renders: 0,
                    shown: false,
                });
            }
            "system.transform" => {
                let Some(session_id) = v["input"]["sessionID"].as_str() else {
                    continue;
                };
                let dir = need_directory(&directory).map_err(at)?;
                let session = session_entry(&mut sessions, session_id);
                let mut event = json!({"directory": dir, "sessionID": session_id});
                if let Some(turn) = &mut session.turn {
                    event["prompt"] = json!(turn.prompt);
                    if let Some(id) = &turn.message_id {
                        event["messageID"] = json!(id);
                    }
                    turn.renders += 1;
                }
                if let Some(tokens) = &session.tokens {
                    event["context"] =
                        json!({"tokens": tokens, "limit": v["input"]["model"]["limit"]});
                }
                OpenCodeHook::Render
                    .execute(&inner, event.to_string().as_bytes(), false)
                    .map_err(at)?;
            }
            "tool.execute.after" => {
                let dir = need_directory(&directory).map_err(at)?;
                let event = json!({"directory": dir, "input": v["input"], "output": v["output"]});
                OpenCodeHook::ToolAfter
                    .execute(&inner, event.to_string().as_bytes(), false)
                    .map_err(at)?;
                if let Some(session_id) = v["input"]["sessionID"].as_str() {
                    if let Some(turn) = &mut session_entry(&mut sessions, session_id).turn {
                        turn.tool_calls += 1;
                    }
                }
            }
            "compacting" => {
                let Some(session_id) = v["input"]["sessionID"].as_str() else {
                    continue;
                };
                let dir = need_directory(&directory).map_err(at)?;
                let event = json!({"directory": dir, "sessionID": session_id});
                let added = OpenCodeHook::Compact
                    .execute(&inner, event.to_string().as_bytes(), false)
                    .map_err(at)?;
                out.push_str(&format!(
                    "\n== compaction of session {session_id}: {} lines added to the compaction prompt\n",
                    added.lines().count()
                ));
            }
            "event" if v["type"] == "message.updated" => {
                let info = &v["properties"]["info"];
                if let (Some(session_id), "assistant", false, true) = (
                    info["sessionID"].as_str(),
                    info["role"].as_str().unwrap_or_default(),
                    info["summary"] == true,
                    has_count(&info["tokens"]),
                ) {
                    session_entry(&mut sessions, session_id).tokens = Some(info["tokens"].clone());
                }
                if let (Some(session_id), true) =
                    (info["sessionID"].as_str(), info["summary"] == true)
                {
                    let session = session_entry(&mut sessions, session_id);
                    if session.summary_message.as_deref() != info["id"].as_str() {
                        session.summary_message = info["id"].as_str().map(str::to_string);
                        session.summary_parts.clear();
                    }
                }
            }
            "event" if v["type"] == "message.part.updated" => {
                let part = &v["properties"]["part"];
                let (Some(session_id), Some(part_id), Some(text)) = (
                    part["sessionID"].as_str(),
                    part["id"].as_str(),
                    part["text"].as_str(),
                ) else {
                    continue;
                };
                let session = session_entry(&mut sessions, session_id);
                if part["type"] != "text"
                    || session.summary_message.as_deref() != part["messageID"].as_str()
                {
                    continue;
                }
                match session
                    .summary_parts
                    .iter_mut()
                    .find(|(id, _)| id == part_id)
                {
                    Some((_, existing)) => *existing = text.to_string(),
                    None => session
                        .summary_parts
                        .push((part_id.to_string(), text.to_string())),
                }
            }
            "event" if v["type"] == "session.compacted" => {
                let Some(session_id) = v["properties"]["sessionID"].as_str() else {
                    continue;
                };
                let dir = need_directory(&directory).map_err(at)?;
                let session = session_entry(&mut sessions, session_id);
                let summary: Vec<&str> = session
                    .summary_parts
                    .iter()
                    .map(|(_, t)| t.as_str())
                    .collect();
                let event = json!({"directory": dir, "sessionID": session_id, "summary": summary.join("\n")});
                session.summary_message = None;
                session.summary_parts.clear();
                session.tokens = None;
                let report = OpenCodeHook::Promote
                    .execute(&inner, event.to_string().as_bytes(), true)
                    .map_err(at)?;
                out.push_str(&describe_promotion(&report));
            }
            "event" if v["type"] == "session.deleted" => {
                let Some(session_id) = v["properties"]["sessionID"].as_str() else {
                    continue;
                };
                let dir = need_directory(&directory).map_err(at)?;
                let session = session_entry(&mut sessions, session_id);
                if session.turn.as_ref().is_some_and(|t| !t.shown) {
                    show_turn(&inner, &mut out, Some(dir), session).map_err(at)?;
                }
                session.deleted = true;
                session.tokens = None;
                let event = json!({"directory": dir, "sessionID": session_id});
                OpenCodeHook::Gc
                    .execute(&inner, event.to_string().as_bytes(), false)
                    .map_err(at)?;
                out.push_str(&format!(
                    "\n== session {session_id} deleted: its session file removed, its memories kept\n"
                ));
            }
            "event" if v["type"] == "session.idle" => {
                let Some(session_id) = v["properties"]["sessionID"].as_str() else {
                    continue;
                };
                let session = session_entry(&mut sessions, session_id);
                if session.turn.as_ref().is_some_and(|t| !t.shown) {
                    show_turn(&inner, &mut out, directory.as_deref(), session).map_err(at)?;
                }
                if let (Some(dir), false) = (directory.as_deref(), session.deleted) {
                    let event = json!({"directory": dir, "sessionID": session_id});
                    OpenCodeHook::Idle
                        .execute(&inner, event.to_string().as_bytes(), false)
                        .map_err(at)?;
                }
            }
            // Every other hook and event carries nothing ocmem keeps.
            _ => {}
        }
    }

    for session in &mut sessions {
        if session.turn.as_ref().is_some_and(|t| !t.shown) {
            show_turn(&inner, &mut out, directory.as_deref(), session)?;
        }
    }
    out.push_str("\n== end of log\n");
    if let Some(dir) = directory.as_deref() {
        for session in sessions.iter().filter(|s| !s.deleted) {
            out.push_str(&format!(
                "\nrender for session {} at the end:\n",
                session.id
            ));
            out.push_str(&render_text(&inner, dir, &session.id)?);
        }
    }
    Ok(out)
}

fn read_log(file: &Path) -> Result<Vec<Hook>> {
    let text =
        fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut hooks = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{}", file.display(), index + 1);
        let value: Value = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("{}: not valid JSON ({e})", at()))?;
        let (Some(kind), Some(payload)) = (value["k"].as_str(), value.get("v")) else {
            bail!("{}: expected {{\"k\": hook name, \"v\": payload}}", at());
        };
        hooks.push(Hook {
            line: index + 1,
            kind: kind.to_string(),
            payload: payload.clone(),
        });
    }
    if hooks.is_empty() {
        bail!("{} holds no hooks", file.display());
    }
    Ok(hooks)
}

fn need_directory(directory: &Option<String>) -> Result<&str> {
    directory
        .as_deref()
        .context("a hook came before the init line that names the directory")
}

fn session_entry<'a>(sessions: &'a mut Vec<SessionLog>, id: &str) -> &'a mut SessionLog {
    let index = match sessions.iter().position(|s| s.id == id) {
        Some(index) => index,
        None => {
            sessions.push(SessionLog {
                id: id.to_string(),
                turn: None,
                turns: 0,
                summary_message: None,
                summary_parts: Vec::new(),
                deleted: false,
                tokens: None,
            });
            sessions.len() - 1
        }
    };
    &mut sessions[index]
}

/// Whether a token-count object holds any positive count.
fn has_count(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_f64().is_some_and(|f| f > 0.0),
        Value::Object(map) => map.values().any(has_count),
        _ => false,
    }
}

/// The text the user typed: the message's non-synthetic text parts.
fn user_text(parts: &Value) -> String {
    parts
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["type"] == "text" && p["synthetic"] != true)
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Milliseconds recorded in an event, when it has any.
fn recorded_time(v: &Value) -> Option<i64> {
    let props = &v["properties"];
    props["time"]
        .as_i64()
        .or_else(|| props["info"]["time"]["updated"].as_i64())
        .or_else(|| props["info"]["time"]["created"].as_i64())
        .or_else(|| v["output"]["message"]["time"]["created"].as_i64())
}

fn show_turn(
    ctx: &Context,
    out: &mut String,
    directory: Option<&str>,
    session: &mut SessionLog,
) -> Result<()> {
    let Some(turn) = &mut session.turn else {
        return Ok(());
    };
    turn.shown = true;
    let prompt =
        crate::domain::base::text::one_line(&crate::domain::guard::secrets::scrub(&turn.prompt));
    let prompt = if prompt.chars().count() > 100 {
        format!("{}…", prompt.chars().take(99).collect::<String>())
    } else {
        prompt
    };
    out.push_str(&format!(
        "\n== turn {} of session {}: {prompt}\n   {} tool call{}, {} system-prompt render{}\n",
        turn.number,
        session.id,
        turn.tool_calls,
        if turn.tool_calls == 1 { "" } else { "s" },
        turn.renders,
        if turn.renders == 1 { "" } else { "s" },
    ));
    if let Some(dir) = directory {
        out.push_str(&format!("render after turn {}:\n", turn.number));
        out.push_str(&render_text(ctx, dir, &session.id)?);
    }
    Ok(())
}

/// One line per candidate of a promotion report.
fn describe_promotion(report: &str) -> String {
    let report: Value = serde_json::from_str(report).unwrap_or(Value::Null);
    let mut out = String::from("== compaction summary filed:\n");
    for accepted in report["accepted"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "   kept ({}): [{}] {}\n",
            accepted["outcome"].as_str().unwrap_or("?"),
            accepted["type"].as_str().unwrap_or("?"),
            accepted["text"].as_str().unwrap_or_default()
        ));
    }
    for rejected in report["rejected"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "   rejected ({}): {}\n",
            rejected["rule"].as_str().unwrap_or("?"),
            rejected["line"].as_str().unwrap_or_default()
        ));
    }
    out
}

fn render_text(ctx: &Context, directory: &str, session_id: &str) -> Result<String> {
    let event = json!({"directory": directory, "sessionID": session_id});
    let text = OpenCodeHook::Render.execute(ctx, event.to_string().as_bytes(), false)?;
    Ok(if text.is_empty() {
        "(nothing to show)\n".to_string()
    } else {
        text
    })
}

/// A private temporary data directory (0700, with a random name), removed when dropped.
struct ScratchDir(tempfile::TempDir);

impl ScratchDir {
    fn create() -> Result<ScratchDir> {
        let base = std::env::temp_dir();
        let mut builder = tempfile::Builder::new();
        builder.prefix("ocmem-replay-");
        #[cfg(unix)]
        {
            // Not the default: without it the directory gets 0777 less the umask.
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o700));
        }
        builder.tempdir_in(&base).map(ScratchDir).with_context(|| {
            format!(
                "cannot create a temporary data directory in {}",
                base.display()
            )
        })
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scratch_dir_is_private_and_its_name_unpredictable() {
        use std::os::unix::fs::PermissionsExt;
        let first = ScratchDir::create().unwrap();
        let second = ScratchDir::create().unwrap();
        for dir in [first.path(), second.path()] {
            let mode = fs::metadata(dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
            let name = dir.file_name().unwrap().to_string_lossy();
            assert!(name.starts_with("ocmem-replay-"), "{name}");
            // Nothing an observer knows (the process id, the clock) names it.
            assert!(!name.contains(&std::process::id().to_string()), "{name}");
            let clock = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()
                .to_string();
            assert!(!name.contains(&clock[..6]), "{name}");
        }
        assert_ne!(first.path(), second.path());
        let path = first.path().to_path_buf();
        drop(first);
        assert!(!path.exists(), "removed when dropped");
    }
}
