//! The engine: what ocmem does for every host, once. Each file is one operation: record a
//! tool call (`record`), render a session's block and hot state and capture what a message
//! asks to remember (`render`, with `recall` and `team_layer`), start afresh (`fresh_start`),
//! show only what changed (`changes`), write a compaction's instructions (`instructions`) and
//! promote its candidates (`promote`), end a session (`session_end`), change a memory store
//! (`memory_ops`), cut a tool's output down (`prune_output`), find a person's workspace
//! (`sessions`).
//!
//! Its rule: an operation takes the `Context` and typed, host-neutral inputs (the events of
//! `domain::session::event`) and returns a typed result, never a host's output. The engine uses
//! `domain`, `store` and `context` only: it knows no host's field names or output format
//! (decoding and encoding are `host`'s, or a subcommand's), and nothing of `cmd` or `cli`.

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
