//! Running `ocmem hook <host>` over the sessions recorded from the real hosts: the recordings,
//! the hook, and what it printed.

use std::path::Path;

use serde_json::{json, Value};

use super::{assert_success, stderr, stdout, Env, DEMO_DIR};

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

/// Runs `ocmem hook <host>` on each of `stdins`, all bad input: each must exit 0 and print
/// nothing on stdout. Returns each input with what it printed on stderr.
pub fn feed_bad_input<const N: usize>(
    env: &Env,
    host: &str,
    stdins: [String; N],
) -> [(String, String); N] {
    stdins.map(|stdin| {
        let out = env.run(&["hook", host], stdin.clone());
        assert_eq!(out.status.code(), Some(0), "{stdin}");
        assert_eq!(stdout(&out), "", "{stdin}");
        let err = stderr(&out);
        (stdin, err)
    })
}

/// The warnings log, which must be all there is in the data dir.
pub fn only_the_warnings_log(env: &Env) -> String {
    assert_eq!(env.data_files(), ["ocmem.log"]);
    std::fs::read_to_string(env.data.join("ocmem.log")).unwrap()
}

/// Fails unless the warnings log `log` holds `count` lines, each a warning about bad input
/// under `host`'s name.
pub fn assert_bad_input_logged(log: &str, host: &str, count: usize) {
    let logged: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged.len(), count);
    for line in &logged {
        assert_eq!(line["host"], host);
        assert!(
            line["text"].as_str().unwrap().starts_with("bad input"),
            "{line}"
        );
    }
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
