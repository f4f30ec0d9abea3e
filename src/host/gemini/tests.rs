use super::*;
use crate::domain::session::event::FileChange;
use crate::domain::session::state::FileAction;

const SESSION: &str = include_str!("../../../tests/fixtures/gemini-cli-0.61.0/session-hooks.jsonl");

fn payloads() -> Vec<Value> {
    SESSION
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The recorded `AfterTool` of the call whose input has `field` = `value`.
fn after_tool(field: &str, value: &str) -> Value {
    payloads()
        .into_iter()
        .find(|p| p["hook_event_name"] == "AfterTool" && p["tool_input"][field] == value)
        .unwrap_or_else(|| panic!("no AfterTool with {field} = {value}"))
}

fn decoded_call(event: &Value) -> (Derived, Value) {
    (Derived::of(event), event.clone())
}

#[test]
fn recorded_shell_calls_have_the_status_of_their_last_exit_code_line() {
    for (command, exit) in [
        ("npm run typecheck", Some(2)),
        ("git log --oneline -5", Some(0)),
        ("npm test", Some(1)),
        ("touch fixed && npm run typecheck", Some(0)),
        ("cat nonexistent.json", Some(1)),
        ("git status --short", Some(0)),
    ] {
        let (derived, event) = decoded_call(&after_tool("command", command));
        let HookEvent::AfterTool(call) = decode(&event, &derived).unwrap() else {
            panic!("not a tool call")
        };
        let shell = call.shell.expect("a shell run");
        assert_eq!((shell.command, shell.exit), (command, exit));
        assert!(
            !shell.output.contains("Process Group PGID"),
            "{}",
            shell.output
        );
        assert!(!shell.output.contains("Exit Code"), "{}", shell.output);
    }
    let (derived, event) = decoded_call(&after_tool("command", "npm run typecheck"));
    let HookEvent::AfterTool(call) = decode(&event, &derived).unwrap() else {
        panic!("not a tool call")
    };
    assert!(call.shell.unwrap().output.contains("error TS2345"));
}

#[test]
fn a_command_without_a_status_records_none() {
    for content in [
        "Command was cancelled by user before it could complete. There was no output before it was cancelled.",
        "Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output.",
        "Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.",
        "<untrusted_context>\nOutput: partial\nSignal: 9\nProcess Group PGID: 3\n</untrusted_context>",
        "<untrusted_context>\nOutput: (empty)\nError: spawn ENOENT\nProcess Group PGID: 3\n</untrusted_context>",
        "<untrusted_context>\nOutput: x\nExit Code: two\n</untrusted_context>",
        "",
    ] {
        assert_eq!(shell_run("c", content).exit, None, "{content}");
    }
}

#[test]
fn only_the_exit_code_after_the_output_counts() {
    let decoy = "<untrusted_context>\nOutput: Exit Code: 7 is what the log said\nline\nExit Code: 3\nSignal: (none)x\n</untrusted_context>";
    assert_eq!(shell_run("c", decoy).exit, None);
    let failing = "<untrusted_context>\nOutput: Exit Code: 7 in the text\nExit Code: 3\nBackground PIDs: 9\nProcess Group PGID: 8\n</untrusted_context>";
    let run = shell_run("c", failing);
    assert_eq!(run.exit, Some(3));
    assert_eq!(run.output, "Exit Code: 7 in the text");
    let empty = "<untrusted_context>\nOutput: (empty)\nExit Code: 127\nProcess Group PGID: 8\n</untrusted_context>";
    assert_eq!(shell_run("c", empty).exit, Some(127));
    assert_eq!(shell_run("c", empty).output, "");
    let errored =
        "<untrusted_context>\nOutput: boom\nError: exited\nExit Code: 2\n</untrusted_context>";
    assert_eq!(shell_run("c", errored).exit, Some(2));
    assert_eq!(shell_run("c", errored).output, "boom");
}

#[test]
fn recorded_file_tools_touch_their_files() {
    for (tool, path, action) in [
        ("read_file", "/home/dev/demo/src/index.ts", FileAction::Read),
        ("replace", "/home/dev/demo/src/index.ts", FileAction::Edit),
        (
            "write_file",
            "/home/dev/demo/src/util.ts",
            FileAction::Write,
        ),
    ] {
        let event = payloads()
            .into_iter()
            .find(|p| p["hook_event_name"] == "AfterTool" && p["tool_name"] == tool)
            .unwrap();
        let derived = Derived::of(&event);
        let HookEvent::AfterTool(call) = decode(&event, &derived).unwrap() else {
            panic!("not a tool call")
        };
        assert_eq!(call.files, [FileChange::Touched { path, action }], "{tool}");
    }
}

#[test]
fn searches_name_the_files_they_found_relative_to_cwd() {
    let grep = after_tool("pattern", "export");
    assert_eq!(Derived::of(&grep).found, ["src/index.ts", "src/util.ts"]);
    let glob = after_tool("pattern", "**/*.ts");
    assert_eq!(
        Derived::of(&glob).found,
        ["/home/dev/demo/src/util.ts", "/home/dev/demo/src/index.ts"]
    );
    let whole =
        "Found 1 match for pattern \"x\" in path \".\":\n---\nFile: src/a.ts\nL1: File: decoy\n---";
    assert_eq!(grep_files(whole, Some(".")), ["src/a.ts"]);
    let many: String = (0..30).map(|i| format!("File: f{i}.ts\n")).collect();
    assert_eq!(grep_files(&many, None).len(), SEARCH_FILES);
}

#[test]
fn a_failed_file_tool_touches_nothing() {
    let event = json!({"hook_event_name": "AfterTool", "session_id": "s", "cwd": "/r",
        "timestamp": "2026-11-22T11:12:18.842Z", "tool_name": "read_file",
        "tool_input": {"file_path": "/r/missing.ts"},
        "tool_response": {"llmContent": "File not found", "returnDisplay": "",
            "error": {"message": "File not found", "type": "file_not_found"}}});
    let derived = Derived::of(&event);
    let HookEvent::AfterTool(call) = decode(&event, &derived).unwrap() else {
        panic!("not a tool call")
    };
    assert!(!call.is_tracked() && call.files.is_empty());
}

#[test]
fn call_keys_tell_calls_apart_and_repeat_for_the_same_payload() {
    let calls: Vec<Value> = payloads()
        .into_iter()
        .filter(|p| p["hook_event_name"] == "AfterTool")
        .collect();
    let mut keys: Vec<String> = calls.iter().map(|c| Derived::of(c).call_key).collect();
    assert_eq!(keys[0], Derived::of(&calls[0]).call_key);
    // The same command at another time is another call.
    let mut again = calls[0].clone();
    again["timestamp"] = "2026-11-22T11:13:00.000Z".into();
    keys.push(Derived::of(&again).call_key);
    let count = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), count);
}

#[test]
fn events_decode_with_their_session() {
    let events = payloads();
    let derived: Vec<Derived> = events.iter().map(Derived::of).collect();
    let decoded: Vec<HookEvent> = events
        .iter()
        .zip(&derived)
        .map(|(e, d)| decode(e, d).unwrap())
        .collect();
    let HookEvent::BeforeAgent { prompt, .. } = &decoded[1] else {
        panic!("not BeforeAgent: {:?}", decoded[1])
    };
    assert_eq!(
        prompt.session.session_id,
        "ed86da91-db04-4fa2-8bb3-708611efb07c"
    );
    assert!(prompt.text.unwrap().contains("remember this:"));
    assert!(matches!(decoded[0], HookEvent::SessionStart(_)));
    assert!(matches!(
        decoded[2],
        HookEvent::Other {
            name: "PreCompress"
        }
    ));
    assert!(matches!(decoded[34], HookEvent::SessionEnd(_)));
    let relative = json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "demo"});
    assert!(decode(&relative, &Derived::default()).is_err());
}

#[test]
fn the_latest_compression_is_found_in_the_transcript() {
    let message =
        |kind: &str, text: &str| json!({"id": "m", "type": kind, "content": [{"text": text}]});
    let set = |summary: &str| {
        json!({"$set": {"messages": [
            message("user", "<session_context>\nThis is the Gemini CLI.\n</session_context>"),
            message("user", summary),
            message("gemini", "Got it. Thanks for the additional context!"),
        ]}})
    };
    let first = set("<state_snapshot>one</state_snapshot>").to_string();
    let second = set("<state_snapshot>two</state_snapshot>").to_string();
    let plain = json!({"id": "u", "type": "user", "content": [{"text": "<state_snapshot>x"}]});
    assert_eq!(latest_compression(&plain.to_string()), None);
    let one = latest_compression(&first).unwrap();
    let transcript = format!("{first}\n{plain}\n{second}\n");
    let two = latest_compression(&transcript).unwrap();
    assert_ne!(one, two);
    assert_eq!(
        latest_compression(&format!("{transcript}{plain}\n")),
        Some(two.clone())
    );
    // A later rewrite that keeps the summary first is the same compression.
    assert_eq!(
        latest_compression(&format!("{transcript}{second}\n")),
        Some(two)
    );
    assert_eq!(latest_compression(&set("no snapshot").to_string()), None);
    // The model saying the tag is no compression.
    let answered = json!({"$set": {"messages": [message("gemini", "<state_snapshot>x")]}});
    assert_eq!(latest_compression(&answered.to_string()), None);
}

#[test]
fn additional_context_is_hook_specific_output() {
    let out = additional_context("BeforeAgent", "<block>");
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["hookSpecificOutput"]["hookEventName"], "BeforeAgent");
    assert_eq!(value["hookSpecificOutput"]["additionalContext"], "<block>");
    assert_eq!(additional_context("BeforeAgent", ""), "");
}

#[test]
fn the_hooks_matcher_names_exactly_the_tools_that_record_something() {
    let names: Vec<&str> = TOOLS.iter().map(|(name, ..)| *name).collect();
    let matcher = regex::Regex::new(settings::RECORDED_TOOLS).unwrap();
    for name in &names {
        assert!(matcher.is_match(name), "{name}");
    }
    for other in [
        "list_directory",
        "web_fetch",
        "replace_all",
        "xglob",
        "save_memory",
    ] {
        assert!(!matcher.is_match(other), "{other}");
    }
}
