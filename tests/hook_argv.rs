//! The hooks' command lines, recognised without clap, behave exactly as clap's: the same
//! stdout, stderr, exit status and files, whichever spelling is used; anything else still gets
//! clap's usage error.

mod common;

use std::process::Output;

use clap::Parser;
use common::*;
use ocmem::cli::Cli;
use serde_json::{json, Value};

const ROOT: &str = "/home/dev/shop";
const SESSION: &str = "ses_argv";

/// The spellings a hook's command line may take; `{dir}` is the data dir.
const SPELLINGS: [&[&str]; 4] = [
    &["--data-dir", "{dir}", "{hook}"],
    &["--data-dir={dir}", "{hook}"],
    &["{hook}", "--data-dir", "{dir}"],
    &["{hook}", "--data-dir={dir}"],
];

/// One hook call: the subcommand, whether with --json, and its stdin.
struct Call {
    hook: &'static str,
    json: bool,
    stdin: String,
}

fn call(hook: &'static str, json: bool, stdin: impl ToString) -> Call {
    Call {
        hook,
        json,
        stdin: stdin.to_string(),
    }
}

/// A working session: files read, a failing typecheck, a memory asked for, a compaction and
/// its promotion; and bad events for every hook.
fn calls() -> Vec<Call> {
    let tsc =
        "src/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n";
    let summary = "## Done\n- cart fixed\n\nMemory candidates:\n- [decision] Use pnpm instead of npm Why: one lockfile\n- [project] All prices are integers in cents\n";
    let mut calls = vec![
        call(
            "tool-after",
            false,
            file_tool(ROOT, SESSION, "c1", "read", "src/cart.ts"),
        ),
        call(
            "tool-after",
            true,
            file_tool(ROOT, SESSION, "c2", "edit", "src/cart.ts"),
        ),
        call(
            "tool-after",
            true,
            bash(ROOT, SESSION, "c3", "npx tsc --noEmit", tsc, json!(2)),
        ),
        call(
            "tool-after",
            true,
            file_tool(ROOT, SESSION, "c2", "edit", "src/cart.ts"),
        ),
        call(
            "tool-after",
            false,
            json!({"directory": ROOT, "input": {"tool": "glob", "sessionID": SESSION, "callID": "c4"}}),
        ),
        call(
            "render",
            false,
            json!({"directory": ROOT, "sessionID": SESSION, "prompt": "remember this: the API runs on port 8080", "messageID": "m1"}),
        ),
        call(
            "render",
            true,
            json!({"directory": ROOT, "sessionID": SESSION}),
        ),
        call(
            "compact",
            false,
            json!({"directory": ROOT, "sessionID": SESSION}),
        ),
        call(
            "promote",
            true,
            json!({"directory": ROOT, "sessionID": SESSION, "summary": summary}),
        ),
        call(
            "promote",
            false,
            json!({"directory": ROOT, "sessionID": SESSION, "summary": summary}),
        ),
        call(
            "render",
            false,
            json!({"directory": ROOT, "sessionID": "ses_next"}),
        ),
        call(
            "render",
            true,
            json!({"directory": ROOT, "sessionID": SESSION}),
        ),
    ];
    for hook in ["tool-after", "render", "compact", "promote"] {
        for stdin in [
            "",
            "not json",
            r#"{"directory": "relative", "sessionID": "s"}"#,
        ] {
            calls.push(call(hook, hook != "compact", stdin));
        }
    }
    calls
}

fn args(spelling: &[&str], call: &Call, dir: &str) -> Vec<String> {
    let mut args: Vec<String> = spelling
        .iter()
        .map(|t| t.replace("{dir}", dir).replace("{hook}", call.hook))
        .collect();
    if call.json {
        args.push("--json".into());
    }
    args
}

fn run(env: &Env, args: &[String], stdin: &str) -> Output {
    env.ocmem_without_data_dir()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap()
}

/// What a run showed, with its data dir named the same whichever it was.
fn shown(out: &Output, env: &Env) -> (Option<i32>, String, String) {
    let dir = env.data.display().to_string();
    (
        out.status.code(),
        stdout(out).replace(&dir, "DATA"),
        stderr(out).replace(&dir, "DATA"),
    )
}

fn files(env: &Env) -> Vec<(String, Value)> {
    env.data_files()
        .into_iter()
        .filter(|f| f.ends_with(".json"))
        .map(|f| {
            let text = std::fs::read_to_string(env.data.join(&f)).unwrap();
            (f, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

#[test]
fn every_spelling_of_every_hook_matches_clap() {
    for (i, spelling) in SPELLINGS.iter().enumerate() {
        let fast = Env::new();
        let clap = Env::new();
        for call in calls() {
            let fast_args = args(spelling, &call, &fast.data.display().to_string());
            // A trailing `--` is a form clap accepts and the fast path leaves to it.
            let mut clap_args = args(spelling, &call, &clap.data.display().to_string());
            clap_args.push("--".into());
            let fast_out = run(&fast, &fast_args, &call.stdin);
            let clap_out = run(&clap, &clap_args, &call.stdin);
            assert_eq!(
                shown(&fast_out, &fast),
                shown(&clap_out, &clap),
                "spelling {i}: {fast_args:?} with {}",
                call.stdin
            );
        }
        let written = files(&fast);
        assert!(written.len() >= 3, "spelling {i}: {written:?}");
        assert_eq!(written, files(&clap), "spelling {i}");
    }
}

#[test]
fn what_clap_refuses_is_refused_with_its_message_and_nothing_is_written() {
    let env = Env::new();
    let dir = env.data.display().to_string();
    let stdin = json!({"directory": ROOT, "sessionID": SESSION}).to_string();
    for bad in [
        vec!["tool-after", "--jsn"],
        vec!["tool-after", "--json", "--json"],
        vec!["render", "-j"],
        vec!["render", "extra"],
        vec!["compact", "--json"],
        vec!["--json", "promote"],
        vec!["promote", "--data-dir"],
        vec!["promote", "--data-dir="],
        vec![
            "--data-dir",
            &dir,
            "render",
            "--data-dir",
            &dir,
            "--data-dir",
            &dir,
        ],
        vec!["--data-dir", &dir, "--data-dir", &dir, "render"],
        vec!["render", "--data-dir", "--json"],
        vec!["tool-after", "render"],
    ] {
        let args: Vec<String> = bad.iter().map(|s| s.to_string()).collect();
        let out = run(&env, &args, &stdin);
        let expected = Cli::try_parse_from(std::iter::once("ocmem").chain(bad.iter().copied()))
            .expect_err("clap refuses it");
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), expected.to_string(), "{bad:?}");
        assert!(stdout(&out).is_empty(), "{bad:?}");
        assert!(env.data_files().is_empty(), "{bad:?}");
    }
}
