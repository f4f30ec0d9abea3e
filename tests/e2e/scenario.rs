//! The scenario the hosts' end-to-end tests play, and the steps and checks more than one of them
//! takes: the user's messages, the rule the first one asks to remember, the demo's commits, the
//! compaction candidates, the time limits; running ocmem in the demo repository; finding a model
//! request; and what the session store and the next session must hold.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::demo::TEST_FAILURE;
use super::stores::{section, OCMEM_HEADERS};
use super::workdir::{Layout, Recorded};
use super::{anthropic_model, responses_model};

/// The user's first message: a task, and a rule to remember.
pub const FIRST_PROMPT: &str =
    "please fix the typecheck. remember this: always run npm run typecheck before committing";
/// The user's next message in the same session.
pub const CONTINUE_PROMPT: &str = "go on and fix the type error";
/// The user's last message in the first session, once it was compacted.
pub const THANKS_PROMPT: &str = "thanks";
/// The user's message in a later session, in the host and in OpenCode.
pub const SECOND_PROMPT: &str = "what should I keep in mind when I change this repository?";
/// The user's message in the session whose hooks name a missing binary, and the answer.
pub const MISSING_PROMPT: &str = "are you still there?";
pub const MISSING_ANSWER: &str = "Still here, hooks or not.";
/// What the first message asks to remember.
pub const REMEMBERED: &str = "always run npm run typecheck before committing";

/// The demo repository's commit subjects: `git log` prints them, and they say "errors".
pub const COMMIT_SUBJECTS: [&str; 2] = [
    "fix: silence memory load errors in the loader",
    "feat: report parse errors with their line",
];

/// The compaction candidates the host's scripted summary proposes: two that belong in workspace
/// memory, and junk: progress narration, a commit hash, a test count.
pub const GOOD_CANDIDATES: [&str; 2] = [
    "Use npm scripts for typecheck because the CI calls them directly",
    "This repo is a TypeScript demo whose typecheck runs through check.js",
];
pub const BAD_CANDIDATES: [&str; 3] = [
    "Fixed the argument type in src/index.ts so the typecheck passes",
    "The fix landed as commit 4c3d2e1 on the main branch",
    "41 tests pass and the adder test fails on main",
];
/// Marks the scripted compaction summary, and so a request made after it.
pub const SUMMARY_MARK: &str = "Current Work: the typecheck of the demo passes";
/// What ocmem asks the summariser for, and the line that starts a summary's candidate block.
pub const CANDIDATES_HEADER: &str = "Memory candidates:";

/// Every process and the whole test stay within these, at least three times what they took on a
/// busy two-core machine.
pub const TEST_BUDGET: Duration = Duration::from_secs(540);
pub const INSTALL_TIMEOUT: Duration = Duration::from_secs(300);
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);
pub const SHORT_TIMEOUT: Duration = Duration::from_secs(30);

/// The candidate lines of the scripted compaction summary, each under its type: the good
/// candidates (a decision, a project fact) and the junk.
pub fn candidate_lines() -> String {
    let lines = [
        ("decision", GOOD_CANDIDATES[0]),
        ("project", GOOD_CANDIDATES[1]),
        ("project", BAD_CANDIDATES[0]),
        ("project", BAD_CANDIDATES[1]),
        ("project", BAD_CANDIDATES[2]),
    ];
    lines
        .iter()
        .map(|(kind, candidate)| format!("- [{kind}] {candidate}\n"))
        .collect()
}

/// `ocmem <args>` in the demo repository, with nothing of the test's environment but PATH, and
/// the test's HOME and ocmem data directory.
pub fn ocmem(layout: &Layout, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ocmem"));
    cmd.args(args)
        .current_dir(&layout.demo)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &layout.home)
        .env("OCMEM_DATA_DIR", &layout.data);
    cmd
}

/// `ocmem <args>` as `ocmem` runs it, with the test's XDG config and data directories too.
pub fn ocmem_with_xdg(layout: &Layout, args: &[&str]) -> Command {
    let mut cmd = ocmem(layout, args);
    cmd.env("XDG_CONFIG_HOME", &layout.xdg_config)
        .env("XDG_DATA_HOME", &layout.xdg_data);
    cmd
}

/// A model request of a host that compacts by asking the model for a summary.
pub trait ModelRequest {
    fn has_user_text(&self, needle: &str) -> bool;
    fn is_compaction(&self) -> bool;
}

impl ModelRequest for anthropic_model::Exchange {
    fn has_user_text(&self, needle: &str) -> bool {
        anthropic_model::Exchange::has_user_text(self, needle)
    }

    fn is_compaction(&self) -> bool {
        anthropic_model::is_compaction(self)
    }
}

impl ModelRequest for responses_model::Exchange {
    fn has_user_text(&self, needle: &str) -> bool {
        responses_model::Exchange::has_user_text(self, needle)
    }

    fn is_compaction(&self) -> bool {
        responses_model::Exchange::is_compaction(self)
    }
}

/// The first model request (not a compaction) that carries `prompt` and no text of `unless`.
pub fn first_request_with<'a, E: ModelRequest>(
    exchanges: &'a [E],
    prompt: &str,
    unless: &[&str],
) -> &'a E {
    exchanges
        .iter()
        .find(|e| {
            e.has_user_text(prompt)
                && !e.is_compaction()
                && unless.iter().all(|u| !e.has_user_text(u))
        })
        .unwrap_or_else(|| panic!("no model request carries {prompt:?}"))
}

/// `text` from the first of ocmem's headers on, if it holds one.
pub fn from_ocmem_header(text: &str) -> Option<&str> {
    OCMEM_HEADERS
        .iter()
        .filter_map(|header| text.find(header))
        .min()
        .map(|start| &text[start..])
}

/// Fails unless exactly the typecheck's and the test's errors are open after the first turn
/// (`errors`, of the session store `store`), and no commit subject reached the store.
pub fn assert_first_turn_errors(store: &Value, errors: &[String]) {
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
}

/// Fails unless the request after the failing typecheck and test lists both errors in what
/// ocmem rendered last (`latest`), and what ocmem added to it (`all`) holds the rule to remember
/// and no commit subject.
pub fn assert_both_errors_and_the_rule(latest: &str, all: &str) {
    let listed = section(latest, "open_errors:");
    assert!(
        listed.iter().any(|e| e.contains("TS2345"))
            && listed.iter().any(|e| e.contains(TEST_FAILURE)),
        "the request after the failing typecheck should carry both open errors:\n{latest}"
    );
    assert!(
        all.contains(REMEMBERED),
        "the requests of session 1 should carry the rule to remember:\n{all}"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !all.contains(subject),
            "the commit subject {subject:?} reached ocmem's context:\n{all}"
        );
    }
}

/// Fails unless only the test's error is open (`errors`), the passing typecheck having cleared
/// its own.
pub fn assert_only_the_test_failure_open(errors: &[String]) {
    assert!(
        errors.len() == 1 && errors[0].contains(TEST_FAILURE),
        "after the passing typecheck only the test's error should be open: {errors:#?}"
    );
}

/// Fails unless what ocmem added to a new session's first request (`context`) holds workspace
/// memory and none of the first session's errors.
pub fn assert_new_session_context(context: &str) {
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
}

/// Fails if ocmem logged a warning (it never fails a hook, but logs every warning it prints).
pub fn assert_no_ocmem_warnings(layout: &Layout) {
    let warnings = fs::read_to_string(layout.data.join("ocmem.log")).unwrap_or_default();
    assert!(
        warnings.trim().is_empty(),
        "ocmem logged warnings during the sessions:\n{warnings}"
    );
}

/// Makes the hook settings at `settings` name `missing` instead of ocmem's binary.
pub fn name_missing_binary(settings: &Path, missing: &Path) {
    let text = fs::read_to_string(settings).unwrap();
    fs::write(
        settings,
        text.replace(env!("CARGO_BIN_EXE_ocmem"), &missing.to_string_lossy()),
    )
    .unwrap();
}

/// Fails if the scripted server was asked for anything it does not serve.
pub fn assert_all_served<E: Recorded>(exchanges: &[E]) {
    let unserved: Vec<String> = exchanges
        .iter()
        .filter(|e| e.unserved())
        .map(Recorded::request_line)
        .collect();
    assert!(
        unserved.is_empty(),
        "requests the scripted API does not serve: {unserved:?}"
    );
}

/// Reports the time the scenario took since `started`, and fails if it overran `budget`.
pub fn assert_within(started: Instant, budget: Duration, name: &str) {
    let elapsed = started.elapsed();
    eprintln!("{name}: passed in {elapsed:.1?}");
    assert!(elapsed < budget, "took {elapsed:?}");
}
