//! `ocmem idle`: a session went idle (OpenCode's `session.idle`); its digest catches up with
//! its hot state.

use anyhow::Result;

use super::{run_hook, Run};
use crate::cli::Idle;
use crate::context::Context;
use crate::engine::session_end::went_idle;
use crate::host::json::parse_event;

impl Run for Idle {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, false, execute)
    }
}

/// Brings the digest of the session in `stdin` up to date; prints nothing.
pub fn execute(ctx: &Context, stdin: &[u8], _json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let Some(session) = super::session_unless_off(ctx, &event)? else {
        return Ok(String::new());
    };
    went_idle(ctx, session)?;
    Ok(String::new())
}
