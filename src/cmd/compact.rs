//! `ocmem compact`: the text to add to the compaction prompt: how to write the memory
//! candidates, and what is already stored, as background not to be copied.

use anyhow::Result;

use super::{run_hook, Run};
use crate::cli::Compact;
use crate::context::Context;
use crate::engine::instructions::instructions;
use crate::host::json::parse_event;

impl Run for Compact {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, false, execute)
    }
}

pub fn execute(ctx: &Context, stdin: &[u8], _json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let Some(session) = super::session_unless_off(ctx, &event)? else {
        return Ok(String::new());
    };
    instructions(ctx, session)
}
