//! End to end: ocmem inside the real Gemini CLI (@google/gemini-cli@0.61.0), installed with
//! `ocmem init gemini`, against a scripted Gemini API of our own.
//!
//! `tests/e2e/install-gemini.sh` installs the pinned Gemini CLI into a cache directory (once).
//! The test builds the small TypeScript demo repository in a temporary directory, runs `ocmem
//! init gemini` there (the hooks go into `.gemini/settings.json`, naming the built binary), and
//! drives `gemini --yolo -p` processes (one prompt each; `--resume latest` continues a session)
//! with HOME and the XDG directories inside the temporary directory and the scripted server
//! (`tests/e2e/gemini_model.rs`, on 127.0.0.1) as the API. It checks what Gemini CLI sent the
//! model (the context ocmem's hooks added), what ocmem stored on disk, that nothing went wrong in
//! a hook, and that a session still completes when the binary named in the settings is gone.
//!
//! On failure the temporary directory is kept, and the paths of the output of every process, of
//! ocmem's data directory and of a dump of the model requests are printed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

mod e2e;

use e2e::demo::{self, write, TEST_FAILURE};
use e2e::gemini_model::{turn, Exchange, Reply};
use e2e::process::run;
use e2e::scenario::*;
use e2e::stores::{memory_entries, workspace_dir, OCMEM_HEADERS};
use e2e::workdir::{KeepOnFailure, Layout};
use e2e::{anthropic_model, claude_code, gemini, gemini_model, process, stores};

/// Prompt tokens reported with the edit: over half the model's window
/// (`model.compressionThreshold` is 0.5), so Gemini CLI compresses before its next request.
const FULL_CONTEXT: u64 = 600_000;

/// The calls of each prompt's turn, in order, and its final answer.
fn turn_script(prompt: &str, demo: &Path) -> (Vec<(&'static str, Value)>, &'static str) {
    let shell = |command: &str| json!({"command": command, "description": "run"});
    match prompt {
        FIRST_PROMPT => (
            vec![
                ("run_shell_command", shell("npm run typecheck")),
                ("run_shell_command", shell("git log --oneline -5")),
                ("run_shell_command", shell("npm test")),
            ],
            "The typecheck and the test fail.",
        ),
        CONTINUE_PROMPT => {
            let file = demo.join("src/index.ts").to_string_lossy().into_owned();
            (
                vec![
                    ("read_file", json!({"file_path": file})),
                    (
                        "replace",
                        json!({"file_path": file, "instruction": "Pass numbers.",
                               "old_string": "add(\"1\", 2)", "new_string": "add(1, 2)"}),
                    ),
                    (
                        "run_shell_command",
                        shell("touch fixed && npm run typecheck"),
                    ),
                ],
                "The typecheck passes now.",
            )
        }
        SECOND_PROMPT => (Vec::new(), "Run the typecheck before committing."),
        THANKS_PROMPT => (Vec::new(), "You're welcome."),
        _ => (Vec::new(), MISSING_ANSWER),
    }
}

fn script(demo: &Path) -> impl Fn(&Value) -> Reply + Send + Sync + 'static {
    let demo = demo.to_path_buf();
    move |body: &Value| {
        let prompts = [
            FIRST_PROMPT,
            CONTINUE_PROMPT,
            THANKS_PROMPT,
            SECOND_PROMPT,
            MISSING_PROMPT,
        ];
        let Some((prompt, done)) = turn(body, &prompts) else {
            return Reply::Unserved;
        };
        let (calls, answer) = turn_script(prompt, &demo);
        match calls.into_iter().nth(done) {
            Some((name, args)) => Reply::Call {
                // Unique in the session: the turn's place in the script, and the step.
                id: format!(
                    "call_{}_{done}",
                    prompts.iter().position(|p| *p == prompt).unwrap()
                ),
                prompt_tokens: if name == "replace" {
                    FULL_CONTEXT
                } else {
                    1_200
                },
                name: name.to_string(),
                args,
            },
            None => Reply::Text(answer.to_string()),
        }
    }
}

/// The one session store of the workspace (a Gemini session keeps its id when resumed).
fn session_store(layout: &Layout) -> Value {
    let dir = workspace_dir(layout).join("sessions");
    let stores: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no session stores in {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(stores.len(), 1, "{stores:?}");
    serde_json::from_slice(&fs::read(&stores[0]).unwrap()).unwrap()
}

fn open_errors(store: &Value) -> Vec<String> {
    store["openErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "[{}] {}",
                e["category"].as_str().unwrap(),
                e["summary"].as_str().unwrap()
            )
        })
        .collect()
}

/// The text parts of a request that ocmem's hooks added (they start with one of its headers).
fn ocmem_texts(exchange: &Exchange) -> Vec<String> {
    exchange
        .user_texts()
        .into_iter()
        .filter(|t| OCMEM_HEADERS.iter().any(|h| t.contains(h)))
        .collect()
}

/// The first streamed request of `prompt`'s turn.
fn first_request(exchanges: &[Exchange], prompt: &str) -> Exchange {
    exchanges
        .iter()
        .find(|e| turn(&e.body, &[prompt]) == Some((prompt, 0)))
        .cloned()
        .unwrap_or_else(|| panic!("no model request for {prompt:?}"))
}

struct Gemini<'a> {
    layout: &'a Layout,
    entry: PathBuf,
    base_url: String,
    deadline: Instant,
}

impl Gemini<'_> {
    fn run(&self, name: &str, args: &[&str]) -> process::Finished {
        let finished = run(
            &mut gemini::gemini(self.layout, &self.entry, &self.base_url, args),
            name,
            &self.layout.logs,
            RUN_TIMEOUT,
            self.deadline,
        );
        finished.assert_success(name);
        // Gemini CLI reports a failed hook (an exit status other than 0) on stderr.
        assert!(
            !finished.stderr.contains("failed for event"),
            "{name}: a hook failed:\n{}",
            finished.stderr
        );
        finished
    }
}

/// One `claude -p SECOND_PROMPT` in the demo repository, with the hooks `ocmem init claude-code
/// --project` installs, the same ocmem data directory and a scripted Anthropic API that only
/// answers. Returns the text of its first model request (system prompt and messages).
fn claude_code_first_context(layout: &Layout, deadline: Instant) -> String {
    let bin = claude_code::install(layout, INSTALL_TIMEOUT, deadline);
    let server = anthropic_model::Server::start(Arc::new(|_: &anthropic_model::Exchange| {
        anthropic_model::Reply::text("Run the typecheck before committing.")
    }));
    run(
        &mut ocmem(layout, &["init", "claude-code", "--project"]),
        "ocmem-init-claude-code",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    )
    .assert_success("ocmem init claude-code --project");
    let permissions = claude_code::write_permissions(layout);
    let base_url = &server.base_url;
    run(
        &mut claude_code::claude_p(layout, &bin, base_url, SECOND_PROMPT, &permissions, &[]),
        "claude-session",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    )
    .assert_success("claude -p");
    let exchanges = server.exchanges();
    let first = exchanges
        .iter()
        .find(|e| e.is_message() && e.has_user_text(SECOND_PROMPT))
        .unwrap_or_else(|| panic!("Claude Code sent no request with the prompt"));
    let mut texts = vec![first.system()];
    texts.extend(first.texts().into_iter().map(|(_, text)| text));
    texts.join("\n")
}

#[test]
fn ocmem_gives_gemini_cli_a_working_memory() {
    let deadline = Instant::now() + TEST_BUDGET;
    let (tmp, layout) = Layout::temp("ocmem-gemini-e2e-");
    let server = gemini_model::Server::start(Arc::new(script(&layout.demo)));
    let _keep = KeepOnFailure::new(
        tmp,
        &layout,
        ("Gemini CLI's directory", layout.home.join(".gemini")),
        server.log(),
    );
    let entry = gemini::install(&layout, INSTALL_TIMEOUT, deadline);
    let ignored = "fixed\n.gemini/\n.claude/\n";
    demo::typescript_repo(&layout, ignored, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
    write(
        &layout.home,
        ".gemini/settings.json",
        &serde_json::to_string_pretty(&gemini::user_settings()).unwrap(),
    );
    run(
        &mut ocmem(&layout, &["init", "gemini", "--project"]),
        "ocmem-init-gemini",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    )
    .assert_success("ocmem init gemini --project");
    let gemini = Gemini {
        layout: &layout,
        entry,
        base_url: server.base_url.clone(),
        deadline,
    };

    // Session 1: the failing typecheck and test open errors; git log's "errors" opens nothing.
    gemini.run("gemini-1", &["--yolo", "-p", FIRST_PROMPT]);
    let store = session_store(&layout);
    let errors = open_errors(&store);
    assert!(errors.iter().any(|e| e.contains("TS2345")), "{errors:?}");
    assert!(
        errors.iter().any(|e| e.contains(TEST_FAILURE)),
        "{errors:?}"
    );
    assert!(
        !errors
            .iter()
            .any(|e| e.contains("errors in the loader") || e.contains("parse errors")),
        "{errors:?}"
    );
    let entries = memory_entries(&workspace_dir(&layout));
    assert!(
        stores::active_entry(&entries, REMEMBERED).is_some_and(|e| e["source"] == "explicit"),
        "{entries:#?}"
    );

    // The same session resumed: its first request carries the hot state with both errors.
    gemini.run(
        "gemini-2",
        &["--yolo", "--resume", "latest", "-p", CONTINUE_PROMPT],
    );
    let exchanges = server.exchanges();
    let resumed = ocmem_texts(&first_request(&exchanges, CONTINUE_PROMPT)).join("\n");
    assert!(
        resumed.contains("TS2345") && resumed.contains(TEST_FAILURE),
        "{resumed}"
    );
    assert!(resumed.contains(REMEMBERED), "{resumed}");
    // The passing typecheck cleared its error; the failing test stays.
    let errors = open_errors(&session_store(&layout));
    assert!(!errors.iter().any(|e| e.contains("TS2345")), "{errors:?}");
    assert!(
        errors.iter().any(|e| e.contains(TEST_FAILURE)),
        "{errors:?}"
    );
    assert!(layout.demo.join("fixed").exists());
    // Gemini CLI compressed the history after the edit; the transcript says so, and the resumed
    // session's start (which shows the whole block) takes that compression as seen.
    let exchanges = server.exchanges();
    assert!(
        exchanges
            .iter()
            .any(|e| matches!(e.reply, Reply::Summary(_))),
        "Gemini CLI did not compress"
    );
    assert!(session_store(&layout)["seenCompression"].is_null());
    gemini.run(
        "gemini-2b",
        &["--yolo", "--resume", "latest", "-p", THANKS_PROMPT],
    );
    let seen = session_store(&layout)["seenCompression"].clone();
    assert!(
        seen.is_string(),
        "the compression was not found in the transcript"
    );
    let thanks = ocmem_texts(&first_request(&server.exchanges(), THANKS_PROMPT)).join("\n");
    assert!(thanks.contains(REMEMBERED), "{thanks}");

    // A new session: the rule is in its first request, no error of the other session.
    gemini.run("gemini-3", &["--yolo", "-p", SECOND_PROMPT]);
    let exchanges = server.exchanges();
    let fresh = ocmem_texts(&first_request(&exchanges, SECOND_PROMPT)).join("\n");
    assert!(fresh.contains(REMEMBERED), "{fresh}");
    assert!(!fresh.contains(TEST_FAILURE), "{fresh}");

    // Nothing went wrong in a hook, and every request was one the script serves.
    assert_all_served(&exchanges);
    let log = layout.data.join("ocmem.log");
    assert!(
        !log.exists(),
        "{}",
        fs::read_to_string(&log).unwrap_or_default()
    );

    // A Claude Code session of the same repository starts with what Gemini's sessions left.
    let claude_block = claude_code_first_context(&layout, deadline);
    assert!(claude_block.contains(REMEMBERED), "{claude_block}");

    // The settings naming a binary that does not exist: Gemini CLI still answers.
    let missing = layout.root.join("gone/ocmem");
    name_missing_binary(&layout.demo.join(".gemini/settings.json"), &missing);
    let out = gemini.run("gemini-missing", &["--yolo", "-p", MISSING_PROMPT]);
    assert!(out.stdout.contains(MISSING_ANSWER), "{}", out.stdout);
}
