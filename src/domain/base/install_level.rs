//! Where a host integration is installed: for one project, or for the user (every project).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    Project,
    User,
}

impl Level {
    /// Every level, in the order reports list them.
    pub const ALL: [Level; 2] = [Level::Project, Level::User];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Project => "project",
            Level::User => "user",
        }
    }

    /// The `ocmem init` flag that chooses this level.
    pub fn flag(self) -> &'static str {
        match self {
            Level::Project => "--project",
            Level::User => "--user",
        }
    }

    pub fn other(self) -> Level {
        match self {
            Level::Project => Level::User,
            Level::User => Level::Project,
        }
    }
}
