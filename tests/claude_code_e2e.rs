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
use std::time::Instant;

use serde_json::{json, Value};

mod e2e;

use e2e::anthropic_model::{self, Exchange, Reply};
use e2e::claude_code::{self, claude_p};
use e2e::demo::{self, TEST_FAILURE};
use e2e::opencode_beside;
use e2e::process::{self, run, Finished};
use e2e::scenario::*;
use e2e::stores;
use e2e::workdir::Layout;

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
    text.push_str(&candidate_lines());
    text.push_str("</summary>");
    text
}

/// One step of a turn. Tool use ids are unique in a session (`turn` tells the turns apart):
/// ocmem applies each call once, by its id.
fn step(
    turn: &str,
    calls: Vec<(&'static str, Value)>,
    done: usize,
    finish: &str,
    full_at_end: bool,
) -> Reply {
    let id = format!("toolu_{turn}_{done:02}");
    claude_code::step(calls, done, &id, finish, full_at_end)
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
    let ignored = "fixed\n.claude/\n.opencode/\nopencode.json\n";
    demo::typescript_repo(layout, ignored, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
}

/// `ocmem <args>` in the demo repository, with the test's HOME, XDG and data directories.
fn ocmem(layout: &Layout, args: &[&str]) -> Command {
    ocmem_with_xdg(layout, args)
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
        let mut more = vec!["--debug"];
        if let Some(session) = resume {
            more.extend(["--resume", session]);
        }
        let out = run(
            &mut claude_p(
                self.layout,
                &self.bin,
                &self.base_url,
                prompt,
                &self.permissions,
                &more,
            ),
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
    stores::session_store(&workspace_dir(layout), session)
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
        .filter_map(|text| from_ocmem_header(text).map(str::to_string))
        .collect()
}

/// The latest of `ocmem_blocks`, or an empty string.
fn latest_ocmem_block(request: &Exchange) -> String {
    ocmem_blocks(request).pop().unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

#[test]
fn ocmem_gives_claude_code_a_working_memory() {
    let started = Instant::now();
    let deadline = started + TEST_BUDGET;
    let (dir, layout) = Layout::temp("ocmem-cc-e2e-");
    let server = anthropic_model::Server::start(Arc::new(script(&layout.demo)));
    let _keep = claude_code::keep_on_failure(dir, &layout, &server);

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

    let claude_code = Claude {
        layout: &layout,
        bin,
        base_url: server.base_url.clone(),
        permissions: claude_code::write_permissions(&layout),
        deadline,
    };

    // Session 1, first turn: the failing typecheck, `git log`, the failing test.
    let turn_a = claude_code.run("claude-session-1a", FIRST_PROMPT, None);
    let session = turn_a.session.clone();
    let store = session_store(&layout, &session);
    assert_first_turn_errors(&store, &stores::open_errors(&store));

    // Session 1, second turn: its first request carries ocmem's hot state, with both errors and
    // the rule to remember; then the edit, the passing typecheck, and the compaction.
    let turn_b = claude_code.run("claude-session-1b", CONTINUE_PROMPT, Some(&session));
    assert_eq!(turn_b.session, session, "--resume started another session");
    let exchanges = server.messages();
    let request = first_request_with(&exchanges, CONTINUE_PROMPT, &[SUMMARY_MARK]);
    let all = ocmem_blocks(request).join("\n");
    assert_both_errors_and_the_rule(&latest_ocmem_block(request), &all);

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
    assert_only_the_test_failure_open(&stores::open_errors(&session_store(&layout, &session)));

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
    assert_new_session_context(&context);

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
    assert_no_ocmem_warnings(&layout);

    // OpenCode, in the same repository with the same data directory, sees the same memory.
    let init = &mut ocmem(&layout, &["init", "opencode", "--project"]);
    opencode_beside::assert_sees_memory(&layout, init, deadline);

    // With the binary gone, Claude Code still completes a session and prints its answer.
    let missing = layout.root.join("missing/ocmem");
    name_missing_binary(&project_settings(&layout), &missing);
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
    assert_all_served(&server.exchanges());

    assert_within(started, TEST_BUDGET, "ocmem e2e");
}
