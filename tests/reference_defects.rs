//! The TypeScript plugin's known defects 1–5 and 9 (see the reference description), one test
//! each, through the binary.

mod common;

use common::*;
use serde_json::{json, Value};

const DIR: &str = "/nonexistent/ocmem-tests/defects";
const S: &str = "ses_defects";

fn errors(env: &Env) -> Vec<Value> {
    let file = env.session_file(DIR, S);
    if !file.exists() {
        return Vec::new();
    }
    env.session_json(DIR, S)["openErrors"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn categories(env: &Env) -> Vec<String> {
    let mut c: Vec<String> = errors(env)
        .iter()
        .map(|e| e["category"].as_str().unwrap().to_string())
        .collect();
    c.sort();
    c
}

const TSC: &str = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n";
const CARGO_BUILD: &str = "   Compiling demo v0.1.0\nerror[E0308]: mismatched types\n --> src/main.rs:4:5\n  |\n4 |     1u8 + \"x\"\n\nerror: could not compile `demo` (bin \"demo\") due to 1 previous error\n";
const JEST: &str = " FAIL  src/add.test.ts\n  ● add › adds numbers\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 3 passed, 4 total\nTime:        1.234 s\n";

/// Defect 1: the exit status is `metadata.exit`, and output text is never read as a status.
#[test]
fn defect_1_exit_status_comes_from_metadata_exit() {
    let env = Env::new();
    env.tool_after(&bash(DIR, S, "c1", "npx tsc --noEmit", TSC, json!(2)));
    assert_eq!(categories(&env), ["typecheck"]);

    // "status: 200" in the output of a command with an unknown status is not an exit status.
    let curl = json!({"directory": DIR, "input": {"tool": "bash", "sessionID": S, "callID": "c2", "args": {"command": "node server-check.js"}},
                      "output": {"output": "status: 200\nError: upstream said no\n", "metadata": {"output": "status: 200\nError: upstream said no\n"}}});
    env.tool_after(&curl);
    assert_eq!(categories(&env), ["typecheck"]);

    // A timed-out command (exit null) neither records nor clears.
    env.tool_after(&bash(DIR, S, "c3", "npx tsc --noEmit", "", Value::Null));
    assert_eq!(categories(&env), ["typecheck"]);

    // metadata.exitCode and a top-level exitCode are the documented fallbacks.
    let fallback = json!({"directory": DIR, "input": {"tool": "bash", "sessionID": S, "callID": "c4", "args": {"command": "npx tsc --noEmit"}},
                          "output": {"output": "", "metadata": {"exitCode": 0}}});
    env.tool_after(&fallback);
    assert!(categories(&env).is_empty());
    let top_level = json!({"directory": DIR, "input": {"tool": "bash", "sessionID": S, "callID": "c5", "args": {"command": "cargo build"}},
                           "output": {"output": CARGO_BUILD, "exitCode": 101, "metadata": {}}});
    env.tool_after(&top_level);
    assert_eq!(categories(&env), ["build"]);
}

/// Defect 2: categories come from the command actually run, inspection commands clear
/// nothing, compound commands take the failing segment, runtime errors do clear.
#[test]
fn defect_2_category_is_the_command_actually_run() {
    let env = Env::new();
    env.tool_after(&bash(DIR, S, "c1", "cargo build", CARGO_BUILD, json!(101)));
    env.tool_after(&bash(DIR, S, "c2", "npx jest", JEST, json!(1)));
    assert_eq!(categories(&env), ["build", "test"]);

    for (i, command) in [
        "ls build/",
        "git commit -m \"fix test\"",
        "cat test.log",
        "grep -rn test src",
        "echo build && echo test",
    ]
    .iter()
    .enumerate()
    {
        env.tool_after(&bash(DIR, S, &format!("x{i}"), command, "", json!(0)));
        assert_eq!(
            categories(&env),
            ["build", "test"],
            "{command} cleared something"
        );
    }

    // The failing segment of a compound command decides: a build step passed, tests failed.
    let env = Env::new();
    env.tool_after(&bash(
        DIR,
        S,
        "c1",
        "npm run build && npm test",
        JEST,
        json!(1),
    ));
    assert_eq!(categories(&env), ["test"]);
    // ...and a passing compound command clears each category it ran.
    env.tool_after(&bash(DIR, S, "c2", "npx tsc --noEmit", TSC, json!(2)));
    env.tool_after(&bash(
        DIR,
        S,
        "c3",
        "cd web && npx tsc --noEmit && npm test",
        "",
        json!(0),
    ));
    assert!(categories(&env).is_empty());

    // Runtime errors clear when the same command succeeds, and only then.
    let env = Env::new();
    let crash = "Traceback (most recent call last):\n  File \"app/main.py\", line 3, in <module>\n    import yaml\nModuleNotFoundError: No module named 'yaml'\n";
    env.tool_after(&bash(DIR, S, "c1", "python app/main.py", crash, json!(1)));
    assert_eq!(categories(&env), ["runtime"]);
    env.tool_after(&bash(DIR, S, "c2", "pytest", "", json!(0)));
    assert_eq!(categories(&env), ["runtime"]);
    env.tool_after(&bash(
        DIR,
        S,
        "c3",
        "PYTHONPATH=. python  app/main.py",
        "",
        json!(0),
    ));
    assert!(categories(&env).is_empty());
}

/// Defect 3: the same failure re-run is the same error, whatever its line numbers, counts,
/// durations or temp paths.
#[test]
fn defect_3_fingerprints_ignore_volatile_parts() {
    let env = Env::new();
    env.tool_after(&bash(DIR, S, "c1", "npx jest", JEST, json!(1)));
    let rerun = JEST
        .replace("1.234 s", "0.987 s")
        .replace("3 passed, 4 total", "4 passed, 5 total");
    env.tool_after(&bash(DIR, S, "c2", "npx jest", &rerun, json!(1)));
    env.tool_after(&bash(DIR, S, "c3", "npx tsc --noEmit", TSC, json!(2)));
    let moved = TSC.replace("(10,3)", "(42,17)");
    env.tool_after(&bash(DIR, S, "c4", "npx tsc --noEmit", &moved, json!(2)));
    let errors = errors(&env);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e["seenCount"] == 2), "{errors:?}");
    // A different failure is a different error.
    let other =
        "src/index.ts(10,3): error TS2322: Type 'number' is not assignable to type 'string'.\n";
    env.tool_after(&bash(DIR, S, "c5", "npx tsc --noEmit", other, json!(2)));
    let typecheck: Vec<Value> = self::errors(&env)
        .into_iter()
        .filter(|e| e["category"] == "typecheck")
        .collect();
    assert_eq!(typecheck.len(), 1);
    assert_eq!(typecheck[0]["seenCount"], 1);
    assert!(typecheck[0]["summary"].as_str().unwrap().contains("TS2322"));
}

/// Defect 4: active files decay, so new work is never dropped; paths are normalised, and
/// shown relative only to a root they really lie under.
#[test]
fn defect_4_active_files_decay_and_paths_are_normalised() {
    let env = Env::new();
    for i in 0..20 {
        for round in 0..5 {
            env.tool_after_at(
                "2026-11-21T09:00:00Z",
                &file_tool(
                    DIR,
                    S,
                    &format!("e{i}-{round}"),
                    "edit",
                    &format!("src/hot{i:02}.ts"),
                ),
            );
        }
    }
    env.tool_after_at(
        "2026-11-21T10:00:00Z",
        &file_tool(DIR, S, "new", "read", "src/new.ts"),
    );
    let rendered = env.render(DIR, S);
    let files: Vec<&str> = rendered
        .lines()
        .filter(|l| l.starts_with("- src/"))
        .collect();
    assert_eq!(files.len(), 8, "{rendered}");
    assert_eq!(files[0], "- src/new.ts (read, 1x)", "{rendered}");

    let env = Env::new();
    env.tool_after(&file_tool(DIR, S, "a", "read", "./src/../src/a.ts"));
    env.tool_after(&file_tool(DIR, S, "b", "edit", &format!("{DIR}/src/a.ts")));
    env.tool_after(&file_tool(DIR, S, "c", "read", &format!("{DIR}2/src/b.ts")));
    let rendered = env.render(DIR, S);
    assert!(rendered.contains("\n- src/a.ts (edit, 2x)\n"), "{rendered}");
    assert!(
        rendered.contains(&format!("\n- {DIR}2/src/b.ts (read, 1x)\n")),
        "{rendered}"
    );
}

/// Defect 5: locking works across processes, corrupt JSON is kept aside rather than silently
/// reset, and no temp file is left behind.
#[test]
fn defect_5_processes_share_one_lock_and_corruption_is_not_silent() {
    let env = Env::new();
    let children: Vec<_> = (0..8)
        .map(|i| {
            spawn_tool_after(
                &env.data,
                &file_tool(DIR, S, &format!("c{i}"), "edit", &format!("f{i}.ts")),
            )
        })
        .collect();
    for child in children {
        assert_success(&child.wait_with_output().unwrap());
    }
    let state = env.session_json(DIR, S);
    assert_eq!(state["activeFiles"].as_array().unwrap().len(), 8);

    let file = env.session_file(DIR, S);
    std::fs::write(&file, "{\"version\": 1, \"activeFiles\": [").unwrap();
    let out = env.run(
        &["tool-after"],
        file_tool(DIR, S, "c9", "read", "g.ts").to_string(),
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("warning"), "{}", stderr(&out));
    let files = env.data_files();
    assert_eq!(
        files.iter().filter(|f| f.contains(".corrupt-")).count(),
        1,
        "{files:?}"
    );
    assert!(files.iter().all(|f| !f.contains(".tmp-")), "{files:?}");
}

/// Defect 9: the hot state is never cut in the middle of a line.
#[test]
fn defect_9_hot_state_keeps_whole_lines_within_budget() {
    let env = Env::new();
    let long_dir = format!("{}/{}", "deeply/nested".repeat(6), "x".repeat(60));
    for i in 0..20 {
        env.tool_after(&file_tool(
            DIR,
            S,
            &format!("f{i}"),
            "edit",
            &format!("{long_dir}/file{i}.ts"),
        ));
    }
    for i in 0..5 {
        let output = format!(
            "Error: service {i} failed: {}\nError: second line {}\n",
            ["alpha", "beta", "gamma", "delta", "epsilon"][i],
            "y".repeat(200)
        );
        env.tool_after(&bash(
            DIR,
            S,
            &format!("b{i}"),
            &format!("node job{i}.js"),
            &output,
            json!(1),
        ));
    }
    let rendered = env.render(DIR, S);
    let block = rendered.strip_suffix('\n').unwrap();
    assert!(block.chars().count() <= 1200, "{}", block.chars().count());
    let mut lines = block.lines();
    assert_eq!(lines.next(), Some("Hot session state (current session):"));
    for line in lines {
        assert!(
            line == "active_files:"
                || line == "open_errors:"
                || line.ends_with("x)")
                || line.starts_with("- [runtime] "),
            "cut or unexpected line: {line}"
        );
        if let Some(rest) = line.strip_prefix("- [runtime] ") {
            assert!(rest.starts_with("Error: service "), "{line}");
        }
    }
    assert!(block.matches("- [runtime] ").count() >= 1);
}
