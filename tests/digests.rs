//! Session digests from each host's recorded session, and `ocmem sessions` over them.

mod common;

use common::hooks::{self, hook};
use common::{assert_success, stdout, Env, DEMO_DIR};
use serde_json::Value;

fn payloads(fixture: &str) -> Vec<Value> {
    hooks::recording(&format!("{fixture}/session-hooks.jsonl"))
}

/// Sends a recorded session through `ocmem hook <host>`, event by event.
fn through_hook(env: &Env, host: &str, fixture: &str) -> Vec<Value> {
    let events = payloads(fixture);
    for payload in &events {
        hook(env, host, payload);
    }
    events
}

/// The prompts the recorded session's user typed, in order.
fn prompts(events: &[Value], field: &str, event: &str) -> Vec<String> {
    events
        .iter()
        .filter(|p| p["hook_event_name"] == event)
        .filter_map(|p| p[field].as_str().map(str::to_string))
        .collect()
}

fn digests_dir(env: &Env) -> std::path::PathBuf {
    env.workspace_dir(DEMO_DIR).join("digests")
}

/// `ocmem sessions --json` for the demo workspace.
fn sessions(env: &Env) -> Vec<Value> {
    let out = env.run(&["sessions", "--workspace", DEMO_DIR, "--json"], "");
    assert_success(&out);
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn ends_with_any(list: &[String], suffix: &str) -> bool {
    list.iter().any(|item| item.ends_with(suffix))
}

/// What every host's recorded session must leave: its requests, its edits, the memory the
/// user asked for, and nothing of the files it only read.
fn assert_common(digest: &Value, requests: &[String], host: &str) {
    assert_eq!(digest["host"], host);
    assert_eq!(digest["firstRequest"], requests[0].as_str());
    assert_eq!(digest["latestRequest"], requests.last().unwrap().as_str());
    let edited = strings(&digest["filesEdited"]);
    assert!(ends_with_any(&edited, "src/index.ts"), "{edited:?}");
    assert!(ends_with_any(&edited, "src/util.ts"), "{edited:?}");
    assert!(!ends_with_any(&edited, "nonexistent.json"), "{edited:?}");
    assert!(digest["endedBy"].is_string(), "{digest}");
    assert!(digest["title"]
        .as_str()
        .unwrap()
        .starts_with("please fix the typecheck"));
}

#[test]
fn a_claude_code_session_leaves_a_digest() {
    let env = Env::new();
    let events = through_hook(&env, "claude-code", "claude-code-2.1.330");
    let listed = sessions(&env);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let digest = &listed[0];
    assert_common(
        digest,
        &prompts(&events, "prompt", "UserPromptSubmit"),
        "claude-code",
    );
    // The typecheck failed, then passed: fixed, not open.
    let fixed = strings(&digest["fixedErrors"]);
    assert!(!fixed.is_empty(), "{digest}");
    assert!(strings(&digest["openErrors"])
        .iter()
        .all(|open| !fixed.contains(open)));
    // The memory the user asked for was pending until the compaction filed it.
    assert!(strings(&digest["memories"])
        .iter()
        .any(|m| m.contains("npm run typecheck before committing")));
    assert_eq!(digest["endedBy"], "end");
}

#[test]
fn a_codex_session_leaves_a_digest() {
    let env = Env::new();
    let events = through_hook(&env, "codex", "codex-cli-0.169.0");
    let listed = sessions(&env);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let requests = prompts(&events, "prompt", "UserPromptSubmit");
    assert_eq!(requests.last().unwrap(), "thanks");
    assert_common(&listed[0], &requests, "codex");
    assert_eq!(listed[0]["requests"], requests.len());
}

#[test]
fn a_gemini_session_leaves_a_digest() {
    let env = Env::new();
    let events = through_hook(&env, "gemini", "gemini-cli-0.61.0");
    let listed = sessions(&env);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let requests = prompts(&events, "prompt", "BeforeAgent");
    assert_common(&listed[0], &requests, "gemini");
}

#[test]
fn an_opencode_session_leaves_a_digest() {
    let env = Env::new();
    assert_success(&env.replay_fixture());
    let listed = sessions(&env);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let digest = &listed[0];
    assert_eq!(digest["host"], "opencode");
    assert!(!digest["firstRequest"].as_str().unwrap().is_empty());
    assert!(!strings(&digest["filesEdited"]).is_empty(), "{digest}");
}

#[test]
fn the_listing_names_each_session_once_the_latest_first() {
    let env = Env::new();
    through_hook(&env, "claude-code", "claude-code-2.1.330");
    let later = payloads("gemini-cli-0.61.0");
    for payload in &later {
        let out = env.run_at(
            "2026-11-22T09:00:00Z",
            &["hook", "gemini"],
            payload.to_string(),
        );
        assert_success(&out);
    }
    let out = env.run(&["sessions", "--workspace", DEMO_DIR], "");
    assert_success(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("2026-11-22 09:00  gemini"), "{text}");
    assert!(lines[1].contains("claude-code"), "{text}");
    assert!(lines[1].contains("please fix the typecheck"), "{text}");
}

#[test]
fn digests_are_swept_with_the_sessions() {
    let env = Env::new();
    through_hook(&env, "claude-code", "claude-code-2.1.330");
    assert!(digests_dir(&env).is_dir());
    let kept = env.run_at("2026-12-01T00:00:00Z", &["gc", "--sweep"], "");
    assert_success(&kept);
    assert_eq!(sessions(&env).len(), 1, "not idle yet");
    let swept = env.run_at("2027-02-01T00:00:00Z", &["gc", "--sweep", "--json"], "");
    assert_success(&swept);
    assert!(stdout(&swept).contains("idle-digest"), "{}", stdout(&swept));
    assert!(!digests_dir(&env).exists());
}

#[test]
fn a_workspace_without_digests_is_an_error_when_its_folder_is_gone() {
    let env = Env::new();
    let out = env.run(&["sessions", "--workspace", "/nonexistent/place"], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!env.data.exists(), "nothing written");
}

#[test]
fn passing_validations_are_kept() {
    let env = Env::new();
    through_hook(&env, "claude-code", "claude-code-2.1.330");
    let listed = sessions(&env);
    let validations = strings(&listed[0]["validations"]);
    assert!(
        validations.iter().any(|v| v.contains("npm run typecheck")),
        "{validations:?}"
    );
    assert!(
        !validations.iter().any(|v| v.contains("git log")),
        "not a validation"
    );
}

/// Renders an OpenCode message of a new session, the day after the recorded session.
fn render_next_day(env: &Env, session: &str, message_id: &str, prompt: &str) -> String {
    let event = serde_json::json!({
        "directory": DEMO_DIR,
        "sessionID": session,
        "messageID": message_id,
        "prompt": prompt,
    });
    let out = env.run_at("2026-11-22T09:00:00Z", &["render"], event.to_string());
    assert_success(&out);
    stdout(&out)
}

const RECOLLECTION_HEADER: &str =
    "Previous session (a recollection from its digest, possibly stale";

/// The recollection part of a rendered block, if any.
fn recollection(rendered: &str) -> Option<&str> {
    let at = rendered.find(RECOLLECTION_HEADER)?;
    Some(rendered[at..].trim_end())
}

#[test]
fn asking_where_we_were_recalls_the_previous_session_for_that_message_only() {
    let env = Env::new();
    let events = through_hook(&env, "claude-code", "claude-code-2.1.330");
    let previous = events[0]["session_id"].as_str().unwrap();

    let asked = render_next_day(&env, "ses_next", "msg_1", "hi! where were we?");
    let recalled = recollection(&asked).unwrap_or_else(|| panic!("{asked}"));
    assert!(recalled.chars().count() <= 1200, "{recalled}");
    assert!(recalled.contains(previous), "{recalled}");
    assert!(recalled.contains("please fix the typecheck"), "{recalled}");
    assert!(recalled.contains("left open"), "{recalled}");

    // The same message rendered again (OpenCode renders once per model call): the same bytes.
    assert_eq!(
        render_next_day(&env, "ses_next", "msg_1", "hi! where were we?"),
        asked
    );

    // The next message asks something else: gone, and the block is as it would be without.
    let next = render_next_day(&env, "ses_next", "msg_2", "now add a test for add()");
    assert!(recollection(&next).is_none(), "{next}");
    let fresh = Env::new();
    through_hook(&fresh, "claude-code", "claude-code-2.1.330");
    assert_eq!(
        render_next_day(&fresh, "ses_next", "msg_2", "now add a test for add()"),
        next
    );
}

#[test]
fn a_question_about_a_bug_fixed_last_time_recalls_nothing() {
    let env = Env::new();
    through_hook(&env, "claude-code", "claude-code-2.1.330");
    let decoy = "The bug we fixed last time is back in review, can you look?";
    let rendered = render_next_day(&env, "ses_next", "msg_1", decoy);
    assert!(recollection(&rendered).is_none(), "{rendered}");
}

#[test]
fn claude_code_shows_the_recollection_in_its_additional_context() {
    let env = Env::new();
    let events = through_hook(&env, "claude-code", "claude-code-2.1.330");
    let mut prompt = events
        .iter()
        .find(|p| p["hook_event_name"] == "UserPromptSubmit")
        .unwrap()
        .clone();
    prompt["session_id"] = "a-new-session".into();
    prompt["prompt"] = "what did we do last time?".into();
    let out = env.run_at(
        "2026-11-22T09:00:00Z",
        &["hook", "claude-code"],
        prompt.to_string(),
    );
    assert_success(&out);
    let printed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let context = printed["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains(RECOLLECTION_HEADER), "{context}");
    assert!(context.contains(events[0]["session_id"].as_str().unwrap()));
}

#[test]
fn an_idle_session_brings_its_digest_up_to_date() {
    let env = Env::new();
    let session = "ses_idle";
    render_next_day(&env, session, "msg_1", "rename add to sum");
    let edit = serde_json::json!({
        "directory": DEMO_DIR,
        "input": {"tool": "edit", "sessionID": session, "callID": "call_1",
                  "args": {"filePath": "/home/dev/demo/src/sum.ts"}},
        "output": {"title": "edit", "output": "", "metadata": {}},
    });
    env.tool_after(&edit);
    let before = sessions(&env);
    assert!(strings(&before[0]["filesEdited"]).is_empty(), "not yet");

    let idle = serde_json::json!({"directory": DEMO_DIR, "sessionID": session});
    assert_success(&env.run(&["idle"], idle.to_string()));
    let after = sessions(&env);
    assert_eq!(
        strings(&after[0]["filesEdited"]),
        ["/home/dev/demo/src/sum.ts"]
    );
    assert_eq!(after[0]["endedBy"], "idle");

    let bad = env.run(&["idle"], "{\"directory\": 3}");
    assert!(!bad.status.success());
    assert_eq!(sessions(&env), after, "nothing changed");
}
