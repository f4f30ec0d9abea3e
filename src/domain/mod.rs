//! Pure domain logic: no I/O, no clock, no environment.

pub mod command;
pub mod extract;
