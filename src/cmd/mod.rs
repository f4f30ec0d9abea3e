//! One file per subcommand (a folder for one with several parts: `gc`, `hook`, `init`, `mcp`,
//! `memory`). Each decodes its input (with `host` for a hook's event), calls the `engine`,
//! and encodes the result: a hook subcommand's `execute` takes the event's bytes and returns
//! the text to print, so `replay` and the tests can drive it without a process.
//!
//! A subcommand never imports another (the files of its own folder aside): what several
//! share is the engine's, or `host`'s. This file holds only what running any of them takes:
//! the `Run` trait, reading stdin (`input`), printing, the `memory off` check, and the table
//! through which `replay` drives the OpenCode hook subcommands.

pub mod baseline;
pub mod compact;
pub mod doctor;
pub mod explain;
pub mod gc;
pub mod handoff;
pub mod hook;
pub mod idle;
pub mod init;
pub mod input;
pub mod mcp;
pub mod memory;
pub mod promote;
pub mod render;
pub mod replay;
pub mod sessions;
pub mod tool_after;

use std::io::{ErrorKind, Write};

use anyhow::{Context as _, Result};

use crate::cli::Command;
use crate::context::Context;
use crate::domain::base::host_name::HostName;
use crate::domain::session::event::SessionRef;

pub use input::read_stdin;

pub trait Run {
    fn run(&self, ctx: &Context) -> Result<()>;
}

impl Run for Command {
    fn run(&self, ctx: &Context) -> Result<()> {
        match self {
            Command::ToolAfter(cmd) => cmd.run(ctx),
            Command::Compact(cmd) => cmd.run(ctx),
            Command::Promote(cmd) => cmd.run(ctx),
            Command::Render(cmd) => cmd.run(ctx),
            Command::Gc(cmd) => cmd.run(ctx),
            Command::Baseline(cmd) => cmd.run(ctx),
            Command::Replay(cmd) => cmd.run(ctx),
            Command::Hook(cmd) => cmd.run(ctx),
            Command::Init(cmd) => cmd.run(ctx),
            Command::Doctor(cmd) => cmd.run(ctx),
            Command::Memory(cmd) => cmd.run(ctx),
            Command::Remember(cmd) => cmd.run(ctx),
            Command::Forget(cmd) => cmd.run(ctx),
            Command::Mcp(cmd) => cmd.run(ctx),
            Command::Sessions(cmd) => cmd.run(ctx),
            Command::Handoff(cmd) => cmd.run(ctx),
            Command::Idle(cmd) => cmd.run(ctx),
            Command::Explain(cmd) => cmd.run(ctx),
        }
    }
}

/// An OpenCode hook subcommand run in-process: its event's bytes and whether `--json` was
/// given in, the text to print out.
pub type Execute = fn(&Context, &[u8], bool) -> Result<String>;

/// Runs a hook subcommand: the event from stdin, the text to stdout.
/// They are OpenCode's: its plugin is what runs them, and logs what they print on stderr.
fn run_hook(ctx: &Context, json: bool, execute: Execute) -> Result<()> {
    if ctx.disabled {
        drain_stdin();
        return Ok(());
    }
    let ctx = ctx.in_hook_of(HostName::OpenCode);
    print(&execute(&ctx, &read_stdin()?, json)?)
}

/// The OpenCode hook subcommands, by name: `replay` feeds a recorded log through them
/// in-process, here, without importing their files (no subcommand imports another).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenCodeHook {
    Render,
    ToolAfter,
    Compact,
    Promote,
    Gc,
    Idle,
}

impl OpenCodeHook {
    /// Runs the subcommand's `execute` on `stdin`, as its hook would, without a process.
    pub fn execute(self, ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
        let execute: Execute = match self {
            OpenCodeHook::Render => render::execute,
            OpenCodeHook::ToolAfter => tool_after::execute,
            OpenCodeHook::Compact => compact::execute,
            OpenCodeHook::Promote => promote::execute,
            OpenCodeHook::Gc => gc::execute,
            OpenCodeHook::Idle => idle::execute,
        };
        execute(ctx, stdin, json)
    }
}

/// Reads stdin to its end and drops it: a hook that does nothing still takes its event, so the
/// host writing it never meets a broken pipe.
pub fn drain_stdin() {
    let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
}

/// Whether memory is turned off for the workspace of `directory` (`ocmem memory off`): a hook
/// for it does nothing and prints nothing.
pub fn off_for(ctx: &Context, directory: &str) -> bool {
    crate::store::switch::is_off(&ctx.store().locate_workspace(directory))
}

/// The session of an OpenCode event; `None` when memory is turned off for its workspace.
pub fn session_unless_off<'e>(
    ctx: &Context,
    event: &'e serde_json::Value,
) -> Result<Option<SessionRef<'e>>> {
    let session = crate::host::opencode::session(event)?;
    Ok((!off_for(ctx, session.directory)).then_some(session))
}

/// Writes `text` to stdout. A reader that went away is not an error worth failing a hook.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}
