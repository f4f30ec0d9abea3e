//! The one place the clock and the environment are read. Everything else gets them from a
//! `Context`, so tests can pin both and compare output byte for byte.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::domain::base::host_name::HostName;
use crate::domain::base::time::parse_rfc3339;
use crate::store::Store;

/// The data directory's name under `$XDG_DATA_HOME` (or `~/.local/share`), shared with the
/// TypeScript plugin so a user keeps their memory when switching.
pub const DATA_DIR_NAME: &str = "opencode-working-memory";

#[derive(Debug, Clone)]
pub struct Context {
    /// Unix milliseconds: `OCMEM_NOW`, else the system clock.
    pub now_ms: i64,
    /// `--data-dir`, else `OCMEM_DATA_DIR`, else `$XDG_DATA_HOME/opencode-working-memory`,
    /// else `~/.local/share/opencode-working-memory` (on every OS).
    pub data_dir: PathBuf,
    /// Whether the data directory was named by `--data-dir` (replay uses a temporary one
    /// otherwise, so a demo never touches real memory).
    pub data_dir_from_flag: bool,
    /// `OCMEM_TTL_DAYS`, unparsed: only `gc --sweep` reads it, and judges it then.
    pub ttl_days_env: Option<String>,
    /// The host whose hook is running, when a hook is: its warnings are logged under its name.
    pub host: Option<HostName>,
    /// `OCMEM_DISABLE` set to anything but an "off" word (see `disables`): every hook does
    /// nothing and prints nothing.
    pub disabled: bool,
}

impl Context {
    pub fn from_env(data_dir_flag: Option<PathBuf>) -> Result<Context> {
        let now_ms = match non_empty_env("OCMEM_NOW") {
            Some(text) => parse_now(&text)?,
            None => system_now_ms(),
        };
        let data_dir_from_flag = data_dir_flag.is_some();
        let data_dir =
            match data_dir_flag.or_else(|| non_empty_env("OCMEM_DATA_DIR").map(PathBuf::from)) {
                Some(dir) => dir,
                None => default_data_dir()?,
            };
        Ok(Context {
            now_ms,
            data_dir,
            data_dir_from_flag,
            ttl_days_env: non_empty_env("OCMEM_TTL_DAYS"),
            host: None,
            disabled: non_empty_env(DISABLE_VAR).is_some_and(|v| disables(&v)),
        })
    }

    /// This context, inside `host`'s hook.
    pub fn in_hook_of(&self, host: HostName) -> Context {
        Context {
            host: Some(host),
            ..self.clone()
        }
    }

    pub fn store(&self) -> Store {
        let store = Store::new(self.data_dir.clone(), self.now_ms);
        match self.host {
            Some(host) => store.with_host(host),
            None => store,
        }
    }
}

/// What `init` and `doctor` need to find the hosts' settings and this binary. Read on demand,
/// not by `Context::from_env`: hooks never need it.
#[derive(Debug, Clone, Default)]
pub struct InstallEnv {
    /// `HOME` (or the platform's home directory).
    pub home: Option<PathBuf>,
    /// The current directory.
    pub current_dir: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`: OpenCode's global config directory is `$XDG_CONFIG_HOME/opencode`.
    pub xdg_config_home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`: Claude Code's user directory instead of `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: Codex's home instead of `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// The absolute path of the running binary, which the installed hooks run.
    pub current_exe: Option<PathBuf>,
    /// `PATH`, to find the `ocmem` a hook without a path would run.
    pub path: Option<OsString>,
}

impl InstallEnv {
    pub fn from_env() -> InstallEnv {
        InstallEnv {
            home: dirs::home_dir(),
            current_dir: std::env::current_dir().ok(),
            xdg_config_home: non_empty_env("XDG_CONFIG_HOME").map(PathBuf::from),
            claude_config_dir: non_empty_env("CLAUDE_CONFIG_DIR").map(PathBuf::from),
            codex_home: non_empty_env("CODEX_HOME").map(PathBuf::from),
            current_exe: std::env::current_exe().ok(),
            path: std::env::var_os("PATH"),
        }
    }
}

/// The variable that turns every hook off.
pub const DISABLE_VAR: &str = "OCMEM_DISABLE";

/// Values of `OCMEM_DISABLE` that leave ocmem on: someone who sets it to anything else means
/// to turn it off, and a hook must not fail over the spelling.
const LEAVES_ON: [&str; 4] = ["0", "false", "no", "off"];

/// Whether a non-empty `OCMEM_DISABLE` value turns the hooks off.
pub fn disables(value: &str) -> bool {
    !LEAVES_ON
        .iter()
        .any(|on| value.trim().eq_ignore_ascii_case(on))
}

/// The variable that turns pruning of tool outputs off (`tool-after --prune`).
pub const PRUNE_VAR: &str = "OCMEM_PRUNE";

/// Whether tool outputs may be pruned: unless `OCMEM_PRUNE` is an "off" word (`0`, `false`,
/// `no`, `off`). Read on demand, by `tool-after --prune` only.
pub fn pruning_on() -> bool {
    non_empty_env(PRUNE_VAR).is_none_or(|v| disables(&v))
}

/// What the commands people run need from their terminal and environment: the current
/// directory (the default workspace), the width to cut tables to, whether to colour them, and
/// the editor. Read on demand, never by a hook.
#[derive(Debug, Clone, Default)]
pub struct TerminalEnv {
    pub current_dir: Option<PathBuf>,
    /// `COLUMNS`, else the width of the terminal on stdout; `None` when neither is known
    /// (output to a pipe or a file): nothing is cut then.
    pub columns: Option<usize>,
    /// stdout is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
    pub colour: bool,
    /// `VISUAL`, else `EDITOR`: a shell command, as other tools run it.
    pub editor: Option<String>,
}

impl TerminalEnv {
    pub fn from_env() -> TerminalEnv {
        use std::io::IsTerminal;
        let tty = std::io::stdout().is_terminal();
        let columns = non_empty_env("COLUMNS")
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c > 0)
            .or_else(|| if tty { terminal_width() } else { None });
        let colour = tty
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::env::var("TERM").map_or(true, |t| t != "dumb");
        TerminalEnv {
            current_dir: std::env::current_dir().ok(),
            columns,
            colour,
            editor: non_empty_env("VISUAL").or_else(|| non_empty_env("EDITOR")),
        }
    }
}

/// The width of the terminal on stdout.
#[cfg(unix)]
fn terminal_width() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills the winsize it is given and touches nothing else.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(size.ws_col as usize)
}

#[cfg(not(unix))]
fn terminal_width() -> Option<usize> {
    None
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// `OCMEM_NOW`: RFC 3339 or Unix milliseconds.
pub fn parse_now(text: &str) -> Result<i64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    match parse_rfc3339(text) {
        Some(ms) => Ok(ms),
        None => bail!("OCMEM_NOW={text:?} is neither an RFC 3339 date-time nor Unix milliseconds"),
    }
}

fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn default_data_dir() -> Result<PathBuf> {
    // Only an absolute XDG_DATA_HOME counts, as the XDG specification says.
    if let Some(xdg) = non_empty_env("XDG_DATA_HOME").map(PathBuf::from) {
        if xdg.is_absolute() {
            return Ok(xdg.join(DATA_DIR_NAME));
        }
    }
    match dirs::home_dir() {
        Some(home) => Ok(home.join(".local").join("share").join(DATA_DIR_NAME)),
        None => bail!("cannot find the home directory; set OCMEM_DATA_DIR or pass --data-dir"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_accepts_milliseconds_and_rfc3339() {
        assert_eq!(parse_now("1795276434504").unwrap(), 1_795_276_434_504);
        assert_eq!(
            parse_now("2026-11-21T15:53:54.504Z").unwrap(),
            1_795_276_434_504
        );
        let err = parse_now("tomorrow").unwrap_err().to_string();
        assert!(err.contains("OCMEM_NOW"), "{err}");
    }

    #[test]
    fn disable_values_that_leave_ocmem_on_are_few() {
        for on in ["0", "false", "No", " off "] {
            assert!(!disables(on), "{on}");
        }
        for off in ["1", "true", "yes", "YES", "please"] {
            assert!(disables(off), "{off}");
        }
    }
}
