//! `ocmem tool-after --prune`: long outputs cut down for the model, their whole text saved
//! (scrubbed) under the data directory, and swept with their session or by age.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use common::*;
use ocmem::domain::shell::extract::is_error_line;
use serde_json::{json, Value};

/// `NOW` as Unix milliseconds.
const NOW_MS: i64 = 1_795_276_800_000;
const DAY_MS: i64 = 86_400_000;
const SECRET: &str = "ghp_R4nd0mT0k3nF0rT3st1ngPurp0s3s00000";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/prune")
        .join(name);
    fs::read_to_string(path).unwrap()
}

fn outputs_root(root: &str) -> PathBuf {
    Path::new("workspaces")
        .join(&sha256_hex(root)[..16])
        .join("outputs")
}

fn output_path(env: &Env, session: &str, call: &str) -> PathBuf {
    env.data
        .join(outputs_root(DEMO_DIR))
        .join(&sha256_hex(session)[..32])
        .join(format!("{call}.txt"))
}

fn tool_event(tool: &str, session: &str, call: &str, output: &str) -> Value {
    json!({
        "directory": DEMO_DIR,
        "input": {"tool": tool, "sessionID": session, "callID": call, "args": {"pattern": "**/*"}},
        "output": {"title": "", "output": output, "metadata": {}}
    })
}

fn prune(env: &Env, event: &Value) -> String {
    let out = env.run(&["tool-after", "--prune"], event.to_string());
    assert_success(&out);
    stdout(&out)
}

/// The pruned test log of a failing `cargo test`, with a token printed in the middle.
fn failing_test_log() -> String {
    let log = fixture("cargo-test-failing.txt");
    let lines: Vec<&str> = log.lines().collect();
    let middle = lines.len() / 2;
    let secret_line = format!("export GITHUB_TOKEN={SECRET}");
    let mut with_secret: Vec<&str> = lines[..middle].to_vec();
    with_secret.push(&secret_line);
    with_secret.extend(&lines[middle..]);
    with_secret.join("\n") + "\n"
}

#[test]
fn a_long_output_is_cut_keeping_every_error_line_and_saved_whole_and_scrubbed() {
    let env = Env::new();
    let output = failing_test_log();
    let event = bash(
        DEMO_DIR,
        "ses_p",
        "call_1",
        "cargo test",
        &output,
        json!(101),
    );
    let pruned = prune(&env, &event);

    assert!(pruned.len() * 2 < output.len(), "{pruned}");
    for line in output.lines().filter(|l| is_error_line(l)) {
        assert!(pruned.contains(line), "lost {line:?}");
    }
    let saved = output_path(&env, "ses_p", "call_1");
    let last = pruned.lines().last().unwrap();
    assert!(last.starts_with("[ocmem: "), "{last}");
    assert!(last.contains(&saved.display().to_string()), "{last}");
    assert!(
        last.contains(&format!("{} lines", output.lines().count())),
        "{last}"
    );
    assert!(last.contains("offset") && last.contains("grep"), "{last}");
    assert_eq!(
        pruned
            .lines()
            .filter(|l| l.contains(" is saved at "))
            .count(),
        1
    );

    let whole = fs::read_to_string(&saved).unwrap();
    assert!(!whole.contains(SECRET), "a secret was saved");
    assert!(whole.contains("export GITHUB_TOKEN="));
    assert_eq!(whole.lines().count(), output.lines().count());
    let without_secret = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.contains("GITHUB_TOKEN"))
            .map(String::from)
            .collect()
    };
    assert_eq!(without_secret(&whole), without_secret(&output));
    // Recording saw the whole output first.
    let state = env.session_json(DEMO_DIR, "ses_p");
    assert!(
        !state["openErrors"].as_array().unwrap().is_empty(),
        "{state}"
    );
}

#[test]
fn a_listing_is_summarized_and_a_host_call_id_stays_inside_the_outputs_folder() {
    let env = Env::new();
    let listing = fixture("find-listing.txt");
    let pruned = prune(&env, &tool_event("glob", "ses_g", "../../escape", &listing));
    assert!(pruned.contains("by folder"), "{pruned}");
    let files = env.data_files();
    let saved: Vec<&String> = files.iter().filter(|f| f.ends_with(".txt")).collect();
    assert_eq!(saved.len(), 1, "{files:?}");
    let inside = outputs_root(DEMO_DIR).join(&sha256_hex("ses_g")[..32]);
    assert!(Path::new(saved[0]).starts_with(&inside), "{saved:?}");
    assert_eq!(
        fs::read_to_string(env.data.join(saved[0])).unwrap(),
        listing
    );
}

#[test]
fn limits_halve_when_the_session_context_is_under_pressure() {
    let env = Env::new();
    // 150 lines: within the usual limit of 200, past the halved one.
    // Lines that differ in more than numbers, so that no run of them collapses.
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    ];
    let output: String = (0..150)
        .map(|i| format!("{} {i}\n", words[i % words.len()]))
        .collect();
    let call = |id: &str| bash(DEMO_DIR, "ses_h", id, "make assets", &output, json!(0));
    assert_eq!(prune(&env, &call("call_1")), "");
    assert!(!env.data.join(outputs_root(DEMO_DIR)).exists());

    let path = env.session_file(DEMO_DIR, "ses_h");
    let mut state = env.session_json(DEMO_DIR, "ses_h");
    state["contextPressure"] =
        json!({"level": "high", "percent": 80, "tokens": 40000, "limit": 50000});
    fs::write(&path, state.to_string()).unwrap();
    let pruned = prune(&env, &call("call_2"));
    assert!(pruned.starts_with("alpha 0\n"), "{pruned}");
    assert!(pruned.contains("\ngolf 146\n"), "{pruned}");
    assert!(pruned.contains("[ocmem: 100 lines omitted]"), "{pruned}");
    assert!(!pruned.contains("\nalpha 70\n"), "{pruned}");
    assert!(output_path(&env, "ses_h", "call_2").is_file());
}

#[test]
fn short_outputs_read_outputs_and_prune_off_are_left_whole() {
    let env = Env::new();
    let long = failing_test_log();
    let short = "test result: FAILED. 1 passed; 1 failed\nerror: test failed\n";
    assert_eq!(
        prune(
            &env,
            &bash(DEMO_DIR, "ses_s", "c1", "cargo test", short, json!(101))
        ),
        ""
    );
    assert_eq!(prune(&env, &tool_event("read", "ses_s", "c2", &long)), "");
    assert_eq!(prune(&env, &tool_event("edit", "ses_s", "c3", &long)), "");
    let off = env
        .ocmem()
        .env("OCMEM_PRUNE", "0")
        .args(["tool-after", "--prune"])
        .write_stdin(bash(DEMO_DIR, "ses_s", "c4", "cargo test", &long, json!(101)).to_string())
        .output()
        .unwrap();
    assert_success(&off);
    assert_eq!(stdout(&off), "");
    assert!(!env.data.join(outputs_root(DEMO_DIR)).exists());
    // Still recorded.
    let state = env.session_json(DEMO_DIR, "ses_s");
    assert!(
        !state["openErrors"].as_array().unwrap().is_empty(),
        "{state}"
    );
}

#[test]
fn a_failure_to_save_leaves_the_output_whole_and_recording_done() {
    let env = Env::new();
    let outputs = env.data.join(outputs_root(DEMO_DIR));
    fs::create_dir_all(outputs.parent().unwrap()).unwrap();
    fs::write(&outputs, "not a folder").unwrap();
    let event = bash(
        DEMO_DIR,
        "ses_f",
        "call_1",
        "cargo test",
        &failing_test_log(),
        json!(101),
    );
    let out = env.run(&["tool-after", "--prune"], event.to_string());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("tool output left whole"),
        "{}",
        stderr(&out)
    );
    let log = fs::read_to_string(env.data.join("ocmem.log")).unwrap();
    assert!(log.contains("tool output left whole"), "{log}");
    assert!(env.session_file(DEMO_DIR, "ses_f").is_file());
}

#[test]
fn bad_input_and_prune_with_json_change_nothing() {
    let env = Env::new();
    for (args, stdin) in [
        (&["tool-after", "--prune"][..], "{not json".to_string()),
        (
            &["tool-after", "--prune"][..],
            json!({"directory": DEMO_DIR, "input": {"tool": "bash"}}).to_string(),
        ),
        (
            &["tool-after", "--prune", "--json"][..],
            bash(
                DEMO_DIR,
                "ses_b",
                "c1",
                "cargo test",
                &failing_test_log(),
                json!(1),
            )
            .to_string(),
        ),
    ] {
        let out = env.run(args, stdin);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(!stderr(&out).trim().is_empty(), "{args:?}");
        assert!(
            env.data_files().is_empty(),
            "{args:?}: {:?}",
            env.data_files()
        );
    }
}

#[test]
fn a_deleted_session_loses_its_saved_outputs() {
    let env = Env::new();
    let log = failing_test_log();
    prune(
        &env,
        &bash(DEMO_DIR, "ses_d", "c1", "cargo test", &log, json!(101)),
    );
    prune(
        &env,
        &bash(DEMO_DIR, "ses_k", "c1", "cargo test", &log, json!(101)),
    );
    let out = env.run(
        &["gc", "--json"],
        json!({"directory": DEMO_DIR, "sessionID": "ses_d"}).to_string(),
    );
    assert_success(&out);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["outputsRemoved"], 1, "{report}");
    assert!(!output_path(&env, "ses_d", "c1").parent().unwrap().exists());
    assert!(
        output_path(&env, "ses_k", "c1").is_file(),
        "another session's stays"
    );
}

/// Makes `path` look last modified `days` before `NOW`, the clock the binary runs with.
fn age_days(path: &Path, days: i64) {
    let at = UNIX_EPOCH + Duration::from_millis((NOW_MS - days * DAY_MS) as u64);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(at)
        .unwrap();
}

#[test]
fn the_sweep_removes_outputs_older_than_the_ttl_and_their_empty_folders() {
    let env = Env::new();
    let log = failing_test_log();
    prune(
        &env,
        &bash(DEMO_DIR, "ses_old", "c1", "cargo test", &log, json!(101)),
    );
    prune(
        &env,
        &bash(DEMO_DIR, "ses_new", "c1", "cargo test", &log, json!(101)),
    );
    let (old, new) = (
        output_path(&env, "ses_old", "c1"),
        output_path(&env, "ses_new", "c1"),
    );
    age_days(&old, 31);
    age_days(&new, 29);
    let sweep = |extra: &[&str]| -> Value {
        let mut args = vec!["gc", "--sweep", "--json"];
        args.extend(extra);
        let out = env.run(&args, "");
        assert_success(&out);
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let kinds = |report: &Value, kind: &str| -> Vec<String> {
        report["removed"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == kind)
            .map(|r| r["path"].as_str().unwrap().to_string())
            .collect()
    };
    let dry = sweep(&["--dry-run"]);
    assert_eq!(kinds(&dry, "old-output"), [old.display().to_string()]);
    assert!(old.is_file(), "a dry run removes nothing");

    let report = sweep(&[]);
    assert_eq!(kinds(&report, "old-output"), [old.display().to_string()]);
    let old_dir = old.parent().unwrap().display().to_string();
    assert!(
        kinds(&report, "empty-directory").contains(&old_dir),
        "{report}"
    );
    assert!(!old.parent().unwrap().exists() && new.is_file());

    // With a TTL of 7 days the other goes too, and the outputs folder with it.
    let report = env.sweep_with_ttl(NOW, "7");
    assert_eq!(kinds(&report, "old-output"), [new.display().to_string()]);
    assert!(!env.data.join(outputs_root(DEMO_DIR)).exists(), "{report}");
}
