//! `ocmem init codex`: ocmem's hooks in Codex's `hooks.json` (the user's, or the project's
//! `.codex/hooks.json`) and the entries of the user's `config.toml` that make Codex run them:
//! each hook's trust entry and, for a project, the project's trust.

use anyhow::{bail, Context as _, Result};
use serde_json::Value;

use super::Install;
use crate::domain::base::install_level::Level;
use crate::engine::instructions::CANDIDATES_INSTRUCTION;
use crate::host::claude_code::settings::render;
use crate::host::codex::hooks_file::{self as codex, FoundHook};
use crate::host::install::Places;
use crate::store::host_files::{self, read_config, read_settings, Original};

/// What `--compact-prompt` sets as Codex's compaction prompt: a handoff summary, ending with
/// ocmem's request for memory candidates. It replaces Codex's built-in prompt, and a static
/// setting cannot carry what memory already holds (the other hosts' hooks add it).
pub fn compact_prompt() -> String {
    format!(
        "Summarise this coding session so that the work can go on from the summary alone. \
         Say what the user asked for and prefers, the decisions taken and why, what is done, \
         what still fails and what comes next, and the files, commands and exact error \
         messages that still matter. Be concise: the summary replaces the conversation.\n\n\
         {CANDIDATES_INSTRUCTION}"
    )
}

impl Install<'_> {
    pub(super) fn codex(&self, places: &Places, set_compact_prompt: bool) -> Result<String> {
        let (hooks_path, config_path) = places.codex_files(self.level)?;
        let file = read_settings(&hooks_path)?;
        let config = read_config(&config_path)?;
        let config_text = config.as_deref().unwrap_or_default();
        let project = (self.level == Level::Project).then_some(places.project_root.as_path());
        if let Some(dir) =
            project.filter(|dir| codex::project_trust(config_text, dir) == Some(false))
        {
            bail!(
                "{} marks the project {} as untrusted, and Codex ignores an untrusted project's .codex/hooks.json; trust the project in Codex first, or install for every project with `ocmem init codex --user`",
                config_path.display(),
                dir.display()
            );
        }
        let command = codex::hook_command(self.binary);
        let installed = codex::install(&file.value, &command)
            .with_context(|| format!("cannot add ocmem's hooks to {}", hooks_path.display()))?;
        let before = codex::ocmem_hooks(&hooks_path, &file.value);
        let after = codex::ocmem_hooks(&hooks_path, &installed);
        let stale: Vec<&str> = before.iter().map(|h| h.key.as_str()).collect();
        let mut trusted =
            codex::with_trust(&codex::without_trust(config_text, &stale), &after, project);
        if set_compact_prompt {
            trusted =
                codex::with_compact_prompt(&trusted, &compact_prompt()).with_context(|| {
                    format!("cannot set compact_prompt in {}", config_path.display())
                })?;
        }
        let mut out = String::new();
        if installed == file.value && trusted == config_text {
            out.push_str(&format!(
                "Codex's ocmem hooks are already installed and trusted in {}, running {}\n",
                hooks_path.display(),
                self.binary.display()
            ));
            return Ok(out);
        }
        if before.is_empty() {
            self.keep_original(&hooks_path, file.text.as_deref())?;
            if host_files::read_original(self.data_dir, &config_path)?.is_none() {
                self.keep_original(&config_path, config.as_deref())?;
            }
        }
        if installed != file.value {
            self.write(
                &hooks_path,
                &render(&installed, file.text.as_deref()),
                &mut out,
            )?;
        }
        if trusted != config_text {
            self.write(&config_path, &trusted, &mut out)?;
        }
        if self.dry_run {
            return Ok(out);
        }
        let what = match before.first() {
            None => format!(
                "installed Codex's ocmem hooks for the {} in {}",
                self.level.as_str(),
                hooks_path.display()
            ),
            Some(old) if old.program != self.binary_text() => format!(
                "updated Codex's ocmem hooks in {} (they ran {})",
                hooks_path.display(),
                old.program
            ),
            Some(_) => format!("repaired Codex's ocmem hooks in {}", hooks_path.display()),
        };
        out.push_str(&format!(
            "{what}, running {}, and trusted them in {}{}\n",
            self.binary.display(),
            config_path.display(),
            if project.is_some() {
                " with the project"
            } else {
                ""
            }
        ));
        Ok(out)
    }

    pub(super) fn codex_uninstall(&self, places: &Places) -> Result<String> {
        let (hooks_path, config_path) = places.codex_files(self.level)?;
        let file = read_settings(&hooks_path)?;
        let found: Vec<FoundHook> = codex::ocmem_hooks(&hooks_path, &file.value);
        if found.is_empty() {
            return Ok(format!(
                "Codex's ocmem hooks are not installed in {}\n",
                hooks_path.display()
            ));
        }
        let mut out = String::new();
        let stripped = codex::uninstall(&file.value);
        let original = host_files::read_original(self.data_dir, &hooks_path)?;
        let restore = original.filter(|original| match &original.text {
            Some(text) => serde_json::from_str::<Value>(text).is_ok_and(|v| v == stripped),
            None => stripped == Value::Object(Default::default()),
        });
        match restore {
            Some(Original {
                text: None,
                created_dirs,
                ..
            }) => {
                if self.dry_run {
                    out.push_str(&format!("would remove {}\n", hooks_path.display()));
                } else {
                    host_files::remove(&hooks_path)?;
                    host_files::remove_empty_dirs(&created_dirs)?;
                }
            }
            Some(Original {
                text: Some(text), ..
            }) => self.write(&hooks_path, &text, &mut out)?,
            None => self.write(
                &hooks_path,
                &render(&stripped, file.text.as_deref()),
                &mut out,
            )?,
        }
        let config = read_config(&config_path)?;
        if let Some(config) = config.as_deref() {
            let keys: Vec<&str> = found.iter().map(|h| h.key.as_str()).collect();
            let untrusted = codex::without_compact_prompt(
                &codex::without_trust(config, &keys),
                &compact_prompt(),
            );
            let original = host_files::read_original(self.data_dir, &config_path)?;
            // The file as it was, when nothing but ocmem's entries changed since; the project's
            // trust, which ocmem added, goes with them then.
            let restored = original.as_ref().and_then(|original| {
                let before = original.text.as_deref().unwrap_or_default();
                let without = match self.level {
                    Level::Project
                        if codex::project_trust(before, &places.project_root).is_none() =>
                    {
                        codex::without_project(&untrusted, &places.project_root)
                    }
                    _ => untrusted.clone(),
                };
                codex::same_but_blank_lines(&without, before).then_some(original)
            });
            match restored {
                Some(Original {
                    text: None,
                    created_dirs,
                    ..
                }) if !self.dry_run => {
                    host_files::remove(&config_path)?;
                    host_files::remove_empty_dirs(created_dirs)?;
                }
                Some(Original { text: None, .. }) => {
                    out.push_str(&format!("would remove {}\n", config_path.display()));
                }
                Some(Original {
                    text: Some(text), ..
                }) => self.write(&config_path, text, &mut out)?,
                None if untrusted != config => self.write(&config_path, &untrusted, &mut out)?,
                None => {}
            }
        }
        if !self.dry_run {
            host_files::forget_original(self.data_dir, &hooks_path)?;
            host_files::forget_original(self.data_dir, &config_path)?;
            out.push_str(&format!(
                "removed Codex's ocmem hooks from {} and their trust entries from {}\n",
                hooks_path.display(),
                config_path.display()
            ));
        }
        Ok(out)
    }
}
