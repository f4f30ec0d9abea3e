//! `ocmem hook gemini` over the payloads recorded from the real Gemini CLI 0.61.0: what it
//! prints, what it records, a compression found in the transcript, and silence on failure.

mod common;

use std::path::PathBuf;

use common::hooks::{self, assert_resumed, context, Printed};
use common::*;
use serde_json::{json, Value};

/// The recorded Gemini CLI session's id.
const GEMINI_SESSION: &str = "ed86da91-db04-4fa2-8bb3-708611efb07c";

fn payloads() -> Vec<Value> {
    hooks::recording("gemini-cli-0.61.0/session-hooks.jsonl")
}

/// Runs the hook; Gemini CLI reads stderr as the output when stdout is empty, so there is none.
fn hook(env: &Env, payload: &Value) -> String {
    let out = env.run(&["hook", "gemini"], payload.to_string());
    assert_success(&out);
    assert_eq!(stderr(&out), "", "{payload}");
    stdout(&out)
}

#[test]
fn the_recorded_session_through_the_hook() {
    let env = Env::new();
    let mut printed = Printed::default();
    for payload in payloads() {
        let out = hook(&env, &payload);
        printed.push(&payload, out);
    }
    let output_of = |name: &str| printed.of(name);
    let starts = output_of("SessionStart");
    assert_eq!(starts[0], "", "a new workspace has nothing to show");
    let prompt = context(output_of("BeforeAgent")[0], "BeforeAgent");
    assert!(prompt.contains("always run npm run typecheck before committing"));
    for name in [
        "PreCompress",
        "BeforeTool",
        "AfterTool",
        "AfterAgent",
        "SessionEnd",
    ] {
        assert!(output_of(name).iter().all(|o| o.is_empty()), "{name}");
    }
    // The resumed session starts with memory and the hot state: the test failure stays, the
    // typecheck error is cleared, git log's "errors" opened nothing.
    assert_resumed(
        &context(starts[1], "SessionStart"),
        "not ok 1 - adds numbers",
    );
    // Nothing changed since the resumed start: the prompt adds nothing.
    assert_eq!(output_of("BeforeAgent")[1], "");
    let session = env.session_json(DEMO_DIR, GEMINI_SESSION);
    let categories: Vec<&str> = field_strs(&session["openErrors"], "category");
    assert!(categories.contains(&"test"), "{session}");
    assert!(!categories.contains(&"typecheck"), "{session}");
    let files: Vec<&str> = field_strs(&session["activeFiles"], "path");
    for file in ["/home/dev/demo/src/index.ts", "/home/dev/demo/src/util.ts"] {
        assert!(files.contains(&file), "{file} in {files:?}");
    }
    // Calls are applied under their derived keys, each its own.
    let mut keys: Vec<&str> = session["appliedCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(
        keys.len() > 5 && keys.iter().all(|k| k.starts_with("gemini-")),
        "{keys:?}"
    );
    let count = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), count);
}

#[test]
fn a_call_delivered_twice_is_applied_once() {
    let env = Env::new();
    let failing = payloads()
        .into_iter()
        .find(|p| p["hook_event_name"] == "AfterTool" && p["tool_input"]["command"] == "npm test")
        .unwrap();
    hook(&env, &failing);
    let once = env.session_json(DEMO_DIR, GEMINI_SESSION);
    hook(&env, &failing);
    assert_eq!(env.session_json(DEMO_DIR, GEMINI_SESSION), once);
    assert_eq!(once["appliedCalls"].as_array().unwrap().len(), 1);
}

fn event(env: &Env, name: &str, extra: Value) -> Value {
    let mut event = json!({
        "session_id": "s-1",
        "transcript_path": transcript(env),
        "cwd": DEMO_DIR,
        "hook_event_name": name,
        "timestamp": "2026-11-22T11:12:07.545Z",
    });
    event
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    event
}

fn transcript(env: &Env) -> PathBuf {
    env.tmp.path().join("session-s-1.jsonl")
}

fn shell(env: &Env, at: &str, command: &str, llm_content: &str) -> Value {
    event(
        env,
        "AfterTool",
        json!({"timestamp": at, "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "run"},
            "tool_response": {"llmContent": llm_content, "returnDisplay": ""}}),
    )
}

fn compressed(env: &Env, summary: &str) {
    use std::io::Write;
    // As Gemini CLI rewrites the history: the session's context, the summary, its answer.
    let record = json!({"$set": {"messages": [
        {"id": "c", "type": "user", "content": [{"text": "<session_context>\nThis is the Gemini CLI.\n</session_context>"}]},
        {"id": "a", "type": "user", "content": [{"text": summary}]},
        {"id": "b", "type": "gemini", "content": [{"text": "Got it. Thanks for the additional context!"}]}
    ]}});
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(transcript(env))
        .unwrap();
    writeln!(file, "{record}").unwrap();
}

#[test]
fn the_block_is_sent_again_after_a_compression_and_only_once() {
    let env = Env::new();
    let prompt = |at: &str| {
        event(
            &env,
            "BeforeAgent",
            json!({"timestamp": at, "prompt": "go on"}),
        )
    };
    std::fs::write(transcript(&env), "{\"sessionId\":\"s-1\"}\n").unwrap();
    assert_eq!(
        hook(
            &env,
            &event(&env, "SessionStart", json!({"source": "startup"}))
        ),
        ""
    );
    let tsc = "<untrusted_context>\nOutput: src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nExit Code: 2\nProcess Group PGID: 7\n</untrusted_context>";
    hook(
        &env,
        &shell(&env, "2026-11-22T11:12:09.000Z", "npx tsc --noEmit", tsc),
    );
    let shown = context(
        &hook(&env, &prompt("2026-11-22T11:12:10.000Z")),
        "BeforeAgent",
    );
    assert!(shown.contains("TS2345"), "{shown}");
    assert_eq!(
        hook(&env, &prompt("2026-11-22T11:12:11.000Z")),
        "",
        "unchanged"
    );
    // A PreCompress is no compression.
    hook(
        &env,
        &event(&env, "PreCompress", json!({"trigger": "auto"})),
    );
    assert_eq!(hook(&env, &prompt("2026-11-22T11:12:12.000Z")), "");
    // A compression: the next prompt gets the whole block again, once.
    compressed(
        &env,
        "<state_snapshot>\n<overall_goal>fix</overall_goal>\n</state_snapshot>",
    );
    let again = context(
        &hook(&env, &prompt("2026-11-22T11:12:13.000Z")),
        "BeforeAgent",
    );
    assert!(again.contains("TS2345"), "{again}");
    assert_eq!(hook(&env, &prompt("2026-11-22T11:12:14.000Z")), "");
    // A second compression is another one.
    compressed(
        &env,
        "<state_snapshot>\n<overall_goal>ship</overall_goal>\n</state_snapshot>",
    );
    assert!(context(
        &hook(&env, &prompt("2026-11-22T11:12:15.000Z")),
        "BeforeAgent"
    )
    .contains("TS2345"));
    // A resumed session's start covers the compressions it holds.
    hook(
        &env,
        &event(&env, "SessionStart", json!({"source": "resume"})),
    );
    assert_eq!(hook(&env, &prompt("2026-11-22T11:12:16.000Z")), "");
    // Fixed: the emptied hot state is shown, so the old error does not stand.
    let passed =
        "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 9\n</untrusted_context>";
    hook(
        &env,
        &shell(&env, "2026-11-22T11:12:17.000Z", "npx tsc --noEmit", passed),
    );
    let emptied = context(
        &hook(&env, &prompt("2026-11-22T11:12:18.000Z")),
        "BeforeAgent",
    );
    assert!(
        !emptied.contains("TS2345") && emptied.contains("empty"),
        "{emptied}"
    );
}

#[test]
fn a_failure_never_blocks_gemini_and_says_nothing_on_stderr() {
    let env = Env::new();
    let stdins = [
        "".to_string(),
        "{not json".to_string(),
        json!({"hook_event_name": "BeforeAgent", "cwd": "relative", "session_id": "s"}).to_string(),
        json!({"hook_event_name": "AfterTool", "cwd": DEMO_DIR}).to_string(),
    ];
    for (stdin, err) in hooks::feed_bad_input(&env, "gemini", stdins) {
        assert_eq!(err, "", "{stdin}");
    }
    // Nothing changed but the warnings log, which says why, under the host's name.
    let log = hooks::only_the_warnings_log(&env);
    hooks::assert_bad_input_logged(&log, "gemini", 4);
    // A data directory that cannot be used.
    std::fs::remove_dir_all(&env.data).unwrap();
    std::fs::write(&env.data, "a file").unwrap();
    let start = event(&env, "SessionStart", json!({"source": "startup"}));
    let out = env.run(&["hook", "gemini"], start.to_string());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), "");
}
