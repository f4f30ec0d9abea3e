//! Context pressure through the real binary: `render` events carrying the token counts and
//! model limits of the recorded OpenCode session, as the plugin forwards them.

mod common;

use common::*;
use serde_json::{json, Value};

fn recorded() -> Vec<Value> {
    std::fs::read_to_string(fixture_path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The model's limits as `system.transform` recorded them.
fn recorded_limit() -> Value {
    recorded()
        .into_iter()
        .find(|h| h["k"] == "system.transform")
        .map(|h| h["v"]["input"]["model"]["limit"].clone())
        .unwrap()
}

/// The token counts of the recorded assistant message (not a compaction summary) whose total
/// is `total`.
fn recorded_tokens(total: u64) -> Value {
    recorded()
        .into_iter()
        .filter(|h| h["k"] == "event" && h["v"]["type"] == "message.updated")
        .map(|h| h["v"]["properties"]["info"].clone())
        .find(|info| info["summary"] != true && info["tokens"]["total"] == total)
        .map(|info| info["tokens"].clone())
        .unwrap_or_else(|| panic!("no message with {total} tokens in the fixture"))
}

/// The recorded shape of the overflowing message's counts, with `total` tokens of input and
/// output.
fn tokens_like_recorded(total: u64) -> Value {
    let mut tokens = recorded_tokens(100_005);
    let output = tokens["output"].as_u64().unwrap();
    tokens["total"] = json!(total);
    tokens["input"] = json!(total - output);
    tokens
}

fn render_with(env: &Env, session: &str, context: Option<Value>) -> String {
    let mut event = json!({"directory": DEMO_DIR, "sessionID": session});
    if let Some(context) = context {
        event["context"] = context;
    }
    let out = env.run(&["render"], event.to_string());
    assert_success(&out);
    stdout(&out)
}

fn at(env: &Env, session: &str, tokens: Value) -> String {
    render_with(
        env,
        session,
        Some(json!({"tokens": tokens, "limit": recorded_limit()})),
    )
}

/// The warning lines of a render.
fn warnings(rendered: &str) -> Vec<&str> {
    rendered
        .lines()
        .filter(|l| l.starts_with("context ") && l.contains(" % full ("))
        .collect()
}

fn promote(env: &Env, session: &str) {
    let event = json!({"directory": DEMO_DIR, "sessionID": session, "summary": ""});
    assert_success(&env.run(&["promote"], event.to_string()));
}

#[test]
fn the_recorded_overflow_warns_until_the_compaction() {
    let env = Env::new();
    assert_eq!(recorded_limit()["context"], 50_000);

    // The recorded 15-token messages: far below the first level.
    let small = at(&env, DEMO_SESSION, recorded_tokens(15));
    assert!(warnings(&small).is_empty(), "{small}");

    // The message that reached 100005 of 50000 tokens before the compaction.
    let over = at(&env, DEMO_SESSION, recorded_tokens(100_005));
    assert_eq!(
        warnings(&over),
        ["context 200 % full (100005 of 50000 tokens): compaction is near: write down what matters \
          (decisions, findings, next steps) and finish the current step before starting another"],
        "{over}"
    );
    assert!(
        over.starts_with("Hot session state (current session):\ncontext 200 % full"),
        "{over}"
    );
    let stored = &env.session_json(DEMO_DIR, DEMO_SESSION)["contextPressure"];
    assert_eq!(
        stored,
        &json!({"level": "critical", "percent": 200, "tokens": 100005, "limit": 50000})
    );

    // Fewer tokens, or none given: the same bytes.
    assert_eq!(at(&env, DEMO_SESSION, recorded_tokens(15)), over);
    assert_eq!(render_with(&env, DEMO_SESSION, None), over);

    // The compaction clears it; the next small counts show nothing.
    promote(&env, DEMO_SESSION);
    assert!(env.session_json(DEMO_DIR, DEMO_SESSION)["contextPressure"].is_null());
    let after = at(&env, DEMO_SESSION, recorded_tokens(15));
    assert!(warnings(&after).is_empty(), "{after}");
}

#[test]
fn the_warning_rises_from_75_to_90_once_and_stays_byte_identical() {
    let env = Env::new();
    let session = "ses_pressure_rises";
    let mut seen: Vec<String> = Vec::new();
    let mut render = |total: u64| {
        let out = at(&env, session, tokens_like_recorded(total));
        if seen.last() != Some(&out) {
            seen.push(out.clone());
        }
        out
    };

    // 74.998 %: nothing.
    let below = render(37_499);
    assert!(warnings(&below).is_empty(), "{below}");

    let high = render(37_500);
    assert_eq!(warnings(&high).len(), 1, "{high}");
    assert!(
        warnings(&high)[0].starts_with(
            "context 75 % full (37500 of 50000 tokens): prefer targeted reads and grep"
        ),
        "{high}"
    );
    // More tokens within the level, or fewer: the line built from the stored counts stands.
    assert_eq!(render(44_999), high);
    assert_eq!(render(30_000), high);

    let critical = render(45_000);
    assert_eq!(warnings(&critical).len(), 1, "{critical}");
    assert!(
        warnings(&critical)[0]
            .starts_with("context 90 % full (45000 of 50000 tokens): compaction is near"),
        "{critical}"
    );
    let file = env.session_file(DEMO_DIR, session);
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(render(49_999), critical);
    assert_eq!(render(100_005), critical);
    assert_eq!(render(37_500), critical);
    assert_eq!(std::fs::read(&file).unwrap(), bytes, "nothing rewritten");

    // None, high, critical: the block changed twice.
    assert_eq!(seen.len(), 3);

    // A compaction starts it over.
    promote(&env, session);
    let fresh = at(&env, session, tokens_like_recorded(30_000));
    assert!(warnings(&fresh).is_empty(), "{fresh}");
    let again = at(&env, session, tokens_like_recorded(38_000));
    assert!(
        warnings(&again)[0].starts_with("context 76 % full (38000 of 50000 tokens)"),
        "{again}"
    );
}

#[test]
fn the_input_limit_is_the_window_when_the_model_has_one() {
    let env = Env::new();
    let limit = json!({"context": 200000, "input": 50000, "output": 8000});
    let out = render_with(
        &env,
        "ses_input_limit",
        Some(json!({"tokens": tokens_like_recorded(40_000), "limit": limit})),
    );
    assert!(
        warnings(&out)[0].starts_with("context 80 % full (40000 of 50000 tokens)"),
        "{out}"
    );
}

#[test]
fn counts_that_are_not_numbers_raise_nothing() {
    let env = Env::new();
    let mut tokens = recorded_tokens(100_005);
    tokens["total"] = json!("100005 of 100");
    tokens["input"] = json!("99 %");
    let out = at(&env, "ses_text_counts", tokens);
    assert!(warnings(&out).is_empty(), "{out}");
    assert!(!out.contains("% full"), "{out}");
}

#[test]
fn a_context_that_is_not_an_object_is_bad_input() {
    let env = Env::new();
    let event = json!({"directory": DEMO_DIR, "sessionID": "ses_bad", "context": "full"});
    let out = env.run(&["render"], event.to_string());
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("context must be an object"), "{err}");
    assert!(env.data_files().is_empty(), "{:?}", env.data_files());
}

/// Replays the recorded session's first `lines` hooks into `env`'s data directory.
fn replay_first(env: &Env, lines: usize) {
    let text = std::fs::read_to_string(fixture_path()).unwrap();
    let head: Vec<&str> = text.lines().take(lines).collect();
    let file = env.tmp.path().join("head.jsonl");
    std::fs::write(&file, head.join("\n")).unwrap();
    let out = env
        .ocmem_without_data_dir()
        .args(["replay", "--data-dir"])
        .arg(&env.data)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn replay_sends_the_recorded_counts_as_the_plugin_does() {
    // Up to the compaction's own request, after the message that reached 100005 tokens.
    let env = Env::new();
    let lines = recorded();
    assert_eq!(lines[203]["k"], "system.transform");
    replay_first(&env, 204);
    let stored = &env.session_json(DEMO_DIR, DEMO_SESSION)["contextPressure"];
    assert_eq!(stored["level"], "critical", "{stored}");
    assert_eq!(stored["tokens"], 100_005);
    assert_eq!(stored["limit"], 50_000);

    // Just before it: every render so far carried 15 of 50000 tokens.
    let env = Env::new();
    replay_first(&env, 203);
    assert!(env.session_json(DEMO_DIR, DEMO_SESSION)["contextPressure"].is_null());

    // Through the compaction and the next render: cleared, and not raised again.
    let env = Env::new();
    assert_eq!(lines[214]["v"]["type"], "session.compacted");
    replay_first(&env, 222);
    assert!(env.session_json(DEMO_DIR, DEMO_SESSION)["contextPressure"].is_null());
}
