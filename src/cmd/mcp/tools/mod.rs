//! What each tool of `ocmem mcp` does, without a process or a protocol: a call's arguments (a
//! JSON object) in, a JSON answer or a one-line error out. Changes go through
//! `engine::memory_ops`, as `ocmem memory` makes them: under the store's lock, written
//! atomically, and not at all when a store is corrupt or newer than this ocmem.
//!
//! What the agent adds passes the compaction gate too (`domain::capture::candidates::gate`): like a
//! compaction candidate, it is the model's own wording of what is worth keeping, and the gate
//! is what keeps the model's narration of its session (progress, fixes, errors, counts) out of
//! memory. A person's `ocmem memory add` is not gated that way: they state what they mean.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::catalog::{self, DEFAULT_LIMIT, MAX_LIMIT};
use crate::context::Context;
use crate::domain::base::paths::relative_to;
use crate::domain::base::text::one_line;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::search;
use crate::domain::memory::team::TeamEntry;
use crate::domain::memory::workspace::{EntryStatus, MemoryEntry, Merged, Source, WorkspaceMemory};
use crate::domain::prompt::hot_state::hot_state;
use crate::domain::prompt::layers::Layers;
use crate::domain::session::active_files;
use crate::domain::session::open_errors;
use crate::domain::session::state::SessionState;
use crate::domain::steer::edit::{self, Changed, Listed, NotShown, Part};
use crate::engine::memory_ops;
use crate::store::switch::is_off;
use crate::store::user_memory::USER_KEY;
use crate::store::{Store, Workspace};

/// What a tool answers: a JSON document, or why nothing was done.
pub type Answer = Result<Value, String>;

/// Runs tool `name` with `arguments` for the workspace of `directory`.
pub fn call(ctx: &Context, directory: &str, name: &str, arguments: &Map<String, Value>) -> Answer {
    let store = ctx.store();
    let run = || -> Answer {
        match name {
            catalog::SEARCH => memory_search(ctx, &store, directory, parse(name, arguments)?),
            catalog::LIST => memory_list(ctx, &store, directory, parse(name, arguments)?),
            catalog::ADD => memory_add(ctx, &store, directory, parse(name, arguments)?),
            catalog::FORGET => memory_forget(ctx, &store, directory, parse(name, arguments)?),
            catalog::HOT_STATE => hot_state_of(&store, directory, parse(name, arguments)?),
            _ => Err(format!("there is no tool named {name:?}")),
        }
    };
    run().map_err(|e| one_line(&e))
}

/// The arguments of tool `name` as `T`; a bad one is named in the error.
fn parse<T: DeserializeOwned>(name: &str, arguments: &Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(arguments.clone()))
        .map_err(|e| format!("bad arguments for {name}: {e}"))
}

fn failed(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// Whose memory an entry is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Workspace,
    User,
}

impl Owner {
    fn as_str(self) -> &'static str {
        match self {
            Owner::Workspace => "workspace",
            Owner::User => "user",
        }
    }
}

/// The workspace's memory and the user's, as they are (none yet: empty).
struct Memories {
    workspace: Workspace,
    of_workspace: WorkspaceMemory,
    of_user: WorkspaceMemory,
    /// The repository's team memory, rendered between the two.
    team: Vec<TeamEntry>,
}

impl Memories {
    fn read(store: &Store, directory: &str) -> Result<Memories, String> {
        let workspace = store.workspace(directory);
        let of_workspace = memory_ops::read_store(store, &workspace.memory_file())
            .map_err(failed)?
            .unwrap_or_else(|| WorkspaceMemory::new(&workspace.root, &workspace.key));
        let of_user = memory_ops::read_store(store, &store.user_memory_file())
            .map_err(failed)?
            .unwrap_or_else(|| WorkspaceMemory::new("", USER_KEY));
        Ok(Memories {
            team: crate::engine::team_layer::team_entries(store, directory),
            workspace,
            of_workspace,
            of_user,
        })
    }

    fn of(&self, scope: Owner) -> &WorkspaceMemory {
        match scope {
            Owner::Workspace => &self.of_workspace,
            Owner::User => &self.of_user,
        }
    }

    /// Every entry of both, the workspace's first, each with whether the block shows it.
    fn listing(&self, now_ms: i64) -> Vec<(Owner, Listed<'_>)> {
        [Owner::Workspace, Owner::User]
            .into_iter()
            .flat_map(|scope| {
                let (part, workspace) = match scope {
                    Owner::Workspace => (Part::Workspace, Some(&self.of_workspace)),
                    Owner::User => (Part::User, None),
                };
                let layers = Layers {
                    user: Some(&self.of_user),
                    team: &self.team,
                    workspace,
                };
                edit::listing_layered(part, layers, self.of(scope), now_ms)
                    .into_iter()
                    .map(move |listed| (scope, listed))
            })
            .collect()
    }
}

/// The store file of `scope`'s memory, and how to start it when there is none.
fn store_file(store: &Store, workspace: &Workspace, scope: Owner) -> std::path::PathBuf {
    match scope {
        Owner::Workspace => workspace.memory_file(),
        Owner::User => store.user_memory_file(),
    }
}

fn fresh(workspace: &Workspace, scope: Owner) -> WorkspaceMemory {
    match scope {
        Owner::Workspace => WorkspaceMemory::new(&workspace.root, &workspace.key),
        Owner::User => WorkspaceMemory::new("", USER_KEY),
    }
}

/// An entry as the tools answer it.
fn entry_json(scope: Owner, entry: &MemoryEntry, not_shown: Option<NotShown>) -> Value {
    let mut value = json!({
        "scope": scope.as_str(),
        "id": entry.id,
        "type": entry.kind.as_str(),
        "source": entry.source,
        "text": entry.text,
    });
    if let Some(why) = &entry.rationale {
        value["rationale"] = json!(why);
    }
    value["shown"] = json!(not_shown.is_none());
    if let Some(reason) = not_shown {
        value["notShown"] = json!(reason.label());
    }
    value["updatedAt"] = json!(entry.updated_at);
    value
}

/// Whether memory is off for `workspace`, and why: the tools then change nothing.
fn off_reason(ctx: &Context, workspace: &Workspace) -> Option<&'static str> {
    if ctx.disabled {
        Some("memory is off (OCMEM_DISABLE is set)")
    } else if is_off(workspace) {
        Some("memory is off for this workspace (`ocmem memory on` turns it back on)")
    } else {
        None
    }
}

const NEXT_SESSION: &str =
    "sessions already running keep the block they started with; new sessions show the change";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    query: String,
    limit: Option<u64>,
}

fn memory_search(ctx: &Context, store: &Store, directory: &str, args: SearchArgs) -> Answer {
    if args.query.trim().is_empty() {
        return Err("query is empty: give the words to look for".into());
    }
    let limit = match args.limit {
        None => DEFAULT_LIMIT,
        Some(n) if (1..=MAX_LIMIT).contains(&n) => n,
        Some(n) => return Err(format!("limit {n} is out of range: 1 to {MAX_LIMIT}")),
    };
    let memories = Memories::read(store, directory)?;
    let active: Vec<(Owner, Listed)> = memories
        .listing(ctx.now_ms)
        .into_iter()
        .filter(|(_, l)| l.entry.status == EntryStatus::Active)
        .collect();
    let texts: Vec<String> = active
        .iter()
        .map(|(_, l)| edit::searchable(l.entry))
        .collect();
    let results: Vec<Value> = search::top(&args.query, &texts, limit as usize)
        .into_iter()
        .map(|(at, score)| {
            let (scope, listed) = &active[at];
            let mut value = entry_json(*scope, listed.entry, listed.not_shown);
            value["score"] = json!(search::shown_score(score));
            value
        })
        .collect();
    Ok(json!({
        "workspace": memories.workspace.root,
        "query": args.query,
        "results": results,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    #[serde(rename = "type")]
    kind: Option<String>,
    source: Option<String>,
    scope: Option<String>,
    #[serde(default)]
    all: bool,
}

fn memory_type(name: &str) -> Result<MemoryType, String> {
    MemoryType::parse(name).ok_or_else(|| {
        format!("type {name:?} is not one of feedback, project, decision, reference")
    })
}

fn memory_list(ctx: &Context, store: &Store, directory: &str, args: ListArgs) -> Answer {
    let kind = args.kind.as_deref().map(memory_type).transpose()?;
    let source = match args.source.as_deref() {
        None => None,
        Some("explicit") => Some(Source::Explicit),
        Some("manual") => Some(Source::Manual),
        Some("compaction") => Some(Source::Compaction),
        Some(other) => {
            return Err(format!(
                "source {other:?} is not one of explicit, manual, compaction"
            ))
        }
    };
    let scopes: &[Owner] = match args.scope.as_deref() {
        None | Some("both") => &[Owner::User, Owner::Workspace],
        Some("workspace") => &[Owner::Workspace],
        Some("user") => &[Owner::User],
        Some(other) => {
            return Err(format!(
                "scope {other:?} is not one of workspace, user, both"
            ))
        }
    };
    let memories = Memories::read(store, directory)?;
    let listing = memories.listing(ctx.now_ms);
    let wanted: Vec<&(Owner, Listed)> = scopes
        .iter()
        .flat_map(|scope| listing.iter().filter(move |(s, _)| s == scope))
        .filter(|(_, l)| kind.is_none_or(|k| l.entry.kind == k))
        .filter(|(_, l)| source.is_none_or(|s| l.entry.source == s))
        .collect();
    let entries: Vec<Value> = wanted
        .iter()
        .filter(|(_, l)| args.all || l.not_shown.is_none())
        .map(|(scope, l)| entry_json(*scope, l.entry, l.not_shown))
        .collect();
    let mut answer = json!({
        "workspace": memories.workspace.root,
        "entries": entries,
    });
    if !args.all {
        answer["notShown"] = json!(wanted.len() - entries.len());
    }
    if let Some(why) = off_reason(ctx, &memories.workspace) {
        answer["off"] = json!(why);
    }
    Ok(answer)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddArgs {
    text: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    user: bool,
}

fn memory_add(ctx: &Context, store: &Store, directory: &str, args: AddArgs) -> Answer {
    let asked = args.kind.as_deref().map(memory_type).transpose()?;
    let workspace = store.workspace(directory);
    if let Some(why) = off_reason(ctx, &workspace) {
        return Err(format!("{why}; nothing was stored"));
    }
    // Checked before any store is touched: a refusal changes nothing on disk.
    let text = edit::checked_text(&args.text)?;
    let kind = edit::kind_of(&text, asked);
    if let Some(refused) = edit::agent_refusal(&text, kind) {
        return Err(refused);
    }
    let scope = if args.user {
        Owner::User
    } else {
        Owner::Workspace
    };
    let added = memory_ops::add_to_store(
        store,
        &store_file(store, &workspace, scope),
        || fresh(&workspace, scope),
        &text,
        Some(kind),
    )
    .map_err(failed)?;
    let outcome = match &added.merged {
        Merged::Added { .. } => "added",
        Merged::Replaced { .. } => "replaced",
        Merged::Duplicate { .. } => "duplicate",
        // `add_to_store` refuses these with an error.
        Merged::Empty | Merged::Refused { .. } => "refused",
    };
    let mut answer = json!({"outcome": outcome});
    if let Some(entry) = &added.entry {
        answer["entry"] = entry_json(scope, entry, None);
        answer["entry"]
            .as_object_mut()
            .expect("an object")
            .remove("shown");
    }
    if let Merged::Replaced { superseded, .. } = &added.merged {
        answer["superseded"] = json!(superseded);
    }
    answer["note"] = json!(match outcome {
        "duplicate" => "already remembered; nothing changed",
        _ => NEXT_SESSION,
    });
    Ok(answer)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForgetArgs {
    id: Option<String>,
    #[serde(rename = "match")]
    matching: Option<String>,
}

/// A line naming an entry, for a list of candidates.
fn candidate_line(scope: Owner, entry: &MemoryEntry) -> String {
    format!(
        "- {} ({}) [{}] {}",
        entry.id,
        scope.as_str(),
        entry.kind.as_str(),
        entry.text
    )
}

fn memory_forget(ctx: &Context, store: &Store, directory: &str, args: ForgetArgs) -> Answer {
    let memories = Memories::read(store, directory)?;
    let found: Vec<(Owner, &MemoryEntry)> = match (&args.id, &args.matching) {
        (Some(_), Some(_)) => return Err("give id or match, not both".into()),
        (None, None) => return Err("give the entry's id, or match: words its text holds".into()),
        (Some(id), None) => {
            let mut found = Vec::new();
            let mut errors = Vec::new();
            for scope in [Owner::Workspace, Owner::User] {
                let entries = &memories.of(scope).entries;
                match edit::find(entries, id) {
                    Ok(at) => found.push((scope, &entries[at])),
                    Err(e) => errors.push(e),
                }
            }
            if found.is_empty() {
                // Ambiguity in one store says more than absence from the other.
                let why = errors
                    .iter()
                    .find(|e| e.contains("give the whole id"))
                    .unwrap_or(&errors[0]);
                return Err(format!("{why}; nothing was changed"));
            }
            found
        }
        (None, Some(query)) => {
            if query.trim().is_empty() {
                return Err("match is empty: give words the entry's text holds".into());
            }
            let found: Vec<(Owner, &MemoryEntry)> = [Owner::Workspace, Owner::User]
                .into_iter()
                .flat_map(|scope| {
                    let memory = memories.of(scope);
                    edit::matching(memory, query)
                        .into_iter()
                        .map(move |at| (scope, &memory.entries[at]))
                })
                .collect();
            if found.is_empty() {
                return Err(format!(
                    "no active entry holds every word of {query:?}; nothing was changed"
                ));
            }
            found
        }
    };
    if let [(scope, entry)] = found.as_slice() {
        if let Some(why) = off_reason(ctx, &memories.workspace) {
            return Err(format!("{why}; nothing was changed"));
        }
        let path = store_file(store, &memories.workspace, *scope);
        let outcomes = memory_ops::forget_in_store(store, &path, std::slice::from_ref(&entry.id))
            .map_err(failed)?;
        let already = outcomes
            .iter()
            .any(|(_, changed)| *changed == Changed::Already);
        return Ok(json!({
            "outcome": if already { "already-forgotten" } else { "forgotten" },
            "entry": entry_json(*scope, entry, Some(NotShown::Superseded)),
            "note": if already {
                "it was forgotten already; nothing changed".to_string()
            } else {
                format!("`ocmem memory restore {}` brings it back; {NEXT_SESSION}", entry.id)
            },
        }));
    }
    let lines: Vec<String> = found
        .iter()
        .map(|(scope, entry)| candidate_line(*scope, entry))
        .collect();
    Err(format!(
        "{} entries match; nothing was changed. Forget one by its id: {}",
        found.len(),
        lines.join(" ")
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HotStateArgs {
    session_id: Option<String>,
}

fn hot_state_of(store: &Store, directory: &str, args: HotStateArgs) -> Answer {
    let workspace = store.workspace(directory);
    let state: Option<SessionState> = match &args.session_id {
        Some(id) if id.trim().is_empty() => {
            return Err("session_id is empty; omit it for the latest session".into())
        }
        Some(id) => match store.read_session(&workspace, id).map_err(failed)? {
            Some(state) => Some(state),
            None => {
                return Err(format!(
                    "this workspace has no session {id:?}; omit session_id for its latest session"
                ))
            }
        },
        None => store.latest_session(&workspace).map_err(failed)?,
    };
    let Some(state) = state else {
        return Ok(json!({
            "workspace": workspace.root,
            "session": null,
            "note": "no session of this workspace has been recorded yet",
        }));
    };
    let files: Vec<Value> = active_files::ranked(&state.active_files)
        .into_iter()
        .take(active_files::SHOWN)
        .map(|file| {
            json!({
                "path": relative_to(&workspace.root, &file.path),
                "action": file.action.as_str(),
                "count": file.count,
            })
        })
        .collect();
    let errors: Vec<Value> = open_errors::shown(&state.open_errors)
        .into_iter()
        .map(|error| {
            let mut value = json!({
                "category": error.category.as_str(),
                "summary": error.summary,
                "status": error.status,
            });
            if let Some(command) = &error.command {
                value["command"] = json!(command);
            }
            if let Some(file) = &error.file {
                value["file"] = json!(relative_to(&workspace.root, file));
            }
            value
        })
        .collect();
    Ok(json!({
        "workspace": workspace.root,
        "session": state.session_id,
        "updatedAt": state.updated_at,
        "activeFiles": files,
        "openErrors": errors,
        "block": hot_state(&state, &workspace.root),
    }))
}

#[cfg(test)]
mod tests;
