//! `ocmem hook <host>`: one entry point for every hook event of a host that runs command
//! hooks. Inside a host's hook ocmem never blocks the agent: whatever goes wrong, it prints
//! nothing on stdout, says why in one line on stderr and in the warnings log, and exits 0.

pub mod claude_code;
pub mod codex;
pub mod gemini;

use std::panic::{catch_unwind, AssertUnwindSafe};

use anyhow::{anyhow, Result};

use super::{drain_stdin, print, read_stdin, Run};
use crate::cli::{Hook, HookHost};
use crate::context::Context;
use crate::domain::base::host_name::HostName;
use crate::domain::base::text::one_line;
use crate::domain::session::event::{Prompt, SessionRef};
use crate::engine::changes::hot_state_if_changed;
use crate::engine::fresh_start::{start_afresh, whole_block};
use crate::engine::render::no_message;
use crate::host::hook_payload::additional_context;
use crate::store::warnings;

/// Decodes a host's event and returns what to print.
type Execute = fn(&Context, &[u8]) -> Result<String>;

impl Run for Hook {
    fn run(&self, ctx: &Context) -> Result<()> {
        let (host, execute): (HostName, Execute) = match self.host {
            HookHost::ClaudeCode => (HostName::ClaudeCode, claude_code::execute),
            HookHost::Codex => (HostName::Codex, codex::execute),
            HookHost::Gemini => (HostName::GeminiCli, gemini::execute),
        };
        // Gemini CLI takes what a hook prints on stderr for its output when stdout is empty.
        let quiet = host == HostName::GeminiCli;
        if quiet {
            std::panic::set_hook(Box::new(|_| {}));
        }
        if ctx.disabled {
            drain_stdin();
            return Ok(());
        }
        let ctx = &ctx.in_hook_of(host);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            read_stdin().and_then(|event| execute(ctx, &event))
        }))
        .unwrap_or_else(|_| {
            Err(anyhow!(
                "internal error (a panic); nothing was changed after it"
            ))
        });
        let text = match outcome {
            Ok(text) => text,
            Err(e) => {
                let line = one_line(&format!("{e:#}"));
                if !quiet {
                    eprintln!("ocmem: {line}");
                }
                warnings::record(&ctx.data_dir, ctx.now_ms, Some(host), &line);
                String::new()
            }
        };
        // A host that stopped reading is no reason to fail either.
        let _ = print(&text);
        Ok(())
    }
}

/// Whether ocmem is off where an event happens; an event ocmem ignores has no `directory`.
fn off_at(ctx: &Context, directory: Option<&str>) -> bool {
    directory.is_some_and(|dir| super::off_for(ctx, dir))
}

/// Starts `session` afresh and shows its whole block, as context added at `SessionStart`.
fn fresh_block(ctx: &Context, session: SessionRef) -> Result<String> {
    start_afresh(ctx, session)?;
    let rendered = whole_block(ctx, no_message(session))?;
    Ok(additional_context(
        "SessionStart",
        rendered.text().trim_end(),
    ))
}

/// The hot state as context added at `event`, only when it changed since it was last shown.
fn changed_hot_state(ctx: &Context, prompt: Prompt, event: &str) -> Result<String> {
    Ok(hot_state_if_changed(ctx, prompt)?
        .map_or_else(String::new, |text| additional_context(event, &text)))
}
