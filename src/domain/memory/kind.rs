//! The four kinds of workspace memory.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryType {
    /// How the user wants the agent to work (preferences, corrections).
    Feedback,
    /// Stable facts and constraints of the project.
    Project,
    /// Decisions taken, ideally with a one-sentence rationale.
    Decision,
    /// Hard-to-rediscover pointers: URLs, dashboards, documents.
    Reference,
}

impl MemoryType {
    pub const ALL: [MemoryType; 4] = [
        MemoryType::Feedback,
        MemoryType::Project,
        MemoryType::Decision,
        MemoryType::Reference,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Feedback => "feedback",
            MemoryType::Project => "project",
            MemoryType::Decision => "decision",
            MemoryType::Reference => "reference",
        }
    }

    /// Case-insensitive.
    pub fn parse(text: &str) -> Option<MemoryType> {
        MemoryType::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in MemoryType::ALL {
            assert_eq!(MemoryType::parse(t.as_str()), Some(t));
        }
        assert_eq!(MemoryType::parse(" Decision "), Some(MemoryType::Decision));
        assert_eq!(MemoryType::parse("note"), None);
    }
}
