//! `ocmem sessions`: the digests of a workspace's past sessions, the latest first.

use anyhow::Result;

use super::Run;
use crate::cli::Sessions;
use crate::context::Context;
use crate::domain::session::digest::{cut, SessionDigest};
use crate::engine::sessions::target_workspace;

impl Run for Sessions {
    fn run(&self, ctx: &Context) -> Result<()> {
        let store = ctx.store();
        let workspace = target_workspace(&store, self.workspace.as_ref())?;
        let digests = store.digests(&workspace)?;
        let text = if self.json {
            format!(
                "{}\n",
                serde_json::to_string_pretty(&listing_json(&digests))?
            )
        } else {
            listing(&digests)
        };
        super::print(&text)
    }
}

/// One line per digest: when, host, title, counts.
pub fn listing(digests: &[SessionDigest]) -> String {
    if digests.is_empty() {
        return "no session digests for this workspace yet\n".to_string();
    }
    digests
        .iter()
        .map(|d| {
            format!(
                "{}  {:<11}  {}  ({})  {}\n",
                when(d),
                d.host,
                cut(&d.title(), 60),
                d.counts(),
                cut(&d.session_id, 24)
            )
        })
        .collect()
}

/// The digests as stored, each with its title.
fn listing_json(digests: &[SessionDigest]) -> serde_json::Value {
    digests
        .iter()
        .map(|d| {
            let mut value = serde_json::to_value(d).unwrap_or_default();
            value["title"] = d.title().into();
            value
        })
        .collect()
}

/// The minute a session last did something (its start when it never did).
fn when(digest: &SessionDigest) -> String {
    let at = if digest.ended_at.is_empty() {
        &digest.started_at
    } else {
        &digest.ended_at
    };
    at.get(..16).unwrap_or(at).replace('T', " ")
}
