//! End to end: ocmem inside the real Codex CLI (@openai/codex@0.169.0), installed with `ocmem
//! init codex`, against a scripted Responses API of our own; then the same repository in the
//! real OpenCode, which must see what Codex's sessions left in workspace memory.
//!
//! `tests/e2e/install-codex.sh` installs the pinned Codex into a cache directory (once). The
//! test builds the small TypeScript demo repository in a temporary directory, runs `ocmem init
//! codex` there (the hooks go into `.codex/hooks.json`, their trust entries and the project's
//! into `config.toml`; no flag bypasses Codex's trust check), and drives `codex exec` processes
//! with HOME and CODEX_HOME inside the temporary directory and the scripted model
//! (`tests/e2e/responses_model.rs`, on 127.0.0.1) as the model provider. Each process takes one
//! prompt; later ones resume the session (`codex exec resume --last`), and the one after a reply
//! that reported more tokens than the compaction limit starts with a compaction. It checks what
//! Codex sent the model (the context ocmem's hooks added), what ocmem stored on disk, and that
//! Codex reported no hook problem.
//!
//! On failure the temporary directory is kept, and the paths of Codex's home (its rollout
//! files), of the output of every process, of ocmem's data directory and of a dump of the model
//! requests are printed.

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

mod e2e;

use e2e::codex;
use e2e::demo::{self, TEST_FAILURE};
use e2e::opencode_beside;
use e2e::process::{run, Finished};
use e2e::responses_model::{self, Exchange, Reply};
use e2e::scenario::*;
use e2e::stores;
use e2e::workdir::{KeepOnFailure, Layout};

/// Codex compacts before the next turn once a reply reported more input tokens than this.
const COMPACT_LIMIT: u64 = 200_000;
const FULL_CONTEXT: u64 = 240_000;

// ---------------------------------------------------------------------------------------------
// The scripted model
// ---------------------------------------------------------------------------------------------

fn first_turn_calls() -> Vec<Reply> {
    ["npm run typecheck", "git log --oneline -5", "npm test"]
        .iter()
        .enumerate()
        .map(|(i, command)| Reply::Command {
            id: format!("call_a{i}"),
            command: command.to_string(),
        })
        .collect()
}

fn second_turn_calls() -> Vec<Reply> {
    vec![
        Reply::Patch {
            id: "call_b0".into(),
            patch: "*** Begin Patch\n*** Update File: src/index.ts\n@@\n-    add(\"1\", 2);\n+    add(1, 2);\n*** End Patch".into(),
        },
        Reply::Command {
            id: "call_b1".into(),
            command: "touch fixed && npm run typecheck".into(),
        },
    ]
}

fn summary() -> String {
    let mut text = format!(
        "## Objective\n- Fix the typecheck of the demo repository.\n\n## {SUMMARY_MARK}\n- `npm test` still fails.\n\n<workspace_memory_candidates>\n"
    );
    text.push_str(&candidate_lines());
    text.push_str("</workspace_memory_candidates>\n");
    text
}

fn script(request: &Exchange) -> Reply {
    if request.is_compaction() {
        return Reply::text(&summary());
    }
    if request.has_user_text(SECOND_PROMPT) {
        return Reply::text("Run `npm run typecheck` before you commit.");
    }
    if request.has_user_text(THANKS_PROMPT) {
        return Reply::text("You're welcome.");
    }
    let results = request.tool_results();
    if request.has_user_text(CONTINUE_PROMPT) {
        let done = results.saturating_sub(first_turn_calls().len());
        return second_turn_calls()
            .into_iter()
            .nth(done)
            .unwrap_or(Reply::Text {
                text: "Done.".into(),
                input_tokens: FULL_CONTEXT,
            });
    }
    if request.has_user_text(FIRST_PROMPT) {
        return first_turn_calls()
            .into_iter()
            .nth(results)
            .unwrap_or_else(|| Reply::text("The typecheck and the test fail."));
    }
    Reply::text("Nothing is scripted for this request.")
}

// ---------------------------------------------------------------------------------------------
// Setup and reading
// ---------------------------------------------------------------------------------------------

/// `ocmem <args>` in the demo repository, with the test's HOME, XDG, Codex and data directories.
fn ocmem(layout: &Layout, args: &[&str]) -> Command {
    let mut cmd = ocmem_with_xdg(layout, args);
    cmd.env("CODEX_HOME", codex::codex_home(layout));
    cmd
}

struct Codex<'a> {
    layout: &'a Layout,
    bin: PathBuf,
    deadline: Instant,
}

impl Codex<'_> {
    fn exec(&self, name: &str, args: &[&str]) -> Finished {
        let out = run(
            &mut codex::exec(self.layout, &self.bin, args),
            name,
            &self.layout.logs,
            RUN_TIMEOUT,
            self.deadline,
        );
        out.assert_success(&format!("codex exec ({name})"));
        let errors = codex::errors(&out.stdout);
        assert!(
            errors.is_empty(),
            "{name}: Codex reported errors: {errors:#?}"
        );
        out
    }
}

fn session_store(layout: &Layout, session: &str) -> Value {
    stores::session_store(&stores::workspace_dir(layout), session)
}

/// What ocmem's hooks added to a request, in order: each message text from an ocmem header on.
fn ocmem_blocks(request: &Exchange) -> Vec<String> {
    request
        .texts()
        .into_iter()
        .filter_map(|(_, text)| from_ocmem_header(&text).map(str::to_string))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

#[test]
fn ocmem_gives_codex_a_working_memory() {
    let started = Instant::now();
    let deadline = started + TEST_BUDGET;
    let (dir, layout) = Layout::temp("ocmem-codex-e2e-");
    let server = responses_model::Server::start(Arc::new(script));
    let _keep = KeepOnFailure::new(
        dir,
        &layout,
        ("Codex's home", codex::codex_home(&layout)),
        server.log(),
    );

    let bin = codex::install(&layout, INSTALL_TIMEOUT, deadline);
    let ignored = "fixed\n.codex/\n.opencode/\nopencode.json\n";
    demo::typescript_repo(&layout, ignored, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
    codex::write_config(&layout, &server.base_url, COMPACT_LIMIT);

    // The integration, as a user installs it for one project: hooks and trust.
    run(
        &mut ocmem(&layout, &["init", "codex", "--compact-prompt"]),
        "ocmem-init",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    )
    .assert_success("ocmem init codex --compact-prompt");
    let hooks = fs::read_to_string(layout.demo.join(".codex/hooks.json")).unwrap();
    assert!(hooks.contains(env!("CARGO_BIN_EXE_ocmem")), "{hooks}");
    let codex = Codex {
        layout: &layout,
        bin,
        deadline,
    };

    // Process 1: the failing typecheck, `git log`, the failing test.
    let first = codex.exec("codex-1", &[FIRST_PROMPT]);
    let session = codex::thread_id(&first.stdout);
    let store = session_store(&layout, &session);
    assert_first_turn_errors(&store, &stores::open_errors(&store));

    // Process 2, resumed: its first request carries the hot state with both errors and the
    // rule to remember; then the patch and the passing typecheck.
    let second = codex.exec("codex-2", &["resume", "--last", CONTINUE_PROMPT]);
    assert_eq!(
        codex::thread_id(&second.stdout),
        session,
        "resume started another session"
    );
    let exchanges = server.responses();
    let request = first_request_with(&exchanges, CONTINUE_PROMPT, &[SUMMARY_MARK]);
    let blocks = ocmem_blocks(request);
    let latest = blocks.last().cloned().unwrap_or_default();
    assert_both_errors_and_the_rule(&latest, &blocks.join("\n"));
    assert_only_the_test_failure_open(&stores::open_errors(&session_store(&layout, &session)));
    let state = session_store(&layout, &session).to_string();
    assert!(
        state.contains("src/index.ts"),
        "the patched file is not the session's: {state}"
    );

    // Process 3 starts with the compaction; ocmem files the summary's good candidates when
    // the session restarts compacted, and the block comes back without the typecheck's error.
    let third = codex.exec("codex-3", &["resume", "--last", THANKS_PROMPT]);
    assert_eq!(codex::last_message(&third.stdout), "You're welcome.");
    let exchanges = server.responses();
    assert_eq!(
        exchanges.iter().filter(|e| e.is_compaction()).count(),
        1,
        "expected one compaction"
    );
    let compaction = exchanges.iter().find(|e| e.is_compaction()).unwrap();
    assert!(
        compaction.last_user_text().contains(CANDIDATES_HEADER)
            && !compaction.last_user_text().contains("CONTEXT CHECKPOINT"),
        "the compaction did not use the prompt init --compact-prompt set:\n{}",
        compaction.last_user_text()
    );
    let after = first_request_with(&exchanges, THANKS_PROMPT, &[]);
    let context = ocmem_blocks(after).join("\n");
    assert!(
        context.contains(TEST_FAILURE) && !context.contains("TS2345"),
        "after the compaction ocmem's context should hold the test's error only:\n{context}"
    );
    stores::assert_workspace_memory(
        &stores::memory_entries(&stores::workspace_dir(&layout)),
        REMEMBERED,
        &GOOD_CANDIDATES,
        &BAD_CANDIDATES,
    );

    // A new session: workspace memory, none of the first session's errors.
    let fourth = codex.exec("codex-4", &[SECOND_PROMPT]);
    assert_ne!(codex::thread_id(&fourth.stdout), session);
    let exchanges = server.responses();
    let context = ocmem_blocks(first_request_with(&exchanges, SECOND_PROMPT, &[])).join("\n");
    assert_new_session_context(&context);

    // ocmem logged no warning, and doctor finds the hooks installed and trusted.
    assert_no_ocmem_warnings(&layout);
    let doctor = run(
        &mut ocmem(&layout, &["doctor", "--json"]),
        "ocmem-doctor",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    );
    let report: Value = serde_json::from_str(&doctor.stdout).unwrap();
    let problems: Vec<&Value> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["host"] == "codex")
        .collect();
    assert!(problems.is_empty(), "doctor: {problems:#?}");

    // OpenCode, in the same repository with the same data directory, sees the same memory.
    let init = &mut ocmem(&layout, &["init", "opencode", "--project"]);
    opencode_beside::assert_sees_memory(&layout, init, deadline);

    assert_all_served(&server.exchanges());
    assert_within(started, TEST_BUDGET, "ocmem codex e2e");
}
