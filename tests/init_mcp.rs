//! `ocmem init <host> --mcp` as a user runs it: in a project (a git repository, from a
//! subdirectory), with HOME, CLAUDE_CONFIG_DIR and the data directory in a private temp dir.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

mod common;
use common::sandbox::{binary, output_once_free, Sandbox as Setup};

/// A project's .mcp.json as a team wrote it: four-space indent, an escaped character, another
/// server (one a decoy naming ocmem in its arguments), no final newline.
const TEAM_MCP_JSON: &str = "{
    \"mcpServers\": {
        \"github\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"], \"env\": {\"NOTE\": \"caf\\u00e9\"}},
        \"notes\": {\"command\": \"notes-server\", \"args\": [\"--about\", \"ocmem mcp\"]}
    }
}";

/// Claude Code's own state file, much of which it rewrites as it runs.
const CLAUDE_STATE: &str = r#"{
  "numStartups": 12,
  "theme": "dark",
  "projects": {
    "/home/dev/demo": {"allowedTools": [], "mcpServers": {}}
  }
}
"#;

/// The project run from `src/deep`, HOME and Claude Code's config directory.
fn setup() -> Setup {
    Setup::new("src/deep", &["home", "claude-config"])
}

impl Setup {
    fn claude_config(&self) -> PathBuf {
        self.path("claude-config")
    }
    fn project_file(&self) -> PathBuf {
        self.project().join(".mcp.json")
    }
    fn user_file(&self) -> PathBuf {
        self.claude_config().join(".claude.json")
    }

    fn run_binary(&self, binary: &Path, args: &[&str]) -> Output {
        output_once_free(self.command(binary).env_remove("XDG_DATA_HOME").args(args))
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_binary(&binary(), args)
    }

    /// Every file under the temp dir but the data directory, with its bytes.
    fn host_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut dirs = vec![self.tmp.path().to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path == self.path("data") {
                    continue;
                }
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push((path.clone(), fs::read(&path).unwrap()));
                }
            }
        }
        files.sort();
        files
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[track_caller]
fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[track_caller]
fn fails(out: Output) -> String {
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let error = text(&out.stderr);
    assert_eq!(error.lines().count(), 1, "{error}");
    error
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// The entry `claude mcp add` itself writes (recorded from Claude Code 2.1.330, see
/// `fixtures/claude-code-2.1.330/mcp-add/README.md`), with `binary` as its command.
fn ocmem_entry(binary: &Path) -> Value {
    for recorded in [
        include_str!("fixtures/claude-code-2.1.330/mcp-add/project.mcp.json"),
        include_str!("fixtures/claude-code-2.1.330/mcp-add/user-mcpServers.json"),
    ] {
        let recorded: Value = serde_json::from_str(recorded).unwrap();
        assert_eq!(
            recorded["mcpServers"]["ocmem"]["command"], RECORDED_COMMAND,
            "the fixture was recorded with {RECORDED_COMMAND}"
        );
    }
    let recorded: Value = serde_json::from_str(include_str!(
        "fixtures/claude-code-2.1.330/mcp-add/project.mcp.json"
    ))
    .unwrap();
    let mut entry = recorded["mcpServers"]["ocmem"].clone();
    entry["command"] = json!(binary.to_str().unwrap());
    entry
}

/// The command the fixtures were recorded with.
const RECORDED_COMMAND: &str = "/usr/local/bin/ocmem";

#[test]
fn a_project_gets_a_mcp_json_once_and_loses_it_again() {
    let s = setup();
    let out = ok(s.run(&["init", "claude-code", "--mcp"]));
    assert!(out.contains("registered ocmem's MCP server"), "{out}");
    assert_eq!(
        read_json(&s.project_file()),
        json!({"mcpServers": {"ocmem": ocmem_entry(&binary())}})
    );
    let written = fs::read(s.project_file()).unwrap();
    let again = ok(s.run(&["init", "claude-code", "--mcp"]));
    assert!(again.contains("already registered"), "{again}");
    assert_eq!(fs::read(s.project_file()).unwrap(), written);
    // The hooks' file was not touched.
    assert!(!s.project().join(".claude").exists());
    let out = ok(s.run(&["init", "claude-code", "--mcp", "--uninstall"]));
    assert!(out.contains("which ocmem had created"), "{out}");
    assert!(!s.project_file().exists());
    let out = ok(s.run(&["init", "claude-code", "--mcp", "--uninstall"]));
    assert!(out.contains("not registered"), "{out}");
}

#[test]
fn a_team_mcp_json_keeps_its_servers_and_comes_back_byte_for_byte() {
    let s = setup();
    fs::write(s.project_file(), TEAM_MCP_JSON).unwrap();
    ok(s.run(&["init", "claude-code", "--mcp", "--project"]));
    let installed = fs::read_to_string(s.project_file()).unwrap();
    let value: Value = serde_json::from_str(&installed).unwrap();
    let team: Value = serde_json::from_str(TEAM_MCP_JSON).unwrap();
    assert_eq!(value["mcpServers"]["github"], team["mcpServers"]["github"]);
    assert_eq!(value["mcpServers"]["notes"], team["mcpServers"]["notes"]);
    assert_eq!(value["mcpServers"]["ocmem"], ocmem_entry(&binary()));
    assert!(
        installed.contains("\n        \"github\""),
        "indent kept: {installed}"
    );
    assert!(!installed.ends_with('\n'));
    ok(s.run(&["init", "claude-code", "--mcp", "--uninstall"]));
    assert_eq!(fs::read_to_string(s.project_file()).unwrap(), TEAM_MCP_JSON);
}

#[test]
fn the_user_level_goes_into_claude_json_and_leaves_what_claude_changed_since() {
    let s = setup();
    fs::write(s.user_file(), CLAUDE_STATE).unwrap();
    let out = ok(s.run(&["init", "claude-code", "--mcp", "--user"]));
    assert!(out.contains(&s.user_file().display().to_string()), "{out}");
    let installed = read_json(&s.user_file());
    assert_eq!(installed["mcpServers"]["ocmem"], ocmem_entry(&binary()));
    // A project's own servers are not ocmem's user-level entry.
    assert_eq!(
        installed["projects"]["/home/dev/demo"]["mcpServers"],
        json!({})
    );
    assert!(!s.project_file().exists());
    // Unchanged since: restored byte for byte.
    ok(s.run(&["init", "claude-code", "--mcp", "--user", "--uninstall"]));
    assert_eq!(fs::read_to_string(s.user_file()).unwrap(), CLAUDE_STATE);
    // Changed since by Claude Code: only ocmem's entry goes.
    ok(s.run(&["init", "claude-code", "--mcp", "--user"]));
    let mut changed = read_json(&s.user_file());
    changed["numStartups"] = json!(13);
    fs::write(
        s.user_file(),
        serde_json::to_string_pretty(&changed).unwrap(),
    )
    .unwrap();
    let out = ok(s.run(&["init", "claude-code", "--mcp", "--user", "--uninstall"]));
    assert!(out.contains("keeping everything else"), "{out}");
    let after = read_json(&s.user_file());
    assert_eq!(after["numStartups"], json!(13));
    assert_eq!(after.get("mcpServers"), None);
    assert_eq!(after["theme"], json!("dark"));
}

#[test]
fn another_binary_is_updated_in_place() {
    let s = setup();
    let copy = s.path("other/bin/ocmem");
    fs::create_dir_all(copy.parent().unwrap()).unwrap();
    fs::copy(binary(), &copy).unwrap();
    fs::write(s.project_file(), TEAM_MCP_JSON).unwrap();
    ok(s.run_binary(&copy, &["init", "claude-code", "--mcp"]));
    assert_eq!(
        read_json(&s.project_file())["mcpServers"]["ocmem"],
        ocmem_entry(&copy)
    );
    let out = ok(s.run(&["init", "claude-code", "--mcp"]));
    assert!(out.contains(&format!("it ran {}", copy.display())), "{out}");
    assert_eq!(
        read_json(&s.project_file())["mcpServers"]["ocmem"],
        ocmem_entry(&binary())
    );
    // Still restores the team's file as it was before the first install.
    ok(s.run(&["init", "claude-code", "--mcp", "--uninstall"]));
    assert_eq!(fs::read_to_string(s.project_file()).unwrap(), TEAM_MCP_JSON);
}

#[test]
fn print_and_refusals_change_nothing() {
    let s = setup();
    let before = s.host_files();
    let out = ok(s.run(&["init", "claude-code", "--mcp", "--print"]));
    assert!(out.starts_with(&format!("would write {}", s.project_file().display())));
    assert!(out.contains("\"mcpServers\""), "{out}");
    assert_eq!(s.host_files(), before);
    // A file that is not JSON is refused and left alone.
    fs::write(s.project_file(), "{\"mcpServers\": {").unwrap();
    let before = s.host_files();
    let error = fails(s.run(&["init", "claude-code", "--mcp"]));
    assert!(error.contains("is not valid JSON"), "{error}");
    fs::write(s.project_file(), "{\"mcpServers\": [1]}").unwrap();
    let error = fails(s.run(&["init", "claude-code", "--mcp"]));
    assert!(error.contains("mcpServers is not a JSON object"), "{error}");
    fs::write(s.project_file(), "{\"mcpServers\": {").unwrap();
    assert_eq!(s.host_files(), before);
}

#[test]
fn codex_and_gemini_get_the_snippet_to_add_and_nothing_is_written() {
    let s = setup();
    let before = s.host_files();
    let bin = binary().display().to_string();
    let codex = ok(s.run(&["init", "codex", "--mcp"]));
    assert!(codex.contains("~/.codex/config.toml"), "{codex}");
    assert!(
        codex.contains(&format!(
            "[mcp_servers.ocmem]\ncommand = \"{bin}\"\nargs = [\"mcp\"]\n"
        )),
        "{codex}"
    );
    let gemini = ok(s.run(&["init", "gemini", "--mcp", "--print"]));
    assert!(gemini.contains("settings.json"), "{gemini}");
    let snippet: Value = serde_json::from_str(&gemini[gemini.find('{').unwrap()..]).unwrap();
    assert_eq!(
        snippet,
        json!({"mcpServers": {"ocmem": {"command": bin, "args": ["mcp"]}}})
    );
    let removal = ok(s.run(&["init", "codex", "--mcp", "--uninstall"]));
    assert!(removal.contains("remove this"), "{removal}");
    let opencode = ok(s.run(&["init", "opencode", "--mcp"]));
    assert!(opencode.contains("nothing was changed"), "{opencode}");
    assert_eq!(s.host_files(), before);
}
