//! What text means for memory: a user's message asking to remember, forget or recall, and the
//! `Memory candidates:` block a model writes at compaction.

pub mod candidates;
pub mod explain;
pub mod explicit;
