//! What keeps stored text harmless: secrets scrubbed, instructions to the agent recognised, and
//! no stored text able to pass for the structure of the prompt.

pub mod injection;
pub mod secrets;
pub mod structure;
