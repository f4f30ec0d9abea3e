//! End to end: ocmem inside the real OpenCode (opencode-ai@1.18.33), through the plugin
//! `integrations/opencode/ocmem.js`, against a scripted model server of our own.
//!
//! `tests/e2e/install-opencode.sh` installs the pinned OpenCode and the plugin API it would
//! otherwise install at startup into a cache directory (once), and ripgrep (for OpenCode's grep
//! and glob tools). The test then builds a small TypeScript demo repository in a temporary
//! directory, copies the plugin into its `.opencode/plugin/`, seeds OpenCode's config directories
//! with the cached plugin API (`tests/e2e/plugin_deps.rs`), points OpenCode at the scripted
//! OpenAI-compatible server (`tests/e2e/model.rs`, on 127.0.0.1, port chosen at run time) and npm
//! at a registry tripwire, and drives two `opencode run` sessions and an `opencode session
//! delete`, with HOME and the XDG directories inside the temporary directory. It checks what
//! OpenCode sent the model (the system prompt ocmem added at each step, a long bash output cut
//! down by ocmem, the compaction prompt, the plugin's tools), what the plugin's tools answered
//! the model (`hot_state` in the first session; `memory_add` then `memory_search` in the
//! second), what ocmem stored on disk, that OpenCode's own log shows no plugin error, and that
//! OpenCode installed nothing.
//!
//! On failure the temporary directory is kept, and the paths of OpenCode's logs, of the output
//! of every process, of ocmem's data directory and of a dump of the model requests are printed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

mod e2e;

use e2e::demo::{self, write};
use e2e::model::{self, Exchange, Kind, BAD_CANDIDATES, GOOD_CANDIDATES};
use e2e::model::{MANUAL_MEMORY, MANUAL_QUERY, TOOLS_PROMPT};
use e2e::opencode::{self, Installed};
use e2e::plugin_deps::{self, Seeded, Tripwire};
use e2e::process::run;
use e2e::scenario::{
    assert_within, from_ocmem_header, CANDIDATES_HEADER, FIRST_PROMPT, INSTALL_TIMEOUT, REMEMBERED,
    SHORT_TIMEOUT,
};
use e2e::stores::{self, section};
use e2e::workdir::{KeepOnFailure, Layout};

/// The pinned OpenCode release.
const OPENCODE_VERSION: &str = "1.18.33";

/// The tools the plugin gives the agent.
const PLUGIN_TOOLS: [&str; 5] = [
    "memory_search",
    "memory_list",
    "memory_add",
    "memory_forget",
    "hot_state",
];

/// The demo repository's commit subjects: `git log` prints them, and they say "errors".
const COMMIT_SUBJECTS: [&str; 2] = [
    "fix: silence memory load errors in the loader",
    "feat: add error handling",
];

/// The whole test, and each `opencode run`, stay within these, at least three times what they
/// took on a busy two-core machine: the install about a minute cold (once per machine, under a
/// second after), the first `opencode run` up to 33 s, the whole test up to two minutes cold.
const TEST_BUDGET: Duration = Duration::from_secs(480);
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

/// OpenCode's own log directory.
fn opencode_logs(layout: &Layout) -> PathBuf {
    layout.xdg_data.join("opencode/log")
}

// ---------------------------------------------------------------------------------------------
// Setup: OpenCode, the demo repository, the configuration
// ---------------------------------------------------------------------------------------------

/// The demo repository: a TypeScript project whose `npm run typecheck` fails with TS2345 until
/// a file named `fixed` exists and whose `npm test` always fails, two commits whose subjects say
/// "errors", OpenCode's configuration for the scripted model, and the ocmem plugin.
fn make_demo_repo(layout: &Layout, base_url: &str, deadline: Instant) {
    let demo = &layout.demo;
    let ignored = "fixed\n.opencode/\nopencode.json\n";
    demo::typescript_repo(layout, ignored, &COMMIT_SUBJECTS, SHORT_TIMEOUT, deadline);
    write(
        demo,
        "opencode.json",
        &serde_json::to_string_pretty(&opencode::config(base_url)).unwrap(),
    );

    // The real plugin, as a user installs it for one project.
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/opencode/ocmem.js");
    assert!(
        plugin.is_file(),
        "the plugin {} is missing",
        plugin.display()
    );
    fs::create_dir_all(demo.join(".opencode/plugin")).unwrap();
    fs::copy(&plugin, demo.join(".opencode/plugin/ocmem.js")).unwrap();
}

/// `opencode <args>`, isolated (`opencode::isolate`), with no inherited OpenCode, ocmem or npm
/// settings and ocmem's binary named.
fn opencode(layout: &Layout, installed: &Installed, registry: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(&installed.bin);
    cmd.args(args);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let upper = name.to_uppercase();
        if upper.starts_with("OPENCODE")
            || upper.starts_with("OCMEM_")
            || upper.starts_with("NPM_CONFIG_")
        {
            cmd.env_remove(name.as_ref());
        }
    }
    opencode::isolate(&mut cmd, layout, registry).env("OCMEM_BIN", env!("CARGO_BIN_EXE_ocmem"));
    cmd
}

/// The session id in `opencode run --format json` output (every event line carries it).
fn session_id(stdout: &str) -> String {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|event| event["sessionID"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no sessionID in the output of opencode run:\n{stdout}"))
}

// ---------------------------------------------------------------------------------------------
// Reading what ocmem added and stored
// ---------------------------------------------------------------------------------------------

/// The part of a system prompt ocmem added: from its first header to the end.
fn ocmem_block(system: &str) -> &str {
    from_ocmem_header(system).unwrap_or("")
}

/// The one agent step of the first session (before its compaction) that holds `results` tool
/// results.
fn first_session_step(exchanges: &[Exchange], results: usize) -> &Exchange {
    let steps: Vec<&Exchange> = exchanges
        .iter()
        .filter(|e| {
            e.kind == Some(Kind::Agent)
                && e.has_user_text(FIRST_PROMPT)
                && !e.after_compaction()
                && e.tool_results() == results
        })
        .collect();
    assert_eq!(
        steps.len(),
        1,
        "expected one model request of the first session with {results} tool results"
    );
    steps[0]
}

/// The tool named `name` among those a request offered the model (OpenAI's
/// `{"type": "function", "function": {name, description, parameters}}`).
fn offered_tool<'a>(exchange: &'a Exchange, name: &str) -> Option<&'a Value> {
    exchange.body["tools"]
        .as_array()?
        .iter()
        .map(|tool| &tool["function"])
        .find(|function| function["name"] == name)
}

/// The `- mem_…` entry lines of a memory tool's answer.
fn entry_lines(answer: &str) -> Vec<&str> {
    answer
        .lines()
        .filter(|line| line.starts_with("- mem_"))
        .collect()
}

/// Every line of OpenCode's own log, with the file it is in: the log files under its data
/// directory, and the log each `opencode` process printed on stderr (`--print-logs`).
fn opencode_log_lines(layout: &Layout) -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = Vec::new();
    for (dir, prefix) in [
        (opencode_logs(layout), ""),
        (layout.logs.clone(), "opencode-"),
    ] {
        if let Ok(entries) = fs::read_dir(dir) {
            files.extend(entries.flatten().map(|e| e.path()).filter(|path| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                name.starts_with(prefix) && (name.ends_with(".log") || name.ends_with(".stderr"))
            }));
        }
    }
    files.sort();
    let mut lines = Vec::new();
    for file in files {
        if let Ok(text) = fs::read_to_string(&file) {
            lines.extend(text.lines().map(|line| (file.clone(), line.to_string())));
        }
    }
    lines
}

/// Fails if OpenCode installed or tried to install anything: a request reached the registry
/// tripwire, its log reports a dependency install, or a seeded config directory changed.
fn assert_nothing_installed(layout: &Layout, registry: &Tripwire, seeded: &[Seeded]) {
    let requests = registry.requests();
    assert!(
        requests.is_empty(),
        "OpenCode asked the npm registry for: {requests:#?}"
    );
    let installs: Vec<String> = opencode_log_lines(layout)
        .into_iter()
        .filter(|(_, line)| line.contains("dependency install"))
        .map(|(file, line)| format!("{}: {line}", file.display()))
        .collect();
    assert!(
        installs.is_empty(),
        "OpenCode installed dependencies:\n{}",
        installs.join("\n")
    );
    for dir in seeded {
        dir.assert_untouched();
    }
}

/// A log line that reports a problem with the plugin: any error, and any warning about ocmem
/// or a plugin. (The plugin logs through OpenCode, only warnings and errors, and OpenCode's log
/// line does not keep the plugin's service name.)
fn is_plugin_problem(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains("level=error")
        || (lower.contains("level=warn") && (lower.contains("ocmem") || lower.contains("plugin")))
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

#[test]
fn ocmem_gives_opencode_a_working_memory() {
    let started = Instant::now();
    let deadline = started + TEST_BUDGET;
    let (dir, layout) = Layout::temp("ocmem-e2e-");
    let workspace = stores::workspace_dir(&layout);
    let server = model::Server::start(layout.demo.clone());
    let _keep = KeepOnFailure::new(
        dir,
        &layout,
        ("OpenCode logs", opencode_logs(&layout)),
        server.log(),
    );

    let installed = opencode::install(&layout, INSTALL_TIMEOUT, deadline);
    make_demo_repo(&layout, &server.base_url, deadline);
    // What OpenCode would install at startup, in place before it starts; downloads go nowhere.
    let seeded: Vec<Seeded> = opencode::config_dirs(&layout)
        .iter()
        .map(|dir| plugin_deps::seed(dir, &installed.plugin_deps))
        .collect();
    let registry = Tripwire::start();
    let opencode = |args: &[&str]| opencode(&layout, &installed, &registry.url, args);

    let version = run(
        &mut opencode(&["--version"]),
        "opencode-version",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    );
    version.assert_success("opencode --version");
    assert_eq!(version.stdout.trim(), OPENCODE_VERSION);

    // Session 1: the user asks for a fix and states a rule; the model works through the
    // scripted tool calls, answers, and the session is compacted.
    let first = run(
        &mut opencode(&["run", "--format", "json", FIRST_PROMPT]),
        "opencode-run-1",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    );
    first.assert_success("opencode run (first session)");
    assert_nothing_installed(&layout, &registry, &seeded);
    let first_session = session_id(&first.stdout);
    let exchanges = server.exchanges();

    // Every scripted tool call ran and did its work; grep and glob run ripgrep.
    let calls = model::first_session_call_count();
    let results = first_session_step(&exchanges, calls).tool_texts();
    let expected = [
        (3, "add(\"1\", 2)"),
        (4, "Edit applied successfully"),
        (5, "Wrote file successfully"),
        (6, "Found 2 matches"),
        (7, "src/util.ts"),
        (8, "no errors"),
    ];
    for (i, needle) in expected {
        assert!(
            results[i].contains(needle),
            "the result of tool call {} lacks {needle:?}: {:?}",
            i + 1,
            results[i]
        );
    }

    // OpenCode offers the model the plugin's tools, with their optional arguments: it loaded
    // them with the plugin API's schemas, not as plain JSON Schema.
    let step = first_session_step(&exchanges, 0);
    for name in PLUGIN_TOOLS {
        let tool = offered_tool(step, name)
            .unwrap_or_else(|| panic!("OpenCode did not offer the model the tool {name}"));
        assert!(
            tool["description"].as_str().is_some_and(|d| d.len() > 40),
            "{tool}"
        );
    }
    let search = &offered_tool(step, "memory_search").unwrap()["parameters"];
    assert_eq!(search["required"], serde_json::json!(["query"]), "{search}");
    assert_eq!(search["properties"]["limit"]["type"], "integer", "{search}");
    let add = &offered_tool(step, "memory_add").unwrap()["parameters"];
    assert_eq!(add["required"], serde_json::json!(["text"]), "{add}");
    assert!(add["properties"]["type"]["enum"].is_array(), "{add}");

    // The first step already lists what the user asked to remember, and asks the agent to
    // save with memory_add whatever else the user asked it to remember.
    let block = ocmem_block(&step.system()).to_string();
    let pending = section(&block, "pending_memories:");
    assert!(
        pending.iter().any(|line| line.contains(REMEMBERED))
            && pending.iter().any(|line| line.contains("memory_add")),
        "the first request's system prompt does not list the explicit memory and the line for \
         the agent:\n{block}"
    );

    // After the failing `npm run typecheck`: the TS error is an open error.
    let step = first_session_step(&exchanges, 1);
    let after_typecheck = ocmem_block(&step.system()).to_string();
    let errors = section(&after_typecheck, "open_errors:");
    assert!(
        errors.len() == 1 && errors[0].contains("TS2345"),
        "after the failing typecheck, the system prompt should name TS2345:\n{after_typecheck}"
    );

    // After `git log`, whose subjects say "errors": nothing added, the block is unchanged.
    let step = first_session_step(&exchanges, 2);
    let system = step.system();
    assert_eq!(
        ocmem_block(&system),
        after_typecheck,
        "git log changed what ocmem shows"
    );
    for subject in COMMIT_SUBJECTS {
        assert!(
            !system.contains(subject),
            "the commit subject {subject:?} reached the system prompt:\n{system}"
        );
    }

    // After the failing `npm test`: both errors.
    let step = first_session_step(&exchanges, 3);
    let block = ocmem_block(&step.system()).to_string();
    let errors = section(&block, "open_errors:");
    assert!(
        errors.iter().any(|e| e.contains("TS2345"))
            && errors.iter().any(|e| e.contains("not ok 1 - adds numbers")),
        "after the failing test, both errors should be open:\n{block}"
    );

    // After `touch fixed && npm run typecheck` passes: the TS error is gone, the test's stays,
    // and the files the model read, edited and wrote are active.
    let step = first_session_step(&exchanges, calls);
    let block = ocmem_block(&step.system()).to_string();
    assert!(
        !block.contains("TS2345"),
        "the passing typecheck should clear TS2345:\n{block}"
    );
    let errors = section(&block, "open_errors:");
    assert!(
        errors.iter().any(|e| e.contains("not ok 1 - adds numbers")
            || e.contains("AssertionError [ERR_ASSERTION]: 3 == 4")),
        "the failing test should still be open:\n{block}"
    );
    let files = section(&block, "active_files:");
    for file in ["src/index.ts", "src/util.ts"] {
        assert!(
            files.iter().any(|line| line.contains(file)),
            "{file} should be an active file:\n{block}"
        );
    }

    // The long output reached the model cut down, ending with where the whole of it is.
    let long = &results[calls - 2];
    assert!(
        long.contains(model::LONG_OUTPUT_ERROR) && !long.contains(model::LONG_OUTPUT_OMITTED),
        "the long output was not cut down to its error line:\n{long}"
    );
    assert!(long.len() < 2_000, "{} bytes reached the model", long.len());
    let last = long.lines().last().unwrap_or_default();
    let saved = last
        .split(" is saved at ")
        .nth(1)
        .and_then(|rest| rest.split(": read it").next())
        .unwrap_or_else(|| panic!("the long output does not end with where it is saved: {last}"));
    assert!(
        Path::new(saved).starts_with(workspace.join("outputs")),
        "saved at {saved}"
    );
    let saved_output = PathBuf::from(saved);
    let whole = fs::read_to_string(&saved_output).unwrap();
    assert_eq!(whole.lines().count(), 1201, "{saved}");
    assert!(whole.contains(model::LONG_OUTPUT_OMITTED));

    // The model's last call, the plugin's hot_state tool, answered with the same state.
    let hot = &results[calls - 1];
    assert!(
        hot.starts_with("Hot session state"),
        "hot_state answered {hot:?}"
    );
    let errors = section(hot, "open_errors:");
    assert!(
        errors.iter().any(|e| e.contains("not ok 1 - adds numbers")
            || e.contains("AssertionError [ERR_ASSERTION]: 3 == 4")),
        "hot_state should name the failing test:\n{hot}"
    );
    assert!(
        !hot.contains("TS2345"),
        "hot_state shows a cleared error:\n{hot}"
    );
    let files = section(hot, "active_files:");
    for file in ["src/index.ts", "src/util.ts"] {
        assert!(
            files.iter().any(|line| line.contains(file)),
            "hot_state should name {file}:\n{hot}"
        );
    }

    // The compaction: OpenCode asked for one summary, and its prompt carries ocmem's request
    // for memory candidates (the `experimental.session.compacting` hook).
    let summaries: Vec<&Exchange> = exchanges
        .iter()
        .filter(|e| e.kind == Some(Kind::Summary))
        .collect();
    assert_eq!(summaries.len(), 1, "expected one compaction request");
    assert!(
        summaries[0]
            .user_texts()
            .iter()
            .any(|t| t.contains(CANDIDATES_HEADER)),
        "the compaction prompt lacks ocmem's `Memory candidates:` instructions"
    );
    assert!(
        exchanges
            .iter()
            .any(|e| e.kind == Some(Kind::Agent) && e.after_compaction()),
        "OpenCode did not continue after the compaction"
    );

    // Workspace memory: the explicit rule, the good candidates; not the commit subject, not the
    // raw error.
    stores::assert_workspace_memory(
        &stores::memory_entries(&workspace),
        REMEMBERED,
        &GOOD_CANDIDATES,
        &BAD_CANDIDATES,
    );
    let first_store = stores::session_file(&workspace, &first_session);
    assert!(
        first_store.is_file(),
        "no session store {}",
        first_store.display()
    );

    // Session 2, same directory: its first request's system prompt carries workspace memory;
    // then the model uses the plugin's memory tools.
    let second = run(
        &mut opencode(&["run", "--format", "json", TOOLS_PROMPT]),
        "opencode-run-2",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    );
    second.assert_success("opencode run (second session)");
    let second_session = session_id(&second.stdout);
    assert_ne!(first_session, second_session);
    let exchanges = server.exchanges();
    let second_step = |results: usize| {
        exchanges
            .iter()
            .find(|e| {
                e.kind == Some(Kind::Agent)
                    && e.has_user_text(TOOLS_PROMPT)
                    && e.tool_results() == results
            })
            .unwrap_or_else(|| {
                panic!("no model request of the second session with {results} tool results")
            })
    };
    let step = second_step(0);
    let system = step.system();
    let block = ocmem_block(&system);
    for remembered in [REMEMBERED, GOOD_CANDIDATES[0], GOOD_CANDIDATES[1]] {
        assert!(
            block.contains(remembered),
            "the second session's system prompt lacks {remembered:?}:\n{block}"
        );
    }
    assert!(
        !system.contains("TS2345") && !system.contains("not ok 1"),
        "the first session's errors leaked into the second:\n{block}"
    );

    // The model called memory_add, then memory_search twice: what ocmem stored, and what the
    // tools answered.
    let answers = second_step(model::tools_session_calls().len()).tool_texts();
    let entries = stores::memory_entries(&workspace);
    let manual = stores::active_entry(&entries, MANUAL_MEMORY)
        .unwrap_or_else(|| panic!("memory_add stored no {MANUAL_MEMORY:?}: {entries:#?}"));
    assert_eq!(manual["source"], "manual", "{manual}");
    assert_eq!(manual["type"], "decision", "{manual}");
    let id = manual["id"].as_str().unwrap();
    assert_eq!(
        answers[0],
        format!("Remembered in project memory: {id} [decision] {MANUAL_MEMORY} (manual). New sessions show it."),
    );
    let found = entry_lines(&answers[1]);
    assert!(
        found.len() == 1 && found[0].starts_with(&format!("- {id} [decision] {MANUAL_MEMORY}")),
        "memory_search {MANUAL_QUERY:?} answered:\n{}",
        answers[1]
    );
    let found = entry_lines(&answers[2]);
    assert_eq!(found.len(), 2, "limit 2:\n{}", answers[2]);
    assert!(
        found.iter().all(|line| line.contains("typecheck")) && !answers[2].contains(MANUAL_MEMORY),
        "memory_search \"typecheck\" answered:\n{}",
        answers[2]
    );
    // The agent saved again what ocmem had captured from the user: one entry still.
    assert!(
        answers[3].starts_with("Already remembered: "),
        "memory_add of the captured memory answered:\n{}",
        answers[3]
    );
    let entries = stores::memory_entries(&workspace);
    let saved_twice = entries
        .iter()
        .filter(|entry| {
            entry["text"]
                .as_str()
                .is_some_and(|t| t.contains(REMEMBERED))
        })
        .count();
    assert_eq!(saved_twice, 1, "{entries:#?}");

    // Deleting the first session removes its store, and only its store.
    run(
        &mut opencode(&["session", "delete", &first_session]),
        "opencode-session-delete",
        &layout.logs,
        SHORT_TIMEOUT,
        deadline,
    )
    .assert_success("opencode session delete");
    assert!(
        !first_store.exists(),
        "{} should be gone after `opencode session delete`",
        first_store.display()
    );
    assert!(
        !saved_output.exists(),
        "{} should be gone with its session",
        saved_output.display()
    );
    assert!(
        stores::session_file(&workspace, &second_session).is_file(),
        "the second session's store should remain"
    );
    assert!(
        stores::active_entry(&stores::memory_entries(&workspace), REMEMBERED).is_some(),
        "deleting a session must not touch workspace memory"
    );

    // OpenCode's own log shows no plugin problem. OpenCode 1.18.33 buffers its log file and
    // loses what a process wrote last when it exits (a short `opencode session delete` leaves
    // nothing there), so every run also prints its log on stderr, kept next to its stdout.
    let lines = opencode_log_lines(&layout);
    assert!(
        lines.iter().any(|(_, line)| line.contains("level=INFO")),
        "no OpenCode log lines under {} or {}",
        opencode_logs(&layout).display(),
        layout.logs.display()
    );
    let problems: Vec<String> = lines
        .iter()
        .filter(|(_, line)| is_plugin_problem(line))
        .map(|(file, line)| format!("{}: {line}", file.display()))
        .collect();
    assert!(
        problems.is_empty(),
        "OpenCode's log reports problems:\n{}",
        problems.join("\n")
    );

    assert_nothing_installed(&layout, &registry, &seeded);

    assert_within(started, TEST_BUDGET, "ocmem e2e");
}
