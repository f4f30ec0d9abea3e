//! Promoting a finished compaction: the memory candidates its summary ends with are filed
//! into workspace memory, and the session's next block starts afresh.

use anyhow::Result;
use serde::Serialize;

use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::capture::candidates::{gate_in, parse_candidates, Candidate, HotState};
use crate::domain::guard::secrets::scrub;
use crate::domain::memory::workspace::{
    merge_all, Merged, NewMemory, Source, WorkspaceMemory, COMPACTION_CONFIDENCE,
};
use crate::domain::session::digest::Ending;
use crate::domain::session::event::Compaction;
use crate::domain::session::state::SessionState;
use crate::store::Updated;

/// What promoting a compaction did; its accepted and rejected lines serialize as a report
/// lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promoted {
    /// The candidates that passed the gate, each with what merging it did.
    pub accepted: Vec<Accepted>,
    /// The candidate lines that could not be read or did not pass the gate.
    pub rejected: Vec<Rejected>,
    /// How many of the session's pending memories were cleared.
    pub pending_cleared: usize,
    /// Workspace memory belongs to a newer ocmem: no candidate was filed.
    pub memory_left_newer: bool,
}

/// A candidate filed into workspace memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Accepted {
    #[serde(flatten)]
    pub candidate: Candidate,
    #[serde(flatten)]
    pub merged: Merged,
}

/// A candidate line left out, with the rule that left it out and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub line: String,
    pub rule: String,
    pub reason: &'static str,
}

/// Files the candidates of `compaction`'s summary and clears its session's pending memories,
/// frozen block and context pressure.
pub fn promote(ctx: &Context, compaction: Compaction) -> Result<Promoted> {
    let directory = compaction.session.directory;
    let session_id = compaction.session.session_id;
    // Scrubbed before anything reads it: candidates are cut to length (where a cut key would
    // no longer be recognised), stored, and echoed by --json.
    let summary = scrub(compaction.summary);

    let (candidates, unreadable) = parse_candidates(&summary);
    let mut rejected: Vec<Rejected> = unreadable
        .iter()
        .map(|u| Rejected {
            line: u.line.clone(),
            rule: "unreadable".into(),
            reason: u.reason,
        })
        .collect();
    let store = ctx.store();
    let workspace = store.workspace(directory);
    // What the session shows already: a candidate repeating it adds nothing and goes stale.
    // An unreadable session gates without it.
    let session: Option<SessionState> = store
        .read(&workspace.session_file(session_id))
        .ok()
        .flatten();
    let open_errors: Vec<String> = session
        .iter()
        .flat_map(|s| &s.open_errors)
        .map(|e| e.summary.clone())
        .collect();
    let active_files: Vec<String> = session
        .iter()
        .flat_map(|s| &s.active_files)
        .map(|f| f.path.clone())
        .collect();
    let hot = HotState {
        open_errors: &open_errors,
        active_files: &active_files,
    };
    let mut passed: Vec<&Candidate> = Vec::new();
    for candidate in &candidates {
        match gate_in(candidate, hot) {
            Ok(()) => passed.push(candidate),
            Err(rejection) => rejected.push(Rejected {
                line: candidate.line.clone(),
                rule: serde_json::to_value(rejection)?
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                reason: rejection.reason(),
            }),
        }
    }

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
            Updated::Done { result, .. } => accepted.extend(passed.iter().zip(result).map(
                |(candidate, merged)| Accepted {
                    candidate: (*candidate).clone(),
                    merged,
                },
            )),
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

    Ok(Promoted {
        accepted,
        rejected,
        pending_cleared,
        memory_left_newer,
    })
}
