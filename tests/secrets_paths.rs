//! Secrets through the binary: on every path by which text reaches a store or the output
//! (explicit memories and their pending and recent-decision copies, compaction candidates and
//! promote's report, hand-written entries, commands and error summaries, replayed prompts),
//! a real-looking credential lands neither on disk nor on stdout.

mod common;

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/secrets";

// Made up in each vendor's format (see tests/fixtures/secrets/generate.py); none is real.
const SENDGRID: &str = "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";
const VAULT: &str = "hvs.CAESIa1Pq7Rk2LmZ0vTx9Wb3Yc5Nd8Fg4Hj6Kl0Mn2Qp7Rs1Tu3Vw5Xy9Za4Bc6De8Fg0Hi2Jk4Lm6No8Pq0Rs2Tu4Vw6Xy8Za0Bc";
const TELEGRAM: &str = "7412589630:AAGk2Lm9Qx4Rt7Vb1Zc8Nd3Fh6Jp0Ws5Ye2";
const AGE: &str = "AGE-SECRET-KEY-1NJVDUCX0Z4RJ8CDGGH6X5799SD98QTSDLYVWFCSRY9W0XUPJ67TWKE9ZZ5";
const DISCORD_WEBHOOK: &str = "1187654321098765432/Kq3Wz8Rt1Yu6Io2Pa5Sd9Fg4Hj7Kl0Zx3Cv8Bn1Mq6Wr2Et5Ty9Ui4Op7As0Df3Gh6Jk1Lz8Xc";
const ATLASSIAN: &str = "ATATT32_VxKc1qEvgugMoawizCfRtAXxpZr8boy6i7usSmC58YVAlvqCykM-A-vANJs6rFOQ0StS0e8Anf4fR0eBJtwgr-wCkYHDa8JIul9uwmBelQeIaIPheVnIfkVAqsudaHJKsq2xvJvscAR8oUc8e-8j0Byf7_FCOTuKwWAYYTMu6ngPuLw=A116F7C4";
/// A value that only starts like an environment reference.
const DOLLAR_PASSWORD: &str = "$ecretP4ss";
/// An existing format, placed where a line is cut to length.
const GITHUB: &str = "ghp_q8Ry2LmZ0vTxK4Wn7Yb3CdE5fG9hJ1kLmN0p";

/// Stretches of `secret` long enough to identify it: its part after any public prefix, in
/// windows of 10 characters, so that a cut-off piece of it counts as a leak too.
fn pieces(secret: &str) -> Vec<&str> {
    let start = secret.len().saturating_sub(secret.len() * 3 / 4);
    let body = &secret[start..];
    (0..=body.len().saturating_sub(10))
        .step_by(5)
        .map(|at| &body[at..(at + 10).min(body.len())])
        .collect()
}

#[track_caller]
fn assert_absent(secrets: &[&str], text: &str, place: &str) {
    for secret in secrets {
        for piece in pieces(secret) {
            assert!(
                !text.contains(piece),
                "{piece:?} of {secret:?} is in {place}:\n{text}"
            );
        }
    }
}

/// No file under the data dir holds any piece of `secrets`.
#[track_caller]
fn assert_not_stored(env: &Env, secrets: &[&str]) {
    let files = env.data_files();
    assert!(!files.is_empty(), "nothing was stored");
    for file in files {
        let text =
            String::from_utf8_lossy(&std::fs::read(env.data.join(&file)).unwrap()).into_owned();
        assert_absent(secrets, &text, &file);
    }
}

fn memory_file(env: &Env) -> std::path::PathBuf {
    env.memory_file(DIR)
}

fn memory(env: &Env) -> Value {
    env.memory_json(DIR)
}

fn run_ok(env: &Env, args: &[&str], event: Value) -> String {
    let out = env.run(args, event.to_string());
    assert_success(&out);
    stdout(&out)
}

fn render(env: &Env, session: &str, prompt: Option<&str>, message: &str) -> String {
    let mut event = json!({"directory": DIR, "sessionID": session, "messageID": message});
    if let Some(prompt) = prompt {
        event["prompt"] = json!(prompt);
    }
    run_ok(env, &["render"], event)
}

#[test]
fn explicit_memories_pending_memories_and_recent_decisions_hold_no_secret() {
    let env = Env::new();
    let secrets = [SENDGRID, VAULT, TELEGRAM, AGE, DOLLAR_PASSWORD];
    let prompt = format!(
        "remember this: mail goes out through SendGrid with {SENDGRID}, vault token {VAULT}\n\
         remember this: we decided the alert bot uses {TELEGRAM} and backups use {AGE}\n\
         remember this: the staging database takes password={DOLLAR_PASSWORD}"
    );
    let mut shown = render(&env, "s1", Some(&prompt), "m1");
    shown.push_str(&run_ok(
        &env,
        &["render", "--json"],
        json!({"directory": DIR, "sessionID": "s1"}),
    ));
    shown.push_str(&render(&env, "s2", None, "m2"));

    let session = env.session_json(DIR, "s1");
    let pending = session["pendingMemories"].as_array().unwrap();
    assert_eq!(pending.len(), 3, "{session}");
    assert_eq!(session["recentDecisions"].as_array().unwrap().len(), 1);
    assert!(shown.contains("[REDACTED:sendgrid]"), "{shown}");
    assert!(shown.contains("[REDACTED:telegram]"), "{shown}");
    assert!(shown.contains("[REDACTED:password]"), "{shown}");
    assert_absent(&secrets, &shown, "stdout");
    assert_not_stored(&env, &secrets);
}

#[test]
fn compaction_candidates_and_promote_report_hold_no_secret() {
    let env = Env::new();
    let secrets = [
        SENDGRID,
        VAULT,
        DISCORD_WEBHOOK,
        ATLASSIAN,
        TELEGRAM,
        GITHUB,
    ];
    // The GitHub token straddles the length a candidate is cut to, where it has no space.
    let steps = "pre-release-check-".repeat(12);
    let summary = format!(
        "Work went fine.\n\nMemory candidates:\n\
         - [reference] Build alerts post to https://discord.com/api/webhooks/{DISCORD_WEBHOOK}\n\
         - [decision] Mail is sent through SendGrid Why: the key {SENDGRID} was already paid for\n\
         - [project] Release automation {steps}{GITHUB} runs before every release\n\
         - [project] Jira automation authenticates with {ATLASSIAN} for every release\n\
         - [reference] Vault answers to {VAULT} in staging\n\
         - [sometimes] the bot token is {TELEGRAM}\n\
         - [project] Tests still failing because the key {SENDGRID} expired\n"
    );
    let report = run_ok(
        &env,
        &["promote", "--json"],
        json!({"directory": DIR, "sessionID": "s1", "summary": summary}),
    );
    let parsed: Value = serde_json::from_str(&report).unwrap();
    // A line holding a secret is refused, not stored redacted: a redacted fact is no fact.
    assert_eq!(parsed["accepted"].as_array().unwrap().len(), 0, "{report}");
    let rejected = parsed["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 7, "{report}");
    let secret = rejected.iter().filter(|r| r["rule"] == "secret").count();
    assert_eq!(secret, 6, "{report}");
    assert!(report.contains("[REDACTED:discord]"), "{report}");
    assert_absent(&secrets, &report, "promote --json");
    assert!(!memory_file(&env).exists(), "nothing was stored");
    let shown = render(&env, "s2", None, "m1");
    assert_absent(&secrets, &shown, "render");
    assert_not_stored(&env, &secrets);
}

#[test]
fn hand_written_entries_and_session_values_are_scrubbed_when_shown() {
    let env = Env::new();
    render(
        &env,
        "s1",
        Some("remember this: use pnpm for all packages"),
        "m1",
    );
    let file = memory_file(&env);
    let mut store = memory(&env);
    let mut manual = store["entries"][0].clone();
    manual["id"] = json!("mem_1_manual");
    manual["source"] = json!("manual");
    manual["type"] = json!("reference");
    manual["text"] = json!(format!(
        "Deploy bot token {TELEGRAM} and mail key {SENDGRID}"
    ));
    manual["rationale"] = json!(format!("vault login {VAULT}"));
    store["entries"].as_array_mut().unwrap().push(manual);
    std::fs::write(&file, serde_json::to_string_pretty(&store).unwrap()).unwrap();
    // Values an older tool could have left in a session store.
    let session_path = env.session_file(DIR, "s2");
    std::fs::create_dir_all(session_path.parent().unwrap()).unwrap();
    let session = json!({
        "version": 1, "sessionID": "s2", "turn": 1,
        "recentDecisions": [{"id": "dec_1", "text": format!("Rotate {AGE} monthly"),
                             "rationale": format!("the old key {ATLASSIAN} leaked")}],
        "pendingMemories": [{"id": "mem_2", "type": "project",
                             "text": format!("Backups are encrypted to {AGE}")}]
    });
    std::fs::write(&session_path, session.to_string()).unwrap();

    let secrets = [TELEGRAM, SENDGRID, VAULT, AGE, ATLASSIAN];
    let mut shown = render(&env, "s2", None, "m2");
    assert!(shown.contains("[REDACTED:telegram]"), "{shown}");
    assert!(shown.contains("[REDACTED:age]"), "{shown}");
    shown.push_str(&run_ok(
        &env,
        &["compact"],
        json!({"directory": DIR, "sessionID": "s2"}),
    ));
    assert_absent(&secrets, &shown, "stdout");
    // What ocmem wrote itself (the frozen block) holds none of them.
    let frozen = env.session_json(DIR, "s2")["frozenWorkspaceBlock"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(frozen.contains("[REDACTED:vault]"), "{frozen}");
    assert_absent(&secrets, &frozen, "the frozen block");
}

#[test]
fn commands_and_error_summaries_hold_no_secret() {
    let env = Env::new();
    // A first error line longer than a summary, cut inside the token where it has no space.
    let long_line = format!("Error: upload/{}/{GITHUB}/rejected", "segment".repeat(34));
    let command = format!(
        "SENDGRID_API_KEY={SENDGRID} VAULT_TOKEN={VAULT} DB_PASSWORD='{DOLLAR_PASSWORD}' node scripts/notify.js"
    );
    let out = env.run(
        &["tool-after", "--json"],
        bash(DIR, "s1", "c1", &command, &long_line, json!(1)).to_string(),
    );
    assert_success(&out);
    let mut shown = stdout(&out);
    let output = format!(
        "Error: Unauthorized: token {TELEGRAM} was revoked\n\
         Error: webhook https://discordapp.com/api/webhooks/{DISCORD_WEBHOOK} returned 401\n"
    );
    env.tool_after(&bash(
        DIR,
        "s1",
        "c2",
        "node scripts/alert.js",
        &output,
        json!(1),
    ));

    let session = env.session_json(DIR, "s1");
    let errors = session["openErrors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{session}");
    assert!(errors[0]["command"]
        .as_str()
        .unwrap()
        .contains("[REDACTED:sendgrid]"));
    shown.push_str(&render(&env, "s1", None, "m1"));
    assert!(shown.contains("[REDACTED:telegram]"), "{shown}");
    let secrets = [
        SENDGRID,
        VAULT,
        DOLLAR_PASSWORD,
        GITHUB,
        TELEGRAM,
        DISCORD_WEBHOOK,
    ];
    assert_absent(&secrets, &shown, "stdout");
    assert_not_stored(&env, &secrets);
}

#[test]
fn replay_shows_no_secret_of_the_prompts_it_replays() {
    let env = Env::new();
    let log = env.tmp.path().join("hooks.jsonl");
    let prompt = format!("deploy with {SENDGRID} and {TELEGRAM} please");
    let hooks = [
        json!({"k": "init", "v": {"directory": DIR}}),
        json!({"k": "chat.message", "v": {
            "input": {"sessionID": "s1"},
            "output": {"message": {"id": "m1", "role": "user"},
                       "parts": [{"type": "text", "text": prompt}]}}}),
        json!({"k": "system.transform", "v": {"input": {"sessionID": "s1"}}}),
    ];
    let lines: Vec<String> = hooks.iter().map(Value::to_string).collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let out = env.ocmem().arg("replay").arg(&log).output().unwrap();
    assert_success(&out);
    let shown = stdout(&out);
    assert!(
        shown.contains("== turn 1 of session s1: deploy with [REDACTED:sendgrid]"),
        "{shown}"
    );
    assert_absent(&[SENDGRID, TELEGRAM], &shown, "replay");
}
