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
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "e2e/codex.rs"]
mod codex;
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
#[path = "e2e/responses_model.rs"]
mod responses_model;
#[path = "e2e/stores.rs"]
mod stores;
#[path = "e2e/workdir.rs"]
mod workdir;

use demo::{write, TEST_FAILURE};
use process::{run, Finished};
use responses_model::{Exchange, Reply};
use stores::{section, OCMEM_HEADERS};
use workdir::{KeepOnFailure, Layout};

/// The user's first message: a task, and a rule to remember.
const FIRST_PROMPT: &str =
    "please fix the typecheck. remember this: always run npm run typecheck before committing";
/// The user's next message in the same session.
const CONTINUE_PROMPT: &str = "go on and fix the type error";
/// The message of the process that starts with the compaction.
const THANKS_PROMPT: &str = "thanks";
/// The user's message in a later session, in Codex and in OpenCode.
const SECOND_PROMPT: &str = "what should I keep in mind when I change this repository?";
const REMEMBERED: &str = "always run npm run typecheck before committing";

/// The demo repository's commit subjects: `git log` prints them, and they say "errors".
const COMMIT_SUBJECTS: [&str; 2] = [
    "fix: silence memory load errors in the loader",
    "feat: report parse errors with their line",
];

const GOOD_CANDIDATES: [&str; 2] = [
    "Use npm scripts for typecheck because the CI calls them directly",
    "This repo is a TypeScript demo whose typecheck runs through check.js",
];
const BAD_CANDIDATES: [&str; 3] = [
    "Fixed the argument type in src/index.ts so the typecheck passes",
    "The fix landed as commit 4c3d2e1 on the main branch",
    "41 tests pass and the adder test fails on main",
];
/// Marks the scripted compaction summary.
const SUMMARY_MARK: &str = "Current Work: the typecheck of the demo passes";

/// Codex compacts before the next turn once a reply reported more input tokens than this.
const COMPACT_LIMIT: u64 = 200_000;
const FULL_CONTEXT: u64 = 240_000;

const TEST_BUDGET: Duration = Duration::from_secs(540);
const INSTALL_TIMEOUT: Duration = Duration::from_secs(300);
const RUN_TIMEOUT: Duration = Duration::from_secs(120);
const SHORT_TIMEOUT: Duration = Duration::from_secs(30);

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

fn ocmem(layout: &Layout, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ocmem"));
    cmd.args(args)
        .current_dir(&layout.demo)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &layout.home)
        .env("CODEX_HOME", codex::codex_home(layout))
        .env("XDG_CONFIG_HOME", &layout.xdg_config)
        .env("XDG_DATA_HOME", &layout.xdg_data)
        .env("OCMEM_DATA_DIR", &layout.data);
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
    let path = stores::session_file(&stores::workspace_dir(layout), session);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("no session store {} ({e})", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn open_errors(store: &Value) -> Vec<String> {
    store["openErrors"]
        .as_array()
        .unwrap_or_else(|| panic!("the session store has no openErrors list: {store}"))
        .iter()
        .map(Value::to_string)
        .collect()
}

/// What ocmem's hooks added to a request, in order: each message text from an ocmem header on.
fn ocmem_blocks(request: &Exchange) -> Vec<String> {
    request
        .texts()
        .into_iter()
        .filter_map(|(_, text)| {
            OCMEM_HEADERS
                .iter()
                .filter_map(|header| text.find(header))
                .min()
                .map(|start| text[start..].to_string())
        })
        .collect()
}

fn first_request_with<'a>(
    exchanges: &'a [Exchange],
    prompt: &str,
    unless: &[&str],
) -> &'a Exchange {
    exchanges
        .iter()
        .find(|e| {
            e.has_user_text(prompt)
                && !e.is_compaction()
                && unless.iter().all(|u| !e.has_user_text(u))
        })
        .unwrap_or_else(|| panic!("no model request carries {prompt:?}"))
}

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
fn ocmem_gives_codex_a_working_memory() {
    let started = Instant::now();
    let deadline = started + TEST_BUDGET;
    let dir = tempfile::Builder::new()
        .prefix("ocmem-codex-e2e-")
        .tempdir()
        .unwrap();
    let layout = Layout::new(dir.path());
    let server = responses_model::Server::start(Arc::new(script));
    let _keep = KeepOnFailure::new(
        dir,
        &layout,
        ("Codex's home", codex::codex_home(&layout)),
        server.log(),
    );

    let bin = codex::install(&layout, INSTALL_TIMEOUT, deadline);
    demo::write_typescript_project(&layout.demo);
    write(
        &layout.demo,
        ".gitignore",
        "fixed\n.codex/\n.opencode/\nopencode.json\n",
    );
    demo::git_repo(&layout, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
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
    let errors = open_errors(&store);
    assert!(
        errors.len() == 2
            && errors.iter().any(|e| e.contains("TS2345"))
            && errors.iter().any(|e| e.contains(TEST_FAILURE)),
        "after the first turn the typecheck's and the test's errors should be open, and only \
         they (git log adds nothing): {errors:#?}"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !store.to_string().contains(subject),
            "{subject:?} reached the session store"
        );
    }

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
    let listed = section(&latest, "open_errors:");
    assert!(
        listed.iter().any(|e| e.contains("TS2345"))
            && listed.iter().any(|e| e.contains(TEST_FAILURE)),
        "the request after the failing typecheck should carry both open errors:\n{latest}"
    );
    let all = blocks.join("\n");
    assert!(
        all.contains(REMEMBERED),
        "the session's requests lack the rule:\n{all}"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !all.contains(subject),
            "{subject:?} reached ocmem's context:\n{all}"
        );
    }
    let errors = open_errors(&session_store(&layout, &session));
    assert!(
        errors.len() == 1 && errors[0].contains(TEST_FAILURE),
        "after the passing typecheck only the test's error should be open: {errors:#?}"
    );
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
        compaction.last_user_text().contains("Memory candidates:")
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
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0], GOOD_CANDIDATES[1]] {
        assert!(
            context.contains(remembered),
            "the new session lacks {remembered:?}:\n{context}"
        );
    }
    assert!(
        !context.contains("TS2345") && !context.contains(TEST_FAILURE),
        "{context}"
    );

    // ocmem logged no warning, and doctor finds the hooks installed and trusted.
    let warnings = fs::read_to_string(layout.data.join("ocmem.log")).unwrap_or_default();
    assert!(
        warnings.trim().is_empty(),
        "ocmem logged warnings:\n{warnings}"
    );
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
    let system = opencode_system_prompt(&layout, deadline);
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0]] {
        assert!(
            system.contains(remembered),
            "OpenCode's system prompt lacks {remembered:?}:\n{system}"
        );
    }

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
    eprintln!("ocmem codex e2e: passed in {elapsed:.1?}");
    assert!(elapsed < TEST_BUDGET, "took {elapsed:?}");
}
