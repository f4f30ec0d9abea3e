//! Host-neutral events: what every host's hook payloads are decoded into (by the modules under
//! `src/host/`) before anything else looks at them. Nothing here knows a host's field names.

use std::borrow::Cow;

use crate::domain::base::host_name::HostName;
use crate::domain::session::state::FileAction;

/// The session an event belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRef<'a> {
    /// The host whose hook sent the event.
    pub host: HostName,
    /// The absolute directory the agent runs in: relative paths are relative to it, and its
    /// workspace is the one whose memory is used.
    pub directory: &'a str,
    pub session_id: &'a str,
}

/// What kind of work a tool call was, as far as memory cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    Read,
    Edit,
    Write,
    /// A content search: the files it found.
    Grep,
    /// A shell command: its exit status decides what it records.
    Shell,
    /// A patch adding, changing, moving and deleting files.
    Patch,
    /// Anything else (listings, web fetches, sub-agents): records nothing.
    Other,
}

/// What a call did to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileChange<'a> {
    Touched { path: &'a str, action: FileAction },
    Deleted { path: &'a str },
    Moved { from: &'a str, to: &'a str },
}

/// A finished shell command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellRun<'a> {
    pub command: &'a str,
    /// `None` when the host did not say (or the command was interrupted): nothing is recorded
    /// or cleared then.
    pub exit: Option<i64>,
    /// What the command printed, stdout and stderr together.
    pub output: Cow<'a, str>,
}

/// One finished tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall<'a> {
    pub session: SessionRef<'a>,
    /// The tool's name as the host calls it, for reports.
    pub tool: &'a str,
    pub kind: ToolKind,
    /// The host's id of the call: a call applied twice changes nothing the second time.
    pub call_id: &'a str,
    pub files: Vec<FileChange<'a>>,
    pub shell: Option<ShellRun<'a>>,
}

impl ToolCall<'_> {
    /// Whether the call can change the hot state; others need no store access at all.
    pub fn is_tracked(&self) -> bool {
        self.kind != ToolKind::Other
    }
}

/// A user's message, or a render without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prompt<'a> {
    pub session: SessionRef<'a>,
    /// The message's id: its memories are captured once however often it is rendered.
    pub message_id: Option<&'a str>,
    pub text: Option<&'a str>,
}

/// A finished compaction and its summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compaction<'a> {
    pub session: SessionRef<'a>,
    pub summary: &'a str,
}
