//! What the agent is shown: the memory block in its layers (user, team, workspace) and the hot
//! state of the session, each within its budget.

pub mod hot_state;
pub mod layers;
pub mod user_memory;
