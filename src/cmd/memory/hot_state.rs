//! `ocmem memory hot-state SESSION`: what the hooks keep for one session (its active files,
//! open errors, recent decisions and pending memories), read only, for people and for the
//! agent's `hot_state` tool.

use anyhow::Result;
use serde_json::{json, Value};

use super::{pretty, workspace_only, SCHEMA};
use crate::cli::MemoryHotState;
use crate::context::{Context, TerminalEnv};
use crate::domain::base::paths;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::prompt::hot_state::hot_state;
use crate::domain::session::state::SessionState;
use crate::domain::session::{active_files, open_errors};
use crate::store::switch::is_off;

pub fn show(ctx: &Context, term: &TerminalEnv, cmd: &MemoryHotState) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace_only(&store, term, &cmd.scope)?;
    let path = workspace.session_file(&cmd.session);
    let state: Option<SessionState> = store.read_for_person(&path)?;
    let block = state
        .as_ref()
        .map(|s| hot_state(s, &workspace.root))
        .unwrap_or_default();
    if cmd.scope.json {
        let mut value = json!({
            "schema": SCHEMA,
            "workspace": {"root": workspace.root, "key": workspace.key},
            "sessionID": cmd.session,
            "found": state.is_some(),
            "off": is_off(&workspace) || ctx.disabled,
        });
        let state = state.unwrap_or_else(|| SessionState::new(&cmd.session));
        for (field, items) in to_json(&state, &workspace.root) {
            value[field] = Value::Array(items);
        }
        value["text"] = json!(block);
        return pretty(&value);
    }
    Ok(match (state.is_some(), block.is_empty()) {
        (false, _) => format!(
            "no hot state for session {:?} in {} (key {})\n",
            cmd.session, workspace.root, workspace.key
        ),
        (true, true) => format!("session {:?} has nothing open\n", cmd.session),
        (true, false) => format!("{block}\n"),
    })
}

/// The session's lists as `--json` shows them: files best first with paths relative to
/// `root`, errors open before maybe fixed and newest first, times in RFC 3339.
fn to_json(state: &SessionState, root: &str) -> [(&'static str, Vec<Value>); 4] {
    let files = active_files::ranked(&state.active_files)
        .into_iter()
        .map(|file| {
            json!({
                "path": paths::relative_to(root, &file.path),
                "action": file.action.as_str(),
                "count": file.count,
                "lastSeen": format_rfc3339_ms(file.last_seen),
            })
        })
        .collect();
    let errors = open_errors::ordered(&state.open_errors)
        .into_iter()
        .map(|error| {
            json!({
                "id": error.id,
                "category": error.category.as_str(),
                "summary": error.summary,
                "status": error.status,
                "command": error.command,
                "file": error.file.as_deref().map(|f| paths::relative_to(root, f)),
                "firstSeen": format_rfc3339_ms(error.first_seen),
                "lastSeen": format_rfc3339_ms(error.last_seen),
                "seenCount": error.seen_count,
            })
        })
        .collect();
    [
        ("activeFiles", files),
        ("openErrors", errors),
        ("recentDecisions", state.recent_decisions.clone()),
        (
            "pendingMemories",
            state.pending_memories.clone().unwrap_or_default(),
        ),
    ]
}
