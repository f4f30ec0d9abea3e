//! The hook payloads of the real Claude Code (@anthropic-ai/claude-code@2.1.330) for every tool
//! ocmem reads, recorded against a scripted model and compared with
//! `tests/fixtures/claude-code-2.1.330/tools.jsonl`, which ocmem's decoder is tested on.
//!
//! A recording hook (a shell script appending its stdin to a file) is registered for every hook
//! event. The scripted model (`tests/e2e/anthropic_model.rs`) calls Bash (passing, then failing
//! with exit status 2), Read, Edit, Write, Read and NotebookEdit on a notebook, Grep in each
//! output mode and Glob, then reports a context nearly full so that Claude Code compacts on its
//! own; a second `claude -p --resume` continues the session. The recorded payloads, with the
//! temporary directory's paths replaced by `/home/dev/demo` and `/home/dev`, must have the shape
//! of the fixture's line by line: the same events, tools and field names.
//!
//! `OCMEM_REGENERATE=1 cargo test --test claude_code_payloads` rewrites the fixture instead.

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod e2e;

use e2e::anthropic_model::{self, Exchange, Reply};
use e2e::claude_code::{self, claude_p};
use e2e::demo::{self, write};
use e2e::process::run;
use e2e::scenario::{INSTALL_TIMEOUT, RUN_TIMEOUT, SHORT_TIMEOUT};
use e2e::workdir::Layout;

const FIXTURE: &str = "tests/fixtures/claude-code-2.1.330/tools.jsonl";
const REGENERATE: &str = "OCMEM_REGENERATE=1 cargo test --test claude_code_payloads";

/// The user's message in the first run, and in the resumed one.
const TOOLS_PROMPT: &str = "exercise every tool whose result ocmem reads";
const RESUME_PROMPT: &str = "anything left to do?";
/// Marks the scripted compaction summary, and so a request made after it.
const SUMMARY_MARK: &str = "Every tool ocmem reads has been called once.";

const TEST_BUDGET: Duration = Duration::from_secs(420);

const NOTEBOOK: &str = r##"{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "cell-1",
   "metadata": {},
   "outputs": [],
   "source": ["print(1 + 1)\n"]
  }
 ],
 "metadata": {"language_info": {"name": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"##;

/// The tool calls of the first run, in order.
fn tool_calls(demo: &Path) -> Vec<(&'static str, Value)> {
    let file = |relative: &str| demo.join(relative).to_string_lossy().into_owned();
    vec![
        (
            "Bash",
            json!({"command": "echo hello from bash", "description": "Print a greeting"}),
        ),
        (
            "Bash",
            json!({"command": "echo partial output && echo 'fatal: broken' >&2 && exit 2",
                   "description": "Fail with exit status 2"}),
        ),
        ("Read", json!({"file_path": file("src/greet.ts")})),
        (
            "Edit",
            json!({"file_path": file("src/greet.ts"), "old_string": "\"hello \"",
                   "new_string": "\"hi \""}),
        ),
        (
            "Write",
            json!({"file_path": file("src/extra.ts"),
                   "content": "export const extra = greetTwice;\n"}),
        ),
        ("Read", json!({"file_path": file("notes.ipynb")})),
        (
            "NotebookEdit",
            json!({"notebook_path": file("notes.ipynb"), "cell_id": "cell-1",
                   "new_source": "print(2 + 2)"}),
        ),
        (
            "Grep",
            json!({"pattern": "greet", "output_mode": "files_with_matches"}),
        ),
        (
            "Grep",
            json!({"pattern": "greet", "path": file("src"), "output_mode": "content", "-n": true}),
        ),
        ("Grep", json!({"pattern": "greet", "output_mode": "count"})),
        ("Glob", json!({"pattern": "**/*.ts"})),
    ]
}

/// The summary the scripted model writes when Claude Code compacts.
fn summary() -> String {
    format!(
        "<analysis>The user asked for every tool to be called.</analysis>\n<summary>\n\
         1. Primary Request and Intent: call every tool once.\n\
         2. Current Work: {SUMMARY_MARK}\n</summary>"
    )
}

fn script(demo: &Path) -> impl Fn(&Exchange) -> Reply + Send + Sync + 'static {
    let demo = demo.to_path_buf();
    move |request: &Exchange| {
        if anthropic_model::is_compaction(request) {
            return Reply::text(&summary());
        }
        if request.has_user_text(RESUME_PROMPT) {
            return Reply::text("Nothing is left to do.");
        }
        if request.has_user_text(SUMMARY_MARK) {
            return Reply::text("All tools have been called.");
        }
        if !request.has_user_text(TOOLS_PROMPT) {
            return Reply::text("Nothing is scripted for this request.");
        }
        let done = request.tool_results().len();
        let id = format!("toolu_{:02}", done + 1);
        let finish = "All tools have been called.";
        claude_code::step(tool_calls(&demo), done, &id, finish, true)
    }
}

/// Replaces the temporary directory's paths by the fixture's: the demo repository by
/// `/home/dev/demo`, HOME by `/home/dev`, TMPDIR by `/tmp`, and the demo's path as Claude Code
/// spells it in a project directory name (every `/` and `.` a `-`).
fn normalise(payload: &Value, layout: &Layout) -> Value {
    let encoded = |path: &Path| -> String {
        path.to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect()
    };
    let replacements = [
        (encoded(&layout.demo), "-home-dev-demo".to_string()),
        (
            layout.demo.to_string_lossy().into_owned(),
            "/home/dev/demo".into(),
        ),
        (
            layout.home.to_string_lossy().into_owned(),
            "/home/dev".into(),
        ),
        (layout.tmp.to_string_lossy().into_owned(), "/tmp".into()),
    ];
    let mut text = payload.to_string();
    for (from, to) in &replacements {
        text = text.replace(from.as_str(), to);
    }
    let root = layout.root.to_string_lossy();
    assert!(
        !text.contains(root.as_ref()),
        "a payload still names the temporary directory: {text}"
    );
    serde_json::from_str(&text).unwrap()
}

/// What must stay the same from run to run: the event, the tool, the source or trigger, and
/// the names of the fields (the payload's, and those of the tool's input and response).
fn shape(payload: &Value) -> Value {
    let keys = |value: &Value| -> Vec<String> {
        let mut keys: Vec<String> = value
            .as_object()
            .map(|object| object.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        keys
    };
    json!({
        "event": payload["hook_event_name"],
        "tool": payload["tool_name"],
        "source": payload["source"],
        "trigger": payload["trigger"],
        "fields": keys(payload),
        "input": keys(&payload["tool_input"]),
        "response": keys(&payload["tool_response"]),
        "response_is": match &payload["tool_response"] {
            Value::Null => "none",
            Value::Object(_) => "object",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            _ => "other",
        },
    })
}

fn payloads_with(payloads: &[Value], event: &str) -> Vec<Value> {
    payloads
        .iter()
        .filter(|p| p["hook_event_name"] == event)
        .cloned()
        .collect()
}

#[test]
fn claude_code_tool_payloads_match_the_fixture() {
    let deadline = Instant::now() + TEST_BUDGET;
    let (dir, layout) = Layout::temp("ocmem-cc-payloads-");
    let server = anthropic_model::Server::start(Arc::new(script(&layout.demo)));
    let _keep = claude_code::keep_on_failure(dir, &layout, &server);

    let bin = claude_code::install(&layout, INSTALL_TIMEOUT, deadline);
    let demo = &layout.demo;
    write(
        demo,
        "src/greet.ts",
        "export function greet(name: string): string {\n  return \"hello \" + name;\n}\n",
    );
    write(
        demo,
        "src/main.ts",
        "import { greet } from \"./greet\";\n\nconsole.log(greet(\"world\"));\n",
    );
    write(demo, "notes.ipynb", NOTEBOOK);
    demo::git_repo(&layout, &["initial commit"], SHORT_TIMEOUT, deadline);

    let record = layout.root.join("hooks.jsonl");
    let hook = claude_code::recording_hook(&layout, &record);
    let settings_path = layout.root.join("settings.json");
    fs::write(
        &settings_path,
        claude_code::settings(Some(&hook)).to_string(),
    )
    .unwrap();
    let claude = |prompt: &str, more: &[&str]| {
        claude_p(
            &layout,
            &bin,
            &server.base_url,
            prompt,
            &settings_path,
            more,
        )
    };

    let first = run(
        &mut claude(TOOLS_PROMPT, &[]),
        "claude-tools",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    );
    first.assert_success("claude -p (the tools)");
    let session = claude_code::session_id(&first.stdout);

    let resumed = run(
        &mut claude(RESUME_PROMPT, &["--resume", &session]),
        "claude-resume",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    );
    resumed.assert_success("claude -p --resume");

    let payloads: Vec<Value> = claude_code::recorded(&record)
        .iter()
        .map(|p| normalise(p, &layout))
        .collect();

    // Every scripted call reached a PostToolUse hook, but the failing Bash: PostToolUseFailure.
    let calls = tool_calls(demo);
    let after: Vec<Value> = payloads
        .iter()
        .filter(|p| {
            p["hook_event_name"] == "PostToolUse" || p["hook_event_name"] == "PostToolUseFailure"
        })
        .cloned()
        .collect();
    let names: Vec<&str> = after
        .iter()
        .map(|p| p["tool_name"].as_str().unwrap_or(""))
        .collect();
    let expected: Vec<&str> = calls.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected, "the tools whose results reached a hook");
    assert_eq!(after[1]["hook_event_name"], "PostToolUseFailure");
    assert!(
        after[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("Exit code 2") && e.contains("fatal: broken")),
        "the failing Bash: {}",
        after[1]
    );

    // Claude Code compacted on its own, and the resumed run started as a resumption.
    for (event, field, value) in [
        ("PreCompact", "trigger", "auto"),
        ("PostCompact", "trigger", "auto"),
        ("SessionStart", "source", "compact"),
        ("SessionStart", "source", "resume"),
    ] {
        assert!(
            payloads_with(&payloads, event)
                .iter()
                .any(|p| p[field] == value),
            "no {event} payload with {field} {value:?}"
        );
    }
    let post_compact = payloads_with(&payloads, "PostCompact");
    assert!(
        post_compact[0]["compact_summary"]
            .as_str()
            .is_some_and(|s| s.contains(SUMMARY_MARK)),
        "PostCompact lacks the summary: {}",
        post_compact[0]
    );

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    if std::env::var_os("OCMEM_REGENERATE").is_some() {
        let lines: Vec<String> = payloads.iter().map(Value::to_string).collect();
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, lines.join("\n") + "\n").unwrap();
        eprintln!("ocmem e2e: wrote {}", path.display());
        return;
    }
    let fixture: Vec<Value> = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); run {REGENERATE}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let got: Vec<Value> = payloads.iter().map(shape).collect();
    let want: Vec<Value> = fixture.iter().map(shape).collect();
    for (i, (got, want)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            got,
            want,
            "payload {} differs in shape from {FIXTURE}; if Claude Code changed, run {REGENERATE}",
            i + 1
        );
    }
    assert_eq!(
        got.len(),
        want.len(),
        "{} payloads recorded, {FIXTURE} has {}",
        got.len(),
        want.len()
    );
}
