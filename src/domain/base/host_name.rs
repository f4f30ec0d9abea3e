//! The agents ocmem serves. Each has one module under `src/host/` that knows its payloads,
//! its output format and its settings files; everything else only knows its name.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HostName {
    #[serde(rename = "opencode")]
    OpenCode,
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "codex")]
    Codex,
    #[serde(rename = "gemini")]
    GeminiCli,
}

impl HostName {
    /// Every host, in the order reports list them.
    pub const ALL: [HostName; 4] = [
        HostName::OpenCode,
        HostName::ClaudeCode,
        HostName::Codex,
        HostName::GeminiCli,
    ];

    /// The name used on the command line (`ocmem hook claude-code`) and in files.
    pub fn as_str(self) -> &'static str {
        match self {
            HostName::OpenCode => "opencode",
            HostName::ClaudeCode => "claude-code",
            HostName::Codex => "codex",
            HostName::GeminiCli => "gemini",
        }
    }

    pub fn from_name(name: &str) -> Option<HostName> {
        HostName::ALL.into_iter().find(|h| h.as_str() == name)
    }

    /// How people write the host's name.
    pub fn display_name(self) -> &'static str {
        match self {
            HostName::OpenCode => "OpenCode",
            HostName::ClaudeCode => "Claude Code",
            HostName::Codex => "Codex",
            HostName::GeminiCli => "Gemini CLI",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for host in HostName::ALL {
            assert_eq!(HostName::from_name(host.as_str()), Some(host));
            let json = serde_json::to_string(&host).unwrap();
            assert_eq!(json, format!("\"{}\"", host.as_str()));
        }
        assert_eq!(HostName::from_name("claude"), None);
    }
}
