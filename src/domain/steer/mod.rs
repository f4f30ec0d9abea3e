//! Memory changed on purpose: entries listed, added, edited, forgotten and restored by hand or by
//! the agent's tools, and newer memories superseding older ones.

pub mod edit;
pub mod supersede;
