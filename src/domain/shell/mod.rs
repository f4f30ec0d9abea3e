//! Shell commands and what they print: what a command is and covers, which lines of its output
//! are errors, which validation commands passed, and a long output cut down.

pub mod command;
pub mod coverage;
pub mod extract;
pub mod prune;
pub mod verified;
