//! `ocmem doctor`: gathers what a user needs to know when memory seems dead (this binary, the
//! data directory, each host's integration and whether the binary it runs works, the
//! workspace's last host calls and warnings) and hands it to `domain::upkeep::doctor`, which finds the
//! problems and formats the report. Changes nothing.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use super::{print, Run};
use crate::cli::Doctor;
use crate::context::{Context, InstallEnv};
use crate::domain::base::host_name::HostName;
use crate::domain::base::install_level::Level;
use crate::domain::base::text::one_line;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::upkeep::doctor::{
    self, AdoptedFrom, BinaryCheck, DataDir, HostReport, InstallReport, Report, ThisBinary,
    Warning, WorkspaceInfo,
};
use crate::host::claude_code::settings as claude;
use crate::host::codex::hooks_file as codex;
use crate::host::gemini::settings as gemini;
use crate::host::install::{find_plugins, Places};
use crate::store::adopt::Candidacy;
use crate::store::host_files::{self, read_config, read_settings};
use crate::store::Workspace;

/// The latest warnings the report shows.
const WARNINGS_SHOWN: usize = 5;

/// How long a host's binary may take to print its version.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

impl Run for Doctor {
    fn run(&self, ctx: &Context) -> Result<()> {
        let env = InstallEnv::from_env();
        let report = gather(ctx, &env);
        let text = if self.json {
            format!("{}\n", serde_json::to_string_pretty(&report)?)
        } else {
            doctor::render_text(&report)
        };
        print(&text)?;
        if !report.problems.is_empty() {
            for problem in &report.problems {
                eprintln!("ocmem: doctor: {}", problem.line());
            }
            let n = report.problems.len();
            bail!("doctor found {n} problem{}", if n == 1 { "" } else { "s" });
        }
        Ok(())
    }
}

fn gather(ctx: &Context, env: &InstallEnv) -> Report {
    let data_dir = std::path::absolute(&ctx.data_dir).unwrap_or_else(|_| ctx.data_dir.clone());
    let places = Places::new(env).ok();
    let store = ctx.store();
    let workspace = places
        .as_ref()
        .map(|p| store.locate_workspace(&p.project_root.to_string_lossy()));
    let workspace_off = workspace.as_ref().map(crate::store::switch::is_off);
    let calls = workspace
        .as_ref()
        .map(|w| store.host_calls(w))
        .unwrap_or_default();
    let hosts = HostName::ALL
        .into_iter()
        .map(|host| HostReport {
            host,
            installs: places
                .as_ref()
                .map(|p| installs(host, p, env))
                .unwrap_or_default(),
            last_call: calls
                .iter()
                .filter(|(h, _)| *h == host)
                .map(|(_, ms)| *ms)
                .max()
                .map(format_rfc3339_ms),
        })
        .collect();
    let warnings = crate::store::warnings::recent(&data_dir, WARNINGS_SHOWN)
        .into_iter()
        .map(|w| Warning {
            at: w.at,
            host: w.host,
            text: w.text,
        })
        .collect();
    let mut report = Report {
        schema: doctor::SCHEMA,
        ocmem: ThisBinary {
            version: env!("CARGO_PKG_VERSION").into(),
            path: env.current_exe.as_ref().map(|p| display(p)),
        },
        data_dir: DataDir {
            path: display(&data_dir),
            exists: data_dir.is_dir(),
            writable: host_files::dir_writable(&data_dir),
        },
        workspace: workspace.map(|w| WorkspaceInfo {
            adopted_from: adopted_from(&store, &w),
            root: w.root,
            key: w.key,
        }),
        hosts,
        warnings,
        problems: Vec::new(),
        memory: doctor::MemorySwitch::new(ctx.disabled, workspace_off.is_some_and(|off| off)),
        team: places.as_ref().and_then(|p| team_info(&p.project_root)),
    };
    report.problems = doctor::problems(&report);
    report
}

/// The team file of the repository `dir` is in, when there is one.
fn team_info(dir: &std::path::Path) -> Option<doctor::TeamInfo> {
    let read = crate::store::team::read_team(&crate::store::team::repository_root(dir));
    if !read.path.exists() {
        return None;
    }
    let mut findings: Vec<String> = read.unreadable.iter().cloned().collect();
    findings.extend(
        crate::domain::memory::team::check::findings(&read.memory)
            .iter()
            .map(|f| f.check_line()),
    );
    Some(doctor::TeamInfo {
        path: display(&read.path),
        entries: read.memory.entries.len(),
        findings,
    })
}

/// The memory `workspace` took over from a renamed or moved folder, or would at its next
/// hook.
fn adopted_from(store: &crate::store::Store, workspace: &Workspace) -> Option<AdoptedFrom> {
    if workspace.dir.exists() {
        let adoption = store.adoption(workspace).ok()??;
        return Some(AdoptedFrom {
            root: adoption.root,
            at: Some(adoption.at),
        });
    }
    match store.candidacy(workspace).ok()? {
        Candidacy::One(orphan) => Some(AdoptedFrom {
            root: orphan.root,
            at: None,
        }),
        Candidacy::Several(_) | Candidacy::Nothing => None,
    }
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Every place `host`'s integration is installed, at both levels.
fn installs(host: HostName, places: &Places, env: &InstallEnv) -> Vec<InstallReport> {
    let mut found = Vec::new();
    for level in Level::ALL {
        match host {
            HostName::OpenCode => opencode_installs(places, level, env, &mut found),
            HostName::ClaudeCode => claude_code_installs(places, level, env, &mut found),
            HostName::Codex => codex_installs(places, level, env, &mut found),
            HostName::GeminiCli => gemini_installs(places, level, env, &mut found),
        }
    }
    found
}

fn opencode_installs(
    places: &Places,
    level: Level,
    env: &InstallEnv,
    out: &mut Vec<InstallReport>,
) {
    let Ok(dir) = places.opencode_dir(level) else {
        return;
    };
    match find_plugins(&dir) {
        Ok(plugins) => out.extend(plugins.into_iter().map(|plugin| InstallReport {
            level,
            path: display(&plugin.path),
            error: None,
            binaries: vec![check_binary(
                plugin.binary.as_deref().unwrap_or("ocmem"),
                env,
            )],
            missing_events: Vec::new(),
            untrusted_events: Vec::new(),
        })),
        Err(e) => out.push(report_at(level, &dir, Some(format!("{e:#}")))),
    }
}

fn claude_code_installs(
    places: &Places,
    level: Level,
    env: &InstallEnv,
    out: &mut Vec<InstallReport>,
) {
    let Ok(path) = places.claude_settings(level) else {
        return;
    };
    // The project's shared settings file too: a team may have committed ocmem's hooks.
    let mut paths = vec![path.clone()];
    if level == Level::Project {
        paths.push(path.with_file_name("settings.json"));
    }
    for path in paths {
        let settings = match read_settings(&path) {
            Ok(settings) => settings,
            Err(e) => {
                out.push(report_at(level, &path, Some(one_line(&format!("{e:#}")))));
                continue;
            }
        };
        let hooks = claude::ocmem_hooks(&settings.value);
        if hooks.is_empty() {
            continue;
        }
        out.push(InstallReport {
            binaries: check_binaries(hooks.iter().map(|h| h.program.as_str()), env),
            missing_events: owned(claude::missing_events(&hooks)),
            ..report_at(level, &path, None)
        });
    }
}

fn gemini_installs(places: &Places, level: Level, env: &InstallEnv, out: &mut Vec<InstallReport>) {
    let Ok(path) = places.gemini_settings(level) else {
        return;
    };
    let settings = match read_settings(&path) {
        Ok(settings) => settings,
        Err(e) => {
            out.push(report_at(level, &path, Some(one_line(&format!("{e:#}")))));
            return;
        }
    };
    let hooks = gemini::ocmem_hooks(&settings.value);
    if hooks.is_empty() {
        return;
    }
    // A hook that is not silenced refuses the user's prompt when its binary is gone.
    let unsilenced = hooks.iter().find(|h| !h.silenced).map(|h| {
        format!(
            "its {} hook does not end in `{}`: Gemini CLI refuses every prompt when the binary cannot be run; run `ocmem init gemini {}` again",
            h.event,
            gemini::SILENCER.join(" "),
            level.flag()
        )
    });
    out.push(InstallReport {
        binaries: check_binaries(hooks.iter().map(|h| h.program.as_str()), env),
        missing_events: owned(gemini::missing_events(&hooks)),
        ..report_at(level, &path, unsilenced)
    });
}

/// The report of the file at `path` before anything is found in it.
fn report_at(level: Level, path: &Path, error: Option<String>) -> InstallReport {
    InstallReport {
        level,
        path: display(path),
        error,
        binaries: Vec::new(),
        missing_events: Vec::new(),
        untrusted_events: Vec::new(),
    }
}

/// Each of the programs hooks run, checked once, in sorted order.
fn check_binaries<'p>(
    programs: impl Iterator<Item = &'p str>,
    env: &InstallEnv,
) -> Vec<BinaryCheck> {
    let mut programs: Vec<&str> = programs.collect();
    programs.sort_unstable();
    programs.dedup();
    programs.iter().map(|p| check_binary(p, env)).collect()
}

fn owned(events: Vec<&str>) -> Vec<String> {
    events.into_iter().map(str::to_owned).collect()
}

/// Runs `program --version`, found on PATH when it names no directory, and says whether it
/// is an ocmem that works.
fn check_binary(program: &str, env: &InstallEnv) -> BinaryCheck {
    let path = if program.contains('/') {
        Some(PathBuf::from(program))
    } else {
        find_on_path(program, env.path.as_deref())
    };
    let mut check = BinaryCheck {
        program: program.to_string(),
        path: path.as_ref().map(|p| display(p)),
        runs: false,
        version: None,
        error: None,
    };
    let Some(path) = path else {
        check.error = Some("is not on PATH".into());
        return check;
    };
    if !path.is_file() {
        check.error = Some("does not exist".into());
        return check;
    }
    match run_version(&path) {
        Ok(version) if version.starts_with("ocmem ") => {
            check.runs = true;
            check.version = Some(version);
        }
        Ok(version) => check.error = Some(format!("printed {version:?} for --version")),
        Err(error) => check.error = Some(error),
    }
    check
}

fn find_on_path(program: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// The first line `path --version` prints, or why it did not.
fn run_version(path: &Path) -> Result<String, String> {
    let mut child = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot be run ({e})"))?;
    let deadline = Instant::now() + VERSION_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not answer --version within {} s",
                    VERSION_TIMEOUT.as_secs()
                ));
            }
            Err(e) => return Err(format!("cannot be waited for ({e})")),
        }
    };
    let mut stdout = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        use std::io::Read;
        let _ = pipe.read_to_string(&mut stdout);
    }
    if !status.success() {
        return Err(format!("fails ({status})"));
    }
    Ok(stdout.lines().next().unwrap_or("").trim().to_string())
}

fn codex_installs(places: &Places, level: Level, env: &InstallEnv, out: &mut Vec<InstallReport>) {
    let Ok((hooks_path, config_path)) = places.codex_files(level) else {
        return;
    };
    let mut report = report_at(level, &hooks_path, None);
    let read = read_settings(&hooks_path).and_then(|file| Ok((file, read_config(&config_path)?)));
    let (file, config) = match read {
        Ok(read) => read,
        Err(e) => {
            report.error = Some(one_line(&format!("{e:#}")));
            out.push(report);
            return;
        }
    };
    let hooks = codex::ocmem_hooks(&hooks_path, &file.value);
    if hooks.is_empty() {
        return;
    }
    let config = config.unwrap_or_default();
    report.binaries = check_binaries(hooks.iter().map(|h| h.program.as_str()), env);
    report.missing_events = owned(codex::missing_events(&hooks));
    let project_untrusted = level == Level::Project
        && codex::project_trust(&config, &places.project_root) != Some(true);
    report.untrusted_events = hooks
        .iter()
        .filter(|hook| project_untrusted || !codex::is_trusted(&config, hook))
        .map(|hook| hook.event.clone())
        .collect();
    out.push(report);
}
