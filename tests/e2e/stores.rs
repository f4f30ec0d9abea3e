//! Reading what ocmem stored (its workspace and session stores under the data directory) and
//! what it rendered for the agent, and the checks of workspace memory both agents share.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::workdir::Layout;

/// The headers ocmem's rendered context starts with.
pub const OCMEM_HEADERS: [&str; 2] = ["Workspace memory (cross-session", "Hot session state ("];

/// The first 16 or 32 hex digits of sha256(text).
fn sha256_hex(text: &str, digits: usize) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex[..digits].to_string()
}

/// The demo repository's workspace directory in ocmem's data directory.
pub fn workspace_dir(layout: &Layout) -> PathBuf {
    let root = layout.demo.to_string_lossy();
    layout.data.join("workspaces").join(sha256_hex(&root, 16))
}

/// The store of `session` in `workspace`.
pub fn session_file(workspace: &Path, session: &str) -> PathBuf {
    workspace
        .join("sessions")
        .join(format!("{}.json", sha256_hex(session, 32)))
}

/// The store of `session` in `workspace`, parsed.
pub fn session_store(workspace: &Path, session: &str) -> Value {
    let path = session_file(workspace, session);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no session store {} for session {session} ({e})",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// The texts of a session store's open errors (each error as JSON text, whatever its fields).
pub fn open_errors(store: &Value) -> Vec<String> {
    store["openErrors"]
        .as_array()
        .unwrap_or_else(|| panic!("the session store has no openErrors list: {store}"))
        .iter()
        .map(Value::to_string)
        .collect()
}

/// The entries of the workspace memory store in `workspace`.
pub fn memory_entries(workspace: &Path) -> Vec<Value> {
    let path = workspace.join("workspace-memory.json");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let store: Value = serde_json::from_str(&text).unwrap();
    store["entries"].as_array().cloned().unwrap_or_default()
}

/// The active entry whose text contains `text`.
pub fn active_entry<'a>(entries: &'a [Value], text: &str) -> Option<&'a Value> {
    entries
        .iter()
        .find(|e| e["status"] == "active" && e["text"].as_str().is_some_and(|t| t.contains(text)))
}

/// Fails unless workspace memory holds `explicit` (what the user asked to remember) as an active
/// entry from the user, each of `good` as an active entry from a compaction, and none of `bad`.
pub fn assert_workspace_memory(entries: &[Value], explicit: &str, good: &[&str], bad: &[&str]) {
    let entry = active_entry(entries, explicit)
        .unwrap_or_else(|| panic!("no active entry {explicit:?} in {entries:#?}"));
    assert_eq!(entry["source"], "explicit", "{entry}");
    for candidate in good {
        let entry = active_entry(entries, candidate)
            .unwrap_or_else(|| panic!("candidate {candidate:?} not stored: {entries:#?}"));
        assert_eq!(entry["source"], "compaction", "{entry}");
    }
    for candidate in bad {
        assert!(
            entries
                .iter()
                .all(|e| !e["text"].as_str().unwrap_or("").contains(candidate)),
            "{candidate:?} should have been rejected: {entries:#?}"
        );
    }
}

/// The `- ` lines under `header` (such as `open_errors:`) in rendered context.
pub fn section(block: &str, header: &str) -> Vec<String> {
    block
        .lines()
        .skip_while(|line| line.trim() != header)
        .skip(1)
        .take_while(|line| line.starts_with("- "))
        .map(str::to_string)
        .collect()
}
