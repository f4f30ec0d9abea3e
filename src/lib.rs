//! ocmem: working memory for AI coding agents.
//!
//! Layout: `domain` holds pure functions from data to data (no I/O), `store` is
//! the only module that touches the disk, and `cmd` holds one file per
//! subcommand that decodes the event, calls the domain and persists.

pub mod domain;
