//! How the hosts register an MCP server, and ocmem's server (`ocmem mcp`) in their files.
//! Pure: file contents in, file contents out.
//!
//! - Claude Code: `"mcpServers": {<name>: {"type": "stdio", "command", "args", "env"}}`, as
//!   `claude mcp add` writes it: in the project's `.mcp.json` (its `--scope project`), or at
//!   the top of `~/.claude.json` (`--scope user`; `$CLAUDE_CONFIG_DIR/.claude.json` when that
//!   is set). Everything else in either file is left as it is.
//! - Codex: a `[mcp_servers.<name>]` table with `command` and `args` in
//!   `~/.codex/config.toml`; Gemini CLI: `"mcpServers": {<name>: {"command", "args"}}` in
//!   `~/.gemini/settings.json`. `init --mcp` edits neither file: it prints what to add.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde_json::{json, Map, Value};

use crate::domain::base::install_level::Level;

/// The name ocmem's server is registered under.
pub const SERVER_NAME: &str = "ocmem";
/// What the server's command runs after the binary's path.
pub const SERVER_ARGS: [&str; 1] = ["mcp"];
/// The key holding a file's servers, in Claude Code's and Gemini CLI's files alike.
const SERVERS_KEY: &str = "mcpServers";

/// The file Claude Code reads ocmem's server from at `level`.
pub fn claude_code_path(
    level: Level,
    project_root: &Path,
    home: Option<&Path>,
    claude_config_dir: Option<&Path>,
) -> Option<PathBuf> {
    match level {
        Level::Project => Some(project_root.join(".mcp.json")),
        Level::User => Some(claude_config_dir.or(home)?.join(".claude.json")),
    }
}

/// ocmem's entry, running `binary`, as `claude mcp add ocmem -- <binary> mcp` writes it.
pub fn claude_code_entry(binary: &Path) -> Value {
    json!({
        "type": "stdio",
        "command": binary.to_string_lossy(),
        "args": SERVER_ARGS,
        "env": {},
    })
}

/// ocmem's entry in a Claude Code file, when there is one.
pub fn claude_code_found(file: &Value) -> Option<&Value> {
    file.get(SERVERS_KEY)?.get(SERVER_NAME)
}

/// The binary an entry runs.
pub fn entry_binary(entry: &Value) -> Option<&str> {
    entry.get("command")?.as_str()
}

/// `file` with ocmem's entry set to `entry` (added last, or replaced where it stands).
/// Refuses a file that is not a JSON object, or whose `mcpServers` is not one.
pub fn claude_code_install(file: &Value, entry: Value) -> Result<Value> {
    let Value::Object(top) = file else {
        bail!("it is not a JSON object");
    };
    let mut top = top.clone();
    let servers = top
        .entry(SERVERS_KEY)
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(servers) = servers else {
        bail!("its {SERVERS_KEY} is not a JSON object");
    };
    servers.insert(SERVER_NAME.to_string(), entry);
    Ok(Value::Object(top))
}

/// `file` without ocmem's entry; `mcpServers` goes too when nothing else was in it.
pub fn claude_code_uninstall(file: &Value) -> Value {
    let mut file = file.clone();
    if let Some(top) = file.as_object_mut() {
        let emptied = match top.get_mut(SERVERS_KEY).and_then(Value::as_object_mut) {
            Some(servers) => {
                servers.shift_remove(SERVER_NAME);
                servers.is_empty()
            }
            None => false,
        };
        if emptied {
            top.shift_remove(SERVERS_KEY);
        }
    }
    file
}

/// The hosts whose MCP configuration ocmem only prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintedHost {
    Codex,
    GeminiCli,
}

impl PrintedHost {
    /// How people write the host's name.
    pub fn display_name(self) -> &'static str {
        match self {
            PrintedHost::Codex => "Codex",
            PrintedHost::GeminiCli => "Gemini CLI",
        }
    }

    /// The name `ocmem init` takes.
    pub fn cli_name(self) -> &'static str {
        match self {
            PrintedHost::Codex => "codex",
            PrintedHost::GeminiCli => "gemini",
        }
    }

    /// Where the snippet goes, as its documentation names the file.
    pub fn config_file(self) -> &'static str {
        match self {
            PrintedHost::Codex => "~/.codex/config.toml",
            PrintedHost::GeminiCli => {
                "~/.gemini/settings.json (or a project's .gemini/settings.json)"
            }
        }
    }

    /// What to add to `config_file` to run `binary`'s server.
    pub fn snippet(self, binary: &Path) -> String {
        let command = binary.to_string_lossy();
        match self {
            PrintedHost::Codex => format!(
                "[mcp_servers.{SERVER_NAME}]\ncommand = {}\nargs = [{}]\n",
                toml_string(&command),
                SERVER_ARGS.map(toml_string).join(", ")
            ),
            PrintedHost::GeminiCli => {
                let entry = json!({SERVERS_KEY: {SERVER_NAME: {
                    "command": command,
                    "args": SERVER_ARGS,
                }}});
                let mut text = serde_json::to_string_pretty(&entry).expect("JSON serializes");
                text.push('\n');
                text
            }
        }
    }
}

/// A TOML basic string: quoted, with backslashes, quotes and control characters escaped.
pub fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_entry_goes_in_beside_other_servers_and_comes_out_alone() {
        let file = json!({
            "numStartups": 4,
            "mcpServers": {"github": {"type": "stdio", "command": "npx", "args": ["gh"], "env": {}}},
            "projects": {"/home/dev/demo": {"mcpServers": {"ocmem": {"command": "x"}}}},
        });
        let entry = claude_code_entry(Path::new("/opt/ocmem/bin/ocmem"));
        let installed = claude_code_install(&file, entry.clone()).unwrap();
        assert_eq!(claude_code_found(&installed), Some(&entry));
        assert_eq!(
            installed["mcpServers"]["github"],
            file["mcpServers"]["github"]
        );
        let keys: Vec<&String> = installed["mcpServers"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["github", "ocmem"]);
        // A project's own entry under `projects` is not ocmem's user-level one.
        assert_eq!(claude_code_found(&file), None);
        assert_eq!(claude_code_uninstall(&installed), file);
    }

    #[test]
    fn an_emptied_server_table_goes_and_a_foreign_shape_is_refused() {
        let empty = json!({});
        let installed = claude_code_install(&empty, json!({"command": "ocmem"})).unwrap();
        assert_eq!(claude_code_uninstall(&installed), empty);
        assert!(claude_code_install(&json!([1]), json!({})).is_err());
        assert!(claude_code_install(&json!({"mcpServers": []}), json!({})).is_err());
        // Nothing of ocmem's: unchanged.
        let other = json!({"mcpServers": {"github": {}}});
        assert_eq!(claude_code_uninstall(&other), other);
    }

    #[test]
    fn paths_follow_the_level_and_the_config_dir() {
        let root = Path::new("/home/dev/demo");
        let home = Some(Path::new("/home/dev"));
        assert_eq!(
            claude_code_path(Level::Project, root, home, None).unwrap(),
            Path::new("/home/dev/demo/.mcp.json")
        );
        assert_eq!(
            claude_code_path(Level::User, root, home, None).unwrap(),
            Path::new("/home/dev/.claude.json")
        );
        assert_eq!(
            claude_code_path(Level::User, root, home, Some(Path::new("/cfg"))).unwrap(),
            Path::new("/cfg/.claude.json")
        );
        assert_eq!(claude_code_path(Level::User, root, None, None), None);
    }

    #[test]
    fn snippets_quote_the_binary_for_their_format() {
        let binary = Path::new("/opt/my \"tools\"\\ocmem");
        let codex = PrintedHost::Codex.snippet(binary);
        assert_eq!(
            codex,
            "[mcp_servers.ocmem]\ncommand = \"/opt/my \\\"tools\\\"\\\\ocmem\"\nargs = [\"mcp\"]\n"
        );
        let gemini: Value = serde_json::from_str(&PrintedHost::GeminiCli.snippet(binary)).unwrap();
        assert_eq!(
            gemini,
            json!({"mcpServers": {"ocmem": {"command": "/opt/my \"tools\"\\ocmem", "args": ["mcp"]}}})
        );
    }
}
