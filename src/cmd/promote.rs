//! `ocmem promote`: file the memory candidates of a finished compaction into workspace
//! memory, and start the session's next block afresh.

use anyhow::Result;
use serde_json::{json, Value};

use super::{run_hook, Run};
use crate::cli::Promote;
use crate::context::Context;
use crate::engine::promote::{promote, Promoted};
use crate::host::json::parse_event;
use crate::host::opencode;

impl Run for Promote {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let compaction = opencode::compaction(&event)?;
    if super::off_for(ctx, compaction.session.directory) {
        return Ok(String::new());
    }
    let promoted = promote(ctx, compaction)?;
    Ok(if json {
        format!("{}\n", report(&promoted))
    } else {
        String::new()
    })
}

/// The report `--json` prints.
fn report(promoted: &Promoted) -> Value {
    json!({
        "accepted": promoted.accepted,
        "rejected": promoted.rejected,
        "pendingCleared": promoted.pending_cleared,
        "memoryLeftNewer": promoted.memory_left_newer,
    })
}
