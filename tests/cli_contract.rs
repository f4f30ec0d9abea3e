//! The command-line and stdin contract: flags, environment, bad input, exit codes.

mod common;

use std::fs;

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/contract";

fn good_event() -> Value {
    file_tool(DIR, "s1", "c1", "read", "README.md")
}

#[test]
fn bad_input_is_one_line_exit_one_and_writes_nothing() {
    let mut missing_session = good_event();
    missing_session["input"]
        .as_object_mut()
        .unwrap()
        .remove("sessionID");
    let mut wrong_call = good_event();
    wrong_call["input"]["callID"] = json!(42);
    let mut relative_dir = good_event();
    relative_dir["directory"] = json!("some/dir");
    let mut args_not_object = good_event();
    args_not_object["input"]["args"] = json!("README.md");

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "stdin is empty"),
        ("malformed", b"{\"directory\": ".to_vec(), "not valid JSON"),
        (
            "non-UTF-8",
            b"{\"directory\": \"\xff\"}".to_vec(),
            "not valid UTF-8",
        ),
        ("array", b"[]".to_vec(), "must be a JSON object"),
        (
            "no directory",
            json!({"input": {}}).to_string().into_bytes(),
            "directory is missing",
        ),
        (
            "no input",
            json!({"directory": DIR}).to_string().into_bytes(),
            "input is missing",
        ),
        (
            "no session",
            missing_session.to_string().into_bytes(),
            "input.sessionID is missing",
        ),
        (
            "numeric call id",
            wrong_call.to_string().into_bytes(),
            "input.callID must be a string, not a number",
        ),
        (
            "relative directory",
            relative_dir.to_string().into_bytes(),
            "absolute path",
        ),
        (
            "args not an object",
            args_not_object.to_string().into_bytes(),
            "input.args must be an object",
        ),
    ];
    for (name, stdin, expected) in cases {
        let env = Env::new();
        let out = env.run(&["tool-after"], stdin);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.starts_with("ocmem: bad input: "), "{name}: {err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(!env.data.exists(), "{name}: something was written");
    }
}

#[test]
fn render_checks_its_fields_too() {
    let env = Env::new();
    for (stdin, expected) in [
        (json!({"directory": DIR}), "sessionID is missing"),
        (
            json!({"directory": DIR, "sessionID": "s", "prompt": 3}),
            "prompt must be a string",
        ),
        (
            json!({"directory": DIR, "sessionID": "s", "messageID": []}),
            "messageID must be a string",
        ),
        (
            json!({"directory": 1, "sessionID": "s"}),
            "directory must be a string",
        ),
    ] {
        let out = env.run(&["render"], stdin.to_string());
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains(expected), "{}", stderr(&out));
    }
    assert!(!env.data.exists());
}

#[test]
fn unknown_fields_are_ignored() {
    let env = Env::new();
    let mut event = good_event();
    event["extra"] = json!({"anything": [1, 2]});
    event["input"]["future"] = json!(true);
    env.tool_after(&event);
    let out = env.run(
        &["render"],
        json!({"directory": DIR, "sessionID": "s1", "prompt": "hi", "messageID": "m1", "model": {}}).to_string(),
    );
    assert_success(&out);
    assert!(stdout(&out).contains("- README.md (read, 1x)"));
}

#[test]
fn usage_errors_exit_two() {
    let env = Env::new();
    for args in [
        vec!["no-such-command"],
        vec!["render", "--bogus"],
        vec!["replay"],
    ] {
        let out = env.run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn every_subcommand_help_shows_an_example() {
    let env = Env::new();
    for sub in ["tool-after", "render", "replay"] {
        let out = env.run(&[sub, "--help"], "");
        assert_success(&out);
        let text = stdout(&out);
        assert!(text.contains("Example:"), "{sub}: {text}");
        assert!(
            text.contains(&format!("ocmem {sub}")) || text.contains(&format!("| ocmem {sub}")),
            "{sub}: {text}"
        );
    }
    let top = stdout(&env.run(&["--help"], ""));
    for name in [
        "OCMEM_DATA_DIR",
        "XDG_DATA_HOME",
        "OCMEM_NOW",
        "Exit status",
    ] {
        assert!(top.contains(name), "{name}: {top}");
    }
}

#[test]
fn data_dir_flag_goes_before_or_after_the_subcommand() {
    let env = Env::new();
    let before = env.tmp.path().join("before");
    let after = env.tmp.path().join("after");
    let mut cmd = env.ocmem_without_data_dir();
    cmd.arg("--data-dir").arg(&before).arg("tool-after");
    assert_success(&cmd.write_stdin(good_event().to_string()).output().unwrap());
    let mut cmd = env.ocmem_without_data_dir();
    cmd.arg("tool-after").arg("--data-dir").arg(&after);
    assert_success(&cmd.write_stdin(good_event().to_string()).output().unwrap());
    assert!(before.join("workspaces").is_dir());
    assert!(after.join("workspaces").is_dir());
}

#[test]
fn data_dir_defaults_follow_the_plugin() {
    let env = Env::new();
    let home = env.tmp.path().join("home");
    let xdg = env.tmp.path().join("xdg");

    let out = env
        .ocmem_without_data_dir()
        .arg("tool-after")
        .write_stdin(good_event().to_string())
        .output()
        .unwrap();
    assert_success(&out);
    assert!(home
        .join(".local/share/opencode-working-memory/workspaces")
        .is_dir());

    let out = env
        .ocmem_without_data_dir()
        .env("XDG_DATA_HOME", &xdg)
        .arg("tool-after")
        .write_stdin(good_event().to_string())
        .output()
        .unwrap();
    assert_success(&out);
    assert!(xdg.join("opencode-working-memory/workspaces").is_dir());

    let named = env.tmp.path().join("named");
    let out = env
        .ocmem_without_data_dir()
        .env("XDG_DATA_HOME", &xdg)
        .env("OCMEM_DATA_DIR", &named)
        .arg("tool-after")
        .write_stdin(good_event().to_string())
        .output()
        .unwrap();
    assert_success(&out);
    assert!(named.join("workspaces").is_dir());
}

#[test]
fn ocmem_now_pins_the_clock_and_rejects_garbage() {
    let env = Env::new();
    let out = env.run_at("1795276434504", &["tool-after"], good_event().to_string());
    assert_success(&out);
    let state = env.session_json(DIR, "s1");
    assert_eq!(state["updatedAt"], "2026-11-21T15:53:54.504Z");
    assert_eq!(state["activeFiles"][0]["lastSeen"], 1795276434504i64);

    let out = env.run_at("next tuesday", &["tool-after"], good_event().to_string());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("OCMEM_NOW"));
}

#[test]
fn tool_after_json_describes_the_change() {
    let env = Env::new();
    let out = env.run(
        &["tool-after", "--json"],
        bash(
            DIR,
            "s1",
            "c1",
            "npx tsc --noEmit",
            "src/a.ts(3,1): error TS2322: Type 'x' is not assignable.",
            json!(2),
        )
        .to_string(),
    );
    assert_success(&out);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1);
    let line: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(line["written"], true);
    assert_eq!(line["duplicate"], false);
    assert_eq!(line["errorsAdded"].as_array().unwrap().len(), 1);

    let out = env.run(
        &["tool-after", "--json"],
        file_tool(DIR, "s1", "c2", "edit", "src/a.ts").to_string(),
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["filesTouched"], json!([format!("{DIR}/src/a.ts")]));
    assert_eq!(line["errorsMaybeFixed"].as_array().unwrap().len(), 1);

    let out = env.run(
        &["tool-after", "--json"],
        file_tool(DIR, "s1", "c2", "edit", "src/a.ts").to_string(),
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["duplicate"], true);
    assert_eq!(line["written"], false);

    // Without --json it prints nothing.
    let out = env.run(
        &["tool-after"],
        file_tool(DIR, "s1", "c3", "read", "b.ts").to_string(),
    );
    assert_success(&out);
    assert!(out.stdout.is_empty());
}

#[test]
fn render_is_byte_identical_and_empty_when_there_is_nothing() {
    let env = Env::new();
    assert_eq!(env.render(DIR, "s1"), "");
    let out = env.run(
        &["render", "--json"],
        json!({"directory": DIR, "sessionID": "s1"}).to_string(),
    );
    assert_eq!(stdout(&out), "{\"workspace\":\"\",\"session\":\"\"}\n");
    // The first render only freezes the (empty) workspace block in the session store, and
    // notes that OpenCode called.
    let files = env.data_files();
    assert_eq!(files.len(), 3, "{files:?}");
    assert_eq!(
        files.iter().filter(|f| f.contains("/sessions/")).count(),
        2,
        "{files:?}"
    );
    assert!(files[0].ends_with("/hosts/opencode"), "{files:?}");

    env.tool_after(&file_tool(DIR, "s1", "c1", "edit", "src/a.ts"));
    let first = env.render(DIR, "s1");
    let later = env
        .ocmem()
        .env("OCMEM_NOW", "2027-06-01T00:00:00Z")
        .arg("render")
        .write_stdin(json!({"directory": DIR, "sessionID": "s1"}).to_string())
        .output()
        .unwrap();
    assert_eq!(first, stdout(&later));
    assert_eq!(
        first,
        "Hot session state (current session):\nactive_files:\n- src/a.ts (edit, 1x)\n"
    );

    let out = env.run(
        &["render", "--json"],
        json!({"directory": DIR, "sessionID": "s1"}).to_string(),
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["workspace"], "");
    assert_eq!(format!("{}\n", line["session"].as_str().unwrap()), first);
    // Another session of the same workspace has its own hot state.
    assert_eq!(env.render(DIR, "s2"), "");
}

#[test]
fn workspace_key_matches_the_typescript_plugin_for_a_repository_root() {
    let env = Env::new();
    let root = env
        .folder("repo", &[".git", "src/deep"])
        .to_string_lossy()
        .into_owned();
    for (i, dir) in [root.clone(), format!("{root}/src/deep")]
        .iter()
        .enumerate()
    {
        env.tool_after(&file_tool(dir, "s1", &format!("c{i}"), "read", "x.ts"));
    }
    // Both calls landed in the one store keyed by sha256 of the canonical repository root.
    let state = env.session_json(&root, "s1");
    assert_eq!(state["activeFiles"].as_array().unwrap().len(), 2);
    let rendered = env.render(&format!("{root}/src/deep"), "s1");
    assert!(
        rendered.contains("- src/deep/x.ts (read, 1x)"),
        "{rendered}"
    );
    assert!(rendered.contains("- x.ts (read, 1x)"), "{rendered}");
}

#[test]
fn a_linked_worktree_shares_its_main_worktree_key() {
    let env = Env::new();
    let git = |args: &[&str], dir: &std::path::Path| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .expect("git is needed for this test");
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    };
    let main = env.tmp.path().join("main");
    fs::create_dir_all(&main).unwrap();
    git(&["init", "-q"], &main);
    git(&["commit", "-q", "--allow-empty", "-m", "init"], &main);
    git(&["worktree", "add", "-q", "../linked"], &main);
    let linked = env.tmp.path().join("linked");
    fs::create_dir_all(linked.join("pkg")).unwrap();
    assert!(linked.join(".git").is_file());

    let main_root = fs::canonicalize(&main)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let linked_dir = fs::canonicalize(linked.join("pkg"))
        .unwrap()
        .to_string_lossy()
        .into_owned();
    env.tool_after(&file_tool(&main_root, "s1", "c1", "read", "a.ts"));
    env.tool_after(&file_tool(&linked_dir, "s1", "c2", "read", "b.ts"));
    let state = env.session_json(&main_root, "s1");
    assert_eq!(state["activeFiles"].as_array().unwrap().len(), 2, "{state}");
    assert_eq!(
        env.data_files()
            .iter()
            .filter(|f| f.ends_with(".json"))
            .count(),
        1
    );
}
