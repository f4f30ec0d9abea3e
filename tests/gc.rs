//! `ocmem gc`: deleted sessions, the sweep, and false-positive cleanup, through the binary.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use common::*;
use serde_json::{json, Value};

/// Everything under the data dir, directories included, with file contents.
fn tree(env: &Env) -> BTreeMap<String, Option<Vec<u8>>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.strip_prefix(base).unwrap().display().to_string();
            if path.is_dir() {
                out.insert(name, None);
                walk(base, &path, out);
            } else {
                out.insert(name, Some(fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&env.data, &env.data, &mut out);
    out
}

fn workspace_dir(env: &Env, root: &str) -> PathBuf {
    env.workspace_dir(root)
}

const DAY_MS: i64 = 86_400_000;
/// `NOW` as Unix milliseconds.
const NOW_MS: i64 = 1_795_276_800_000;

fn days_later(days: i64) -> String {
    (NOW_MS + days * DAY_MS).to_string()
}

/// Makes `path` look last modified `age` before `NOW`, the clock the binary runs with.
fn set_age(path: &Path, age: Duration) {
    let now = UNIX_EPOCH + Duration::from_millis(NOW_MS as u64);
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(now - age).unwrap();
}

/// A session of `DEMO_DIR` with a read file, made at `NOW`.
fn used_session(env: &Env, session: &str) -> PathBuf {
    env.tool_after(&file_tool(
        DEMO_DIR,
        session,
        "call_1",
        "read",
        "/home/dev/demo/src/index.ts",
    ));
    let file = env.session_file(DEMO_DIR, session);
    assert!(file.exists());
    file
}

fn remember(env: &Env, text: &str) {
    let out = env.run(
        &["render"],
        json!({"directory": DEMO_DIR, "sessionID": "ses_memory", "prompt": text, "messageID": "msg_1"})
            .to_string(),
    );
    assert_success(&out);
}

#[test]
fn a_deleted_session_loses_its_file_and_keeps_its_memories() {
    let env = Env::new();
    remember(&env, "remember this: the staging database is read-only");
    let session = used_session(&env, "ses_gone");
    let other = used_session(&env, "ses_stays");

    let event = json!({"directory": DEMO_DIR, "sessionID": "ses_gone"}).to_string();
    let out = env.run(&["gc", "--json"], event.clone());
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["removed"], true);
    assert!(report["bytes"].as_u64().unwrap() > 0);
    assert!(!session.exists());
    assert!(!PathBuf::from(format!("{}.lock", session.display())).exists());
    assert!(other.exists());
    let memory =
        fs::read_to_string(workspace_dir(&env, DEMO_DIR).join("workspace-memory.json")).unwrap();
    assert!(memory.contains("staging database is read-only"));

    // Deleting it again is not an error, and plain gc prints nothing.
    let again = env.run(&["gc"], event);
    assert_success(&again);
    assert_eq!(stdout(&again), "");
}

#[test]
fn a_bad_session_event_changes_nothing() {
    let env = Env::new();
    used_session(&env, "ses_1");
    let before = tree(&env);
    for (stdin, problem) in [
        (
            json!({"directory": DEMO_DIR}).to_string(),
            "sessionID is missing",
        ),
        (
            json!({"sessionID": "ses_1"}).to_string(),
            "directory is missing",
        ),
        ("{".to_string(), "not valid JSON"),
        (String::new(), "stdin is empty"),
    ] {
        let out = env.run(&["gc"], stdin);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.contains(problem), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(tree(&env), before);
}

#[test]
fn sweep_removes_sessions_idle_past_the_ttl_only() {
    let env = Env::new();
    remember(&env, "remember this: the staging database is read-only");
    let session = used_session(&env, "ses_old");
    // A throwaway directory with a session and no memory.
    env.tool_after(&file_tool(
        "/tmp/scratch-x",
        "ses_tmp",
        "c1",
        "read",
        "/tmp/scratch-x/a.txt",
    ));
    let scratch = workspace_dir(&env, "/tmp/scratch-x");
    assert!(scratch.exists());

    // Exactly 30 days idle: kept.
    let out = env.run_at(&days_later(30), &["gc", "--sweep"], "");
    assert_success(&out);
    assert!(
        stdout(&out).contains("nothing to remove"),
        "{}",
        stdout(&out)
    );
    assert!(session.exists());

    // Past it: sessions, their locks, and the emptied scratch workspace go; memory stays.
    let out = env.run_at(&days_later(31), &["gc", "--sweep"], "");
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("removed idle-session"), "{text}");
    assert!(text.contains("idle 31 days"), "{text}");
    assert!(text.contains("removed empty-directory"), "{text}");
    assert!(text.contains("reclaimed"), "{text}");
    assert!(!session.exists());
    assert!(!scratch.exists());
    let files = env.data_files();
    assert!(files.iter().all(|f| !f.contains("/sessions/")), "{files:?}");
    assert!(
        files.iter().any(|f| f.ends_with("workspace-memory.json")),
        "{files:?}"
    );
}

/// Reference-plugin defect 11: sessions never deleted, and workspaces of throwaway
/// directories, accumulated forever.
#[test]
fn defect_11_idle_sessions_and_throwaway_workspaces_do_not_accumulate() {
    let env = Env::new();
    for i in 0..5 {
        let dir = format!("/tmp/throwaway-{i}");
        env.tool_after(&file_tool(&dir, "ses_x", "c1", "read", &format!("{dir}/a")));
    }
    remember(&env, "remember this: the staging database is read-only");
    assert_eq!(
        fs::read_dir(env.data.join("workspaces")).unwrap().count(),
        6
    );
    let out = env.run_at(&days_later(45), &["gc", "--sweep"], "");
    assert_success(&out);
    // Only the workspace holding memory is left, with its memory (its lock, the entries of
    // its block) and the empty marker of OpenCode's last call, and nothing else.
    let mut files = env.data_files();
    assert!(files.remove(0).ends_with("/hosts/opencode"), "{files:?}");
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("/workspace-memory.json"), "{files:?}");
    assert!(
        files[1].ends_with("/workspace-memory.json.lock"),
        "{files:?}"
    );
    assert!(
        files[2].ends_with("/workspace-memory.top.json"),
        "{files:?}"
    );
}

#[test]
fn a_block_cache_whose_memory_was_removed_by_hand_does_not_keep_its_workspace() {
    let env = Env::new();
    remember(&env, "remember this: the staging database is read-only");
    let memory = env
        .data_files()
        .into_iter()
        .find(|f| f.ends_with("/workspace-memory.json"))
        .expect("memory was written");
    let top = env
        .data
        .join(memory.replace("workspace-memory.json", "workspace-memory.top.json"));
    let memory = env.data.join(memory);
    assert!(top.exists(), "the block cache is written with memory");
    fs::remove_file(&memory).unwrap();
    let out = env.run_at(&days_later(45), &["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = field_strs(&report["removed"], "kind");
    assert!(kinds.contains(&"orphan-block-cache"), "{kinds:?}");
    assert!(!top.exists());
    assert!(
        fs::read_dir(env.data.join("workspaces"))
            .unwrap()
            .next()
            .is_none(),
        "the emptied workspace directory goes: {:?}",
        env.data_files()
    );
}

#[test]
fn the_ttl_comes_from_the_flag_or_the_environment() {
    let env = Env::new();
    let session = used_session(&env, "ses_1");
    let out = env.run_at(&days_later(8), &["gc", "--sweep", "--older-than", "10"], "");
    assert_success(&out);
    assert!(session.exists());
    let report = env.sweep_with_ttl(&days_later(8), "7");
    assert_eq!(report["ttlDays"], 7);
    assert_eq!(report["removed"][0]["kind"], "idle-session");
    assert_eq!(report["removed"][0]["idleDays"], 8);
    assert!(!session.exists());
}

#[test]
fn bad_ttl_values_are_usage_errors_and_change_nothing() {
    let env = Env::new();
    used_session(&env, "ses_1");
    let before = tree(&env);
    for bad in ["0", "366", "-1", "abc", "7.5"] {
        let out = env
            .ocmem()
            .env("OCMEM_NOW", days_later(400))
            .env("OCMEM_TTL_DAYS", bad)
            .args(["gc", "--sweep"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "OCMEM_TTL_DAYS={bad}");
        assert!(stderr(&out).contains("OCMEM_TTL_DAYS"), "{}", stderr(&out));
        let out = env.run_at(
            &days_later(400),
            &["gc", "--sweep", "--older-than", bad],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "--older-than {bad}");
    }
    assert_eq!(tree(&env), before);
}

#[test]
fn sweep_removes_orphans_surplus_copies_and_stale_locks() {
    let env = Env::new();
    let session = used_session(&env, "ses_1");
    let sessions = session.parent().unwrap().to_path_buf();
    let old_temp = sessions.join("0123.json.tmp-77-1");
    let fresh_temp = sessions.join("0123.json.tmp-78-2");
    for temp in [&old_temp, &fresh_temp] {
        fs::write(temp, "{\"half\":").unwrap();
    }
    set_age(&old_temp, Duration::from_secs(2 * 3600));
    let copies: Vec<PathBuf> = (1..=5)
        .map(|i| sessions.join(format!("abcd.json.corrupt-{}", 1_700_000_000_000u64 + i)))
        .collect();
    for copy in &copies {
        fs::write(copy, "\0\0").unwrap();
    }
    let stale_lock = sessions.join("ffff.json.lock");
    fs::write(&stale_lock, "").unwrap();
    let live_lock = PathBuf::from(format!("{}.lock", session.display()));
    assert!(live_lock.exists());

    let dry = env.run(&["gc", "--sweep", "--dry-run", "--json"], "");
    assert_success(&dry);
    let dry: Value = serde_json::from_str(&stdout(&dry)).unwrap();
    assert_eq!(dry["dryRun"], true);

    let out = env.run(&["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        report["removed"], dry["removed"],
        "a dry run predicts the real one"
    );
    let kinds: Vec<(&str, String)> = report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = Path::new(r["path"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (r["kind"].as_str().unwrap(), name)
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("orphan-temp", "0123.json.tmp-77-1".to_string()),
            (
                "surplus-quarantined",
                "abcd.json.corrupt-1700000000001".to_string()
            ),
            (
                "surplus-quarantined",
                "abcd.json.corrupt-1700000000002".to_string()
            ),
            ("stale-lock", "ffff.json.lock".to_string()),
        ]
    );
    assert_eq!(report["bytes"], 8 + 2 + 2);
    assert!(!old_temp.exists() && fresh_temp.exists());
    assert!(copies[2..].iter().all(|c| c.exists()));
    assert!(!stale_lock.exists());
    assert!(live_lock.exists() && session.exists());
}

#[test]
fn dry_run_changes_nothing() {
    let env = Env::new();
    used_session(&env, "ses_1");
    env.tool_after(&file_tool(
        "/tmp/scratch-y",
        "ses_2",
        "c1",
        "read",
        "/tmp/scratch-y/a",
    ));
    let sessions = env
        .session_file(DEMO_DIR, "ses_1")
        .parent()
        .unwrap()
        .to_path_buf();
    let temp = sessions.join("x.json.tmp-1-1");
    fs::write(&temp, "x").unwrap();
    set_age(&temp, Duration::from_secs(7200));
    let before = tree(&env);

    let out = env.run_at(&days_later(60), &["gc", "--sweep", "--dry-run"], "");
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("would remove idle-session"), "{text}");
    assert!(text.contains("would remove orphan-temp"), "{text}");
    assert!(text.contains("would remove empty-directory"), "{text}");
    assert!(text.contains("would be reclaimed"), "{text}");
    assert!(!text.contains("removed "), "{text}");
    assert_eq!(tree(&env), before);

    let out = env.run_at(
        &days_later(60),
        &["gc", "--false-positives", "--dry-run"],
        "",
    );
    assert_success(&out);
    assert_eq!(tree(&env), before);
}

#[test]
fn sweep_can_be_limited_to_one_workspace() {
    let env = Env::new();
    let demo = used_session(&env, "ses_1");
    env.tool_after(&file_tool(
        "/tmp/scratch-z",
        "ses_2",
        "c1",
        "read",
        "/tmp/scratch-z/a",
    ));
    let out = env.run_at(
        &days_later(90),
        &["gc", "--sweep", "--workspace", "/tmp/scratch-z"],
        "",
    );
    assert_success(&out);
    assert!(demo.exists());
    assert!(!workspace_dir(&env, "/tmp/scratch-z").exists());
}

#[test]
fn gc_needs_an_event_or_a_mode() {
    let env = Env::new();
    let out = env.run(&["gc", "--dry-run"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = env.run(&["gc", "--older-than", "5"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// A session store as the TypeScript plugin wrote it: errors from `git log`, `cat` and
/// `grep` next to a real tsc and a real cargo failure, and fields ocmem does not know.
fn seeded_store() -> String {
    let error = |id: &str, category: &str, command: &str, summary: &str| {
        json!({
            "id": format!("err_{id}"), "category": category, "summary": summary,
            "command": command, "fingerprint": id, "status": "open",
            "firstSeen": 1_790_000_000_000i64, "lastSeen": 1_790_000_000_000i64, "seenCount": 2,
            "severity": "high"
        })
    };
    let store = json!({
        "version": 1,
        "sessionID": "ses_legacy",
        "turn": 12,
        "updatedAt": "2026-11-01T10:00:00.000Z",
        "activeFiles": [{"path": "/home/dev/demo/src/index.ts", "action": "edit", "count": 3, "lastSeen": 1_790_000_000_000i64}],
        "openErrors": [
            error("aaaaaaaaaaaa", "test", "git log --oneline -20", "4832b38 fix errors in test runner | 9f1c2aa handle failed uploads"),
            error("bbbbbbbbbbbb", "typecheck", "npm run typecheck", "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."),
            error("cccccccccccc", "build", "cat build.log", "Error: build failed at step 3"),
            error("dddddddddddd", "build", "cargo build", "error[E0308]: mismatched types | --> src/main.rs:4:18"),
            error("eeeeeeeeeeee", "lint", "grep -rn error src/", "src/log.ts:3: console.error('failed')"),
        ],
        "recentDecisions": [],
        "pluginVersion": "1.2.4"
    });
    serde_json::to_string_pretty(&store).unwrap()
}

#[test]
fn false_positive_cleanup_keeps_real_failures_and_backs_up_the_original() {
    let env = Env::new();
    let file = env.session_file(DEMO_DIR, "ses_legacy");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = seeded_store();
    fs::write(&file, &original).unwrap();

    let dry = env.run(&["gc", "--false-positives", "--dry-run"], "");
    assert_success(&dry);
    let text = stdout(&dry);
    assert!(
        text.contains("would remove 3 suspected false-positive errors from 1 session file"),
        "{text}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
    assert!(!env.data.join("backups").exists());

    let out = env.run(&["gc", "--false-positives", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let removed: Vec<(&str, &str)> = report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["rule"].as_str().unwrap()))
        .collect();
    assert_eq!(
        removed,
        vec![
            ("err_aaaaaaaaaaaa", "inspection-command"),
            ("err_cccccccccccc", "inspection-command"),
            ("err_eeeeeeeeeeee", "inspection-command"),
        ]
    );
    assert!(report["removed"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("inspects"));

    let kept: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    let ids: Vec<&str> = field_strs(&kept["openErrors"], "id");
    assert_eq!(ids, ["err_bbbbbbbbbbbb", "err_dddddddddddd"]);
    assert_eq!(kept["pluginVersion"], "1.2.4");
    assert_eq!(kept["openErrors"][0]["severity"], "high");

    // The backup holds the original byte for byte, at the same relative path.
    let backup_dir = PathBuf::from(report["backupDir"].as_str().unwrap());
    assert_eq!(backup_dir, env.data.join("backups/20261121T160000.000Z"));
    let relative = file.strip_prefix(&env.data).unwrap();
    assert_eq!(
        fs::read_to_string(backup_dir.join(relative)).unwrap(),
        original
    );

    // A second run finds nothing and backs nothing up.
    let again = env.run_at("2026-11-21T17:00:00Z", &["gc", "--false-positives"], "");
    assert_success(&again);
    assert!(stdout(&again).contains("no suspected false-positive errors"));
    assert_eq!(fs::read_dir(env.data.join("backups")).unwrap().count(), 1);
}

#[test]
fn false_positive_cleanup_skips_stores_it_cannot_read() {
    let env = Env::new();
    let corrupt = env.session_file(DEMO_DIR, "ses_corrupt");
    fs::create_dir_all(corrupt.parent().unwrap()).unwrap();
    fs::write(&corrupt, "{\"version\": 1, \"openErrors\": [").unwrap();
    let newer = env.session_file(DEMO_DIR, "ses_newer");
    let newer_text = seeded_store().replacen("\"version\": 1", "\"version\": 7", 1);
    fs::write(&newer, &newer_text).unwrap();
    let before = tree(&env);

    let out = env.run(&["gc", "--false-positives"], "");
    assert_success(&out);
    let text = stdout(&out);
    assert!(
        text.contains("skipped") && text.contains("does not parse"),
        "{text}"
    );
    assert!(text.contains("newer ocmem (format version 7)"), "{text}");
    // Taking the locks may create lock files; no store is changed, moved or backed up.
    let mut after = tree(&env);
    after.retain(|name, _| !name.ends_with(".lock"));
    assert_eq!(after, before);
}

#[test]
fn gc_run_from_a_terminal_without_a_mode_explains_itself() {
    // `script` (util-linux) gives the child a terminal for stdin.
    let env = Env::new();
    let ocmem = assert_cmd::cargo::cargo_bin("ocmem");
    let command = format!(
        "'{}' --data-dir '{}' gc",
        ocmem.display(),
        env.data.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("`script` from util-linux runs the command on a terminal");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("three uses"), "{text}");
    assert!(
        text.contains("--sweep") && text.contains("--false-positives"),
        "{text}"
    );
    assert!(!env.data.exists());
}

#[test]
fn sweep_keeps_directories_it_did_not_make() {
    let env = Env::new();
    let session = used_session(&env, "ses_1");
    let sessions = session.parent().unwrap().to_path_buf();
    let foreign = sessions.join("notes");
    fs::create_dir(&foreign).unwrap();
    let dry = env.run_at(
        &days_later(60),
        &["gc", "--sweep", "--dry-run", "--json"],
        "",
    );
    let out = env.run_at(&days_later(60), &["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let dry: Value = serde_json::from_str(&stdout(&dry)).unwrap();
    assert_eq!(report["removed"], dry["removed"]);
    let kinds: Vec<&str> = field_strs(&report["removed"], "kind");
    assert_eq!(kinds, ["idle-session"]);
    assert!(foreign.is_dir() && !session.exists());
}

/// Files a sweep would remove if they were inside the data directory: an idle session and its
/// lock, an orphan temp file and surplus quarantined copies.
fn sweepable_files(dir: &Path) -> Vec<PathBuf> {
    let sessions = dir.join("sessions");
    fs::create_dir_all(&sessions).unwrap();
    let mut files = vec![
        sessions.join("0123.json"),
        sessions.join("0123.json.lock"),
        sessions.join("0123.json.tmp-77-1"),
        dir.join("ffff.json.lock"),
    ];
    files.extend((1..=5).map(|i| sessions.join(format!("abcd.json.corrupt-{i}"))));
    for file in &files {
        fs::write(file, r#"{"version": 1, "sessionID": "ses_old"}"#).unwrap();
        set_age(file, Duration::from_secs(90 * 86_400));
    }
    files
}

#[test]
fn sweep_never_follows_a_symlink_out_of_the_data_dir() {
    let env = Env::new();
    let session = used_session(&env, "ses_1");
    let outside = env.tmp.path().join("elsewhere");
    let linked_workspace = outside.join("workspace");
    let linked_sessions = outside.join("sessions-target");
    let mut kept = sweepable_files(&linked_workspace);
    kept.extend(sweepable_files(&linked_sessions));

    // workspaces/<key> as a link to a directory elsewhere, and a workspace whose sessions/
    // is one.
    let workspaces = env.data.join("workspaces");
    std::os::unix::fs::symlink(&linked_workspace, workspaces.join("00000000000000aa")).unwrap();
    let real = workspaces.join("00000000000000bb");
    fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(linked_sessions.join("sessions"), real.join("sessions")).unwrap();

    for args in [
        &["gc", "--sweep", "--dry-run", "--json"][..],
        &["gc", "--sweep", "--json"],
    ] {
        let out = env.run_at(&days_later(60), args, "");
        assert_success(&out);
        let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
        for removal in report["removed"].as_array().unwrap() {
            let path = removal["path"].as_str().unwrap();
            assert!(
                !path.contains("00000000000000"),
                "{args:?} reached through a link: {path}"
            );
        }
    }
    for file in &kept {
        assert!(file.exists(), "{} was removed", file.display());
    }
    assert!(!session.exists(), "the real idle session still goes");
}

#[test]
fn a_deleted_session_that_is_a_directory_is_moved_aside_with_its_contents() {
    let env = Env::new();
    let session = env.session_file(DEMO_DIR, "ses_dir");
    fs::create_dir_all(&session).unwrap();
    fs::write(session.join("notes.txt"), "keep me").unwrap();

    let event = json!({"directory": DEMO_DIR, "sessionID": "ses_dir"}).to_string();
    let out = env.run(&["gc"], event);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is a directory, not a regular file"), "{err}");
    assert!(!session.exists());
    let aside: Vec<PathBuf> = fs::read_dir(session.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains(".json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(fs::read(aside[0].join("notes.txt")).unwrap(), b"keep me");
}

/// Marks that `host` last called for the workspace of `root` `age` before `NOW`, as a hook
/// does (`workspaces/<key>/hosts/<host>`).
fn host_marker(env: &Env, root: &str, host: &str, age: Duration) -> PathBuf {
    let marker = workspace_dir(env, root).join("hosts").join(host);
    fs::create_dir_all(marker.parent().unwrap()).unwrap();
    fs::write(&marker, "").unwrap();
    set_age(&marker, age);
    marker
}

fn removed_kinds(report: &Value) -> Vec<(String, String)> {
    report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let path = r["path"].as_str().unwrap();
            let tail: Vec<&str> = path.rsplit('/').take(2).collect();
            (
                r["kind"].as_str().unwrap().to_string(),
                format!("{}/{}", tail[1], tail[0]),
            )
        })
        .collect()
}

#[test]
fn host_markers_keep_a_workspace_until_no_host_called_for_the_ttl() {
    let env = Env::new();
    // A throwaway workspace whose session goes idle, last called by OpenCode 40 days ago,
    // and by Claude Code (for a session that wrote nothing) 20 days after that session.
    let throwaway = "/tmp/throwaway-hosts";
    env.tool_after(&file_tool(
        throwaway,
        "ses_x",
        "c1",
        "read",
        "/tmp/throwaway-hosts/a",
    ));
    let old = host_marker(
        &env,
        throwaway,
        "opencode",
        Duration::from_secs(40 * 86_400),
    );
    let recent = host_marker(&env, throwaway, "claude-code", Duration::ZERO);
    let file = fs::File::options().write(true).open(&recent).unwrap();
    file.set_modified(UNIX_EPOCH + Duration::from_millis((NOW_MS + 20 * DAY_MS) as u64))
        .unwrap();
    // A workspace holding nothing but a marker older than the TTL.
    let abandoned = host_marker(
        &env,
        "/tmp/abandoned",
        "opencode",
        Duration::from_secs(31 * 86_400),
    );
    // Memory beside a marker far older: both stay.
    remember(&env, "remember this: the staging database is read-only");
    let beside_memory = host_marker(
        &env,
        DEMO_DIR,
        "opencode",
        Duration::from_secs(400 * 86_400),
    );

    let dry = env.run(&["gc", "--sweep", "--dry-run", "--json"], "");
    let out = env.run(&["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let dry: Value = serde_json::from_str(&stdout(&dry)).unwrap();
    assert_eq!(report["removed"], dry["removed"], "a dry run predicts it");
    let abandoned_key = &sha256_hex("/tmp/abandoned")[..16];
    assert_eq!(
        removed_kinds(&report),
        [
            ("idle-host-marker".to_string(), "hosts/opencode".to_string()),
            (
                "empty-directory".to_string(),
                format!("{abandoned_key}/hosts")
            ),
            (
                "empty-directory".to_string(),
                format!("workspaces/{abandoned_key}")
            ),
        ]
    );
    assert_eq!(report["removed"][0]["idleDays"], 31);
    assert!(!abandoned.exists() && !workspace_dir(&env, "/tmp/abandoned").exists());
    assert!(old.exists() && recent.exists() && beside_memory.exists());

    // 31 days on, the session is idle: it goes; the markers keep the workspace (one of them
    // is fresh enough).
    let out = env.run_at(&days_later(31), &["gc", "--sweep", "--json"], "");
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let throwaway_key = &sha256_hex(throwaway)[..16];
    let kinds: Vec<&str> = report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["path"].as_str().unwrap().contains(throwaway_key))
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["idle-session", "empty-directory"], "{report:#}");
    assert!(old.exists() && recent.exists());
    assert!(!workspace_dir(&env, throwaway).join("sessions").exists());

    // Once no host called for the TTL, the markers go, and the workspace with them.
    let out = env.run_at(&days_later(51), &["gc", "--sweep", "--json"], "");
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        removed_kinds(&report),
        [
            (
                "idle-host-marker".to_string(),
                "hosts/claude-code".to_string()
            ),
            ("idle-host-marker".to_string(), "hosts/opencode".to_string()),
            (
                "empty-directory".to_string(),
                format!("{throwaway_key}/hosts")
            ),
            (
                "empty-directory".to_string(),
                format!("workspaces/{throwaway_key}")
            ),
        ]
    );
    assert!(!workspace_dir(&env, throwaway).exists());
    assert!(beside_memory.exists(), "markers beside memory stay");
}

#[test]
fn anything_else_in_hosts_keeps_the_workspace() {
    let env = Env::new();
    let marker = host_marker(
        &env,
        "/tmp/odd-hosts",
        "opencode",
        Duration::from_secs(90 * 86_400),
    );
    let hosts = marker.parent().unwrap().to_path_buf();
    fs::create_dir(hosts.join("notes")).unwrap();
    let out = env.run(&["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["removed"], json!([]), "{report:#}");
    assert!(marker.exists() && hosts.join("notes").is_dir());
}

#[test]
fn the_warnings_log_is_left_to_itself() {
    let env = Env::new();
    used_session(&env, "ses_1");
    // A newer ocmem's memory: the next hook warns, on stderr and in the log.
    let memory = workspace_dir(&env, DEMO_DIR).join("workspace-memory.json");
    fs::write(&memory, r#"{"version": 99, "entries": []}"#).unwrap();
    let out = env.run(
        &["render"],
        json!({"directory": DEMO_DIR, "sessionID": "ses_1"}).to_string(),
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("newer than this ocmem understands"));
    let log = env.data.join("ocmem.log");
    let logged = fs::read_to_string(&log).unwrap();
    assert!(logged.contains("format version 99"), "{logged}");

    let out = env.run_at(&days_later(90), &["gc", "--sweep", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        report["removed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| !r["path"].as_str().unwrap().contains("ocmem.log")),
        "{report:#}"
    );
    assert!(log.exists());
}

const OTHER_DIR: &str = "/home/dev/other";

/// Workspace memory as an older ocmem left it: a command it counted then that today's rules
/// would not (`cat README.md`, a temp path) next to one they still count.
fn memory_with_verified_commands(root: &str) -> String {
    let verified = |command: &str, count: u64| json!({"command": command, "count": count, "lastPassed": "2026-11-01T10:00:00.000Z"});
    let memory = json!({
        "version": 1,
        "workspace": {"root": root, "key": &sha256_hex(root)[..16]},
        "entries": [{
            "id": "mem_1790000000000_abc123", "type": "project",
            "text": "The staging database is read-only.", "source": "explicit",
            "confidence": 1.0, "status": "active",
            "createdAt": "2026-11-01T10:00:00.000Z", "updatedAt": "2026-11-01T10:00:00.000Z"
        }],
        "updatedAt": "2026-11-01T10:00:00.000Z",
        "verifiedCommands": {
            "test": [verified("cat README.md", 7), verified("npm test", 3)],
            "typecheck": [verified("npx tsc -p /tmp/ocmem-check/tsconfig.json", 2)]
        },
        "pluginVersion": "1.2.4"
    });
    serde_json::to_string_pretty(&memory).unwrap()
}

fn write_memory(env: &Env, root: &str) -> (PathBuf, String) {
    let path = workspace_dir(env, root).join("workspace-memory.json");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = memory_with_verified_commands(root);
    fs::write(&path, &text).unwrap();
    (path, text)
}

/// `(kind, category, command, rule)` of each removal of a `--false-positives --json` report.
fn removed_commands(report: &Value) -> Vec<(String, String, String, String)> {
    report["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let field = |name: &str| r[name].as_str().unwrap().to_string();
            (
                field("kind"),
                field("category"),
                field("command"),
                field("rule"),
            )
        })
        .collect()
}

#[test]
fn false_positive_cleanup_removes_verified_commands_todays_rules_would_not_count() {
    let env = Env::new();
    let (file, original) = write_memory(&env, DEMO_DIR);
    let (other_file, other_original) = write_memory(&env, OTHER_DIR);
    let only_demo = ["--workspace", DEMO_DIR];

    let dry = env.run(
        &[
            &["gc", "--false-positives", "--dry-run", "--json"],
            &only_demo[..],
        ]
        .concat(),
        "",
    );
    assert_success(&dry);
    let predicted: Value = serde_json::from_str(&stdout(&dry)).unwrap();
    let expected: Vec<(String, String, String, String)> = [
        (
            "typecheck",
            "npx tsc -p /tmp/ocmem-check/tsconfig.json",
            "temp-path",
        ),
        ("test", "cat README.md", "not-counted"),
    ]
    .iter()
    .map(|(category, command, rule)| {
        let owned = |s: &str| s.to_string();
        (
            owned("verified-command"),
            owned(category),
            owned(command),
            owned(rule),
        )
    })
    .collect();
    assert_eq!(removed_commands(&predicted), expected);
    assert_eq!(predicted["removed"][1]["count"], 7);
    assert_eq!(predicted["backupDir"], Value::Null);
    let text = stdout(&env.run(
        &[&["gc", "--false-positives", "--dry-run"], &only_demo[..]].concat(),
        "",
    ));
    assert!(
        text.contains("would remove verified test command `cat README.md`")
            && text.contains(
                "would remove 2 verified commands today's rules would not count from 1 workspace memory file\n"
            ),
        "{text}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
    assert!(!env.data.join("backups").exists());

    let out = env.run(
        &[&["gc", "--false-positives", "--json"], &only_demo[..]].concat(),
        "",
    );
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["removed"], predicted["removed"]);
    assert_eq!(report["memoryFilesChanged"], json!([file]));
    assert_eq!(report["sessionFilesChanged"], json!([]));

    // The good command, the entries and the fields ocmem does not know stay.
    let kept: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        kept["verifiedCommands"],
        json!({"test": [{"command": "npm test", "count": 3, "lastPassed": "2026-11-01T10:00:00.000Z"}]})
    );
    assert_eq!(kept["entries"][0]["id"], "mem_1790000000000_abc123");
    assert_eq!(kept["pluginVersion"], "1.2.4");
    assert!(env
        .render(DEMO_DIR, "ses_after_gc")
        .contains("verified commands: test `npm test`"));

    // The original, byte for byte, under the same relative path; the other workspace untouched.
    let backup_dir = PathBuf::from(report["backupDir"].as_str().unwrap());
    let relative = file.strip_prefix(&env.data).unwrap();
    assert_eq!(
        fs::read_to_string(backup_dir.join(relative)).unwrap(),
        original
    );
    assert_eq!(fs::read_to_string(&other_file).unwrap(), other_original);

    // A second run finds nothing and backs nothing up.
    let again = env.run_at(
        "2026-11-21T17:00:00Z",
        &[&["gc", "--false-positives", "--json"], &only_demo[..]].concat(),
        "",
    );
    assert_success(&again);
    let again: Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!(again["removed"], json!([]));
    assert_eq!(again["backupDir"], Value::Null);
    assert_eq!(fs::read_dir(env.data.join("backups")).unwrap().count(), 1);

    // Without --workspace, the other one is cleaned too.
    let all = env.run_at("2026-11-21T18:00:00Z", &["gc", "--false-positives"], "");
    assert_success(&all);
    let text = stdout(&all);
    assert!(
        text.contains("removed 2 verified commands today's rules would not count from 1 workspace memory file; originals backed up in"),
        "{text}"
    );
    assert!(!fs::read_to_string(&other_file)
        .unwrap()
        .contains("cat README.md"));
}
