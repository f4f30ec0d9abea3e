//! `ocmem memory hot-state SESSION`: a session's hot state, read only, as text and JSON,
//! through the binary: one session among others, a session with nothing kept, a corrupt
//! session store, and bad input that must leave the disk as it was.

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use common::{active_files, assert_success, bash, file_tool, stderr, stdout, Env};
use serde_json::{json, Value};

const TS_ERROR: &str = "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.";

/// A workspace folder (not a repository: its own root) inside the env's temp dir.
struct Workspace {
    env: Env,
    root: PathBuf,
}

impl Workspace {
    fn new() -> Workspace {
        let env = Env::new();
        let root = env.folder("demo", &["src"]);
        Workspace { env, root }
    }

    fn root(&self) -> &str {
        self.root.to_str().unwrap()
    }

    fn file(&self, relative: &str) -> String {
        self.root.join(relative).to_string_lossy().into_owned()
    }

    fn hot_state(&self, args: &[&str]) -> Output {
        self.env
            .ocmem()
            .current_dir(&self.root)
            .env_remove("OCMEM_DISABLE")
            .args(["memory", "hot-state"])
            .args(args)
            .output()
            .unwrap()
    }

    fn hot_state_json(&self, session: &str) -> Value {
        let out = self.hot_state(&[session, "--json"]);
        assert_success(&out);
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Session `ses_work`: a failing typecheck and test, one read and two edits; and a decoy
    /// session `ses_other` with an error and a file of its own.
    fn with_two_sessions(&self) {
        let env = &self.env;
        let root = self.root();
        env.tool_after(&bash(
            root,
            "ses_work",
            "c1",
            "npm run typecheck",
            TS_ERROR,
            json!(2),
        ));
        env.tool_after(&file_tool(
            root,
            "ses_work",
            "c2",
            "read",
            &self.file("README.md"),
        ));
        env.tool_after(&file_tool(
            root,
            "ses_work",
            "c3",
            "edit",
            &self.file("src/index.ts"),
        ));
        env.tool_after(&file_tool(
            root,
            "ses_work",
            "c4",
            "edit",
            &self.file("src/index.ts"),
        ));
        let failing = "not ok 1 - adds numbers\nAssertionError [ERR_ASSERTION]: 3 == 4";
        env.tool_after(&bash(root, "ses_work", "c5", "npm test", failing, json!(1)));
        let decoy = "Error: Cannot find module 'left-pad'";
        env.tool_after(&bash(
            root,
            "ses_other",
            "c1",
            "node other.js",
            decoy,
            json!(1),
        ));
        env.tool_after(&file_tool(
            root,
            "ses_other",
            "c2",
            "write",
            &self.file("other.js"),
        ));
    }
}

#[test]
fn json_lists_the_sessions_files_and_errors_and_nothing_of_another_session() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let value = ws.hot_state_json("ses_work");

    assert_eq!(value["schema"], 1);
    assert_eq!(value["sessionID"], "ses_work");
    assert_eq!(value["found"], true);
    assert_eq!(value["off"], false);
    assert_eq!(value["workspace"]["root"], ws.root());
    // Files best first (the twice-edited one before the read), relative to the root.
    let files = active_files(&value["activeFiles"]);
    assert_eq!(
        files,
        [("src/index.ts", "edit", 2), ("README.md", "read", 1)]
    );
    // Both errors, open before maybe fixed (the edit of its file may have fixed the TS
    // error); none of the other session's.
    let errors = value["openErrors"].as_array().unwrap();
    let summaries: Vec<&str> = errors
        .iter()
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{summaries:?}");
    assert!(
        summaries[0].contains("not ok 1 - adds numbers"),
        "{summaries:?}"
    );
    assert!(summaries[1].contains("TS2345"), "{summaries:?}");
    assert_eq!(errors[1]["category"], "typecheck");
    assert_eq!(errors[0]["status"], "open");
    assert_eq!(errors[1]["status"], "maybe_fixed");
    assert_eq!(errors[1]["file"], "src/index.ts");
    assert_eq!(errors[1]["command"], "npm run typecheck");
    let text = value["text"].as_str().unwrap();
    assert!(text.starts_with("Hot session state"), "{text}");
    assert!(text.contains("- src/index.ts (edit, 2x)"), "{text}");
    for decoy in ["left-pad", "other.js"] {
        assert!(
            !value.to_string().contains(decoy),
            "{decoy} leaked: {value}"
        );
    }
}

#[test]
fn text_is_the_block_a_render_shows() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let out = ws.hot_state(&["ses_work"]);
    assert_success(&out);
    let rendered = ws.env.render(ws.root(), "ses_work");
    let block = &rendered[rendered.find("Hot session state").expect("a hot state")..];
    assert_eq!(stdout(&out), block);
}

#[test]
fn a_passing_run_clears_what_the_view_shows() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let root = ws.root();
    ws.env.tool_after(&bash(
        root,
        "ses_work",
        "c6",
        "npm run typecheck",
        "",
        json!(0),
    ));
    let value = ws.hot_state_json("ses_work");
    let errors = value["openErrors"].to_string();
    assert!(!errors.contains("TS2345"), "{errors}");
    assert!(errors.contains("not ok 1"), "{errors}");
}

#[test]
fn an_unknown_session_has_nothing_and_creates_nothing() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let before = ws.env.data_files();

    let value = ws.hot_state_json("ses_never");
    assert_eq!(value["found"], false);
    assert_eq!(value["activeFiles"], json!([]));
    assert_eq!(value["openErrors"], json!([]));
    assert_eq!(value["text"], "");
    let out = ws.hot_state(&["ses_never"]);
    assert_success(&out);
    assert!(
        stdout(&out).starts_with("no hot state for session \"ses_never\""),
        "{}",
        stdout(&out)
    );

    // Nor in a workspace ocmem has never seen.
    let elsewhere = ws.env.tmp.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let out = ws.hot_state(&[
        "ses_work",
        "--json",
        "--workspace",
        elsewhere.to_str().unwrap(),
    ]);
    assert_success(&out);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["found"], false);
    assert_eq!(ws.env.data_files(), before);
}

#[test]
fn a_corrupt_session_store_is_one_line_and_left_alone() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let path = ws.env.session_file(ws.root(), "ses_work");
    fs::write(&path, "{ not json").unwrap();
    let before = ws.env.data_files();

    let out = ws.hot_state(&["ses_work", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let error = stderr(&out);
    assert_eq!(error.trim_end().lines().count(), 1, "{error}");
    assert!(
        error.contains(path.file_name().unwrap().to_str().unwrap()),
        "{error}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), "{ not json");
    assert_eq!(ws.env.data_files(), before);
}

#[test]
fn bad_input_is_refused_with_one_line() {
    let ws = Workspace::new();
    ws.with_two_sessions();
    let before = ws.env.data_files();
    let missing = ws.env.tmp.path().join("no-such-folder");
    for args in [
        vec!["ses_work", "--user"],
        vec!["ses_work", "--workspace", missing.to_str().unwrap()],
    ] {
        let out = ws.hot_state(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out).trim_end().lines().count(),
            1,
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = ws.hot_state(&[]);
    assert_eq!(out.status.code(), Some(2), "a session id is required");
    assert_eq!(ws.env.data_files(), before);
}
