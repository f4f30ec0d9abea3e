//! Rendering a session's memory: the workspace block (user, team and workspace memory, frozen
//! at the session's first render) and the hot state; capturing what the user's message asks
//! to remember or forget; and the session's context pressure.

use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::recall;
use super::team_layer::team_entries;
use crate::context::Context;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::capture::explicit::{self, Addressee, ExplicitMemory, ForgetRequest};
use crate::domain::guard::injection::instructs_agent;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::team::TeamEntry;
use crate::domain::memory::workspace::{
    merge, merge_all, standalone_entry, MemoryEntry, Merged, NewMemory, Source, WorkspaceMemory,
    EXPLICIT_CONFIDENCE,
};
use crate::domain::prompt::hot_state::hot_state;
use crate::domain::prompt::layers::{render_layers, Layers};
use crate::domain::session::event::{Prompt, SessionRef};
use crate::domain::session::pressure::{self, ContextUsage};
use crate::domain::session::state::SessionState;
use crate::domain::steer::supersede::{self, apply_forgets, forget_note};
use crate::store::{Store, Updated, Workspace};

/// A render of `session` without a user's message (a session starting).
pub fn no_message(session: SessionRef) -> Prompt {
    Prompt {
        session,
        message_id: None,
        text: None,
    }
}

/// Stores the session's context pressure when `usage` raises its level; never lowers it (a
/// compaction, in `promote`, clears it). Below the first level nothing is read or locked, and
/// at a level already stored nothing is locked.
pub fn raise_pressure(ctx: &Context, session: SessionRef, usage: ContextUsage) -> Result<()> {
    if pressure::level_for(usage.tokens, usage.limit).is_none() {
        return Ok(());
    }
    let store = ctx.store();
    let workspace = store.workspace(session.directory);
    let path = workspace.session_file(session.session_id);
    // At a level already stored, as on most renders once it rose: no lock, no write.
    let stored: Option<SessionState> = store.read(&path)?;
    if stored
        .is_some_and(|state| pressure::raised(state.context_pressure.as_ref(), usage).is_none())
    {
        return Ok(());
    }
    store.update(
        &path,
        || SessionState::new(session.session_id),
        |state| {
            if let Some(raised) = pressure::raised(state.context_pressure.as_ref(), usage) {
                state.context_pressure = Some(raised);
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
            }
        },
    )?;
    Ok(())
}

/// What a render shows: the frozen workspace block and the session's hot state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub workspace: String,
    pub session: String,
    /// How many memories the message held beyond the limit; `None` when no message was read.
    pub memories_over_limit: Option<usize>,
    /// How many memories the message asked for that read as instructions to the agent and
    /// were not stored; `None` when no message was read.
    pub memories_refused: Option<usize>,
    /// How many memories in the tables' words read as one-offs for the task; likewise.
    pub memories_set_aside: Option<usize>,
}

impl Rendered {
    /// Both blocks, separated by a blank line, and a newline; nothing when both are empty.
    pub fn text(&self) -> String {
        let blocks: Vec<&str> = [self.workspace.as_str(), self.session.as_str()]
            .into_iter()
            .filter(|b| !b.is_empty())
            .collect();
        if blocks.is_empty() {
            return String::new();
        }
        format!("{}\n", blocks.join("\n\n"))
    }
}

/// Captures what `prompt` asks to remember, freezes the session's workspace block at its
/// first render, and returns both blocks.
pub fn render(ctx: &Context, prompt: Prompt) -> Result<Rendered> {
    let session = prompt.session;
    let host = prompt.session.host;
    let directory = prompt.session.directory;
    let session_id = prompt.session.session_id;
    let message_id = prompt.message_id;
    let prompt = prompt.text;

    let store = ctx.store();
    let workspace = store.workspace(directory);
    store.note_host_call(&workspace, host);
    let session_path = workspace.session_file(session_id);
    let before: Option<SessionState> = store.read(&session_path)?;
    if let Some(text) = prompt {
        store.note_request(&workspace, session, text, before.as_ref())?;
    }

    let recall_kept = recall::kept(before.as_ref());
    let already_captured = match (message_id, &before) {
        (Some(id), Some(state)) => state.has_captured(id),
        _ => false,
    };
    // `None` when this render reads no message (none given, or this one read before).
    let read = match prompt {
        Some(text) if !already_captured => Some(explicit::capture_counted(text)),
        _ => None,
    };
    let over_limit = read.as_ref().map(|r| r.dropped);
    let set_aside = read.as_ref().map(|r| r.set_aside);
    let forgets = match prompt {
        Some(text) if read.is_some() => explicit::forget_requests(text),
        _ => Vec::new(),
    };
    // What reads as an instruction to the agent is never filed, only counted for the user.
    let (refused, captured): (Vec<ExplicitMemory>, Vec<ExplicitMemory>) = read
        .map(|r| r.memories)
        .unwrap_or_default()
        .into_iter()
        .partition(|memory| instructs_agent(&memory.text).is_some());
    let refused = over_limit.map(|_| refused.len());

    let (workspace_block, session_block) = match before {
        // The common case: nothing to capture and the block already frozen; no lock, no write.
        Some(state)
            if captured.is_empty()
                && forgets.is_empty()
                && (over_limit.is_none() || state.forget_note.is_none())
                && state.frozen_workspace_block.is_some()
                && over_limit.is_none_or(|n| n == state.memories_over_limit)
                && refused.is_none_or(|n| n == state.memories_refused)
                && set_aside.is_none_or(|n| n == state.memories_set_aside) =>
        {
            let block = state.frozen_workspace_block.clone().unwrap_or_default();
            (block, hot_state(&state, &workspace.root))
        }
        _ => update_session(
            ctx,
            &store,
            &workspace,
            directory,
            &session_path,
            session_id,
            MessageRead {
                id: message_id,
                captured: &captured,
                forgets: &forgets,
                over_limit,
                refused,
                set_aside,
            },
        )?,
    };

    let session_block = recall::with_recollection(
        &store,
        &workspace,
        session,
        prompt,
        recall_kept.as_ref(),
        session_block,
    )?;
    Ok(Rendered {
        workspace: workspace_block,
        session: session_block,
        memories_over_limit: over_limit,
        memories_refused: refused,
        memories_set_aside: set_aside,
    })
}

/// An entry to list as pending, and whether it is a decision.
type Pending = (Value, bool);

/// The workspace block to render while filing memories: with this user memory (as it stood
/// before the message's own memories) first, then team memory.
#[derive(Clone, Copy)]
struct BlockWith<'a> {
    user: Option<&'a WorkspaceMemory>,
    team: &'a [TeamEntry],
}

/// What filing one message's memories and forget requests did.
#[derive(Default)]
struct Filed {
    /// The new entries, to list as pending in the session.
    pending: Vec<Pending>,
    /// When asked for, the block of the memory as it stood before this message.
    block: Option<String>,
    /// The hot-state line about the message's forget requests.
    note: Option<String>,
    /// Entries forgotten or replaced, to take off the session's pending list.
    superseded: Vec<String>,
}

/// Writes captured memories to workspace memory, and those addressed to every project to user
/// memory, at once, so a crash never loses them, after applying the message's forget requests;
/// a new memory supersedes the entries it updates or contradicts. Returns the entries that are
/// new (to list as pending in the session) and, when `render`, the block of the memory as it
/// stood before them (read once, not again for the block).
fn store_captured(
    ctx: &Context,
    store: &Store,
    workspace: &Workspace,
    captured: &[ExplicitMemory],
    forgets: &[ForgetRequest],
    render: Option<BlockWith>,
) -> Result<Filed> {
    let (for_user, captured): (Vec<&ExplicitMemory>, Vec<&ExplicitMemory>) =
        captured.iter().partition(|c| c.scope == Addressee::User);
    let user_pending = pending(store_for_user(ctx, store, &for_user)?);
    if captured.is_empty() && forgets.is_empty() {
        return Ok(Filed {
            pending: user_pending,
            ..Filed::default()
        });
    }
    let as_new = |capture: &ExplicitMemory| NewMemory {
        kind: capture.kind,
        text: capture.text.clone(),
        rationale: None,
        source: Source::Explicit,
        confidence: EXPLICIT_CONFIDENCE,
    };
    let updated = store.update(
        &workspace.memory_file(),
        || WorkspaceMemory::new(&workspace.root, &workspace.key),
        |memory| {
            let block = render.map(|with| {
                let layers = Layers {
                    user: with.user,
                    team: with.team,
                    workspace: Some(memory),
                };
                render_layers(layers, Some(ctx.now_ms)).text()
            });
            let outcomes = apply_forgets(memory, forgets, ctx.now_ms);
            let mut superseded: Vec<String> = outcomes
                .iter()
                .flat_map(|o| match o {
                    supersede::ForgetOutcome::Forgotten(entries) => {
                        entries.iter().map(|(id, _)| id.clone()).collect()
                    }
                    _ => Vec::new(),
                })
                .collect();
            let mut new_entries = Vec::new();
            for &capture in &captured {
                let olds = supersede::updated_by(memory, capture.kind, &capture.text);
                if let Merged::Added { id } | Merged::Replaced { id, .. } =
                    merge(memory, as_new(capture), ctx.now_ms)
                {
                    let replaced = supersede::replace(memory, &olds, &id, ctx.now_ms);
                    superseded.extend(replaced.iter().map(|e| e.id.clone()));
                    if let Some(entry) = memory.entries.iter().find(|e| e.id == id) {
                        let mut value = serde_json::to_value(entry).unwrap_or(Value::Null);
                        if let Some(old) = replaced.first() {
                            value["replaces"] = Value::String(old.text.clone());
                        }
                        new_entries.push((value, entry.kind == MemoryType::Decision));
                    }
                }
            }
            if !new_entries.is_empty() || !superseded.is_empty() {
                memory.updated_at = format_rfc3339_ms(ctx.now_ms);
            }
            Filed {
                pending: new_entries,
                block,
                note: forget_note(&outcomes),
                superseded,
            }
        },
    )?;
    let mut filed = match updated {
        Updated::Done { result, .. } => result,
        // Kept in the session instead: the warning said why the workspace file was left alone.
        Updated::LeftNewer => Filed {
            pending: pending(
                captured
                    .iter()
                    .map(|c| standalone_entry(&as_new(c), ctx.now_ms))
                    .collect(),
            ),
            ..Filed::default()
        },
    };
    filed.pending.splice(0..0, user_pending);
    Ok(filed)
}

/// Files memories addressed to every project in user memory; returns the new entries.
fn store_for_user(
    ctx: &Context,
    store: &Store,
    captured: &[&ExplicitMemory],
) -> Result<Vec<MemoryEntry>> {
    if captured.is_empty() {
        return Ok(Vec::new());
    }
    let news: Vec<NewMemory> = captured
        .iter()
        .map(|capture| NewMemory {
            kind: capture.kind,
            text: capture.text.clone(),
            rationale: None,
            source: Source::Explicit,
            confidence: EXPLICIT_CONFIDENCE,
        })
        .collect();
    let updated = store.update_user_memory(|memory| {
        let merged = merge_all(memory, news.clone(), ctx.now_ms);
        let new_entries: Vec<MemoryEntry> = merged
            .iter()
            .filter(|m| matches!(m, Merged::Added { .. } | Merged::Replaced { .. }))
            .filter_map(|m| m.id())
            .filter_map(|id| memory.entries.iter().find(|e| e.id == id).cloned())
            .collect();
        if !new_entries.is_empty() {
            memory.updated_at = format_rfc3339_ms(ctx.now_ms);
        }
        new_entries
    })?;
    Ok(match updated {
        Updated::Done { result, .. } => result,
        // Kept in the session instead, as for a workspace file left alone.
        Updated::LeftNewer => news
            .iter()
            .map(|new| standalone_entry(new, ctx.now_ms))
            .collect(),
    })
}

/// New entries as the session lists them pending, each with whether it is a decision.
fn pending(entries: Vec<MemoryEntry>) -> Vec<Pending> {
    entries
        .into_iter()
        .map(|e| {
            let is_decision = e.kind == MemoryType::Decision;
            (serde_json::to_value(e).unwrap_or(Value::Null), is_decision)
        })
        .collect()
}

/// The workspace block as memory stands now, with `user` memory first, then the team's.
fn current_block(
    ctx: &Context,
    store: &Store,
    workspace: &Workspace,
    with: BlockWith,
) -> Result<String> {
    // Its top entries are enough: a layer above hides at most as many of them as it shows,
    // and the workspace's section gets that many fewer.
    let memory = store.read_block_memory(&workspace.memory_file())?;
    let layers = Layers {
        user: with.user,
        team: with.team,
        workspace: memory.as_ref(),
    };
    Ok(render_layers(layers, Some(ctx.now_ms)).text())
}

/// What is rendered above a session's workspace memory: user memory (its top entries, which
/// are enough for the same reason as in `current_block`) and team memory.
fn upper_layers(
    store: &Store,
    directory: &str,
) -> Result<(Option<WorkspaceMemory>, Vec<TeamEntry>)> {
    let team = team_entries(store, directory);
    Ok((store.read_user_block_memory()?, team))
}

/// What this render took from the user's message, for the session.
struct MessageRead<'a> {
    id: Option<&'a str>,
    /// The explicit memories the message asked for, within the per-message limit.
    captured: &'a [ExplicitMemory],
    /// What the message asked to forget.
    forgets: &'a [ForgetRequest],
    /// How many memories the message held beyond the limit; `None` when no message was read.
    over_limit: Option<usize>,
    /// How many it asked for that read as instructions to the agent; `None` likewise.
    refused: Option<usize>,
    /// How many it asked for in the tables' words that read as one-offs; `None` likewise.
    set_aside: Option<usize>,
}

/// Under the session's lock: freezes the workspace block (unless this session already has
/// one), files the captured memories and lists the new ones as pending, notes how many the
/// message held beyond the limit, and returns both blocks.
/// The block is read from memory under that lock, so a promote, which refreshes memory and
/// then clears the block under the same lock, is never undone by a block read before it.
fn update_session(
    ctx: &Context,
    store: &Store,
    workspace: &Workspace,
    directory: &str,
    session_path: &Path,
    session_id: &str,
    message: MessageRead,
) -> Result<(String, String)> {
    let updated = store.update(
        session_path,
        || SessionState::new(session_id),
        |state| -> Result<(String, String)> {
            let before = state.clone();
            let fresh = !message.id.is_some_and(|id| state.has_captured(id));
            let (captured, forgets) = if fresh {
                (message.captured, message.forgets)
            } else {
                (&[][..], &[][..])
            };
            let freeze = state.frozen_workspace_block.is_none();
            // Frozen as memory stands before this message's own memories join it: those show
            // under pending_memories until the next promote. Filing them renders that block
            // from the store it already read; user memory is read before any is filed.
            let (user, team) = if freeze {
                upper_layers(store, directory)?
            } else {
                (None, Vec::new())
            };
            let with = BlockWith {
                user: user.as_ref(),
                team: &team,
            };
            let render = freeze.then_some(with);
            let filed = store_captured(ctx, store, workspace, captured, forgets, render)?;
            let (pending, rendered) = (filed.pending, filed.block);
            if freeze {
                state.frozen_workspace_block = Some(match rendered {
                    Some(block) => block,
                    None => current_block(ctx, store, workspace, with)?,
                });
            }
            // A message that asked to forget is not read again: a second reading would find
            // the next best entry.
            let captured_any = !pending.is_empty() || !forgets.is_empty();
            state.drop_pending(&filed.superseded);
            for (entry, is_decision) in pending {
                state.add_pending(entry, is_decision);
            }
            if fresh && message.over_limit.is_some() {
                state.forget_note = filed.note;
            }
            if let (Some(id), true) = (message.id, captured_any) {
                state.remember_captured(id);
            }
            if let Some(count) = message.over_limit {
                state.memories_over_limit = count;
            }
            if let Some(count) = message.refused {
                state.memories_refused = count;
            }
            if let Some(count) = message.set_aside {
                state.memories_set_aside = count;
            }
            if *state != before {
                state.updated_at = format_rfc3339_ms(ctx.now_ms);
            }
            Ok((
                state.frozen_workspace_block.clone().unwrap_or_default(),
                hot_state(state, &workspace.root),
            ))
        },
    )?;
    match updated {
        Updated::Done { result, .. } => result,
        // The session store belongs to a newer ocmem: the memories are still filed.
        Updated::LeftNewer => {
            let (user, team) = upper_layers(store, directory)?;
            let with = BlockWith {
                user: user.as_ref(),
                team: &team,
            };
            let block = current_block(ctx, store, workspace, with)?;
            store_captured(
                ctx,
                store,
                workspace,
                message.captured,
                message.forgets,
                None,
            )?;
            Ok((block, String::new()))
        }
    }
}
