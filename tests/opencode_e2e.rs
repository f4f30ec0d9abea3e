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
//! OpenCode sent the model (the system prompt ocmem added at each step, the compaction prompt),
//! what ocmem stored on disk, that OpenCode's own log shows no plugin error, and that OpenCode
//! installed nothing.
//!
//! On failure the temporary directory is kept, and the paths of OpenCode's logs, of the output
//! of every process, of ocmem's data directory and of a dump of the model requests are printed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;

/// The pinned OpenCode release.
const OPENCODE_VERSION: &str = "1.18.33";

/// The user's message in the first session: a task, and a rule to remember.
const FIRST_PROMPT: &str =
    "please fix the typecheck. remember this: always run npm run typecheck before committing";
/// The user's message in the second session, in the same directory.
const SECOND_PROMPT: &str = "what should I keep in mind when I change this repository?";
/// What the first message asks to remember.
const REMEMBERED: &str = "always run npm run typecheck before committing";

/// The compiler error `npm run typecheck` prints until the file `fixed` exists.
const TS_ERROR: &str = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not \
                        assignable to parameter of type 'number'.";
/// The demo repository's commit subjects: `git log` prints them, and they say "errors".
const COMMIT_SUBJECTS: [&str; 2] = [
    "fix: silence memory load errors in the loader",
    "feat: add error handling",
];

/// The compaction candidates the scripted summary proposes: two that belong in workspace memory,
/// a commit subject and a raw error that do not.
const GOOD_CANDIDATES: [&str; 2] = [
    "Use npm scripts for typecheck because the CI calls them directly",
    "This repo is a TypeScript demo with strict typecheck via check.js",
];
const BAD_CANDIDATES: [&str; 2] = [
    "fix: add new feature",
    "TypeError: Cannot read property 'x' of undefined",
];

/// Every process and the whole test stay within these, at least three times what they took on a
/// busy two-core machine: the install about a minute cold (once per machine, under a second
/// after), the first `opencode run` up to 33 s, the whole test up to two minutes cold.
const TEST_BUDGET: Duration = Duration::from_secs(480);
const INSTALL_TIMEOUT: Duration = Duration::from_secs(300);
const RUN_TIMEOUT: Duration = Duration::from_secs(90);
const SHORT_TIMEOUT: Duration = Duration::from_secs(30);

#[path = "e2e/http.rs"]
mod http;
/// The scripted model server.
#[path = "e2e/model.rs"]
mod model;
/// The plugin API OpenCode would install, seeded, and the registry tripwire.
#[path = "e2e/plugin_deps.rs"]
mod plugin_deps;
#[path = "e2e/process.rs"]
mod process;

use model::{Exchange, Kind};
use plugin_deps::{Seeded, Tripwire};
use process::run;

// ---------------------------------------------------------------------------------------------
// The temporary directory, kept on failure
// ---------------------------------------------------------------------------------------------

/// Where everything of one run lives, all inside one temporary directory.
struct Layout {
    root: PathBuf,
    home: PathBuf,
    xdg_config: PathBuf,
    xdg_data: PathBuf,
    xdg_cache: PathBuf,
    xdg_state: PathBuf,
    tmp: PathBuf,
    /// ocmem's data directory (`OCMEM_DATA_DIR`).
    data: PathBuf,
    /// The stdout and stderr of every process the test runs.
    logs: PathBuf,
    /// The demo repository.
    demo: PathBuf,
}

impl Layout {
    fn new(root: &Path) -> Layout {
        let root = root.canonicalize().unwrap();
        let home = root.join("home");
        let layout = Layout {
            xdg_config: home.join(".config"),
            xdg_data: home.join(".local/share"),
            xdg_cache: home.join(".cache"),
            xdg_state: home.join(".local/state"),
            tmp: root.join("tmp"),
            data: root.join("ocmem-data"),
            logs: root.join("logs"),
            demo: root.join("demo"),
            home,
            root,
        };
        for dir in [
            &layout.xdg_config,
            &layout.xdg_data,
            &layout.xdg_cache,
            &layout.xdg_state,
            &layout.tmp,
            &layout.logs,
            &layout.demo,
        ] {
            fs::create_dir_all(dir).unwrap();
        }
        layout
    }

    fn opencode_logs(&self) -> PathBuf {
        self.xdg_data.join("opencode/log")
    }

    /// The config directories OpenCode reads here, each of which it installs its plugin API
    /// into: its global one and the demo repository's `.opencode/` (`~/.opencode` does not
    /// exist, and `OPENCODE_CONFIG_DIR` is not set).
    fn opencode_config_dirs(&self) -> [PathBuf; 2] {
        [
            self.xdg_config.join("opencode"),
            self.demo.join(".opencode"),
        ]
    }
}

/// Owns the temporary directory. When the test fails (a panic unwinds through it), it keeps the
/// directory, writes the model requests to `model-requests.json`, and prints where to look.
struct KeepOnFailure {
    dir: Option<TempDir>,
    root: PathBuf,
    notes: Vec<(&'static str, PathBuf)>,
    requests: Arc<Mutex<Vec<Exchange>>>,
}

impl Drop for KeepOnFailure {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return; // the TempDir is removed
        }
        if let Some(dir) = self.dir.take() {
            let _ = dir.keep();
        }
        let requests = match self.requests.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let dump: Vec<Value> = requests
            .iter()
            .map(|e| {
                json!({"method": e.method, "path": e.path, "kind": e.kind.map(|k| format!("{k:?}")),
                       "reply": e.reply, "body": e.body})
            })
            .collect();
        let dump_path = self.root.join("model-requests.json");
        let _ = fs::write(
            &dump_path,
            serde_json::to_string_pretty(&dump).unwrap_or_default(),
        );

        eprintln!("\nocmem e2e: FAILED; kept {}", self.root.display());
        for (what, path) in &self.notes {
            eprintln!("  {what:<24} {}", path.display());
        }
        eprintln!("  {:<24} {}", "model requests (JSON)", dump_path.display());
        eprintln!("  the model server received {} requests:", requests.len());
        for (i, e) in requests.iter().enumerate() {
            let kind = e.kind.map_or_else(|| "-".to_string(), |k| format!("{k:?}"));
            eprintln!(
                "   {i:>3} {} {} [{kind}, {} tool results] -> {}",
                e.method,
                e.path,
                e.tool_results(),
                e.reply
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Setup: OpenCode, the demo repository, the configuration
// ---------------------------------------------------------------------------------------------

/// The installed OpenCode.
struct Installed {
    /// The opencode binary.
    bin: PathBuf,
    /// The plugin API as OpenCode would install it into a config directory.
    plugin_deps: PathBuf,
}

/// Runs the install script, which names what it installed on stdout (`opencode=<binary>`,
/// `plugin-deps=<directory>`).
fn install_opencode(layout: &Layout, deadline: Instant) -> Installed {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/install-opencode.sh");
    let out = run(
        Command::new("bash").arg(&script),
        "install-opencode",
        &layout.logs,
        INSTALL_TIMEOUT,
        deadline,
    );
    out.assert_success("tests/e2e/install-opencode.sh");
    let named = |key: &str| {
        let path = out
            .stdout
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
            .map(PathBuf::from)
            .unwrap_or_else(|| panic!("install-opencode.sh did not print {key}=:\n{}", out.stdout));
        assert!(
            path.exists(),
            "install-opencode.sh printed {key}={}, which does not exist",
            path.display()
        );
        path
    };
    Installed {
        bin: named("opencode"),
        plugin_deps: named("plugin-deps"),
    }
}

/// Writes `content` to `dir/relative`, creating the parent directories.
fn write(dir: &Path, relative: &str, content: &str) {
    let path = dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// The demo repository: a TypeScript project whose `npm run typecheck` fails with TS2345 until
/// a file named `fixed` exists and whose `npm test` always fails, two commits whose subjects say
/// "errors", OpenCode's configuration for the scripted model, and the ocmem plugin.
fn make_demo_repo(layout: &Layout, base_url: &str, deadline: Instant) {
    let demo = &layout.demo;
    write(
        demo,
        "package.json",
        r#"{
  "name": "demo",
  "version": "1.0.0",
  "private": true,
  "scripts": {
    "typecheck": "node check.js",
    "test": "node test.js"
  }
}
"#,
    );
    write(
        demo,
        "check.js",
        &format!(
            "// Stands in for `tsc --noEmit`: fails with one error until a file named `fixed` exists.\n\
             const fs = require(\"fs\");\n\
             if (fs.existsSync(\"fixed\")) {{\n  console.log(\"no errors\");\n  process.exit(0);\n}}\n\
             console.log({});\nprocess.exit(2);\n",
            serde_json::to_string(TS_ERROR).unwrap()
        ),
    );
    write(
        demo,
        "test.js",
        "// A failing test, reported the way `node --test` does.\n\
         console.log(\"TAP version 13\");\n\
         console.log(\"not ok 1 - adds numbers\");\n\
         console.log(\"  AssertionError [ERR_ASSERTION]: 3 == 4\");\n\
         console.log(\"# tests 1\");\n\
         console.log(\"# fail 1\");\n\
         process.exit(1);\n",
    );
    write(
        demo,
        "src/util.ts",
        "export function add(a: number, b: number): number {\n  return a + b + 1;\n}\n",
    );
    write(
        demo,
        "src/index.ts",
        r#"import { add } from "./util";

// Prints the sum of two numbers.
//
// The first argument is a string by mistake: the typecheck
// reports it below.

export function main(): void {
  const total =
    add("1", 2);
  console.log(total);
}
"#,
    );
    write(demo, ".gitignore", "fixed\n.opencode/\nopencode.json\n");

    let git = |args: &[&str], name: &str| {
        run(
            Command::new("git")
                .args(args)
                .current_dir(demo)
                .env("HOME", &layout.home)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_AUTHOR_NAME", "Demo")
                .env("GIT_AUTHOR_EMAIL", "demo@example.com")
                .env("GIT_COMMITTER_NAME", "Demo")
                .env("GIT_COMMITTER_EMAIL", "demo@example.com"),
            name,
            &layout.logs,
            SHORT_TIMEOUT,
            deadline,
        )
        .assert_success(name);
    };
    git(&["init", "-q", "-b", "main"], "git-init");
    git(&["add", "-A"], "git-add");
    for (i, subject) in COMMIT_SUBJECTS.iter().enumerate() {
        git(
            &["commit", "-q", "--allow-empty", "-m", subject],
            &format!("git-commit-{i}"),
        );
    }

    // OpenCode's project configuration: only the scripted provider, a model with a small
    // context (a reported usage above it makes OpenCode compact), bash and edits allowed, and
    // nothing that phones home.
    let config = json!({
        "autoupdate": false,
        "share": "disabled",
        "enabled_providers": ["mock"],
        "model": format!("mock/{}", model::MODEL_ID),
        "small_model": format!("mock/{}", model::MODEL_ID),
        "permission": {"bash": "allow", "edit": "allow"},
        "provider": {
            "mock": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Scripted model",
                "options": {"baseURL": base_url, "apiKey": "not-a-real-key"},
                "models": {
                    model::MODEL_ID: {
                        "name": "Scripted model",
                        "tool_call": true,
                        "limit": {"context": 20_000, "output": 4_000}
                    }
                }
            }
        }
    });
    write(
        demo,
        "opencode.json",
        &serde_json::to_string_pretty(&config).unwrap(),
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

/// `opencode <args>` in the demo repository, isolated: HOME, the XDG directories and TMPDIR in
/// the temporary directory, no inherited OpenCode, ocmem or npm settings, ocmem's binary and data
/// directory named, OpenCode's update checks, sharing, model catalogue and downloads turned off,
/// and npm's registry replaced by `registry` (the tripwire) with no retries. Its log goes to
/// stderr (`--print-logs`): OpenCode's log file loses its tail at exit.
fn opencode(layout: &Layout, installed: &Installed, registry: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(&installed.bin);
    // OpenCode takes its directory from PWD when set, as a shell would have it.
    cmd.args(args)
        .args(["--print-logs", "--log-level", "DEBUG"])
        .current_dir(&layout.demo)
        .env("PWD", &layout.demo);
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
    cmd.env("HOME", &layout.home)
        .env("XDG_CONFIG_HOME", &layout.xdg_config)
        .env("XDG_DATA_HOME", &layout.xdg_data)
        .env("XDG_CACHE_HOME", &layout.xdg_cache)
        .env("XDG_STATE_HOME", &layout.xdg_state)
        .env("TMPDIR", &layout.tmp)
        .env("OCMEM_BIN", env!("CARGO_BIN_EXE_ocmem"))
        .env("OCMEM_DATA_DIR", &layout.data)
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_SHARE", "1")
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .env("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
        .env("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1")
        .env("OPENCODE_DISABLE_CLAUDE_CODE", "1")
        .env("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1")
        // OpenCode's installer reads npm's settings from the environment: any download it
        // still attempts goes to the tripwire and fails at once.
        .env("NPM_CONFIG_REGISTRY", registry)
        .env("NPM_CONFIG_FETCH_RETRIES", "0")
        // npm (run by the bash tool) would check for a newer npm and say so in the output.
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("NO_COLOR", "1");
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

/// The first 16 or 32 hex digits of sha256(text).
fn sha256_hex(text: &str, digits: usize) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex[..digits].to_string()
}

fn workspace_dir(layout: &Layout) -> PathBuf {
    let root = layout.demo.to_string_lossy();
    layout.data.join("workspaces").join(sha256_hex(&root, 16))
}

fn session_file(layout: &Layout, session: &str) -> PathBuf {
    workspace_dir(layout)
        .join("sessions")
        .join(format!("{}.json", sha256_hex(session, 32)))
}

/// The part of a system prompt ocmem added: from its first header to the end.
fn ocmem_block(system: &str) -> &str {
    ["Workspace memory (cross-session", "Hot session state ("]
        .iter()
        .filter_map(|header| system.find(header))
        .min()
        .map_or("", |start| &system[start..])
}

/// The `- ` lines under `header` (such as `open_errors:`) in a rendered block.
fn section(block: &str, header: &str) -> Vec<String> {
    block
        .lines()
        .skip_while(|line| line.trim() != header)
        .skip(1)
        .take_while(|line| line.starts_with("- "))
        .map(str::to_string)
        .collect()
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

fn memory_entries(layout: &Layout) -> Vec<Value> {
    let path = workspace_dir(layout).join("workspace-memory.json");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let store: Value = serde_json::from_str(&text).unwrap();
    store["entries"].as_array().cloned().unwrap_or_default()
}

fn active_entry<'a>(entries: &'a [Value], text: &str) -> Option<&'a Value> {
    entries
        .iter()
        .find(|e| e["status"] == "active" && e["text"].as_str().is_some_and(|t| t.contains(text)))
}

/// Every line of OpenCode's own log, with the file it is in: the log files under its data
/// directory, and the log each `opencode` process printed on stderr (`--print-logs`).
fn opencode_log_lines(layout: &Layout) -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = Vec::new();
    for (dir, prefix) in [
        (layout.opencode_logs(), ""),
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
    let dir = tempfile::Builder::new()
        .prefix("ocmem-e2e-")
        .tempdir()
        .unwrap();
    let layout = Layout::new(dir.path());
    let server = model::Server::start(layout.demo.clone());
    let _keep = KeepOnFailure {
        root: layout.root.clone(),
        dir: Some(dir),
        notes: vec![
            ("OpenCode logs", layout.opencode_logs()),
            ("process output", layout.logs.clone()),
            ("ocmem data dir", layout.data.clone()),
            ("demo repository", layout.demo.clone()),
        ],
        requests: server.log(),
    };

    let installed = install_opencode(&layout, deadline);
    make_demo_repo(&layout, &server.base_url, deadline);
    // What OpenCode would install at startup, in place before it starts; downloads go nowhere.
    let seeded: Vec<Seeded> = layout
        .opencode_config_dirs()
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

    // The first step already lists what the user asked to remember.
    let step = first_session_step(&exchanges, 0);
    let block = ocmem_block(&step.system()).to_string();
    assert!(
        section(&block, "pending_memories:")
            .iter()
            .any(|line| line.contains(REMEMBERED)),
        "the first request's system prompt does not list the explicit memory:\n{block}"
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
            .any(|t| t.contains(model::CANDIDATES_HEADER)),
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
    let entries = memory_entries(&layout);
    let explicit = active_entry(&entries, REMEMBERED)
        .unwrap_or_else(|| panic!("no active entry {REMEMBERED:?} in {entries:#?}"));
    assert_eq!(explicit["source"], "explicit", "{explicit}");
    for candidate in GOOD_CANDIDATES {
        let entry = active_entry(&entries, candidate)
            .unwrap_or_else(|| panic!("candidate {candidate:?} not stored: {entries:#?}"));
        assert_eq!(entry["source"], "compaction", "{entry}");
    }
    for candidate in BAD_CANDIDATES {
        assert!(
            entries
                .iter()
                .all(|e| !e["text"].as_str().unwrap_or("").contains(candidate)),
            "{candidate:?} should have been rejected: {entries:#?}"
        );
    }
    let first_store = session_file(&layout, &first_session);
    assert!(
        first_store.is_file(),
        "no session store {}",
        first_store.display()
    );

    // Session 2, same directory: its first request's system prompt carries workspace memory.
    let second = run(
        &mut opencode(&["run", "--format", "json", SECOND_PROMPT]),
        "opencode-run-2",
        &layout.logs,
        RUN_TIMEOUT,
        deadline,
    );
    second.assert_success("opencode run (second session)");
    let second_session = session_id(&second.stdout);
    assert_ne!(first_session, second_session);
    let exchanges = server.exchanges();
    let step = exchanges
        .iter()
        .find(|e| e.kind == Some(Kind::Agent) && e.has_user_text(SECOND_PROMPT))
        .expect("no model request of the second session");
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
        session_file(&layout, &second_session).is_file(),
        "the second session's store should remain"
    );
    assert!(
        active_entry(&memory_entries(&layout), REMEMBERED).is_some(),
        "deleting a session must not touch workspace memory"
    );

    // OpenCode's own log shows no plugin problem. OpenCode 1.18.33 buffers its log file and
    // loses what a process wrote last when it exits (a short `opencode session delete` leaves
    // nothing there), so every run also prints its log on stderr, kept next to its stdout.
    let lines = opencode_log_lines(&layout);
    assert!(
        lines.iter().any(|(_, line)| line.contains("level=INFO")),
        "no OpenCode log lines under {} or {}",
        layout.opencode_logs().display(),
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

    let elapsed = started.elapsed();
    eprintln!("ocmem e2e: passed in {elapsed:.1?}");
    assert!(elapsed < TEST_BUDGET, "took {elapsed:?}");
}
