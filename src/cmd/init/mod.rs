//! `ocmem init <host>`: installs ocmem's integration into a host, for the project of the
//! current directory or for the user, pointing at this very binary; `--uninstall` takes it
//! out again, restoring the file as it was when nothing else changed since; `--print` shows
//! what would be written and changes nothing.

use std::path::Path;

use anyhow::{bail, Context as _, Result};
use serde_json::Value;

use super::{print, Run};
use crate::cli::{Init, InitHost};
use crate::context::{Context, InstallEnv};
use crate::domain::base::host_name::HostName;
use crate::domain::base::install_level::Level;
use crate::host::claude_code::settings as claude;
use crate::host::install::{find_plugins, Places};
use crate::host::mcp::{self, PrintedHost};
use crate::host::opencode::plugin;
use crate::store::host_files::{self, read_settings, Original, Settings};

mod codex;
mod gemini_install;

impl Run for Init {
    fn run(&self, ctx: &Context) -> Result<()> {
        let env = InstallEnv::from_env();
        let level = if self.user {
            Level::User
        } else {
            Level::Project
        };
        let places = Places::new(&env)?;
        let binary = env
            .current_exe
            .clone()
            .context("cannot find the path of the running ocmem binary")?;
        let install = Install {
            data_dir: &ctx.data_dir,
            binary: &binary,
            level,
            dry_run: self.print,
        };
        let codex = self.host == InitHost::Managed(HostName::Codex);
        if self.compact_prompt && (!codex || self.uninstall) {
            bail!("--compact-prompt is for `ocmem init codex` (--uninstall takes ocmem's prompt out anyway)");
        }
        let text = match (self.host, self.mcp) {
            (InitHost::Managed(host), false) => match (host, self.uninstall) {
                (HostName::OpenCode, false) => install.opencode(&places)?,
                (HostName::OpenCode, true) => install.opencode_uninstall(&places)?,
                (HostName::ClaudeCode, false) => install.claude_code(&places)?,
                (HostName::ClaudeCode, true) => install.claude_code_uninstall(&places)?,
                (HostName::Codex, false) => install.codex(&places, self.compact_prompt)?,
                (HostName::Codex, true) => install.codex_uninstall(&places)?,
                (HostName::GeminiCli, false) => install.gemini(&places)?,
                (HostName::GeminiCli, true) => install.gemini_uninstall(&places)?,
            },
            (InitHost::Managed(host), true) => match (host, self.uninstall) {
                (HostName::OpenCode, _) => OPENCODE_HAS_TOOLS.to_string(),
                (HostName::ClaudeCode, false) => install.claude_code_mcp(&places)?,
                (HostName::ClaudeCode, true) => install.claude_code_mcp_uninstall(&places)?,
                (HostName::Codex, _) => printed_mcp(PrintedHost::Codex, &binary, self.uninstall),
                (HostName::GeminiCli, _) => {
                    printed_mcp(PrintedHost::GeminiCli, &binary, self.uninstall)
                }
            },
        };
        print(&text)
    }
}

/// `init opencode --mcp`: the plugin registers the tools itself.
const OPENCODE_HAS_TOOLS: &str = "OpenCode needs no MCP server: ocmem's plugin (`ocmem init opencode`) gives the agent the memory tools itself; nothing was changed\n";

/// What to add to (or take out of) a host's configuration for the MCP server, where `init`
/// installs only the hooks (Codex, Gemini CLI).
fn printed_mcp(host: PrintedHost, binary: &Path, uninstall: bool) -> String {
    let snippet = host.snippet(binary);
    if uninstall {
        return format!(
            "`ocmem init --mcp` does not edit {}'s MCP servers; to take the memory tools out, remove this from {}:\n\n{snippet}",
            host.display_name(),
            host.config_file()
        );
    }
    format!(
        "`ocmem init --mcp` does not edit {}'s MCP servers; to give its agent the memory tools, add this to {}:\n\n{snippet}",
        host.display_name(),
        host.config_file()
    )
}

fn program_name(binary: Option<&str>) -> &str {
    binary.unwrap_or("`ocmem` on PATH")
}

struct Install<'a> {
    data_dir: &'a Path,
    binary: &'a Path,
    level: Level,
    dry_run: bool,
}

impl Install<'_> {
    fn binary_text(&self) -> String {
        self.binary.to_string_lossy().into_owned()
    }

    /// Writes a host file, or says what it would write.
    fn write(&self, path: &Path, text: &str, out: &mut String) -> Result<()> {
        if self.dry_run {
            out.push_str(&format!("would write {}:\n{text}", path.display()));
            if !text.ends_with('\n') {
                out.push('\n');
            }
            return Ok(());
        }
        host_files::write(path, text.as_bytes())?;
        Ok(())
    }

    /// Keeps what `path` is now (`text`, `None` for no file) for `--uninstall`, unless dry.
    fn keep_original(&self, path: &Path, text: Option<&str>) -> Result<()> {
        if self.dry_run {
            return Ok(());
        }
        let dir = path.parent().context("a host file has a directory")?;
        host_files::save_original(
            self.data_dir,
            &Original {
                path: path.to_path_buf(),
                text: text.map(str::to_owned),
                created_dirs: host_files::missing_dirs(dir),
            },
        )
    }

    fn opencode(&self, places: &Places) -> Result<String> {
        let other = places.opencode_dir(self.level.other())?;
        if let Some(found) = find_plugins(&other)?.first() {
            bail!(
                "OpenCode's ocmem plugin is already installed for the {} at {}, and both would add the memory block twice; remove it first with `ocmem init opencode {} --uninstall`",
                self.level.other().as_str(),
                found.path.display(),
                self.level.other().flag()
            );
        }
        let dir = places.opencode_dir(self.level)?;
        let found = find_plugins(&dir)?;
        let wanted = plugin::with_binary(self.binary);
        let mut out = String::new();
        let Some((first, extra)) = found.split_first() else {
            let path = &plugin::candidate_files(&dir)[0];
            self.keep_original(path, None)?;
            self.write(path, &wanted, &mut out)?;
            if !self.dry_run {
                out.push_str(&format!(
                    "installed OpenCode's ocmem plugin for the {} at {}, running {}\n",
                    self.level.as_str(),
                    path.display(),
                    self.binary.display()
                ));
            }
            return Ok(out);
        };
        for copy in extra {
            // Two copies would run every hook twice.
            if self.dry_run {
                out.push_str(&format!("would remove {}\n", copy.path.display()));
            } else {
                host_files::remove(&copy.path)?;
                out.push_str(&format!(
                    "removed the second copy {}\n",
                    copy.path.display()
                ));
            }
        }
        if first.text == wanted {
            out.push_str(&format!(
                "OpenCode's ocmem plugin is already installed for the {} at {}, running {}\n",
                self.level.as_str(),
                first.path.display(),
                self.binary.display()
            ));
            return Ok(out);
        }
        self.write(&first.path, &wanted, &mut out)?;
        if !self.dry_run {
            let was = if first.binary.as_deref() == Some(&self.binary_text()) {
                "this version's plugin".to_string()
            } else {
                format!(
                    "it ran {}, now {}",
                    program_name(first.binary.as_deref()),
                    self.binary.display()
                )
            };
            out.push_str(&format!(
                "updated OpenCode's ocmem plugin at {} ({was})\n",
                first.path.display()
            ));
        }
        Ok(out)
    }

    fn opencode_uninstall(&self, places: &Places) -> Result<String> {
        let dir = places.opencode_dir(self.level)?;
        let found = find_plugins(&dir)?;
        if found.is_empty() {
            return Ok(format!(
                "OpenCode's ocmem plugin is not installed for the {} (looked in {})\n",
                self.level.as_str(),
                dir.display()
            ));
        }
        let mut out = String::new();
        for copy in &found {
            if self.dry_run {
                out.push_str(&format!("would remove {}\n", copy.path.display()));
                continue;
            }
            host_files::remove(&copy.path)?;
            if let Some(original) = host_files::read_original(self.data_dir, &copy.path)? {
                host_files::remove_empty_dirs(&original.created_dirs)?;
                host_files::forget_original(self.data_dir, &copy.path)?;
            }
            out.push_str(&format!("removed {}\n", copy.path.display()));
        }
        Ok(out)
    }

    fn claude_code(&self, places: &Places) -> Result<String> {
        let path = places.claude_settings(self.level)?;
        let settings = read_settings(&path)?;
        let command = claude::hook_command(self.binary);
        let installed = claude::install(&settings.value, &command)
            .with_context(|| format!("cannot add ocmem's hooks to {}", path.display()))?;
        let before = claude::ocmem_hooks(&settings.value);
        let mut out = String::new();
        if installed == settings.value {
            out.push_str(&format!(
                "Claude Code's ocmem hooks are already installed in {}, running {}\n",
                path.display(),
                self.binary.display()
            ));
            return Ok(out);
        }
        if before.is_empty() {
            self.keep_original(&path, settings.text.as_deref())?;
        }
        let text = claude::render(&installed, settings.text.as_deref());
        self.write(&path, &text, &mut out)?;
        if self.dry_run {
            return Ok(out);
        }
        let other_binaries: Vec<&str> = before
            .iter()
            .map(|hook| hook.program.as_str())
            .filter(|program| *program != self.binary_text())
            .collect();
        let what = if before.is_empty() {
            format!(
                "installed Claude Code's ocmem hooks for the {} in {}",
                self.level.as_str(),
                path.display()
            )
        } else if let Some(old) = other_binaries.first() {
            format!(
                "updated Claude Code's ocmem hooks in {} (they ran {old})",
                path.display()
            )
        } else {
            format!(
                "completed Claude Code's ocmem hooks in {} ({} of {} events were missing)",
                path.display(),
                claude::missing_events(&before).len(),
                claude::EVENTS.len()
            )
        };
        out.push_str(&format!("{what}, running {}\n", self.binary.display()));
        Ok(out)
    }

    fn claude_code_uninstall(&self, places: &Places) -> Result<String> {
        let path = places.claude_settings(self.level)?;
        let settings = read_settings(&path)?;
        if claude::ocmem_hooks(&settings.value).is_empty() {
            return Ok(format!(
                "Claude Code's ocmem hooks are not installed in {}\n",
                path.display()
            ));
        }
        let stripped = claude::uninstall(&settings.value);
        self.put_back(&path, &settings, &stripped, "Claude Code's ocmem hooks")
    }

    /// Writes a settings file without `what` of ocmem's (`stripped`, from `settings` at
    /// `path`): the file as it was before `init`, byte for byte, when nothing else changed
    /// since; gone when `init` created it; else `stripped`, in the file's own indentation.
    pub(super) fn put_back(
        &self,
        path: &Path,
        settings: &Settings,
        stripped: &Value,
        what: &str,
    ) -> Result<String> {
        let original = host_files::read_original(self.data_dir, path)?;
        // The file as it was, when nothing but ocmem's part changed since.
        let restore = original.filter(|original| match &original.text {
            Some(text) => serde_json::from_str::<Value>(text).is_ok_and(|v| v == *stripped),
            None => *stripped == Value::Object(Default::default()),
        });
        let mut out = String::new();
        match &restore {
            Some(Original { text: None, .. }) if self.dry_run => {
                out.push_str(&format!("would remove {}\n", path.display()));
            }
            Some(Original {
                text: None,
                created_dirs,
                ..
            }) => {
                host_files::remove(path)?;
                host_files::remove_empty_dirs(created_dirs)?;
                out.push_str(&format!(
                    "removed {}, which ocmem had created\n",
                    path.display()
                ));
            }
            Some(Original {
                text: Some(text), ..
            }) => {
                self.write(path, text, &mut out)?;
                if !self.dry_run {
                    out.push_str(&format!(
                        "removed {what}: {} is as it was before\n",
                        path.display()
                    ));
                }
            }
            None => {
                let text = claude::render(stripped, settings.text.as_deref());
                self.write(path, &text, &mut out)?;
                if !self.dry_run {
                    out.push_str(&format!(
                        "removed {what} from {}, keeping everything else\n",
                        path.display()
                    ));
                }
            }
        }
        if !self.dry_run {
            host_files::forget_original(self.data_dir, path)?;
        }
        Ok(out)
    }

    fn claude_code_mcp(&self, places: &Places) -> Result<String> {
        let path = places.claude_mcp_file(self.level)?;
        let file = read_settings(&path)?;
        let entry = mcp::claude_code_entry(self.binary);
        let before = mcp::claude_code_found(&file.value).cloned();
        if before.as_ref() == Some(&entry) {
            return Ok(format!(
                "Claude Code's ocmem MCP server is already registered in {}, running {}\n",
                path.display(),
                self.binary.display()
            ));
        }
        let installed = mcp::claude_code_install(&file.value, entry)
            .with_context(|| format!("cannot add ocmem's MCP server to {}", path.display()))?;
        if before.is_none() {
            self.keep_original(&path, file.text.as_deref())?;
        }
        let mut out = String::new();
        self.write(
            &path,
            &claude::render(&installed, file.text.as_deref()),
            &mut out,
        )?;
        if self.dry_run {
            return Ok(out);
        }
        let what = match before.as_ref().and_then(mcp::entry_binary) {
            None => format!(
                "registered ocmem's MCP server for Claude Code ({}) in {}",
                self.level.as_str(),
                path.display()
            ),
            Some(old) => format!(
                "updated ocmem's MCP server in {} (it ran {old})",
                path.display()
            ),
        };
        out.push_str(&format!("{what}, running {} mcp\n", self.binary.display()));
        if self.level == Level::Project {
            out.push_str(
                "Claude Code asks once whether to use the servers of a project's .mcp.json\n",
            );
        }
        Ok(out)
    }

    fn claude_code_mcp_uninstall(&self, places: &Places) -> Result<String> {
        let path = places.claude_mcp_file(self.level)?;
        let file = read_settings(&path)?;
        if mcp::claude_code_found(&file.value).is_none() {
            return Ok(format!(
                "ocmem's MCP server is not registered in {}\n",
                path.display()
            ));
        }
        let stripped = mcp::claude_code_uninstall(&file.value);
        self.put_back(&path, &file, &stripped, "ocmem's MCP server")
    }
}
