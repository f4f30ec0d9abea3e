//! `ocmem doctor`'s report: what was found (gathered by `cmd::doctor`), the problems it
//! shows, each with the command that fixes it, and the report as text. Field names are the
//! JSON schema (documented in docs/operations.md).

use serde::Serialize;

use crate::domain::base::host_name::HostName;
use crate::domain::base::install_level::Level;

/// The version of the JSON document; bumped on any incompatible change.
pub const SCHEMA: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema: u32,
    pub ocmem: ThisBinary,
    pub data_dir: DataDir,
    pub workspace: Option<WorkspaceInfo>,
    pub hosts: Vec<HostReport>,
    /// The latest warnings, oldest first.
    pub warnings: Vec<Warning>,
    pub problems: Vec<Problem>,
    /// Whether the hooks work for the workspace, or what turned them off.
    pub memory: MemorySwitch,
    /// The team memory of the workspace's repository, when it has a team file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamInfo>,
}

/// A repository's team file (`.ocmem/memory.md`) as sessions read it.
#[derive(Debug, Clone, Serialize)]
pub struct TeamInfo {
    pub path: String,
    /// The entries it holds.
    pub entries: usize,
    /// What `ocmem baseline --check --team` reports, one line each.
    pub findings: Vec<String>,
}

/// What turns the hooks off: every one of them does nothing and prints nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OffBy {
    /// `OCMEM_DISABLE` is set.
    Env,
    /// `ocmem memory off` for the workspace.
    Workspace,
}

#[derive(Debug, Clone, Serialize)]
pub struct MemorySwitch {
    pub on: bool,
    pub off_by: Option<OffBy>,
}

impl MemorySwitch {
    pub fn new(env: bool, workspace: bool) -> MemorySwitch {
        let off_by = match (env, workspace) {
            (true, _) => Some(OffBy::Env),
            (false, true) => Some(OffBy::Workspace),
            (false, false) => None,
        };
        MemorySwitch {
            on: off_by.is_none(),
            off_by,
        }
    }

    fn line(&self) -> &'static str {
        match self.off_by {
            None => "on",
            Some(OffBy::Env) => "OFF: OCMEM_DISABLE is set, every hook does nothing",
            Some(OffBy::Workspace) => {
                "OFF for this workspace: its hooks do nothing (`ocmem memory on` turns it back on)"
            }
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ThisBinary {
    pub version: String,
    pub path: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DataDir {
    pub path: String,
    pub exists: bool,
    pub writable: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct WorkspaceInfo {
    pub root: String,
    pub key: String,
    /// The memory of a renamed or moved folder this workspace took over, or will at its next
    /// hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adopted_from: Option<AdoptedFrom>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AdoptedFrom {
    /// The folder the memory was kept for.
    pub root: String,
    /// When it was adopted (RFC 3339); `None` while it is still to be, at the next hook.
    pub at: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HostReport {
    pub host: HostName,
    /// Every place ocmem is installed for this host.
    pub installs: Vec<InstallReport>,
    /// When the host last called ocmem for the workspace (RFC 3339).
    pub last_call: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InstallReport {
    pub level: Level,
    /// The plugin or settings file.
    pub path: String,
    /// Why the file could not be read, when it could not.
    pub error: Option<String>,
    /// The binaries it runs.
    pub binaries: Vec<BinaryCheck>,
    /// Claude Code events without ocmem's hook.
    pub missing_events: Vec<String>,
    /// Hooks the host skips until they are trusted (Codex), by event.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub untrusted_events: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BinaryCheck {
    /// As the integration names it: an absolute path, or `ocmem` (found on PATH).
    pub program: String,
    /// The file it is, when found.
    pub path: Option<String>,
    pub runs: bool,
    /// What `--version` printed.
    pub version: Option<String>,
    /// Why it does not run.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    pub at: String,
    pub host: Option<HostName>,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub host: Option<HostName>,
    pub text: String,
    /// What to run (or do) to fix it.
    pub fix: String,
}

impl Problem {
    pub fn line(&self) -> String {
        match self.host {
            Some(host) => format!("{}: {}; fix: {}", host.as_str(), self.text, self.fix),
            None => format!("{}; fix: {}", self.text, self.fix),
        }
    }
}

fn init_command(host: HostName, level: Level, extra: &str) -> String {
    let level = match level {
        Level::Project => String::new(),
        Level::User => " --user".into(),
    };
    format!("ocmem init {}{level}{extra}", host.as_str())
}

/// Every problem the report's facts show, in the order of the rules.
pub fn problems(report: &Report) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(team) = report.team.as_ref().filter(|t| !t.findings.is_empty()) {
        problems.push(Problem {
            host: None,
            text: format!(
                "{} has {} finding(s), the first: {}",
                team.path,
                team.findings.len(),
                team.findings[0]
            ),
            fix: "`ocmem baseline --check --team` lists them; fix the file by hand".into(),
        });
    }
    if !report.data_dir.writable {
        problems.push(Problem {
            host: None,
            text: format!(
                "the data directory {} cannot be written",
                report.data_dir.path
            ),
            fix: "make it writable, or set OCMEM_DATA_DIR to a directory you own".into(),
        });
    }
    if report.hosts.iter().all(|h| h.installs.is_empty()) {
        problems.push(Problem {
            host: None,
            text: "ocmem is not installed in any host".into(),
            fix: "`ocmem init opencode` or `ocmem init claude-code` (add --user for every project)"
                .into(),
        });
    }
    for host in &report.hosts {
        for install in &host.installs {
            install_problems(host.host, install, &mut problems);
        }
        let levels: Vec<Level> = host.installs.iter().map(|i| i.level).collect();
        if host.host == HostName::OpenCode && Level::ALL.iter().all(|l| levels.contains(l)) {
            problems.push(Problem {
                host: Some(host.host),
                text: "the plugin is installed for both the project and the user, which adds the memory block twice".into(),
                fix: format!("`{}`", init_command(host.host, Level::Project, " --uninstall")),
            });
        }
        if host.host == HostName::OpenCode {
            for level in Level::ALL {
                if levels.iter().filter(|l| **l == level).count() > 1 {
                    problems.push(Problem {
                        host: Some(host.host),
                        text: format!("the plugin is installed twice for the {}", level.as_str()),
                        fix: format!("`{}` (keeps one)", init_command(host.host, level, "")),
                    });
                }
            }
        }
    }
    problems
}

fn install_problems(host: HostName, install: &InstallReport, problems: &mut Vec<Problem>) {
    let reinstall = format!("`{}`", init_command(host, install.level, ""));
    if let Some(error) = &install.error {
        problems.push(Problem {
            host: Some(host),
            text: format!("{}: {error}", install.path),
            fix: format!("repair the file, then run {reinstall}"),
        });
        return;
    }
    for binary in install.binaries.iter().filter(|b| !b.runs) {
        problems.push(Problem {
            host: Some(host),
            text: format!(
                "{} runs {}, which {}",
                install.path,
                binary.program,
                binary.error.as_deref().unwrap_or("does not run")
            ),
            fix: format!("{reinstall} (points it at this binary)"),
        });
    }
    if install.binaries.len() > 1 {
        problems.push(Problem {
            host: Some(host),
            text: format!("{} runs more than one ocmem binary", install.path),
            fix: reinstall.clone(),
        });
    }
    if !install.missing_events.is_empty() {
        problems.push(Problem {
            host: Some(host),
            text: format!(
                "{} is half installed: no ocmem hook for {}",
                install.path,
                install.missing_events.join(", ")
            ),
            fix: reinstall.clone(),
        });
    }
    if !install.untrusted_events.is_empty() {
        problems.push(Problem {
            host: Some(host),
            text: format!(
                "{}: {} skips ocmem's hooks for {}, which it has not been told to trust",
                install.path,
                host.display_name(),
                install.untrusted_events.join(", ")
            ),
            fix: format!("{reinstall} (writes the trust entries)"),
        });
    }
}

/// The report as aligned text.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let mut row = |label: &str, text: String| out.push_str(&format!("{label:<13}{text}\n"));
    row(
        "ocmem",
        format!(
            "{} at {}",
            report.ocmem.version,
            report.ocmem.path.as_deref().unwrap_or("(unknown path)")
        ),
    );
    let dir = &report.data_dir;
    let state = match (dir.exists, dir.writable) {
        (true, true) => "writable",
        (false, true) => "not created yet, can be",
        (_, false) => "NOT WRITABLE",
    };
    row("data dir", format!("{} ({state})", dir.path));
    if let Some(ws) = &report.workspace {
        row("workspace", format!("{} (key {})", ws.root, ws.key));
        match &ws.adopted_from {
            Some(AdoptedFrom { root, at: Some(at) }) => row(
                "",
                format!("  memory adopted from {root} (folder gone) at {at}"),
            ),
            Some(AdoptedFrom { root, at: None }) => row(
                "",
                format!("  memory of {root} (folder gone) will be adopted at the next hook"),
            ),
            None => {}
        }
    }
    row("memory", report.memory.line().into());
    if let Some(team) = &report.team {
        let findings = match team.findings.len() {
            0 => String::new(),
            n => format!(", {n} finding(s)"),
        };
        row(
            "team memory",
            format!("{} ({} entries{findings})", team.path, team.entries),
        );
    }
    for host in &report.hosts {
        let name = host.host.as_str();
        if host.installs.is_empty() {
            row(name, "not installed".into());
        }
        for (i, install) in host.installs.iter().enumerate() {
            let label = if i == 0 { name } else { "" };
            row(
                label,
                format!("{:<8}{}", install.level.as_str(), install.path),
            );
            if let Some(error) = &install.error {
                row("", format!("  cannot be read: {error}"));
            }
            for binary in &install.binaries {
                let status = match (&binary.version, &binary.error) {
                    (Some(version), _) if binary.runs => format!("ok, {version}"),
                    (_, Some(error)) => format!("BROKEN: {error}"),
                    _ => "BROKEN".into(),
                };
                let shown = match &binary.path {
                    Some(path) if *path != binary.program => {
                        format!("{} ({path})", binary.program)
                    }
                    _ => binary.program.clone(),
                };
                row("", format!("  runs {shown}: {status}"));
            }
            if !install.missing_events.is_empty() {
                row(
                    "",
                    format!("  missing hooks: {}", install.missing_events.join(", ")),
                );
            }
        }
        row(
            "",
            format!(
                "  last call {}",
                host.last_call.as_deref().unwrap_or("never")
            ),
        );
    }
    if report.warnings.is_empty() {
        row("warnings", "none".into());
    }
    for (i, warning) in report.warnings.iter().enumerate() {
        let host = warning
            .host
            .map_or(String::new(), |h| format!(" {}", h.as_str()));
        let label = if i == 0 { "warnings" } else { "" };
        row(label, format!("{}{host}: {}", warning.at, warning.text));
    }
    if report.problems.is_empty() {
        row("problems", "none".into());
    }
    for (i, problem) in report.problems.iter().enumerate() {
        let label = if i == 0 { "problems" } else { "" };
        row(label, problem.line());
    }
    out
}

#[cfg(test)]
mod tests;
