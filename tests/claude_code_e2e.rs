//! End to end: ocmem inside the real Claude Code (@anthropic-ai/claude-code@2.1.330), installed
//! with `ocmem init claude-code`, against a scripted Anthropic model of our own; then the same
//! repository in the real OpenCode, which must see what Claude Code's sessions left in
//! workspace memory.
//!
//! `tests/e2e/install-claude-code.sh` installs the pinned Claude Code into a cache directory
//! (once). The test builds a small TypeScript demo repository in a temporary directory, runs
//! `ocmem init claude-code` there (the hooks go into `.claude/settings.local.json`, naming the
//! built binary), and drives `claude -p` sessions with HOME and the XDG directories inside the
//! temporary directory, the scripted model (`tests/e2e/anthropic_model.rs`, on 127.0.0.1) as the
//! API, and tools allowed by a `--settings` file. It checks what Claude Code sent the model (the
//! context ocmem's hooks added, the compaction prompt), what ocmem stored on disk, that Claude
//! Code reported no hook failure, and that a session still completes when the binary named in
//! the settings is gone. OpenCode runs through the harness it shares with `tests/opencode_e2e.rs`.
//!
//! On failure the temporary directory is kept, and the paths of Claude Code's directory (its
//! debug logs and transcripts), of the output of every process, of ocmem's data directory and of
//! a dump of the model requests are printed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "e2e/anthropic_model.rs"]
mod anthropic_model;
#[path = "e2e/claude_code.rs"]
#[allow(dead_code)] // shared with the payload recording, which uses other parts
mod claude_code;
#[path = "e2e/demo.rs"]
mod demo;
#[path = "e2e/http.rs"]
mod http;
/// OpenCode's scripted model, the plugin API it would install, and the registry tripwire: the
/// harness of `tests/opencode_e2e.rs`.
#[path = "e2e/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "e2e/opencode.rs"]
mod opencode;
#[path = "e2e/opencode_beside.rs"]
mod opencode_beside;
#[path = "e2e/plugin_deps.rs"]
mod plugin_deps;
#[path = "e2e/process.rs"]
mod process;
#[path = "e2e/stores.rs"]
mod stores;
#[path = "e2e/workdir.rs"]
mod workdir;

use anthropic_model::{Exchange, Reply};
use claude_code::claude;
use demo::{write, TEST_FAILURE};
use process::{run, Finished};
use stores::{section, OCMEM_HEADERS};
use workdir::{KeepOnFailure, Layout};

/// The user's first message: a task, and a rule to remember.
const FIRST_PROMPT: &str =
    "please fix the typecheck. remember this: always run npm run typecheck before committing";
/// The user's next message in the same session (`--resume`).
const CONTINUE_PROMPT: &str = "go on and fix the type error";
/// The user's message in a later session, in Claude Code and in OpenCode.
const SECOND_PROMPT: &str = "what should I keep in mind when I change this repository?";
/// The user's message in the session whose hooks name a missing binary.
const MISSING_PROMPT: &str = "are you still there?";
const MISSING_ANSWER: &str = "Still here, hooks or not.";
/// What the first message asks to remember.
const REMEMBERED: &str = "always run npm run typecheck before committing";

/// The demo repository's commit subjects: `git log` prints them, and they say "errors".
const COMMIT_SUBJECTS: [&str; 2] = [
    "fix: silence memory load errors in the loader",
    "feat: report parse errors with their line",
];

/// The compaction candidates the scripted summary proposes: two that belong in workspace memory,
/// and junk: progress narration, a commit hash, a test count.
const GOOD_CANDIDATES: [&str; 2] = [
    "Use npm scripts for typecheck because the CI calls them directly",
    "This repo is a TypeScript demo whose typecheck runs through check.js",
];
const BAD_CANDIDATES: [&str; 3] = [
    "Fixed the argument type in src/index.ts so the typecheck passes",
    "The fix landed as commit 4c3d2e1 on the main branch",
    "41 tests pass and the adder test fails on main",
];
/// Marks the scripted compaction summary, and so a request made after it.
const SUMMARY_MARK: &str = "Current Work: the typecheck of the demo passes";
/// What ocmem's PreCompact hook asks the summariser for.
const CANDIDATES_HEADER: &str = "Memory candidates:";

/// Input tokens reported with the last tool call before the compaction: close to the default
/// model's context window (1 000 000 tokens), so Claude Code compacts before its next request.
const FULL_CONTEXT: u64 = 990_000;

/// Every process and the whole test stay within these, at least three times what they took on a
/// busy two-core machine.
const TEST_BUDGET: Duration = Duration::from_secs(540);
const INSTALL_TIMEOUT: Duration = Duration::from_secs(300);
const RUN_TIMEOUT: Duration = Duration::from_secs(120);
const SHORT_TIMEOUT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// The scripted model
// ---------------------------------------------------------------------------------------------

/// The tool calls of the first turn (`FIRST_PROMPT`), in order.
fn first_turn_calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Bash",
            json!({"command": "npm run typecheck", "description": "Run the typecheck"}),
        ),
        (
            "Bash",
            json!({"command": "git log --oneline -5", "description": "Show recent commits"}),
        ),
        (
            "Bash",
            json!({"command": "npm test", "description": "Run the tests"}),
        ),
    ]
}

/// The tool calls of the second turn (`CONTINUE_PROMPT`), in order; the last one reports a full
/// context.
fn second_turn_calls(demo: &Path) -> Vec<(&'static str, Value)> {
    let file = demo.join("src/index.ts").to_string_lossy().into_owned();
    vec![
        ("Read", json!({"file_path": file})),
        (
            "Edit",
            json!({"file_path": file, "old_string": "add(\"1\", 2)", "new_string": "add(1, 2)"}),
        ),
        (
            "Bash",
            json!({"command": "touch fixed && npm run typecheck",
                   "description": "Run the typecheck again"}),
        ),
    ]
}

/// The compaction summary: an analysis, then the summary, whose candidate block holds two good
/// candidates and the junk.
fn summary() -> String {
    let mut text = String::from(
        "<analysis>The user wants the typecheck fixed.</analysis>\n<summary>\n\
         1. Primary Request and Intent: fix the typecheck of the demo repository.\n",
    );
    text.push_str(&format!("2. {SUMMARY_MARK}; `npm test` still fails.\n\n"));
    text.push_str(CANDIDATES_HEADER);
    text.push('\n');
    let lines = [
        ("decision", GOOD_CANDIDATES[0]),
        ("project", GOOD_CANDIDATES[1]),
        ("project", BAD_CANDIDATES[0]),
        ("project", BAD_CANDIDATES[1]),
        ("project", BAD_CANDIDATES[2]),
    ];
    for (kind, candidate) in lines {
        text.push_str(&format!("- [{kind}] {candidate}\n"));
    }
    text.push_str("</summary>");
    text
}

/// One step of a turn: the call at `done` tool results into it, or `finish` when all are done.
/// Tool use ids are unique in a session (`turn` tells the turns apart): ocmem applies each call
/// once, by its id.
fn step(
    turn: &str,
    calls: Vec<(&'static str, Value)>,
    done: usize,
    finish: &str,
    full_at_end: bool,
) -> Reply {
    let count = calls.len();
    match calls.into_iter().nth(done) {
        Some((name, input)) => {
            let mut reply = Reply::tool(&format!("toolu_{turn}_{done:02}"), name, input);
            if full_at_end && done + 1 == count {
                if let Reply::Tool { input_tokens, .. } = &mut reply {
                    *input_tokens = FULL_CONTEXT;
                }
            }
            reply
        }
        None => Reply::text(finish),
    }
}

fn script(demo: &Path) -> impl Fn(&Exchange) -> Reply + Send + Sync + 'static {
    let demo = demo.to_path_buf();
    move |request: &Exchange| {
        if anthropic_model::is_compaction(request) {
            return Reply::text(&summary());
        }
        if request.has_user_text(SUMMARY_MARK) {
            return Reply::text("The typecheck passes now; `npm test` still fails.");
        }
        if request.has_user_text(MISSING_PROMPT) {
            return Reply::text(MISSING_ANSWER);
        }
        if request.has_user_text(SECOND_PROMPT) {
            return Reply::text("Run `npm run typecheck` before you commit.");
        }
        let first = first_turn_calls();
        let results = request.tool_results().len();
        if request.has_user_text(CONTINUE_PROMPT) {
            let done = results.saturating_sub(first.len());
            return step("b", second_turn_calls(&demo), done, "Done.", true);
        }
        if request.has_user_text(FIRST_PROMPT) {
            return step(
                "a",
                first,
                results,
                "The typecheck and the test fail.",
                false,
            );
        }
        Reply::text("Nothing is scripted for this request.")
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// The demo repository: a TypeScript project whose `npm run typecheck` fails with TS2345 until
/// a file named `fixed` exists and whose `npm test` always fails, two commits whose subjects say
/// "errors".
fn make_demo_repo(layout: &Layout, deadline: Instant) {
    demo::write_typescript_project(&layout.demo);
    write(
        &layout.demo,
        ".gitignore",
        "fixed\n.claude/\n.opencode/\nopencode.json\n",
    );
    demo::git_repo(layout, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
}

/// `ocmem <args>` in the demo repository, with the test's HOME and data directory.
fn ocmem(layout: &Layout, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ocmem"));
    cmd.args(args)
        .current_dir(&layout.demo)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &layout.home)
        .env("XDG_CONFIG_HOME", &layout.xdg_config)
        .env("XDG_DATA_HOME", &layout.xdg_data)
        .env("OCMEM_DATA_DIR", &layout.data);
    cmd
}

/// The project settings `ocmem init claude-code` writes.
fn project_settings(layout: &Layout) -> PathBuf {
    layout.demo.join(".claude/settings.local.json")
}

// ---------------------------------------------------------------------------------------------
// Running Claude Code
// ---------------------------------------------------------------------------------------------

/// One `claude -p` run: its output, and the debug log it wrote.
struct ClaudeRun {
    name: String,
    out: Finished,
    session: String,
}

impl ClaudeRun {
    /// The debug log of this run's session (`--debug` writes one per session).
    fn debug_log(&self, layout: &Layout) -> String {
        let path = claude_code::claude_dir(layout)
            .join("debug")
            .join(format!("{}.txt", self.session));
        fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("no debug log {} ({e})", path.display()))
    }
}

struct Claude<'a> {
    layout: &'a Layout,
    bin: PathBuf,
    base_url: String,
    /// The allow rules, passed with `--settings`; the hooks come from the project's settings.
    permissions: PathBuf,
    deadline: Instant,
}

impl Claude<'_> {
    fn run(&self, name: &str, prompt: &str, resume: Option<&str>) -> ClaudeRun {
        let permissions = self.permissions.to_string_lossy().into_owned();
        let mut args = vec![
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--debug",
            "--tools",
            claude_code::TOOLS,
            "--settings",
            &permissions,
        ];
        if let Some(session) = resume {
            args.extend(["--resume", session]);
        }
        let out = run(
            &mut claude(self.layout, &self.bin, &self.base_url, &args),
            name,
            &self.layout.logs,
            RUN_TIMEOUT,
            self.deadline,
        );
        out.assert_success(&format!("claude -p ({name})"));
        let session = claude_code::session_id(&out.stdout);
        ClaudeRun {
            name: name.to_string(),
            out,
            session,
        }
    }
}

/// Fails if Claude Code reported a hook failure in a run: a `hook_response` event whose outcome
/// is not success, a notification about a hook, or an `[ERROR]` line about a hook in its debug
/// log. Returns the debug log's lines that report a hook of ocmem's finishing (`Hooks:
/// SessionStart:startup [<command>] finished with status 0`, `PreCompact:auto [<command>]
/// completed with status 0`).
fn assert_no_hook_error(layout: &Layout, run: &ClaudeRun) -> Vec<String> {
    for event in claude_code::events(&run.out.stdout) {
        if event["subtype"] == "hook_response" {
            assert!(
                event["outcome"] == "success" && event["exit_code"] == 0 && event["stderr"] == "",
                "{}: Claude Code reports a failed hook: {event}",
                run.name
            );
        }
        if event["subtype"] == "notification" {
            assert!(
                !event.to_string().to_lowercase().contains("hook"),
                "{}: Claude Code reports a hook problem: {event}",
                run.name
            );
        }
    }
    let log = run.debug_log(layout);
    let errors: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("[ERROR]") && line.to_lowercase().contains("hook"))
        .collect();
    assert!(
        errors.is_empty(),
        "{}: Claude Code's debug log reports hook errors:\n{}",
        run.name,
        errors.join("\n")
    );
    let bin = env!("CARGO_BIN_EXE_ocmem");
    log.lines()
        .filter(|line| {
            line.contains(&format!("[{bin} hook claude-code] "))
                && (line.contains("finished with status 0")
                    || line.contains("completed with status 0"))
        })
        .map(str::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reading what ocmem added and stored
// ---------------------------------------------------------------------------------------------

/// The demo's workspace directory, which must be the only one.
fn workspace_dir(layout: &Layout) -> PathBuf {
    let expected = stores::workspace_dir(layout);
    let name = expected.file_name().unwrap().to_string_lossy().into_owned();
    let workspaces: Vec<String> = fs::read_dir(layout.data.join("workspaces"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        workspaces,
        vec![name],
        "ocmem's workspaces under {}",
        layout.data.display()
    );
    expected
}

fn session_store(layout: &Layout, session: &str) -> Value {
    let path = stores::session_file(&workspace_dir(layout), session);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no session store {} for session {session} ({e})",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// The texts of a session store's open errors (each error as JSON text, whatever its fields).
fn open_errors(store: &Value) -> Vec<String> {
    store["openErrors"]
        .as_array()
        .unwrap_or_else(|| panic!("the session store has no openErrors list: {store}"))
        .iter()
        .map(Value::to_string)
        .collect()
}

fn memory_entries(layout: &Layout) -> Vec<Value> {
    stores::memory_entries(&workspace_dir(layout))
}

/// What ocmem's hooks added to a request, in the order of the conversation: each text block
/// (or `<system-reminder>` part of one) that carries an ocmem header, from the first header on.
/// The last one is the state ocmem rendered most recently.
fn ocmem_blocks(request: &Exchange) -> Vec<String> {
    let mut texts = vec![request.system()];
    texts.extend(request.texts().into_iter().map(|(_, text)| text));
    texts
        .iter()
        .flat_map(|text| text.split("<system-reminder>"))
        .filter_map(|text| {
            OCMEM_HEADERS
                .iter()
                .filter_map(|header| text.find(header))
                .min()
                .map(|start| text[start..].to_string())
        })
        .collect()
}

/// The latest of `ocmem_blocks`, or an empty string.
fn latest_ocmem_block(request: &Exchange) -> String {
    ocmem_blocks(request).pop().unwrap_or_default()
}

/// The first model request (not a compaction) that carries `prompt` and no text of `unless`.
fn first_request_with<'a>(
    exchanges: &'a [Exchange],
    prompt: &str,
    unless: &[&str],
) -> &'a Exchange {
    exchanges
        .iter()
        .find(|e| {
            e.has_user_text(prompt)
                && !anthropic_model::is_compaction(e)
                && unless.iter().all(|u| !e.has_user_text(u))
        })
        .unwrap_or_else(|| panic!("no model request carries {prompt:?}"))
}

// ---------------------------------------------------------------------------------------------
// OpenCode, on the same repository
// ---------------------------------------------------------------------------------------------

/// OpenCode, in the same repository with the same data directory: the system prompt of its
/// model request for `SECOND_PROMPT`.
fn opencode_system_prompt(layout: &Layout, deadline: Instant) -> String {
    opencode_beside::system_prompt(
        layout,
        &mut ocmem(layout, &["init", "opencode", "--project"]),
        SECOND_PROMPT,
        [INSTALL_TIMEOUT, RUN_TIMEOUT, SHORT_TIMEOUT],
        deadline,
    )
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

#[test]
fn ocmem_gives_claude_code_a_working_memory() {
    let started = Instant::now();
    let deadline = started + TEST_BUDGET;
    let dir = tempfile::Builder::new()
        .prefix("ocmem-cc-e2e-")
        .tempdir()
        .unwrap();
    let layout = Layout::new(dir.path());
    let server = anthropic_model::Server::start(Arc::new(script(&layout.demo)));
    let _keep = KeepOnFailure::new(
        dir,
        &layout,
        ("Claude Code's directory", claude_code::claude_dir(&layout)),
        server.log(),
    );

    let bin = claude_code::install(&layout, INSTALL_TIMEOUT, deadline);
    make_demo_repo(&layout, deadline);

    // The integration, as a user installs it for one project.
    let init = run(
        &mut ocmem(&layout, &["init", "claude-code", "--project"]),
        "ocmem-init",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    );
    init.assert_success("ocmem init claude-code --project");
    let settings_text = fs::read_to_string(project_settings(&layout)).unwrap_or_else(|e| {
        panic!(
            "ocmem init claude-code wrote no {} ({e})",
            project_settings(&layout).display()
        )
    });
    assert!(
        settings_text.contains(env!("CARGO_BIN_EXE_ocmem")),
        "the project settings do not name the binary by its absolute path:\n{settings_text}"
    );

    let permissions = layout.root.join("permissions.json");
    fs::write(&permissions, claude_code::settings(None).to_string()).unwrap();
    let claude_code = Claude {
        layout: &layout,
        bin,
        base_url: server.base_url.clone(),
        permissions,
        deadline,
    };

    // Session 1, first turn: the failing typecheck, `git log`, the failing test.
    let turn_a = claude_code.run("claude-session-1a", FIRST_PROMPT, None);
    let session = turn_a.session.clone();
    let store = session_store(&layout, &session);
    let errors = open_errors(&store);
    assert!(
        errors.len() == 2
            && errors.iter().any(|e| e.contains("TS2345"))
            && errors.iter().any(|e| e.contains(TEST_FAILURE)),
        "after the first turn, the typecheck's and the test's errors should be open, and only \
         they (git log adds nothing): {errors:#?}"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !store.to_string().contains(subject),
            "the commit subject {subject:?} reached the session store: {store}"
        );
    }

    // Session 1, second turn: its first request carries ocmem's hot state, with both errors and
    // the rule to remember; then the edit, the passing typecheck, and the compaction.
    let turn_b = claude_code.run("claude-session-1b", CONTINUE_PROMPT, Some(&session));
    assert_eq!(turn_b.session, session, "--resume started another session");
    let exchanges = server.messages();
    let request = first_request_with(&exchanges, CONTINUE_PROMPT, &[SUMMARY_MARK]);
    let context = latest_ocmem_block(request);
    let listed = section(&context, "open_errors:");
    assert!(
        listed.iter().any(|e| e.contains("TS2345"))
            && listed.iter().any(|e| e.contains(TEST_FAILURE)),
        "the request after the failing typecheck should carry both open errors:\n{context}"
    );
    let all = ocmem_blocks(request).join("\n");
    assert!(
        all.contains(REMEMBERED),
        "the requests of session 1 should carry the rule to remember:\n{all}"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !all.contains(subject),
            "the commit subject {subject:?} reached ocmem's context:\n{context}"
        );
    }

    // The compaction: one summariser request, carrying ocmem's PreCompact instructions.
    let compactions: Vec<&Exchange> = exchanges
        .iter()
        .filter(|e| anthropic_model::is_compaction(e))
        .collect();
    assert_eq!(compactions.len(), 1, "expected one compaction request");
    assert!(
        compactions[0].last_user_block().contains(CANDIDATES_HEADER),
        "the summariser's instructions lack ocmem's `{CANDIDATES_HEADER}` request:\n{}",
        compactions[0].last_user_block()
    );
    // After it, the hot state comes back without the typecheck's error and with the test's.
    let after = exchanges
        .iter()
        .find(|e| e.has_user_text(SUMMARY_MARK) && !anthropic_model::is_compaction(e))
        .expect("Claude Code did not go on after the compaction");
    let context = latest_ocmem_block(after);
    assert!(
        !context.contains("TS2345") && context.contains(TEST_FAILURE),
        "after the passing typecheck and the compaction, ocmem's context should hold the \
         test's error and not the typecheck's:\n{context}"
    );

    // The session store: the passing typecheck cleared its error, the test's stays.
    let errors = open_errors(&session_store(&layout, &session));
    assert!(
        errors.len() == 1 && errors[0].contains(TEST_FAILURE),
        "after the passing typecheck only the test's error should be open: {errors:#?}"
    );

    // Workspace memory: the explicit rule and the good candidates; none of the junk.
    stores::assert_workspace_memory(
        &memory_entries(&layout),
        REMEMBERED,
        &GOOD_CANDIDATES,
        &BAD_CANDIDATES,
    );

    // Session 2: its first request carries workspace memory, and none of session 1's errors.
    let second = claude_code.run("claude-session-2", SECOND_PROMPT, None);
    assert_ne!(second.session, session);
    let exchanges = server.messages();
    let context = ocmem_blocks(first_request_with(&exchanges, SECOND_PROMPT, &[])).join("\n");
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0], GOOD_CANDIDATES[1]] {
        assert!(
            context.contains(remembered),
            "the second session's first request lacks {remembered:?}:\n{context}"
        );
    }
    assert!(
        !context.contains("TS2345") && !context.contains(TEST_FAILURE),
        "the first session's errors leaked into the second:\n{context}"
    );

    // Claude Code reported no hook failure, and ocmem's hooks did run, for every event it
    // registered that these sessions reach.
    let mut finished = Vec::new();
    for run in [&turn_a, &turn_b, &second] {
        finished.extend(assert_no_hook_error(&layout, run));
    }
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PostToolUseFailure",
        "PreCompact",
    ] {
        assert!(
            finished
                .iter()
                .any(|line| line.contains(&format!("{event}:"))
                    || line.contains(&format!("{event} ["))),
            "Claude Code's debug logs show no {event} hook of ocmem's finishing:\n{}",
            finished.join("\n")
        );
    }

    // ocmem never fails a hook (it exits 0 whatever happens) but logs every warning it prints:
    // the log must have none.
    let warnings = fs::read_to_string(layout.data.join("ocmem.log")).unwrap_or_default();
    assert!(
        warnings.trim().is_empty(),
        "ocmem logged warnings during the Claude Code sessions:\n{warnings}"
    );

    // OpenCode, in the same repository with the same data directory, sees the same memory.
    let system = opencode_system_prompt(&layout, deadline);
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0]] {
        assert!(
            system.contains(remembered),
            "OpenCode's system prompt lacks {remembered:?}:\n{system}"
        );
    }

    // With the binary gone, Claude Code still completes a session and prints its answer.
    let missing = layout.root.join("missing/ocmem");
    let settings_text = fs::read_to_string(project_settings(&layout)).unwrap();
    fs::write(
        project_settings(&layout),
        settings_text.replace(env!("CARGO_BIN_EXE_ocmem"), &missing.to_string_lossy()),
    )
    .unwrap();
    let orphaned = claude_code.run("claude-binary-missing", MISSING_PROMPT, None);
    let result = claude_code::result_event(&orphaned.out.stdout);
    assert_eq!(
        result["result"], MISSING_ANSWER,
        "the session without ocmem did not answer: {result}"
    );
    let log = orphaned.debug_log(&layout);
    assert!(
        log.contains(&*missing.to_string_lossy()),
        "Claude Code did not try the missing binary; its debug log:\n{}",
        process::tail(&log, 4000)
    );

    // Claude Code asked the scripted API for nothing it does not serve (with nonessential
    // traffic off it sends only `POST /v1/messages`; a `count_tokens` would be answered).
    let unserved: Vec<String> = server
        .exchanges()
        .iter()
        .filter(|e| e.reply == "404")
        .map(|e| format!("{} {}", e.method, e.path))
        .collect();
    assert!(
        unserved.is_empty(),
        "requests the scripted API does not serve: {unserved:?}"
    );

    let elapsed = started.elapsed();
    eprintln!("ocmem e2e: passed in {elapsed:.1?}");
    assert!(elapsed < TEST_BUDGET, "took {elapsed:?}");
}
