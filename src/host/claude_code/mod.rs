//! Claude Code.

pub mod settings;
