//! Helpers shared by the CLI tests: a private data dir, a pinned clock, and the recorded
//! OpenCode fixture; and, in the modules below, what the corpus tests share.
#![allow(dead_code)]

pub mod corpus;
pub mod error_corpus;
pub mod hooks;
pub mod sandbox;
pub mod steering_corpus;

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;

pub const NOW: &str = "2026-11-21T16:00:00Z";
pub const DEMO_DIR: &str = "/home/dev/demo";
pub const DEMO_SESSION: &str = "ses_e012f93b8ffev6S3ivVW0qWQS9";
/// Far above what any one ocmem process takes, even a debug build on a busy machine.
pub const PROCESS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

pub struct Env {
    pub tmp: TempDir,
    pub data: PathBuf,
}

impl Env {
    pub fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        Env { tmp, data }
    }

    /// The directory `name` in the temp dir, with the directories `dirs` (relative to it) made,
    /// by its canonical path.
    pub fn folder(&self, name: &str, dirs: &[&str]) -> PathBuf {
        let folder = self.tmp.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        for dir in dirs {
            std::fs::create_dir_all(folder.join(dir)).unwrap();
        }
        std::fs::canonicalize(folder).unwrap()
    }

    /// `ocmem` with this env's data dir and clock, and no outside configuration.
    pub fn ocmem(&self) -> Command {
        let mut cmd = self.ocmem_without_data_dir();
        cmd.arg("--data-dir").arg(&self.data);
        cmd
    }

    /// `ocmem` with this env's clock, HOME and TMPDIR, and no data dir named. A process that
    /// hangs is killed, so the test fails instead of stalling the suite.
    pub fn ocmem_without_data_dir(&self) -> Command {
        let mut cmd = Command::cargo_bin("ocmem").unwrap();
        cmd.timeout(PROCESS_TIMEOUT)
            .env_remove("OCMEM_DATA_DIR")
            .env_remove("XDG_DATA_HOME")
            .env("HOME", self.tmp.path().join("home"))
            .env("TMPDIR", self.tmp.path())
            .env("OCMEM_NOW", NOW);
        cmd
    }

    /// Replays the recorded session into this env's data dir, named after the
    /// subcommand as a user would type it.
    pub fn replay_fixture(&self) -> Output {
        self.ocmem_without_data_dir()
            .args(["replay", "--data-dir"])
            .arg(&self.data)
            .arg(fixture_path())
            .output()
            .unwrap()
    }

    pub fn run(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Output {
        self.ocmem().args(args).write_stdin(stdin).output().unwrap()
    }

    pub fn run_at(&self, now: &str, args: &[&str], stdin: impl Into<Vec<u8>>) -> Output {
        self.ocmem()
            .env("OCMEM_NOW", now)
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap()
    }

    /// `ocmem gc --sweep --json` at `now` with `OCMEM_TTL_DAYS` set to `ttl_days`, which must
    /// succeed with a quiet stderr; its report.
    pub fn sweep_with_ttl(&self, now: &str, ttl_days: &str) -> Value {
        let out = self
            .ocmem()
            .env("OCMEM_NOW", now)
            .env("OCMEM_TTL_DAYS", ttl_days)
            .args(["gc", "--sweep", "--json"])
            .output()
            .unwrap();
        assert_success(&out);
        serde_json::from_str(&stdout(&out)).unwrap()
    }

    /// `ocmem render` of a user's `prompt` (message `message`) in session `session` of the
    /// workspace at `directory`, which must succeed with a quiet stderr; what it printed.
    pub fn render_prompt(
        &self,
        directory: &str,
        session: &str,
        message: &str,
        prompt: &str,
    ) -> String {
        let out = self.run(
            &["render"],
            json!({"directory": directory, "sessionID": session, "prompt": prompt, "messageID": message})
                .to_string(),
        );
        assert_success(&out);
        stdout(&out)
    }

    /// Runs `tool-after` and insists on success with a quiet stderr.
    pub fn tool_after(&self, event: &Value) -> Output {
        let out = self.run(&["tool-after"], event.to_string());
        assert_success(&out);
        out
    }

    pub fn tool_after_at(&self, now: &str, event: &Value) {
        let out = self.run_at(now, &["tool-after"], event.to_string());
        assert_success(&out);
    }

    pub fn render(&self, directory: &str, session: &str) -> String {
        let out = self.run(
            &["render"],
            json!({"directory": directory, "sessionID": session}).to_string(),
        );
        assert_success(&out);
        String::from_utf8(out.stdout).unwrap()
    }

    /// The directory of the workspace at `root` in the data dir.
    pub fn workspace_dir(&self, root: &str) -> PathBuf {
        self.data.join("workspaces").join(&sha256_hex(root)[..16])
    }

    /// The workspace memory store of the workspace at `root`.
    pub fn memory_file(&self, root: &str) -> PathBuf {
        self.workspace_dir(root).join("workspace-memory.json")
    }

    /// The workspace memory store of the workspace at `root`, parsed.
    pub fn memory_json(&self, root: &str) -> Value {
        let text = std::fs::read_to_string(self.memory_file(root)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    pub fn session_file(&self, root: &str, session: &str) -> PathBuf {
        self.workspace_dir(root)
            .join("sessions")
            .join(format!("{}.json", &sha256_hex(session)[..32]))
    }

    pub fn session_json(&self, root: &str, session: &str) -> Value {
        let text = std::fs::read_to_string(self.session_file(root, session)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// Every file below the data dir, relative, sorted.
    pub fn data_files(&self) -> Vec<String> {
        let mut files = Vec::new();
        collect(&self.data, &self.data, &mut files);
        files.sort();
        files
    }
}

fn collect(base: &Path, dir: &Path, files: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(base, &path, files);
        } else {
            files.push(
                path.strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}

/// Starts `ocmem tool-after` on `event` without waiting for it.
pub fn spawn_tool_after(data: &Path, event: &Value) -> std::process::Child {
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ocmem"))
        .env_remove("OCMEM_DATA_DIR")
        .env("OCMEM_NOW", NOW)
        .arg("--data-dir")
        .arg(data)
        .arg("tool-after")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, event.to_string().as_bytes()).unwrap();
    child
}

/// The string `field` of each object of `array`.
pub fn field_strs<'a>(array: &'a Value, field: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap())
        .collect()
}

/// The texts of a memory store's active entries.
pub fn active_texts(memory: &Value) -> Vec<String> {
    memory["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == "active")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

/// Each of a session's active files (`activeFiles`): its path, action and count.
pub fn active_files(files: &Value) -> Vec<(&str, &str, u64)> {
    files
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap(),
                f["action"].as_str().unwrap(),
                f["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The memory block of a render's output (before the hot state).
pub fn block(rendered: &str) -> &str {
    rendered
        .split("\n\nHot session state")
        .next()
        .unwrap()
        .trim_end()
}

pub fn assert_success(out: &Output) {
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/opencode-1.18.33/session-hooks.jsonl")
}

/// The recorded `tool.execute.after` payloads, in order, as `tool-after` events.
pub fn fixture_tool_events() -> Vec<Value> {
    std::fs::read_to_string(fixture_path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|h| h["k"] == "tool.execute.after")
        .map(|h| json!({"directory": DEMO_DIR, "input": h["v"]["input"], "output": h["v"]["output"]}))
        .collect()
}

/// A bash `tool-after` event.
pub fn bash(
    directory: &str,
    session: &str,
    call: &str,
    command: &str,
    output: &str,
    exit: Value,
) -> Value {
    json!({
        "directory": directory,
        "input": {"tool": "bash", "sessionID": session, "callID": call, "args": {"command": command}},
        "output": {"title": command, "output": output, "metadata": {"output": output, "exit": exit}}
    })
}

/// A read/edit/write `tool-after` event.
pub fn file_tool(directory: &str, session: &str, call: &str, tool: &str, path: &str) -> Value {
    json!({
        "directory": directory,
        "input": {"tool": tool, "sessionID": session, "callID": call, "args": {"filePath": path}},
        "output": {"title": path, "output": "", "metadata": {}}
    })
}
