use serde_json::json;

use super::*;

const HOOKS: &str = include_str!("../../../tests/fixtures/codex-cli-0.169.0/session-hooks.jsonl");
const ROLLOUT: &str =
    include_str!("../../../tests/fixtures/codex-cli-0.169.0/rollout-excerpt.jsonl");

fn recorded() -> Vec<Value> {
    HOOKS
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn every_recorded_event_decodes() {
    let events = recorded();
    let mut names = Vec::new();
    for event in &events {
        let decoded = decode(event).unwrap();
        names.push(match decoded {
            HookEvent::SessionStart {
                source, transcript, ..
            } => {
                assert!(transcript.unwrap().ends_with(".jsonl"));
                format!("start:{source}")
            }
            HookEvent::UserPromptSubmit(prompt) => format!("prompt:{}", prompt.text.unwrap()),
            HookEvent::ToolUse { call, .. } => format!("tool:{}", call.tool),
            HookEvent::SessionEnd(session) => {
                assert_eq!(session.host, HostName::Codex);
                "end".to_string()
            }
            HookEvent::Other { name } => name.to_string(),
        });
    }
    assert_eq!(names.iter().filter(|n| n.starts_with("tool:")).count(), 9);
    assert_eq!(names.iter().filter(|n| *n == "PreToolUse").count(), 9);
    let starts: Vec<&String> = names.iter().filter(|n| n.starts_with("start:")).collect();
    assert_eq!(starts, ["start:startup", "start:resume", "start:compact"]);
    assert_eq!(names.iter().filter(|n| *n == "end").count(), 2);
    assert!(names.contains(&"PostCompact".to_string()));
    assert!(names.contains(&"prompt:thanks".to_string()));
}

/// The recorded PostToolUse calls with the exit status looked up as the hook does.
fn tool_calls(events: &[Value]) -> Vec<ToolCall<'_>> {
    events
        .iter()
        .filter_map(|event| match decode(event).unwrap() {
            HookEvent::ToolUse { mut call, .. } => {
                if let Some(run) = call.shell.as_mut() {
                    run.exit = command_exit(ROLLOUT, call.call_id);
                }
                Some(call)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn shell_calls_take_their_exit_status_from_the_rollout() {
    let events = recorded();
    let runs: Vec<(&str, Option<i64>)> = tool_calls(&events)
        .iter()
        .filter_map(|call| call.shell.as_ref().map(|run| (run.command, run.exit)))
        .collect();
    assert_eq!(
        runs,
        [
            ("npm run typecheck", Some(2)),
            ("git log --oneline -5", Some(0)),
            ("npm test", Some(1)),
            ("cat src/index.ts", Some(0)),
            ("rg -n export src", Some(0)),
            ("touch fixed && npm run typecheck", Some(0)),
            ("cat nonexistent.json", Some(1)),
        ]
    );
    let typecheck = &tool_calls(&events)[0];
    assert!(typecheck
        .shell
        .as_ref()
        .unwrap()
        .output
        .contains("error TS2345"));
}

#[test]
fn an_exit_status_is_unknown_without_its_own_completed_command() {
    assert_eq!(command_exit(ROLLOUT, "call_404"), None);
    // call_5 is a patch: a FileChange, not a command.
    assert_eq!(command_exit(ROLLOUT, "call_5"), None);
    // An id that is a prefix of another's, and a line that names it elsewhere.
    assert_eq!(command_exit(ROLLOUT, "call_"), None);
    let decoy = r#"{"type":"event_msg","payload":{"type":"item_started","item":{"type":"CommandExecution","id":"c1","exit_code":0}}}"#;
    let pending = r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c1","status":"declined"}}}"#;
    assert_eq!(command_exit(decoy, "c1"), None);
    assert_eq!(command_exit(&format!("{decoy}\n{pending}"), "c1"), None);
    assert_eq!(command_exit("not json c1 item_completed\n", "c1"), None);
    let done = r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c1","exit_code":127}}}"#;
    assert_eq!(command_exit(&format!("{done}\n{decoy}"), "c1"), Some(127));
}

#[test]
fn patches_name_their_files() {
    let events = recorded();
    let patches: Vec<Vec<FileChange>> = tool_calls(&events)
        .into_iter()
        .filter(|call| call.kind == ToolKind::Patch)
        .map(|call| call.files)
        .collect();
    assert_eq!(
        patches,
        [
            vec![FileChange::Touched {
                path: "src/index.ts",
                action: FileAction::Edit
            }],
            vec![FileChange::Touched {
                path: "src/util.ts",
                action: FileAction::Write
            }],
        ]
    );
    let patch = "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Delete File: c.ts\n*** Add File: d.ts\n+*** Update File: not-a-header.ts\n*** End Patch";
    assert_eq!(
        patch_files(patch),
        [
            FileChange::Moved {
                from: "a.ts",
                to: "b.ts"
            },
            FileChange::Deleted { path: "c.ts" },
            FileChange::Touched {
                path: "d.ts",
                action: FileAction::Write
            },
        ]
    );
}

#[test]
fn a_patch_that_did_not_apply_records_nothing() {
    let event = json!({"hook_event_name": "PostToolUse", "session_id": "s", "cwd": "/r",
        "tool_name": "apply_patch", "tool_use_id": "t",
        "tool_input": {"command": "*** Begin Patch\n*** Add File: a.ts\n+x\n*** End Patch"},
        "tool_response": "Exit code: 1\nWall time: 0 seconds\nOutput:\nverification failed"});
    let HookEvent::ToolUse { call, .. } = decode(&event).unwrap() else {
        panic!("not a tool use")
    };
    assert!(!call.is_tracked() && call.files.is_empty());
}

#[test]
fn the_compaction_summary_is_the_last_compacted_line() {
    let summary = compaction_summary(ROLLOUT).unwrap();
    assert!(summary.contains("<workspace_memory_candidates>"));
    assert!(summary.contains("[decision] Use npm scripts for typecheck"));
    let older = r#"{"type":"compacted","payload":{"message":"older"}}"#;
    let decoy = r#"{"type":"response_item","payload":{"text":"\"compacted\""}}"#;
    let newer = r#"{"type":"compacted","payload":{"message":"newer"}}"#;
    assert_eq!(
        compaction_summary(&format!("{older}\n{newer}\n{decoy}")).unwrap(),
        "newer"
    );
    assert_eq!(compaction_summary(decoy), None);
}

#[test]
fn bad_payloads_are_refused() {
    for event in [
        json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "relative"}),
        json!({"hook_event_name": "SessionStart", "cwd": "/r"}),
        json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "/r", "transcript_path": "x.jsonl"}),
        json!({"hook_event_name": "PostToolUse", "session_id": "s", "cwd": "/r", "tool_name": "Bash"}),
        json!({"session_id": "s", "cwd": "/r"}),
    ] {
        assert!(decode(&event).is_err(), "{event}");
    }
}

#[test]
fn additional_context_is_hook_specific_output() {
    let value: Value = serde_json::from_str(&additional_context("SessionStart", "<b>")).unwrap();
    assert_eq!(value["hookSpecificOutput"]["hookEventName"], "SessionStart");
    assert_eq!(value["hookSpecificOutput"]["additionalContext"], "<b>");
    assert_eq!(additional_context("UserPromptSubmit", ""), "");
}

#[test]
fn the_hooks_matcher_names_exactly_the_tools_that_record_something() {
    let names: Vec<&str> = TOOLS.iter().map(|(name, _)| *name).collect();
    assert_eq!(hooks_file::RECORDED_TOOLS, names.join("|"));
}
