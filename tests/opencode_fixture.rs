//! The recorded OpenCode 1.18.33 session, payload by payload, through the real binary.

mod common;

use common::*;
use serde_json::Value;

fn errors(env: &Env) -> Vec<Value> {
    env.session_json(DEMO_DIR, DEMO_SESSION)["openErrors"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn categories(env: &Env) -> Vec<String> {
    errors(env)
        .iter()
        .map(|e| e["category"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_tool_payload_of_the_recorded_session() {
    let env = Env::new();
    let events = fixture_tool_events();
    let call = |id: &str| {
        events
            .iter()
            .find(|e| e["input"]["callID"] == id)
            .unwrap_or_else(|| panic!("no {id} in the fixture"))
    };

    // npm run typecheck, exit 2 (metadata.exit): one typecheck error naming TS2345.
    env.tool_after(call("call_3"));
    assert_eq!(categories(&env), ["typecheck"]);
    let summary = errors(&env)[0]["summary"].as_str().unwrap().to_string();
    assert!(summary.contains("TS2345"), "{summary}");
    assert!(!summary.contains("npm notice"), "{summary}");

    // git log whose subjects say "errors", exit 0: nothing added, nothing cleared.
    env.tool_after(call("call_5"));
    assert_eq!(categories(&env), ["typecheck"]);

    // npm test, exit 1: one test error.
    env.tool_after(call("call_7"));
    assert_eq!(categories(&env), ["typecheck", "test"]);

    // read, edit, write, grep, glob.
    for id in ["call_9", "call_11", "call_13", "call_15", "call_17"] {
        env.tool_after(call(id));
    }
    let typecheck = errors(&env)
        .into_iter()
        .find(|e| e["category"] == "typecheck")
        .unwrap();
    assert_eq!(
        typecheck["status"], "maybe_fixed",
        "editing src/index.ts marks it"
    );

    // touch fixed && npm run typecheck, exit 0: the typecheck error goes, the test error stays.
    env.tool_after(call("call_19"));
    assert_eq!(categories(&env), ["test"]);

    // cat nonexistent.json, exit 1: nothing.
    env.tool_after(call("call_21"));
    assert_eq!(categories(&env), ["test"]);

    let state = env.session_json(DEMO_DIR, DEMO_SESSION);
    let files = active_files(&state["activeFiles"]);
    assert_eq!(
        files,
        [
            ("/home/dev/demo/src/index.ts", "edit", 3),
            ("/home/dev/demo/src/util.ts", "write", 2)
        ]
    );

    // The session's first render freezes the workspace block: it knows nothing yet but the
    // typecheck that passed.
    let rendered = env.render(DEMO_DIR, DEMO_SESSION);
    let test_error = errors(&env)[0]["summary"].as_str().unwrap().to_string();
    assert_eq!(
        rendered,
        format!(
            "Workspace memory (cross-session, verify if stale):\n\
             verified commands: typecheck `npm run typecheck`\n\
             \n\
             Hot session state (current session):\n\
             active_files:\n\
             - src/index.ts (edit, 3x)\n\
             - src/util.ts (write, 2x)\n\
             open_errors:\n\
             - [test] {test_error}\n"
        )
    );
    assert!(
        test_error.contains("adds numbers") || test_error.contains("ERR_ASSERTION"),
        "{test_error}"
    );
}

#[test]
fn replaying_the_fixture_twice_changes_nothing_the_second_time() {
    let env = Env::new();
    for event in fixture_tool_events() {
        env.tool_after(&event);
    }
    let file = env.session_file(DEMO_DIR, DEMO_SESSION);
    let before = std::fs::read(&file).unwrap();
    for event in fixture_tool_events() {
        let out = env.run_at(
            "2026-11-22T00:00:00Z",
            &["tool-after", "--json"],
            event.to_string(),
        );
        assert_success(&out);
        let line: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(line["written"], false, "{line}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn replay_command_shows_the_hot_state_after_the_turn() {
    let env = Env::new();
    // OCMEM_DATA_DIR names the user's real memory: a replay must not write there.
    let out = env
        .ocmem_without_data_dir()
        .env("OCMEM_DATA_DIR", &env.data)
        .args(["replay"])
        .arg(fixture_path())
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let after_turn = text.split("render after turn 1:\n").nth(1).expect(&text);
    assert!(
        after_turn.starts_with("Workspace memory (cross-session, verify if stale):\n"),
        "{text}"
    );
    assert!(
        after_turn.contains("- always run npm run typecheck before committing\n"),
        "{text}"
    );
    assert!(
        after_turn.contains("\n\nHot session state (current session):\n"),
        "{text}"
    );
    assert!(after_turn.contains("- [test] "), "{text}");
    assert!(!after_turn.contains("TS2345"), "{text}");
    assert!(after_turn.contains("- src/index.ts (edit, 3x)"), "{text}");
    assert!(text.contains("== end of log"), "{text}");
    // Nothing written outside its temporary data dir, and that one removed again.
    assert!(!env.data.exists());
    let leftovers: Vec<_> = std::fs::read_dir(env.tmp.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("ocmem-replay-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn replay_with_a_data_dir_keeps_the_stores() {
    let env = Env::new();
    let with_dir = env.replay_fixture();
    assert!(with_dir.status.success(), "{}", stderr(&with_dir));
    // The recorded session ends with its deletion: the session store goes, the workspace
    // memory stays.
    assert!(stdout(&with_dir).contains("deleted: its session file removed"));
    assert!(!env.session_file(DEMO_DIR, DEMO_SESSION).exists());
    let files = env.data_files();
    assert!(
        files.iter().any(|f| f.ends_with("/workspace-memory.json")),
        "{files:?}"
    );
    assert!(!files.iter().any(|f| f.contains("/sessions/")), "{files:?}");
}

#[test]
fn the_shipped_example_replays() {
    let env = Env::new();
    let example =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/opencode-session.jsonl");
    let out = env
        .ocmem_without_data_dir()
        .arg("replay")
        .arg(example)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("- [test] "), "{text}");
    assert!(text.contains("- src/util.ts (write, 2x)"), "{text}");
}

#[test]
fn replay_rejects_a_broken_log_with_its_line_number() {
    let env = Env::new();
    let log = env.tmp.path().join("bad.jsonl");
    std::fs::write(
        &log,
        "{\"k\":\"init\",\"v\":{\"directory\":\"/r\"}}\nnot json\n",
    )
    .unwrap();
    let out = env.ocmem().arg("replay").arg(&log).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("bad.jsonl:2"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
