//! `workspace-memory.top.json`, the entries of the block kept beside workspace memory: a
//! first render uses it only while the memory file is the one it was made from, so memory
//! changed by anyone else (an editor, the TypeScript plugin, a late writer) still renders as
//! it is on disk.

mod common;

use std::fs;
use std::path::PathBuf;

use common::*;
use ocmem::domain::memory::workspace::{render_block, WorkspaceMemory};
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/top";
/// `common::NOW` in Unix ms.
const NOW_MS: i64 = 1_795_276_800_000;

fn workspace_dir(env: &Env) -> PathBuf {
    env.workspace_dir(DIR)
}

fn memory_file(env: &Env) -> PathBuf {
    workspace_dir(env).join("workspace-memory.json")
}

fn top_file(env: &Env) -> PathBuf {
    workspace_dir(env).join("workspace-memory.top.json")
}

/// 400 entries, a third superseded, one a day, so that some shown ones are marked stale at
/// `NOW`.
fn seed(env: &Env) {
    // Below a promoted decision in rank, so that one shows.
    let kinds = ["project", "reference"];
    let sources = ["compaction", "manual"];
    let entries: Vec<Value> = (0..400)
        .map(|i| {
            let at = ocmem::domain::base::time::format_rfc3339_ms(
                NOW_MS - (400 - i) as i64 * 86_400_000,
            );
            json!({"id": format!("mem_1_{i:04}"), "type": kinds[i % 2],
                   "text": format!("Package {i} is built with the shared cache"),
                   "source": sources[i % 3 % 2],
                   "confidence": if i % 2 == 0 { 0.5 } else { 0.9 },
                   "status": if i % 3 == 0 { "superseded" } else { "active" },
                   "createdAt": at, "updatedAt": at, "staleAfterDays": 60, "pinnedBy": "someone"})
        })
        .collect();
    let store = json!({"version": 1, "workspace": {"root": DIR, "key": &sha256_hex(DIR)[..16]},
           "limits": {"maxRenderedChars": 5200, "maxEntries": 28}, "entries": entries,
           "updatedAt": "2026-01-01T00:00:00.000Z"});
    fs::create_dir_all(workspace_dir(env)).unwrap();
    fs::write(memory_file(env), serde_json::to_string(&store).unwrap()).unwrap();
}

fn promote(env: &Env, text: &str) {
    let summary = format!("Memory candidates:\n- [decision] {text}\n");
    assert_success(&env.run(
        &["promote"],
        json!({"directory": DIR, "sessionID": "p", "summary": summary}).to_string(),
    ));
}

/// The block a session's first render shows.
fn first_render(env: &Env, session: &str) -> String {
    let out = env.run(
        &["render", "--json"],
        json!({"directory": DIR, "sessionID": session}).to_string(),
    );
    assert_success(&out);
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    line["workspace"].as_str().unwrap().to_string()
}

/// The block of the memory file as it is, rendered from all of it.
fn expected_block(env: &Env) -> String {
    let memory: WorkspaceMemory =
        serde_json::from_str(&fs::read_to_string(memory_file(env)).unwrap()).unwrap();
    render_block(&memory, Some(NOW_MS))
}

#[test]
fn a_promote_leaves_the_entries_of_the_block_beside_memory() {
    let env = Env::new();
    seed(&env);
    promote(&env, "Releases are cut from the main branch only");
    let top: Value = serde_json::from_str(&fs::read_to_string(top_file(&env)).unwrap()).unwrap();
    let entries = top["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 28);
    // Whole entries, unknown fields and all.
    assert!(
        entries
            .iter()
            .all(|e| e["pinnedBy"] == "someone"
                || e["text"].as_str().unwrap().starts_with("Releases"))
    );
    let block = first_render(&env, "s1");
    assert!(block.contains("old, verify]"), "{block}");
    assert_eq!(block, expected_block(&env));
}

#[test]
fn memory_edited_by_hand_renders_as_edited_even_at_the_same_length() {
    let env = Env::new();
    seed(&env);
    promote(&env, "Releases are cut from the main branch only");
    let before = first_render(&env, "s1");
    let top_before = fs::read(top_file(&env)).unwrap();

    // One character of a shown entry, the file's length unchanged.
    let text = fs::read_to_string(memory_file(&env)).unwrap();
    let edited = text.replace(
        "Releases are cut from the main branch only",
        "Releases are cut from the main branch ONLY",
    );
    assert_ne!(edited, text);
    assert_eq!(edited.len(), text.len());
    fs::write(memory_file(&env), &edited).unwrap();

    let after = first_render(&env, "s2");
    assert!(after.contains("main branch ONLY"), "{after}");
    assert_ne!(after, before);
    assert_eq!(after, expected_block(&env));
    // Made afresh from the file as it is now, and used as such.
    assert_ne!(fs::read(top_file(&env)).unwrap(), top_before);
    assert_eq!(first_render(&env, "s3"), after);
}

#[test]
fn memory_replaced_by_another_writer_renders_as_written() {
    let env = Env::new();
    seed(&env);
    promote(&env, "Releases are cut from the main branch only");
    first_render(&env, "s1");
    // The TypeScript plugin rewrites the file in its own layout, dropping an entry.
    let mut store: Value =
        serde_json::from_str(&fs::read_to_string(memory_file(&env)).unwrap()).unwrap();
    let entries = store["entries"].as_array_mut().unwrap();
    let at = entries
        .iter()
        .position(|e| e["text"].as_str().unwrap().starts_with("Releases"))
        .unwrap();
    entries.remove(at);
    fs::write(memory_file(&env), serde_json::to_string(&store).unwrap()).unwrap();

    let block = first_render(&env, "s2");
    assert!(!block.contains("Releases"), "{block}");
    assert_eq!(block, expected_block(&env));
}

#[test]
fn a_top_file_of_another_version_of_memory_is_ignored() {
    let env = Env::new();
    seed(&env);
    promote(&env, "Releases are cut from the main branch only");
    let old_top = fs::read(top_file(&env)).unwrap();
    promote(&env, "Every staging deploy needs a second reviewer");
    // A late writer puts back the top entries of the memory before the last promote.
    fs::write(top_file(&env), &old_top).unwrap();
    let block = first_render(&env, "s1");
    assert!(block.contains("second reviewer"), "{block}");
    assert_eq!(block, expected_block(&env));

    // Unreadable or foreign top files are ignored too.
    for junk in [
        &b"{not json"[..],
        b"",
        br#"{"version":2,"memory":"x","entries":[]}"#,
    ] {
        fs::write(top_file(&env), junk).unwrap();
        let session = format!("junk{}", junk.len());
        assert_eq!(first_render(&env, &session), expected_block(&env));
    }
}

#[test]
fn a_top_file_without_its_memory_renders_nothing() {
    let env = Env::new();
    seed(&env);
    promote(&env, "Releases are cut from the main branch only");
    fs::remove_file(memory_file(&env)).unwrap();
    assert_eq!(first_render(&env, "s1"), "");
}
