//! Pure domain logic: functions from data to data, with no I/O, no clock and no environment.
//!
//! One folder per concern, listed here from the ground up: a folder may use the folders above it
//! in this list and never one below it (`docs/architecture.md`; `tests/architecture.rs` keeps it so).

pub mod base;
pub mod capture;
pub mod guard;
pub mod memory;
pub mod prompt;
pub mod session;
pub mod shell;
pub mod steer;
pub mod upkeep;
