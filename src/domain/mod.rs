//! Pure domain logic: functions from data to data, with no I/O, no clock and no environment.

pub mod active_files;
pub mod archive;
pub mod audit;
pub mod candidates;
pub mod command;
pub mod doctor;
pub mod event;
pub mod explicit;
pub mod extract;
pub mod false_positive;
pub mod host_name;
pub mod injection;
pub mod install_level;
pub mod memory;
pub mod memory_type;
pub mod open_errors;
pub mod paths;
pub mod render;
pub mod scope;
pub mod secrets;
pub mod session;
pub mod stored;
pub mod sweep;
pub mod time;
pub mod tool_event;
pub mod verified;
