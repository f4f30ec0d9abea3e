//! `ocmem promote`: file the memory candidates of a finished compaction into workspace
//! memory, and start the session's next block afresh.

use anyhow::Result;
use serde::Serialize;
use serde_json::json;

use super::{run_hook, Run};
use crate::cli::Promote;
use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::capture::candidates::{gate, parse_candidates, Candidate};
use crate::domain::guard::secrets::scrub;
use crate::domain::memory::workspace::{
    merge_all, Merged, NewMemory, Source, WorkspaceMemory, COMPACTION_CONFIDENCE,
};
use crate::domain::session::digest::Ending;
use crate::domain::session::event::Compaction;
use crate::domain::session::state::SessionState;
use crate::host::json::parse_event;
use crate::host::opencode;
use crate::store::Updated;

impl Run for Promote {
    fn run(&self, ctx: &Context) -> Result<()> {
        run_hook(ctx, self.json, execute)
    }
}

#[derive(Debug, Serialize)]
struct Accepted<'a> {
    #[serde(flatten)]
    candidate: &'a Candidate,
    #[serde(flatten)]
    merged: Merged,
}

#[derive(Debug, Serialize)]
struct Rejected<'a> {
    line: &'a str,
    rule: String,
    reason: &'static str,
}

pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = parse_event(stdin)?;
    let compaction = opencode::compaction(&event)?;
    if super::off_for(ctx, compaction.session.directory) {
        return Ok(String::new());
    }
    let report = promote(ctx, compaction)?;
    Ok(if json {
        format!("{report}\n")
    } else {
        String::new()
    })
}

/// Files the candidates of `compaction`'s summary and clears its session's pending memories,
/// frozen block and context pressure; returns the report `--json` prints.
pub fn promote(ctx: &Context, compaction: Compaction) -> Result<serde_json::Value> {
    let directory = compaction.session.directory;
    let session_id = compaction.session.session_id;
    // Scrubbed before anything reads it: candidates are cut to length (where a cut key would
    // no longer be recognised), stored, and echoed by --json.
    let summary = scrub(compaction.summary);

    let (candidates, unreadable) = parse_candidates(&summary);
    let mut rejected: Vec<Rejected> = unreadable
        .iter()
        .map(|u| Rejected {
            line: &u.line,
            rule: "unreadable".into(),
            reason: u.reason,
        })
        .collect();
    let mut passed: Vec<&Candidate> = Vec::new();
    for candidate in &candidates {
        match gate(candidate) {
            Ok(()) => passed.push(candidate),
            Err(rejection) => rejected.push(Rejected {
                line: &candidate.line,
                rule: serde_json::to_value(rejection)?
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                reason: rejection.reason(),
            }),
        }
    }

    let store = ctx.store();
    let workspace = store.workspace(directory);
    store.note_host_call(&workspace, compaction.session.host);
    let mut accepted: Vec<Accepted> = Vec::new();
    let mut memory_left_newer = false;
    if !passed.is_empty() {
        let updated = store.update(
            &workspace.memory_file(),
            || WorkspaceMemory::new(&workspace.root, &workspace.key),
            |memory| {
                let news = passed.iter().map(|c| NewMemory {
                    kind: c.kind,
                    text: c.text.clone(),
                    rationale: c.rationale.clone(),
                    source: Source::Compaction,
                    confidence: COMPACTION_CONFIDENCE,
                });
                // One batch: the store's keys are read once, not once per candidate.
                let outcomes = merge_all(memory, news, ctx.now_ms);
                if outcomes
                    .iter()
                    .any(|m| matches!(m, Merged::Added { .. } | Merged::Replaced { .. }))
                {
                    memory.updated_at = format_rfc3339_ms(ctx.now_ms);
                }
                outcomes
            },
        )?;
        match updated {
            Updated::Done { result, .. } => accepted.extend(
                passed
                    .iter()
                    .zip(result)
                    .map(|(candidate, merged)| Accepted { candidate, merged }),
            ),
            Updated::LeftNewer => memory_left_newer = true,
        }
    }

    // Kept before the pending memories are cleared: the digest lists them.
    store.keep_digest(compaction.session, Ending::Compaction, Some(&summary))?;
    // The session's pending memories are in workspace memory now, and its next render shows
    // the new block.
    let cleared = store.update(
        &workspace.session_file(session_id),
        || SessionState::new(session_id),
        |state| {
            let pending = state.pending_memories.take().map_or(0, |p| p.len());
            let had_block = state.frozen_workspace_block.take().is_some();
            // The counts that raised it were of the prompt the compaction replaced.
            let had_pressure = state.context_pressure.take().is_some();
            if pending > 0 || had_block || had_pressure {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
            }
            pending
        },
    )?;
    let pending_cleared = match cleared {
        Updated::Done { result, .. } => result,
        Updated::LeftNewer => 0,
    };

    Ok(json!({
        "accepted": accepted,
        "rejected": rejected,
        "pendingCleared": pending_cleared,
        "memoryLeftNewer": memory_left_newer,
    }))
}
