//! Where each host keeps ocmem's integration, for `ocmem init` to install it and `ocmem
//! doctor` to check it: the places of this environment (`Places`), and ocmem's OpenCode
//! plugins found in a config directory, read through `store::host_files`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use super::claude_code::settings as claude;
use super::codex::hooks_file as codex;
use super::gemini::settings as gemini;
use super::mcp;
use super::opencode::plugin;
use crate::context::InstallEnv;
use crate::domain::base::install_level::Level;
use crate::store::host_files;
use crate::store::workspace::project_root;

/// Where the hosts keep their integrations, for this environment.
pub struct Places {
    pub project_root: PathBuf,
    home: Option<PathBuf>,
    xdg_config_home: Option<PathBuf>,
    claude_config_dir: Option<PathBuf>,
    codex_home: Option<PathBuf>,
}

impl Places {
    pub fn new(env: &InstallEnv) -> Result<Places> {
        let dir = env
            .current_dir
            .as_deref()
            .context("cannot read the current directory")?;
        Ok(Places {
            project_root: project_root(dir),
            home: env.home.clone(),
            xdg_config_home: env.xdg_config_home.clone(),
            claude_config_dir: env.claude_config_dir.clone(),
            codex_home: env.codex_home.clone(),
        })
    }

    /// OpenCode's config directory at `level`.
    pub fn opencode_dir(&self, level: Level) -> Result<PathBuf> {
        plugin::config_dir(
            level,
            &self.project_root,
            self.home.as_deref(),
            self.xdg_config_home.as_deref(),
        )
        .context("cannot find the home directory; set HOME or XDG_CONFIG_HOME")
    }

    /// The Claude Code settings file ocmem's hooks go into at `level`.
    pub fn claude_settings(&self, level: Level) -> Result<PathBuf> {
        claude::settings_path(
            level,
            &self.project_root,
            self.home.as_deref(),
            self.claude_config_dir.as_deref(),
        )
        .context("cannot find the home directory; set HOME or CLAUDE_CONFIG_DIR")
    }

    /// The file Claude Code reads ocmem's MCP server from at `level`.
    pub fn claude_mcp_file(&self, level: Level) -> Result<PathBuf> {
        mcp::claude_code_path(
            level,
            &self.project_root,
            self.home.as_deref(),
            self.claude_config_dir.as_deref(),
        )
        .context("cannot find the home directory; set HOME or CLAUDE_CONFIG_DIR")
    }

    /// The Gemini CLI settings file ocmem's hooks go into at `level`.
    pub fn gemini_settings(&self, level: Level) -> Result<PathBuf> {
        gemini::settings_path(level, &self.project_root, self.home.as_deref())
            .context("cannot find the home directory; set HOME")
    }

    /// Codex's home, where its user files are.
    pub fn codex_home(&self) -> Result<PathBuf> {
        codex::codex_home(self.home.as_deref(), self.codex_home.as_deref())
            .context("cannot find the home directory; set HOME or CODEX_HOME")
    }

    /// The `hooks.json` ocmem's Codex hooks go into at `level`, and the `config.toml` that
    /// trusts them.
    pub fn codex_files(&self, level: Level) -> Result<(PathBuf, PathBuf)> {
        let home = self.codex_home()?;
        let hooks = codex::hooks_path(level, &self.project_root, &home);
        Ok((hooks, home.join("config.toml")))
    }
}

/// An ocmem plugin file found in an OpenCode config directory.
pub struct FoundPlugin {
    pub path: PathBuf,
    pub text: String,
    /// The binary it runs; `None`: `ocmem` on PATH.
    pub binary: Option<String>,
}

/// The ocmem plugins in OpenCode's config directory `dir`. A file of that name that is not
/// ocmem's plugin is an error: it is not ours to replace or remove.
pub fn find_plugins(dir: &Path) -> Result<Vec<FoundPlugin>> {
    let mut found = Vec::new();
    for path in plugin::candidate_files(dir) {
        let Some(bytes) = host_files::read(&path)? else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match plugin::installed_binary(&text) {
            Some(binary) => found.push(FoundPlugin { path, text, binary }),
            None => bail!(
                "{} is not ocmem's plugin; leaving it alone (move it away to install ocmem's)",
                path.display()
            ),
        }
    }
    Ok(found)
}
