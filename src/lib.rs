//! ocmem: working memory for AI coding agents.
//!
//! Layout: `domain` holds pure functions from data to data (no I/O), `store` is the only
//! module that touches the disk, `context` the only one that reads the clock and the
//! environment, and `cmd` holds one file per subcommand that decodes the event, calls the
//! domain and persists. `cli` declares the command line.

pub mod cli;
pub mod cmd;
pub mod context;
pub mod domain;
pub mod engine;
pub mod host;
pub mod store;
