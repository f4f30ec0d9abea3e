//! Workspace memory that grows for years: `gc --sweep` moves entries superseded long ago to
//! the archive beside the store, nothing is lost, `gc --restore-archived` brings one back,
//! and `baseline` reads the archive.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/archive";
const DAY_MS: i64 = 86_400_000;
/// `common::NOW` in Unix ms.
const NOW_MS: i64 = 1_795_276_800_000;

fn workspace_dir(env: &Env) -> PathBuf {
    env.workspace_dir(DIR)
}

fn iso(ms: i64) -> String {
    ocmem::domain::base::time::format_rfc3339_ms(ms)
}

fn entry(id: &str, text: &str, status: &str, days_ago: i64) -> Value {
    json!({"id": id, "type": "decision", "text": text, "source": "compaction", "confidence": 0.75,
           "status": status, "createdAt": iso(NOW_MS - 400 * DAY_MS), "updatedAt": iso(NOW_MS - days_ago * DAY_MS),
           "staleAfterDays": 45, "pinnedBy": "keeps unknown fields"})
}

/// A store of 40 entries: superseded 90 days ago (due), superseded 5 days ago (kept), and
/// active ones, most of them capped.
fn seed(env: &Env) -> Vec<Value> {
    let mut entries = Vec::new();
    for i in 0..40 {
        let (status, days) = match i % 4 {
            0 => ("superseded", 90),
            1 => ("superseded", 5),
            _ => ("active", 200),
        };
        let text = format!("Service {i} retries idempotent calls with jittered backoff");
        entries.push(entry(&format!("mem_1_{i:06}"), &text, status, days));
    }
    let store = json!({"version": 1, "workspace": {"root": DIR, "key": &sha256_hex(DIR)[..16]},
        "limits": {"maxRenderedChars": 5200, "maxEntries": 28}, "entries": entries, "updatedAt": iso(NOW_MS)});
    std::fs::create_dir_all(workspace_dir(env)).unwrap();
    std::fs::write(
        workspace_dir(env).join("workspace-memory.json"),
        serde_json::to_string_pretty(&store).unwrap(),
    )
    .unwrap();
    entries
}

fn live(env: &Env) -> Vec<Value> {
    let text = std::fs::read_to_string(workspace_dir(env).join("workspace-memory.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["entries"]
        .as_array()
        .unwrap()
        .clone()
}

fn archive_path(env: &Env) -> PathBuf {
    workspace_dir(env).join("workspace-memory.archive.jsonl")
}

fn archived(env: &Env) -> Vec<Value> {
    std::fs::read_to_string(archive_path(env))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(entries: &[Value]) -> BTreeSet<String> {
    entries
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

fn sweep(env: &Env, extra: &[&str]) -> Value {
    let mut args = vec!["gc", "--sweep", "--json"];
    args.extend_from_slice(extra);
    let out = env.run(&args, "");
    assert_success(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sweep_moves_entries_superseded_long_ago_and_loses_nothing() {
    let env = Env::new();
    let before = seed(&env);
    let preview = sweep(&env, &["--dry-run"]);
    assert_eq!(live(&env).len(), 40, "a dry run changes nothing");
    assert!(!archive_path(&env).exists());
    assert_eq!(preview["removed"][0]["kind"], "archived-entries");
    assert_eq!(preview["removed"][0]["entries"], 10);

    let report = sweep(&env, &[]);
    let removal = &report["removed"][0];
    assert_eq!(removal["kind"], "archived-entries", "{report:#}");
    assert_eq!(removal["entries"], 10);
    assert!(removal["bytes"].as_u64().unwrap() > 0);

    let (kept, moved) = (live(&env), archived(&env));
    assert_eq!(moved.len(), 10);
    assert!(moved.iter().all(|e| e["status"] == "superseded"
        && e["updatedAt"] == iso(NOW_MS - 90 * DAY_MS)
        && e["archivedAt"] == iso(NOW_MS)
        && e["pinnedBy"] == "keeps unknown fields"));
    // Recently superseded and active (capped or not) entries stay live.
    assert_eq!(kept.len(), 30);
    assert!(kept
        .iter()
        .all(|e| e["updatedAt"] != iso(NOW_MS - 90 * DAY_MS)));
    // Nothing lost, nothing in both.
    let union: BTreeSet<String> = ids(&kept).union(&ids(&moved)).cloned().collect();
    assert_eq!(union, ids(&before));
    assert!(ids(&kept).is_disjoint(&ids(&moved)));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(archive_path(&env))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // Again: nothing more is due, the archive is not appended to.
    let archive_bytes = std::fs::read(archive_path(&env)).unwrap();
    let again = sweep(&env, &[]);
    assert!(
        again["removed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["kind"] != "archived-entries"),
        "{again:#}"
    );
    assert_eq!(std::fs::read(archive_path(&env)).unwrap(), archive_bytes);
    // Renders still work on the smaller store.
    let out = env.run(
        &["render"],
        json!({"directory": DIR, "sessionID": "s"}).to_string(),
    );
    assert_success(&out);
    assert!(stdout(&out).contains("retries idempotent calls"));
}

#[test]
fn a_crash_between_append_and_rewrite_leaves_a_duplicate_never_a_loss() {
    let env = Env::new();
    seed(&env);
    // As if a sweep appended the first due entry and died before rewriting the store, leaving
    // a torn line after it.
    let due = live(&env)[0].clone();
    let mut line = due.clone();
    line["archivedAt"] = json!(iso(NOW_MS - DAY_MS));
    std::fs::write(archive_path(&env), format!("{line}\n{{\"id\":\"mem_tor")).unwrap();

    sweep(&env, &[]);
    let text = std::fs::read_to_string(archive_path(&env)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The old line, the torn one (now on a line of its own), then the ten due entries.
    assert_eq!(lines.len(), 12, "{text}");
    assert!(lines[1].starts_with("{\"id\":\"mem_tor") && lines[1].len() < 20);
    assert_eq!(live(&env).len(), 30);
    assert!(!ids(&live(&env)).contains(due["id"].as_str().unwrap()));

    // baseline counts the entry once and flags the torn line.
    let out = env.run(&["baseline", "--json"], "");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["workspaces"][0]["archived"], 10);
    assert_eq!(report["workspaces"][0]["files"]["malformedArchiveLines"], 1);
    let problem = &report["problems"][0];
    assert_eq!(problem["kind"], "corrupt");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .starts_with("workspace-memory.archive.jsonl: line 2 is not an archived entry"),
        "{problem}"
    );
    let check = env.run(&["baseline", "--check"], "");
    assert_eq!(check.status.code(), Some(1));
}

#[test]
fn restore_brings_an_archived_entry_back() {
    let env = Env::new();
    seed(&env);
    sweep(&env, &[]);
    let id = archived(&env)[3]["id"].as_str().unwrap().to_string();
    let archive_before = std::fs::read(archive_path(&env)).unwrap();

    let out = env.run(&["gc", "--restore-archived", &id, "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "restored");
    let back: Vec<Value> = live(&env).into_iter().filter(|e| e["id"] == id).collect();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0]["status"], "active");
    assert!(back[0].get("archivedAt").is_none());
    assert_eq!(back[0]["pinnedBy"], "keeps unknown fields");
    // The archive is append-only: the line stays.
    assert_eq!(std::fs::read(archive_path(&env)).unwrap(), archive_before);

    // Twice: nothing more to do. An unknown id: an error, nothing changed.
    let store_before = std::fs::read(workspace_dir(&env).join("workspace-memory.json")).unwrap();
    let again = env.run(&["gc", "--restore-archived", &id], "");
    assert_success(&again);
    assert!(stdout(&again).contains("already"));
    let missing = env.run(&["gc", "--restore-archived", "mem_0_nosuch"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no archived entry"));
    assert_eq!(
        std::fs::read(workspace_dir(&env).join("workspace-memory.json")).unwrap(),
        store_before
    );
}
