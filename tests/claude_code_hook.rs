//! `ocmem hook claude-code` over the payloads recorded from the real Claude Code 2.1.330, and
//! the same session seen through both hosts.

mod common;

use common::hooks::{self, assert_resumed, claude_code_event, context};
use common::*;
use ocmem::domain::session::event::{FileChange, ToolKind};
use ocmem::domain::session::state::FileAction;
use ocmem::host::claude_code::{decode, HookEvent};
use serde_json::{json, Value};

/// The recorded Claude Code session's id.
const CLAUDE_SESSION: &str = "517b598c-ce7c-4f2f-8c94-44e873fb11f8";

fn payloads(name: &str) -> Vec<Value> {
    hooks::recording(&format!("claude-code-2.1.330/{name}"))
}

fn hook(env: &Env, payload: &Value) -> String {
    hooks::hook(env, "claude-code", payload)
}

#[test]
fn every_recorded_event_decodes_to_what_it_is() {
    let events = payloads("session-hooks.jsonl");
    assert_eq!(events.len(), 25);
    let mut tool_uses = 0;
    for payload in &events {
        let name = payload["hook_event_name"].as_str().unwrap();
        let event = decode(payload).unwrap_or_else(|e| panic!("{name}: {e}"));
        match (name, &event) {
            ("SessionStart", HookEvent::SessionStart { session, source }) => {
                assert_eq!(session.session_id, CLAUDE_SESSION);
                assert_eq!(session.directory, DEMO_DIR);
                assert!(["startup", "resume", "compact"].contains(source));
            }
            ("UserPromptSubmit", HookEvent::UserPromptSubmit(prompt)) => {
                assert!(prompt.text.unwrap().contains("remember this:"));
                assert_eq!(
                    prompt.message_id,
                    Some("c9a7cca3-f0ce-49d0-86a6-9a0b2f21cbb7")
                );
            }
            ("PostToolUse" | "PostToolUseFailure", HookEvent::ToolUse(call)) => {
                tool_uses += 1;
                assert_eq!(call.call_id, payload["tool_use_id"]);
                let shell = call.shell.as_ref();
                match call.tool {
                    "Bash" => {
                        let exit = shell.unwrap().exit;
                        let expected = match name {
                            "PostToolUse" => Some(0),
                            _ => payload["error"].as_str().unwrap()[10..11].parse().ok(),
                        };
                        assert_eq!(exit, expected, "{payload}");
                        assert!(!shell.unwrap().output.starts_with("Exit code"));
                    }
                    "Read" | "Edit" | "Write" => {
                        let action = match call.tool {
                            "Read" => FileAction::Read,
                            "Edit" => FileAction::Edit,
                            _ => FileAction::Write,
                        };
                        let path = payload["tool_input"]["file_path"].as_str().unwrap();
                        assert_eq!(call.files, [FileChange::Touched { path, action }]);
                    }
                    other => panic!("unexpected tool {other}"),
                }
            }
            ("PreCompact", HookEvent::PreCompact(_)) => {}
            ("PostCompact", HookEvent::PostCompact(compaction)) => {
                assert!(compaction.summary.contains("<workspace_memory_candidates>"));
            }
            ("SessionEnd", HookEvent::SessionEnd(_)) => {}
            ("PreToolUse" | "Stop" | "SubagentStop", HookEvent::Other { name: other }) => {
                assert_eq!(*other, name)
            }
            _ => panic!("{name} decoded as {event:?}"),
        }
    }
    assert_eq!(tool_uses, 7);
}

#[test]
fn the_recorded_session_through_the_hook() {
    let env = Env::new();
    let printed = hooks::replay(&env, "claude-code", payloads("session-hooks.jsonl"));
    let output_of = |name: &str| printed.of(name);
    // A new workspace has nothing to show at startup.
    let starts = output_of("SessionStart");
    assert_eq!(starts[0], "");
    // The prompt's memory is stored and shown as pending.
    let prompt = context(output_of("UserPromptSubmit")[0], "UserPromptSubmit");
    assert!(prompt.contains("always run npm run typecheck before committing"));
    // Tool calls, sub-agents and the end print nothing.
    for name in [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
        "SessionEnd",
        "PostCompact",
    ] {
        assert!(output_of(name).iter().all(|o| o.is_empty()), "{name}");
    }
    // The resumed session starts with memory and the hot state: the test failure stays, the
    // typecheck error is cleared, git log's "errors" opened nothing.
    assert_resumed(
        &context(starts[1], "SessionStart"),
        "[test] not ok 1 - adds numbers",
    );
    // The compaction instructions are plain text, not JSON.
    let compact = output_of("PreCompact")[0];
    assert!(
        compact.starts_with("End your summary with a block"),
        "{compact}"
    );
    assert!(compact.contains("Memory candidates:"));
    // The compaction's candidate is filed; the session's state stays after SessionEnd.
    let memory = env.memory_json(DEMO_DIR);
    let texts: Vec<&str> = field_strs(&memory["entries"], "text");
    assert!(texts.contains(&"Use npm scripts for typecheck because the CI calls them directly"));
    let session = env.session_json(DEMO_DIR, CLAUDE_SESSION);
    assert_eq!(session["openErrors"].as_array().unwrap().len(), 1);
    assert_eq!(session["openErrors"][0]["category"], "test");
}

fn claude_event(name: &str, extra: Value) -> Value {
    claude_code_event("s-1", name, extra)
}

fn failing_bash(id: &str, command: &str, error: &str) -> Value {
    claude_event(
        "PostToolUseFailure",
        json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": id,
               "error": error, "is_interrupt": false}),
    )
}

#[test]
fn the_hot_state_is_shown_again_only_when_it_changed() {
    let env = Env::new();
    let prompt = |id: &str| {
        claude_event(
            "UserPromptSubmit",
            json!({"prompt_id": id, "prompt": "go on"}),
        )
    };
    assert_eq!(
        hook(
            &env,
            &claude_event("SessionStart", json!({"source": "startup"}))
        ),
        ""
    );
    assert_eq!(hook(&env, &prompt("p1")), "", "nothing to show yet");
    let tsc = "Exit code 2\nsrc/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.";
    hook(&env, &failing_bash("t1", "npx tsc --noEmit", tsc));
    let shown = context(&hook(&env, &prompt("p2")), "UserPromptSubmit");
    assert!(
        shown.contains("[typecheck] src/index.ts(10,3): error TS2345"),
        "{shown}"
    );
    assert_eq!(hook(&env, &prompt("p3")), "", "unchanged: not repeated");
    // A compaction replaces the context: the next start shows everything again.
    let restarted = hook(
        &env,
        &claude_event("SessionStart", json!({"source": "compact"})),
    );
    assert!(context(&restarted, "SessionStart").contains("TS2345"));
    assert_eq!(hook(&env, &prompt("p4")), "");
    // Fixed: the emptied state is shown, so the old error does not stand.
    let passed = claude_event(
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "npx tsc --noEmit"},
               "tool_use_id": "t2", "tool_response": {"stdout": "", "stderr": "", "interrupted": false}}),
    );
    hook(&env, &passed);
    let emptied = context(&hook(&env, &prompt("p5")), "UserPromptSubmit");
    assert!(
        !emptied.contains("TS2345") && emptied.contains("empty"),
        "{emptied}"
    );
    assert_eq!(hook(&env, &prompt("p6")), "");
}

#[test]
fn a_failure_never_blocks_claude_code() {
    let env = Env::new();
    let stdins = [
        "".to_string(),
        "{not json".to_string(),
        json!({"hook_event_name": "UserPromptSubmit", "cwd": "relative", "session_id": "s"})
            .to_string(),
        json!({"hook_event_name": "PostToolUse", "cwd": DEMO_DIR}).to_string(),
    ];
    for (stdin, err) in hooks::feed_bad_input(&env, "claude-code", stdins) {
        assert!(
            err.starts_with("ocmem: bad input") && err.lines().count() == 1,
            "{stdin}: {err}"
        );
    }
    // Nothing changed but the warnings log, which says why, under the host's name.
    let log = hooks::only_the_warnings_log(&env);
    hooks::assert_bad_input_logged(&log, "claude-code", 4);
    // A data directory that cannot be used.
    std::fs::remove_dir_all(&env.data).unwrap();
    std::fs::write(&env.data, "a file").unwrap();
    let start = claude_event("SessionStart", json!({"source": "startup"}));
    let out = env.run(&["hook", "claude-code"], start.to_string());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert!(!stderr(&out).is_empty());
    // Events ocmem has no use for.
    std::fs::remove_file(&env.data).unwrap();
    let notification = claude_event("Notification", json!({"message": "hi"}));
    assert_eq!(hook(&env, &notification), "");
    assert!(!env.data.exists());
}

/// The tool calls both recordings share: the same session driven by OpenCode 1.18.33 and
/// by Claude Code 2.1.330.
fn shared_calls() -> (Vec<Value>, Vec<Value>) {
    let opencode: Vec<Value> = fixture_tool_events()
        .into_iter()
        .filter(|e| {
            let command = e["input"]["args"]["command"].as_str().unwrap_or("");
            !["grep", "glob"].contains(&e["input"]["tool"].as_str().unwrap())
                && !command.starts_with("cat ")
        })
        .collect();
    let claude: Vec<Value> = payloads("session-hooks.jsonl")
        .into_iter()
        .filter(|p| {
            p["hook_event_name"]
                .as_str()
                .is_some_and(|n| n.starts_with("PostToolUse"))
        })
        .collect();
    (opencode, claude)
}

#[test]
fn both_hosts_give_the_same_hot_state_for_the_same_session() {
    let (opencode, claude) = shared_calls();
    assert_eq!(opencode.len(), claude.len());
    let tools = |events: &[Value], field: &str| -> Vec<String> {
        events
            .iter()
            .map(|e| {
                e.pointer(field)
                    .and_then(Value::as_str)
                    .unwrap()
                    .to_lowercase()
            })
            .collect()
    };
    assert_eq!(
        tools(&opencode, "/input/tool"),
        tools(&claude, "/tool_name"),
        "the recordings are of the same session"
    );
    let by_opencode = Env::new();
    for event in &opencode {
        by_opencode.tool_after(event);
    }
    let by_claude = Env::new();
    for payload in &claude {
        assert_eq!(hook(&by_claude, payload), "");
    }
    let a = by_opencode.session_json(DEMO_DIR, DEMO_SESSION);
    let b = by_claude.session_json(DEMO_DIR, CLAUDE_SESSION);
    let files = |s: &Value| -> Vec<(Value, Value, Value)> {
        s["activeFiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["path"].clone(), f["action"].clone(), f["count"].clone()))
            .collect()
    };
    let errors = |s: &Value| -> Vec<(Value, Value, Value, Value)> {
        s["openErrors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let keep = |k: &str| e[k].clone();
                (
                    keep("category"),
                    keep("summary"),
                    keep("command"),
                    keep("status"),
                )
            })
            .collect()
    };
    assert_eq!(files(&a), files(&b));
    assert_eq!(errors(&a), errors(&b));
    assert_eq!(errors(&a).len(), 1, "the failing test stays open");
    // And so what each shows.
    let opencode_block = by_opencode.render(DEMO_DIR, DEMO_SESSION);
    let start = json!({"hook_event_name": "SessionStart", "session_id": CLAUDE_SESSION,
                       "cwd": DEMO_DIR, "source": "resume"});
    let claude_block = context(&hook(&by_claude, &start), "SessionStart");
    assert_eq!(opencode_block.trim_end(), claude_block);
    assert!(claude_block.contains("open_errors:"));
}

#[test]
fn tool_kinds_of_claude_code_are_the_table_s() {
    use ocmem::host::claude_code::TOOLS;
    let kind = |name: &str| TOOLS.iter().find(|t| t.0 == name).map(|t| t.1);
    assert_eq!(kind("Bash"), Some(ToolKind::Shell));
    assert_eq!(kind("MultiEdit"), Some(ToolKind::Edit));
    assert_eq!(kind("NotebookEdit"), Some(ToolKind::Edit));
    assert_eq!(kind("Glob"), Some(ToolKind::Other));
    assert_eq!(kind("Task"), None);
}

#[test]
fn baseline_and_gc_cover_both_hosts_sessions() {
    let env = Env::new();
    for event in fixture_tool_events() {
        env.tool_after(&event);
    }
    for payload in payloads("session-hooks.jsonl") {
        hook(&env, &payload);
    }
    let out = env.run(&["baseline", "--json"], "");
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let totals = &report["totals"];
    assert_eq!(totals["sessions"]["count"], 2, "{totals}");
    assert_eq!(
        totals["errors"]["open"], 2,
        "one test failure in each: {totals}"
    );
    // Both sessions go idle together: a sweep past the TTL removes both, memory stays.
    let later = "2027-02-01T00:00:00Z";
    let out = env.run_at(later, &["gc", "--sweep", "--json"], "");
    assert_success(&out);
    assert!(!env.session_file(DEMO_DIR, DEMO_SESSION).exists());
    assert!(!env.session_file(DEMO_DIR, CLAUDE_SESSION).exists());
    let memory = env.memory_json(DEMO_DIR);
    assert!(memory["entries"].as_array().unwrap().len() >= 2);
}

/// Every tool's payload, recorded from the real binary (see the fixture's README).
#[test]
fn every_recorded_tool_decodes_to_the_files_and_commands_it_touched() {
    let events = payloads("tools.jsonl");
    let mut seen = Vec::new();
    for payload in &events {
        let name = payload["hook_event_name"].as_str().unwrap();
        let event = decode(payload).unwrap_or_else(|e| panic!("{name}: {e}"));
        let HookEvent::ToolUse(call) = event else {
            if let HookEvent::PostCompact(compaction) = event {
                // The summary section only, without the analysis before it.
                assert!(!compaction.summary.contains("<analysis>"));
                assert!(!compaction.summary.contains("</summary>"));
            }
            continue;
        };
        let input = &payload["tool_input"];
        let touched = |action| -> Vec<FileChange> {
            let path = input["file_path"]
                .as_str()
                .or(input["notebook_path"].as_str())
                .unwrap();
            vec![FileChange::Touched { path, action }]
        };
        match (call.tool, name) {
            ("Bash", "PostToolUse") => {
                let shell = call.shell.as_ref().unwrap();
                assert_eq!(
                    (shell.exit, shell.output.as_ref()),
                    (Some(0), "hello from bash")
                );
            }
            ("Bash", _) => {
                let shell = call.shell.as_ref().unwrap();
                assert_eq!(
                    (shell.exit, shell.output.as_ref()),
                    (Some(2), "partial output\nfatal: broken")
                );
            }
            ("Read", _) => assert_eq!(call.files, touched(FileAction::Read)),
            ("Edit" | "NotebookEdit", _) => assert_eq!(call.files, touched(FileAction::Edit)),
            ("Write", _) => assert_eq!(call.files, touched(FileAction::Write)),
            ("Grep", _) => {
                let files: Vec<&str> = call
                    .files
                    .iter()
                    .map(|f| match f {
                        FileChange::Touched { path, action } => {
                            assert_eq!(*action, FileAction::Grep);
                            *path
                        }
                        other => panic!("{other:?}"),
                    })
                    .collect();
                assert_eq!(
                    files,
                    ["src/extra.ts", "src/greet.ts", "src/main.ts"],
                    "{payload}"
                );
            }
            ("Glob", _) => assert!(!call.is_tracked()),
            (other, _) => panic!("unexpected tool {other}"),
        }
        seen.push(call.tool);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            "Bash",
            "Edit",
            "Glob",
            "Grep",
            "NotebookEdit",
            "Read",
            "Write"
        ]
    );
}

#[test]
fn the_recorded_tools_leave_the_files_they_worked_on_active() {
    let env = Env::new();
    for payload in payloads("tools.jsonl") {
        hook(&env, &payload);
    }
    let session_id = payloads("tools.jsonl")[0]["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    let session = env.session_json(DEMO_DIR, &session_id);
    let mut files: Vec<(String, String)> = session["activeFiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let path = f["path"].as_str().unwrap().trim_start_matches(DEMO_DIR);
            (path.to_string(), f["action"].as_str().unwrap().to_string())
        })
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            ("/notes.ipynb".into(), "edit".into()),
            ("/src/extra.ts".into(), "write".into()),
            ("/src/greet.ts".into(), "edit".into()),
            ("/src/main.ts".into(), "grep".into()),
        ]
    );
    // `exit 2` of an echo pipeline is no check of the code: nothing is open.
    assert!(session["openErrors"].as_array().unwrap().is_empty());
}
