//! One module per agent host: its hook payloads in, host-neutral events out, and its output
//! format and settings files. The only place that knows a host's field names.

pub mod claude_code;
pub mod codex;
pub mod gemini;
pub mod hook_groups;
pub mod hook_payload;
pub mod install;
pub mod json;
pub mod mcp;
pub mod opencode;
