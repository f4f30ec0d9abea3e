//! One agent session's hot state: the host-neutral events it is fed, the files being worked on,
//! the errors still open, context pressure, and the digest kept when the session ends.

pub mod active_files;
pub mod digest;
pub mod event;
pub mod false_positive;
pub mod open_errors;
pub mod pressure;
pub mod state;
pub mod tool_event;
