//! Verified commands through the binary: validation commands that pass are counted in
//! workspace memory once per session, from OpenCode's `tool-after` and Claude Code's hook,
//! rendered as one line of a new session's block and reported by `baseline`; temp paths,
//! secrets and other commands are never stored, and the TypeScript plugin's fields stay as
//! they were.

mod common;

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/verified";

fn memory_file(env: &Env) -> std::path::PathBuf {
    env.memory_file(DIR)
}

fn memory(env: &Env) -> Value {
    env.memory_json(DIR)
}

/// A passing bash call at `now`.
fn pass(env: &Env, now: &str, session: &str, call: &str, command: &str, output: &str) -> Value {
    let out = env.run_at(
        now,
        &["tool-after", "--json"],
        bash(DIR, session, call, command, output, json!(0)).to_string(),
    );
    assert_success(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn verified_line(block: &str) -> Option<&str> {
    block.lines().find(|l| l.starts_with("verified commands:"))
}

#[test]
fn the_command_that_passed_in_most_sessions_is_rendered() {
    let env = Env::new();
    let ok = "\n> demo@1.0.0 typecheck\n> tsc --noEmit\n\n";
    for (i, now) in [
        "2026-11-01T10:00:00Z",
        "2026-11-02T10:00:00Z",
        "2026-11-03T10:00:00Z",
    ]
    .iter()
    .enumerate()
    {
        let line = pass(&env, now, &format!("s{i}"), "c1", "npm run typecheck", ok);
        assert_eq!(
            line["verifiedCounted"],
            json!([{"category": "typecheck", "command": "npm run typecheck"}])
        );
    }
    // The latest, but once; and many times in one session still counts once.
    for call in ["c1", "c2", "c3", "c4"] {
        pass(&env, "2026-11-04T10:00:00Z", "s9", call, "npx tsc", "");
    }
    pass(
        &env,
        "2026-11-04T10:01:00Z",
        "s9",
        "c5",
        "cd web && CI=1 npm test 2>&1",
        "Tests: 4 passed, 4 total\n",
    );
    pass(&env, "2026-11-04T10:02:00Z", "s9", "c6", "npm run lint", "");

    let stored = memory(&env)["verifiedCommands"].clone();
    let typecheck: Vec<(String, u64)> = stored["typecheck"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["command"].as_str().unwrap().to_string(),
                v["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        typecheck,
        [
            ("npm run typecheck".to_string(), 3),
            ("npx tsc".to_string(), 1)
        ]
    );
    assert_eq!(
        stored["typecheck"][0]["lastPassed"],
        "2026-11-03T10:00:00.000Z"
    );
    assert_eq!(stored["test"][0]["command"], "npm test");

    let block = env.render(DIR, "new-session");
    assert_eq!(
        verified_line(&block),
        Some("verified commands: typecheck `npm run typecheck` · test `npm test` · lint `npm run lint`"),
        "{block}"
    );
    assert!(block.starts_with("Workspace memory (cross-session, verify if stale):"));
}

#[test]
fn a_frozen_block_keeps_its_bytes_until_the_next_session() {
    let env = Env::new();
    let before = env.render(DIR, "s1");
    assert_eq!(before, "");
    pass(
        &env,
        "2026-11-01T10:00:00Z",
        "s1",
        "c1",
        "cargo test",
        "test result: ok. 3 passed; 0 failed\n",
    );
    assert_eq!(
        env.render(DIR, "s1"),
        before,
        "the session's block is frozen"
    );
    assert_eq!(
        verified_line(&env.render(DIR, "s2")),
        Some("verified commands: test `cargo test`")
    );
}

#[test]
fn the_claude_code_hook_counts_passing_bash_calls_too() {
    let env = Env::new();
    let passed = |id: &str, command: &str| {
        json!({"session_id": "cc-1", "transcript_path": "/home/dev/.claude/projects/x/cc-1.jsonl",
               "cwd": DIR, "hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}, "tool_use_id": id,
               "tool_response": {"stdout": "", "stderr": "", "interrupted": false}})
    };
    for (id, command) in [
        ("t1", "npx tsc --noEmit"),
        ("t2", "git status"),
        ("t3", "ls -la"),
    ] {
        let out = env.run(&["hook", "claude-code"], passed(id, command).to_string());
        assert_success(&out);
    }
    let stored = memory(&env)["verifiedCommands"].clone();
    assert_eq!(
        stored,
        json!({"typecheck": [{"command": "npx tsc --noEmit", "count": 1,
                              "lastPassed": stored["typecheck"][0]["lastPassed"]}]})
    );
}

#[test]
fn temp_paths_secrets_failures_and_other_commands_are_never_stored() {
    let env = Env::new();
    let token = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
    let never = [
        ("npx tsc -p /tmp/tsconfig.json", ""),
        ("pytest --basetemp=$TMPDIR/pt", ""),
        ("cargo test --target-dir \"$(mktemp -d)\"", ""),
        (&*format!("npm test -- --token {token}"), ""),
        ("cat package.json", ""),
        ("git commit -m 'make tests pass'", ""),
        ("npm install", ""),
        ("node server.js", ""),
        ("npm test | tail -3", ""),
        ("npm test", "Tests:       1 failed, 3 passed, 4 total\n"),
    ];
    for (i, (command, output)) in never.iter().enumerate() {
        let line = pass(
            &env,
            "2026-11-01T10:00:00Z",
            "s1",
            &format!("c{i}"),
            command,
            output,
        );
        assert!(line.get("verifiedCounted").is_none(), "{command}: {line}");
    }
    // Nothing counted: workspace memory was not even created.
    assert!(!memory_file(&env).exists());
    // A failing run counts for nothing either.
    let out = env.run(
        &["tool-after"],
        bash(DIR, "s1", "f1", "npm test", "not ok 1 - adds\n", json!(1)).to_string(),
    );
    assert_success(&out);
    assert!(!memory_file(&env).exists());
    assert_eq!(env.render(DIR, "s2"), "");
    // What it does count holds neither: an assignment before the step is not part of it.
    let line = pass(
        &env,
        "2026-11-01T10:00:00Z",
        "s1",
        "ok",
        &format!("GITHUB_TOKEN={token} npm test"),
        "",
    );
    assert_eq!(
        line["verifiedCounted"],
        json!([{"category": "test", "command": "npm test"}])
    );
    let text = std::fs::read_to_string(memory_file(&env)).unwrap();
    assert!(!text.contains("tmp") && !text.contains(token) && !text.contains("REDACTED"));
    for file in env.data_files() {
        let path = env.data.join(&file);
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            assert!(!String::from_utf8_lossy(&bytes).contains(token), "{file}");
        }
    }
}

#[test]
fn the_typescript_plugins_fields_are_untouched() {
    let env = Env::new();
    let plugin_store = json!({
        "version": 1,
        "workspace": {"root": DIR, "key": &sha256_hex(DIR)[..16]},
        "limits": {"maxRenderedChars": 5200, "maxEntries": 28},
        "entries": [{
            "id": "mem_1700000000000_abc123", "type": "feedback",
            "text": "always run npm run typecheck before committing", "source": "explicit",
            "confidence": 1.0, "status": "active",
            "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"
        }],
        "migrations": ["m1"],
        "pluginOnly": {"kept": true},
        "updatedAt": "2026-01-01T00:00:00.000Z"
    });
    let path = memory_file(&env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&plugin_store).unwrap()).unwrap();

    // A failure and an inspection write nothing to workspace memory, and nothing adds the field.
    env.tool_after(&bash(
        DIR,
        "s1",
        "f",
        "npm test",
        "not ok 1 - adds\n",
        json!(1),
    ));
    env.tool_after(&bash(DIR, "s1", "g", "git log", "", json!(0)));
    assert_eq!(memory(&env), plugin_store);

    pass(
        &env,
        "2026-11-05T08:00:00Z",
        "s1",
        "p",
        "npm run typecheck",
        "",
    );
    let after = memory(&env);
    for key in [
        "version",
        "workspace",
        "limits",
        "entries",
        "migrations",
        "pluginOnly",
    ] {
        assert_eq!(after[key], plugin_store[key], "{key}");
    }
    assert_eq!(after["updatedAt"], "2026-11-05T08:00:00.000Z");
    let mut expected = plugin_store.as_object().unwrap().clone();
    expected.insert("updatedAt".into(), after["updatedAt"].clone());
    expected.insert("verifiedCommands".into(), after["verifiedCommands"].clone());
    assert_eq!(after, Value::Object(expected));

    let block = env.render(DIR, "s2");
    assert!(
        block.contains("- always run npm run typecheck before committing"),
        "{block}"
    );
    assert!(
        block.contains("\nverified commands: typecheck `npm run typecheck`"),
        "{block}"
    );
}

#[test]
fn commands_todays_rules_reject_are_not_shown() {
    let env = Env::new();
    // Written by another writer, or under older rules.
    let store = json!({
        "version": 1,
        "workspace": {"root": DIR, "key": &sha256_hex(DIR)[..16]},
        "entries": [],
        "verifiedCommands": {
            "test": [
                {"command": "git log --oneline", "count": 9, "lastPassed": "2026-01-01T00:00:00.000Z"},
                {"command": "pytest /tmp/case", "count": 7, "lastPassed": "2026-01-01T00:00:00.000Z"},
                {"command": "npm test | tail", "count": 5, "lastPassed": "2026-01-01T00:00:00.000Z"},
                {"command": "pytest -q", "count": 2, "lastPassed": "2026-01-01T00:00:00.000Z"}
            ],
            "lint": "not a list"
        }
    });
    let path = memory_file(&env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, store.to_string()).unwrap();
    let block = env.render(DIR, "s1");
    assert_eq!(
        block.trim_end(),
        "Workspace memory (cross-session, verify if stale):\nverified commands: test `pytest -q`"
    );
    // The next count of the category drops them.
    pass(
        &env,
        "2026-11-05T08:00:00Z",
        "s1",
        "p",
        "pytest -q",
        "3 passed in 0.01s\n",
    );
    assert_eq!(
        memory(&env)["verifiedCommands"]["test"],
        json!([{"command": "pytest -q", "count": 3, "lastPassed": "2026-11-05T08:00:00.000Z"}])
    );
}

#[test]
fn baseline_reports_the_verified_commands() {
    let env = Env::new();
    for (i, command) in ["npm test", "npm test", "npm run build"].iter().enumerate() {
        pass(
            &env,
            "2026-11-05T08:00:00Z",
            &format!("s{i}"),
            "c",
            command,
            "",
        );
    }
    let out = env.run_at("2026-11-06T08:00:00Z", &["baseline", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["workspaces"][0]["verifiedCommands"],
        json!([
            {"category": "test", "command": "npm test", "count": 2, "lastPassed": "2026-11-05T08:00:00.000Z"},
            {"category": "build", "command": "npm run build", "count": 1, "lastPassed": "2026-11-05T08:00:00.000Z"}
        ])
    );
    let out = env.run_at("2026-11-06T08:00:00Z", &["baseline"], "");
    assert_success(&out);
    let table = stdout(&out);
    assert!(
        table.contains(
            "  verified:  test `npm test` (2 sessions, last 2026-11-05T08:00:00.000Z)  build `npm run build` (1 session, last 2026-11-05T08:00:00.000Z)"
        ),
        "{table}"
    );
}
