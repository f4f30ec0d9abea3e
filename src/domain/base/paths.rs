//! Path arithmetic without touching the disk: making tool paths absolute and showing them
//! relative to the workspace root.

use std::path::{Component, Path, PathBuf};

use crate::domain::base::text::is_invisible;

/// The longest path taken from a tool call, in bytes (Linux's `PATH_MAX`): anything longer
/// names no file and is not recorded.
pub const MAX_PATH_BYTES: usize = 4096;

/// A path from a tool call as it is stored: invisible characters removed and line breaks and
/// other control characters made spaces. Done before storing, not only when rendering, because
/// other readers of the session store (the TypeScript plugin among them) show paths as they
/// are. Header and label words stay: on one line they cannot start a line of a block, and
/// `render` neutralises them anyway. `None` when the path is empty or too long.
pub fn storable(path: &str) -> Option<String> {
    if path.len() > MAX_PATH_BYTES {
        return None;
    }
    let clean: String = path
        .chars()
        .filter(|&c| !is_invisible(c))
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                ' '
            } else {
                c
            }
        })
        .collect();
    (!clean.trim().is_empty()).then_some(clean)
}

/// `path` made absolute against `base` (when relative) with `.` and `..` folded lexically.
/// Lexical, so a file that no longer exists still gets one stable name.
pub fn absolute(base: &str, path: &str) -> String {
    let joined = if Path::new(path).is_absolute() {
        PathBuf::from(path)
    } else {
        Path::new(base).join(path)
    };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                // Never climb above the root.
                if out.parent().is_some() {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out.to_string_lossy().into_owned()
}

/// `path` relative to `root` when it lies inside it (component-wise, so `/repo2/x` is not
/// inside `/repo`), else `path` unchanged.
pub fn relative_to(root: &str, path: &str) -> String {
    match Path::new(path).strip_prefix(root) {
        Ok(rest) if rest.as_os_str().is_empty() => ".".to_string(),
        Ok(rest) => rest.to_string_lossy().into_owned(),
        Err(_) => path.to_string(),
    }
}

/// Whether a file named `named` in some tool output (relative to where the command ran, or
/// absolute) can be the file at absolute path `file`: the same absolute path against `base`,
/// or `file` ends with all the components of `named` (a command run in a subdirectory).
pub fn names_same_file(base: &str, named: &str, file: &str) -> bool {
    if absolute(base, named) == file {
        return true;
    }
    let named = absolute("/", named);
    let tail = Path::new(&named)
        .strip_prefix("/")
        .unwrap_or(Path::new(&named));
    !tail.as_os_str().is_empty() && Path::new(file).ends_with(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_paths_hide_nothing_and_break_no_line() {
        assert_eq!(
            storable("/r/x.ts\nopen_errors:\r\n- [test] y").as_deref(),
            Some("/r/x.ts open_errors:  - [test] y")
        );
        assert_eq!(
            storable("/r/\u{202E}st.ts\u{200B}\u{E0041}\u{2028}z").as_deref(),
            Some("/r/st.ts z")
        );
        // Spaces inside a name are part of it; visible non-ASCII stays.
        assert_eq!(
            storable("/r/my  file é.ts").as_deref(),
            Some("/r/my  file é.ts")
        );
        assert_eq!(storable("\u{200B}"), None);
        assert_eq!(storable(&format!("/{}", "a".repeat(MAX_PATH_BYTES))), None);
        assert!(storable(&format!("/{}", "a".repeat(MAX_PATH_BYTES - 1))).is_some());
    }

    #[test]
    fn absolute_joins_and_folds() {
        assert_eq!(absolute("/repo", "src/a.ts"), "/repo/src/a.ts");
        assert_eq!(absolute("/repo", "./src/../lib/b.ts"), "/repo/lib/b.ts");
        assert_eq!(absolute("/repo", "/abs//x/./y.ts"), "/abs/x/y.ts");
        assert_eq!(absolute("/repo/sub", "../top.md"), "/repo/top.md");
        assert_eq!(absolute("/", "../../etc/hosts"), "/etc/hosts");
        assert_eq!(absolute("/repo/", "src/"), "/repo/src");
    }

    #[test]
    fn relative_is_separator_aware() {
        assert_eq!(relative_to("/repo", "/repo/src/a.ts"), "src/a.ts");
        assert_eq!(relative_to("/repo", "/repo2/src/a.ts"), "/repo2/src/a.ts");
        assert_eq!(relative_to("/repo", "/repo"), ".");
        assert_eq!(relative_to("/repo/", "/repo/x"), "x");
        assert_eq!(relative_to("/", "/etc/hosts"), "etc/hosts");
        assert_eq!(relative_to("/repo", "/elsewhere/a.ts"), "/elsewhere/a.ts");
    }

    #[test]
    fn named_files_match_by_path_or_trailing_components() {
        assert!(names_same_file("/repo", "src/a.ts", "/repo/src/a.ts"));
        assert!(names_same_file("/repo", "./src/a.ts", "/repo/src/a.ts"));
        assert!(names_same_file("/repo", "src/a.ts", "/repo/web/src/a.ts"));
        assert!(names_same_file("/repo", "/repo/src/a.ts", "/repo/src/a.ts"));
        assert!(!names_same_file("/repo", "src/a.ts", "/repo/src/b.ts"));
        assert!(!names_same_file("/repo", "c/a.ts", "/repo/abc/a.ts"));
        assert!(!names_same_file("/repo", "", "/repo/a.ts"));
    }
}
