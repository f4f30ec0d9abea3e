//! `ocmem init gemini`: ocmem's hooks in Gemini CLI's `settings.json`, merged keeping every
//! other setting, and taken out again restoring the file as it was.

use anyhow::{Context as _, Result};

use super::Install;
use crate::host::claude_code::settings::render;
use crate::host::gemini::settings as gemini;
use crate::host::install::Places;
use crate::store::host_files::read_settings;

impl Install<'_> {
    pub(super) fn gemini(&self, places: &Places) -> Result<String> {
        let path = places.gemini_settings(self.level)?;
        let settings = read_settings(&path)?;
        let command = gemini::hook_command(self.binary);
        let installed = gemini::install(&settings.value, &command)
            .with_context(|| format!("cannot add ocmem's hooks to {}", path.display()))?;
        let before = gemini::ocmem_hooks(&settings.value);
        let mut out = String::new();
        if installed == settings.value {
            out.push_str(&format!(
                "Gemini CLI's ocmem hooks are already installed in {}, running {}\n",
                path.display(),
                self.binary.display()
            ));
            return Ok(out);
        }
        if before.is_empty() {
            self.keep_original(&path, settings.text.as_deref())?;
        }
        let text = render(&installed, settings.text.as_deref());
        self.write(&path, &text, &mut out)?;
        if self.dry_run {
            return Ok(out);
        }
        let binary = self.binary_text();
        let what = if before.is_empty() {
            format!(
                "installed Gemini CLI's ocmem hooks for the {} in {}",
                self.level.as_str(),
                path.display()
            )
        } else if let Some(old) = before.iter().find(|hook| hook.program != binary) {
            format!(
                "updated Gemini CLI's ocmem hooks in {} (they ran {})",
                path.display(),
                old.program
            )
        } else {
            format!("completed Gemini CLI's ocmem hooks in {}", path.display())
        };
        out.push_str(&format!("{what}, running {}\n", self.binary.display()));
        Ok(out)
    }

    pub(super) fn gemini_uninstall(&self, places: &Places) -> Result<String> {
        let path = places.gemini_settings(self.level)?;
        let settings = read_settings(&path)?;
        if gemini::ocmem_hooks(&settings.value).is_empty() {
            return Ok(format!(
                "Gemini CLI's ocmem hooks are not installed in {}\n",
                path.display()
            ));
        }
        let stripped = gemini::uninstall(&settings.value);
        self.put_back(&path, &settings, &stripped, "Gemini CLI's ocmem hooks")
    }
}
