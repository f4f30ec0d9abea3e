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
