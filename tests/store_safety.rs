//! Stores stay correct under concurrent hooks, crashes, corrupt files and other writers.

mod common;

use ocmem::domain::base::host_name::HostName;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/repo";
const SESSION: &str = "ses_store";

fn read_event(call: &str) -> Value {
    file_tool(DIR, SESSION, call, "read", "src/a.ts")
}

#[test]
fn corrupt_session_stores_are_quarantined_and_replaced() {
    let cases: [(&str, Vec<u8>); 5] = [
        ("empty", Vec::new()),
        ("nul-filled", vec![0u8; 64]),
        (
            "truncated",
            br#"{"version": 1, "sessionID": "ses_store", "activeFi"#.to_vec(),
        ),
        (
            "wrong types",
            br#"{"version": 1, "activeFiles": "src/a.ts"}"#.to_vec(),
        ),
        ("not an object", b"[1, 2, 3]".to_vec()),
    ];
    for (name, bytes) in cases {
        let env = Env::new();
        let file = env.session_file(DIR, SESSION);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, &bytes).unwrap();

        let out = env.run(&["tool-after"], read_event("c1").to_string());
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{name}: one warning line: {err}");
        assert!(
            err.starts_with("ocmem: warning: session store"),
            "{name}: {err}"
        );
        assert!(err.contains(".corrupt-"), "{name}: {err}");

        // The broken bytes are kept aside, byte for byte; the store starts afresh.
        let quarantined: Vec<_> = fs::read_dir(file.parent().unwrap())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".json.corrupt-"))
            .collect();
        assert_eq!(quarantined.len(), 1, "{name}");
        assert_eq!(fs::read(quarantined[0].path()).unwrap(), bytes, "{name}");
        let state = env.session_json(DIR, SESSION);
        assert_eq!(state["activeFiles"][0]["count"], 1, "{name}");

        // Warned once: the next hook is quiet.
        env.tool_after(&read_event("c2"));
    }
}

#[test]
fn render_quarantines_a_corrupt_store_and_prints_nothing() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, "{\"version\":1,").unwrap();
    let out = env.run(
        &["render"],
        json!({"directory": DIR, "sessionID": SESSION}).to_string(),
    );
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(stderr(&out).lines().count(), 1);
    // Kept aside, and replaced by a fresh store that freezes the (empty) workspace block.
    let files = env.data_files();
    assert_eq!(
        files
            .iter()
            .filter(|f| f.contains(".json.corrupt-"))
            .count(),
        1,
        "{files:?}"
    );
    assert_eq!(env.session_json(DIR, SESSION)["frozenWorkspaceBlock"], "");
}

#[test]
fn only_the_newest_three_quarantined_copies_are_kept() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    for (i, now) in ["1000", "2000", "3000", "4000", "5000"].iter().enumerate() {
        fs::write(&file, format!("garbage {i}")).unwrap();
        let out = env.run_at(
            now,
            &["tool-after"],
            read_event(&format!("c{i}")).to_string(),
        );
        assert!(out.status.success());
    }
    let mut names: Vec<String> = fs::read_dir(file.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".corrupt-"))
        .collect();
    names.sort();
    let stamps: Vec<&str> = names
        .iter()
        .map(|n| n.rsplit('-').next().unwrap())
        .collect();
    assert_eq!(stamps, ["3000", "4000", "5000"]);
}

#[test]
fn warnings_of_concurrent_hooks_are_logged_whole() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, r#"{"version": 2, "sessionID": "ses_store"}"#).unwrap();
    let children: Vec<_> = (0..32)
        .map(|i| spawn_tool_after(&env.data, &read_event(&format!("call_{i}"))))
        .collect();
    let mut printed = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        printed.push(stderr(&out));
    }
    // Each process's warning, as it printed it, is one whole line of the log.
    let logged = ocmem::store::warnings::recent(&env.data, 100);
    assert_eq!(logged.len(), 32, "{logged:?}");
    for (warning, err) in logged.iter().zip(&printed) {
        assert_eq!(format!("ocmem: warning: {}\n", warning.text), *err);
        assert_eq!(warning.at, NOW.replace("Z", ".000Z"));
        assert_eq!(
            warning.host,
            Some(HostName::OpenCode),
            "tool-after is OpenCode's hook"
        );
    }
    let raw = fs::read_to_string(env.data.join("ocmem.log")).unwrap();
    assert_eq!(raw.lines().filter(|l| !l.is_empty()).count(), 32, "{raw}");
}

#[test]
fn a_store_from_a_newer_version_is_never_overwritten() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let newer = r#"{"version": 2, "sessionID": "ses_store", "activeFiles": "a new shape"}"#;
    fs::write(&file, newer).unwrap();

    let out = env.run(&["tool-after"], read_event("c1").to_string());
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("version 2") && err.contains("untouched"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert_eq!(fs::read_to_string(&file).unwrap(), newer);

    let out = env.run(
        &["render"],
        json!({"directory": DIR, "sessionID": SESSION}).to_string(),
    );
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_to_string(&file).unwrap(), newer);
    let files = env.data_files();
    assert!(files.iter().all(|f| !f.contains(".corrupt-")), "{files:?}");
}

#[test]
fn a_store_written_by_the_typescript_plugin_keeps_its_extra_fields() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let written_by_plugin = json!({
        "version": 1,
        "sessionID": SESSION,
        "turn": 7,
        "updatedAt": "2026-11-20T10:00:00.000Z",
        "activeFiles": [
            {"path": format!("{DIR}/src/b.ts"), "action": "edit", "count": 4, "lastSeen": 1795600000000i64, "pinned": true}
        ],
        "openErrors": [{
            "id": "err_0123456789ab", "category": "build", "summary": "error: could not compile `demo`",
            "command": "cargo build", "fingerprint": "0123456789ab", "status": "open",
            "firstSeen": 1795600000000i64, "lastSeen": 1795600000000i64, "seenCount": 2, "source": "plugin"
        }],
        "recentDecisions": [{"id": "d1", "text": "Use pnpm", "source": "explicit", "createdAt": "2026-11-20T10:00:00.000Z"}],
        "pendingMemories": [],
        "compactionCount": 3,
        "pluginMeta": {"schema": "three-layer", "flags": [1, 2]}
    });
    fs::write(
        &file,
        serde_json::to_string_pretty(&written_by_plugin).unwrap(),
    )
    .unwrap();

    env.tool_after(&read_event("c1"));
    let state = env.session_json(DIR, SESSION);
    assert_eq!(state["compactionCount"], 3);
    assert_eq!(state["pluginMeta"], written_by_plugin["pluginMeta"]);
    assert_eq!(state["turn"], 7);
    assert_eq!(
        state["recentDecisions"],
        written_by_plugin["recentDecisions"]
    );
    assert_eq!(state["pendingMemories"], json!([]));
    assert_eq!(state["openErrors"][0]["source"], "plugin");
    assert_eq!(state["openErrors"][0]["seenCount"], 2);
    assert_eq!(state["activeFiles"][0]["pinned"], true);
    assert_eq!(state["activeFiles"].as_array().unwrap().len(), 2);

    let rendered = env.render(DIR, SESSION);
    assert!(rendered.contains("- src/b.ts (edit, 4x)"), "{rendered}");
    assert!(
        rendered.contains("- [build] error: could not compile `demo`"),
        "{rendered}"
    );
}

#[test]
fn files_are_private_and_pretty_printed() {
    let env = Env::new();
    env.tool_after(&read_event("c1"));
    let file = env.session_file(DIR, SESSION);
    let mode = |p: &std::path::Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(file.parent().unwrap()), 0o700);
    assert_eq!(mode(file.parent().unwrap().parent().unwrap()), 0o700);
    let text = fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("{\n  \"version\": 1,\n  \"sessionID\": \"ses_store\","),
        "{text}"
    );
    assert!(text.contains("\"activeFiles\": ["), "{text}");
    assert!(
        text.contains("\"updatedAt\": \"2026-11-21T16:00:00.000Z\""),
        "{text}"
    );
}

#[test]
fn nothing_is_written_when_nothing_changed() {
    let env = Env::new();
    // A tool that changes nothing creates nothing.
    let glob = json!({"directory": DIR, "input": {"tool": "glob", "sessionID": SESSION, "callID": "g", "args": {}},
                      "output": {"output": "/x/a.ts"}});
    env.tool_after(&glob);
    let failing_unknown = bash(DIR, SESSION, "b", "npm test", "not ok 1 - x", Value::Null);
    env.tool_after(&failing_unknown);
    assert!(
        env.data_files().iter().all(|f| !f.ends_with(".json")),
        "{:?}",
        env.data_files()
    );

    env.tool_after(&read_event("c1"));
    let file = env.session_file(DIR, SESSION);
    let inode =
        |p: &std::path::Path| std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).unwrap());
    let before = (inode(&file), fs::read(&file).unwrap());
    env.tool_after(&read_event("c1"));
    env.tool_after(&bash(DIR, SESSION, "b2", "git status", "", json!(0)));
    assert_eq!((inode(&file), fs::read(&file).unwrap()), before);
}

#[test]
fn thirty_two_concurrent_hooks_lose_no_update() {
    let env = Env::new();
    let children: Vec<_> = (0..32)
        .map(|i| spawn_tool_after(&env.data, &read_event(&format!("call_{i}"))))
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_success(&out);
    }
    let state = env.session_json(DIR, SESSION);
    assert_eq!(state["activeFiles"][0]["count"], 32);
    assert_eq!(state["appliedCalls"].as_array().unwrap().len(), 32);
    let files = env.data_files();
    assert!(
        files.iter().all(|f| !f.contains(".tmp-")),
        "temp files left: {files:?}"
    );
}

#[test]
fn a_held_lock_makes_the_hook_fail_cleanly_after_a_bounded_wait() {
    let env = Env::new();
    env.tool_after(&read_event("c1"));
    let file = env.session_file(DIR, SESSION);
    let before = fs::read(&file).unwrap();
    let lock = fs::OpenOptions::new()
        .write(true)
        .open(format!("{}.lock", file.display()))
        .unwrap();
    lock.lock().unwrap();

    let out = env.run(&["tool-after"], read_event("c2").to_string());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("store busy"), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert_eq!(fs::read(&file).unwrap(), before);

    lock.unlock().unwrap();
    env.tool_after(&read_event("c2"));
    assert_eq!(env.session_json(DIR, SESSION)["activeFiles"][0]["count"], 2);
}

/// Runs a hook that must finish: a FIFO opened for reading would block it forever.
fn run_bounded(env: &Env, args: &[&str], stdin: String) -> std::process::Output {
    env.ocmem()
        .args(args)
        .write_stdin(stdin)
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap()
}

fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

fn make_dir(path: &Path) {
    fs::create_dir_all(path).unwrap();
    fs::write(path.join("kept.txt"), "inside").unwrap();
}

/// The entries next to `path` that are it, moved aside.
fn moved_aside(path: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}.corrupt-", path.file_name().unwrap().to_string_lossy());
    fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

fn session(env: &Env) -> PathBuf {
    env.session_file(DIR, SESSION)
}

fn lock(env: &Env) -> PathBuf {
    PathBuf::from(format!("{}.lock", session(env).display()))
}

fn memory(env: &Env) -> PathBuf {
    session(env)
        .parent()
        .unwrap()
        .with_file_name("workspace-memory.json")
}

#[test]
fn what_is_not_a_file_at_a_store_or_lock_path_is_moved_aside_and_hooks_carry_on() {
    type Locate = fn(&Env) -> PathBuf;
    type Make = fn(&Path);
    let cases: [(&str, Locate, Make); 5] = [
        ("directory at the session store", session, make_dir),
        ("fifo at the session store", session, make_fifo),
        ("directory at the memory store", memory, make_dir),
        ("directory at the lock file", lock, make_dir),
        ("fifo at the lock file", lock, make_fifo),
    ];
    let remember = json!({
        "directory": DIR, "sessionID": SESSION,
        "prompt": "remember: the fixtures live in tests/data", "messageID": "msg_1",
    });
    for (name, locate, make) in cases {
        let env = Env::new();
        let path = locate(&env);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        make(&path);
        let was_dir = path.is_dir();

        for (hook, event) in [
            ("tool-after", read_event("c1")),
            ("render", remember.clone()),
        ] {
            let out = run_bounded(&env, &[hook], event.to_string());
            assert!(out.status.success(), "{name}: {hook}: {}", stderr(&out));
        }
        let aside = moved_aside(&path);
        assert_eq!(aside.len(), 1, "{name}: {:?}", env.data_files());
        assert_eq!(aside[0].is_dir(), was_dir, "{name}");
        if was_dir {
            assert_eq!(fs::read(aside[0].join("kept.txt")).unwrap(), b"inside");
        }
        assert!(
            fs::symlink_metadata(&path).unwrap().is_file(),
            "{name}: a regular file took its place"
        );
        let state = env.session_json(DIR, SESSION);
        assert_eq!(state["activeFiles"][0]["count"], 1, "{name}");
        let memory_text = fs::read_to_string(memory(&env)).unwrap();
        assert!(memory_text.contains("tests/data"), "{name}: {memory_text}");

        // Warned once, by the hook that found it.
        let out = run_bounded(&env, &["tool-after"], read_event("c2").to_string());
        assert!(out.status.success() && out.stderr.is_empty(), "{name}");
    }
}

#[test]
fn what_is_not_a_file_is_named_in_the_warning() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(&file).unwrap();
    let out = run_bounded(&env, &["tool-after"], read_event("c1").to_string());
    assert!(out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("ocmem: warning: session store") && err.contains("a directory"),
        "{err}"
    );
}

#[test]
fn a_symlink_at_a_lock_path_never_creates_its_target() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let target = env.tmp.path().join("planted");
    let lock = PathBuf::from(format!("{}.lock", file.display()));
    std::os::unix::fs::symlink(&target, &lock).unwrap();

    let out = run_bounded(&env, &["tool-after"], read_event("c1").to_string());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!target.exists(), "the lock was created through the link");
    assert!(fs::symlink_metadata(&lock).unwrap().is_file());
    assert_eq!(env.session_json(DIR, SESSION)["activeFiles"][0]["count"], 1);
}

#[test]
fn a_symlinked_store_is_read_through_and_replaced_by_a_file() {
    let env = Env::new();
    let file = env.session_file(DIR, SESSION);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let target = env.tmp.path().join("restored.json");
    env.tool_after(&read_event("c1"));
    fs::rename(&file, &target).unwrap();
    let restored = fs::read(&target).unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();

    env.tool_after(&read_event("c2"));
    assert_eq!(
        fs::read(&target).unwrap(),
        restored,
        "the link's target is untouched"
    );
    assert!(fs::symlink_metadata(&file).unwrap().is_file());
    assert_eq!(env.session_json(DIR, SESSION)["activeFiles"][0]["count"], 2);
}
