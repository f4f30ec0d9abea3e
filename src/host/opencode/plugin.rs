//! OpenCode's plugin file: its text, embedded so that `ocmem init opencode` needs no checkout,
//! the binary it runs, and the directories OpenCode loads it from.
//!
//! OpenCode loads every `*.ts` and `*.js` file of the `plugin/` and `plugins/` directories of
//! each of its config directories: its global one (`$XDG_CONFIG_HOME/opencode`, else
//! `~/.config/opencode`) and the `.opencode/` ones of the project.

use std::path::{Path, PathBuf};

use crate::domain::base::install_level::Level;

/// The plugin as this binary was built with it.
pub const SOURCE: &str = include_str!("../../../integrations/opencode/ocmem.js");

/// The plugin's file name in a plugin directory.
pub const FILE_NAME: &str = "ocmem.js";

/// The plugin directory names OpenCode reads in a config directory; init installs into the
/// first, the one OpenCode documents.
pub const PLUGIN_DIRS: [&str; 2] = ["plugins", "plugin"];

/// The line of the plugin that names the binary it runs, up to the value.
const BIN_LINE: &str = "const INSTALLED_BIN = ";

/// The config directory of a level: the project's `.opencode/`, or OpenCode's global one.
pub fn config_dir(
    level: Level,
    project_root: &Path,
    home: Option<&Path>,
    xdg_config_home: Option<&Path>,
) -> Option<PathBuf> {
    match level {
        Level::Project => Some(project_root.join(".opencode")),
        Level::User => {
            let base = match xdg_config_home {
                Some(dir) => dir.to_path_buf(),
                None => home?.join(".config"),
            };
            Some(base.join("opencode"))
        }
    }
}

/// Where the plugin may be in a config directory, the place init installs to first.
pub fn candidate_files(config_dir: &Path) -> [PathBuf; 2] {
    PLUGIN_DIRS.map(|dir| config_dir.join(dir).join(FILE_NAME))
}

/// The plugin with `binary` as the binary it runs.
pub fn with_binary(binary: &Path) -> String {
    let value = serde_json::to_string(&binary.to_string_lossy()).expect("a string serializes");
    let empty = format!("{BIN_LINE}\"\";");
    debug_assert_eq!(SOURCE.matches(&empty).count(), 1);
    SOURCE.replacen(&empty, &format!("{BIN_LINE}{value};"), 1)
}

/// The binary an installed plugin runs: `Some(None)` for a plugin that runs `ocmem` on PATH
/// (a copy made by hand, or one from before init), `None` when the text is not ocmem's plugin.
pub fn installed_binary(text: &str) -> Option<Option<String>> {
    if !text.contains("OcmemPlugin") {
        return None;
    }
    let Some(line) = text.lines().find_map(|l| l.trim().strip_prefix(BIN_LINE)) else {
        return Some(None);
    };
    let value = line.trim_end().trim_end_matches(';');
    match serde_json::from_str::<String>(value) {
        Ok(path) if !path.is_empty() => Some(Some(path)),
        _ => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_is_written_into_the_plugin_and_read_back() {
        assert_eq!(
            installed_binary(SOURCE),
            Some(None),
            "the checked-in plugin uses PATH"
        );
        for path in [
            "/home/dev/.cargo/bin/ocmem",
            "/opt/my \"tools\"/ocmem",
            "C:\\ocmem\\ocmem.exe",
        ] {
            let text = with_binary(Path::new(path));
            assert_eq!(
                installed_binary(&text),
                Some(Some(path.to_string())),
                "{path}"
            );
            // Only that line changed.
            let changed: Vec<_> = SOURCE
                .lines()
                .zip(text.lines())
                .filter(|(a, b)| a != b)
                .collect();
            assert_eq!(changed.len(), 1, "{changed:?}");
            assert_eq!(SOURCE.lines().count(), text.lines().count());
        }
        assert_eq!(
            installed_binary("export const Other = async () => ({});"),
            None
        );
    }

    #[test]
    fn config_dirs_follow_the_level_and_xdg_config_home() {
        let root = Path::new("/home/dev/demo");
        let home = Some(Path::new("/home/dev"));
        assert_eq!(
            config_dir(Level::Project, root, home, None).unwrap(),
            Path::new("/home/dev/demo/.opencode")
        );
        assert_eq!(
            config_dir(Level::User, root, home, None).unwrap(),
            Path::new("/home/dev/.config/opencode")
        );
        assert_eq!(
            config_dir(Level::User, root, home, Some(Path::new("/xdg"))).unwrap(),
            Path::new("/xdg/opencode")
        );
        assert_eq!(
            candidate_files(Path::new("/c")),
            [
                PathBuf::from("/c/plugins/ocmem.js"),
                PathBuf::from("/c/plugin/ocmem.js")
            ]
        );
    }
}
