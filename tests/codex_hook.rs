//! `ocmem hook codex` over the payloads and rollout lines recorded from the real Codex CLI
//! 0.169.0, with the rollout file growing as Codex writes it.

mod common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use common::hooks::{self, assert_resumed, context, Printed};
use common::*;
use serde_json::{json, Value};

/// The recorded Codex session's id.
const CODEX_SESSION: &str = "01a202f4-7994-7c40-9601-8a6c57f9ec54";

fn lines(name: &str) -> Vec<Value> {
    hooks::recording(&format!("codex-cli-0.169.0/{name}"))
}

/// The rollout line that Codex had written by the time `payload`'s hook ran, if any: a
/// command's or patch's completion before its PostToolUse, the summary before PostCompact.
fn written_before<'a>(payload: &Value, rollout: &'a [Value]) -> Option<&'a Value> {
    match payload["hook_event_name"].as_str().unwrap() {
        "PostToolUse" => rollout
            .iter()
            .find(|line| line["payload"]["item"]["id"] == payload["tool_use_id"]),
        "PostCompact" => rollout.iter().find(|line| line["type"] == "compacted"),
        _ => None,
    }
}

fn with_transcript(payload: &Value, transcript: &Path) -> Value {
    let mut payload = payload.clone();
    payload["transcript_path"] = transcript.display().to_string().into();
    payload
}

struct Replayed {
    env: Env,
    printed: Printed,
    _dir: tempfile::TempDir,
}

fn replay(rollout_written: bool) -> Replayed {
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let transcript: PathBuf = dir.path().join("rollout.jsonl");
    let rollout = lines("rollout-excerpt.jsonl");
    let mut printed = Printed::default();
    for payload in lines("session-hooks.jsonl") {
        if let Some(line) = written_before(&payload, &rollout).filter(|_| rollout_written) {
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&transcript)
                .unwrap();
            writeln!(file, "{line}").unwrap();
        }
        let out = hooks::hook(&env, "codex", &with_transcript(&payload, &transcript));
        printed.push(&payload, out);
    }
    Replayed {
        env,
        printed,
        _dir: dir,
    }
}

fn memory_texts(env: &Env) -> Vec<String> {
    env.memory_json(DEMO_DIR)["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_recorded_session_through_the_hook() {
    let Replayed { env, printed, .. } = replay(true);
    let output_of = |name: &str| printed.of(name);
    let starts = output_of("SessionStart");
    assert_eq!(starts.len(), 3);
    assert_eq!(starts[0], "", "a new workspace has nothing to show");
    let prompt = context(output_of("UserPromptSubmit")[0], "UserPromptSubmit");
    assert!(prompt.contains("always run npm run typecheck before committing"));
    for name in [
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
        "PreCompact",
        "PostCompact",
    ] {
        assert!(output_of(name).iter().all(|o| o.is_empty()), "{name}");
    }
    // Resumed after the compaction: memory, the failing test; not the fixed typecheck, nor
    // anything from git log's subject or the failing `cat`.
    assert_resumed(
        &context(starts[2], "SessionStart"),
        "not ok 1 - adds numbers",
    );
    // The compaction's good candidates are filed from the rollout's summary; the commit
    // subject and the raw error are not.
    let texts = memory_texts(&env);
    assert!(
        texts.contains(
            &"Use npm scripts for typecheck because the CI calls them directly".to_string()
        ),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("TypeScript demo with strict typecheck")),
        "{texts:?}"
    );
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("4832b38") || t.contains("something failed")),
        "{texts:?}"
    );
    let session = env.session_json(DEMO_DIR, CODEX_SESSION);
    let open = session["openErrors"].as_array().unwrap();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0]["category"], "test");
    // The patches' files are the session's.
    let text = session.to_string();
    assert!(
        text.contains("src/util.ts") && text.contains("src/index.ts"),
        "{text}"
    );
}

#[test]
fn without_the_rollout_no_status_is_known_and_nothing_is_opened_or_cleared() {
    let Replayed { env, .. } = replay(false);
    let session = env.session_json(DEMO_DIR, CODEX_SESSION);
    assert!(
        session["openErrors"]
            .as_array()
            .is_none_or(|errors| errors.is_empty()),
        "{session}"
    );
    // No summary either: only the prompt's memory.
    let texts = memory_texts(&env);
    assert!(
        !texts.iter().any(|t| t.contains("npm scripts")),
        "{texts:?}"
    );
}

#[test]
fn a_failure_never_blocks_codex() {
    let env = Env::new();
    let stdins = [
        "".to_string(),
        "{not json".to_string(),
        json!({"hook_event_name": "UserPromptSubmit", "cwd": "relative", "session_id": "s"})
            .to_string(),
        json!({"hook_event_name": "PostToolUse", "cwd": DEMO_DIR, "session_id": "s"}).to_string(),
    ];
    for (stdin, err) in hooks::feed_bad_input(&env, "codex", stdins) {
        assert!(
            err.starts_with("ocmem: bad input") && err.lines().count() == 1,
            "{stdin}: {err}"
        );
    }
    // Nothing changed but the warnings log, which says why, under the host's name.
    let log = hooks::only_the_warnings_log(&env);
    assert_eq!(log.lines().count(), 4);
    assert!(
        log.lines().all(|l| l.contains("\"host\":\"codex\"")),
        "{log}"
    );
}
