//! The text to add to a compaction's prompt: how to write the memory candidates that
//! `promote` files, and what is already stored, as background not to be copied.

use anyhow::Result;

use super::team_layer::team_entries;
use crate::context::Context;
use crate::domain::memory::workspace::WorkspaceMemory;
use crate::domain::prompt::hot_state::hot_state;
use crate::domain::prompt::layers::{render_layers, Layers};
use crate::domain::session::event::SessionRef;
use crate::domain::session::state::SessionState;

/// What the summary must end with. Kept in one place so the parser in `candidates` and this
/// instruction cannot drift apart.
pub const CANDIDATES_INSTRUCTION: &str = "\
End your summary with a block that starts with the line `Memory candidates:` followed by one
line per durable fact worth keeping for future sessions in this workspace, written as

- [feedback|project|decision|reference] text

Only durable facts belong there:
- feedback: how the user wants you to work (preferences, corrections they made);
- project: stable facts and constraints of this codebase;
- decision: a decision that was taken, with a one-sentence rationale (\"Why: …\");
- reference: hard-to-rediscover pointers (URLs, dashboards, documents, commands).
Leave out progress and status, counts of tests or files, raw error messages, file lists, commit
hashes or git history, and anything only true for this session. Write each fact once, in one
line, without secrets. If nothing qualifies, write the `Memory candidates:` line with nothing
under it.";

/// The compaction instructions for `session`, with its memory and hot state as background.
pub fn instructions(ctx: &Context, session: SessionRef) -> Result<String> {
    let store = ctx.store();
    let workspace = store.workspace(session.directory);
    let session_id = session.session_id;
    // Team memory too, which the summary must not offer as the workspace's either.
    let team = team_entries(&store, session.directory);
    let memory: Option<WorkspaceMemory> = store.read(&workspace.memory_file())?;
    let session: Option<SessionState> = store.read(&workspace.session_file(session_id))?;
    // User memory too, so that the summary does not offer its entries again as the workspace's.
    let user = store.read_user_block_memory()?;
    let layers = Layers {
        user: user.as_ref(),
        team: &team,
        workspace: memory.as_ref(),
    };
    // No clock in the background: the same stores always give the same prompt.
    let memory_block = render_layers(layers, None).text();
    let session_block = session
        .map(|s| hot_state(&s, &workspace.root))
        .unwrap_or_default();

    let mut out = String::from(CANDIDATES_INSTRUCTION);
    out.push('\n');
    let background: Vec<&str> = [memory_block.as_str(), session_block.as_str()]
        .into_iter()
        .filter(|b| !b.is_empty())
        .collect();
    if !background.is_empty() {
        out.push_str(
            "\nBackground, already stored by the memory tool. Do not copy it into the summary or \
             the candidates; add a candidate only for what it lacks or gets wrong:\n\n",
        );
        out.push_str(&background.join("\n\n"));
        out.push('\n');
    }
    Ok(out)
}
