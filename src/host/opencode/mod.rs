//! OpenCode.

pub mod plugin;
