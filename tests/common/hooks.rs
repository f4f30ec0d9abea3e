//! Running `ocmem hook <host>` over the sessions recorded from the real hosts: the recordings,
//! the hook, and what it printed.

use std::path::Path;

use serde_json::{json, Value};

use super::{assert_success, stdout, Env, DEMO_DIR};

/// The lines of `tests/fixtures/<relative>`, a JSON-lines recording, parsed.
pub fn recording(relative: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(relative);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Runs `ocmem hook <host>` on `payload`, insisting on success with a quiet stderr, and returns
/// what it printed.
pub fn hook(env: &Env, host: &str, payload: &Value) -> String {
    let out = env.run(&["hook", host], payload.to_string());
    assert_success(&out);
    stdout(&out)
}

/// The additional context of a hook's JSON output, which must be for `event`.
pub fn context(printed: &str, event: &str) -> String {
    let value: Value =
        serde_json::from_str(printed).unwrap_or_else(|e| panic!("not JSON ({e}): {printed}"));
    assert_eq!(value["hookSpecificOutput"]["hookEventName"], event);
    value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A Claude Code hook payload of `event` in session `session` of the demo repository, with the
/// fields of `extra`.
pub fn claude_code_event(session: &str, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/dev/.claude/projects/-home-dev-demo/{session}.jsonl"),
        "cwd": DEMO_DIR,
        "hook_event_name": event,
    });
    payload
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    payload
}

/// What each hook of a session printed, with its event's name, in order.
#[derive(Default)]
pub struct Printed(Vec<(String, String)>);

impl Printed {
    /// Notes what the hook printed for `payload`.
    pub fn push(&mut self, payload: &Value, printed: String) {
        let event = payload["hook_event_name"].as_str().unwrap().to_string();
        self.0.push((event, printed));
    }

    /// What the hooks of `event` printed, in order.
    pub fn of(&self, event: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(name, _)| name == event)
            .map(|(_, printed)| printed.as_str())
            .collect()
    }
}

/// Sends `payloads` through `ocmem hook <host>`, one by one, and returns what each printed.
pub fn replay(env: &Env, host: &str, payloads: Vec<Value>) -> Printed {
    let mut printed = Printed::default();
    for payload in payloads {
        let out = hook(env, host, &payload);
        printed.push(&payload, out);
    }
    printed
}

/// Fails unless the context a resumed session of the recorded demo starts with holds the rule
/// to remember and the test's open error (`failure`), and neither the typecheck's error, which
/// the passing typecheck cleared, nor anything from git log's "errors".
pub fn assert_resumed(context: &str, failure: &str) {
    assert!(context.contains("always run npm run typecheck before committing"));
    assert!(context.contains(failure), "{context}");
    assert!(!context.contains("TS2345"), "{context}");
    assert!(!context.contains("memory load errors"), "{context}");
}
