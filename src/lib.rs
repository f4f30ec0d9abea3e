//! ocmem: working memory for AI coding agents.
//!
//! Layout, from the top down; a module uses only those below it:
//! - `cli` declares the command line, and `cmd` holds one file (or folder) per subcommand:
//!   it decodes its input with `host`, calls the `engine` and encodes the result for its host.
//! - `host` holds one module per agent: its hook payloads in, host-neutral events out, its
//!   output format and settings files. The only place that knows a host's field names.
//! - `engine` is what ocmem does for every host, one file per operation (record a tool call,
//!   render the block, promote a compaction, …): host-neutral events in, typed results out.
//! - `context` is the only module that reads the clock and the environment, `store` the only
//!   one that touches the disk, and `domain` holds pure functions from data to data.

pub mod cli;
pub mod cmd;
pub mod context;
pub mod domain;
pub mod engine;
pub mod host;
pub mod store;
