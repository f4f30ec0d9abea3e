//! The engine: what ocmem does for every host, once. Each file is one operation (record a
//! tool call, render the block, promote a compaction's candidates, …) that takes the
//! `Context` and host-neutral inputs (the events of `domain::event`) and returns a typed
//! result, never a host's output.
//!
//! Its rule: the engine uses `domain`, `store` and `context` only. It knows no host's field
//! names or output format (decoding and encoding are `host`'s, or a subcommand's), and
//! nothing of the command line (`cli`, `cmd`).

pub mod changes;
pub mod fresh_start;
pub mod instructions;
pub mod memory_ops;
pub mod promote;
pub mod prune_output;
pub mod recall;
pub mod record;
pub mod render;
pub mod session_end;
pub mod sessions;
pub mod team_layer;
