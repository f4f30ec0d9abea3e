//! Hostile input costs bounded work: a message with thousands of "remember this" lines, ids of
//! a megabyte, a tool output of 20 MB. Work is judged by what was done and what came out, never
//! by the clock.

mod common;

use common::*;
use serde_json::{json, Value};

const SESSION: &str = "ses_1hostile000000000000000000a";

fn workspace_entries(env: &Env) -> Vec<Value> {
    let file = env
        .data_files()
        .into_iter()
        .find(|f| f.ends_with("workspace-memory.json"))
        .expect("a workspace memory file");
    let text = std::fs::read_to_string(env.data.join(file)).unwrap();
    let memory: Value = serde_json::from_str(&text).unwrap();
    memory["entries"].as_array().unwrap().clone()
}

#[test]
fn a_message_with_three_thousand_triggers_keeps_ten_and_says_how_many_more() {
    let env = Env::new();
    let prompt: String = (0..3000)
        .map(|i| format!("remember this: release step {i} needs a signed tag first\n"))
        .collect();
    let event = json!({"directory": DEMO_DIR, "sessionID": SESSION, "prompt": prompt, "messageID": "msg_1"});
    let out = env.run(&["render", "--json"], event.to_string());
    assert_success(&out);
    let line: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(line["memoriesOverLimit"], 2990, "{line}");

    let entries = workspace_entries(&env);
    let texts: Vec<&str> = entries
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    let first_ten: Vec<String> = (0..10)
        .map(|i| format!("release step {i} needs a signed tag first"))
        .collect();
    assert_eq!(texts, first_ten);

    // The block stays within its budget and tells of the rest; so does every later render of
    // the same message.
    let session = line["session"].as_str().unwrap();
    assert!(session.chars().count() <= 1200, "{session}");
    assert!(
        session.contains("- [not saved] 2990 more in the latest message"),
        "{session}"
    );
    let again = stdout(&env.run(&["render"], event.to_string()));
    assert!(again.contains("- [not saved] 2990 more"), "{again}");
    assert_eq!(workspace_entries(&env).len(), 10);

    // The next message, with nothing over the limit, clears the notice.
    let next = json!({"directory": DEMO_DIR, "sessionID": SESSION, "prompt": "thanks", "messageID": "msg_2"});
    let out = env.run(&["render", "--json"], next.to_string());
    assert_success(&out);
    let line: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(line.get("memoriesOverLimit").is_none(), "{line}");
    assert!(
        !line["session"].as_str().unwrap().contains("not saved"),
        "{line}"
    );
}

#[test]
fn a_message_repeating_one_memory_is_no_memory_over_the_limit() {
    let env = Env::new();
    let prompt = "remember this: run the linter before pushing\n".repeat(50);
    let event = json!({"directory": DEMO_DIR, "sessionID": SESSION, "prompt": prompt});
    let out = env.run(&["render", "--json"], event.to_string());
    assert_success(&out);
    let line: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(line.get("memoriesOverLimit").is_none(), "{line}");
    assert_eq!(workspace_entries(&env).len(), 1);
}

/// Runs `args` on `event` and insists on a one-line bad-input error and an untouched data dir.
fn assert_rejected(env: &Env, args: &[&str], event: &Value, field: &str) {
    let out = env.run(args, event.to_string());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 200, "{err}");
    assert!(
        err.starts_with(&format!("ocmem: bad input: {field} is 1048576 bytes long")),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
    assert_eq!(env.data_files(), Vec::<String>::new());
}

#[test]
fn ids_of_a_megabyte_are_bad_input_and_write_nothing() {
    let env = Env::new();
    let huge = format!("ses_{}", "x".repeat((1 << 20) - 4));
    let mut event = file_tool(DEMO_DIR, SESSION, "call_1", "read", "src/index.ts");
    event["input"]["callID"] = json!(huge);
    assert_rejected(&env, &["tool-after"], &event, "input.callID");
    let mut event = file_tool(DEMO_DIR, &huge, "call_1", "read", "src/index.ts");
    event["input"]["sessionID"] = json!(huge);
    assert_rejected(&env, &["tool-after"], &event, "input.sessionID");

    let render = json!({"directory": DEMO_DIR, "sessionID": huge, "prompt": "remember this: use pnpm everywhere"});
    assert_rejected(&env, &["render"], &render, "sessionID");
    let render = json!({"directory": DEMO_DIR, "sessionID": SESSION, "messageID": huge,
                        "prompt": "remember this: use pnpm everywhere"});
    assert_rejected(&env, &["render"], &render, "messageID");
    let compact = json!({"directory": DEMO_DIR, "sessionID": huge});
    assert_rejected(&env, &["compact"], &compact, "sessionID");
    assert_rejected(&env, &["promote"], &compact, "sessionID");
    assert_rejected(&env, &["gc"], &compact, "sessionID");

    // The recorded ids are well within the limit.
    for event in fixture_tool_events() {
        env.tool_after(&event);
    }
}

#[test]
fn a_twenty_megabyte_output_still_yields_the_error_at_its_end() {
    let env = Env::new();
    // npm echoing a child's log: every line a runner report, none of them the error itself,
    // which comes last, as in real tool output.
    let mut output = String::with_capacity(21 << 20);
    let mut i = 0;
    while output.len() < 20 << 20 {
        output.push_str(&format!("npm error   at step {i} of the build script\n"));
        i += 1;
    }
    output.push_str(
        "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n\
         npm error Lifecycle script `typecheck` failed with error:\n",
    );
    let event = bash(
        DEMO_DIR,
        SESSION,
        "call_1",
        "npm run typecheck",
        &output,
        json!(2),
    );
    let out = env.run(&["tool-after", "--json"], event.to_string());
    assert_success(&out);
    let line: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(line["errorsAdded"].as_array().unwrap().len(), 1, "{line}");

    let session = env.session_json(DEMO_DIR, SESSION);
    let errors = session["openErrors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["category"], "typecheck");
    assert_eq!(
        errors[0]["summary"],
        "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."
    );
    // What is stored stays small.
    let stored = std::fs::metadata(env.session_file(DEMO_DIR, SESSION))
        .unwrap()
        .len();
    assert!(stored < 4096, "{stored}");
}

#[test]
fn a_twenty_megabyte_grep_output_lists_its_first_files() {
    let env = Env::new();
    let mut output = String::from("Found 200000 matches\n/home/dev/demo/src/util.ts:\n");
    while output.len() < 20 << 20 {
        output.push_str("  Line 1: export const x = 1;\n");
    }
    output.push_str("\n/home/dev/demo/src/late.ts:\n  Line 1: export const y = 2;\n");
    let event = json!({
        "directory": DEMO_DIR,
        "input": {"tool": "grep", "sessionID": SESSION, "callID": "call_1",
                  "args": {"pattern": "export", "path": "/home/dev/demo/src"}},
        "output": {"title": "export", "metadata": {"matches": 200000, "truncated": false}, "output": output}
    });
    let out = env.run(&["tool-after", "--json"], event.to_string());
    assert_success(&out);
    let line: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        line["filesTouched"],
        json!(["/home/dev/demo/src/util.ts"]),
        "{line}"
    );
}

#[test]
fn an_event_of_megabytes_besides_its_strings_is_bad_input() {
    let env = Env::new();
    let mut event = file_tool(DEMO_DIR, SESSION, "call_1", "read", "src/index.ts");
    event["input"]["args"]["offsets"] = json!(vec![0; 5 << 20]);
    let out = env.run(&["tool-after"], event.to_string());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("ocmem: bad input: the event holds more than 8 MiB"),
        "{err}"
    );
    assert_eq!(env.data_files(), Vec::<String>::new());
}
